// DeepEval TurnFaithfulnessMetric (docs/spec/judges.md §5.4): Faithfulness per conversation window.
// Calls per window: truths ∥ claims → verdicts (skipped without claims) → window reason; then the
// final reason.
import { MultiTurnParams, type ConversationalTestCase } from "@evalkern/metrics/deepeval";
import { JudgeMetricConfigError } from "./errors.js";
import { checkExtractionLimit, faithfulnessScore, type FaithfulnessVerdict } from "./faithfulness.js";
import {
  claimsPrompt,
  claimsSchema,
  contradictionVerdictsPrompt,
  reasonsOf,
  truthsPrompt,
  truthsSchema,
  verdictListSchema,
} from "./shared-prompts.js";
import { TURN_RAG_OPTION_KEYS, TurnRagMetric, verboseList, type TurnRagOptions, type TurnWindow, type WindowVerdicts } from "./turn-rag.js";

export interface TurnFaithfulnessOptions extends TurnRagOptions {
  /** Extract at most this many truths per window (the most important ones). Null: all. Negative → 0. */
  readonly truthsExtractionLimit?: number | null;
  /** Count `idk` claims as unfaithful. Default false. */
  readonly penalizeAmbiguousClaims?: boolean;
}

export interface TurnFaithfulnessArtefacts {
  readonly truths: readonly string[];
  readonly claims: readonly string[];
  readonly verdicts: readonly FaithfulnessVerdict[];
}

/** A window whose assistant messages make no claim: nothing can be unfaithful. */
export const NO_CLAIMS_REASON =
  "The assistant messages of this window make no factual claims, so nothing contradicts the retrieval context.";

/**
 * Do the assistant's replies stay true to what was retrieved for them? (DeepEval `TurnFaithfulnessMetric`.)
 *
 * Details: per window (see `TurnRagMetric`), truths are extracted from the retrieval context of the
 * window's assistant turns (documents joined by blank lines, at most `truthsExtractionLimit`) and
 * claims from its assistant messages; each claim gets a verdict against the truths (`no` =
 * contradicted, `idk` = unsupported, `yes` = consistent). Window score
 * `(count(yes|idk) − (penalizeAmbiguousClaims ? count(idk) : 0)) / n`; no claims → 1. Metric score:
 * mean over windows; no window → 1. Threshold 0.5; strict mode zeroes windows below 1.
 *
 * @example
 * const metric = new TurnFaithfulnessMetric({ model: judge, windowSize: 3 });
 * await metric.aMeasure(new ConversationalTestCase({ turns }));
 */
export class TurnFaithfulnessMetric extends TurnRagMetric<TurnFaithfulnessArtefacts> {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...TURN_RAG_OPTION_KEYS, "truthsExtractionLimit", "penalizeAmbiguousClaims"];

  readonly truthsExtractionLimit: number | null;
  readonly penalizeAmbiguousClaims: boolean;

  constructor(options: TurnFaithfulnessOptions = {}) {
    super(options);
    this.truthsExtractionLimit = checkExtractionLimit(options.truthsExtractionLimit, "TurnFaithfulnessMetric");
    const penalize = options.penalizeAmbiguousClaims ?? false;
    if (typeof penalize !== "boolean") {
      throw new JudgeMetricConfigError("penalizeAmbiguousClaims", "TurnFaithfulnessMetric: 'penalizeAmbiguousClaims' must be a boolean");
    }
    this.penalizeAmbiguousClaims = penalize;
  }

  override get name(): string {
    return "Turn Faithfulness";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT, MultiTurnParams.RETRIEVAL_CONTEXT];
  }

  protected override async scoreWindow(
    window: TurnWindow,
    _testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<TurnFaithfulnessArtefacts>> {
    const [{ truths }, { claims }] = (await this.gather<unknown>([
      () => this.judge(truthsSchema, truthsPrompt(window.retrievalContext.join("\n\n"), this.truthsExtractionLimit), { signal }),
      () => this.judge(claimsSchema, claimsPrompt(window.assistantContent), { signal }),
    ])) as [{ truths: string[] }, { claims: string[] }];
    if (claims.length === 0) return { score: 1, fixedReason: NO_CLAIMS_REASON, artefacts: { truths, claims, verdicts: [] } };
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no", "idk"] as const, "optional", { count: claims.length, per: "claim" }),
      contradictionVerdictsPrompt(claims, truths, "retrieval context"),
      { signal },
    );
    const contradictions = reasonsOf(verdicts, ["no"]);
    if (this.penalizeAmbiguousClaims) contradictions.push(...reasonsOf(verdicts, ["idk"]).map((r) => `(Ambiguous) ${r}`));
    return {
      score: faithfulnessScore(verdicts, this.penalizeAmbiguousClaims),
      artefacts: { truths, claims, verdicts },
      reasonSections: [{ title: "Contradictions between the assistant's messages and the retrieval context", items: contradictions }],
    };
  }

  protected override describeWindow(a: TurnFaithfulnessArtefacts): string[] {
    return [verboseList("Truths", a.truths), verboseList("Claims", a.claims), verboseList("Verdicts", a.verdicts)];
  }
}
