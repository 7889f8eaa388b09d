// Python's `f"{x:.Nf}"` and `str.rstrip()`, as sacreBLEU prints scores and reads lines. Expected values
// from CPython 3.11: python3 -c 'print(f"{0.125:.2f}", f"{2.5:.0f}", f"{-0.04:.1f}", repr("a\x85 \u00a0".rstrip()))'
import { describe, expect, it } from "vitest";
import { pyFormatFixed, pyRstrip, pyStrip } from "../../src/python/index.js";

describe("pyFormatFixed", () => {
  it("rounds exact binary ties to even and keeps the sign of a negative zero, as Python formats", () => {
    expect(pyFormatFixed(0.125, 2)).toBe("0.12"); // toFixed says 0.13
    expect(pyFormatFixed(2.675, 2)).toBe("2.67");
    expect(pyFormatFixed(2.5, 0)).toBe("2");
    expect(pyFormatFixed(1.5, 0)).toBe("2");
    expect(pyFormatFixed(100, 1)).toBe("100.0");
    expect(pyFormatFixed(-0.04, 1)).toBe("-0.0");
    expect(pyFormatFixed(64.54296161678332, 1)).toBe("64.5");
  });
});

describe("pyRstrip / pyStrip", () => {
  it("remove Python's whitespace (U+0085, U+00A0, U+001C) but not U+FEFF or U+200B", () => {
    expect(pyRstrip("a\u0085 \u00a0\u001c")).toBe("a");
    expect(pyRstrip(" a\u200b")).toBe(" a\u200b");
    expect(pyRstrip("a\ufeff")).toBe("a\ufeff");
    expect(pyStrip("\u3000 a b\r\n")).toBe("a b");
  });
});
