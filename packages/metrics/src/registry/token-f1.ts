// Token F1 (DSPy / SQuAD normalisation, or NeMo BYOB's lower + split): statistics (f1, precision,
// recall) of the best reference per row; the corpus score is the mean F1.
import { tokenF1Batch, type TokenF1Options } from "@evalkern/core-wasm";
import { meanOfColumnZero, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { MetricOptionError } from "./errors.js";
import { kernelTail } from "./kernel-sig.js";

function resolveF1(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const mode = options.mode ?? "dspy";
  const hotpot = options.hotpot ?? false;
  if (hotpot && mode !== "dspy") {
    throw new MetricOptionError(`f1: options.hotpot applies to mode "dspy" only`, {
      metric: "f1",
      key: "hotpot",
      argument: "options.hotpot",
    });
  }
  return { mode, hotpot };
}

export const f1: LexicalMetric = {
  name: "f1",
  aliases: ["tokenF1"],
  family: "dspy",
  description: "token F1 (DSPy / SQuAD normalisation; mode=byob for NeMo's), max over references",
  options: {
    mode: { type: "string", values: ["dspy", "byob"], default: "dspy", help: "dspy (default) | byob" },
    hotpot: { type: "boolean", default: false, help: "true | false (HotPotQA yes/no/noanswer rule)" },
  },
  scale: 1,
  higherIsBetter: true,
  spec: (options, name) => ({ metric: "tokenF1", name, options: { ...options } }),
  resolve: resolveF1,
  create(spec: MetricSpecJson): MetricInstance {
    const o = spec.options as TokenF1Options;
    return meanOfColumnZero(spec, {
      metric: "f1",
      width: 3,
      statistics: (h, r) => tokenF1Batch(h, r, o),
      details: (sum, count) =>
        count > 0 ? { f1: sum[0]! / count, precision: sum[1]! / count, recall: sum[2]! / count } : { f1: 0, precision: 0, recall: 0 },
      signature: (nrefs, tool) =>
        `TokenF1|nrefs:${nrefs}|mode:${o.mode === "byob" ? "nemo-byob" : "dspy"}|hotpot:${o.hotpot ? "yes" : "no"}` +
        `|multiref:max|agg:mean|${kernelTail(tool)}`,
    });
  },
};

/** DSPy HotPotF1 (a preset of `f1` with `hotpot: true`). */
export const hotpotF1: LexicalMetric = {
  name: "hotpot-f1",
  family: "dspy",
  description: "DSPy HotPotF1 (token F1 with HotPotQA's yes/no/noanswer rule)",
  options: {},
  scale: 1,
  higherIsBetter: true,
  spec: (_options, name) => ({ metric: "tokenF1", name, options: { hotpot: true } }),
};
