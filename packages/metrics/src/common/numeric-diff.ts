// autoevals `NumericDiff` (js/number.ts): 1 - |expected - output| / (|expected| + |output|), 1 for 0 vs 0.
import { InvalidArgumentError } from "../errors.js";
import { requireExpected } from "./levenshtein.js";
import type { Score, ScorerArgs } from "./score.js";

function finite(value: unknown, argument: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidArgumentError(
      `NumericDiff needs finite numbers: ${argument} is ${typeof value === "number" ? String(value) : typeof value}`,
      { argument, expected: "finite number", actual: typeof value === "number" ? String(value) : typeof value },
    );
  }
  return value;
}

/**
 * The normalised difference of two numbers, as autoevals computes it: `0 vs 0` (either sign) is 1;
 * otherwise `1 - |e - o| / (|e| + |o|)`, which is 0 for opposite signs and falls towards 0 as the
 * numbers part.
 *
 * Gotchas (deliberate differences from autoevals): NaN, ±Infinity and non-numbers throw
 * `InvalidArgumentError` (autoevals returns NaN or Infinity-derived values silently); when
 * `|e| + |o|` overflows, both are halved first (exact at that magnitude), so `1e308` vs `-1e308` is 0
 * and `1.5e308` vs `1e308` is 0.8, not NaN or 1.
 *
 * @example numericDiff(9, 10) // 1 - 1/19
 */
export function numericDiff(output: number, expected: number): number {
  let o = finite(output, "output");
  let e = finite(expected, "expected");
  if (o === 0 && e === 0) return 1;
  if (!Number.isFinite(Math.abs(e) + Math.abs(o))) {
    o /= 2;
    e /= 2;
  }
  return 1 - Math.abs(e - o) / (Math.abs(e) + Math.abs(o));
}

/** autoevals `NumericDiff` scorer: `{ name: "NumericDiff", score: numericDiff(output, expected) }`. */
export function NumericDiff(args: ScorerArgs<number>): Score {
  const { output, expected } = requireExpected(args, "NumericDiff");
  return { name: "NumericDiff", score: numericDiff(output as number, expected as number), metadata: {} };
}
