// Shared pieces of the agentic metrics (docs/spec/judges.md §4.2–4.9): the trace as evidence, the task and
// plan extractions from a trace, and the parts of a unit interaction the conversational agentic metrics judge.
import {
  formatToolCallsForPrompt,
  MissingTestCaseParamsError,
  prettifyList,
  type Evaluation,
  type LLMTestCase,
  type ToolCall,
  type Turn,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import type { JudgeSchema } from "../model.js";
import { json, jsonOnly } from "./render.js";
import { judgeSchema, stringList } from "./schema.js";

export const taskSchema = judgeSchema("task", z.object({ task: z.string() }));
export const planSchema = judgeSchema("plan", z.object({ plan: stringList }));

/** The reason given when the trace shows no plan (PlanAdherence and PlanQuality: score 1, no judging call). */
export const NO_PLAN_REASON =
  "There were no plans to evaluate within the trace of your agent's execution. Please check that " +
  "the agent's planning, reasoning or thinking is recorded in the trace.";

/** The trace as the judge sees it (indented JSON). */
export function traceText(testCase: LLMTestCase): string {
  return json(testCase.trace);
}

/**
 * The trace of a test case, or a `MissingTestCaseParamsError` recorded on the metric: the metric
 * judges the trace itself, so there is nothing to evaluate without one. (DeepEval sends "None".)
 */
export function requireTrace(testCase: LLMTestCase, metric: { readonly name: string; error: string | null }): void {
  if (testCase.trace === null) {
    const message = `'trace' cannot be None for the '${metric.name}' metric (evaluate it on a traced agent run)`;
    metric.error = message;
    throw new MissingTestCaseParamsError(message, ["trace"]);
  }
}

/** The user's task, stated from the trace's root input without inference. */
export function taskFromTracePrompt(testCase: LLMTestCase): string {
  return (
    `Below is the trace of an AI agent's run (nested spans: agent, tool, LLM, retriever, custom). ` +
    `State the task the user asked the agent to do, as literally as the root input allows. Do not ` +
    `infer goals that are not stated.

Trace:
${traceText(testCase)}

${jsonOnly('{"task": "<string>"}')}`
  );
}

/** The plan the trace shows explicitly (reasoning, thinking, a stated plan), never one rebuilt from the actions. */
export function planFromTracePrompt(testCase: LLMTestCase): string {
  return (
    `Below is the trace of an AI agent's run. Extract the plan the agent made, as an ordered list ` +
    `of steps — but only steps the trace explicitly shows (in reasoning, thinking or planning ` +
    `fields, or a plan the agent stated). Do not reconstruct a plan from the actions taken. Return ` +
    `an empty list if no plan is recorded.

Trace:
${traceText(testCase)}

${jsonOnly('{"plan": ["<step>", ...]}')}`
  );
}

/** One judge call of a measurement, its abort signal already bound (the metric's `judge`). */
export type BoundJudge = <T>(schema: JudgeSchema<T>, prompt: string) => Promise<T>;

/** The final call of a plan metric: its schema and its prompt over the extracted task and plan. */
export interface PlanJudgement {
  readonly schema: JudgeSchema<{ score: number; reason: string }>;
  readonly prompt: (task: string, plan: readonly string[]) => string;
}

/**
 * The course PlanAdherence and PlanQuality share: the trace is required, then the task and the plan
 * are extracted from it. An empty plan scores 1 with {@link NO_PLAN_REASON} and no third call (there is
 * nothing to judge); otherwise the metric's own judgement gives the score and the reason.
 */
export async function judgeTracePlan(
  testCase: LLMTestCase,
  metric: { readonly name: string; error: string | null },
  judge: BoundJudge,
  judgement: PlanJudgement,
): Promise<Evaluation> {
  requireTrace(testCase, metric);
  const { task } = await judge(taskSchema, taskFromTracePrompt(testCase));
  const { plan } = await judge(planSchema, planFromTracePrompt(testCase));
  const verbose = [`Task: ${task}`, `Agent Plan:\n${prettifyList(plan)}`];
  if (plan.length === 0) return { score: 1, reason: NO_PLAN_REASON, verboseSteps: verbose };
  const { score, reason } = await judge(judgement.schema, judgement.prompt(task, plan));
  return { score, reason, verboseSteps: verbose };
}

/** The adversarial 1.0 / 0.75 / 0.5 / 0.25 / 0.0 anchors of plan adherence and step efficiency. */
export const ANCHORED_SCALE = `Use this scale, and pick the lower value when unsure:
1.0 — fully satisfied, no exceptions
0.75 — minor deviations
0.5 — partly satisfied, clear problems
0.25 — mostly not satisfied
0.0 — not satisfied at all`;

/** What the conversational agentic metrics judge of one unit interaction (ToolUse, GoalAccuracy). */
export interface InteractionParts {
  /** The user turns that open the interaction, in order. */
  readonly userMessages: readonly string[];
  /** The assistant turns after the first turn, in order. */
  readonly assistantMessages: readonly string[];
  /** The tools those assistant turns called, in order. */
  readonly toolsCalled: readonly ToolCall[];
  /** The same assistant turns with the tools each one called (for prompts that show the steps). */
  readonly steps: readonly { readonly content: string; readonly toolsCalled: readonly ToolCall[] }[];
}

/**
 * DeepEval's split of a unit interaction (`tool_use.py`, `goal_accuracy.py`): the leading run of user
 * turns is the request; every assistant turn after the first turn is a step, with the tools it called.
 */
export function interactionParts(unit: readonly Turn[]): InteractionParts {
  const userMessages: string[] = [];
  for (const turn of unit) {
    if (turn.role !== "user") break;
    userMessages.push(turn.content);
  }
  const steps = unit
    .slice(1)
    .filter((turn) => turn.role === "assistant")
    .map((turn) => ({ content: turn.content, toolsCalled: turn.toolsCalled ?? [] }));
  return {
    userMessages,
    assistantMessages: steps.map((s) => s.content),
    toolsCalled: steps.flatMap((s) => s.toolsCalled),
    steps,
  };
}

/** The user request and the assistant's steps of one interaction as the judge sees them. */
export function interactionText(parts: InteractionParts): string {
  const steps = parts.steps
    .map((step, i) => {
      const tools = step.toolsCalled.length === 0 ? "" : `\nTools called:\n${formatToolCallsForPrompt(step.toolsCalled)}`;
      return `Step ${i + 1} (assistant):\n${step.content}${tools}`;
    })
    .join("\n\n");
  return `User request:\n${parts.userMessages.join("\n")}\n\nAssistant steps:\n${steps || "(none)"}`;
}
