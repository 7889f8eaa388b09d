// One error root: every error class core-wasm exports extends EvalkernError and has a stable string `code`.
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import {
  EvalkernError,
  InputTooLargeError,
  InvalidArgumentError,
  KernelAbortError,
  NotReadyError,
  OutOfMemoryError,
} from "../src/index.js";

const instances: Record<string, () => Error> = {
  EvalkernError: () => new EvalkernError("m"),
  InvalidArgumentError: () => new InvalidArgumentError("m", { argument: "a" }),
  NotReadyError: () => new NotReadyError(),
  KernelAbortError: () => new KernelAbortError("m"),
  InputTooLargeError: () => new InputTooLargeError("m", { argument: "a", kind: "string", limit: 1, size: 2, unit: "bytes" }),
  OutOfMemoryError: () => new OutOfMemoryError("m"),
};

describe("error root", () => {
  it("every exported error class is listed here", () => {
    const exported = Object.entries(api)
      .filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof Error)
      .map(([k]) => k);
    expect(exported.sort()).toEqual(Object.keys(instances).sort());
  });
  it.each(Object.entries(instances))("%s is an EvalkernError with a stable code", (name, make) => {
    const e = make();
    expect(e).toBeInstanceOf(EvalkernError);
    expect(EvalkernError.isInstance(e)).toBe(true);
    expect(e.name).toBe(name);
    const code = (e as EvalkernError).code;
    expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
    expect(make() as EvalkernError).toHaveProperty("code", code);
  });
  it("codes are distinct", () => {
    const codes = Object.values(instances).map((m) => (m() as EvalkernError).code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});
