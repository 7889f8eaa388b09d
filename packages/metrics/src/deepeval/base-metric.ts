// DeepEval's `BaseMetric` (single-turn) and `BaseConversationalMetric`: a score against a threshold,
// strict mode, and the direction of the score (higher or lower is better).
import { InvalidArgumentError } from "../errors.js";
import { checkConversationalTestCaseParams, checkLLMTestCaseParams } from "./check-params.js";
import type { ConversationalTestCase } from "./conversational-test-case.js";
import { InvalidEvaluationError } from "./errors.js";
import type { LLMTestCase } from "./llm-test-case.js";
import { MetricCore, type EvaluationBase, type MeasureOptions, type MetricKind, type MetricOptions } from "./metric-core.js";
import type { LLMTestCaseParams, MultiTurnParams } from "./params.js";
import { describeValue, pyFloatRepr } from "./python-compat.js";

/** Options of a metric with a score. */
export interface ScoredMetricOptions extends MetricOptions {
  /** Pass mark. Default: the metric's (0.5 for most). Null: the metric never decides pass/fail. */
  readonly threshold?: number | null;
  /**
   * Demand perfection: the threshold becomes 1 (0 for lower-is-better metrics) and scores become
   * binary (anything short of the threshold scores 0, or 1 for lower-is-better). Default false.
   */
  readonly strictMode?: boolean;
}

/** What a metric class fixes for all its instances; passed by subclasses to the base constructor. */
export interface MetricTraits {
  /** Direction of the score. False for bias, toxicity, hallucination. Default true. */
  readonly higherIsBetter?: boolean;
  /** Threshold when the options give none. Default 0.5. */
  readonly defaultThreshold?: number | null;
  /** `includeReason` when the options give none. Default true (every concrete DeepEval metric). */
  readonly defaultIncludeReason?: boolean;
  /** Whether strict mode binarises the score (DAG only moves the threshold). Default true. */
  readonly strictBinarizes?: boolean;
}

/** The result of a scored metric's evaluation hook. */
export interface Evaluation extends EvaluationBase {
  /** The score before strict mode; null when there is none (e.g. a DAG where no leaf fired). */
  readonly score: number | null;
  /** Named sub-scores (Summarization's Alignment and Coverage). */
  readonly scoreBreakdown?: Readonly<Record<string, number>> | null;
}

/** A snapshot of a measurement, for reports (DeepEval's `MetricData`). */
export interface MetricData {
  readonly name: string;
  readonly kind: MetricKind;
  readonly score: number | null;
  readonly threshold: number | null;
  readonly success: boolean | null;
  readonly reason: string | null;
  readonly error: string | null;
  readonly strictMode: boolean;
  readonly higherIsBetter: boolean;
  readonly evaluationModel: string | null;
  readonly evaluationCost: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly verboseLogs: string | null;
  readonly scoreBreakdown: Readonly<Record<string, number>> | null;
  readonly skipped: boolean;
}

/**
 * Strict mode's binarisation (DeepEval's per-metric `_calculate_score` tail): higher-is-better scores
 * below the threshold become 0; lower-is-better scores above it become 1.
 */
export function strictScore(score: number, threshold: number, higherIsBetter: boolean): number {
  if (higherIsBetter) return score < threshold ? 0 : score;
  return score > threshold ? 1 : score;
}

/**
 * Whether a score passes (DeepEval's `is_successful`): `score >= threshold` for higher-is-better
 * metrics, `score <= threshold` for lower-is-better ones (Bias, Toxicity, Hallucination).
 */
export function passes(score: number, threshold: number, higherIsBetter: boolean): boolean {
  return higherIsBetter ? score >= threshold : score <= threshold;
}

function checkThreshold(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidArgumentError(`'threshold' must be a finite number or null, got ${describeValue(value)}`, {
      argument: "threshold",
      expected: "finite number or null",
      actual: describeValue(value),
    });
  }
  return value;
}

/**
 * The scored half of DeepEval's model, shared by `BaseMetric` and `BaseConversationalMetric`: a
 * threshold, strict mode, a direction, and `score`/`success`. Subclass one of those two.
 */
export abstract class ScoredMetric<TTestCase> extends MetricCore<TTestCase, Evaluation, number | null> {
  readonly threshold: number | null;
  readonly strictMode: boolean;
  readonly higherIsBetter: boolean;
  readonly strictBinarizes: boolean;
  /** The score of the last measurement (after strict mode), null before one or after a failure. */
  score: number | null = null;
  /** Pass/fail of the last measurement; null when there is no threshold. */
  success: boolean | null = null;
  scoreBreakdown: Readonly<Record<string, number>> | null = null;
  /** A flaky metric never decides a test case's pass/fail (for runners). */
  flaky = false;

  protected constructor(options: ScoredMetricOptions = {}, traits: MetricTraits = {}) {
    super(options, traits.defaultIncludeReason ?? true);
    this.higherIsBetter = traits.higherIsBetter ?? true;
    this.strictBinarizes = traits.strictBinarizes ?? true;
    const strictMode = options.strictMode ?? false;
    if (typeof strictMode !== "boolean") {
      throw new InvalidArgumentError(`'strictMode' must be a boolean, got ${describeValue(strictMode)}`, {
        argument: "strictMode",
        expected: "boolean",
        actual: describeValue(strictMode),
      });
    }
    this.strictMode = strictMode;
    const threshold = checkThreshold(options.threshold === undefined ? (traits.defaultThreshold ?? 0.5) : options.threshold);
    this.threshold = strictMode ? (this.higherIsBetter ? 1 : 0) : threshold;
  }

  /**
   * Score a test case synchronously and return the score. Only for metrics that need no model
   * (`supportsSyncMeasure`); others throw `SyncMeasureUnsupportedError`.
   */
  measure(testCase: TTestCase): number | null {
    return this.runMeasure(testCase);
  }

  /** Score a test case and return the score. Works for every metric. */
  aMeasure(testCase: TTestCase, options?: MeasureOptions): Promise<number | null> {
    return this.runAMeasure(testCase, options);
  }

  /**
   * Decide and store `success`: null without a threshold, false after an error or without a score,
   * else `score >= threshold` (`<=` for lower-is-better metrics).
   */
  isSuccessful(): boolean | null {
    if (this.threshold === null) this.success = null;
    else if (this.error !== null || this.score === null) this.success = false;
    else this.success = passes(this.score, this.threshold, this.higherIsBetter);
    return this.success;
  }

  /** Strict mode applied to a raw score (identity when strict mode is off or does not binarise). */
  protected applyStrictMode(score: number): number {
    if (!this.strictMode || !this.strictBinarizes || this.threshold === null) return score;
    return strictScore(score, this.threshold, this.higherIsBetter);
  }

  protected override resetState(): void {
    super.resetState();
    this.score = null;
    this.success = null;
    this.scoreBreakdown = null;
  }

  protected override recordFailure(error: unknown): void {
    super.recordFailure(error);
    this.score = null;
    this.success = false;
  }

  protected settle(evaluation: Evaluation): number | null {
    const raw: unknown = evaluation.score;
    if (raw !== null && (typeof raw !== "number" || !Number.isFinite(raw))) {
      throw new InvalidEvaluationError(this.name, `the score must be a finite number or null, got ${describeValue(raw)}`);
    }
    const breakdown = evaluation.scoreBreakdown ?? null;
    if (breakdown !== null) {
      for (const [key, value] of Object.entries(breakdown)) {
        if (typeof value !== "number" || !Number.isFinite(value)) {
          throw new InvalidEvaluationError(this.name, `score breakdown '${key}' must be a finite number, got ${describeValue(value)}`);
        }
      }
    }
    this.score = raw === null ? null : this.applyStrictMode(raw);
    this.scoreBreakdown = breakdown;
    return this.score;
  }

  protected finalVerboseStep(): string {
    return `Score: ${this.score === null ? "None" : pyFloatRepr(this.score)}\nReason: ${this.reason ?? "None"}`;
  }

  /** A snapshot of the last measurement. */
  toMetricData(): MetricData {
    return {
      name: this.name,
      kind: this.kind,
      score: this.score,
      threshold: this.threshold,
      success: this.success,
      reason: this.reason,
      error: this.error,
      strictMode: this.strictMode,
      higherIsBetter: this.higherIsBetter,
      evaluationModel: this.evaluationModel,
      evaluationCost: this.evaluationCost,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      verboseLogs: this.verboseLogs,
      scoreBreakdown: this.scoreBreakdown,
      skipped: this.skipped,
    };
  }
}

/** Options of `BaseMetric`. */
export interface BaseMetricTraits extends MetricTraits {
  /** Agentic metrics that read `testCase.trace`. Default false. */
  readonly requiresTrace?: boolean;
}

/**
 * A single-turn metric (DeepEval `BaseMetric`): scores one `LLMTestCase`.
 *
 * When to use: subclass it for any metric over an `LLMTestCase` — a deterministic one implements
 * `evaluateSync`, a judge metric `evaluateAsync`.
 *
 * Details: `measure`/`aMeasure` run DeepEval's lifecycle: reset the result fields; check
 * `requiredParams` (`checkLLMTestCaseParams`, message kept in `error`); reset cost accounting; call
 * the evaluation hook; apply strict mode to the raw score; get the reason when `includeReason`;
 * decide `success`; build `verboseLogs` and print them in `verboseMode`. Any failure leaves
 * `score = null`, `success = false` and `error` set, then rethrows.
 *
 * Gotchas: one instance holds one measurement; concurrent `aMeasure` calls on the same instance
 * throw `ConcurrentMeasureError` — use `copy()` per test case.
 *
 * @example
 * class LengthMetric extends BaseMetric {
 *   constructor(options: ScoredMetricOptions = {}) { super(options, { defaultThreshold: 0.5 }); }
 *   override get name() { return "Length"; }
 *   protected override get requiredParams() { return [LLMTestCaseParams.ACTUAL_OUTPUT]; }
 *   protected override evaluateSync(testCase: LLMTestCase): Evaluation {
 *     const score = Math.min(1, (testCase.actualOutput ?? "").length / 100);
 *     return { score, reason: `${testCase.actualOutput?.length} characters` };
 *   }
 * }
 * new LengthMetric().measure(new LLMTestCase({ input: "q", actualOutput: "x".repeat(80) })); // 0.8
 */
export abstract class BaseMetric extends ScoredMetric<LLMTestCase> {
  readonly kind = "single-turn" as const;
  readonly requiresTrace: boolean;

  protected constructor(options: ScoredMetricOptions = {}, traits: BaseMetricTraits = {}) {
    super(options, traits);
    this.requiresTrace = traits.requiresTrace ?? false;
  }

  get name(): string {
    return "Base Metric";
  }

  /** The test-case fields this metric needs (checked before every measurement). */
  protected get requiredParams(): readonly LLMTestCaseParams[] {
    return [];
  }

  protected validateTestCase(testCase: unknown): asserts testCase is LLMTestCase {
    checkLLMTestCaseParams(testCase, this.requiredParams, this);
  }
}

/**
 * A conversational metric (DeepEval `BaseConversationalMetric`): scores a whole
 * `ConversationalTestCase`. Same lifecycle as `BaseMetric`; the check is
 * `checkConversationalTestCaseParams(testCase, requiredParams, this, requiresChatbotRole)`.
 */
export abstract class BaseConversationalMetric extends ScoredMetric<ConversationalTestCase> {
  readonly kind = "conversational" as const;

  protected constructor(options: ScoredMetricOptions = {}, traits: MetricTraits = {}) {
    super(options, traits);
  }

  get name(): string {
    return "Base Conversational Metric";
  }

  protected get requiredParams(): readonly MultiTurnParams[] {
    return [];
  }

  /** RoleAdherence needs `chatbotRole`. */
  protected get requiresChatbotRole(): boolean {
    return false;
  }

  protected validateTestCase(testCase: unknown): asserts testCase is ConversationalTestCase {
    checkConversationalTestCaseParams(testCase, this.requiredParams, this, this.requiresChatbotRole);
  }
}
