// DSPy's `Evaluate` (dspy/evaluate/evaluate.py with dspy/utils/parallelizer.py): run a program over a
// dev set with `numThreads` calls in flight, score each prediction with a metric, and report
// `round(100 × Σscore / n, 2)` plus every (example, prediction, score) row.
//
// Differences from DSPy, on purpose: a failed row keeps its error (`row.error`, `result.errors`)
// instead of only being logged; a metric returning null/undefined/NaN is a failure (DSPy would crash in
// `sum` or return NaN); `numThreads` bounds concurrent async calls (JS programs are async, DSPy uses
// threads); unknown options throw instead of being swallowed by `**kwargs`.
import { Example, Prediction } from "@evalkern/metrics/dspy";
import {
  InvalidArgumentError,
  MaxErrorsExceededError,
  MetricResultError,
  MigrationError,
  errorMessage,
  type RowFailure,
} from "../errors.js";
import { createProgress } from "../progress.js";
import { pyRound } from "@evalkern/metrics/python";
import { runtime, type TextSink } from "../runtime/runtime.js";
import { settings } from "../settings.js";
import { prepareResultsOutput, renderTable, toCsv, toJson } from "./output.js";
import { runParallel, type Attempt } from "./parallel.js";

/** A DSPy metric: `(example, prediction, trace?) => boolean | number | { score }`, sync or async. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- metrics read arbitrary prediction fields
export type EvaluateMetric = (example: Example, prediction: any, trace?: unknown) => unknown;

/**
 * The program under evaluation. DSPy calls `program(**example.inputs())`; here it receives the input
 * fields as one object. A function, or an object with `forward` or `call` (a DSPy-style module).
 */
export type Program =
  | ((inputs: Record<string, unknown>) => unknown)
  | { forward(inputs: Record<string, unknown>): unknown }
  | { call(inputs: Record<string, unknown>): unknown };

export interface EvaluateOptions {
  readonly devset: readonly Example[];
  readonly metric?: EvaluateMetric;
  /** Calls in flight at once (default `settings().numThreads`, 8). */
  readonly numThreads?: number;
  /** A live progress bar (stderr) with the running average. */
  readonly displayProgress?: boolean;
  /** Print a results table (stdout): true for all rows, a number for the first N. */
  readonly displayTable?: boolean | number;
  /** Stop after this many failures (default `settings().maxErrors`, 10). */
  readonly maxErrors?: number;
  /** Log each failure's stack, not only its message. */
  readonly provideTraceback?: boolean;
  /** Score of a failed row (default 0). */
  readonly failureScore?: number;
  /** Write the rows as CSV to this path. */
  readonly saveAsCsv?: string;
  /**
   * Neutralise CSV text cells a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`,
   * tab, CR) by prefixing a single quote, as OWASP recommends (default true; numbers are never touched).
   */
  readonly csvEscapeFormulas?: boolean;
  /** Write the rows as JSON to this path. */
  readonly saveAsJson?: string;
  /**
   * Seconds after which a row still running is a straggler and is started again (DSPy's `timeout`,
   * default 120); the first attempt to finish well wins. `null` or 0 turns this off.
   */
  readonly timeout?: number | null;
  /** Resubmit stragglers only once at most this many rows are still pending (DSPy's `straggler_limit`, default 3). */
  readonly stragglerLimit?: number;
  /** Where tables (stdout) and progress/failure logs (stderr) go (default: the runtime's streams). */
  readonly output?: { readonly stdout?: TextSink; readonly stderr?: TextSink };
}

export interface CallOptions {
  readonly metric?: EvaluateMetric;
  readonly devset?: readonly Example[];
  readonly numThreads?: number;
  readonly displayProgress?: boolean;
  readonly displayTable?: boolean | number;
  readonly saveAsCsv?: string;
  readonly saveAsJson?: string;
  /** Per-call straggler timeout in seconds (`null` or 0: off); default the instance's. */
  readonly timeout?: number | null;
  /** Per-call straggler limit; default the instance's. */
  readonly stragglerLimit?: number;
  /** Stops starting new rows when aborted (rows in flight finish). */
  readonly signal?: AbortSignal;
}

/** One result row, `[example, prediction, score]` as in DSPy, plus the failure when it failed. */
export type EvaluationRow = readonly [example: Example, prediction: unknown, score: unknown] & { readonly error?: RowFailure };

/**
 * DSPy's `EvaluationResult`: a `Prediction` with `score` (a percentage, 2 decimals) and `results`.
 * `errors` lists every failed row; `meanScore` is the unrounded mean (0-1 for 0/1 metrics).
 */
export class EvaluationResult extends Prediction {
  declare readonly score: number;
  declare readonly results: readonly EvaluationRow[];
  declare readonly errors: readonly RowFailure[];
  declare readonly meanScore: number;
  constructor(fields: { score: number; results: readonly EvaluationRow[]; errors: readonly RowFailure[]; meanScore: number }) {
    super(fields);
  }
  override toString(): string {
    return `EvaluationResult(score=${this.score}, results=<list of ${this.results.length} results>)`;
  }
}

const KNOWN = new Set([
  "devset",
  "metric",
  "numThreads",
  "displayProgress",
  "displayTable",
  "maxErrors",
  "provideTraceback",
  "failureScore",
  "saveAsCsv",
  "csvEscapeFormulas",
  "saveAsJson",
  "timeout",
  "stragglerLimit",
  "output",
]);
const CALL_KNOWN = new Set([
  "metric",
  "devset",
  "numThreads",
  "displayProgress",
  "displayTable",
  "saveAsCsv",
  "saveAsJson",
  "timeout",
  "stragglerLimit",
  "signal",
]);

const MIGRATIONS: Record<string, string> = {
  returnOutputs:
    "`returnOutputs` is no longer supported (removed in DSPy 2.6): results are always returned in the `results` field of " +
    "the `EvaluationResult` ([example, prediction, score] rows).",
  return_outputs:
    "`return_outputs` is no longer supported (removed in DSPy 2.6): results are always returned in the `results` field of " +
    "the `EvaluationResult` ([example, prediction, score] rows).",
  returnAllScores:
    "`returnAllScores` is no longer supported (removed in DSPy 2.6): every per-example score is the third element of each " +
    "row in `EvaluationResult.results`; `score` is the aggregate.",
  return_all_scores:
    "`return_all_scores` is no longer supported (removed in DSPy 2.6): every per-example score is the third element of each " +
    "row in `EvaluationResult.results`; `score` is the aggregate.",
};

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

function checkKeys(options: object, known: Set<string>, where: string): void {
  for (const key of Object.keys(options)) {
    if (MIGRATIONS[key]) throw new MigrationError(key, MIGRATIONS[key]!);
    if (!known.has(key)) {
      const hint = known.has(camel(key)) ? ` (did you mean \`${camel(key)}\`?)` : "";
      throw new InvalidArgumentError(`${where}: unknown option \`${key}\`${hint}; known options: ${[...known].join(", ")}`, {
        argument: key,
      });
    }
  }
}

function checkDevset(devset: unknown, argument: string): readonly Example[] {
  if (!Array.isArray(devset)) throw new InvalidArgumentError(`${argument} must be an array of Example`, { argument });
  devset.forEach((e, i) => {
    if (!(e instanceof Example))
      throw new InvalidArgumentError(`${argument}[${i}] must be an Example (Example.from({...}).withInputs(...))`, { argument, index: i });
  });
  return devset as readonly Example[];
}

function checkCount(v: unknown, argument: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
    throw new InvalidArgumentError(`${argument} must be an integer ≥ ${min}`, { argument });
  return v;
}

function checkTimeout(v: unknown, argument: string): number | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
    throw new InvalidArgumentError(`${argument} must be a number of seconds ≥ 0, or null`, { argument });
  return v;
}

function checkTable(v: unknown, argument: string): boolean | number | undefined {
  if (v === undefined || typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  throw new InvalidArgumentError(`${argument} must be a boolean or a row count`, { argument });
}

function checkPath(v: unknown, argument: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.length === 0) throw new InvalidArgumentError(`${argument} must be a file path`, { argument });
  return v;
}

/** The number in a metric's result (DSPy's `float(score)`); anything else is a failure. */
export function metricScore(value: unknown): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw new MetricResultError(`metric returned ${value}: a score must be finite`, value);
  }
  if (value === null || value === undefined)
    throw new MetricResultError(
      `metric returned ${value === null ? "null" : "undefined"}: return a boolean, a number or a Prediction with a score`,
      value,
    );
  if (typeof value === "object" && !Array.isArray(value)) {
    const has = value instanceof Example ? value.has("score") : Object.prototype.hasOwnProperty.call(value, "score");
    if (has) {
      const s = value instanceof Example ? value.get("score") : (value as { score: unknown }).score;
      if (typeof s === "boolean" || (typeof s === "number" && Number.isFinite(s))) return metricScore(s);
      throw new MetricResultError(`metric returned a score of ${typeof s === "number" ? s : typeof s}`, value);
    }
  }
  throw new MetricResultError(
    `metric returned ${Array.isArray(value) ? "an array" : typeof value}, not a boolean, number or Prediction with a score`,
    value,
  );
}

function metricName(metric: EvaluateMetric): string {
  return metric.name || (metric as { constructor?: { name?: string } }).constructor?.name || "metric";
}

function invoke(program: Program, inputs: Record<string, unknown>): unknown {
  if (typeof program === "function") return program(inputs);
  if (typeof (program as { forward?: unknown }).forward === "function")
    return (program as { forward(i: Record<string, unknown>): unknown }).forward(inputs);
  return (program as { call(i: Record<string, unknown>): unknown }).call(inputs);
}

/**
 * DSPy `dspy.Evaluate`.
 *
 * When to use: measure a program (an LLM pipeline, any async function) over a dev set with a DSPy-style
 * metric, with bounded concurrency, progress, a table and CSV/JSON dumps.
 *
 * Details: `score = round(100 × Σ scores / n, 2)` (booleans count 1/0, numbers as they are, a
 * `Prediction` by its `score`). A program or metric that throws, or a metric returning null/undefined,
 * gives that row `failureScore` and keeps the error on the row. After `maxErrors` failures the run stops
 * with `MaxErrorsExceededError`. Settings from an enclosing `context({...}, fn)` reach every row. A row still
 * running after `timeout` seconds (120) is started again once no more than `stragglerLimit` (3) rows are
 * pending, and the first attempt to finish well wins (DSPy's ParallelExecutor; `./parallel.ts`).
 *
 * Gotchas: `returnOutputs` and `returnAllScores` were removed in DSPy and throw `MigrationError`.
 *
 * @example
 * const devset = [Example.from({ question: "2+2?", answer: "4" }).withInputs("question")];
 * const evaluate = new Evaluate({ devset, metric: (ex, pred) => ex.answer === pred.answer, numThreads: 4 });
 * const result = await evaluate.call(async ({ question }) => Prediction.from({ answer: "4" }));
 * result.score; // 100
 */
export class Evaluate {
  readonly devset: readonly Example[];
  readonly metric: EvaluateMetric | undefined;
  readonly numThreads: number | undefined;
  readonly displayProgress: boolean;
  readonly displayTable: boolean | number;
  readonly maxErrors: number | undefined;
  readonly provideTraceback: boolean | undefined;
  readonly failureScore: number;
  readonly saveAsCsv: string | undefined;
  readonly csvEscapeFormulas: boolean;
  readonly saveAsJson: string | undefined;
  readonly timeout: number | null;
  readonly stragglerLimit: number;
  private readonly output: EvaluateOptions["output"];

  constructor(options: EvaluateOptions) {
    if (typeof options !== "object" || options === null)
      throw new InvalidArgumentError("new Evaluate({ devset, metric, ... }): options must be an object", { argument: "options" });
    checkKeys(options, KNOWN, "Evaluate");
    this.devset = checkDevset(options.devset, "devset");
    if (options.metric !== undefined && typeof options.metric !== "function")
      throw new InvalidArgumentError("metric must be a function", { argument: "metric" });
    this.metric = options.metric;
    this.numThreads = checkCount(options.numThreads, "numThreads", 1);
    if (options.displayProgress !== undefined && typeof options.displayProgress !== "boolean")
      throw new InvalidArgumentError("displayProgress must be a boolean", { argument: "displayProgress" });
    this.displayProgress = options.displayProgress ?? false;
    this.displayTable = checkTable(options.displayTable, "displayTable") ?? false;
    this.maxErrors = checkCount(options.maxErrors, "maxErrors", 1);
    this.provideTraceback = options.provideTraceback;
    const fs = options.failureScore ?? 0;
    if (typeof fs !== "number" || !Number.isFinite(fs))
      throw new InvalidArgumentError("failureScore must be a finite number", { argument: "failureScore" });
    this.failureScore = fs;
    this.saveAsCsv = checkPath(options.saveAsCsv, "saveAsCsv");
    if (options.csvEscapeFormulas !== undefined && typeof options.csvEscapeFormulas !== "boolean") {
      throw new InvalidArgumentError("csvEscapeFormulas must be a boolean", { argument: "csvEscapeFormulas" });
    }
    this.csvEscapeFormulas = options.csvEscapeFormulas ?? true;
    this.saveAsJson = checkPath(options.saveAsJson, "saveAsJson");
    const timeout = checkTimeout(options.timeout, "timeout");
    this.timeout = timeout === undefined ? 120 : timeout;
    this.stragglerLimit = checkCount(options.stragglerLimit, "stragglerLimit", 0) ?? 3;
    this.output = options.output;
  }

  /** DSPy `Evaluate.__call__(program, metric=None, devset=None, ...)`. */
  async call(program: Program, options: CallOptions = {}): Promise<EvaluationResult> {
    if (typeof options !== "object" || options === null)
      throw new InvalidArgumentError("call options must be an object", { argument: "options" });
    checkKeys(options, CALL_KNOWN, "Evaluate.call");
    if (
      typeof program !== "function" &&
      (typeof program !== "object" ||
        program === null ||
        (typeof (program as { forward?: unknown }).forward !== "function" && typeof (program as { call?: unknown }).call !== "function"))
    ) {
      throw new InvalidArgumentError("program must be a function or an object with forward()/call()", { argument: "program" });
    }
    const metric = options.metric ?? this.metric;
    if (typeof metric !== "function")
      throw new InvalidArgumentError("no metric: pass one to new Evaluate({ metric }) or to call(program, { metric })", {
        argument: "metric",
      });
    const devset = options.devset !== undefined ? checkDevset(options.devset, "devset") : this.devset;
    const s = settings();
    const numThreads = checkCount(options.numThreads, "numThreads", 1) ?? this.numThreads ?? (s.numThreads as number | undefined) ?? 8;
    const displayProgress = options.displayProgress ?? this.displayProgress;
    const displayTable = checkTable(options.displayTable, "displayTable") ?? this.displayTable;
    const saveAsCsv = checkPath(options.saveAsCsv, "saveAsCsv") ?? this.saveAsCsv;
    const saveAsJson = checkPath(options.saveAsJson, "saveAsJson") ?? this.saveAsJson;
    const callTimeout = checkTimeout(options.timeout, "timeout");
    const timeout = callTimeout === undefined ? this.timeout : callTimeout;
    const stragglerLimit = checkCount(options.stragglerLimit, "stragglerLimit", 0) ?? this.stragglerLimit;
    const maxErrors = this.maxErrors ?? (s.maxErrors as number | undefined) ?? 10;
    const provideTraceback = this.provideTraceback ?? (s.provideTraceback as boolean | undefined) ?? false;
    const stdout = this.output?.stdout ?? runtime().stdout;
    const stderr = this.output?.stderr ?? runtime().stderr;
    const n = devset.length;
    if (n === 0)
      throw new InvalidArgumentError("devset is empty: there is no score of nothing (DSPy raises ZeroDivisionError)", {
        argument: "devset",
      });

    const rows = new Array<EvaluationRow | undefined>(n);
    const failures: RowFailure[] = [];
    let sum = 0;
    let done = 0;
    let cancelled = false;
    const progress = displayProgress ? createProgress({ total: n, unit: "it", sink: stderr }) : undefined;
    const describe = () => `Average Metric: ${sum.toFixed(2)} / ${done} (${done ? pyRound((100 * sum) / done, 1).toFixed(1) : "0.0"}%)`;

    const fail = (index: number, stage: RowFailure["stage"], error: unknown, prediction: unknown): void => {
      const failure: RowFailure = { index, stage, error };
      failures.push(failure);
      const detail =
        provideTraceback && error instanceof Error && error.stack ? `\n${error.stack}` : ". Set `provideTraceback: true` for traceback.";
      stderr.write(`Error for example ${index} (${stage}): ${errorMessage(error)}${detail}\n`);
      rows[index] = Object.assign([devset[index]!, prediction, this.failureScore] as const, { error: failure }) as EvaluationRow;
      sum += this.failureScore;
      if (failures.length >= maxErrors) cancelled = true;
    };

    type Outcome =
      | { readonly ok: true; readonly prediction: unknown; readonly value: unknown; readonly score: number }
      | { readonly ok: false; readonly stage: RowFailure["stage"]; readonly error: unknown; readonly prediction: unknown };
    // One attempt: the program, then the metric. It writes nothing shared, so a straggler's duplicate can
    // run beside it and the first to finish well wins (runParallel).
    const attempt = async (index: number): Promise<Attempt<Outcome>> => {
      const example = devset[index]!;
      let prediction: unknown;
      try {
        prediction = await invoke(program, example.inputs().toDict());
      } catch (error) {
        return { failed: true, outcome: { ok: false, stage: "program", error, prediction: new Prediction() } };
      }
      try {
        const value = await metric(example, prediction);
        return { failed: false, outcome: { ok: true, prediction, value, score: metricScore(value) } };
      } catch (error) {
        return { failed: true, outcome: { ok: false, stage: "metric", error, prediction } };
      }
    };
    const settle = (index: number, outcome: Outcome): void => {
      if (outcome.ok) {
        sum += outcome.score;
        rows[index] = [devset[index]!, outcome.prediction, outcome.value] as const as EvaluationRow;
      } else fail(index, outcome.stage, outcome.error, outcome.prediction);
      done++;
      progress?.update(done, describe());
    };
    await runParallel(n, attempt, {
      concurrency: numThreads,
      timeoutMs: timeout === null ? null : timeout * 1000,
      stragglerLimit,
      shouldStop: () => cancelled || options.signal?.aborted === true,
      onSettled: settle,
    });
    progress?.finish(describe());
    if (cancelled)
      throw new MaxErrorsExceededError(
        maxErrors,
        failures.slice().sort((a, b) => a.index - b.index),
      );
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("Evaluation aborted");

    const results = rows as EvaluationRow[];
    let total = 0;
    for (const r of results) total += r.error ? this.failureScore : metricScore(r[2]);
    const mean = n > 0 ? total / n : 0;
    const score = pyRound(100 * mean, 2);
    if (displayProgress) stderr.write(`Average Metric: ${total} / ${n} (${pyRound(100 * mean, 1).toFixed(1)}%)\n`);

    const name = metricName(metric);
    if (displayTable !== false || saveAsCsv || saveAsJson) {
      const data = prepareResultsOutput(results, name);
      if (displayTable !== false) stdout.write(renderTable(data, name, displayTable === true ? undefined : displayTable));
      if (saveAsCsv) await runtime().writeFile(saveAsCsv, toCsv(data, { escapeFormulas: this.csvEscapeFormulas }));
      if (saveAsJson) await runtime().writeFile(saveAsJson, toJson(data));
    }
    return new EvaluationResult({ score, results, errors: failures.slice().sort((a, b) => a.index - b.index), meanScore: mean });
  }
}
