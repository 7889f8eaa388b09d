import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { estimateCi, pairedBootstrapPValue, pairedTest, scoreFile, scoreRows, type ScoreSummary } from "../src/index.js";
import { memoryRows, resampleSums } from "../src/bulk/bootstrap.js";
import { makePairs, readJsonl, tempDir } from "./helpers.js";

let dir: string;
let input: string;
let pairs: { id: string; hyp: string; refs: string[] }[];

beforeAll(() => {
  dir = tempDir();
  input = makePairs(dir, 3, 2000, true);
  pairs = readJsonl(readFileSync(input, "utf8")) as typeof pairs;
});

describe("sacreBLEU's formulas", () => {
  it("estimateCi: mean and half the spread between the ⌊B/40⌋-th values from each end", () => {
    const scores = Array.from({ length: 40 }, (_, i) => 39 - i); // unsorted on purpose
    const ci = estimateCi(scores, 1);
    expect(ci.mean).toBe(19.5);
    expect(ci.lower).toBe(1);
    expect(ci.upper).toBe(38);
    expect(ci.ci).toBe(18.5);
  });

  it("paired p-value: (#{|Δ*| − mean|Δ*| > |Δ|} + 1) / (B + 1)", () => {
    // |Δ*| = [1, 2, 3, 6]: centred [-2, -1, 0, 3]; real Δ = 0.5 → one exceeds → p = 2/5
    expect(pairedBootstrapPValue([0, 0, 0, 0], [1, -2, 3, 6], 0.5)).toBe(2 / 5);
    // the same system against itself: nothing exceeds 0, p = 1/(B+1), as sacreBLEU
    expect(pairedBootstrapPValue([1, 2], [1, 2], 0)).toBe(1 / 3);
  });
});

describe("resampling", () => {
  it("each resample depends only on (seed, index): batching and block size do not matter", () => {
    const n = 500;
    const width = 4;
    const rows = new Float32Array(n * width);
    for (let i = 0; i < n; i++) {
      rows[i * width] = i % 17 === 0 ? 0 : 1; // some invalid rows
      for (let j = 1; j < width; j++) rows[i * width + j] = (i * 7 + j * 3) % 11;
    }
    const valid = Array.from({ length: n }, (_, i) => i).filter((i) => i % 17 !== 0).length;
    const src = memoryRows(rows, width);
    const all = resampleSums([src], valid, 99, 0, 50, 64);
    const split = new Float64Array(all.length);
    split.set(resampleSums([src], valid, 99, 0, 7, 1000), 0);
    split.set(resampleSums([src], valid, 99, 7, 50, 3), 7 * 3);
    expect(split).toEqual(all);
    expect(resampleSums([src], valid, 100, 0, 50)).not.toEqual(all);
    // each resample draws exactly `valid` rows: sum of a constant column... use column sums vs counts
    const ones = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) (ones[i * 2] = 1, (ones[i * 2 + 1] = 1));
    const s = resampleSums([memoryRows(ones, 2)], n, 5, 0, 10);
    expect(Array.from(s)).toEqual(new Array(10).fill(n));
  });
});

describe("bootstrap confidence intervals", () => {
  let a: ScoreSummary;

  beforeAll(async () => {
    a = await scoreFile({ input, output: join(dir, "a.jsonl"), metrics: ["bleu", "rougeL", "tokenF1"], workers: 1, bootstrap: { resamples: 300, seed: 7 } });
  });

  it("is deterministic for a seed, whatever the worker count", async () => {
    const b = await scoreFile({ input, output: join(dir, "b.jsonl"), metrics: ["bleu", "rougeL", "tokenF1"], workers: 2, bootstrap: { resamples: 300, seed: 7 } });
    expect(b.metrics.bleu!.ci).toEqual(a.metrics.bleu!.ci);
    expect(b.metrics.tokenF1!.ci).toEqual(a.metrics.tokenF1!.ci);
    const c = await scoreFile({ input, output: join(dir, "c.jsonl"), metrics: ["bleu", "rougeL", "tokenF1"], workers: 2, bootstrap: { resamples: 300, seed: 8 } });
    expect(c.metrics.bleu!.ci!.bleu!.ci).not.toBe(a.metrics.bleu!.ci!.bleu!.ci);
  });

  it("brackets the corpus score, with the width the normal approximation predicts for a mean", () => {
    for (const [m, s] of [["bleu", "bleu"], ["rougeL", "rougeL"], ["tokenF1", "tokenF1"]] as const) {
      const ci = a.metrics[m]!.ci![s]!;
      const score = a.metrics[m]!.scores[s]!;
      expect(ci.lower).toBeLessThan(score);
      expect(ci.upper).toBeGreaterThan(score);
      expect(Math.abs(ci.mean - score)).toBeLessThan(ci.ci);
      expect(ci.resamples).toBe(300);
      expect(ci.seed).toBe(7);
    }
    const rows = readJsonl(readFileSync(join(dir, "a.jsonl"), "utf8")).map((r) => r.tokenF1 as number);
    const mean = rows.reduce((x, y) => x + y, 0) / rows.length;
    const sd = Math.sqrt(rows.reduce((x, y) => x + (y - mean) ** 2, 0) / rows.length);
    const predicted = (1.96 * sd) / Math.sqrt(rows.length);
    expect(a.metrics.tokenF1!.ci!.tokenF1!.ci).toBeGreaterThan(predicted * 0.75);
    expect(a.metrics.tokenF1!.ci!.tokenF1!.ci).toBeLessThan(predicted * 1.25);
  });

  it("the streaming API gives the same corpus scores and intervals", async () => {
    const { rows, summary } = await scoreRows(pairs, { metrics: ["bleu", "rougeL", "tokenF1"], workers: 2, chunkRows: 300, bootstrap: { resamples: 300, seed: 7 } });
    expect(rows).toHaveLength(2000);
    expect(summary.metrics.bleu!.scores).toEqual(a.metrics.bleu!.scores);
    expect(summary.metrics.bleu!.ci).toEqual(a.metrics.bleu!.ci);
    expect(summary.metrics.rougeL!.ci).toEqual(a.metrics.rougeL!.ci);
  });
});

describe("paired significance test", () => {
  it("a clearly better system is significant; a near-copy is not; results are seeded", async () => {
    const metrics = ["bleu", "chrf"] as const;
    const base = await scoreFile({ input, output: join(dir, "base.jsonl"), metrics, workers: 2, keepStatistics: true });
    // better: every third hypothesis replaced by its reference
    const better = join(dir, "better.jsonl");
    writeFileSync(better, pairs.map((p, i) => JSON.stringify({ hyp: i % 3 === 0 ? p.refs[0] : p.hyp, refs: p.refs })).join("\n") + "\n");
    // near-copy: two hypotheses changed
    const near = join(dir, "near.jsonl");
    writeFileSync(near, pairs.map((p, i) => JSON.stringify({ hyp: i === 5 || i === 900 ? `${p.hyp} extra` : p.hyp, refs: p.refs })).join("\n") + "\n");
    const sysBetter = await scoreFile({ input: better, output: join(dir, "better.out.jsonl"), metrics, workers: 2, keepStatistics: true });
    const sysNear = await scoreFile({ input: near, output: join(dir, "near.out.jsonl"), metrics, workers: 2, keepStatistics: true });

    const r1 = await pairedTest({ baseline: base, system: sysBetter, resamples: 200, seed: 3, workers: 2 });
    expect(r1.rows).toBe(2000);
    expect(r1.metrics.bleu!.bleu!.difference).toBeGreaterThan(5);
    expect(r1.metrics.bleu!.bleu!.pValue).toBeLessThan(0.01);
    expect(r1.metrics.chrf!.chrf!.pValue).toBeLessThan(0.01);
    expect(r1.metrics.bleu!.bleu!.system.score).toBe(sysBetter.metrics.bleu!.scores.bleu);

    const r2 = await pairedTest({ baseline: join(dir, "base.jsonl.summary.json"), system: sysNear, resamples: 200, seed: 3, workers: 1 });
    expect(Math.abs(r2.metrics.bleu!.bleu!.difference)).toBeLessThan(0.1);
    expect(r2.metrics.bleu!.bleu!.pValue).toBeGreaterThan(0.05);

    const r3 = await pairedTest({ baseline: base, system: sysBetter, resamples: 200, seed: 3, workers: 1 });
    expect(r3).toEqual(r1);
  });
});
