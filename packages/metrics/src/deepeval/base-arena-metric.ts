// DeepEval's `BaseArenaMetric`: picks the best contestant; no threshold, no score.
import { checkArenaTestCaseParams } from "./check-params.js";
import type { ArenaTestCase } from "./arena-test-case.js";
import { InvalidEvaluationError } from "./errors.js";
import { MetricCore, type EvaluationBase, type MeasureOptions, type MetricOptions } from "./metric-core.js";
import type { LLMTestCaseParams } from "./params.js";
import { describeValue } from "./python-compat.js";

/** The result of an arena metric's evaluation hook. */
export interface ArenaEvaluation extends EvaluationBase {
  /** The winning contestant's (real) name. */
  readonly winner: string;
}

/**
 * A pairwise/arena metric (DeepEval `BaseArenaMetric`): `measure`/`aMeasure` return the winning
 * contestant's name.
 *
 * Details: the same lifecycle as `BaseMetric`, with `checkArenaTestCaseParams` for validation; the
 * winner must be one of the contestants (`InvalidEvaluationError` otherwise). There is no threshold,
 * score or strict mode; `isSuccessful()` is true unless the measurement failed (ArenaGEval's rule;
 * DeepEval leaves it abstract, so override it if your metric means something else).
 */
export abstract class BaseArenaMetric extends MetricCore<ArenaTestCase, ArenaEvaluation, string> {
  readonly kind = "arena" as const;
  /** The winner of the last measurement. */
  winner: string | null = null;
  success: boolean | null = null;

  protected constructor(options: MetricOptions = {}, defaultIncludeReason = true) {
    super(options, defaultIncludeReason);
  }

  get name(): string {
    return "Base Arena Metric";
  }

  /** Fields every contestant's test case needs. */
  protected get requiredParams(): readonly LLMTestCaseParams[] {
    return [];
  }

  measure(testCase: ArenaTestCase): string {
    return this.runMeasure(testCase);
  }

  aMeasure(testCase: ArenaTestCase, options?: MeasureOptions): Promise<string> {
    return this.runAMeasure(testCase, options);
  }

  isSuccessful(): boolean {
    this.success = this.error === null && this.winner !== null;
    return this.success;
  }

  protected validateTestCase(testCase: unknown): asserts testCase is ArenaTestCase {
    checkArenaTestCaseParams(testCase, this.requiredParams, this);
  }

  protected override resetState(): void {
    super.resetState();
    this.winner = null;
    this.success = null;
  }

  protected override recordFailure(error: unknown): void {
    super.recordFailure(error);
    this.winner = null;
    this.success = false;
  }

  protected settle(evaluation: ArenaEvaluation, testCase: ArenaTestCase): string {
    const winner: unknown = evaluation.winner;
    if (typeof winner !== "string" || !testCase.contestants.some((c) => c.name === winner)) {
      const names = testCase.contestants.map((c) => c.name).join(", ");
      throw new InvalidEvaluationError(this.name, `the winner must be one of the contestants (${names}), got ${describeValue(winner)}`);
    }
    this.winner = winner;
    return winner;
  }

  protected finalVerboseStep(): string {
    return `Winner: ${this.winner ?? "None"}\nReason: ${this.reason ?? "None"}`;
  }
}
