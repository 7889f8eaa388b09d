/**
 * @evalkern/cli: the `evalkern` command line as a library — run it (`main`), or use its pieces: the
 * metric registry behind `--metric name:key=value`, the HTML report, and the run files it reads.
 * The vitest matchers are the separate package `@evalkern/vitest`.
 */
export { main, createProgram, type ProgramIo } from "./program.js";
export { CliError, EXIT } from "./errors.js";
export { parseMetricArgument, type MetricArgument } from "./metric-options.js";
export {
  metricDefinitions,
  resolveMetric,
  metricsHelp,
  DEFAULT_METRICS,
  type MetricDefinition,
  type ResolvedMetric,
  type Scale,
} from "./metric-registry.js";
export { judgeMetricNames, judgeMetricsHelp } from "./judge-metrics.js";
export { writeReport, type ReportOptions } from "./commands/report.js";
export { collectReport, type ReportData } from "./report/collect.js";
export { renderReport } from "./report/html.js";
export { loadRun, sidecarDir, CLI_VERSION, type RunManifest, type RunMetric, type LoadedRun } from "./results.js";
export { createRowProgress, type RowProgress, type RowProgressOptions } from "./progress.js";
