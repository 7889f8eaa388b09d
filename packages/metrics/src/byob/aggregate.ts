// BYOB `aggregate_scores` (contrib/byob/aggregation.py; docs/spec/rule-metrics.md §2.14).
import { PythonCompatError } from "../errors.js";
import { PyFloat } from "../python/repr.js";
import { pyRound } from "../python/round.js";

/** One metric's summary, every float already through Python `round(x, 4)`. */
export interface AggregatedScore {
  readonly value: number;
  readonly stats: { readonly count: number; readonly mean: number; readonly stderr: number; readonly stddev: number };
}

/** `aggregate_scores` output: `{}` for no rows. */
export type AggregateResult =
  | Record<string, never>
  | { readonly tasks: Record<string, { readonly metrics: { readonly "pass@1": { readonly scores: Record<string, AggregatedScore> } } }> };

/** Python's `isinstance(v, (bool, int, float))` and `float(v)` under the value model of repr.ts. */
function numericValue(v: unknown): number | undefined {
  if (typeof v === "boolean") return v ? 1.0 : 0.0;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (PyFloat.isInstance(v)) return v.value;
  return undefined;
}

/** Python `sorted()` of str keys: by code point, not by UTF-16 unit. */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * BYOB `aggregate_scores(scores, benchmark_name)`: per metric key (every key with a bool/int/float value
 * in some row, in Python `sorted()` order), the mean over the rows that have a number there (booleans
 * count 1/0), population stddev and stderr = stddev/sqrt(n) (0 for n ≤ 1), each rounded with Python's
 * `round(x, 4)`.
 *
 * @example
 * aggregateScores([{ correct: true }, { correct: false }], "qa")
 * // { tasks: { qa: { metrics: { "pass@1": { scores: { correct: {
 * //   value: 0.5, stats: { count: 2, mean: 0.5, stderr: 0.3536, stddev: 0.5 } } } } } } } }
 */
export function aggregateScores(scores: readonly Readonly<Record<string, unknown>>[], benchmarkName: string): AggregateResult {
  if (!Array.isArray(scores)) throw new PythonCompatError("TypeError", "scores must be a list of dicts");
  if (typeof benchmarkName !== "string") throw new PythonCompatError("TypeError", "benchmark_name must be a str");
  if (scores.length === 0) return {};
  const keys = new Set<string>();
  for (const row of scores) {
    if (typeof row !== "object" || row === null || Array.isArray(row))
      throw new PythonCompatError("AttributeError", "each score row must be a dict");
    for (const [k, v] of Object.entries(row)) if (numericValue(v) !== undefined) keys.add(k);
  }
  const out: Record<string, AggregatedScore> = {};
  for (const key of [...keys].sort(compareCodePoints)) {
    const values: number[] = [];
    for (const row of scores) {
      if (!Object.prototype.hasOwnProperty.call(row, key)) continue;
      const v = numericValue(row[key]);
      if (v !== undefined) values.push(v);
    }
    if (values.length === 0) continue;
    const n = values.length;
    let sum = 0;
    for (const v of values) sum += v; // left to right, as CPython 3.11's sum()
    const mean = sum / n;
    let variance = 0.0;
    let stddev = 0.0;
    let stderr = 0.0;
    if (n > 1) {
      let sq = 0;
      for (const v of values) {
        const d = v - mean;
        sq += d * d;
      }
      variance = sq / n;
      stddev = Math.sqrt(variance);
      stderr = stddev / Math.sqrt(n);
    }
    const m = pyRound(mean, 4);
    out[key] = { value: m, stats: { count: n, mean: m, stderr: pyRound(stderr, 4), stddev: pyRound(stddev, 4) } };
  }
  return { tasks: { [benchmarkName]: { metrics: { "pass@1": { scores: out } } } } };
}
