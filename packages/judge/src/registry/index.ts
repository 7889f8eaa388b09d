/**
 * `@evalkern/judge/registry`: the one list of judge metrics a string can name (`faithfulness`,
 * `answer-relevancy`, `g-eval`, `semantic-f1`...), shaped like `@evalkern/metrics/registry`: names and
 * aliases, descriptions, option schemas, did-you-mean, and `createJudgeMetric` to measure row-shaped
 * cases with a judge. Browser-safe and cheap to import: metric classes load when a metric is created.
 */
export {
  listJudgeMetrics,
  findJudgeMetric,
  getJudgeMetric,
  checkJudgeMetricOptions,
  createJudgeMetric,
  type JudgeCase,
  type JudgeMeasurement,
  type JudgeMeasurer,
  type JudgeMetricDefinition,
  type JudgeMetricFamily,
} from "./registry.js";
export {
  UnknownMetricError,
  UnknownOptionError,
  MetricOptionError,
  type OptionSchema,
  type OptionSchemas,
} from "@evalkern/metrics/registry";
