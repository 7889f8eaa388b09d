// DeepEval ContextualRecallMetric (docs/spec/judges.md §2.5): the share of the expected output's sentences the
// retrieval context supports. Calls: verdicts (one per sentence) → reason.
import {
  LLMTestCaseParams,
  prettifyList,
  retrievalContextText,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { reasonPrompt, reasonsExcept, reasonsOf, verdictListSchema, type Verdict } from "./shared-prompts.js";

export type RecallVerdict = Verdict<"yes" | "no">;

/** `count(verdict == "yes") / n`; 0 with no verdicts. */
export function contextualRecallScore(verdicts: readonly RecallVerdict[]): number {
  if (verdicts.length === 0) return 0;
  return verdicts.filter((v) => v.verdict === "yes").length / verdicts.length;
}

/**
 * Did the retriever find what the ideal answer needs? (DeepEval `ContextualRecallMetric`.)
 *
 * Details: two judge calls — split `expectedOutput` into sentences and decide for each whether it can
 * be attributed to some retrieval node (`yes`/`no`, reason citing the node's position), then the
 * reason. Score `count(yes) / n`; no sentences → 0. Threshold 0.5.
 *
 * @example
 * const metric = new ContextualRecallMetric({ model: judge });
 */
export class ContextualRecallMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Contextual Recall";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT, LLMTestCaseParams.EXPECTED_OUTPUT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const nodes = (testCase.retrievalContext ?? []).map(retrievalContextText);
    const expected = testCase.expectedOutput ?? "";
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no"] as const, "required"),
      `Split the expected output below into sentences. For each sentence, in order, decide whether it ` +
        `can be attributed to any of the retrieval nodes: "yes" or "no". Each reason should name the ` +
        `node by position ("1st node", "2nd node", ...) and quote the supporting part briefly, or say ` +
        `why nothing supports the sentence.

Expected output:
${expected}

Retrieval nodes:
${JSON.stringify(nodes, null, 2)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no", "reason": "<string>"}, ...]}')}`,
      { signal },
    );
    return {
      score: contextualRecallScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Expected output:\n${expected}`,
            sections: [
              { title: "Supportive reasons (sentences found in the retrieval context)", items: reasonsOf(verdicts, ["yes"]) },
              { title: "Unsupportive reasons (sentences not found)", items: reasonsExcept(verdicts, ["yes"]) },
            ],
          }),
          signal,
        ),
      verboseSteps: [`Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
