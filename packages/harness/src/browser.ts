/**
 * `@evalkern/harness/browser`: the runtime-neutral part of the harness, for browsers (and any host
 * without Node): DeepEval's `evaluate`/`assertTest`, DSPy's `Evaluate` with `context`/`configure`,
 * BYOB `benchmark` over an OpenAI-compatible endpoint (datasets as arrays of rows or `hf://`), the
 * CSV/row helpers and the bootstrap arithmetic. No `node:` import: it does not install the Node runtime
 * adapter, so `context()` uses the fallback (a synchronous stack) unless you `setRuntime()` your own,
 * and reading or writing files (`EvaluationDataset.fromFile`, `saveAsCsv`, `outputPath`) throws until a
 * runtime provides them. Bulk scoring (`scoreFile`, `scoreStream`, `mergeShards`, the statistics over
 * scored runs) needs Node's files and worker threads: it is only in the package root.
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
export { Evaluate, EvaluationResult, metricScore, type EvaluateOptions, type CallOptions, type EvaluationRow, type EvaluateMetric, type Program } from "./evaluate/evaluate.js";
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
export type { MetricSpec, MetricName, MetricConfig, ModuleMetricConfig, NormalizedMetric } from "./bulk/metrics.js";
export { rowLayout, csvMetricColumns, csvField, csvLine, csvCell, escapeCsvFormula, type RowLayout, type RowColumn } from "./bulk/rows.js";
export type { FieldMap } from "./bulk/records.js";
export type { MetricSummary } from "./bulk/summary.js";
export { estimateCi, pairedBootstrapPValue, DEFAULT_RESAMPLES, DEFAULT_SEED, type ConfidenceInterval } from "./bulk/bootstrap.js";
