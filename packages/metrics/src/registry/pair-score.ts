// The score of one (hypothesis, references) pair on a registry metric, on a 0–1 scale: what the vitest
// matchers and the suite runner of `evalkern test` both need from a metric named by a string.
import type { MetricInstance } from "./contract.js";
import { getMetric, lexicalMetric } from "./registry.js";

/** One pair's headline score: `value` on the metric's own scale (BLEU 0–100), `score` on 0–1. */
export interface PairScore {
  readonly metric: MetricInstance;
  readonly value: number;
  readonly score: number;
}

/**
 * Score one pair with the registry metric `name` (a name or alias) and `options`. Rule metrics must be
 * loaded first (`await loadMetrics([name])`); an unknown name is an `UnknownMetricError` with a did-you-mean.
 *
 * @example
 * pairScore("rougeL", "the cat sat", ["the cat sat down"]).score; // 0.857…
 */
export function pairScore(
  name: string,
  hypothesis: string,
  references: readonly string[],
  options: Readonly<Record<string, unknown>> = {},
): PairScore {
  getMetric(name); // the typed error of an unknown name, before options are read
  const metric = lexicalMetric(name, options);
  const values = metric.rowValues(metric.statistics([hypothesis], [references]), 1);
  const value = values[metric.columns.indexOf(metric.headline)]!;
  return { metric, value, score: value / metric.scale };
}
