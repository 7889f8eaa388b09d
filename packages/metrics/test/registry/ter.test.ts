// TER in the registry: per-row scores bit for bit with sacreBLEU's sentence TER (testdata/golden/ter.jsonl),
// the corpus score from statistics summed as sacreBLEU sums them (in segment order), lower is better, options
// checked by the schema.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "@evalkern/core-wasm";
import { readGoldenJsonl } from "../../../../testdata/index.mjs";
import { getMetric, metricSpec, normalizeMetricSpec, createMetric, UnknownOptionError } from "../../src/index.js";

const jsonl = <T>(name: string): T[] => readGoldenJsonl<T>(name);

beforeAll(() => ready());

describe("ter in the registry", () => {
  it("is a lower-is-better sacreBLEU metric on 0–100 with tercom options", () => {
    const m = getMetric("ter");
    expect(m).toMatchObject({ name: "ter", family: "sacrebleu", scale: 100, higherIsBetter: false });
    expect(Object.keys(m.options).sort()).toEqual(["asianSupport", "caseSensitive", "noPunct", "normalized"]);
    expect(() => metricSpec("ter", { normalize: true }, "ter")).toThrow(UnknownOptionError);
  });

  it("rows bit for bit with sacreBLEU; corpus from statistics summed in segment order", () => {
    const pairs = jsonl<{ id: string; hyp: string; refs: string[] }>("pairs.jsonl");
    const gold = jsonl<{
      id: string;
      ter?: Record<string, { score: number }>;
      ter_corpus?: Record<string, { score: number; num_edits: number; ref_length: number; signature: string }>;
    }>("ter.jsonl");
    const corpus = gold.pop()!.ter_corpus!;
    for (const [variant, options] of [
      ["default", {}],
      ["norm", { normalized: true }],
      ["all", { normalized: true, noPunct: true, asianSupport: true, caseSensitive: true }],
    ] as const) {
      const metric = createMetric(normalizeMetricSpec(metricSpec("ter", options, "ter")));
      expect(metric.higherIsBetter).toBe(false);
      const stats = metric.statistics(
        pairs.map((p) => p.hyp),
        pairs.map((p) => p.refs),
      );
      const rows = metric.rowValues(stats, pairs.length);
      const wrong = pairs.filter((_p, i) => !Object.is(rows[i], gold[i]!.ter![variant]!.score)).map((p) => p.id);
      expect(wrong).toEqual([]);
      const sum = new Float64Array(2);
      for (let i = 0; i < pairs.length; i++) (sum[0]! += stats[2 * i]!), (sum[1]! += stats[2 * i + 1]!);
      expect(metric.corpusScores(sum, 1, pairs.length)[0]).toBe(corpus[variant]!.score);
      expect(metric.corpusDetails(sum, pairs.length)).toEqual({
        score: corpus[variant]!.score,
        numEdits: corpus[variant]!.num_edits,
        refLength: corpus[variant]!.ref_length,
      });
      expect(metric.signature("var").startsWith(`TER|${corpus[variant]!.signature}|`)).toBe(true);
    }
  });
});
