// Golden-file helpers for the BYOB suites: read testdata/golden/*.jsonl and parse each line keeping
// Python's int/float distinction (docs/spec/rule-metrics.md §0.2): `42.0` becomes `pyFloat(42)`, an int too
// large for a double becomes a bigint.
import { readGoldenLines } from "../../../../testdata/index.mjs";
import { pyFloat } from "../../src/python/repr.js";

export interface GoldenLine {
  readonly id: string;
  readonly fn: string;
  readonly args: Record<string, unknown>;
  readonly out: unknown;
  readonly [extra: string]: unknown;
}

/** Parses JSON text with Python number semantics. */
export function parsePyJson(text: string): unknown {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        const key = value() as string;
        ws();
        if (text[i++] !== ":") throw new SyntaxError(`expected : at ${i}`);
        Object.defineProperty(obj, key, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        const d = text[i++];
        if (d === "}") return obj;
        if (d !== ",") throw new SyntaxError(`expected , at ${i}`);
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return arr;
        if (d !== ",") throw new SyntaxError(`expected , at ${i}`);
      }
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const s = JSON.parse(text.slice(i, j + 1)) as string;
      i = j + 1;
      return s;
    }
    const lit = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity)/.exec(text.slice(i, i + 400));
    if (lit === null) throw new SyntaxError(`bad JSON at ${i}: ${text.slice(i, i + 20)}`);
    i += lit[0].length;
    const t = lit[0];
    if (t === "true") return true;
    if (t === "false") return false;
    if (t === "null") return null;
    if (/[.eE]|NaN|Infinity/.test(t)) {
      const v = Number(t);
      return Number.isInteger(v) || Object.is(v, -0) ? pyFloat(v) : v;
    }
    const big = BigInt(t);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  };
  const v = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`trailing text at ${i}`);
  return v;
}

/** All lines of a golden file, parsed with Python number semantics. */
export function readGolden(name: string): GoldenLine[] {
  return readGoldenLines(name).map((l) => parsePyJson(l) as GoldenLine);
}

/** The same lines with plain JSON.parse (numbers as JS numbers), for comparing outputs. */
export function readGoldenPlain(name: string): GoldenLine[] {
  return readGoldenLines(name).map((l) => JSON.parse(l) as GoldenLine);
}
