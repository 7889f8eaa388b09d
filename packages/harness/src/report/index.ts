/**
 * @evalkern/harness/report: the HTML report of a scored (or judged) run, browser-safe (no node: import):
 * `collectReportData` summarises a run's output rows, `renderReport` draws one self-contained HTML file.
 * The `evalkern report` command and the web app both use it.
 */
export {
  BINS,
  collectReportData,
  columnLabel,
  comparisonData,
  judgeReferences,
  pairedReportRows,
  rowField,
  type CollectOptions,
  type ComparisonData,
  type MetricColumn,
  type OutputRow,
  type PairedRow,
  type ReportData,
  type ReportManifest,
  type ReportRun,
  type RowSample,
  type RunMetric,
  type SeriesData,
  type SliceTable,
} from "./collect.js";
export { escapeHtml, histogramSvg, renderReport } from "./html.js";
