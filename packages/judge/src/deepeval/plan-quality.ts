// DeepEval PlanQualityMetric (docs/spec/judges.md §4.5). Calls: task → plan → plan quality (only with a
// plan).
import { LLMTestCaseParams, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ANCHORED_SCALE, judgeTracePlan } from "./agentic.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, numbered } from "./render.js";
import { judgeSchema, unitInterval } from "./schema.js";

const planQualitySchema = judgeSchema("plan_quality", z.object({ score: unitInterval, reason: z.string() }));

/**
 * Is the agent's own plan good enough for the task? (DeepEval `PlanQualityMetric`.) Needs `testCase.trace`.
 *
 * Details: the task from the trace, then the plan the trace explicitly shows (as PlanAdherence). An
 * empty plan scores 1 with `NO_PLAN_REASON` and no third call; otherwise a strict judgement of the
 * plan itself — complete, logically ordered, minimal, specific, aimed at the task — anchored at
 * 1.0/0.75/0.5/0.25/0.0. Score and reason are the judge's (no reason call). Threshold 0.5; strict: 1.
 *
 * @example
 * const metric = new PlanQualityMetric({ model: judge });
 */
export class PlanQualityMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5, requiresTrace: true });
  }

  override get name(): string {
    return "Plan Quality";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    return judgeTracePlan(testCase, this, (schema, prompt) => this.judge(schema, prompt, { signal }), {
      schema: planQualitySchema,
      prompt: (task, plan) =>
        `Be strict. Judge the quality of the agent's plan for the task — the plan itself, not how it ` +
        `was carried out. A good plan covers every requirement of the task and its prerequisites (a ` +
        `missing critical step lowers the score sharply), runs in a sensible order, has no redundant, ` +
        `circular or filler steps, states each step concretely enough to execute, and stays aimed at ` +
        `the task. Lower the score if a simpler or more direct plan would do.

${ANCHORED_SCALE}

Task:
${task}

Plan:
${numbered(plan)}

In the reason, name the specific steps that are missing, vague or unnecessary (one to three sentences).

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
    });
  }
}
