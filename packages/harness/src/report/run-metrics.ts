// The manifest entries of a bulk run's metrics (`RunMetric`, ./manifest.ts), built from the bulk
// scorer's summary: `evalkern score` and `merge` and the web app write the same entries. Browser-safe; in
// the package root and `/browser`, not in `/report` (the column layout needs the metric registry).
import { InvalidArgumentError } from "@evalkern/core-wasm";
import type { NormalizedMetric } from "../bulk/metrics.js";
import { rowLayout } from "../bulk/rows.js";
import type { MetricSummary } from "../bulk/summary.js";
import type { RunMetric } from "./manifest.js";

/** A scored metric as its caller resolved it against the registry (`evalkern score --metric`, the web app's choice). */
export interface RunMetricSource {
  /** Output key (the registry name unless renamed with `name=`). */
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  /** The registry's metric. */
  readonly definition: { readonly name: string; readonly scale: 100 | 1; readonly higherIsBetter: boolean };
}

/** A metric's corpus results in a manifest: its signature, scores and (when bootstrapped) CIs. */
export function corpusEntry(s: MetricSummary): Pick<RunMetric, "signature" | "corpus" | "ci"> {
  const ci: Record<string, { lower: number; upper: number; ci: number }> = {};
  for (const [k, v] of Object.entries(s.ci ?? {})) ci[k] = { lower: v.lower, upper: v.upper, ci: v.ci };
  return { signature: s.signature, corpus: { ...s.scores }, ...(s.ci ? { ci } : {}) };
}

/**
 * The manifest entries of the metrics of a bulk run, in the order they were scored: each with the
 * harness's grouping of its columns (as written in the output rows) and its corpus results.
 */
export function runMetrics(
  metrics: readonly RunMetricSource[],
  summary: { readonly metrics: Readonly<Record<string, MetricSummary>>; readonly metricSpecs: readonly NormalizedMetric[] },
): RunMetric[] {
  return metrics.map((m, i) => {
    const s = summary.metrics[m.name];
    const spec = summary.metricSpecs[i];
    if (!s || spec?.name !== m.name) {
      throw new InvalidArgumentError(`the scorer's summary has no metric ${m.name}`, { argument: "summary" });
    }
    const { headline, columns } = rowLayout(spec);
    return {
      name: m.name,
      metric: m.definition.name,
      options: m.options,
      scale: m.definition.scale,
      columns: columns.map((c) => ({ column: c.column, key: c.key })),
      headline,
      higherIsBetter: m.definition.higherIsBetter,
      ...corpusEntry(s),
    };
  });
}
