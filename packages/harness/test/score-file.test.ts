import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  corpusBleu,
  corpusChrf,
  ready,
  rougeBatch,
  sentenceBleuBatch,
  sentenceChrfBatch,
  tokenF1Batch,
  type BleuOptions,
} from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { mergeShards, ResumeMismatchError, scoreFile, type ScoreSummary } from "../src/index.js";
import { makePairs, readJsonl, tempDir } from "./helpers.js";

let dir: string;
let pairsPath: string;
let pairs: { id: string; hyp: string; refs: string[] }[];

beforeAll(async () => {
  await ready();
  dir = tempDir();
  pairsPath = makePairs(dir, 1, 3000); // includes the shared edge cases (empty strings, scripts, emoji)
  pairs = readJsonl(readFileSync(pairsPath, "utf8")) as typeof pairs;
});

const hyps = () => pairs.map((p) => p.hyp);
const refs = () => pairs.map((p) => p.refs);

describe("scoreFile: per-row and corpus results", () => {
  let summary: ScoreSummary;
  let rows: Record<string, unknown>[];

  beforeAll(async () => {
    summary = await scoreFile({
      input: pairsPath,
      output: join(dir, "basic.jsonl"),
      metrics: ["bleu", "chrf", "chrf++", "rouge", "tokenF1", { metric: "tokenF1", name: "f1byob", options: { mode: "byob" } }],
      fields: { hypothesis: "hyp", references: "refs", id: "id" },
      workers: 2,
      chunkBytes: 16 << 10, // many chunks, so ordering across workers is exercised
    });
    rows = readJsonl(readFileSync(join(dir, "basic.jsonl"), "utf8"));
  });

  it("writes one row per input line, in input order, with the id", () => {
    expect(rows).toHaveLength(pairs.length);
    rows.forEach((r, i) => {
      expect(r.line).toBe(i + 1);
      expect(r.id).toBe(pairs[i]!.id);
    });
    expect(summary.rows).toMatchObject({ records: 3000, scored: 3000, bad: 0 });
    expect(summary.diagnostics.chunks).toBeGreaterThan(10);
  });

  it("per-row values equal the kernels' sentence scores", () => {
    const bleu = sentenceBleuBatch(hyps(), refs());
    const chrf = sentenceChrfBatch(hyps(), refs());
    const chrfpp = sentenceChrfBatch(hyps(), refs(), { wordOrder: 2 });
    const rouge = rougeBatch(hyps(), refs());
    const f1 = tokenF1Batch(hyps(), refs());
    const f1b = tokenF1Batch(hyps(), refs(), { mode: "byob" });
    rows.forEach((r, i) => {
      expect(r.bleu).toBe(bleu[i]);
      expect(r.chrf).toBe(chrf[i]);
      expect(r["chrf++"]).toBe(chrfpp[i]);
      expect(r.rouge1).toBe(rouge[i * 12 + 2]);
      expect(r.rougeL).toBe(rouge[i * 12 + 8]);
      expect(r.rougeLsum).toBe(rouge[i * 12 + 11]);
      expect(r.tokenF1).toBe(f1[i * 3]);
      expect(r.f1byob).toBe(f1b[i * 3]);
    });
  });

  it("corpus BLEU/chrF come from summed statistics, not means of sentence scores", () => {
    expect(summary.metrics.bleu!.scores.bleu).toBe(corpusBleu(hyps(), refs()).score);
    expect(summary.metrics.chrf!.scores.chrf).toBe(corpusChrf(hyps(), refs()).score);
    expect(summary.metrics["chrf++"]!.scores["chrf++"]).toBe(corpusChrf(hyps(), refs(), { wordOrder: 2 }).score);
    const meanSentence = sentenceBleuBatch(hyps(), refs()).reduce((a, b) => a + b, 0) / pairs.length;
    expect(Math.abs(summary.metrics.bleu!.scores.bleu! - meanSentence)).toBeGreaterThan(0.5);
    const d = summary.metrics.bleu!.details as { precisions: number[]; bp: number };
    expect(d.precisions).toEqual(corpusBleu(hyps(), refs()).precisions);
    // means for ROUGE and token F1
    const f1 = tokenF1Batch(hyps(), refs());
    let s = 0;
    for (let i = 0; i < pairs.length; i++) s += f1[i * 3]!;
    expect(summary.metrics.tokenF1!.scores.tokenF1).toBeCloseTo(s / pairs.length, 12);
  });

  it("records a signature with every option and version per metric", () => {
    const sig = summary.metrics.bleu!.signature;
    expect(sig).toMatch(/^BLEU\|nrefs:(\d+|var)\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:2\.6\.0\|/);
    expect(sig).toContain("evalkern-core-wasm:");
    expect(sig).toContain("unicode:14.0.0");
    expect(sig).toContain("harness:");
    expect(summary.metrics["chrf++"]!.signature).toMatch(/^chrF2\+\+\|.*nc:6\|nw:2/);
    expect(summary.metrics.rouge!.signature).toContain("types:rouge1,rouge2,rougeL,rougeLsum|stemmer:no");
    expect(summary.metrics.f1byob!.signature).toContain("mode:nemo-byob");
  });
});

describe("scoreFile: metric options", () => {
  it("BLEU tokenizers and options reach the kernels and the signature", async () => {
    const variants: BleuOptions[] = [
      { tokenize: "zh" },
      { tokenize: "intl", lowercase: true },
      { tokenize: "char", smoothMethod: "floor", smoothValue: 0.2 },
      { tokenize: "none", smoothMethod: "add-k", maxNgramOrder: 3 },
      { tokenize: "13a", smoothMethod: "none", effectiveOrder: true },
    ];
    const summary = await scoreFile({
      input: pairsPath,
      output: join(dir, "bleu-variants.jsonl"),
      metrics: variants.map((options, i) => ({ metric: "bleu" as const, name: `bleu${i}`, options })),
      workers: 2,
    });
    const rows = readJsonl(readFileSync(join(dir, "bleu-variants.jsonl"), "utf8"));
    variants.forEach((options, i) => {
      expect(summary.metrics[`bleu${i}`]!.scores[`bleu${i}`]).toBe(corpusBleu(hyps(), refs(), options).score);
      const sentence = sentenceBleuBatch(hyps(), refs(), options);
      rows.forEach((r, j) => expect(r[`bleu${i}`]).toBe(sentence[j]));
    });
    expect(summary.metrics.bleu0!.signature).toContain("tok:zh");
    expect(summary.metrics.bleu1!.signature).toContain("case:lc");
    expect(summary.metrics.bleu2!.signature).toContain("smooth:floor[0.20]");
    expect(summary.metrics.bleu4!.signature).toContain("eff:yes");
  });

  it("ROUGE types and the stemmer; @evalkern/metrics rule metrics (built-in and by module)", async () => {
    const summary = await scoreFile({
      input: pairsPath,
      output: join(dir, "more.jsonl"),
      metrics: [
        { metric: "rouge", name: "stem", options: { types: ["rouge2", "rougeL"], useStemmer: true } },
        "exactMatch",
        "levenshtein",
        { metric: "module", name: "dspyF1", module: "@evalkern/metrics/dspy", export: "F1Batch", call: "batch", version: "metrics-0.1.0" },
        { metric: "module", name: "dspyEM", module: "@evalkern/metrics/dspy", export: "EM", call: "pair" },
        { metric: "module", name: "byob", module: "@evalkern/metrics/byob", export: "bleu", call: "byob", columns: ["bleu_1", "bleu_4"] },
      ],
      workers: 2,
    });
    const rows = readJsonl(readFileSync(join(dir, "more.jsonl"), "utf8"));
    const rouge = rougeBatch(hyps(), refs(), { types: ["rouge2", "rougeL"], useStemmer: true });
    const f1 = tokenF1Batch(hyps(), refs());
    const { EMBatch } = await import("@evalkern/metrics/dspy");
    const em = EMBatch(hyps(), refs());
    const byob = await import("@evalkern/metrics/byob");
    rows.forEach((r, i) => {
      expect(r["stem.rouge2"]).toBe(rouge[i * 6 + 2]);
      expect(r["stem.rougeL"]).toBe(rouge[i * 6 + 5]);
      expect(r.dspyF1).toBe(f1[i * 3]);
      expect(r.exactMatch).toBe(em[i]);
      expect(r.dspyEM).toBe(em[i]);
      expect(r.levenshtein).toBeGreaterThanOrEqual(0);
      expect(r.levenshtein).toBeLessThanOrEqual(1);
      const b = byob.bleu({ response: pairs[i]!.hyp, target: pairs[i]!.refs[0], metadata: {} });
      expect([r["byob.bleu_1"], r["byob.bleu_4"]]).toEqual([b.bleu_1, b.bleu_4]);
    });
    expect(summary.metrics.byob!.scores).toHaveProperty("byob.bleu_4");
    expect(summary.metrics.stem!.signature).toContain("stemmer:porter");
    expect(summary.metrics.dspyF1!.signature).toContain("module:@evalkern/metrics/dspy#F1Batch|call:batch");
    expect(summary.metrics.dspyF1!.signature).toContain("version:metrics-0.1.0");
  });

  it("rejects bad metric specs before starting", async () => {
    const base = { input: pairsPath, output: join(dir, "x.jsonl") };
    await expect(scoreFile({ ...base, metrics: [] })).rejects.toThrow(/non-empty/);
    await expect(scoreFile({ ...base, metrics: ["bleuu" as never] })).rejects.toThrow(/unknown metric "bleuu"/);
    await expect(scoreFile({ ...base, metrics: [{ metric: "bleu", options: { tokenize: "xx" as never } }] })).rejects.toThrow(/tokenize/);
    await expect(scoreFile({ ...base, metrics: ["bleu", "bleu"] })).rejects.toThrow(/named "bleu"/);
    await expect(scoreFile({ ...base, metrics: ["rouge", "rougeL"] })).rejects.toThrow(/used twice/);
  });
});

describe("scoreFile: bad rows", () => {
  it("reports each bad row with its line number and error, and goes on", async () => {
    const lines = [
      JSON.stringify({ hyp: "the cat sat", refs: ["the cat sat"] }),
      "{not json",
      JSON.stringify({ refs: ["x"] }),
      "",
      JSON.stringify({ hyp: 42, refs: ["x"] }),
      JSON.stringify({ hyp: "a", refs: [] }),
      JSON.stringify({ hyp: "a", refs: [1] }),
      "[1,2]",
      "   ",
      JSON.stringify({ hyp: "a dog", refs: "a dog barked" }),
      JSON.stringify({ hyp: "x", refs: [null, "x"] }),
    ];
    const input = join(dir, "bad.jsonl");
    writeFileSync(input, lines.join("\n")); // no trailing newline
    const summary = await scoreFile({ input, output: join(dir, "bad.out.jsonl"), metrics: ["bleu", "tokenF1"], workers: 1 });
    const out = readJsonl(readFileSync(join(dir, "bad.out.jsonl"), "utf8"));
    expect(out.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 7, 8, 10, 11]);
    const errors = Object.fromEntries(out.filter((r) => r.error).map((r) => [r.line, (r.error as { code: string }).code]));
    expect(errors).toEqual({
      2: "invalid_json",
      3: "missing_field",
      5: "wrong_type",
      6: "no_references",
      7: "wrong_type",
      8: "not_object",
    });
    expect(out[0]!.bleu).toBeCloseTo(100, 10);
    expect(out[7]!.tokenF1).toBeCloseTo(2 / 3, 12); // a string reference is one reference ("a" is an article)
    expect(out[8]!.tokenF1).toBe(1); // null references are dropped
    expect(summary.rows).toMatchObject({ records: 9, scored: 3, bad: 6, blank: 2 });
    expect(summary.rows.badByCode).toEqual({ invalid_json: 1, missing_field: 1, wrong_type: 2, no_references: 1, not_object: 1 });
    expect(summary.rows.badSamples[0]).toMatchObject({ line: 2, code: "invalid_json" });
    expect((out[1]!.error as { message: string }).message).toMatch(/invalid JSON/);
  });

  it("isolates a row on which a plug-in metric throws", async () => {
    const metricFile = join(dir, "picky-metric.mjs");
    writeFileSync(
      metricFile,
      `export function picky(hyp) { if (hyp.includes("boom")) throw new Error("cannot score boom"); return hyp.length; }\n`,
    );
    const input = join(dir, "picky.jsonl");
    writeFileSync(input, ["ok one", "boom here", "fine"].map((h) => JSON.stringify({ hyp: h, refs: ["r"] })).join("\n") + "\n");
    const summary = await scoreFile({
      input,
      output: join(dir, "picky.out.jsonl"),
      metrics: ["tokenF1", { metric: "module", name: "len", module: new URL(`file://${metricFile}`).href, export: "picky" }],
      workers: 1,
    });
    const out = readJsonl(readFileSync(join(dir, "picky.out.jsonl"), "utf8"));
    expect(out[1]).toMatchObject({ line: 2, error: { code: "metric_error", message: "len: cannot score boom" } });
    expect(out[0]!.len).toBe(6);
    expect(out[2]!.len).toBe(4);
    expect(summary.metrics.len!.scores.len).toBe(5);
    expect(summary.rows.scored).toBe(2);
  });
});

describe("scoreFile: CSV", () => {
  it("parses quoted fields, embedded newlines, several reference columns; reports malformed records", async () => {
    const csv = [
      "id,hypothesis,ref1,ref2",
      'a,"the cat, sat","the cat, sat",',
      'b,"multi',
      'line hyp","multi line hyp","other"',
      "c,only,three",
      'd,"He said ""hi""",He said "hi",x',
      'e,a 12" pizza,a 12" pizza,',
    ].join("\r\n");
    const input = join(dir, "in.csv");
    writeFileSync(input, "\ufeff" + csv + "\r\n");
    const summary = await scoreFile({
      input,
      output: join(dir, "csv.out.jsonl"),
      metrics: ["tokenF1"],
      fields: { hypothesis: "hypothesis", references: ["ref1", "ref2"], id: "id" },
      workers: 1,
    });
    const out = readJsonl(readFileSync(join(dir, "csv.out.jsonl"), "utf8"));
    expect(out.map((r) => [r.line, r.id])).toEqual([
      [2, "a"],
      [3, "b"],
      [5, null],
      [6, "d"],
      [7, "e"],
    ]);
    expect(out[0]!.tokenF1).toBe(1);
    expect(out[1]!.tokenF1).toBe(1);
    expect(out[2]).toMatchObject({ error: { code: "csv_error" } });
    expect(out[3]!.tokenF1).toBe(1);
    expect(out[4]!.tokenF1).toBe(1);
    expect(summary.rows).toMatchObject({ records: 5, scored: 4, bad: 1 });
    expect(summary.nrefs).toEqual({ min: 1, max: 2 });
  });
});

describe("scoreFile: chunking, windows, shards", () => {
  it("results do not depend on chunk size or worker count; the window bounds chunks in flight", async () => {
    const a = await scoreFile({
      input: pairsPath,
      output: join(dir, "c1.jsonl"),
      metrics: ["bleu", "rougeL"],
      workers: 1,
      chunkBytes: 1000,
      window: 3,
    });
    const b = await scoreFile({
      input: pairsPath,
      output: join(dir, "c2.jsonl"),
      metrics: ["bleu", "rougeL"],
      workers: 2,
      chunkBytes: 200_000,
    });
    expect(readFileSync(join(dir, "c1.jsonl"), "utf8")).toBe(readFileSync(join(dir, "c2.jsonl"), "utf8"));
    expect(a.metrics).toEqual(b.metrics);
    expect(a.diagnostics.chunks).toBeGreaterThan(100);
    expect(a.diagnostics.maxInFlight).toBeLessThanOrEqual(3);
  });

  it.each(["jsonl", "csv"] as const)("shards of a %s input merge exactly into the single-run result", async (format) => {
    let input = pairsPath;
    let fields = { hypothesis: "hyp", references: "refs", id: "id" } as const as {
      hypothesis: string;
      references: string | string[];
      id: string;
    };
    if (format === "csv") {
      // quoted multi-line fields make record boundaries differ from line boundaries
      const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
      input = join(dir, "pairs.csv");
      writeFileSync(input, ["id,hyp,ref", ...pairs.map((p) => [p.id, q(p.hyp), q(p.refs[0]!)].join(","))].join("\n") + "\n");
      fields = { hypothesis: "hyp", references: "ref", id: "id" };
    }
    const metrics = ["bleu", "chrf++", "rouge", "tokenF1"] as const;
    const whole = await scoreFile({ input, output: join(dir, `whole.${format}.jsonl`), metrics, fields, workers: 2, keepStatistics: true });
    const parts: ScoreSummary[] = [];
    for (let index = 0; index < 4; index++) {
      parts.push(
        await scoreFile({
          input,
          output: join(dir, `part${index}.${format}.jsonl`),
          metrics,
          fields,
          workers: 2,
          shard: { index, count: 4 },
          keepStatistics: true,
        }),
      );
    }
    expect(parts.map((p) => p.rows.records).reduce((a, b) => a + b)).toBe(3000);
    expect(parts.every((p) => p.rows.records > 500)).toBe(true);
    const merged = await mergeShards(parts.reverse(), { output: join(dir, `merged.${format}.jsonl`) });
    expect(readFileSync(join(dir, `merged.${format}.jsonl`), "utf8")).toBe(readFileSync(join(dir, `whole.${format}.jsonl`), "utf8"));
    expect(merged.metrics).toEqual(whole.metrics); // bit-identical: exact sums add
    expect(merged.rows).toEqual(whole.rows);
    await expect(mergeShards(parts.slice(1))).rejects.toThrow(/exactly once/);
  });
});

describe("scoreFile: resume", () => {
  it("refuses to resume a checkpoint of a different job", async () => {
    const output = join(dir, "mismatch.jsonl");
    await scoreFile({ input: pairsPath, output, metrics: ["bleu"], workers: 1 });
    await expect(scoreFile({ input: pairsPath, output, metrics: ["chrf"], workers: 1, resume: true })).rejects.toThrow(ResumeMismatchError);
    // a completed job resumes to the same summary without rescoring
    const again = await scoreFile({ input: pairsPath, output, metrics: ["bleu"], workers: 1, resume: true });
    expect(again.resumed).toBe(true);
    expect(again.rows.records).toBe(3000);
    expect(again.diagnostics.chunks).toBe(0);
  });
});
