// sacreBLEU BLEU: statistics [sysLen, refLen, counts[N], totals[N]] per row; rows score sentence BLEU
// (effective order), the corpus scores the summed counts.
import {
  bleuFromStatistics,
  bleuScoresFromStatisticsBatch,
  bleuSignature,
  bleuStatisticsBatch,
  bleuStatisticsWidth,
  resolveBleuOptions,
  type BleuOptions,
} from "@evalkern/core-wasm";
import { summedStatistics, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { kernelTail } from "./kernel-sig.js";

export const bleu: LexicalMetric = {
  name: "bleu",
  family: "sacrebleu",
  description: "sacreBLEU BLEU (corpus score from summed statistics; rows: sentence BLEU)",
  options: {
    tokenize: {
      type: "string",
      values: ["13a", "intl", "zh", "char", "none"],
      default: "13a",
      help: "13a (default) | intl | zh | char | none",
    },
    lowercase: { type: "boolean", default: false, help: "true | false" },
    smoothMethod: {
      type: "string",
      values: ["exp", "floor", "add-k", "none"],
      default: "exp",
      help: "exp (default) | floor | add-k | none",
    },
    smoothValue: { type: "number", help: "number (floor / add-k)" },
    maxNgramOrder: { type: "integer", default: 4, help: "integer (default 4)" },
    effectiveOrder: {
      type: "boolean",
      default: false,
      help: "true | false (corpus level; rows always use sentence-BLEU's effective order)",
    },
  },
  scale: 100,
  higherIsBetter: true,
  spec: (options, name) => ({ metric: "bleu", name, options: { ...options } }),
  resolve(options) {
    resolveBleuOptions(options as BleuOptions, false); // validates ranges
    return { ...options };
  },
  create(spec: MetricSpecJson): MetricInstance {
    const o = spec.options as BleuOptions;
    const N = resolveBleuOptions(o, false).maxNgramOrder;
    const width = bleuStatisticsWidth(o);
    const corpusOptions: BleuOptions = { ...o, effectiveOrder: o.effectiveOrder ?? false };
    const rowEff = resolveBleuOptions(o, true).effectiveOrder;
    return summedStatistics(spec, {
      metric: "bleu",
      width,
      higherIsBetter: true,
      statistics: (h, r) => bleuStatisticsBatch(h, r, o),
      scores: (stats) => bleuScoresFromStatisticsBatch(stats, o),
      corpusScores: (sums) => bleuScoresFromStatisticsBatch(sums, corpusOptions),
      details(sum) {
        const res = bleuFromStatistics(
          {
            sysLen: sum[0]!,
            refLen: sum[1]!,
            counts: Array.from(sum.subarray(2, 2 + N)),
            totals: Array.from(sum.subarray(2 + N, 2 + 2 * N)),
          },
          o,
        );
        return {
          score: res.score,
          precisions: res.precisions,
          bp: res.bp,
          ratio: res.refLen > 0 ? res.sysLen / res.refLen : 0,
          sysLen: res.sysLen,
          refLen: res.refLen,
          counts: res.counts,
          totals: res.totals,
        };
      },
      signature: (nrefs, tool) => `BLEU|${bleuSignature(o, nrefs, false)}|row:sentence-eff:${rowEff ? "yes" : "no"}|${kernelTail(tool)}`,
    });
  },
};
