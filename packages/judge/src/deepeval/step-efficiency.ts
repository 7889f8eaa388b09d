// DeepEval StepEfficiencyMetric (docs/spec/judges.md §4.4). Calls: task → efficiency score.
import { LLMTestCaseParams, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ANCHORED_SCALE, requireTrace, taskFromTracePrompt, taskSchema, traceText } from "./agentic.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, unitInterval } from "./schema.js";

const scoreReasonSchema = judgeSchema("score_reason", z.object({ score: unitInterval, reason: z.string() }));

/**
 * Did the agent take only the steps it needed? (DeepEval `StepEfficiencyMetric`.) Needs `testCase.trace`.
 *
 * Details: two judge calls — the task from the trace, then an adversarial efficiency judgement
 * (anchored 1.0/0.75/0.5/0.25/0.0): redundant LLM calls, repeated or extra retrievals and unnecessary
 * enrichment lower the score; correctness is out of scope. Score and reason are the judge's.
 * Threshold 0.5.
 *
 * @example
 * const metric = new StepEfficiencyMetric({ model: judge });
 */
export class StepEfficiencyMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5, requiresTrace: true });
  }

  override get name(): string {
    return "Step Efficiency";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    requireTrace(testCase, this);
    const { task } = await this.judge(taskSchema, taskFromTracePrompt(testCase), { signal });
    const { score, reason } = await this.judge(
      scoreReasonSchema,
      `Be strict. Judge whether the agent used the minimal set of actions needed for the task. ` +
        `Redundant LLM calls, repeated or unnecessary retrievals, and enrichment nobody asked for lower ` +
        `the score. Judge efficiency only, not whether the result is correct.

${ANCHORED_SCALE}

Task:
${task}

Trace:
${traceText(testCase)}

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
      { signal },
    );
    return { score, reason, verboseSteps: [`Task: ${task}`] };
  }
}
