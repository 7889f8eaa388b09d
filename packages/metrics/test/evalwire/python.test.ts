// The Python primitives under evalwire (docs/spec/rule-metrics.md §0.1, §3.6, §3.8): `==` over the value
// model, `float()`, `statistics.mean` and `json.loads`. Expected values were checked with
// CPython 3.11.
import { describe, expect, it } from "vitest";
import { PythonCompatError } from "../../src/errors.js";
import { pyJsonLoads } from "../../src/evalwire/python-json.js";
import {
  PY_ELLIPSIS,
  PyBytes,
  PyComplex,
  PyDict,
  PySet,
  PyTuple,
  pyEquals,
  pyHashKey,
  pyTruthy,
  pyTypeName,
} from "../../src/python/equality.js";
import { pyFloat } from "../../src/python/float-parse.js";
import { exactMean, ratioToDouble } from "../../src/python/mean.js";

const pythonType = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof PythonCompatError ? error.pythonType : `JS ${String(error)}`;
  }
};

describe("pyEquals (Python ==)", () => {
  it("equates bool, int, float and complex by value", () => {
    expect(pyEquals(1, 1.0)).toBe(true);
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals(false, -0)).toBe(true);
    expect(pyEquals(0n, false)).toBe(true);
    expect(pyEquals(new PyComplex(1, 0), 1)).toBe(true);
    expect(pyEquals(new PyComplex(1, 1), 1)).toBe(false);
    expect(pyEquals(true, 2)).toBe(false);
  });

  it("compares big ints with floats exactly", () => {
    expect(pyEquals(12345678901234567890n, 12345678901234567891n)).toBe(false);
    expect(pyEquals(9007199254740993n, 9007199254740992)).toBe(false);
    expect(pyEquals(9007199254740992n, 9007199254740992)).toBe(true);
    expect(pyEquals(2n ** 1100n, Infinity)).toBe(false);
  });

  it("never equates str with numbers, lists with tuples, or bytes with str", () => {
    expect(pyEquals("1", 1)).toBe(false);
    expect(pyEquals([1], new PyTuple([1]))).toBe(false);
    expect(pyEquals(new PyBytes(Uint8Array.from([97])), "a")).toBe(false);
    expect(pyEquals(null, false)).toBe(false);
    expect(pyEquals(PY_ELLIPSIS, PY_ELLIPSIS)).toBe(true);
  });

  it("compares containers deeply, with the same rules inside", () => {
    expect(pyEquals([1, [true, "a"]], [1.0, [1, "a"]])).toBe(true);
    expect(pyEquals({ a: 1, b: [2] }, { b: [2.0], a: true })).toBe(true);
    expect(pyEquals({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(pyEquals(new PyDict([[1, "x"]]), new PyDict([[1.0, "x"]]))).toBe(true);
    expect(pyEquals(new PyDict([["a", 1]]), { a: 1 })).toBe(true);
    expect(pyEquals(new PySet([1, 2]), new PySet([2, 1.0]))).toBe(true);
    expect(pyEquals(new PySet([1]), [1])).toBe(false);
  });

  it("keeps NaN unequal at the top level, equal when nested (json.loads shares one NaN)", () => {
    expect(pyEquals(NaN, NaN)).toBe(false);
    expect(pyEquals([NaN], [NaN])).toBe(true);
    expect(pyEquals({ a: NaN }, { a: NaN })).toBe(true);
  });

  it("hashes like Python: equal values share a key, lists and dicts are unhashable", () => {
    expect(pyHashKey(1)).toBe(pyHashKey(true));
    expect(pyHashKey(1)).toBe(pyHashKey(1n));
    expect(pyHashKey(0)).toBe(pyHashKey(-0));
    expect(pyHashKey(new PyComplex(2, 0))).toBe(pyHashKey(2));
    expect(pyHashKey(new PyTuple([1, "a"]))).toBe(pyHashKey(new PyTuple([true, "a"])));
    expect(pythonType(() => pyHashKey([1]))).toBe("TypeError");
    expect(pythonType(() => pyHashKey({}))).toBe("TypeError");
    expect(pythonType(() => pyHashKey(new PyTuple([[1]])))).toBe("TypeError");
    expect(new PySet([1, true, 1.0, "1"]).items).toEqual([1, "1"]);
  });

  it("knows Python truthiness and type names", () => {
    for (const falsy of [
      "",
      0,
      -0,
      0n,
      false,
      null,
      [],
      {},
      new PyTuple([]),
      new PySet(),
      new PyComplex(0, 0),
      new PyBytes(new Uint8Array()),
    ]) {
      expect(pyTruthy(falsy)).toBe(false);
    }
    for (const truthy of ["0", 1, [0], { a: 0 }, PY_ELLIPSIS, new PyComplex(0, 1)]) expect(pyTruthy(truthy)).toBe(true);
    expect([1, 1.5, -0, 1n, true, "s", null, [], {}, new PyTuple([]), PY_ELLIPSIS].map(pyTypeName)).toEqual([
      "int",
      "float",
      "float",
      "int",
      "bool",
      "str",
      "NoneType",
      "list",
      "dict",
      "tuple",
      "ellipsis",
    ]);
  });
});

describe("pyFloat (Python float())", () => {
  it("accepts what Python accepts", () => {
    expect(pyFloat("1_000")).toBe(1000);
    expect(pyFloat("1e1_0")).toBe(1e10);
    expect(pyFloat(" \t7\n")).toBe(7);
    expect(pyFloat("\u30007\u00a0")).toBe(7);
    expect(pyFloat("\u2007-7.5\u2029")).toBe(-7.5);
    expect(pyFloat("١٢٣")).toBe(123);
    expect(pyFloat("１２３")).toBe(123);
    expect(pyFloat("१२३.५")).toBe(123.5);
    expect(pyFloat(".5")).toBe(0.5);
    expect(pyFloat("5.")).toBe(5);
    expect(pyFloat("-Infinity")).toBe(-Infinity);
    expect(pyFloat("iNf")).toBe(Infinity);
    expect(pyFloat("+nan")).toBeNaN();
    expect(pyFloat("1e400")).toBe(Infinity);
    expect(Object.is(pyFloat("-0"), -0)).toBe(true);
    expect(pyFloat("9.999995000000001e-10")).toBe(9.999995000000001e-10);
  });

  it("rejects what Python rejects", () => {
    for (const text of [
      "",
      " ",
      ".",
      "e5",
      "1e",
      "0x10",
      "1__0",
      "_1",
      "1_",
      "1_.5",
      "1._5",
      "\u001c7",
      "7\u001f",
      "\u200b7",
      "\ufeff7",
      "²",
      "Ⅻ",
      "infinit",
      "nan1",
      "1 2",
      "--1",
      "7\u0000",
    ]) {
      expect(
        pythonType(() => pyFloat(text)),
        JSON.stringify(text),
      ).toBe("ValueError");
    }
  });

  it("converts the other types as Python does", () => {
    expect(pyFloat(true)).toBe(1);
    expect(pyFloat(12345678901234567891n)).toBe(12345678901234567000);
    expect(pythonType(() => pyFloat(10n ** 400n))).toBe("OverflowError");
    expect(pyFloat(new PyBytes(new TextEncoder().encode(" 1_5 ")))).toBe(15);
    expect(pythonType(() => pyFloat(new PyBytes(new TextEncoder().encode("١"))))).toBe("ValueError");
    for (const value of [null, [1], { a: 1 }, new PyComplex(1, 0), new PyTuple([]), PY_ELLIPSIS]) {
      expect(pythonType(() => pyFloat(value))).toBe("TypeError");
    }
  });
});

describe("exactMean (statistics.mean)", () => {
  it("is the exact rational mean rounded once", () => {
    expect(exactMean([0.95, 1.0, 1.0])).toBe(0.9833333333333333);
    expect((0.95 + 1.0 + 1.0) / 3).toBe(0.9833333333333334);
    expect(exactMean([0.1, 0.2, 0.3])).toBe(0.2);
    expect(exactMean([1e308, 1e308])).toBe(1e308);
    expect(exactMean([5e-324, 0])).toBe(0); // a tie between 0 and 5e-324: to even
    expect(exactMean([5e-324, 5e-324, 0])).toBe(5e-324);
    expect(exactMean([-0.5, 0.5])).toBe(0);
    expect(exactMean([1 - 11 / 20])).toBe(0.44999999999999996);
  });

  it("rounds ties to even and handles the extremes", () => {
    expect(ratioToDouble(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(ratioToDouble(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(ratioToDouble(1n, 3n)).toBe(1 / 3);
    expect(ratioToDouble(-2n, 3n)).toBe(-2 / 3);
    expect(ratioToDouble(1n, 2n ** 1075n)).toBe(0);
    expect(ratioToDouble(3n, 2n ** 1076n)).toBe(5e-324);
    expect(ratioToDouble(2n ** 1024n, 1n)).toBe(Infinity);
  });

  it("propagates non-finite values and refuses an empty input", () => {
    expect(exactMean([Infinity, 1])).toBe(Infinity);
    expect(exactMean([Infinity, -Infinity])).toBeNaN();
    expect(pythonType(() => exactMean([]))).toBe("statistics.StatisticsError");
  });
});

describe("pyJsonLoads (json.loads)", () => {
  it("reads Python's JSON: NaN and Infinity, exact ints, -0 as int 0", () => {
    expect(pyJsonLoads('{"a": NaN, "b": [Infinity, -Infinity]}')).toEqual({ a: NaN, b: [Infinity, -Infinity] });
    expect(pyJsonLoads("12345678901234567891")).toBe(12345678901234567891n);
    expect(Object.is(pyJsonLoads("-0"), 0)).toBe(true);
    expect(Object.is(pyJsonLoads("-0.0"), -0)).toBe(true);
    expect(pyJsonLoads("1e400")).toBe(Infinity);
    expect(pyJsonLoads('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    expect(pyJsonLoads('"\\ud83d\\ude00\\u00e9"')).toBe("😀é");
    expect(pyJsonLoads(" \t\n\r[1]\r\n")).toEqual([1]);
    expect(pyJsonLoads('{"__proto__": 1}')).toEqual(JSON.parse('{"__proto__": 1}'));
  });

  it("raises JSONDecodeError where Python does", () => {
    for (const text of [
      "",
      " ",
      "\ufeff1",
      "[1,]",
      '{"a": 1,}',
      "1 x",
      "nan",
      "-NaN",
      "+1",
      ".5",
      "1.",
      "01",
      "True",
      "'a'",
      '"\t"',
      '"\\x41"',
      "\u00a01",
      "[1\u3000]",
      "\f1",
    ]) {
      expect(
        pythonType(() => pyJsonLoads(text)),
        JSON.stringify(text),
      ).toBe("json.JSONDecodeError");
    }
  });

  it("raises the errors evalwire does not catch", () => {
    expect(pythonType(() => pyJsonLoads("1".repeat(4301)))).toBe("ValueError");
    expect(pythonType(() => pyJsonLoads("-" + "1".repeat(4300)))).toBeUndefined();
    expect(pythonType(() => pyJsonLoads("[".repeat(5000) + "]".repeat(5000)))).toBe("RecursionError");
    expect(pythonType(() => pyJsonLoads(new PyBytes(Uint8Array.from([0xff]))))).toBe("UnicodeDecodeError");
    expect(pythonType(() => pyJsonLoads(5))).toBe("TypeError");
    expect(pythonType(() => pyJsonLoads(null))).toBe("TypeError");
  });

  it("decodes bytes with Python's encoding detection", () => {
    const utf8 = (text: string): PyBytes => new PyBytes(new TextEncoder().encode(text));
    expect(pyJsonLoads(utf8('{"a": "é"}'))).toEqual({ a: "é" });
    expect(pyJsonLoads(new PyBytes(Uint8Array.from([0xef, 0xbb, 0xbf, 0x31])))).toBe(1);
    expect(pyJsonLoads(new PyBytes(Uint8Array.from([0x5b, 0x00, 0x31, 0x00, 0x5d, 0x00])))).toEqual([1]);
    expect(pyJsonLoads(new PyBytes(Uint8Array.from([0x00, 0x00, 0x00, 0x37])))).toBe(7);
  });
});
