// DeepEval's runner entry points: `evaluate`, `assertTest`, `EvaluationDataset` (Node: the dataset
// file loaders read with node:fs).
export {
  evaluate,
  assertTest,
  formatSummary,
  toTestCase,
  type DeepEvalMetric,
  type TestCaseLike,
  type MetricResult,
  type TestResult,
  type EvaluateOptions,
  type EvaluateProgress,
  type EvaluateResult,
  type MetricSummaryRow,
  type ScoringPath,
} from "./evaluate.js";
export { EvaluationDataset, type GoldenLike, type LoadGoldensOptions } from "./dataset.js";
export { Golden, ConversationalGolden, LLMTestCase, ConversationalTestCase, ToolCall, Turn } from "@evalkern/metrics/deepeval";
export { MetricAssertionError, DatasetError, type FailedMetric } from "../errors.js";
