// sacreBLEU chrF / chrF++: statistics 3 × (charOrder + wordOrder) per row; rows and corpus score the
// (summed) statistics.
import {
  chrfFromStatistics,
  chrfScoresFromStatisticsBatch,
  chrfSignature,
  chrfStatisticsBatch,
  chrfStatisticsWidth,
  resolveChrfOptions,
  type ChrfOptions,
} from "@evalkern/core-wasm";
import { summedStatistics, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { kernelTail } from "./kernel-sig.js";
import type { OptionSchemas } from "./options.js";

const CHRF_OPTIONS: OptionSchemas = {
  charOrder: { type: "integer", default: 6, help: "integer (default 6)" },
  wordOrder: { type: "integer", default: 0, help: "integer (default 0; 2 = chrF++)" },
  beta: { type: "number", default: 2, help: "integer (default 2)" },
  lowercase: { type: "boolean", default: false, help: "true | false" },
  whitespace: { type: "boolean", default: false, help: "true | false" },
  epsSmoothing: { type: "boolean", default: false, help: "true | false" },
};

export const chrf: LexicalMetric = {
  name: "chrf",
  family: "sacrebleu",
  description: "sacreBLEU chrF (wordOrder=2 gives chrF++)",
  options: CHRF_OPTIONS,
  scale: 100,
  higherIsBetter: true,
  spec: (options, name) => ({ metric: "chrf", name, options: { ...options } }),
  resolve(options) {
    resolveChrfOptions(options as ChrfOptions);
    return { ...options };
  },
  create(spec: MetricSpecJson): MetricInstance {
    const o = spec.options as ChrfOptions;
    const r = resolveChrfOptions(o);
    const width = chrfStatisticsWidth(o);
    const label = `chrF${r.beta}${r.wordOrder > 0 ? "+".repeat(r.wordOrder) : ""}`;
    return summedStatistics(spec, {
      metric: "chrf",
      width,
      higherIsBetter: true,
      statistics: (h, rf) => chrfStatisticsBatch(h, rf, o),
      scores: (stats) => chrfScoresFromStatisticsBatch(stats, o),
      details: (sum) => ({ score: chrfFromStatistics(sum, o).score }),
      signature: (nrefs, tool) => `${label}|${chrfSignature(o, nrefs)}|${kernelTail(tool)}`,
    });
  },
};

/** chrF++: chrF with word bigrams (a preset of `chrf`; its specs name `chrf`). */
export const chrfPlusPlus: LexicalMetric = {
  name: "chrf++",
  family: "sacrebleu",
  description: "sacreBLEU chrF++ (chrF with word bigrams)",
  options: CHRF_OPTIONS,
  scale: 100,
  higherIsBetter: true,
  spec: (options, name) => ({ metric: "chrf", name, options: { wordOrder: 2, ...options } }),
};
