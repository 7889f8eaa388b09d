// sacreBLEU TER: statistics [numEdits, refLength] per row (edits to the closest reference, average
// reference length); rows and the corpus score the (summed) statistics. Lower is better.
import {
  resolveTerOptions,
  terFromStatistics,
  terStatisticsWidth,
  terScoresFromStatisticsBatch,
  terSignature,
  terStatisticsBatch,
  type TerOptions,
} from "@evalkern/core-wasm";
import { summedStatistics, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { kernelTail } from "./kernel-sig.js";
import type { OptionSchemas } from "./options.js";

const TER_OPTIONS: OptionSchemas = {
  normalized: { type: "boolean", default: false, help: "true | false (tercom normalisation: punctuation, XML entities)" },
  noPunct: { type: "boolean", default: false, help: "true | false (remove punctuation)" },
  asianSupport: { type: "boolean", default: false, help: "true | false (CJK handling, with normalized and/or noPunct)" },
  caseSensitive: { type: "boolean", default: false, help: "true | false (default: lowercase)" },
};

export const ter: LexicalMetric = {
  name: "ter",
  family: "sacrebleu",
  description: "sacreBLEU TER, translation edit rate (lower is better; corpus score from summed edits and reference lengths)",
  options: TER_OPTIONS,
  scale: 100,
  higherIsBetter: false,
  spec: (options, name) => ({ metric: "ter", name, options: { ...options } }),
  resolve(options) {
    resolveTerOptions(options as TerOptions);
    return { ...options };
  },
  create(spec: MetricSpecJson): MetricInstance {
    const o = spec.options as TerOptions;
    resolveTerOptions(o);
    return summedStatistics(spec, {
      metric: "ter",
      width: terStatisticsWidth(o),
      higherIsBetter: false,
      // sacreBLEU adds the average reference lengths one segment after another (`sum_of_lists`)
      sequentialColumns: [1],
      statistics: (h, r) => terStatisticsBatch(h, r, o),
      scores: (stats) => terScoresFromStatisticsBatch(stats),
      details: (sum) => {
        const r = terFromStatistics({ numEdits: sum[0]!, refLength: sum[1]! });
        return { score: r.score, numEdits: r.numEdits, refLength: r.refLength };
      },
      signature: (nrefs, tool) => `TER|${terSignature(o, nrefs)}|${kernelTail(tool)}`,
    });
  },
};
