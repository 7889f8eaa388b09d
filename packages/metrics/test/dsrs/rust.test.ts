// docs/spec/dsrs.md §0.3: the Rust primitives the port emulates.
import { describe, expect, it } from "vitest";
import {
  debugCharList,
  debugString,
  debugStringList,
  formatFixed1,
  isSerdeJson,
  parseJsonSerde,
  parseRustF64,
  rustSplitWhitespace,
  rustTrim,
  utf8ByteLength,
} from "../../src/dsrs/index.js";

describe("str::len (UTF-8 bytes)", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["éé", 4],
    ["😀", 4],
    ["日本", 6],
    ["a\u0085", 3],
  ])("%j is %d bytes", (text, bytes) => {
    expect(utf8ByteLength(text)).toBe(bytes);
  });

  it("counts a lone surrogate as 3 bytes, like the U+FFFD TextEncoder writes", () => {
    expect(utf8ByteLength("\ud800")).toBe(3);
    expect(utf8ByteLength("a\udc00b")).toBe(5);
    expect(utf8ByteLength("\ud800")).toBe(new TextEncoder().encode("\ud800").length);
  });
});

describe("Unicode White_Space", () => {
  it("trims the White_Space set, including U+0085 but not U+FEFF", () => {
    expect(rustTrim("\u0085 x \u3000")).toBe("x");
    expect(rustTrim("\ufeffx")).toBe("\ufeffx");
    expect(rustTrim("\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\t\n\u000b\u000c\r x")).toBe("x");
    // JS's own trim differs on both counts.
    expect("\ufeffx".trim()).toBe("x");
    expect("\u0085x".trim()).toBe("\u0085x");
  });

  it("splits on whitespace runs and drops empty pieces", () => {
    expect(rustSplitWhitespace("  a \u0085\u00a0b\t\tc  ")).toEqual(["a", "b", "c"]);
    expect(rustSplitWhitespace("\u200b")).toEqual(["\u200b"]);
    expect(rustSplitWhitespace("   ")).toEqual([]);
  });
});

describe("str::parse::<f64> (run)", () => {
  it.each([
    ["1.", 1],
    [".5", 0.5],
    ["00.5", 0.5],
    ["+0.5", 0.5],
    ["-0", -0],
    ["1e-400", 0],
    ["1E2", 100],
    ["2.5e+1", 25],
  ])("parses %j", (text, value) => {
    expect(Object.is(parseRustF64(text), value)).toBe(true);
  });

  it.each(["inf", "-Infinity", "INF", "infinity"])("parses %j as an infinity", (text) => {
    expect(Math.abs(parseRustF64(text) as number)).toBe(Infinity);
  });

  it.each(["nan", "NaN", "-nan"])("parses %j as NaN", (text) => {
    expect(parseRustF64(text)).toBeNaN();
  });

  it.each(["", ".", " 0.5", "0.5 ", "0x10", "1_000", "1e", "e5", "+", "--1", "1.2.3", "١"])("rejects %j", (text) => {
    expect(parseRustF64(text)).toBeUndefined();
  });
});

describe("{:.1} with ties to even (run)", () => {
  it("prints 6.25 as 6.2 where toFixed prints 6.3", () => {
    expect(formatFixed1(6.25)).toBe("6.2");
    expect((6.25).toFixed(1)).toBe("6.3");
  });

  it.each([
    [6.75, "6.8"],
    [0.25, "0.2"],
    [0.75, "0.8"],
    [100, "100.0"],
    [0, "0.0"],
    [33.33333333333333, "33.3"],
    [66.66666666666666, "66.7"],
    [12.5, "12.5"],
    [-6.25, "-6.2"],
  ])("formats %d as %s", (value, text) => {
    expect(formatFixed1(value)).toBe(text);
  });
});

describe("Debug of string and char lists (run)", () => {
  it('quotes and joins with ", "', () => {
    expect(debugStringList(["two", "four"])).toBe('["two", "four"]');
    expect(debugStringList([])).toBe("[]");
  });

  it("escapes quotes, backslashes and \\n \\r \\t \\0, and writes other non-printables as \\u{hex}", () => {
    expect(debugString('a"b\\c\nd\re\tf\0g')).toBe('"a\\"b\\\\c\\nd\\re\\tf\\0g"');
    expect(debugString("zero\u200bwidth")).toBe('"zero\\u{200b}width"');
    expect(debugString("\u0001\u007f")).toBe('"\\u{1}\\u{7f}"');
    expect(debugString("nb\u00a0sp")).toBe('"nb\\u{a0}sp"');
    expect(debugString("it's")).toBe('"it\'s"');
  });

  it("keeps printable non-ASCII as is and escapes grapheme extenders", () => {
    expect(debugString("café 日本 😀")).toBe('"café 日本 😀"');
    expect(debugString("e\u0301")).toBe('"e\\u{301}"');
  });

  it("formats char lists with single quotes", () => {
    expect(debugCharList(["(", "[", "{"])).toBe("['(', '[', '{']");
  });
});

describe("serde_json::from_str strictness (§0.3)", () => {
  it("accepts what JSON.parse accepts for ordinary JSON, with JSON whitespace around", () => {
    expect(isSerdeJson(' \t\r\n{"a": [1, 2.5e3, "x"], "b": null} \n')).toBe(true);
    expect(isSerdeJson('{"a": 1, "a": 2}')).toBe(true);
    expect(parseJsonSerde('{"a": 1, "a": 2}')).toEqual({ ok: true, value: { a: 2 } });
    expect(isSerdeJson('"\\ud83d\\ude00"')).toBe(true);
    expect(isSerdeJson("1e-400")).toBe(true);
  });

  it("rejects non-JSON whitespace and trailing data", () => {
    expect(isSerdeJson("\u00a0{}")).toBe(false);
    expect(isSerdeJson("{} x")).toBe(false);
    expect(isSerdeJson("")).toBe(false);
  });

  it("parses 127 nested arrays and rejects 128 (run)", () => {
    expect(isSerdeJson(`${"[".repeat(127)}${"]".repeat(127)}`)).toBe(true);
    expect(isSerdeJson(`${"[".repeat(128)}${"]".repeat(128)}`)).toBe(false);
    expect(isSerdeJson(`${'{"a":'.repeat(127)}1${"}".repeat(127)}`)).toBe(true);
    expect(isSerdeJson(`${'{"a":'.repeat(64)}${"[".repeat(64)}${"]".repeat(64)}${"}".repeat(64)}`)).toBe(false);
    // JSON.parse alone accepts it.
    expect(() => JSON.parse(`${"[".repeat(128)}${"]".repeat(128)}`)).not.toThrow();
  });

  it("rejects numbers that overflow f64 and accepts underflow", () => {
    expect(isSerdeJson("1e400")).toBe(false);
    expect(isSerdeJson("-1e400")).toBe(false);
    expect(isSerdeJson(`[1, ${"9".repeat(400)}]`)).toBe(false);
    expect(isSerdeJson("-1e-400")).toBe(true);
    expect(isSerdeJson('"1e400"')).toBe(true);
  });

  it("rejects \\u escapes of unpaired surrogates, leading or trailing", () => {
    expect(isSerdeJson('"\\ud800"')).toBe(false);
    expect(isSerdeJson('"\\ud800x"')).toBe(false);
    expect(isSerdeJson('"\\ud800\\u0041"')).toBe(false);
    expect(isSerdeJson('"\\udc00"')).toBe(false);
    expect(isSerdeJson('"\\\\ud800"')).toBe(true);
    expect(JSON.parse('"\\ud800"')).toBe("\ud800");
  });
});
