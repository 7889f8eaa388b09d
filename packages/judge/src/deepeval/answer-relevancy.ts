// DeepEval AnswerRelevancyMetric (docs/spec/judges.md §2.1): the share of the answer's statements that address
// the input. Calls: statements → verdicts (skipped when there are none) → reason.
import { LLMTestCaseParams, prettifyList, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, stringList } from "./schema.js";
import { reasonPrompt, reasonsOf, verdictListSchema, type Verdict } from "./shared-prompts.js";

export type RelevancyVerdict = Verdict<"yes" | "no" | "idk">;

const statementsSchema = judgeSchema("statements", z.object({ statements: stringList }));

/**
 * `count(verdict != "no") / n`, 1 when there are no verdicts (an answer with no statements is
 * vacuously relevant); `idk` counts as relevant.
 */
export function answerRelevancyScore(verdicts: readonly RelevancyVerdict[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict !== "no").length / verdicts.length;
}

/**
 * How much of the answer is relevant to the input (DeepEval `AnswerRelevancyMetric`).
 *
 * When to use: an answer padded with off-topic statements should score lower.
 *
 * Details: three judge calls — split `actualOutput` into statements, one `yes`/`no`/`idk` verdict per
 * statement, then the reason. Score `count(yes|idk) / n`; no statements → 1. Threshold 0.5.
 *
 * Gotchas: a verdict list whose length differs from the statement count is a `JudgeReplyError`.
 *
 * @example
 * const metric = new AnswerRelevancyMetric({ model: judge });
 * await metric.aMeasure(new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris. I like cats." }));
 */
export class AnswerRelevancyMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Answer Relevancy";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const input = testCase.input;
    const output = testCase.actualOutput ?? "";
    const { statements } = await this.judge(
      statementsSchema,
      `Break the text below into short, atomic statements, each expressing one idea. Keep a short ` +
        `fragment as its own statement only when it is not part of a larger coherent statement.

Text:
${output}

${jsonOnly('{"statements": ["<statement>", ...]}')}
Use an empty list if the text contains no statements.`,
      { signal },
    );
    let verdicts: RelevancyVerdict[] = [];
    if (statements.length > 0) {
      ({ verdicts } = await this.judge(
        verdictListSchema(["yes", "no", "idk"] as const, "optional", { count: statements.length, per: "statement" }),
        `For each of the ${statements.length} statements below, in order, decide whether it is relevant to addressing the input:
- "yes": it addresses the input,
- "no": it is irrelevant to the input (give a reason),
- "idk": it is ambiguous, or supports the answer without addressing the input directly (give a reason).
Give a reason only for "no" and "idk" (use null otherwise). Return exactly ${statements.length} verdicts.

Input:
${input}

Statements:
${JSON.stringify(statements, null, 2)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no" | "idk", "reason": "<string or null>"}, ...]}')}`,
        { signal },
      ));
    }
    return {
      score: answerRelevancyScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Input:\n${input}`,
            sections: [{ title: "Reasons the irrelevant statements are irrelevant", items: reasonsOf(verdicts, ["no"]) }],
          }),
          signal,
        ),
      verboseSteps: [`Statements:\n${prettifyList(statements)}`, `Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
