// The loader itself (src/kernel.ts), and a check that the cross-runtime rig really runs each suite in
// the runtime it claims (scripts/test-all.mjs sets EVALKERN_TEST_RUNTIME per suite).
import { describe, expect, it } from "vitest";
import { NotReadyError } from "../src/errors.js";
import { isReady, kernels, ready } from "../src/kernel.js";
import { detectedRuntime, expectedRuntime, runtimeDescription } from "./runtime.js";

describe("runtime", () => {
  it("runs in the runtime the rig started", () => {
    const expected = expectedRuntime();
    console.log(`[loader.test] runtime: ${runtimeDescription()} (rig expects ${expected ?? "nothing"})`);
    if (expected !== undefined) expect(detectedRuntime()).toBe(expected);
    if (expected === "deno") expect(typeof (globalThis as { Deno?: unknown }).Deno).toBe("object");
  });
});

describe("loader", () => {
  it("throws NotReadyError from kernels() before ready() in a fresh module", async () => {
    // A query string gives a separate module instance (own module state) in Vite, browsers and Deno,
    // so this holds whatever other test files did to the shared instance first.
    const fresh = (await import(/* @vite-ignore */ `../src/kernel.js?fresh=${Date.now()}`)) as typeof import("../src/kernel.js");
    expect(fresh.isReady()).toBe(false);
    expect(() => fresh.kernels()).toThrow(NotReadyError);
    let caught: unknown;
    try {
      fresh.kernels();
    } catch (error) {
      caught = error;
    }
    expect(NotReadyError.isInstance(caught)).toBe(true);
    expect((caught as Error).name).toBe("NotReadyError");
  });

  it("ready() resolves, is idempotent, and makes isReady() true", async () => {
    await expect(ready()).resolves.toBeUndefined();
    expect(isReady()).toBe(true);
    const first = kernels();
    await ready();
    await Promise.all([ready(), ready()]);
    expect(isReady()).toBe(true);
    expect(kernels()).toBe(first);
  });

  it("reserve(1024) returns a positive 16-aligned pointer inside memory", async () => {
    await ready();
    const k = kernels();
    const ptr = k.reserve(1024);
    expect(Number.isInteger(ptr)).toBe(true);
    expect(ptr).toBeGreaterThan(0);
    expect(ptr % 16).toBe(0);
    expect(ptr + 1024).toBeLessThanOrEqual(k.memory.buffer.byteLength);
  });
});
