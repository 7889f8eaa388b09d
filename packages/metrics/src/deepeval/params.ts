// DeepEval's parameter enums. Values are DeepEval's own strings (snake_case) because they appear in
// error messages and in judge prompts; `*_FIELD` maps them to the camelCase properties here.

/**
 * The fields of an `LLMTestCase` a metric can require or evaluate (DeepEval `LLMTestCaseParams`,
 * renamed `SingleTurnParams` upstream; both names are exported).
 *
 * @example
 * checkLLMTestCaseParams(testCase, [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT], metric);
 */
export const LLMTestCaseParams = {
  INPUT: "input",
  ACTUAL_OUTPUT: "actual_output",
  EXPECTED_OUTPUT: "expected_output",
  CONTEXT: "context",
  RETRIEVAL_CONTEXT: "retrieval_context",
  METADATA: "metadata",
  TAGS: "tags",
  TOOLS_CALLED: "tools_called",
  EXPECTED_TOOLS: "expected_tools",
  MCP_SERVERS: "mcp_servers",
  MCP_TOOLS_CALLED: "mcp_tools_called",
  MCP_RESOURCES_CALLED: "mcp_resources_called",
  MCP_PROMPTS_CALLED: "mcp_prompts_called",
} as const;
export type LLMTestCaseParams = (typeof LLMTestCaseParams)[keyof typeof LLMTestCaseParams];

/** DeepEval's current name for {@link LLMTestCaseParams}. */
export const SingleTurnParams = LLMTestCaseParams;
export type SingleTurnParams = LLMTestCaseParams;

/** The `LLMTestCase` property holding each parameter. */
export const LLM_TEST_CASE_FIELD = {
  input: "input",
  actual_output: "actualOutput",
  expected_output: "expectedOutput",
  context: "context",
  retrieval_context: "retrievalContext",
  metadata: "metadata",
  tags: "tags",
  tools_called: "toolsCalled",
  expected_tools: "expectedTools",
  mcp_servers: "mcpServers",
  mcp_tools_called: "mcpToolsCalled",
  mcp_resources_called: "mcpResourcesCalled",
  mcp_prompts_called: "mcpPromptsCalled",
} as const satisfies Record<LLMTestCaseParams, string>;

/**
 * The fields of a conversation (or of its turns) a conversational metric can require or evaluate
 * (DeepEval `MultiTurnParams`, formerly `TurnParams`). Audio parameters are not ported.
 */
export const MultiTurnParams = {
  ROLE: "role",
  CONTENT: "content",
  METADATA: "metadata",
  TAGS: "tags",
  SCENARIO: "scenario",
  EXPECTED_OUTCOME: "expected_outcome",
  CONTEXT: "context",
  USER_DESCRIPTION: "user_description",
  RETRIEVAL_CONTEXT: "retrieval_context",
  CHATBOT_ROLE: "chatbot_role",
  TOOLS_CALLED: "tools_called",
  MCP_TOOLS: "mcp_tools_called",
  MCP_RESOURCES: "mcp_resources_called",
  MCP_PROMPTS: "mcp_prompts_called",
} as const;
export type MultiTurnParams = (typeof MultiTurnParams)[keyof typeof MultiTurnParams];

/** DeepEval's former name for {@link MultiTurnParams}. */
export const TurnParams = MultiTurnParams;
export type TurnParams = MultiTurnParams;

/**
 * What `ToolCorrectnessMetric` compares besides the tool name (and type): DeepEval `ToolCallParams`.
 */
export const ToolCallParams = {
  INPUT_PARAMETERS: "input_parameters",
  OUTPUT: "output",
} as const;
export type ToolCallParams = (typeof ToolCallParams)[keyof typeof ToolCallParams];

const LLM_PARAM_VALUES = new Set<string>(Object.values(LLMTestCaseParams));
const MULTI_TURN_PARAM_VALUES = new Set<string>(Object.values(MultiTurnParams));
const TOOL_CALL_PARAM_VALUES = new Set<string>(Object.values(ToolCallParams));

export function isLLMTestCaseParam(value: unknown): value is LLMTestCaseParams {
  return typeof value === "string" && LLM_PARAM_VALUES.has(value);
}

export function isMultiTurnParam(value: unknown): value is MultiTurnParams {
  return typeof value === "string" && MULTI_TURN_PARAM_VALUES.has(value);
}

export function isToolCallParam(value: unknown): value is ToolCallParams {
  return typeof value === "string" && TOOL_CALL_PARAM_VALUES.has(value);
}
