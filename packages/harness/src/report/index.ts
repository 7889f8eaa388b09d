/**
 * @evalkern/harness/report: the HTML report of a scored (or judged) run, browser-safe (no node: import):
 * `collectReportData` summarises a run's output rows, `renderReport` draws one self-contained HTML file.
 * The `evalkern report` command and the web app both use it. The run manifest's types (`RunManifest`,
 * `RunMetric`) are here too; `runMetrics`, which builds a bulk run's entries, is in the root and `/browser`.
 */
export {
  BINS,
  collectReportData,
  columnLabel,
  comparisonData,
  pairedReportRows,
  rowField,
  type CollectOptions,
  type ComparisonData,
  type OutputRow,
  type PairedRow,
  type ReportData,
  type ReportRun,
  type RowSample,
  type SeriesData,
  type SliceTable,
} from "./collect.js";
export type {
  FileIdentity,
  FinishedRecord,
  JudgedAgainst,
  MetricColumn,
  ReportManifest,
  RunManifest,
  RunMetric,
} from "./manifest.js";
export { escapeHtml, histogramSvg, renderReport } from "./html.js";
