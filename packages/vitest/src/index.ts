/**
 * `@evalkern/vitest`: evals as assertions in a vitest suite (like DeepEval's pytest integration).
 * Importing this module extends `expect` with `toScoreAtLeast` and `toScoreAtMost`, after compiling the
 * WebAssembly kernels once (top-level await), so the matchers are synchronous.
 *
 * Thresholds are on a 0–1 scale for every metric: BLEU and chrF (0–100 in sacreBLEU) are divided by 100.
 * A string is scored as one sentence against its reference(s); an array of strings is scored as a
 * corpus (BLEU/chrF from summed statistics, the others as the mean of sentence scores).
 *
 * @example
 * import { expect, test } from "vitest";
 * import "@evalkern/vitest";
 *
 * test("the summary keeps the facts", () => {
 *   expect(summary).toScoreAtLeast("rougeL", 0.4, { reference: goldSummary });
 *   expect(answer).toScoreAtLeast("f1", 0.7, { references: ["Paris", "Paris, France"] });
 *   expect(translations).toScoreAtLeast("bleu", 0.3, { references: goldTranslations }); // corpus BLEU ≥ 30
 * });
 */
import { ready } from "@evalkern/core-wasm";
import { getMetric, lexicalMetric, pairScore, type BuiltinMetricName, type MetricInstance } from "@evalkern/metrics/registry";
import { expect } from "vitest";

await ready();

/**
 * A metric by name — any metric of the @evalkern/metrics registry (`evalkern metrics` lists them; aliases
 * such as `tokenF1` work too) — or your own `(hypothesis, references) => score in [0, 1]`. The kernel
 * metrics are ready on import; the rule metrics (`byob-f1`, `evalwire-regex`, …) load on first use: call
 * `await loadMetrics()` from `@evalkern/metrics/registry` once (e.g. in a setup file) before using them.
 */
export type MatcherMetric = BuiltinMetricName | (string & {}) | ((hypothesis: string, references: readonly string[]) => number);

export interface ScoreOptions {
  /** The reference of a single output. */
  readonly reference?: string;
  /**
   * The references: for a single output, several acceptable references; for an array of outputs, one
   * reference (or list of references) per output.
   */
  readonly references?: readonly string[] | readonly (string | readonly string[])[];
  /** Metric options (BLEU `tokenize`, chrF `wordOrder`, ROUGE `useStemmer`, F1 `mode`...). */
  readonly options?: Readonly<Record<string, unknown>>;
}

function metricLabel(metric: MatcherMetric): string {
  return typeof metric === "function" ? metric.name || "custom metric" : metric;
}

/** The registry metric of a name with options (the unknown-name error lists every known metric). */
function registryMetric(metric: string, options: Readonly<Record<string, unknown>>): MetricInstance {
  getMetric(metric); // a typed UnknownMetricError with a did-you-mean for unknown names
  return lexicalMetric(metric, options);
}

/** The headline value (0–1 scale) of scores computed by `m` (`k` rows, `columns.length` wide). */
function headlineOf(m: MetricInstance, values: Float64Array, keys: readonly string[]): number {
  return values[keys.indexOf(m.headline)]! / m.scale;
}

function sentence(metric: MatcherMetric, hypothesis: string, refs: readonly string[], options: Readonly<Record<string, unknown>>): number {
  if (typeof metric === "function") return metric(hypothesis, refs);
  return pairScore(metric, hypothesis, refs, options).score;
}

/**
 * The score of `received` on `metric`, on a 0–1 scale.
 *
 * @example
 * evalScore("the cat sat", "bleu", { reference: "the cat sat down" });
 */
export function evalScore(received: unknown, metric: MatcherMetric, options: ScoreOptions = {}): number {
  const opts = options.options ?? {};
  if (typeof received === "string") {
    const refs = options.reference !== undefined ? [options.reference] : ((options.references ?? []) as readonly unknown[]);
    if (refs.length === 0 || refs.some((r) => typeof r !== "string"))
      throw new TypeError("give { reference } or { references: string[] } for a single output");
    return sentence(metric, received, refs as string[], opts);
  }
  if (Array.isArray(received) && received.every((x) => typeof x === "string")) {
    const refs = options.references;
    if (!Array.isArray(refs) || refs.length !== received.length)
      throw new TypeError(`give { references } with one entry per output (${received.length})`);
    // refs[i] holds the references of received[i]
    const lists = refs.map((r) => (typeof r === "string" ? [r] : [...(r as readonly string[])]));
    if (typeof metric === "function") {
      let sum = 0;
      received.forEach((h, i) => (sum += metric(h, lists[i]!)));
      return received.length ? sum / received.length : 0;
    }
    // the registry's corpus score: BLEU/chrF from summed statistics, the others the mean of sentence scores
    const m = registryMetric(metric, opts);
    if (received.length === 0) return 0;
    const stats = m.statistics(received, lists);
    const sums = new Float64Array(m.width);
    for (let i = 0; i < received.length; i++) for (let j = 0; j < m.width; j++) sums[j] = sums[j]! + stats[i * m.width + j]!;
    return headlineOf(m, m.corpusScores(sums, 1, received.length), m.scoreNames);
  }
  throw new TypeError(`expected a string or an array of strings to score, got ${received === null ? "null" : typeof received}`);
}

function preview(value: unknown): string {
  const s = typeof value === "string" ? value : JSON.stringify(value);
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

type MatcherResult = { pass: boolean; message: () => string; actual?: unknown; expected?: unknown };

function compare(
  received: unknown,
  metric: MatcherMetric,
  threshold: number,
  options: ScoreOptions | undefined,
  atLeast: boolean,
  isNot: boolean,
): MatcherResult {
  if (typeof threshold !== "number" || !Number.isFinite(threshold))
    throw new TypeError("the threshold must be a finite number (0–1 scale)");
  const score = evalScore(received, metric, options);
  const pass = atLeast ? score >= threshold : score <= threshold;
  const what = `${metricLabel(metric)} ${score.toFixed(4)} (0–1 scale)`;
  const refs = options?.reference !== undefined ? [options.reference] : options?.references;
  return {
    pass,
    actual: score,
    expected: threshold,
    message: () =>
      `expected ${Array.isArray(received) ? "outputs" : "output"} ${isNot ? "not " : ""}to score ` +
      `${atLeast ? "at least" : "at most"} ${threshold} on ${metricLabel(metric)}, got ${what}\n` +
      `  output:    ${preview(received)}\n  reference: ${preview(refs)}`,
  };
}

/**
 * A DeepEval-style metric (`BaseMetric` of @evalkern/metrics/deepeval, the judge metrics of @evalkern/judge,
 * or your own): measured on a test case, then `isSuccessful()` decides.
 */
export interface MeasurableMetric {
  readonly name?: string;
  readonly score?: number | null;
  readonly threshold?: number | null;
  readonly reason?: string | null;
  readonly error?: string | null;
  /** DeepEval's `a_measure` (judge metrics need it); used when present. */
  aMeasure?(testCase: never): Promise<unknown>;
  measure(testCase: never): unknown;
  isSuccessful(): boolean | null;
}

async function passMetric(received: unknown, metric: MeasurableMetric, isNot: boolean): Promise<MatcherResult> {
  if (typeof metric !== "object" || metric === null || typeof metric.measure !== "function" || typeof metric.isSuccessful !== "function") {
    throw new TypeError("toPassMetric takes a metric with measure() and isSuccessful() (a DeepEval-style BaseMetric)");
  }
  // a judge call that fails rejects here and fails the test with its own error: never a made-up verdict
  await (metric.aMeasure ? metric.aMeasure(received as never) : metric.measure(received as never));
  const pass = metric.isSuccessful() === true;
  const label = metric.name ?? metric.constructor?.name ?? "metric";
  const score = typeof metric.score === "number" ? metric.score.toFixed(4) : String(metric.score ?? null);
  return {
    pass,
    actual: metric.score ?? null,
    expected: metric.threshold ?? null,
    message: () =>
      `expected the test case ${isNot ? "not " : ""}to pass ${label}: score ${score}, threshold ${metric.threshold ?? "none"}` +
      `${metric.reason ? `\n  reason: ${metric.reason}` : ""}${metric.error ? `\n  error: ${metric.error}` : ""}`,
  };
}

/** The matchers, for `expect.extend` in setups that do not import this module's side effect. */
export const evalkernMatchers = {
  toScoreAtLeast(
    this: { isNot?: boolean },
    received: unknown,
    metric: MatcherMetric,
    threshold: number,
    options?: ScoreOptions,
  ): MatcherResult {
    return compare(received, metric, threshold, options, true, this.isNot === true);
  },
  toScoreAtMost(
    this: { isNot?: boolean },
    received: unknown,
    metric: MatcherMetric,
    threshold: number,
    options?: ScoreOptions,
  ): MatcherResult {
    return compare(received, metric, threshold, options, false, this.isNot === true);
  },
  /** `await expect(testCase).toPassMetric(new FaithfulnessMetric())`: DeepEval's assert_test for one metric. */
  toPassMetric(this: { isNot?: boolean }, received: unknown, metric: MeasurableMetric): Promise<MatcherResult> {
    return passMetric(received, metric, this.isNot === true);
  },
};

expect.extend(evalkernMatchers);

interface EvalkernMatchers<R = unknown> {
  /** The output scores ≥ `threshold` (0–1 scale) on `metric` against `{ reference }` / `{ references }`. */
  toScoreAtLeast(metric: MatcherMetric, threshold: number, options?: ScoreOptions): R;
  /** The output scores ≤ `threshold` (0–1 scale). */
  toScoreAtMost(metric: MatcherMetric, threshold: number, options?: ScoreOptions): R;
  /** Measures the test case with `metric` (async); passes when `metric.isSuccessful()`. Await it. */
  toPassMetric(metric: MeasurableMetric): Promise<R>;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends EvalkernMatchers<T> {}
}
