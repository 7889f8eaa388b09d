// DeepEval PlanAdherenceMetric (docs/spec/judges.md §4.3). Calls: task → plan → adherence (only with a plan).
import { LLMTestCaseParams, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ANCHORED_SCALE, judgeTracePlan, NO_PLAN_REASON, traceText } from "./agentic.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, numbered } from "./render.js";
import { judgeSchema, unitInterval } from "./schema.js";

const scoreReasonSchema = judgeSchema("score_reason", z.object({ score: unitInterval, reason: z.string() }));

export { NO_PLAN_REASON };

/**
 * Did the agent follow its own plan? (DeepEval `PlanAdherenceMetric`.) Needs `testCase.trace`.
 *
 * Details: the task from the trace, then the plan — only steps the trace explicitly shows (reasoning
 * or thought fields, stated plans). An empty plan scores 1 with {@link NO_PLAN_REASON} and no third
 * call; otherwise an adversarial judgement (anchored 1.0/0.75/0.5/0.25/0.0) of whether exactly the
 * planned steps were executed, in order, with nothing extra. The reason is the judge's. Threshold 0.5.
 *
 * @example
 * const metric = new PlanAdherenceMetric({ model: judge });
 */
export class PlanAdherenceMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5, requiresTrace: true });
  }

  override get name(): string {
    return "Plan Adherence";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    return judgeTracePlan(testCase, this, (schema, prompt) => this.judge(schema, prompt, { signal }), {
      schema: scoreReasonSchema,
      prompt: (task, plan) =>
        `Be strict. Judge whether the agent executed exactly its plan: every planned step, in the ` +
        `planned order, with no extra actions beyond the plan. Judge adherence only, not whether the ` +
        `task was solved.

${ANCHORED_SCALE}

Task:
${task}

Plan:
${numbered(plan)}

Trace:
${traceText(testCase)}

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
    });
  }
}
