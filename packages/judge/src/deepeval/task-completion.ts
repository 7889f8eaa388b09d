// DeepEval TaskCompletionMetric (docs/spec/judges.md §4.2). Calls: task & outcome → verdict (its reason is the
// metric's reason).
import {
  formatToolCallsForPrompt,
  LLMTestCaseParams,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { traceText } from "./agentic.js";
import { JudgeMetricConfigError } from "./errors.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, optionalText, unitInterval } from "./schema.js";

export interface TaskCompletionOptions extends JudgeMetricOptions {
  /** The task, when you know it; replaces the task the judge extracts. */
  readonly task?: string | null;
}

const taskOutcomeSchema = judgeSchema("task_outcome", z.object({ task: z.string(), outcome: z.string() }));
const completionVerdictSchema = judgeSchema("task_completion_verdict", z.object({ verdict: unitInterval, reason: optionalText }));

/**
 * How well an agent accomplished the user's task (DeepEval `TaskCompletionMetric`).
 *
 * Details: two judge calls — state the task and a strictly factual outcome (from the trace when the
 * test case has one, else from `input`, `toolsCalled` and `actualOutput`); then a verdict in [0, 1]
 * with a reason. Score = verdict (a verdict outside [0, 1] is a `JudgeReplyError`); the reason is the
 * verdict's. `task` replaces the extracted task. Threshold 0.5.
 *
 * @example
 * const metric = new TaskCompletionMetric({ model: judge, task: "Book a table for two at 8pm" });
 */
export class TaskCompletionMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "task"];

  readonly task: string | null;

  constructor(options: TaskCompletionOptions = {}) {
    super(options, { defaultThreshold: 0.5, requiresTrace: true });
    const task = options.task ?? null;
    if (task !== null && typeof task !== "string")
      throw new JudgeMetricConfigError("task", "TaskCompletionMetric: 'task' must be a string");
    this.task = task;
  }

  override get name(): string {
    return "Task Completion";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const evidence =
      testCase.trace !== null
        ? `Trace of the run (nested spans; the root input is the user's request):\n${traceText(testCase)}`
        : `User input:\n${testCase.input}\n\nTools called:\n` +
          `${formatToolCallsForPrompt(testCase.toolsCalled ?? []) || "[]"}\n\nFinal output:\n` +
          `${testCase.actualOutput ?? ""}`;
    const extracted = await this.judge(
      taskOutcomeSchema,
      `From the agent run below, state (1) the task the user wanted done and (2) the outcome: a ` +
        `strictly factual, non-evaluative description of what the system actually did and produced.

${evidence}

${jsonOnly('{"task": "<string>", "outcome": "<string>"}')}`,
      { signal },
    );
    const task = this.task ?? extracted.task;
    const { verdict, reason } = await this.judge(
      completionVerdictSchema,
      `Judge how well the outcome accomplishes the task, as a number from 0 (not at all) to 1 ` +
        `(completely). Give a concise reason that names what was achieved and what is missing.

Task:
${task}

Outcome:
${extracted.outcome}

${jsonOnly('{"verdict": <number 0-1>, "reason": "<string>"}')}`,
      { signal },
    );
    return { score: verdict, reason, verboseSteps: [`Task: ${task}`, `Outcome: ${extracted.outcome}`] };
  }
}
