/**
 * What both entries of the harness export: the root (Node; it installs the Node runtime adapter first) and
 * `@evalkern/harness/browser` (no `node:` import). DeepEval's `evaluate`/`assertTest`, DSPy's `Evaluate`
 * with `context`/`configure`, BYOB `benchmark`, the errors and progress. Each entry adds its own: the root
 * the bulk scoring of files, `/browser` the chunk scorer and in-memory statistics.
 */
export { HARNESS_VERSION } from "./version.js";
export * from "./errors.js";
export { setRuntime, runtime, type Runtime, type AsyncContextAdapter, type TextSink } from "./runtime/runtime.js";
export { context, configure, settings, resetSettings, type Settings } from "./settings.js";
export { Example, Prediction } from "@evalkern/metrics/dspy";
export {
  evaluate,
  assertTest,
  formatSummary,
  toTestCase,
  EvaluationDataset,
  Golden,
  ConversationalGolden,
  LLMTestCase,
  ConversationalTestCase,
  ToolCall,
  Turn,
  type DeepEvalMetric,
  type TestCaseLike,
  type MetricResult,
  type TestResult,
  type EvaluateOptions as DeepEvalEvaluateOptions,
  type EvaluateProgress,
  type EvaluateResult,
  type MetricSummaryRow,
  type ScoringPath,
  type GoldenLike,
  type LoadGoldensOptions,
} from "./deepeval/index.js";
export {
  Evaluate,
  EvaluationResult,
  metricScore,
  type EvaluateOptions,
  type CallOptions,
  type EvaluationRow,
  type EvaluateMetric,
  type Program,
} from "./evaluate/evaluate.js";
export {
  benchmark,
  normalizeBenchmarkName,
  resolveChoices,
  type Benchmark,
  type BenchmarkDefinition,
  type BenchmarkRunOptions,
  type BenchmarkRunResult,
  type BenchmarkScorer,
  type EndpointType,
  type SampleResult,
  type SampleStatus,
} from "./byob/benchmark.js";
export { OpenAICompatibleClient, normalizeBaseUrl, type EndpointOptions, type Loglikelihood } from "./byob/client.js";
export { BenchmarkRunError, EndpointUnreachableError } from "./byob/errors.js";
export { loadDataset, parseHfUri, DEFAULT_HUB_URL, type LoadDatasetOptions, type Row } from "./byob/dataset.js";
export { compileTemplate, MissingFieldError, type Template } from "./byob/template.js";
export { aggregateScores, type ScorerInput, type ScoreDict } from "@evalkern/metrics/byob";
export { createProgress, type Progress, type ProgressOptions } from "./progress.js";
