// DSPy exact match (normalize_text, any reference): one statistic per row, 0 or 1; the corpus score is
// the mean.
import { EMBatch } from "../dspy/answers.js";
import { headlineColumn, meanColumns, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { kernelTail } from "./kernel-sig.js";

export const em: LexicalMetric = {
  name: "em",
  aliases: ["exactMatch"],
  family: "dspy",
  description: "DSPy exact match after normalize_text, any reference",
  options: {},
  scale: 1,
  higherIsBetter: true,
  spec: (_options, name) => ({ metric: "exactMatch", name, options: {} }),
  resolve: () => ({}),
  create(spec: MetricSpecJson): MetricInstance {
    const columns = [spec.name];
    return {
      metric: "em",
      name: spec.name,
      options: spec.options,
      width: 1,
      columns,
      scoreNames: columns,
      headline: headlineColumn(spec.name, columns, undefined),
      corpusColumns: [0],
      scale: 1,
      higherIsBetter: true,
      statistics: (h, r) => Float64Array.from(EMBatch(h, r)),
      rowValues: (stats) => stats.slice(),
      corpusScores: (sums, k, count) => meanColumns(sums, k, 1, [0], count),
      corpusDetails: (sum, count) => ({ mean: count > 0 ? sum[0]! / count : 0 }),
      signature: (nrefs, tool) => `EM|nrefs:${nrefs}|normalize:dspy-normalize_text|multiref:any|agg:mean|version:dspy-3.3.1|${kernelTail(tool)}`,
    };
  },
};
