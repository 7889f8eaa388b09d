// dsrs `AggregationMethod::aggregate` (scoring.rs:17-78, docs/spec/dsrs.md §4.1).
import { InvalidArgumentError } from "../../errors.js";

/**
 * How scores are combined across rollouts and tasks: `"median"` (default), `"mean"`, `"min"`, `"max"`,
 * or `{ trimmedMean: percent }` — a **percentage** as in dsrs (10 means 10 %), not a fraction.
 */
export type AggregationMethod = "median" | "mean" | "min" | "max" | { readonly trimmedMean: number };

/** The dsrs variant names: `AggregationMethod.TrimmedMean(10)` is `{ trimmedMean: 10 }`. */
export const AggregationMethod = Object.freeze({
  Median: "median",
  Mean: "mean",
  Min: "min",
  Max: "max",
  TrimmedMean: (percent: number): AggregationMethod => ({ trimmedMean: checkPercent(percent) }),
} as const);

function checkPercent(percent: unknown): number {
  if (typeof percent !== "number" || !Number.isFinite(percent) || percent < 0) {
    throw new InvalidArgumentError("trimmedMean must be a finite, non-negative percentage (10 means 10 %)", {
      argument: "method.trimmedMean",
      actual: String(percent),
    });
  }
  return percent;
}

/** Throws `InvalidArgumentError` unless `method` is an `AggregationMethod`. */
export function checkAggregationMethod(method: unknown): AggregationMethod {
  if (method === "median" || method === "mean" || method === "min" || method === "max") return method;
  if (typeof method === "object" && method !== null && "trimmedMean" in method) {
    return { trimmedMean: checkPercent((method as { trimmedMean: unknown }).trimmedMean) };
  }
  throw new InvalidArgumentError('method must be "median", "mean", "min", "max" or { trimmedMean: percent }', {
    argument: "method",
    actual: typeof method === "object" ? JSON.stringify(method) : String(method),
  });
}

function sortedCopy(scores: readonly number[]): number[] {
  return [...scores].sort((a, b) => a - b);
}

function median(scores: readonly number[]): number {
  const sorted = sortedCopy(scores);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2 : (sorted[mid] as number);
}

/**
 * Aggregate `scores` (dsrs `AggregationMethod::aggregate`).
 *
 * Details:
 * - Empty list → 0 for every method (checked first).
 * - `"median"`: sorted ascending; even counts take the mean of the two middle values.
 * - `"mean"`: sum in list order / count. `"min"`/`"max"`: the extreme value.
 * - `{ trimmedMean: p }`: k = floor(n·p/100); if 2k ≥ n the median of the list, else the mean of the
 *   sorted values k … n−k−1, summed in sorted order. n = 10, p = 10 drops one value at each end;
 *   n = 4, p = 50 gives the median.
 *
 * Gotchas: NaN scores and negative or non-finite percentages throw `InvalidArgumentError` (dsrs
 * sorts NaN to an unspecified place and reads a negative percentage as 0).
 *
 * @example
 * aggregate([0.1, 0.9, 0.5, 0.7], "median");          // 0.6
 * aggregate([1, 2, 3, 4, 5, 6, 7, 8, 9, 100], { trimmedMean: 10 }); // 5.5
 */
export function aggregate(scores: readonly number[], method: AggregationMethod = "median"): number {
  const checked = checkAggregationMethod(method);
  if (!Array.isArray(scores)) {
    throw new InvalidArgumentError("scores must be an array of numbers", { argument: "scores", actual: typeof scores });
  }
  scores.forEach((score, index) => {
    if (typeof score !== "number" || Number.isNaN(score)) {
      throw new InvalidArgumentError("scores must be numbers (NaN is not a score)", { argument: "scores", index, actual: String(score) });
    }
  });
  if (scores.length === 0) return 0;
  switch (checked) {
    case "median":
      return median(scores);
    case "mean": {
      let sum = 0;
      for (const score of scores) sum += score;
      return sum / scores.length;
    }
    case "min":
      return scores.reduce((a, b) => Math.min(a, b), Infinity);
    case "max":
      return scores.reduce((a, b) => Math.max(a, b), -Infinity);
    default: {
      const n = scores.length;
      const k = Math.floor((n * checked.trimmedMean) / 100);
      if (2 * k >= n) return median(scores);
      const sorted = sortedCopy(scores);
      let sum = 0;
      for (let i = k; i < n - k; i++) sum += sorted[i] as number;
      return sum / (n - 2 * k);
    }
  }
}
