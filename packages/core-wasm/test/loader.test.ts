// The loader itself (src/kernel.ts), and a check that the cross-runtime rig really runs each suite in
// the runtime it claims (scripts/test-all.mjs sets EVALKERN_TEST_RUNTIME per suite).
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, NotReadyError } from "../src/errors.js";
import { sentenceBleu } from "../src/bleu.js";
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

describe("the module's exports", () => {
  // A hand-assembled module: memory and reserve(i32) -> i32, and none of the kernels.
  const memoryAndReserveOnly = new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00, // magic, version 1
    0x01,
    0x06,
    0x01,
    0x60,
    0x01,
    0x7f,
    0x01,
    0x7f, // types: (i32) -> i32
    0x03,
    0x02,
    0x01,
    0x00, // functions: one of type 0
    0x05,
    0x03,
    0x01,
    0x00,
    0x01, // memory: one page
    0x07,
    0x14,
    0x02, // exports: 2
    0x06,
    0x6d,
    0x65,
    0x6d,
    0x6f,
    0x72,
    0x79,
    0x02,
    0x00, // "memory"
    0x07,
    0x72,
    0x65,
    0x73,
    0x65,
    0x72,
    0x76,
    0x65,
    0x00,
    0x00, // "reserve"
    0x0a,
    0x06,
    0x01,
    0x04,
    0x00,
    0x20,
    0x00,
    0x0b, // code: local.get 0
  ]);

  it("are checked when the module is instantiated: a module without the kernels is refused by name", async () => {
    await ready();
    const before = kernels();
    const refused = ready({ wasm: memoryAndReserveOnly });
    await expect(refused).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(refused).rejects.toThrow(/does not export the kernels bleuStatsBatch, .*byobBleuScoreBatch/);
    // the instance in use stays
    expect(kernels()).toBe(before);
    expect(sentenceBleu("the cat sat", ["the cat sat"]).score).toBeCloseTo(100, 10);
  });
});
