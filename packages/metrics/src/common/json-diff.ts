// autoevals `JSONDiff` (js/json.ts): a recursive similarity of two JSON values, strings scored with
// Levenshtein and numbers with NumericDiff by default.
import { InvalidArgumentError } from "../errors.js";
import { Levenshtein } from "./levenshtein.js";
import { NumericDiff } from "./numeric-diff.js";
import type { Score, Scorer } from "./score.js";

export interface JSONDiffArgs {
  readonly output: unknown;
  readonly expected?: unknown;
  /** Scores two strings (default: `Levenshtein`, over code points). Must be synchronous. */
  readonly stringScorer?: Scorer<string>;
  /** Scores two numbers (default: `NumericDiff`). Must be synchronous. */
  readonly numberScorer?: Scorer<number>;
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function checkJsonish(v: unknown, path: string): void {
  const t = typeof v;
  if (t === "function" || t === "symbol" || t === "bigint") {
    throw new InvalidArgumentError(`JSONDiff compares JSON values: ${path} is a ${t}`, { argument: path, actual: t });
  }
}

/** autoevals' replacer: objects re-created with their keys sorted, so key order does not matter. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (!isObject(value)) return value;
  const out: Obj = {};
  for (const k of Object.keys(value).sort()) out[k] = value[k];
  return out;
}

function scoreOf(s: Score | PromiseLike<Score>, which: string): number | null {
  if (typeof (s as PromiseLike<Score>)?.then === "function") {
    throw new InvalidArgumentError(`JSONDiff's ${which} returned a Promise: scorers plugged in here must be synchronous`, {
      argument: which,
    });
  }
  const score = (s as Score)?.score;
  if (score !== null && (typeof score !== "number" || Number.isNaN(score))) {
    throw new InvalidArgumentError(`JSONDiff's ${which} returned a score that is not a number or null`, { argument: which });
  }
  return score;
}

function diff(a: unknown, b: unknown, strings: Scorer<string>, numbers: Scorer<number>, path: string): number | null {
  checkJsonish(a, `output${path}`);
  checkJsonish(b, `expected${path}`);
  if (isObject(a) && isObject(b)) {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.length === 0 && keysB.length === 0) return 1;
    const keys = [...new Set([...keysA, ...keysB])];
    let sum = 0;
    let count = 0;
    for (const k of keys) {
      const s = diff(a[k], b[k], strings, numbers, `${path}.${k}`);
      if (s !== null) {
        sum += s;
        count++;
      }
    }
    return count > 0 ? sum / count : null;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === 0 && b.length === 0) return 1;
    let sum = 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const s = diff(a[i], b[i], strings, numbers, `${path}[${i}]`);
      if (s !== null) sum += s;
    }
    return sum / Math.max(a.length, b.length);
  }
  if (typeof a === "string" && typeof b === "string") return scoreOf(strings({ output: a, expected: b }), "stringScorer");
  if (typeof a === "number" && typeof b === "number") return scoreOf(numbers({ output: a, expected: b }), "numberScorer");
  const noneA = a === null || a === undefined;
  const noneB = b === null || b === undefined;
  if (noneA && noneB) return 1;
  if (noneA || noneB) return 0;
  // different kinds (or booleans): compare their JSON text
  return scoreOf(strings({ output: jsonText(a, `output${path}`), expected: jsonText(b, `expected${path}`) }), "stringScorer");
}

/** JSON text with sorted keys; a nested bigint or a cycle (JSON.stringify's TypeErrors) is a typed error. */
function jsonText(v: unknown, path: string): string {
  try {
    return JSON.stringify(v, sortedKeys);
  } catch (e) {
    throw new InvalidArgumentError(`JSONDiff compares JSON values: ${path} cannot be written as JSON (${(e as Error).message})`, {
      argument: path,
    });
  }
}

/**
 * autoevals `JSONDiff`: similarity of two JSON values in [0, 1].
 *
 * Details: objects score the mean over the union of their keys (a key missing on one side scores 0,
 * `null`/missing on both sides 1); arrays the sum over the common prefix divided by the longer length;
 * strings `stringScorer`, numbers `numberScorer`; two empty objects or arrays 1; values of different
 * kinds are compared as JSON text (keys sorted) with `stringScorer`.
 *
 * Gotchas (deliberate differences from autoevals): strings are compared in code points (autoevals:
 * UTF-16 units); an object whose children all score `null` gives `null` (autoevals: NaN); functions,
 * symbols and bigints throw `InvalidArgumentError`; non-finite numbers throw (from `NumericDiff`);
 * custom scorers must be synchronous.
 *
 * @example JSONDiff({ output: { a: "cat", b: 1 }, expected: { a: "bat", b: 1 } }).score // (1 - 1/3 + 1) / 2
 */
export function JSONDiff(args: JSONDiffArgs): Score {
  if (typeof args !== "object" || args === null) {
    throw new InvalidArgumentError("JSONDiff takes { output, expected }", { argument: "args" });
  }
  const strings = args.stringScorer ?? (Levenshtein as Scorer<string>);
  const numbers = args.numberScorer ?? NumericDiff;
  if (typeof strings !== "function" || typeof numbers !== "function") {
    throw new InvalidArgumentError("stringScorer and numberScorer must be functions", { argument: "stringScorer" });
  }
  return { name: "JSONDiff", score: diff(args.output, args.expected, strings, numbers, ""), metadata: {} };
}
