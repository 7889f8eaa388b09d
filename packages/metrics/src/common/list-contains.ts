// autoevals `ListContains` (js/list.ts): how well a list of strings covers the expected list, pairing
// items one-to-one by best total similarity (Levenshtein by default).
import { levenshteinBatch as kernelBatch } from "@evalkern/core-wasm";
import { InvalidArgumentError } from "../errors.js";
import { maxWeightAssignment } from "./assignment.js";
import { scorerText } from "./levenshtein.js";
import type { Score, Scorer } from "./score.js";

export interface ListContainsArgs {
  readonly output: readonly unknown[];
  readonly expected?: readonly unknown[];
  /** Similarity of two items (default: Levenshtein similarity over code points). Must be synchronous. */
  readonly pairwiseScorer?: Scorer<string>;
  /** Divide by the expected count only, so extra output items cost nothing (default false). */
  readonly allowExtraEntities?: boolean;
}

/** One output item paired with one expected item. */
export interface ListContainsPair {
  readonly output: unknown;
  readonly expected: unknown;
  readonly score: number;
}

function similarities(output: readonly unknown[], expected: readonly unknown[], scorer: Scorer<string> | undefined): number[][] {
  if (scorer === undefined) {
    // every pair in one kernel crossing
    const a: string[] = [];
    const b: string[] = [];
    const outText = output.map((x, i) => scorerText(x, `output[${i}]`));
    const expText = expected.map((x, j) => scorerText(x, `expected[${j}]`));
    for (const o of outText) for (const e of expText) a.push(o), b.push(e);
    const { distance, maxLength } = kernelBatch(a, b);
    return outText.map((_, i) =>
      expText.map((_, j) => {
        const k = i * expText.length + j;
        return maxLength[k]! > 0 ? 1 - distance[k]! / maxLength[k]! : 1;
      }),
    );
  }
  return output.map((o) =>
    expected.map((e) => {
      const s = scorer({ output: o as string, expected: e as string });
      if (typeof (s as unknown as PromiseLike<Score>)?.then === "function") {
        throw new InvalidArgumentError("pairwiseScorer returned a Promise: it must be synchronous", { argument: "pairwiseScorer" });
      }
      const score = s?.score ?? 0;
      if (typeof score !== "number" || !Number.isFinite(score)) {
        throw new InvalidArgumentError("pairwiseScorer returned a score that is not a finite number or null", {
          argument: "pairwiseScorer",
        });
      }
      return score;
    }),
  );
}

/**
 * autoevals `ListContains`: the best one-to-one pairing of output and expected items (maximum total
 * similarity), summed and divided by `max(output.length, expected.length)` — or by `expected.length`
 * with `allowExtraEntities` — then clamped to [0, 1]. Both lists empty: 1; one empty: 0.
 * `metadata.pairs` lists the pairs in output order.
 *
 * Gotchas (differences from autoevals): similarity counts code points, not UTF-16 units; the pairing
 * of tied items may differ (the score does not); `metadata.pairs` is always present and the 1 × 1 case
 * is clamped like every other; a custom `pairwiseScorer` must be synchronous.
 *
 * @example ListContains({ output: ["paris", "rome"], expected: ["Rome", "Paris", "Oslo"] }).score
 */
export function ListContains(args: ListContainsArgs): Score {
  if (typeof args !== "object" || args === null) {
    throw new InvalidArgumentError("ListContains takes { output, expected }", { argument: "args" });
  }
  const { output, expected, pairwiseScorer, allowExtraEntities = false } = args;
  if (expected === undefined) {
    throw new InvalidArgumentError("ListContains requires an expected value", { argument: "expected", actual: "undefined" });
  }
  if (!Array.isArray(output) || !Array.isArray(expected)) {
    throw new InvalidArgumentError("ListContains compares two arrays", {
      argument: Array.isArray(output) ? "expected" : "output",
      expected: "array",
    });
  }
  if (pairwiseScorer !== undefined && typeof pairwiseScorer !== "function") {
    throw new InvalidArgumentError("pairwiseScorer must be a function", { argument: "pairwiseScorer" });
  }
  if (typeof allowExtraEntities !== "boolean") {
    throw new InvalidArgumentError("allowExtraEntities must be a boolean", { argument: "allowExtraEntities" });
  }
  if (output.length === 0 || expected.length === 0) {
    return { name: "ListContains", score: output.length === expected.length ? 1 : 0, metadata: { pairs: [] } };
  }
  const sim = similarities(output, expected, pairwiseScorer);
  const assigned = maxWeightAssignment(sim);
  const pairs: ListContainsPair[] = [];
  let sum = 0;
  assigned.forEach((c, r) => {
    if (c < 0) return;
    pairs.push({ output: output[r], expected: expected[c], score: sim[r]![c]! });
    sum += sim[r]![c]!;
  });
  const denominator = allowExtraEntities ? expected.length : Math.max(output.length, expected.length);
  return { name: "ListContains", score: Math.min(Math.max(sum / denominator, 0), 1), metadata: { pairs } };
}
