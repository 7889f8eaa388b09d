/**
 * @evalkern/metrics: the evaluation contracts of DSPy, dsrs and DeepEval as TypeScript interfaces, and
 * every rule-based metric of DSPy, NeMo BYOB, evalwire, lm-evaluation-harness and dsrs (subpath exports:
 * `/dspy`, `/byob`, `/evalwire`, `/lmeval`, `/dsrs`, `/deepeval`, `/common`).
 *
 * `await ready()` once (it loads the WebAssembly kernels); after it every rule metric is synchronous.
 */
export { ready } from "@evalkern/core-wasm";

// DSPy contracts
export { Example, Prediction, fieldOf, hasField, type FieldSource } from "./contracts/example.js";
export {
  scoreOf,
  feedbackOf,
  runDspyMetric,
  type DspyMetric,
  type DspyMetricValue,
  type ScoreWithFeedback,
  type DspyMetricResult,
} from "./contracts/dspy-metric.js";

// dsrs contracts
export {
  evaluate,
  defineEvaluator,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_DISPLAY_PROGRESS,
  MetricValueError,
  FeedbackMetric,
  defineFeedbackEvaluator,
  multiObjectiveMetric,
  type Evaluator,
  type EvaluatorSpec,
  type EvaluateOptions,
  type EvaluationProgress,
  type EvaluationFailure,
  type EvaluationResult,
  type FeedbackEvaluator,
  type FeedbackEvaluatorSpec,
} from "./contracts/dsrs-evaluator.js";
export {
  MetricTier,
  MetricScore,
  MetricSet,
  MetricResults,
  defineMetric,
  evaluateBatch,
  weightedOverall,
  type Metric,
  type MetricDefinition,
  type MetricInput,
  type MetricWeights,
  type NamedScores,
} from "./contracts/dsrs-metric.js";

// the OpenAI-compatible endpoint contract (implemented by @evalkern/judge, consumed by BYOB)
export {
  codePointLength,
  continuationTokens,
  type ContinuationLoglikelihood,
  type ContinuationScoringOptions,
  type ContinuationSpanRule,
  type EndpointCompletion,
  type EndpointConnectionOptions,
  type EndpointMessage,
  type EndpointRequestOptions,
  type EndpointRetryOptions,
  type EndpointUsage,
  type ModelEndpoint,
} from "./contracts/endpoint.js";

// errors shared by the subpaths
export { PythonCompatError, EvalkernError, InvalidArgumentError, UnknownOptionError } from "./errors.js";
export { rejectUnknownOptions } from "./options.js";
export { PythonRegexError, RegexBudgetExceededError } from "./python/regex.js";

// the lexical-metric contract and registry (also `@evalkern/metrics/registry`)
export {
  registerMetric,
  listMetrics,
  findMetric,
  getMetric,
  metricSpec,
  normalizeMetricSpec,
  createMetric,
  lexicalMetric,
  loadMetrics,
  ruleMetric,
  callableMetric,
  UnknownMetricError,
  MetricOptionError,
  MetricNotLoadedError,
  type LexicalMetric,
  type MetricInstance,
  type MetricSpecJson,
  type MetricFamily,
  type MetricScale,
  type OptionSchema,
  type OptionSchemas,
} from "./registry/index.js";
