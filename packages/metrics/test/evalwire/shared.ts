// Golden lines of testdata/golden/evalwire.jsonl (docs/spec/rule-metrics.md §0.2), read through
// testdata/index.mjs and decoded into the Python value model: `$py` tags become PyTuple/PySet/PyBytes/PyComplex/
// PY_ELLIPSIS, `$float` tags become non-finite numbers, and ints stay exact (`bigint` beyond
// ±2^53, or always with `ints: "bigint"`).
import { readGoldenLines } from "../../../../testdata/index.mjs";
import { PY_ELLIPSIS, PyBytes, PyComplex, PySet, PyTuple, literalEval, pyJsonLoads, type PyValue } from "../../src/evalwire/index.js";
import { setOwn, type PyStrDict } from "../../src/python/equality.js";

export interface EvalwireGolden {
  readonly id: string;
  readonly fn: string;
  readonly factory: Record<string, PyValue> | undefined;
  readonly args: Record<string, PyValue>;
  readonly out: PyValue;
  /** The line as written, for failure messages. */
  readonly line: string;
}

/** Every line of golden/evalwire.jsonl, values parsed as Python's json module would. */
export function readEvalwireGoldens(ints: "number" | "bigint" = "number"): EvalwireGolden[] {
  return readGoldenLines("evalwire.jsonl").map((line) => {
    const record = pyJsonLoads(line, { ints }) as Record<string, PyValue>;
    return {
      id: record.id as string,
      fn: record.fn as string,
      factory: record.factory as Record<string, PyValue> | undefined,
      args: record.args as Record<string, PyValue>,
      out: record.out as PyValue,
      line,
    };
  });
}

/** The golden's `{"error": "TypeName"}`, or undefined for a value. */
export function goldenError(out: PyValue): string | undefined {
  if (typeof out === "object" && out !== null && !Array.isArray(out) && Object.keys(out).length === 1) {
    const error = (out as PyStrDict).error;
    if (typeof error === "string") return error;
  }
  return undefined;
}

function complexFromRepr(repr: string): PyComplex {
  const body = repr.startsWith("(") ? repr.slice(1, -1) : repr;
  const number = String.raw`[+-]?(?:inf|nan|\d+(?:\.\d*)?(?:e[+-]?\d+)?)`;
  const match = new RegExp(`^(?:(${number})(?=[+-]))?(${number})j$`).exec(body);
  if (match === null) throw new Error(`unreadable complex repr ${repr}`);
  const read = (text: string | undefined): number => (text === undefined ? 0 : Number(text.replace("inf", "Infinity")));
  return new PyComplex(read(match[1]), read(match[2]));
}

/** A golden value with its `$py`/`$float` tags turned into the value model. */
export function decodeTagged(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map((item: PyValue) => decodeTagged(item));
  if (typeof value !== "object" || value === null || !(Object.getPrototypeOf(value) === Object.prototype)) return value;
  const record = value as PyStrDict;
  if (typeof record.$float === "string" && Object.keys(record).length === 1) {
    return record.$float === "nan" ? NaN : record.$float === "inf" ? Infinity : -Infinity;
  }
  switch (record.$py) {
    case "tuple":
      return new PyTuple((record.items as PyValue[]).map(decodeTagged));
    case "set":
      return new PySet((record.items as PyValue[]).map(decodeTagged));
    case "bytes": {
      const bytes = literalEval(record.repr as string);
      if (!(bytes instanceof PyBytes)) throw new Error(`unreadable bytes repr ${String(record.repr)}`);
      return bytes;
    }
    case "complex":
      return complexFromRepr(record.repr as string);
    case "ellipsis":
      return PY_ELLIPSIS;
    default: {
      const out: PyStrDict = {};
      for (const [key, item] of Object.entries(record)) setOwn(out, key, decodeTagged(item));
      return out;
    }
  }
}
