/**
 * `@evalkern/metrics/registry`: the lexical-metric contract and one registry of every rule metric of
 * (hypothesis, references) — the core-wasm kernel metrics (BLEU, chrF, chrF++, ROUGE, token F1, exact
 * match, Levenshtein) and the pair-callable rules of DSPy, NeMo BYOB, evalwire and autoevals.
 * `await ready()` once before scoring (and `await loadMetrics()` before scoring rule metrics in process:
 * their modules load on first use).
 */
export { ready } from "@evalkern/core-wasm";
export {
  headlineColumn,
  meanColumns,
  type LexicalMetric,
  type MetricFamily,
  type MetricInstance,
  type MetricScale,
  type MetricSpecJson,
  type RowFields,
} from "./contract.js";
export { UnknownMetricError, MetricOptionError, MetricNotLoadedError, UnknownOptionError } from "./errors.js";
export { checkOptions, didYouMean, plainOptions, stableJson, type OptionSchema, type OptionSchemas, type OptionType } from "./options.js";
export { callableMetric, callableColumns, type RuleFunction } from "./callable.js";
export {
  registerMetric,
  listMetrics,
  findMetric,
  getMetric,
  metricSpec,
  normalizeMetricSpec,
  createMetric,
  ruleForModule,
  lexicalMetric,
  loadMetrics,
  isBuiltinMetric,
} from "./registry.js";
export { pairScore, type PairScore } from "./pair-score.js";
export { BUILTIN_METRIC_NAMES, type BuiltinMetricName } from "./builtin-names.js";
export { ruleMetric, RULES_VERSION, type RuleTarget, type RuleEntry } from "./rules.js";
