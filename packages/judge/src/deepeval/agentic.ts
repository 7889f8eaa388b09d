// Shared pieces of the agentic metrics (docs/spec/judges.md §4.2–4.4): the trace as evidence and the task
// extraction from a trace.
import { MissingTestCaseParamsError, type LLMTestCase } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { json, jsonOnly } from "./render.js";
import { judgeSchema } from "./schema.js";

export const taskSchema = judgeSchema("task", z.object({ task: z.string() }));

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
  return `Below is the trace of an AI agent's run (nested spans: agent, tool, LLM, retriever, custom). State the task the user asked the agent to do, as literally as the root input allows. Do not infer goals that are not stated.

Trace:
${traceText(testCase)}

${jsonOnly('{"task": "<string>"}')}`;
}

/** The adversarial 1.0 / 0.75 / 0.5 / 0.25 / 0.0 anchors of plan adherence and step efficiency. */
export const ANCHORED_SCALE = `Use this scale, and pick the lower value when unsure:
1.0 — fully satisfied, no exceptions
0.75 — minor deviations
0.5 — partly satisfied, clear problems
0.25 — mostly not satisfied
0.0 — not satisfied at all`;
