// The safe `ast.literal_eval` port (src/python/literal.ts): every case of
// literal-cases.json (CPython 3.11's outcome, from literal-cases.gen.py) plus the
// behaviours that matter to evalwire, spelled out.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PythonCompatError } from "../../src/errors.js";
import { unicodeNameToCodePoint } from "../../src/evalwire/unicode-names.js";
import {
  PARSER_STACK,
  PY_ELLIPSIS,
  PyBytes,
  PyComplex,
  PyDict,
  PySet,
  PyTuple,
  RECURSION_DEPTH,
  literalEval,
  type PyValue,
} from "../../src/python/literal.js";

type Encoded = [string, ...unknown[]];
interface LiteralCase {
  readonly src: string;
  readonly kind: string;
  readonly value?: Encoded;
}

const cases = JSON.parse(readFileSync(new URL("./literal-cases.json", import.meta.url), "utf8")) as LiteralCase[];

const bitsHex = (x: number): string => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return Array.from(new Uint8Array(view.buffer), (b) => b.toString(16).padStart(2, "0")).join("");
};

const byJson = (a: unknown, b: unknown): number => {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The generator's encoding of a value parsed with `ints: "bigint"`. */
function encode(value: PyValue): Encoded {
  if (value === null || value === undefined) return ["None"];
  if (typeof value === "boolean") return ["bool", value];
  if (typeof value === "bigint") return ["int", value.toString(16)];
  if (typeof value === "number") return ["float", bitsHex(value)];
  if (typeof value === "string") return ["str", Array.from(value, (c) => c.codePointAt(0))];
  if (value instanceof PyComplex) return ["complex", bitsHex(value.real), bitsHex(value.imag)];
  if (value instanceof PyBytes) return ["bytes", Array.from(value.bytes, (b) => b.toString(16).padStart(2, "0")).join("")];
  if (value === PY_ELLIPSIS) return ["ellipsis"];
  if (value instanceof PyTuple) return ["tuple", value.items.map(encode)];
  if (Array.isArray(value)) return ["list", value.map((item: PyValue) => encode(item))];
  if (value instanceof PySet) return ["set", value.items.map(encode).sort(byJson)];
  const entries = value instanceof PyDict ? value.entries() : Object.entries(value);
  return ["dict", entries.map(([k, v]) => [encode(k), encode(v)]).sort(byJson)];
}

function outcome(src: string): { kind: string; value?: Encoded } {
  try {
    return { kind: "ok", value: encode(literalEval(src, { ints: "bigint", unicodeName: unicodeNameToCodePoint })) };
  } catch (error) {
    if (!(error instanceof PythonCompatError)) throw error;
    return { kind: error.pythonType === "ValueError" || error.pythonType === "SyntaxError" ? "kept" : error.pythonType };
  }
}

const parse = (src: string): PyValue => literalEval(src, { unicodeName: unicodeNameToCodePoint });
const pythonType = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof PythonCompatError ? error.pythonType : `JS ${String(error)}`;
  }
};

/**
 * Documented deviations (README-evalwire.md): a JS string cannot hold two escaped surrogates
 * apart from the character they pair into, so `'\ud83d\ude00'` reads as "😀" (Python keeps two
 * lone surrogates).
 */
const DEVIATIONS: Record<string, { kind: string; value: Encoded }> = {
  "'\\ud83d\\ude00'": { kind: "ok", value: ["str", [0x1f600]] },
};

describe("literalEval against CPython 3.11 (literal-cases.json)", () => {
  it.each(cases.map((c) => [JSON.stringify(c.src).slice(0, 60), c] as const))("%s", (_name, c) => {
    const want = DEVIATIONS[c.src] ?? (c.value === undefined ? { kind: c.kind } : { kind: c.kind, value: c.value });
    expect(outcome(c.src)).toEqual(want);
  });
});

describe("literalEval", () => {
  it("reads ints in every base, with underscores, exactly", () => {
    expect(parse("0x10")).toBe(16);
    expect(parse("0o17")).toBe(15);
    expect(parse("0b101")).toBe(5);
    expect(parse("1_000")).toBe(1000);
    expect(parse("12345678901234567891")).toBe(12345678901234567891n);
    expect(literalEval("7", { ints: "bigint" })).toBe(7n);
    expect(pythonType(() => parse("1__0"))).toBe("SyntaxError");
    expect(pythonType(() => parse("017"))).toBe("SyntaxError");
  });

  it("keeps Python's signs: -0 is the int 0, -0.0 the float -0.0", () => {
    expect(Object.is(parse("-0"), 0)).toBe(true);
    expect(Object.is(parse("-0.0"), -0)).toBe(true);
    expect(literalEval("-0", { ints: "bigint" })).toBe(0n);
    expect(parse("1e400")).toBe(Infinity);
    expect(parse("-1e400")).toBe(-Infinity);
  });

  it("reads complex literals, one unary sign on a number, and nothing else", () => {
    expect(parse("1+2j")).toEqual(new PyComplex(1, 2));
    expect(parse("-1j")).toEqual(new PyComplex(-0, -1));
    expect(pythonType(() => parse("--5"))).toBe("ValueError");
    expect(pythonType(() => parse("1+2"))).toBe("ValueError");
    expect(pythonType(() => parse("2j-1"))).toBe("ValueError");
    expect(pythonType(() => parse("1" + "0".repeat(400) + "+1j"))).toBe("OverflowError");
  });

  it("decodes every string escape and prefix, and concatenates adjacent literals", () => {
    expect(parse(String.raw`'\n\t\x41\101\u00e9\U0001F600'`)).toBe("\n\tAAé😀");
    expect(parse(String.raw`'\N{EM DASH}\N{bullet}'`)).toBe("—•");
    expect(parse(String.raw`'\d'`)).toBe("\\d");
    expect(parse(String.raw`r'\d+'`)).toBe("\\d+");
    expect(parse("'a' \"b\" '''c'''")).toBe("abc");
    expect(parse("b'\\xffA'")).toEqual(new PyBytes(Uint8Array.from([255, 65])));
    expect(pythonType(() => parse("'a' b'b'"))).toBe("SyntaxError");
    expect(pythonType(() => parse("f'x'"))).toBe("ValueError");
    expect(pythonType(() => parse(String.raw`'\N{NO SUCH NAME}'`))).toBe("SyntaxError");
  });

  it("without a name table, resolves only the algorithmic \\N names", () => {
    expect(literalEval(String.raw`'\N{HANGUL SYLLABLE GAG}\N{CJK UNIFIED IDEOGRAPH-4E00}'`)).toBe("각一");
    expect(pythonType(() => literalEval(String.raw`'\N{EM DASH}'`))).toBe("SyntaxError");
  });

  it("builds tuples, lists, sets and dicts with Python's equality and hashing", () => {
    expect(parse("(1, 'a')")).toEqual(new PyTuple([1, "a"]));
    expect(parse("[1, [2]]")).toEqual([1, [2]]);
    const set = parse("{1, True, 1.0, 2}") as PySet;
    expect(set.items).toEqual([1, 2]);
    expect(parse("set()")).toEqual(new PySet());
    expect(parse("{'a': 1, 'a': 2}")).toEqual({ a: 2 });
    const dict = parse("{1: 'a', True: 'b'}") as PyDict;
    expect(dict.entries()).toEqual([[1, "b"]]);
    expect(parse("...")).toBe(PY_ELLIPSIS);
    expect(pythonType(() => parse("{[1]: 2}"))).toBe("TypeError");
    expect(pythonType(() => parse("{{}}"))).toBe("TypeError");
    // A malformed node met first wins over the unhashable key, as in `_convert`.
    expect(pythonType(() => parse("{[1]: a}"))).toBe("ValueError");
    expect(pythonType(() => parse("[{[1]: 2}, 1 if x else 2]"))).toBe("TypeError");
  });

  it("rejects names, calls and operators with ValueError, broken text with SyntaxError", () => {
    for (const src of ["a", "true", "null", "nan", "inf", "é", "x()", "a.b", "[x for x in y]", "lambda: 1", "not 1"]) {
      expect(
        pythonType(() => parse(src)),
        src,
      ).toBe("ValueError");
    }
    for (const src of ["['a', 'b'", "🙂", "'unterminated", "x = 1", "1 2", ",", "\u30001", "\n  1", "1\n  "]) {
      expect(
        pythonType(() => parse(src)),
        src,
      ).toBe("SyntaxError");
    }
  });

  it("strips only leading spaces and tabs; comments, newlines and parentheses are fine", () => {
    expect(parse("  \t['a']")).toEqual(["a"]);
    expect(parse("\n['a'] # note\n")).toEqual(["a"]);
    expect(parse("(((1)))")).toBe(1);
    expect(parse("[\n  1,\n  2,\n]")).toEqual([1, 2]);
  });

  it("stops where CPython's limits stop it", () => {
    expect(pythonType(() => parse("[".repeat(200) + "]".repeat(200)))).toBeUndefined();
    expect(pythonType(() => parse("[".repeat(201) + "]".repeat(201)))).toBe("SyntaxError");
    expect(pythonType(() => parse("1" + "0".repeat(4300)))).toBe("SyntaxError");
    expect(pythonType(() => parse("-".repeat(1000) + "1"))).toBe("ValueError");
    expect(pythonType(() => parse("1" + "+1".repeat(RECURSION_DEPTH + 10)))).toBe("RecursionError");
    expect(pythonType(() => parse("-".repeat(PARSER_STACK + 10) + "1"))).toBe("MemoryError");
    expect(pythonType(() => parse("not ".repeat(PARSER_STACK + 10) + "1"))).toBe("MemoryError");
    expect(pythonType(() => parse("lambda: ".repeat(20000) + "1"))).toBe("MemoryError");
  });

  it("never evaluates: a call in the text has no effect", () => {
    const globalRef = globalThis as { evalkernLiteralProbe?: boolean };
    expect(pythonType(() => parse("__import__('os').system('true')"))).toBe("ValueError");
    expect(pythonType(() => parse("(globalThis.evalkernLiteralProbe := True)"))).toBe("SyntaxError");
    expect(globalRef.evalkernLiteralProbe).toBeUndefined();
  });
});
