/**
 * `@evalkern/metrics/deepeval`: the non-LLM part of DeepEval's evaluation model — the three base
 * metric classes (lifecycle, threshold, strict mode, direction, cost accounting), the test cases,
 * `ToolCall`, the required-parameter checks, and the deterministic `ToolCorrectnessMetric`.
 * Runtime-neutral: no static `node:*` import, no globals beyond `console` for verbose logs; an
 * `MLLMImage` naming a local file loads `./image-file.js` (node:fs) on first use, which a browser
 * build swaps for a stand-in that refuses with `ImageUnavailableError`.
 */
export {
  LLMTestCaseParams,
  SingleTurnParams,
  MultiTurnParams,
  TurnParams,
  ToolCallParams,
  LLM_TEST_CASE_FIELD,
  isLLMTestCaseParam,
  isMultiTurnParam,
  isToolCallParam,
} from "./params.js";
export { ToolCall, ToolCallType, formatToolCallsForPrompt, type ToolCallInit } from "./tool-call.js";
export {
  MLLMImage,
  MAX_IMAGE_BYTES,
  IMAGE_SLUG_PATTERN,
  guessMimeType,
  hasImageSlug,
  imageById,
  imagesIn,
  parseMultimodalString,
  type MLLMImageInit,
  type MLLMImageJSON,
  type MultimodalPart,
} from "./mllm-image.js";
export {
  MCPServer,
  MCPToolCall,
  MCPResourceCall,
  MCPPromptCall,
  type MCPServerInit,
  type MCPToolCallInit,
  type MCPResourceCallInit,
  type MCPPromptCallInit,
  type MCPTransport,
  type MCPObject,
  type MCPCallsInit,
} from "./mcp.js";
export {
  LLMTestCase,
  retrievalContextText,
  type MultimodalText,
  type LLMTestCaseInit,
  type RetrievedContextData,
  type RetrievalContextItem,
} from "./llm-test-case.js";
export {
  ConversationalTestCase,
  Turn,
  type ConversationalTestCaseInit,
  type TurnInit,
  type TurnRole,
} from "./conversational-test-case.js";
export {
  Golden,
  ConversationalGolden,
  GOLDEN_FIELDS,
  CONVERSATIONAL_GOLDEN_FIELDS,
  type GoldenInit,
  type ConversationalGoldenInit,
} from "./golden.js";
export { camelCaseKeys, snakeToCamel, type SnakeCased } from "./validate.js";
export {
  ArenaTestCase,
  type ArenaTestCaseInit,
  type Contestant,
  type ContestantInit,
} from "./arena-test-case.js";
export {
  checkLLMTestCaseParams,
  checkConversationalTestCaseParams,
  checkArenaTestCaseParams,
  type ParamCheckTarget,
} from "./check-params.js";
export {
  MissingTestCaseParamsError,
  SyncMeasureUnsupportedError,
  ConcurrentMeasureError,
  InvalidEvaluationError,
  ImageTooLargeError,
  ImageUnavailableError,
} from "./errors.js";
export {
  MetricCore,
  type MetricOptions,
  type MeasureOptions,
  type MeasureContext,
  type ReasonSource,
  type JudgeUsage,
  type EvaluationBase,
  type MetricKind,
} from "./metric-core.js";
export {
  ScoredMetric,
  BaseMetric,
  BaseConversationalMetric,
  strictScore,
  passes,
  type ScoredMetricOptions,
  type MetricTraits,
  type BaseMetricTraits,
  type Evaluation,
  type MetricData,
} from "./base-metric.js";
export { BaseArenaMetric, type ArenaEvaluation } from "./base-arena-metric.js";
export {
  ToolCorrectnessMetric,
  scoreToolCalling,
  compareInputParameters,
  NO_AVAILABLE_TOOLS_REASON,
  type ToolCallingOptions,
  type ToolCallingResult,
  type ToolCorrectnessOptions,
  type ToolSelectionJudge,
  type ToolSelectionRequest,
  type ToolSelectionResult,
} from "./tool-correctness.js";
export { JsonCorrectnessMetric, type JsonCorrectnessOptions } from "./json-correctness.js";
export { ExactMatchMetric, tokenPrecisionRecallF1, type ExactMatchOptions, type ExactMatchBreakdown } from "./exact-match.js";
export { PatternMatchMetric, type PatternMatchOptions } from "./pattern-match.js";
export { ToolPermissionMetric, type ToolPermissionOptions } from "./tool-permission.js";
export { AgentLoopDetectionMetric, NO_TRACE_REASON, type AgentLoopDetectionOptions } from "./agent-loop-detection.js";
export {
  constructVerboseLogs,
  formatVerboseBlock,
  consoleVerbosePrinter,
  prettifyList,
  type VerbosePrinter,
} from "./verbose-logs.js";
export { pyEquals, pyRepr, pyFloatRepr } from "./python-compat.js";
