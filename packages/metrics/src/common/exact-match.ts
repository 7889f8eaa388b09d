// autoevals `ExactMatch` (js/value.ts): equality of two values after autoevals' normalisation — when either
// side is an object, an array or null, both sides are compared as JSON text (a string side is parsed and
// re-serialised first, so `'{"a": 1}'` equals `{ a: 1 }`); otherwise as their string forms.
import { InvalidArgumentError } from "../errors.js";
import type { Score } from "./score.js";

/** What JSON text can represent; bigint, symbol and function values are refused. */
function checkValue(value: unknown, argument: string): void {
  const t = typeof value;
  if (t === "bigint" || t === "symbol" || t === "function") {
    throw new InvalidArgumentError(`ExactMatch compares JSON-like values: ${argument} is a ${t}`, { argument, actual: t });
  }
}

/** autoevals' test for "serialise as JSON": `typeof value === "object"`, which includes null and arrays. */
const needsJson = (value: unknown): boolean => typeof value === "object";

/**
 * The text autoevals compares: objects, arrays and null as `JSON.stringify`; a string, when the other
 * side needs JSON, re-serialised if it parses as JSON (kept as written if not); anything else `${value}`.
 */
export function normalizeValue(value: unknown, maybeObject: boolean): string {
  if (needsJson(value)) return JSON.stringify(value);
  if (typeof value === "string" && maybeObject) {
    try {
      return JSON.stringify(JSON.parse(value));
    } catch {
      // not JSON: autoevals compares the text as written
    }
  }
  return `${value as string | number | boolean | undefined}`;
}

/** `ExactMatch`'s arguments: any two values (an absent one counts as null, as in autoevals). */
export interface ExactMatchArgs {
  readonly output: unknown;
  readonly expected?: unknown;
}

/**
 * autoevals `ExactMatch`: 1 when output and expected are the same value, else 0.
 *
 * Details: an absent `output`/`expected` is null. When either side is an object, an array or null,
 * both are compared as JSON text (a string side that parses as JSON is re-serialised, so spacing does
 * not matter but key order does, as in autoevals); otherwise `String(output) === String(expected)`, so
 * `1` equals `"1"`.
 *
 * Gotchas: bigint, symbol and function values throw `InvalidArgumentError` (autoevals throws a bare
 * TypeError or compares source text).
 *
 * @example ExactMatch({ output: '{"a": [1, 2]}', expected: { a: [1, 2] } }) // { name: "ExactMatch", score: 1, metadata: {} }
 */
export function ExactMatch(args: ExactMatchArgs): Score {
  if (typeof args !== "object" || args === null) {
    throw new InvalidArgumentError("ExactMatch takes { output, expected }", { argument: "args" });
  }
  const output = args.output ?? null;
  const expected = args.expected ?? null;
  checkValue(output, "output");
  checkValue(expected, "expected");
  const maybeObject = needsJson(output) || needsJson(expected);
  const score = normalizeValue(output, maybeObject) === normalizeValue(expected, maybeObject) ? 1 : 0;
  return { name: "ExactMatch", score, metadata: {} };
}
