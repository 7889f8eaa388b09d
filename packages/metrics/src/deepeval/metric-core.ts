// The lifecycle DeepEval's three base metrics share: validate the test case, reset cost accounting,
// evaluate, settle the result, resolve the reason, decide success, build verbose logs. It is written
// once, as a generator, and driven either synchronously (`measure`) or asynchronously (`aMeasure`), so
// the two paths cannot drift apart.
import { InvalidArgumentError } from "../errors.js";
import { ConcurrentMeasureError, SyncMeasureUnsupportedError } from "./errors.js";
import { describeValue } from "./python-compat.js";
import { constructVerboseLogs, consoleVerbosePrinter, type VerbosePrinter } from "./verbose-logs.js";

/** Options every DeepEval-style metric takes. */
export interface MetricOptions {
  /** Ask for (or keep) a reason. Default: the metric's (true for every DeepEval metric). */
  readonly includeReason?: boolean;
  /**
   * Run a metric's independent model calls concurrently (DeepEval's `asyncMode`, default true).
   * With false they run one after another. It does not make `measure()` possible for model metrics.
   */
  readonly asyncMode?: boolean;
  /** Print the verbose logs after each measurement. Default false. */
  readonly verboseMode?: boolean;
  /** Where verbose logs are printed. Default: `console.log`. */
  readonly verbosePrinter?: VerbosePrinter;
  /** The judge's name, reported with the score. Default null (no model). */
  readonly evaluationModel?: string | null;
}

/** Per-measurement options of `aMeasure`. */
export interface MeasureOptions {
  /** Aborts the measurement; judge metrics pass it on to their model calls. */
  readonly signal?: AbortSignal;
}

/** What an evaluation hook receives besides the test case. */
export interface MeasureContext {
  readonly signal: AbortSignal | undefined;
  /** True inside `aMeasure`, false inside `measure`. */
  readonly async: boolean;
}

/**
 * A reason, or how to get one. A function runs after the score is settled (so it can read
 * `this.score`) and only when `includeReason` is on — the place for a judge's reason call.
 */
export type ReasonSource = string | null | (() => string | null | Promise<string | null>);

/** Token and cost usage of one model call. An absent or null `costUsd` means the price is unknown. */
export interface JudgeUsage {
  readonly costUsd?: number | null;
  readonly inputTokens?: number | null;
  readonly outputTokens?: number | null;
}

/** The part of an evaluation every metric kind has. */
export interface EvaluationBase {
  /** Ignored when `includeReason` is off. */
  readonly reason?: ReasonSource;
  /**
   * Verbose-log steps (intermediate artefacts). The settled score and reason are appended as the
   * last step. Omit to leave `verboseLogs` null.
   */
  readonly verboseSteps?: readonly string[];
}

export type MetricKind = "single-turn" | "conversational" | "arena";

const METRIC_MARKER = Symbol.for("evalkern.deepeval.metric");

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}

/** Drive a lifecycle generator without awaiting; a promise anywhere means the metric is async-only. */
function runSync<T>(steps: Generator<unknown, T, unknown>, metricName: string): T {
  let step = steps.next();
  while (!step.done) {
    if (isThenable(step.value)) {
      // Nothing will await it; keep a rejection from surfacing as unhandled.
      Promise.resolve(step.value).catch(() => undefined);
      step = steps.throw(new SyncMeasureUnsupportedError(metricName, "its evaluation returned a promise"));
      continue;
    }
    step = steps.next(step.value);
  }
  return step.value;
}

async function runAsync<T>(steps: Generator<unknown, T, unknown>): Promise<T> {
  let step = steps.next();
  while (!step.done) {
    let resolved: unknown;
    try {
      resolved = await step.value;
    } catch (error) {
      step = steps.throw(error);
      continue;
    }
    step = steps.next(resolved);
  }
  return step.value;
}

function checkBoolean(argument: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError(`'${argument}' must be a boolean, got ${describeValue(value)}`, {
      argument,
      expected: "boolean",
      actual: describeValue(value),
    });
  }
  return value;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * The state and lifecycle shared by `BaseMetric`, `BaseConversationalMetric` and `BaseArenaMetric`.
 * Not meant to be subclassed directly.
 *
 * Hooks for subclasses:
 * - `evaluateSync(testCase, context)` for a metric that needs no model (makes `measure()` work), or
 *   `evaluateAsync(testCase, context)` for one that calls a model (`aMeasure()` only);
 * - `validateTestCase` (set by each base: the required-parameter check);
 * - `tracksCost`, `accrueCost`, `accrueTokens`, `accrueUsage` for cost accounting;
 * - `gather(tasks)` to fan out independent model calls as `asyncMode` says.
 */
export abstract class MetricCore<TTestCase, TEvaluation extends EvaluationBase, TResult> {
  readonly [METRIC_MARKER] = true;
  abstract readonly kind: MetricKind;

  readonly includeReason: boolean;
  readonly asyncMode: boolean;
  readonly verboseMode: boolean;
  readonly verbosePrinter: VerbosePrinter;

  /** The judge's name (null when the metric uses no model). */
  evaluationModel: string | null;
  /** The reason of the last measurement (null when not asked for). */
  reason: string | null = null;
  /** Why the last measurement failed (DeepEval's message for missing parameters), else null. */
  error: string | null = null;
  /** USD spent by the last measurement; 0 when nothing was spent, null when a price was unknown. */
  evaluationCost: number | null = null;
  inputTokens: number | null = null;
  outputTokens: number | null = null;
  /** The intermediate artefacts of the last measurement, as text (DeepEval's format). */
  verboseLogs: string | null = null;
  /** Set by a runner that skipped the test case (e.g. missing parameters with skip-on-missing). */
  skipped = false;

  private measuring = false;

  protected constructor(options: MetricOptions, defaultIncludeReason: boolean) {
    this.includeReason = checkBoolean("includeReason", options.includeReason, defaultIncludeReason);
    this.asyncMode = checkBoolean("asyncMode", options.asyncMode, true);
    this.verboseMode = checkBoolean("verboseMode", options.verboseMode, false);
    const printer = options.verbosePrinter ?? consoleVerbosePrinter;
    if (typeof printer !== "function") {
      throw new InvalidArgumentError("'verbosePrinter' must be a function", {
        argument: "verbosePrinter",
        expected: "function",
        actual: describeValue(printer),
      });
    }
    this.verbosePrinter = printer;
    const model = options.evaluationModel ?? null;
    if (model !== null && typeof model !== "string") {
      throw new InvalidArgumentError("'evaluationModel' must be a string or null", {
        argument: "evaluationModel",
        expected: "string | null",
        actual: describeValue(model),
      });
    }
    this.evaluationModel = model;
  }

  /** True for a metric built on any copy of these base classes. */
  static isMetric(value: unknown): value is MetricCore<unknown, EvaluationBase, unknown> {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[METRIC_MARKER] === true;
  }

  /** The display name (DeepEval's `__name__`). */
  abstract get name(): string;

  /**
   * Whether `measure()` works. True when the subclass implements `evaluateSync`; a subclass whose
   * sync support depends on its options overrides this.
   */
  get supportsSyncMeasure(): boolean {
    return this.evaluateSync !== MetricCore.prototype.evaluateSync;
  }

  /** Check the test case; record DeepEval's message in `error` and throw on failure. */
  protected abstract validateTestCase(testCase: unknown): asserts testCase is TTestCase;

  /** Turn an evaluation into the metric's state (score or winner) and return the result. */
  protected abstract settle(evaluation: TEvaluation, testCase: TTestCase): TResult;

  /** Decide `success` from the settled state. */
  abstract isSuccessful(): boolean | null;

  /** The last verbose step, built from the settled result and reason. */
  protected abstract finalVerboseStep(): string;

  /** Clear the result fields before a measurement. */
  protected resetState(): void {
    this.reason = null;
    this.error = null;
    this.verboseLogs = null;
    this.skipped = false;
  }

  /** Evaluate without awaiting anything. Implement this for metrics that need no model. */
  protected evaluateSync(_testCase: TTestCase, _context: MeasureContext): TEvaluation {
    throw new SyncMeasureUnsupportedError(this.name);
  }

  /** Evaluate, awaiting model calls. Implement this for metrics that call a model. */
  protected evaluateAsync(testCase: TTestCase, context: MeasureContext): Promise<TEvaluation> {
    return Promise.resolve(this.evaluateSync(testCase, context));
  }

  // ----- cost accounting (DeepEval `_accrue_cost` / `_accrue_tokens`) -----

  /**
   * Whether this metric's cost is known. True means accounting starts at 0 (a priced judge, or no
   * judge at all); false means `evaluationCost` stays null (an unpriced, user-supplied judge).
   */
  protected get tracksCost(): boolean {
    return true;
  }

  /** Start a measurement's accounting: 0/0/0 when cost is tracked, else null/null/null. */
  protected resetAccounting(): void {
    const start = this.tracksCost ? 0 : null;
    this.evaluationCost = start;
    this.inputTokens = start;
    this.outputTokens = start;
  }

  /** Add a call's cost. Null-poisoning: one unknown price makes the measurement's cost null. */
  protected accrueCost(costUsd: number | null | undefined): void {
    if (costUsd !== null && costUsd !== undefined && (!Number.isFinite(costUsd) || costUsd < 0)) {
      throw new InvalidArgumentError(`cost must be a finite number >= 0, got ${describeValue(costUsd)}`, {
        argument: "costUsd",
        expected: "finite number >= 0 or null",
        actual: describeValue(costUsd),
      });
    }
    if (this.evaluationCost !== null && costUsd !== null && costUsd !== undefined) this.evaluationCost += costUsd;
    else this.evaluationCost = null;
  }

  /** Add a call's tokens; unknown counts (null) leave the totals as they are. */
  protected accrueTokens(inputTokens: number | null | undefined, outputTokens: number | null | undefined): void {
    for (const [argument, count] of [
      ["inputTokens", inputTokens],
      ["outputTokens", outputTokens],
    ] as const) {
      if (count !== null && count !== undefined && (!Number.isInteger(count) || count < 0)) {
        throw new InvalidArgumentError(`${argument} must be an integer >= 0, got ${describeValue(count)}`, {
          argument,
          expected: "integer >= 0 or null",
          actual: describeValue(count),
        });
      }
    }
    if (inputTokens !== null && inputTokens !== undefined) this.inputTokens = (this.inputTokens ?? 0) + inputTokens;
    if (outputTokens !== null && outputTokens !== undefined) this.outputTokens = (this.outputTokens ?? 0) + outputTokens;
  }

  /** Add one model call's usage (cost and tokens). */
  protected accrueUsage(usage: JudgeUsage | null | undefined): void {
    this.accrueCost(usage?.costUsd);
    this.accrueTokens(usage?.inputTokens, usage?.outputTokens);
  }

  /**
   * Run independent model calls: all at once when `asyncMode` is on (DeepEval's `gather`), one after
   * another otherwise. Results keep the order of `tasks`.
   */
  protected async gather<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
    if (this.asyncMode) return Promise.all(tasks.map((task) => task()));
    const results: T[] = [];
    for (const task of tasks) results.push(await task());
    return results;
  }

  // ----- lifecycle -----

  private *lifecycle(testCase: unknown, context: MeasureContext): Generator<unknown, TResult, unknown> {
    if (this.measuring) throw new ConcurrentMeasureError(this.name);
    this.measuring = true;
    this.resetState();
    try {
      this.validateTestCase(testCase);
      this.resetAccounting();
      context.signal?.throwIfAborted();
      const evaluation = (yield context.async
        ? this.evaluateAsync(testCase, context)
        : this.evaluateSync(testCase, context)) as TEvaluation;
      const result = this.settle(evaluation, testCase);
      if (this.includeReason) {
        const source = evaluation.reason ?? null;
        const reason = typeof source === "function" ? yield source() : source;
        if (reason !== null && typeof reason !== "string") {
          throw new InvalidArgumentError(`${this.name}: a reason must be a string or null`, {
            argument: "reason",
            expected: "string | null",
            actual: describeValue(reason),
          });
        }
        this.reason = reason;
      }
      this.isSuccessful();
      if (evaluation.verboseSteps !== undefined) {
        this.verboseLogs = constructVerboseLogs(
          this.name,
          [...evaluation.verboseSteps, this.finalVerboseStep()],
          this.verboseMode,
          this.verbosePrinter,
        );
      }
      return result;
    } catch (error) {
      this.recordFailure(error);
      throw error;
    } finally {
      this.measuring = false;
    }
  }

  /** After a failed measurement: keep an error already recorded (DeepEval's messages), else record one. */
  protected recordFailure(error: unknown): void {
    if (this.error === null) this.error = errorText(error);
  }

  /** Run the lifecycle synchronously (for `measure`). */
  protected runMeasure(testCase: unknown): TResult {
    if (!this.supportsSyncMeasure) throw new SyncMeasureUnsupportedError(this.name);
    return runSync(this.lifecycle(testCase, { signal: undefined, async: false }), this.name);
  }

  /** Run the lifecycle asynchronously (for `aMeasure`). */
  protected runAMeasure(testCase: unknown, options: MeasureOptions = {}): Promise<TResult> {
    return runAsync(this.lifecycle(testCase, { signal: options.signal, async: true }));
  }

  /**
   * A fresh instance with the same configuration (and the same model client, if any) and no result
   * state. DeepEval's `evaluate()` copies metrics per test case for the same reason: one instance
   * holds one measurement.
   */
  copy(): this {
    const clone = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(clone, this);
    clone.measuring = false;
    clone.resetState();
    clone.evaluationCost = null;
    clone.inputTokens = null;
    clone.outputTokens = null;
    return clone;
  }
}
