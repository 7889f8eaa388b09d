/**
 * @evalkern/harness/browser: the bulk-scoring building blocks and statistics without Node (no node:
 * import, no worker_threads): score chunks of JSONL/CSV bytes with the registry's metrics (`scoreChunk`,
 * the same function scoreFile's worker threads run), merge their exact sums, and compute corpus scores,
 * bootstrap CIs, slice scores and the paired test over statistics held in memory. The web app
 * (`@evalkern/web`) scores files in Web Workers with it; results are identical to `scoreFile`'s.
 */
export { HARNESS_VERSION } from "./version.js";
export { normalizeMetrics, createBulkMetric, columnsOf, stableJson, type BulkMetric, type MetricSpec, type MetricConfig, type MetricName, type NormalizedMetric } from "./bulk/metrics.js";
export { scoreChunk, type ChunkContext, type ChunkInput, type ChunkResult, type BadRow } from "./bulk/chunk.js";
export { resolveFields, parseCsv, lastRecordBoundary, firstRecordBoundary, countNewlines, getPath, type FieldMap, type ResolvedFields, type BadRowCode, type CsvRecord } from "./bulk/records.js";
export { rowsOutput, rowLayout, csvHeader, isPlainObject, type RowsOutput, type RowLayout, type RowColumn } from "./bulk/rows.js";
export { ColumnSums, fsumAdd, fsumMerge, fsumValue } from "./bulk/fsum.js";
export { mainThreadMetrics, summarizeMetrics, nrefsLabel, type MetricSummary } from "./bulk/summary.js";
export { estimateCi, pairedBootstrapPValue, resolveBootstrap, DEFAULT_RESAMPLES, DEFAULT_SEED, type BootstrapOptions, type ConfidenceInterval } from "./bulk/bootstrap.js";
export {
  bootstrapSumsOf,
  corpusLayout,
  localResampler,
  type CorpusLayout,
  type PairedScore,
  type PairedSlice,
  type PairedTestResult,
  type ResampleJob,
  type ResampleRange,
  type Resampler,
  type ScoreTable,
  type SliceKeys,
  type SliceScore,
} from "./bulk/statistics-core.js";
export { bootstrapCi, corpusScores, corpusSummary, pairedTest, sliceScores, type MemoryPairedTestOptions, type MemoryRun, type MemoryStatisticsOptions } from "./bulk/memory-statistics.js";
