// The run manifest owned by the harness: the entries `runMetrics` builds from a bulk summary, and the
// report reading what a judge metric is checked against from the manifest (not from the metric's name).
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { describe, expect, it } from "vitest";
import type { MetricSummary } from "../src/bulk/summary.js";
import { normalizeMetrics } from "../src/bulk/metrics.js";
import { collectReportData, type ReportManifest, type RunMetric } from "../src/report/index.js";
import { corpusEntry, runMetrics } from "../src/report/run-metrics.js";

function summary(signature: string, scores: Record<string, number>, ci?: MetricSummary["ci"]): MetricSummary {
  return { signature, scores, details: {}, offset: 0, width: 1, sums: [], ...(ci ? { ci } : {}) };
}

describe("runMetrics", () => {
  it("builds each metric's entry: registry name, the output rows' column layout, corpus scores and CIs", () => {
    const specs = normalizeMetrics(["bleu", { metric: "rouge", name: "r", headline: "rougeL" }]);
    const entries = runMetrics(
      [
        { name: "bleu", options: {}, definition: { name: "bleu", scale: 100, higherIsBetter: true } },
        { name: "r", options: { headline: "rougeL" }, definition: { name: "rouge", scale: 1, higherIsBetter: true } },
      ],
      {
        metricSpecs: specs,
        metrics: {
          // a CI carries more than the manifest keeps (the bootstrap's own fields): only lower, upper, ci stay
          bleu: summary("BLEU|x", { bleu: 30 }, { bleu: { lower: 28, upper: 32, ci: 0.95, mean: 30, std: 1 } as never }),
          r: summary("ROUGE|y", { rouge1: 0.5, rougeL: 0.4 }),
        },
      },
    );
    expect(entries[0]).toEqual({
      name: "bleu",
      metric: "bleu",
      options: {},
      scale: 100,
      columns: [],
      headline: "bleu",
      higherIsBetter: true,
      signature: "BLEU|x",
      corpus: { bleu: 30 },
      ci: { bleu: { lower: 28, upper: 32, ci: 0.95 } },
    });
    // a renamed metric's raw scorer columns carry its name; the keys in its row object do not
    expect(entries[1]).toMatchObject({ name: "r", metric: "rouge", scale: 1, headline: "r.rougeL", corpus: { rouge1: 0.5, rougeL: 0.4 } });
    expect(entries[1]!.columns).toEqual(["rouge1", "rouge2", "rougeL", "rougeLsum"].map((key) => ({ column: `r.${key}`, key })));
    expect("ci" in entries[1]!).toBe(false);
  });

  it("refuses a summary that lacks a metric", () => {
    const specs = normalizeMetrics(["bleu"]);
    const bleu = { name: "bleu", options: {}, definition: { name: "bleu", scale: 100 as const, higherIsBetter: true } };
    expect(() => runMetrics([bleu], { metricSpecs: specs, metrics: {} })).toThrow(InvalidArgumentError);
  });

  it("corpusEntry keeps signature, scores and CIs in the manifest's order", () => {
    const entry = corpusEntry(summary("s", { a: 1 }, { a: { lower: 0, upper: 2, ci: 0.95 } as never }));
    expect(Object.keys(entry)).toEqual(["signature", "corpus", "ci"]);
  });
});

function judgeRun(metric: RunMetric): { manifest: ReportManifest; rows(): AsyncIterable<{ line: number; row: Record<string, unknown> }> } {
  const rows = [
    { input: "q1", actual_output: "a1", expected_output: "e1", retrieval_context: ["doc one", "doc two"], [metric.name]: { score: 0.25 } },
    { input: "q2", actual_output: "a2", expected_output: "e2", retrieval_context: ["doc three"], [metric.name]: { score: 1 } },
  ];
  return {
    manifest: {
      kind: "judge",
      tool: "test",
      createdAt: "2026-01-01T00:00:00.000Z",
      input: "in.jsonl",
      output: "out.jsonl",
      outputFormat: "jsonl",
      fields: { hypothesis: "actual_output", references: ["expected_output"] },
      metrics: [metric],
      rows: { records: 2, scored: 2, bad: 0 },
    },
    async *rows() {
      for (const [i, row] of rows.entries()) yield { line: i + 1, row };
    },
  };
}

const judgeMetric = (name: string, extra: Partial<RunMetric> = {}): RunMetric => ({
  name,
  metric: name,
  options: {},
  scale: 1,
  columns: [],
  headline: name,
  higherIsBetter: true,
  signature: `${name}|test`,
  corpus: { [name]: 0.625 },
  ...extra,
});

describe("the report reads what a judge metric is checked against from the manifest", () => {
  it("a renamed metric with judgedAgainst shows the retrieval context as its reference", async () => {
    const against = { paths: ["retrieval_context", "retrievalContext"], label: "retrieval context" };
    const data = await collectReportData(judgeRun(judgeMetric("grounded", { judgedAgainst: against })), { by: [] });
    expect(data.worst[0]!.referenceLabel).toBe("retrieval context");
    expect(data.worst[0]!.rows[0]!.references).toEqual(["doc one", "doc two"]);
  });

  it("a metric without it shows the expected output, whatever its name", async () => {
    const data = await collectReportData(judgeRun(judgeMetric("faithfulness")), { by: [] });
    expect(data.worst[0]!.referenceLabel).toBeUndefined();
    expect(data.worst[0]!.rows[0]!.references).toEqual(["e1"]);
  });
});
