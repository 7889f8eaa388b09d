// The names (and aliases) of the kernel metrics, the built-ins every thread has on import, as a const
// tuple: the metric-name types of the harness (`MetricName`) and the vitest matchers (`MatcherMetric`)
// derive from it, so a new kernel metric is named in one place. test/registry.test.ts checks it against
// the registry. The rule metrics (`byob-f1`, …) load on first use and are named by plain strings.
export const BUILTIN_METRIC_NAMES = [
  "bleu",
  "chrf",
  "chrf++",
  "ter",
  "rouge",
  "rouge1",
  "rouge2",
  "rougeL",
  "rougeLsum",
  "f1",
  "tokenF1",
  "hotpot-f1",
  "em",
  "exactMatch",
  "levenshtein",
] as const;

/** A name or alias of a kernel metric (see `BUILTIN_METRIC_NAMES`). */
export type BuiltinMetricName = (typeof BUILTIN_METRIC_NAMES)[number];
