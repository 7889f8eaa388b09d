// DeepEval FaithfulnessMetric (docs/spec/judges.md §2.2): the share of the answer's claims the retrieval
// context does not contradict. Calls: truths ∥ claims → verdicts (skipped without claims) → reason.
import {
  LLMTestCaseParams,
  prettifyList,
  retrievalContextText,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { JudgeMetricConfigError } from "./errors.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import {
  claimsPrompt,
  claimsSchema,
  contradictionVerdictsPrompt,
  reasonPrompt,
  reasonsOf,
  truthsPrompt,
  truthsSchema,
  verdictListSchema,
  type Verdict,
} from "./shared-prompts.js";

export type FaithfulnessVerdict = Verdict<"yes" | "no" | "idk">;

export interface FaithfulnessOptions extends JudgeMetricOptions {
  /**
   * Extract at most this many truths per retrieval document (the most important ones). Null: all.
   * Negative values are clamped to 0, as DeepEval does.
   */
  readonly truthsExtractionLimit?: number | null;
  /** Count `idk` claims (neither supported nor contradicted) as unfaithful. Default false. */
  readonly penalizeAmbiguousClaims?: boolean;
}

/**
 * `(count(verdict != "no") − (penalize ? count(idk) : 0)) / n`; 1 with no claims.
 */
export function faithfulnessScore(verdicts: readonly FaithfulnessVerdict[], penalizeAmbiguousClaims = false): number {
  if (verdicts.length === 0) return 1;
  const faithful = verdicts.filter((v) => v.verdict !== "no").length;
  const ambiguous = penalizeAmbiguousClaims ? verdicts.filter((v) => v.verdict === "idk").length : 0;
  return (faithful - ambiguous) / verdicts.length;
}

export function checkExtractionLimit(value: unknown, owner: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new JudgeMetricConfigError("truthsExtractionLimit", `${owner}: 'truthsExtractionLimit' must be an integer or null`);
  }
  return Math.max(0, value);
}

/**
 * Does the answer stay true to the retrieved context? (DeepEval `FaithfulnessMetric`.)
 *
 * When to use: RAG answers, to catch claims the retrieved documents contradict.
 *
 * Details: truths are extracted from `retrievalContext` (documents joined by blank lines) and claims
 * from `actualOutput`, concurrently in `asyncMode`; each claim gets a verdict against the truths:
 * `no` = contradicted, `idk` = not supported, `yes` = consistent. Score
 * `(count(yes|idk) − (penalizeAmbiguousClaims ? count(idk) : 0)) / n`; no claims → 1. Threshold 0.5.
 *
 * Gotchas: an answer with no factual claims scores 1 even with an empty context (DeepEval's rule).
 *
 * @example
 * const metric = new FaithfulnessMetric({ model: judge, penalizeAmbiguousClaims: true });
 */
export class FaithfulnessMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "truthsExtractionLimit", "penalizeAmbiguousClaims"];

  readonly truthsExtractionLimit: number | null;
  readonly penalizeAmbiguousClaims: boolean;

  constructor(options: FaithfulnessOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
    this.truthsExtractionLimit = checkExtractionLimit(options.truthsExtractionLimit, "FaithfulnessMetric");
    const penalize = options.penalizeAmbiguousClaims ?? false;
    if (typeof penalize !== "boolean") {
      throw new JudgeMetricConfigError("penalizeAmbiguousClaims", "FaithfulnessMetric: 'penalizeAmbiguousClaims' must be a boolean");
    }
    this.penalizeAmbiguousClaims = penalize;
  }

  override get name(): string {
    return "Faithfulness";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const context = (testCase.retrievalContext ?? []).map(retrievalContextText).join("\n\n");
    const [{ truths }, { claims }] = await this.gatherPair(
      () => this.judge(truthsSchema, truthsPrompt(context, this.truthsExtractionLimit), { signal }),
      () => this.judge(claimsSchema, claimsPrompt(testCase.actualOutput ?? ""), { signal }),
    );
    let verdicts: FaithfulnessVerdict[] = [];
    if (claims.length > 0) {
      ({ verdicts } = await this.judge(
        verdictListSchema(["yes", "no", "idk"] as const, "optional", { count: claims.length, per: "claim" }),
        contradictionVerdictsPrompt(claims, truths, "retrieval context"),
        { signal },
      ));
    }
    const penalize = this.penalizeAmbiguousClaims;
    return {
      score: faithfulnessScore(verdicts, penalize),
      reason: () => {
        const contradictions = reasonsOf(verdicts, ["no"]);
        if (penalize) contradictions.push(...reasonsOf(verdicts, ["idk"]).map((r) => `(Ambiguous) ${r}`));
        return this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            sections: [{ title: "Contradictions between the answer and the retrieval context", items: contradictions }],
          }),
          signal,
        );
      },
      verboseSteps: [`Truths:\n${prettifyList(truths)}`, `Claims:\n${prettifyList(claims)}`, `Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
