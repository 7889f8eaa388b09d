// DeepEval's `evaluate(test_cases, metrics)` and `assert_test(test_case, metrics)`: every test case
// measured by every applicable metric (a fresh copy of the metric per test case, as DeepEval does),
// concurrently, with per-case, per-metric score / reason / success / cost / error. One failing
// measurement is recorded on its row; it never stops the run or becomes a score.
import {
  ConversationalTestCase,
  LLMTestCase,
  MissingTestCaseParamsError,
  type BaseConversationalMetric,
  type BaseMetric,
  type ConversationalTestCaseInit,
  type LLMTestCaseInit,
  type SnakeCased,
} from "@evalkern/metrics/deepeval";
import { InvalidArgumentError, MetricAssertionError, type FailedMetric } from "../errors.js";

/** A metric `evaluate` runs: any single-turn or conversational DeepEval metric (rule-based or judged). */
export type DeepEvalMetric = BaseMetric | BaseConversationalMetric;

/** A test case, or its fields in camelCase or DeepEval's snake_case (`turns` makes it conversational). */
export type TestCaseLike =
  | LLMTestCase
  | ConversationalTestCase
  | LLMTestCaseInit
  | SnakeCased<LLMTestCaseInit>
  | ConversationalTestCaseInit
  | SnakeCased<ConversationalTestCaseInit>;

/**
 * How a judge metric got its score: `"structured"`, `"repaired-and-re-asked"`, `"logprob-weighted"`
 * or `"raw-score"` (see `@evalkern/judge`'s `ScoringPath`); null for rule metrics.
 */
export type ScoringPath = string;

/** One metric's measurement of one test case (DeepEval `MetricData`). */
export interface MetricResult {
  readonly name: string;
  /** Null when the measurement failed or was skipped (never a made-up 0). */
  readonly score: number | null;
  readonly threshold: number | null;
  /** Null without a threshold or when skipped; false after an error. */
  readonly success: boolean | null;
  readonly reason: string | null;
  /** Why the measurement failed, else null. */
  readonly error: string | null;
  readonly strictMode: boolean;
  readonly evaluationModel: string | null;
  /** USD; 0 for rule metrics; null when a price is unknown (see `costUnknown`). */
  readonly evaluationCost: number | null;
  /** True when the cost could not be priced (unknown model or custom judge): "unknown", not 0. */
  readonly costUnknown: boolean;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** Missing parameters with `skipOnMissingParams`. */
  readonly skipped: boolean;
  /** A flaky metric never decides the test case's success. */
  readonly flaky: boolean;
  /** How a judge metric got its score (`"structured"`, `"repaired-and-re-asked"`, `"logprob-weighted"`, `"raw-score"`); null for
   * rule metrics. */
  readonly scoringPath: ScoringPath | null;
  readonly verboseLogs: string | null;
}

/** One test case's results (DeepEval `TestResult`). */
export interface TestResult {
  /** Position in the `testCases` given. */
  readonly index: number;
  /** The test case's name, else `test_case_<index>` (DeepEval's default). */
  readonly name: string;
  readonly conversational: boolean;
  /** Every non-flaky, non-skipped metric with a threshold passed, and none failed with an error. */
  readonly success: boolean;
  readonly metricsData: readonly MetricResult[];
  readonly testCase: LLMTestCase | ConversationalTestCase;
  readonly input: string | null;
  readonly actualOutput: string | null;
  readonly expectedOutput: string | null;
}

/** Progress after each finished measurement. */
export interface EvaluateProgress {
  /** Measurements finished so far. */
  readonly completed: number;
  /** Measurements in the run (test cases × applicable metrics). */
  readonly total: number;
  readonly testCaseIndex: number;
  readonly metric: MetricResult;
}

export interface EvaluateOptions {
  /** Measurements in flight at once (DeepEval `AsyncConfig.max_concurrent`). Default 20. */
  readonly concurrency?: number;
  /** Called after every finished measurement (in completion order). A throwing callback is ignored. */
  readonly onProgress?: (progress: EvaluateProgress) => void;
  /** Test cases missing a metric's required fields are skipped by it instead of failing (DeepEval `skip_on_missing_params`). */
  readonly skipOnMissingParams?: boolean;
  /** Aborts measurements not yet finished; they are recorded as errors. */
  readonly signal?: AbortSignal;
  /** Print the summary table with `console.log` when done (DeepEval `display`). Default false. */
  readonly printResults?: boolean;
}

/** Per metric over the run: pass rate and mean score. */
export interface MetricSummaryRow {
  readonly name: string;
  readonly measured: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly skipped: number;
  /** `passed / (passed + failed)`, null when nothing was decided. */
  readonly passRate: number | null;
  /** Mean of the scores that exist, null when none do. */
  readonly meanScore: number | null;
  /** USD; null when any measurement's cost is unknown. */
  readonly cost: number | null;
}

/** What `evaluate` returns (DeepEval `EvaluationResult`). */
export interface EvaluateResult {
  readonly testResults: readonly TestResult[];
  readonly metrics: readonly MetricSummaryRow[];
  /** Test cases whose `success` is true. */
  readonly passed: number;
  readonly failed: number;
  /** USD over the run; null when any measurement's cost is unknown (see `costUnknown`). */
  readonly evaluationCost: number | null;
  readonly costUnknown: boolean;
  /** The summary table, as text. */
  readonly summary: string;
}

const DEFAULT_CONCURRENCY = 20;

/** A test case as is, or built from its fields (snake_case or camelCase). */
export function toTestCase(value: TestCaseLike, index?: number): LLMTestCase | ConversationalTestCase {
  if (LLMTestCase.isInstance(value) || ConversationalTestCase.isInstance(value)) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`test case${index === undefined ? "" : ` ${index}`} must be a test case or an object of its fields`, {
      argument: index === undefined ? "testCase" : `testCases[${index}]`,
    });
  }
  try {
    return "turns" in value ? ConversationalTestCase.from(value as ConversationalTestCaseInit) : LLMTestCase.from(value as LLMTestCaseInit);
  } catch (error) {
    if (index === undefined) throw error;
    throw new InvalidArgumentError(`testCases[${index}]: ${(error as Error).message}`, { argument: `testCases[${index}]` });
  }
}

function isMetric(value: unknown): value is DeepEvalMetric {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { aMeasure?: unknown }).aMeasure === "function" &&
    typeof (value as { copy?: unknown }).copy === "function" &&
    (kind === "single-turn" || kind === "conversational")
  );
}

function checkMetrics(metrics: unknown): readonly DeepEvalMetric[] {
  if (!Array.isArray(metrics) || metrics.length === 0) {
    throw new InvalidArgumentError("metrics must be a non-empty array of DeepEval metrics", { argument: "metrics" });
  }
  metrics.forEach((metric, index) => {
    if (!isMetric(metric)) {
      throw new InvalidArgumentError(
        `metrics[${index}] is not a single-turn or conversational DeepEval metric (arena metrics are measured on their own)`,
        { argument: `metrics[${index}]` },
      );
    }
  });
  // DeepEval's rule: at least one non-flaky metric must decide pass/fail.
  if (!metrics.some((metric: DeepEvalMetric) => metric.threshold !== null && !metric.flaky)) {
    throw new InvalidArgumentError("at least one non-flaky metric needs a threshold, or no test case can pass or fail", {
      argument: "metrics",
    });
  }
  return metrics as readonly DeepEvalMetric[];
}

function scoringPathOf(metric: DeepEvalMetric): ScoringPath | null {
  // judge metrics: "structured" | "repaired-and-re-asked" | "logprob-weighted" | "raw-score"
  const path = (metric as { scoringPath?: unknown }).scoringPath;
  return typeof path === "string" ? path : null;
}

function resultOf(metric: DeepEvalMetric): MetricResult {
  return {
    name: metric.name,
    score: metric.score,
    threshold: metric.threshold,
    success: metric.success,
    reason: metric.reason,
    error: metric.error,
    strictMode: metric.strictMode,
    evaluationModel: metric.evaluationModel,
    evaluationCost: metric.evaluationCost,
    costUnknown: metric.evaluationCost === null && !metric.skipped,
    inputTokens: metric.inputTokens,
    outputTokens: metric.outputTokens,
    skipped: metric.skipped,
    flaky: metric.flaky,
    scoringPath: scoringPathOf(metric),
    verboseLogs: metric.verboseLogs,
  };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

async function measure(
  metric: DeepEvalMetric,
  testCase: LLMTestCase | ConversationalTestCase,
  options: EvaluateOptions,
): Promise<MetricResult> {
  const copy = metric.copy();
  try {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    await (copy.aMeasure as (testCase: unknown, options?: { signal?: AbortSignal }) => Promise<number | null>)(
      testCase,
      options.signal ? { signal: options.signal } : undefined,
    );
  } catch (error) {
    if (options.skipOnMissingParams && error instanceof MissingTestCaseParamsError) {
      copy.skipped = true;
      copy.success = null;
      copy.error = null;
      copy.score = null;
    } else {
      copy.error ??= errorText(error);
      copy.score = null;
      copy.success = false;
    }
  }
  return resultOf(copy);
}

function applies(metric: DeepEvalMetric, testCase: LLMTestCase | ConversationalTestCase): boolean {
  return ConversationalTestCase.isInstance(testCase) ? metric.kind === "conversational" : metric.kind === "single-turn";
}

/** The test case passes when no deciding metric failed (DeepEval: all metrics successful; flaky ones never decide). */
function caseSuccess(results: readonly MetricResult[]): boolean {
  return results.every((r) => r.flaky || r.skipped || (r.error === null && r.success !== false));
}

function addCost(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function summarize(testResults: readonly TestResult[]): MetricSummaryRow[] {
  const rows = new Map<
    string,
    { measured: number; passed: number; failed: number; errors: number; skipped: number; scores: number[]; cost: number | null }
  >();
  for (const test of testResults) {
    for (const m of test.metricsData) {
      let row = rows.get(m.name);
      if (!row) rows.set(m.name, (row = { measured: 0, passed: 0, failed: 0, errors: 0, skipped: 0, scores: [], cost: 0 }));
      row.measured++;
      if (m.skipped) row.skipped++;
      else if (m.error !== null) row.errors++;
      if (!m.skipped && m.success === true) row.passed++;
      if (!m.skipped && m.success === false) row.failed++;
      if (m.score !== null) row.scores.push(m.score);
      if (!m.skipped) row.cost = addCost(row.cost, m.evaluationCost);
    }
  }
  return [...rows].map(([name, row]) => ({
    name,
    measured: row.measured,
    passed: row.passed,
    failed: row.failed,
    errors: row.errors,
    skipped: row.skipped,
    passRate: row.passed + row.failed === 0 ? null : row.passed / (row.passed + row.failed),
    meanScore: row.scores.length === 0 ? null : row.scores.reduce((a, b) => a + b, 0) / row.scores.length,
    cost: row.cost,
  }));
}

function formatCost(cost: number | null): string {
  return cost === null ? "unknown" : `$${cost.toFixed(6)}`;
}

function formatNumber(value: number | null, digits = 4): string {
  return value === null ? "-" : value.toFixed(digits);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
  const rule = `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** The summary table of a run: one line per test case and metric, then pass rates per metric and totals. */
export function formatSummary(result: Pick<EvaluateResult, "testResults" | "metrics" | "passed" | "failed" | "evaluationCost">): string {
  const detail = table(
    ["Test case", "Metric", "Score", "Threshold", "Status", "Cost", "Reason / error"],
    result.testResults.flatMap((test) =>
      test.metricsData.map((m) => [
        test.name,
        m.name,
        formatNumber(m.score),
        formatNumber(m.threshold, 2),
        m.skipped ? "SKIPPED" : m.error !== null ? "ERROR" : m.success === null ? "-" : m.success ? "PASS" : "FAIL",
        m.skipped ? "-" : formatCost(m.evaluationCost),
        oneLine(m.error ?? m.reason ?? ""),
      ]),
    ),
  );
  const perMetric = table(
    ["Metric", "Pass rate", "Passed", "Failed", "Errors", "Skipped", "Mean score", "Cost"],
    result.metrics.map((m) => [
      m.name,
      m.passRate === null ? "-" : `${(m.passRate * 100).toFixed(2)}%`,
      String(m.passed),
      String(m.failed),
      String(m.errors),
      String(m.skipped),
      formatNumber(m.meanScore),
      formatCost(m.cost),
    ]),
  );
  const total = result.passed + result.failed;
  return [
    detail,
    "",
    perMetric,
    "",
    `Test cases: ${result.passed}/${total} passed${total === 0 ? "" : ` (${((result.passed / total) * 100).toFixed(2)}%)`}; ` +
      `evaluation cost: ${formatCost(result.evaluationCost)}`,
  ].join("\n");
}

function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

async function pool(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const task = tasks[next++] as () => Promise<void>;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/**
 * Measure every test case with every metric that applies to it (DeepEval `evaluate`).
 *
 * When to use: a batch of test cases (or goldens turned into test cases) against a set of DeepEval
 * metrics, rule-based or judged, with one result object to inspect, print or store.
 *
 * Details: single-turn metrics measure `LLMTestCase`s, conversational metrics `ConversationalTestCase`s;
 * other pairs are not run (DeepEval's rule). Each measurement uses `metric.copy()`, so the metrics
 * given are left untouched and measurements run concurrently (`concurrency`, default 20; a judge's own
 * limiter still caps its requests). A measurement that throws is recorded with `error`, `score: null`,
 * `success: false`; with `skipOnMissingParams`, missing fields mark it `skipped`. A test case succeeds
 * when no non-flaky metric failed or errored. Costs add up; an unknown cost makes the total unknown
 * (`evaluationCost: null`, `costUnknown: true`).
 *
 * Gotchas: at least one non-flaky metric needs a threshold (DeepEval checks the same).
 *
 * @example
 * const result = await evaluate(
 *   [{ input: "2+2?", actual_output: "4", expected_output: "4" }],
 *   [new ExactMatchMetric()],
 *   { concurrency: 4, onProgress: ({ completed, total }) => console.log(`${completed}/${total}`) },
 * );
 * console.log(result.summary);
 */
export async function evaluate(
  testCases: readonly TestCaseLike[],
  metrics: readonly DeepEvalMetric[],
  options: EvaluateOptions = {},
): Promise<EvaluateResult> {
  if (!Array.isArray(testCases)) throw new InvalidArgumentError("testCases must be an array", { argument: "testCases" });
  const cases = testCases.map((testCase, index) => toTestCase(testCase, index));
  const checked = checkMetrics(metrics);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError("options.concurrency must be a positive integer", { argument: "options.concurrency" });
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    throw new InvalidArgumentError("options.onProgress must be a function", { argument: "options.onProgress" });
  }

  const slots: MetricResult[][] = cases.map(() => []);
  const tasks: (() => Promise<void>)[] = [];
  let completed = 0;
  const plan = cases.map((testCase) => checked.filter((metric) => applies(metric, testCase)));
  const total = plan.reduce((n, list) => n + list.length, 0);
  cases.forEach((testCase, caseIndex) => {
    (plan[caseIndex] as DeepEvalMetric[]).forEach((metric, metricIndex) => {
      tasks.push(async () => {
        const result = await measure(metric, testCase, options);
        (slots[caseIndex] as MetricResult[])[metricIndex] = result;
        completed++;
        try {
          options.onProgress?.({ completed, total, testCaseIndex: caseIndex, metric: result });
        } catch {
          // a progress display must not break the run
        }
      });
    });
  });
  await pool(tasks, concurrency);

  const testResults: TestResult[] = cases.map((testCase, index) => {
    const metricsData = Object.freeze(slots[index] as MetricResult[]);
    const single = LLMTestCase.isInstance(testCase) ? testCase : null;
    return {
      index,
      name: testCase.name ?? `test_case_${index}`,
      conversational: single === null,
      success: caseSuccess(metricsData),
      metricsData,
      testCase,
      input: single ? single.input : null,
      actualOutput: single ? single.actualOutput : null,
      expectedOutput: single ? single.expectedOutput : null,
    };
  });
  const metricRows = summarize(testResults);
  const passed = testResults.filter((t) => t.success).length;
  const evaluationCost = testResults
    .flatMap((t) => t.metricsData)
    .filter((m) => !m.skipped)
    .reduce<number | null>((sum, m) => addCost(sum, m.evaluationCost), 0);
  const partial = { testResults, metrics: metricRows, passed, failed: testResults.length - passed, evaluationCost };
  const summary = formatSummary(partial);
  if (options.printResults) console.log(summary);
  return { ...partial, costUnknown: evaluationCost === null, summary };
}

function formatScore(value: number | null): string {
  return value === null ? "None" : String(Number(value.toFixed(4)));
}

/**
 * Measure one test case and throw if any metric failed (DeepEval `assert_test`): a
 * `MetricAssertionError` whose message lists every failed metric with its score, threshold and reason
 * (or error). Resolves with the test case's results when all pass.
 *
 * When to use: inside a vitest or jest test — the thrown `Error` fails the test with that message.
 *
 * @example
 * it("answers relevantly", async () => {
 *   await assertTest({ input: "2+2?", actual_output: "4", expected_output: "4" }, [new ExactMatchMetric()]);
 * });
 */
export async function assertTest(
  testCase: TestCaseLike,
  metrics: readonly DeepEvalMetric[],
  options: Omit<EvaluateOptions, "printResults"> = {},
): Promise<TestResult> {
  const result = await evaluate([toTestCase(testCase)], metrics, options);
  const test = result.testResults[0] as TestResult;
  if (test.metricsData.length === 0) {
    throw new InvalidArgumentError(`no metric applies to this ${test.conversational ? "conversational" : "single-turn"} test case`, {
      argument: "metrics",
    });
  }
  const failed = test.metricsData.filter((m) => !m.flaky && !m.skipped && (m.error !== null || m.success === false));
  if (failed.length === 0) return test;
  const label =
    test.testCase.name ??
    (test.input !== null
      ? JSON.stringify(oneLine(test.input, 60))
      : `conversation of ${(test.testCase as ConversationalTestCase).turns.length} turns`);
  const lines = failed.map((m) => {
    const head = `  - ${m.name}: score ${formatScore(m.score)}, threshold ${formatScore(m.threshold)}${m.strictMode ? " (strict)" : ""}`;
    const why = m.error !== null ? `error: ${m.error}` : `reason: ${m.reason ?? "None"}`;
    return `${head}\n      ${why.split("\n").join("\n      ")}`;
  });
  const message = `${failed.length} of ${test.metricsData.length} metric(s) failed for test case ${label}:\n${lines.join("\n")}`;
  const details: FailedMetric[] = failed.map((m) => ({
    name: m.name,
    score: m.score,
    threshold: m.threshold,
    strictMode: m.strictMode,
    reason: m.reason,
    error: m.error,
  }));
  throw new MetricAssertionError(message, details, test);
}
