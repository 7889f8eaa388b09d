// How test-case fields are shown to the judge.
import {
  formatToolCallsForPrompt,
  LLM_TEST_CASE_FIELD,
  LLMTestCaseParams,
  type MultiTurnParams,
  retrievalContextText,
  type LLMTestCase,
  type RetrievalContextItem,
  type ToolCall,
  type Turn,
} from "@evalkern/metrics/deepeval";

/** G-Eval's labels for the test-case fields (DeepEval `G_EVAL_PARAMS`). */
export const PARAM_LABEL: Readonly<Record<LLMTestCaseParams, string>> = {
  input: "Input",
  actual_output: "Actual Output",
  expected_output: "Expected Output",
  context: "Context",
  retrieval_context: "Retrieval Context",
  metadata: "Metadata",
  tags: "Tags",
  tools_called: "Tools Called",
  expected_tools: "Expected Tools",
  mcp_servers: "MCP Servers",
  mcp_tools_called: "MCP Tools Called",
  mcp_resources_called: "MCP Resources Called",
  mcp_prompts_called: "MCP Prompts Called",
};

/** Conversational G-Eval's (and the conversational DAG nodes') labels for the multi-turn fields. */
export const MULTI_TURN_PARAM_LABEL: Readonly<Record<MultiTurnParams, string>> = {
  role: "Role",
  content: "Content",
  metadata: "Metadata",
  tags: "Tags",
  scenario: "Scenario",
  expected_outcome: "Expected Outcome",
  context: "Context",
  user_description: "User Description",
  retrieval_context: "Retrieval Context",
  chatbot_role: "Chatbot Role",
  tools_called: "Tools Called",
  mcp_tools_called: "MCP Tools Called",
  mcp_resources_called: "MCP Resources Called",
  mcp_prompts_called: "MCP Prompts Called",
};

/** `"a"`, `"a and b"`, `"a, b, and c"`. */
export function englishList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}

/** `1. a\n2. b` */
export function numbered(items: readonly string[]): string {
  return items.map((item, i) => `${i + 1}. ${item}`).join("\n");
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}

function isToolCallList(value: unknown): value is readonly ToolCall[] {
  return Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && "inputParameters" in v);
}

/** One test-case field as text: strings as they are, tool calls as JSON, lists and objects as JSON. */
export function fieldText(testCase: LLMTestCase, param: LLMTestCaseParams): string {
  const value: unknown = testCase[LLM_TEST_CASE_FIELD[param]];
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return value;
  if (param === LLMTestCaseParams.RETRIEVAL_CONTEXT) return json((value as RetrievalContextItem[]).map(retrievalContextText));
  if (isToolCallList(value)) return formatToolCallsForPrompt(value) || "[]";
  return json(value);
}

/** The `"<Label>:\n<value>"` blocks of the given fields, in order (G-Eval, DAG nodes). */
export function renderParams(testCase: LLMTestCase, params: readonly LLMTestCaseParams[]): string {
  return params.map((param) => `${PARAM_LABEL[param]}:\n${fieldText(testCase, param)}\n`).join("\n");
}

/** The field labels as an English list ("Input, Actual Output, and Expected Output"). */
export function paramList(params: readonly LLMTestCaseParams[]): string {
  return englishList(params.map((p) => PARAM_LABEL[p]));
}

/** Turns as the `{role, content}` objects conversational prompts show. */
export function renderTurns(turns: readonly Turn[]): string {
  return json(turns.map((turn) => ({ role: turn.role, content: turn.content })));
}

/** A score as the reason prompts state it. */
export function scoreText(score: number | null): string {
  return score === null ? "None" : score.toFixed(2);
}

/** Items of a list for a prompt, or a marker when there are none. */
export function bulletList(items: readonly string[], empty = "(none)"): string {
  return items.length === 0 ? empty : items.map((item) => `- ${item}`).join("\n");
}

/** Common closing instruction of every judge prompt. */
export function jsonOnly(shape: string): string {
  return `Reply with a single JSON object and nothing else, shaped like:\n${shape}`;
}
