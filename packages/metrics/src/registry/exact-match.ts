// DSPy exact match (normalize_text, any reference): one statistic per row, 0 or 1; the corpus score is
// the mean.
import { EMBatch } from "../dspy/answers.js";
import { meanOfColumnZero, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
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
  create: (spec: MetricSpecJson): MetricInstance =>
    meanOfColumnZero(spec, {
      metric: "em",
      width: 1,
      statistics: (h, r) => Float64Array.from(EMBatch(h, r)),
      signature: (nrefs, tool) =>
        `EM|nrefs:${nrefs}|normalize:dspy-normalize_text|multiref:any|agg:mean|version:dspy-3.3.1|${kernelTail(tool)}`,
    }),
};
