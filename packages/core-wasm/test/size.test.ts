// A size budget for the module browsers download: it holds every kernel plus 37.9 KB of Unicode tables.
import { describe, expect, it } from "vitest";
import { WASM_BASE64, WASM_BYTES } from "../src/wasm.generated.js";

describe("module size", () => {
  it("stays within 128 KiB raw", () => {
    expect(WASM_BYTES).toBeGreaterThan(0);
    expect(Math.ceil((WASM_BYTES * 4) / 3 / 4) * 4).toBe(WASM_BASE64.length);
    expect(WASM_BYTES).toBeLessThan(128 * 1024);
  });
});
