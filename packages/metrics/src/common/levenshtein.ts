// Levenshtein distance and normalised similarity over code points (core-wasm kernel), and the
// autoevals-style `Levenshtein` scorer. autoevals, promptfoo and evalite count UTF-16 units (via
// js-levenshtein / fastest-levenshtein), so an emoji or any astral character costs them 2 edits.
import { levenshteinBatch as kernelBatch, levenshteinDistance } from "@evalkern/core-wasm";
import { InvalidArgumentError } from "../errors.js";
import type { Score, ScorerArgs } from "./score.js";

/**
 * Edit distance (insertions, deletions, substitutions, each 1) between `a` and `b`, in code points.
 *
 * Gotchas: no normalisation: `"e\u0301"` vs `"é"` is 2. A lone surrogate counts as one U+FFFD.
 *
 * @example levenshtein("kitten", "sitting") // 3
 * @example levenshtein("😀", "")            // 1 (UTF-16 based libraries: 2)
 */
export function levenshtein(a: string, b: string): number {
  return levenshteinDistance(a, b);
}

/**
 * `1 - distance / max(length(a), length(b))` in code points, and 1 for two empty strings: autoevals'
 * `Levenshtein` score, counted in code points.
 *
 * @example levenshteinSimilarity("kitten", "sitting") // 1 - 3/7
 */
export function levenshteinSimilarity(a: string, b: string): number {
  return levenshteinSimilarityBatch([a], [b])[0]!;
}

/** Distances of many pairs (`a[i]` vs `b[i]`) in one kernel crossing. */
export function levenshteinBatch(a: readonly string[], b: readonly string[]): Float64Array {
  return kernelBatch(a, b).distance;
}

/** Similarities of many pairs in one kernel crossing. */
export function levenshteinSimilarityBatch(a: readonly string[], b: readonly string[]): Float64Array {
  const { distance, maxLength } = kernelBatch(a, b);
  const out = new Float64Array(distance.length);
  for (let i = 0; i < out.length; i++) out[i] = maxLength[i]! > 0 ? 1 - distance[i]! / maxLength[i]! : 1;
  return out;
}

/** autoevals stringifies its inputs with a template literal; a symbol cannot be, so it is rejected. */
export function scorerText(value: unknown, argument: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "symbol") {
    throw new InvalidArgumentError(`${argument} cannot be turned into text (symbol)`, { argument, actual: "symbol" });
  }
  try {
    return `${value as string}`;
  } catch {
    // a null-prototype object (no toString/valueOf), or one whose conversion throws: autoevals' template
    // literal would throw a TypeError too; say which argument it was
    throw new InvalidArgumentError(`${argument} cannot be turned into text (an object without a usable toString)`, {
      argument,
      actual: "object",
    });
  }
}

export function requireExpected(args: unknown, scorer: string): { output: unknown; expected: unknown } {
  if (typeof args !== "object" || args === null) {
    throw new InvalidArgumentError(`${scorer} takes { output, expected }`, { argument: "args", expected: "object" });
  }
  const { output, expected } = args as { output?: unknown; expected?: unknown };
  if (expected === undefined) {
    throw new InvalidArgumentError(`${scorer} requires an expected value`, { argument: "expected", actual: "undefined" });
  }
  return { output, expected };
}

/**
 * autoevals `Levenshtein` scorer: `{ name: "Levenshtein", score: levenshteinSimilarity(output, expected) }`,
 * with `metadata.distance` and `metadata.maxLength` (code points). Non-string inputs are stringified as
 * autoevals does (`${x}`).
 *
 * @example Levenshtein({ output: "color", expected: "colour" }).score // 1 - 1/6
 */
export function Levenshtein(args: ScorerArgs<unknown>): Score {
  const { output, expected } = requireExpected(args, "Levenshtein");
  const { distance, maxLength } = kernelBatch([scorerText(output, "output")], [scorerText(expected, "expected")]);
  const d = distance[0]!;
  const m = maxLength[0]!;
  return { name: "Levenshtein", score: m > 0 ? 1 - d / m : 1, metadata: { distance: d, maxLength: m } };
}
