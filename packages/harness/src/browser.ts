/**
 * `@evalkern/harness/browser`: the runtime-neutral part of the harness, for browsers (and any host
 * without Node). No `node:` import, no worker_threads.
 *
 * - DeepEval's `evaluate`/`assertTest`, DSPy's `Evaluate` with `context`/`configure`, BYOB `benchmark`
 *   over an OpenAI-compatible endpoint (datasets as arrays of rows or `hf://`). It does not install the
 *   Node runtime adapter, so `context()` uses the fallback (a synchronous stack) unless you
 *   `setRuntime()` your own, and reading or writing files (`EvaluationDataset.fromFile`, `saveAsCsv`,
 *   `outputPath`) throws until a runtime provides them.
 * - The bulk-scoring building blocks and statistics: score chunks of JSONL/CSV bytes with the registry's
 *   metrics (`scoreChunk`, the same function scoreFile's worker threads run), merge their exact sums, and
 *   compute corpus scores, bootstrap CIs, slice scores and the paired test over statistics held in
 *   memory; cut an input's bytes into chunks at record boundaries (`RecordCutter`) and commit results that
 *   arrive out of order in input order (`InOrderCommitter`). The web app (`@evalkern/web`) scores files in Web Workers with it;
 * results are identical to
 *   `scoreFile`'s. Scoring files (`scoreFile`, `scoreStream`, `mergeShards`, the statistics over scored
 *   runs on disk) needs Node's files and worker threads: it is only in the package root.
 */
export * from "./common.js";
export {
  normalizeMetrics,
  createBulkMetric,
  columnsOf,
  stableJson,
  type BulkMetric,
  type MetricSpec,
  type MetricConfig,
  type MetricName,
  type ModuleMetricConfig,
  type NormalizedMetric,
} from "./bulk/metrics.js";
export { scoreChunk, type ChunkContext, type ChunkInput, type ChunkOutput, type ChunkResult, type BadRow } from "./bulk/chunk.js";
export {
  resolveFields,
  parseCsv,
  CsvSplitter,
  csvKeys,
  checkCsvHeader,
  defaultQuote,
  lastRecordBoundary,
  firstRecordBoundary,
  countNewlines,
  getPath,
  pathValue,
  type FieldMap,
  type ResolvedFields,
  type BadRowCode,
  type CsvRecord,
} from "./bulk/records.js";
export { RecordCutter, type Cut, type CutterOptions } from "./bulk/cutter.js";
export { InOrderCommitter } from "./bulk/committer.js";
export {
  rowsOutput,
  rowLayout,
  csvHeader,
  csvMetricColumns,
  csvField,
  csvLine,
  csvCell,
  escapeCsvFormula,
  isPlainObject,
  type RowsOutput,
  type RowLayout,
  type RowColumn,
} from "./bulk/rows.js";
export { ColumnSums, fsumAdd, fsumMerge, fsumValue } from "./bulk/fsum.js";
export { corpusEntry, runMetrics, type RunMetricSource } from "./report/run-metrics.js";
export { RunTally, RUN_SAMPLES, type RowCounts, type SummaryTally, type TallyJson } from "./bulk/tally.js";
export { mainThreadMetrics, summarizeMetrics, nrefsLabel, type MetricSummary } from "./bulk/summary.js";
export {
  estimateCi,
  pairedBootstrapPValue,
  resolveBootstrap,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type BootstrapOptions,
  type ConfidenceInterval,
} from "./bulk/bootstrap.js";
export {
  bootstrapSumsOf,
  corpusLayout,
  localResampler,
  resampleInRanges,
  type CorpusLayout,
  type PairedScore,
  type PairedSlice,
  type PairedTestResult,
  type ResampleCut,
  type ResampleJob,
  type ResampleRange,
  type Resampler,
  type ScoreTable,
  type SliceKeys,
  type SliceScore,
} from "./bulk/statistics-core.js";
export {
  bootstrapCi,
  corpusScores,
  corpusSummary,
  pairedTest,
  sliceScores,
  type MemoryPairedTestOptions,
  type MemoryRun,
  type MemoryStatisticsOptions,
} from "./bulk/memory-statistics.js";
