// autoevals Levenshtein similarity over code points, best reference: one statistic per row; the corpus
// score is the mean.
import { levenshteinSimilarityBatch } from "../common/levenshtein.js";
import { meanOfColumnZero, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { kernelTail } from "./kernel-sig.js";

export const levenshtein: LexicalMetric = {
  name: "levenshtein",
  family: "autoevals",
  description: "Levenshtein similarity over code points (autoevals), best reference",
  options: {},
  scale: 1,
  higherIsBetter: true,
  spec: (_options, name) => ({ metric: "levenshtein", name, options: {} }),
  resolve: () => ({}),
  create: (spec: MetricSpecJson): MetricInstance =>
    meanOfColumnZero(spec, {
      metric: "levenshtein",
      width: 1,
      statistics(h, r) {
        // similarity against each reference, best one kept
        const a: string[] = [];
        const b: string[] = [];
        for (let i = 0; i < h.length; i++) for (const ref of r[i]!) a.push(h[i]!), b.push(ref);
        const sims = levenshteinSimilarityBatch(a, b);
        const out = new Float64Array(h.length);
        let k = 0;
        for (let i = 0; i < h.length; i++) {
          let best = -Infinity;
          for (let j = 0; j < r[i]!.length; j++) best = Math.max(best, sims[k++]!);
          out[i] = best;
        }
        return out;
      },
      signature: (nrefs, tool) => `LevenshteinSimilarity|nrefs:${nrefs}|unit:codepoint|multiref:max|agg:mean|${kernelTail(tool)}`,
    }),
};
