// DeepEval HallucinationMetric (docs/spec/judges.md §2.3), lower is better: the share of ground-truth context
// items the answer contradicts. Calls: one verdict per context item → reason.
import { LLMTestCaseParams, prettifyList, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { reasonPrompt, reasonsExcept, reasonsOf, verdictListSchema, type Verdict } from "./shared-prompts.js";

export type HallucinationVerdict = Verdict<"yes" | "no">;

/** `count(verdict == "no") / n`; 0 with no verdicts. */
export function hallucinationScore(verdicts: readonly HallucinationVerdict[]): number {
  if (verdicts.length === 0) return 0;
  return verdicts.filter((v) => v.verdict === "no").length / verdicts.length;
}

/**
 * How much of the ground-truth context the answer contradicts (DeepEval `HallucinationMetric`).
 * Lower is better: success is `score <= threshold`; strict mode sets threshold 0 and turns any
 * contradiction into 1.
 *
 * Details: two judge calls — one `yes` (agrees) / `no` (contradicts) verdict per `context` item, with
 * a reason each, then the reason call. Missing detail is not a contradiction. Score
 * `count(no) / n`; empty context → 0. Uses `context`, not `retrievalContext`. Threshold 0.5.
 *
 * @example
 * const metric = new HallucinationMetric({ model: judge, threshold: 0.3 });
 */
export class HallucinationMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5, higherIsBetter: false });
  }

  override get name(): string {
    return "Hallucination";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.CONTEXT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const contexts = testCase.context ?? [];
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no"] as const, "required", { count: contexts.length, per: "context" }),
      `Compare the answer below with each of the ${contexts.length} contexts, in order. For each context ` +
        `decide whether the answer agrees with it:
- "yes": the answer agrees with the context, or does not mention what it says (missing detail is not a contradiction),
- "no": the answer contradicts the context; the reason must state what the context says instead.
Give a reason for every verdict. Use only the contexts, no prior knowledge. Return exactly ${contexts.length} verdicts.

Answer:
${testCase.actualOutput ?? ""}

Contexts:
${JSON.stringify(contexts, null, 2)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no", "reason": "<string>"}, ...]}')}`,
      { signal },
    );
    return {
      score: hallucinationScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            lowerIsBetter: true,
            sections: [
              { title: "Factual alignments", items: reasonsOf(verdicts, ["yes"]) },
              { title: "Contradictions", items: reasonsExcept(verdicts, ["yes"]) },
            ],
          }),
          signal,
        ),
      verboseSteps: [`Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
