/**
 * `@evalkern/harness/bulk`: bulk scoring of JSONL/CSV files on Node (`scoreFile`, `scoreStream`, shards,
 * the statistics over scored runs, the CSV helpers), without what the package root adds: DSPy's `Evaluate`,
 * DeepEval's `evaluate`, BYOB and suites, which load the judge client (the OpenAI SDK, zod). A command that
 * only scores files (`evalkern score`) starts about 0.3 CPU-s faster from here; the root re-exports all of it.
 */
export {
  scoreFile,
  scoreJob,
  inputContentHash,
  inputGeometry,
  checkpointPath,
  statisticsPath,
  summaryPath,
  type ScoreFileOptions,
  type ScoreSummary,
  type ScoreJob,
  type ShardSpec,
  type BootstrapOptions,
  type RowCounts,
} from "./node/score-file.js";
export {
  scoreStream,
  scoreRows,
  type ScoreStream,
  type ScoreStreamOptions,
  type RowScore,
  type StreamSummary,
} from "./node/score-stream.js";
export { readTextPairs, type TextPairSources, type TextPair, type TextSource } from "./node/text-pairs.js";
export { makeDirectory, fileSystemError, acquireLock, lockPath, removeStaleTemporaries } from "./node/files.js";
export { mergeShards, type MergeShardsOptions } from "./node/shards.js";
export {
  corpusScores,
  sliceScores,
  bootstrapCi,
  pairedTest,
  pairedTests,
  type ScoredRun,
  type SliceKeys,
  type ScoreTable,
  type StatisticsOptions,
  type SliceScore,
  type SliceScoresOptions,
  type PairedTestOptions,
  type PairedTestsOptions,
  type PairedTestResult,
  type PairedScore,
  type PairedSlice,
} from "./node/statistics.js";
export { normalizeMetrics } from "./bulk/metrics.js";
export type { MetricSpec, MetricName, MetricConfig, ModuleMetricConfig, NormalizedMetric } from "./bulk/metrics.js";
export { rowLayout, csvMetricColumns, csvField, csvLine, csvCell, escapeCsvFormula, type RowLayout, type RowColumn } from "./bulk/rows.js";
export type { RowsOutputOptions } from "./node/output-rows.js";
export { csvKeys, checkCsvHeader, CsvSplitter, defaultQuote, pathValue, type CsvRecord, type FieldMap } from "./bulk/records.js";
export { corpusEntry, runMetrics, type RunMetricSource } from "./report/run-metrics.js";
export type { MetricSummary } from "./bulk/summary.js";
export { estimateCi, pairedBootstrapPValue, DEFAULT_RESAMPLES, DEFAULT_SEED, type ConfidenceInterval } from "./bulk/bootstrap.js";
