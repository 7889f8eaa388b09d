// rouge-score ROUGE: statistics (precision, recall, F-measure) per type per row (max-F over references);
// the corpus score of each type is the mean F-measure.
import { DEFAULT_ROUGE_TYPES, rougeBatch, type RougeType } from "@evalkern/core-wasm";
import { headlineColumn, meanColumns, type LexicalMetric, type MetricInstance, type MetricSpecJson } from "./contract.js";
import { MetricOptionError } from "./errors.js";
import { kernelTail } from "./kernel-sig.js";
import type { OptionSchema } from "./options.js";

const ROUGE_TYPES = [
  "rouge1",
  "rouge2",
  "rouge3",
  "rouge4",
  "rouge5",
  "rouge6",
  "rouge7",
  "rouge8",
  "rouge9",
  "rougeL",
  "rougeLsum",
] as const;
const USE_STEMMER: OptionSchema = { type: "boolean", default: false, help: "true | false (Porter stemmer)" };

function resolveRouge(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const types = (options.types as unknown[] | undefined) ?? [...DEFAULT_ROUGE_TYPES];
  const bad = (message: string): never => {
    throw new MetricOptionError(`rouge: ${message}`, { metric: "rouge", key: "types", argument: "options.types" });
  };
  if (!Array.isArray(types) || types.length === 0) bad("options.types must be a non-empty array");
  for (const t of types)
    if (typeof t !== "string" || !(ROUGE_TYPES as readonly string[]).includes(t))
      bad(`options.types: unknown ROUGE type ${JSON.stringify(t)}`);
  if (new Set(types).size !== types.length) bad("options.types has duplicates");
  return { types, useStemmer: options.useStemmer === true };
}

export const rouge: LexicalMetric = {
  name: "rouge",
  family: "rouge-score",
  description: "rouge-score ROUGE-1/2/L/Lsum F-measures (score = ROUGE-L)",
  options: {
    types: { type: "string[]", values: ROUGE_TYPES, default: [...DEFAULT_ROUGE_TYPES], help: "list of rouge1..rouge9, rougeL, rougeLsum" },
    useStemmer: USE_STEMMER,
  },
  scale: 1,
  higherIsBetter: true,
  headline: "rougeL",
  spec: (options, name) => ({ metric: "rouge", name, options: { ...options } }),
  resolve: resolveRouge,
  create(spec: MetricSpecJson): MetricInstance {
    const types = spec.options.types as RougeType[];
    const useStemmer = spec.options.useStemmer === true;
    const T = types.length;
    const fCols = types.map((_, t) => 3 * t + 2);
    const name = spec.name;
    // a single-type ROUGE named after its type ("rougeL") keeps that key; otherwise keys are the types,
    // prefixed with the metric name when the user named it
    const columns = types.length === 1 && name === types[0] ? [name] : name === "rouge" ? [...types] : types.map((t) => `${name}.${t}`);
    return {
      metric: "rouge",
      name,
      options: spec.options,
      width: 3 * T,
      columns,
      scoreNames: columns,
      headline: headlineColumn(name, columns, "rougeL"),
      corpusColumns: fCols,
      scale: 1,
      higherIsBetter: true,
      statistics: (h, r) => rougeBatch(h, r, { types, useStemmer }),
      rowValues(stats, n) {
        const out = new Float64Array(n * T);
        for (let i = 0; i < n; i++) for (let t = 0; t < T; t++) out[i * T + t] = stats[i * 3 * T + 3 * t + 2]!;
        return out;
      },
      corpusScores: (sums, k, count) => meanColumns(sums, k, 3 * T, fCols, count),
      corpusDetails(sum, count) {
        const d: Record<string, unknown> = {};
        types.forEach((t, i) => {
          d[t] =
            count > 0
              ? { precision: sum[3 * i]! / count, recall: sum[3 * i + 1]! / count, fmeasure: sum[3 * i + 2]! / count }
              : { precision: 0, recall: 0, fmeasure: 0 };
        });
        return d;
      },
      signature: (nrefs, tool) =>
        `ROUGE|nrefs:${nrefs}|types:${types.join(",")}|stemmer:${useStemmer ? "porter" : "no"}` +
        `|tok:rouge-score-default|multiref:max-f|agg:mean|version:rouge-score-0.1.2|${kernelTail(tool)}`,
    };
  },
};

/** One ROUGE type (a preset of `rouge`; its specs name `rouge` with `types: [type]`). */
export function rougeSingle(type: "rouge1" | "rouge2" | "rougeL" | "rougeLsum"): LexicalMetric {
  return {
    name: type,
    family: "rouge-score",
    description: `${type.replace("rouge", "ROUGE-")} F-measure (rouge-score, max over references)`,
    options: { useStemmer: USE_STEMMER },
    scale: 1,
    higherIsBetter: true,
    spec: (options, name) => ({ metric: "rouge", name, options: { ...options, types: [type] } }),
  };
}
