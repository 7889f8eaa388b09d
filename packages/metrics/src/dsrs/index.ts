// `@evalkern/metrics/dsrs`: the dsrs (Rust DSPy) evaluation layer and the Adjutant task metrics.
// Runtime-neutral at import: tree-sitter and the Node command runner load on first use.
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
} from "../contracts/dsrs-metric.js";
export { Example, Prediction } from "../contracts/example.js";

export { FormatMetric, type FormatMetricOptions } from "./proxy/format.js";
export { KeywordMetric, type KeywordMetricOptions } from "./proxy/keyword.js";
export { LengthMetric, type LengthMetricOptions } from "./proxy/length.js";
export { SyntaxMetric, dsrsBalanceScan, type SyntaxMetricOptions } from "./proxy/syntax.js";

export {
  DiffMetric,
  charSetSimilarity,
  normalizeWhitespace,
  SEMANTIC_DIFF_COST_MSATS,
  type DiffMetricOptions,
  type DiffStrictness,
  type SemanticDiffJudge,
  type SemanticDiffRequest,
} from "./truth/diff.js";
export {
  SandboxMetric,
  TestPassMetric,
  SANDBOX_PROFILES,
  DEFAULT_INHERITED_ENV,
  DEFAULT_MAX_OUTPUT_BYTES,
  OUTPUT_PREVIEW_CHARS,
  SANDBOX_COST_MSATS,
  outputPreview,
  type ProcessMetricOptions,
  type SandboxMetricOptions,
  type SandboxProfile,
  type TestPassMetricOptions,
} from "./truth/sandbox.js";
export {
  defaultCommandRunner,
  formatCommand,
  runSucceeded,
  type CommandRequest,
  type EnforcedLimits,
  type ResourceLimits,
  type CommandRun,
  type CommandRunner,
} from "./process/command.js";

export { checkSyntax, compareSyntaxTrees, type SyntaxProblem, type TreeComparison } from "./syntax/check.js";
export { SYNTAX_LANGUAGES, resolveLanguage, grammarFile, type SyntaxLanguage } from "./syntax/languages.js";
export { configureTreeSitter, type TreeSitterConfig } from "./syntax/tree-sitter-config.js";
export { preloadLanguages } from "./syntax/preload.js";

export { aggregate, AggregationMethod } from "./scoring/aggregation.js";
export {
  Scorer,
  ScorerBuilder,
  ScoringConfig,
  taskToExample,
  type DefaultTruthMetricsOptions,
  type EvalTask,
  type Predictor,
  type PredictorLike,
  type ScorecardResult,
  type ScoringConfigOptions,
  type TaskScore,
} from "./scoring/scorer.js";

export {
  subtaskPlanningMetric,
  subtaskExecutionMetric,
  synthesisMetric,
  toolStepUtilityMetric,
  combinedMetric,
  ACTIONABLE_VERBS,
  type AdjutantMetric,
} from "./adjutant.js";

export {
  utf8ByteLength,
  rustTrim,
  rustSplitWhitespace,
  parseRustF64,
  formatFixed1,
  debugString,
  debugStringList,
  debugCharList,
} from "./rust.js";
export { parseJsonSerde, isSerdeJson, SERDE_MAX_DEPTH, type SerdeJsonResult } from "./serde-json.js";
export {
  JudgeRequiredError,
  GrammarUnavailableError,
  TreeSitterNotInstalledError,
  TREE_SITTER_INSTALL,
  CommandRunnerUnavailableError,
  WorkingDirectoryNotFoundError,
} from "./errors.js";
export { UnknownOptionError } from "../errors.js";
