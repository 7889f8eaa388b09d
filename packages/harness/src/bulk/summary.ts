// Corpus results from exact column sums: per metric, the score(s) of the summed statistics, details,
// and the signature. Shared by scoreFile, scoreStream, mergeShards and the paired test.
import { fsumValue } from "./fsum.js";
import type { ConfidenceInterval } from "./bootstrap.js";
import { createBulkMetric, type BulkMetric, type NormalizedMetric } from "./metrics.js";

export interface MetricSummary {
  /** Every option and version (sacreBLEU style). */
  readonly signature: string;
  /** Corpus score(s) by name (BLEU/chrF/TER 0-100 from summed statistics; others the mean of row values). */
  readonly scores: Record<string, number>;
  /** 95% bootstrap confidence interval per score, when bootstrap ran. */
  readonly ci?: Record<string, ConfidenceInterval>;
  /** BLEU precisions/bp/lengths, ROUGE precision/recall/fmeasure means, ... */
  readonly details: Record<string, unknown>;
  /** Offset and width of this metric's columns in the statistics rows (after the validity flag). */
  readonly offset: number;
  readonly width: number;
  /** Exact column sums (rounded once from the partials). */
  readonly sums: number[];
}

/** The per-metric part of a summary, computed from exact partial sums. */
export function summarizeMetrics(
  metrics: readonly BulkMetric[],
  partials: readonly (readonly number[])[],
  count: number,
  nrefs: number | "var",
  sequential?: Readonly<Record<number, number>>,
): Record<string, MetricSummary> {
  const out: Record<string, MetricSummary> = {};
  let offset = 0;
  for (const m of metrics) {
    const sum = new Float64Array(m.width);
    for (let j = 0; j < m.width; j++) sum[j] = sequential?.[offset + j] ?? fsumValue(partials[offset + j]!);
    const values = m.corpusScores(sum, 1, count);
    const scores: Record<string, number> = {};
    m.scoreNames.forEach((name, i) => (scores[name] = values[i]!));
    out[m.spec.name] = {
      signature: m.signature(nrefs),
      scores,
      details: m.corpusDetails(sum, count),
      offset,
      width: m.width,
      sums: Array.from(sum),
    };
    offset += m.width;
  }
  return out;
}

export function mainThreadMetrics(specs: readonly NormalizedMetric[]): Promise<BulkMetric[]> {
  return Promise.all(specs.map((s) => createBulkMetric(s, { load: false })));
}

export function nrefsLabel(min: number, max: number): number | "var" {
  return min === max ? min : "var";
}
