import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bootstrapCi, estimateCi, pairedBootstrapPValue, pairedTest, pairedTests } from "../src/index.js";
import { scoreFile, scoreRows, sliceScores } from "../src/index.js";
import type { ScoreSummary } from "../src/index.js";
import {
  BLOCK_ROWS,
  ResampleAccumulator,
  SUPER_ROWS,
  addSuperBlock,
  binomial,
  logFactorial,
  superBlockCounts,
  superBlockSums,
  useSimdKernel,
} from "../src/bulk/bootstrap.js";
import { Xoshiro128 } from "../src/bulk/rng.js";
import { superBlockRows } from "../src/bulk/statistics-core.js";
import { makePairs, readJsonl, tempDir } from "./helpers.js";

// Pinned by this implementation (one-pass block resampling in super-blocks, xoshiro128** streams per
// resample, super-block and block): a deliberate change
// of the resampling method changes these, nothing else may.
const PINNED = {
  bleu: {
    mean: 64.56564694429845,
    ci: 5.087358533167162,
    lower: 59.49644632611226,
    upper: 69.67116339244659,
    resamples: 1000,
    seed: 12345,
  },
  chrf: {
    mean: 73.58271566396347,
    ci: 4.7812373100486525,
    lower: 68.80275468700812,
    upper: 78.36522930710542,
    resamples: 1000,
    seed: 12345,
  },
  rougeL: {
    mean: 0.7648449858222781,
    ci: 0.03593114840487638,
    lower: 0.7286049159926673,
    upper: 0.8004672128024201,
    resamples: 1000,
    seed: 12345,
  },
  tokenF1: {
    mean: 0.814611396518858,
    ci: 0.033427944102635,
    lower: 0.7809540633236368,
    upper: 0.8478099515289068,
    resamples: 1000,
    seed: 12345,
  },
};

let dir: string;
let input: string;
let pairs: { id: string; hyp: string; refs: string[] }[];

beforeAll(() => {
  dir = tempDir();
  input = makePairs(dir, 3, 2000, true);
  pairs = readJsonl(readFileSync(input, "utf8")) as typeof pairs;
});

describe("superBlockRows (the rows a cluster's super-block jobs carry)", () => {
  it("cuts the rows where each super-block has its usable rows, intact after the reader reuses its block", () => {
    // rows [valid, i, -i]: every 7th row is not usable; n usable rows make three super-blocks, the last short
    const W = 3;
    const n = 2 * SUPER_ROWS + 100;
    const all: number[][] = [];
    for (let i = 0, usable = 0; usable < n; i++) {
      const valid = i % 7 === 3 ? 0 : 1;
      all.push([valid, i, -i]);
      usable += valid;
    }
    all.push([0, -1, -1], [0, -2, -2]); // unusable rows after the last usable one belong to no super-block
    // expected by hand: a super-block ends at the row that brings its usable count to min(SUPER_ROWS, rest)
    const expected: { rows: number[]; usable: number }[] = [];
    let cur: number[] = [];
    let usable = 0;
    let seen = 0;
    for (const r of all) {
      if (seen === n) break;
      cur.push(...r);
      if (r[0] === 1 && ++usable === Math.min(SUPER_ROWS, n - seen)) {
        expected.push({ rows: cur, usable });
        seen += usable;
        cur = [];
        usable = 0;
      }
    }
    // the reader hands out blocks of 1000 rows in one reused buffer, as fileRows does
    function* blocks(): Generator<Float32Array> {
      const buf = new Float32Array(1000 * W);
      for (let at = 0; at < all.length; at += 1000) {
        const part = all.slice(at, at + 1000);
        part.forEach((r, i) => buf.set(r, i * W));
        yield buf.subarray(0, part.length * W);
      }
    }
    const got = [...superBlockRows(blocks(), W, n)];
    expect(got.map((b) => b.usable)).toEqual([SUPER_ROWS, SUPER_ROWS, 100]);
    expect(got.map((b) => b.rows.length)).toEqual(expected.map((b) => b.rows.length));
    got.forEach((b, i) => expect(Array.from(b.rows)).toEqual(expected[i]!.rows));
    expect(() => [...superBlockRows(blocks(), W, n + 1)]).toThrow(RangeError);
  });
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

/** Sums of resamples [from, to) of in-memory rows [valid, ...stats] (one pass, every column gathered). */
function resample(rows: Float32Array, width: number, seed: number, from: number, to: number): Float64Array {
  let n = 0;
  for (let at = 0; at < rows.length; at += width) if (rows[at] === 1) n++;
  const acc = new ResampleAccumulator(
    [n],
    Array.from({ length: width - 1 }, (_, j) => 1 + j),
    1,
    seed,
    from,
    to,
  );
  for (let at = 0; at < rows.length; at += width) if (rows[at] === 1) acc.add(0, rows, at);
  return acc.finish();
}

describe("resampling", () => {
  it("each resample depends only on (seed, index): splitting the resamples does not matter", () => {
    const n = 1300; // three blocks, the last one partial
    const width = 4;
    const rows = new Float32Array(n * width);
    for (let i = 0; i < n; i++) {
      rows[i * width] = i % 17 === 0 ? 0 : 1; // some invalid rows
      for (let j = 1; j < width; j++) rows[i * width + j] = (i * 7 + j * 3) % 11;
    }
    const all = resample(rows, width, 99, 0, 50);
    const split = new Float64Array(all.length);
    split.set(resample(rows, width, 99, 0, 7), 0);
    split.set(resample(rows, width, 99, 7, 50), 7 * 3);
    expect(split).toEqual(all);
    expect(resample(rows, width, 100, 0, 50)).not.toEqual(all);
  });

  it("each resample draws exactly n rows, multinomially over the blocks and within them", () => {
    const n = 1500; // blocks of 512, 512, 476
    const rows = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      rows[i * 4] = 1;
      rows[i * 4 + 1] = 1; // every draw
      rows[i * 4 + 2] = i < BLOCK_ROWS ? 1 : 0; // draws in the first block
      rows[i * 4 + 3] = i === 1000 ? 1 : 0; // draws of one row
    }
    const B = 4000;
    const s = resample(rows, 4, 5, 0, B);
    let m1 = 0;
    let v1 = 0;
    let m2 = 0;
    let v2 = 0;
    let drawn = 0;
    for (let b = 0; b < B; b++) {
      if (s[b * 3] === n) drawn++;
      m1 += s[b * 3 + 1]!;
      v1 += s[b * 3 + 1]! ** 2;
      m2 += s[b * 3 + 2]!;
      v2 += s[b * 3 + 2]! ** 2;
    }
    expect(drawn).toBe(B);
    m1 /= B;
    v1 = v1 / B - m1 * m1;
    m2 /= B;
    v2 = v2 / B - m2 * m2;
    // block total ~ Binomial(n, 512/n); one row's count ~ Binomial(n, 1/n)
    const p = BLOCK_ROWS / n;
    expect(Math.abs(m1 - n * p)).toBeLessThan(5 * Math.sqrt((n * p * (1 - p)) / B));
    expect(v1 / (n * p * (1 - p))).toBeGreaterThan(0.9);
    expect(v1 / (n * p * (1 - p))).toBeLessThan(1.1);
    expect(Math.abs(m2 - 1)).toBeLessThan(5 * Math.sqrt(1 / B));
    expect(v2).toBeGreaterThan(0.9);
    expect(v2).toBeLessThan(1.1);
  });

  it("over several super-blocks: exactly n draws, multinomial over super-blocks, blocks and rows", () => {
    const n = 2 * SUPER_ROWS + 4464; // super-blocks of 32768, 32768 and 4464 rows
    const rows = new Float32Array(n * 5);
    for (let i = 0; i < n; i++) {
      rows[i * 5] = 1;
      rows[i * 5 + 1] = 1; // every draw
      rows[i * 5 + 2] = i < SUPER_ROWS ? 1 : 0; // draws in the first super-block
      rows[i * 5 + 3] = i >= 70 * BLOCK_ROWS && i < 71 * BLOCK_ROWS ? 1 : 0; // draws in one block of the second
      rows[i * 5 + 4] = i === n - 3 ? 1 : 0; // draws of one row of the last
    }
    const B = 1500;
    const s = resample(rows, 5, 8, 0, B);
    const moments = (j: number) => {
      let m = 0;
      let v = 0;
      for (let b = 0; b < B; b++) {
        m += s[b * 4 + j]!;
        v += s[b * 4 + j]! ** 2;
      }
      m /= B;
      return { m, v: v / B - m * m };
    };
    for (let b = 0; b < B; b++) expect(s[b * 4]).toBe(n);
    for (const [j, p] of [
      [1, SUPER_ROWS / n],
      [2, BLOCK_ROWS / n],
      [3, 1 / n],
    ] as const) {
      const { m, v } = moments(j);
      const mu = n * p;
      const sigma2 = n * p * (1 - p);
      expect(Math.abs(m - mu)).toBeLessThan(5 * Math.sqrt(sigma2 / B));
      expect(v / sigma2).toBeGreaterThan(0.88);
      expect(v / sigma2).toBeLessThan(1.12);
    }
  });

  it("super-block jobs (any resample split, any order of completion) add up to the one-pass sums, bit for bit", () => {
    const n = 2 * SUPER_ROWS + 1000;
    const width = 4;
    const C = width - 1;
    const rows = new Float32Array(n * width);
    for (let i = 0; i < n; i++) {
      rows[i * width] = 1;
      rows[i * width + 1] = i % 9; // integers
      rows[i * width + 2] = Math.fround(Math.sin(i) * 0.5 + 0.5); // floats: the order of additions shows
      rows[i * width + 3] = Math.fround(1 / (i + 1));
    }
    const B = 30;
    const all = resample(rows, width, 77, 0, B);
    const gathered = (s: number) => {
      const from = s * SUPER_ROWS;
      const to = Math.min(n, from + SUPER_ROWS);
      const g = new Float64Array((to - from) * C);
      for (let r = from; r < to; r++) for (let j = 0; j < C; j++) g[(r - from) * C + j] = rows[r * width + 1 + j]!;
      return g;
    };
    for (const cut of [
      [0, B],
      [0, 11, B],
      [0, 1, 2, 29, B],
    ]) {
      const totals = new Float64Array(B * C);
      for (let i = 0; i + 1 < cut.length; i++) {
        const [from, to] = [cut[i]!, cut[i + 1]!];
        const K = to - from;
        const counts = superBlockCounts(n, 77, from, to);
        // computed last super-block first (as workers may finish), added in super-block order
        const parts = [2, 1, 0].map((s) => ({ s, sums: superBlockSums(gathered(s), C, 77, from, s, counts.subarray(s * K, (s + 1) * K)) }));
        for (const { sums } of parts.sort((a, b) => a.s - b.s)) addSuperBlock(totals, from * C, sums, 0, K * C);
      }
      expect(totals).toEqual(all);
    }
  });

  it("the WebAssembly SIMD kernels (register variants and the generic one) and the JS kernel give bit-identical sums", () => {
    const n = 1400;
    for (const extra of [0, 60]) {
      // extra integer columns push the accumulators beyond the register variants (generic kernel)
      const width = 8 + extra;
      const rows = new Float32Array(n * width);
      for (let i = 0; i < n; i++) {
        const at = i * width;
        rows[at] = i % 13 === 0 ? 0 : 1;
        rows[at + 1] = i % 7; // small integers
        rows[at + 2] = Math.fround(Math.sin(i) * 0.5 + 0.5); // floats
        rows[at + 3] = i < 600 ? 1 : 0.25; // integers in the first block only
        rows[at + 4] = i > 1100 ? 3e6 : 2; // large integers in the last block (i32 guard)
        rows[at + 5] = -(i % 5); // negative integers
        rows[at + 6] = Math.fround(1 / (i + 1));
        rows[at + 7] = 2 ** 25; // beyond f32's exact integers in i32 lanes: summed as floats
        for (let j = 0; j < extra; j++) rows[at + 8 + j] = (i * (j + 3)) % 17;
      }
      const fast = resample(rows, width, 21, 0, 40);
      useSimdKernel(false);
      try {
        expect(resample(rows, width, 21, 0, 40)).toEqual(fast);
      } finally {
        useSimdKernel(true);
      }
    }
  });

  it("binomial sampler: mean and variance of Binomial(m, p), small and large", () => {
    for (const [m, p] of [
      [10, 0.3],
      [1000, 0.001],
      [5000, 0.5],
      [100000, 0.0051],
    ] as const) {
      const rng = new Xoshiro128(7, m);
      const N = 20000;
      let mean = 0;
      let sq = 0;
      let outside = 0;
      for (let i = 0; i < N; i++) {
        const x = binomial(rng, m, p);
        if (!(x >= 0 && x <= m && Number.isInteger(x))) outside++;
        mean += x;
        sq += x * x;
      }
      expect(outside).toBe(0);
      mean /= N;
      const v = sq / N - mean * mean;
      const mu = m * p;
      const sigma2 = m * p * (1 - p);
      expect(Math.abs(mean - mu)).toBeLessThan(5 * Math.sqrt(sigma2 / N));
      expect(v / sigma2).toBeGreaterThan(0.93);
      expect(v / sigma2).toBeLessThan(1.07);
    }
    expect(logFactorial(200)).toBeCloseTo(863.2319871924054, 10);
    expect(logFactorial(63)).toBeCloseTo(201.00931639928152, 10);
  });
});

describe("bootstrap confidence intervals", () => {
  let a: ScoreSummary;

  beforeAll(async () => {
    a = await scoreFile({
      input,
      output: join(dir, "a.jsonl"),
      metrics: ["bleu", "rougeL", "tokenF1"],
      workers: 1,
      bootstrap: { resamples: 300, seed: 7 },
    });
  });

  it("is deterministic for a seed, whatever the worker count", async () => {
    const b = await scoreFile({
      input,
      output: join(dir, "b.jsonl"),
      metrics: ["bleu", "rougeL", "tokenF1"],
      workers: 2,
      bootstrap: { resamples: 300, seed: 7 },
    });
    expect(b.metrics.bleu!.ci).toEqual(a.metrics.bleu!.ci);
    expect(b.metrics.tokenF1!.ci).toEqual(a.metrics.tokenF1!.ci);
    const c = await scoreFile({
      input,
      output: join(dir, "c.jsonl"),
      metrics: ["bleu", "rougeL", "tokenF1"],
      workers: 2,
      bootstrap: { resamples: 300, seed: 8 },
    });
    expect(c.metrics.bleu!.ci!.bleu!.ci).not.toBe(a.metrics.bleu!.ci!.bleu!.ci);
  });

  it("reports the bootstrap phase through onPhaseProgress (done 0, then up to all resamples) with the same CIs", async () => {
    const seen: { phase: string; done: number; total: number }[] = [];
    const d = await scoreFile({
      input,
      output: join(dir, "d.jsonl"),
      metrics: ["bleu", "rougeL", "tokenF1"],
      workers: 2,
      bootstrap: { resamples: 300, seed: 7 },
      onPhaseProgress: (p) => seen.push({ ...p }),
    });
    expect(d.metrics.bleu!.ci).toEqual(a.metrics.bleu!.ci);
    expect(d.metrics.rougeL!.ci).toEqual(a.metrics.rougeL!.ci);
    expect(seen[0]).toEqual({ phase: "bootstrap", done: 0, total: 300 });
    expect(seen.at(-1)).toEqual({ phase: "bootstrap", done: 300, total: 300 });
    expect(seen.length).toBeGreaterThan(2); // the resamples are cut finer than one range per worker, so progress moves
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.done).toBeGreaterThan(seen[i - 1]!.done);
  });

  it("brackets the corpus score, with the width the normal approximation predicts for a mean", () => {
    for (const [m, s] of [
      ["bleu", "bleu"],
      ["rougeL", "rougeL"],
      ["tokenF1", "tokenF1"],
    ] as const) {
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
    const { rows, summary } = await scoreRows(pairs, {
      metrics: ["bleu", "rougeL", "tokenF1"],
      workers: 2,
      chunkRows: 300,
      bootstrap: { resamples: 300, seed: 7 },
    });
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
    writeFileSync(
      near,
      pairs.map((p, i) => JSON.stringify({ hyp: i === 5 || i === 900 ? `${p.hyp} extra` : p.hyp, refs: p.refs })).join("\n") + "\n",
    );
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

describe("several systems against one baseline (sacreBLEU -i base sys1 sys2 --paired-bs)", () => {
  it("tests each system against the baseline alone, on the same resampled rows", async () => {
    const metrics = ["bleu", "chrf"] as const;
    const base = await scoreFile({ input, output: join(dir, "nbase.jsonl"), metrics, workers: 2, keepStatistics: true });
    const better = join(dir, "nbetter.jsonl");
    writeFileSync(better, pairs.map((p, i) => JSON.stringify({ hyp: i % 3 === 0 ? p.refs[0] : p.hyp, refs: p.refs })).join("\n") + "\n");
    const sysBetter = await scoreFile({ input: better, output: join(dir, "nbetter.out.jsonl"), metrics, workers: 2, keepStatistics: true });
    // the baseline's own hypotheses again: a system equal to the baseline
    const same = await scoreFile({ input, output: join(dir, "nsame.jsonl"), metrics, workers: 1, keepStatistics: true });
    const B = 200;
    const [rBetter, rSame, ...rest] = await pairedTests({ baseline: base, systems: [sysBetter, same], resamples: B, workers: 2 });
    expect(rest).toEqual([]);
    // each system's result is the two-system test of (baseline, system): sacreBLEU seeds every system's test alike
    expect(rBetter).toEqual(await pairedTest({ baseline: base, system: sysBetter, resamples: B, workers: 1 }));
    expect(rBetter!.metrics.bleu!.bleu!.pValue).toBe(1 / (B + 1));
    // equal systems: Δ = 0 and every resampled |Δ*| − mean|Δ*| is 0, never > 0, so p = (0 + 1)/(B + 1) (sacreBLEU's
    // "a zero difference should not be attributed to chance"); the baseline's CI is the same in both tests
    for (const m of metrics) {
      const r = rSame!.metrics[m]![m]!;
      expect(r.difference).toBe(0);
      expect(r.system.score).toBe(r.baseline.score);
      expect(r.pValue).toBe(1 / (B + 1));
      expect(r.baseline).toEqual(rBetter!.metrics[m]![m]!.baseline);
    }
    await expect(pairedTests({ baseline: base, systems: [] })).rejects.toThrow(/at least one system/);
  });
});

describe("pinned resamples (seed 12345, 1000 resamples: sacreBLEU's defaults)", () => {
  it("gives these exact intervals on a fixed input, for 1, 2 and 4 workers", async () => {
    const small = makePairs(dir, 11, 300, true);
    const metrics = ["bleu", "chrf", "rougeL", "tokenF1"] as const;
    const runs: ScoreSummary[] = [];
    for (const workers of [1, 2, 4])
      runs.push(
        await scoreFile({
          input: small,
          output: join(dir, `pinned-${workers}.jsonl`),
          metrics,
          workers,
          chunkBytes: 4096 * workers,
          bootstrap: true,
        }),
      );
    for (const r of runs.slice(1)) for (const m of metrics) expect(r.metrics[m]!.ci).toEqual(runs[0]!.metrics[m]!.ci);
    const got = Object.fromEntries(metrics.map((m) => [m, runs[0]!.metrics[m]!.ci![m]]));
    expect(got).toEqual(PINNED);
    // the library function gives the same from the summary, with any worker count
    expect((await bootstrapCi(runs[0]!, { workers: 3 })).bleu!.bleu).toEqual(PINNED.bleu);
  });
});

describe("slices", () => {
  it("per-slice corpus scores and CIs; a slice holding every row is the whole corpus", async () => {
    const small = makePairs(dir, 12, 400, false); // with edge cases: some bad rows
    const rows = readJsonl(readFileSync(small, "utf8"));
    const run = await scoreFile({
      input: small,
      output: join(dir, "slices.jsonl"),
      metrics: ["bleu", "rougeL"],
      workers: 2,
      bootstrap: { resamples: 200 },
    });
    expect(run.rows.records).toBe(rows.length);
    const res = await sliceScores(
      run,
      { lang: rows.map((r) => r.lang as string), all: rows.map(() => "all"), none: rows.map(() => null) },
      { bootstrap: { resamples: 200 }, workers: 2 },
    );
    expect(res.none).toEqual([]);
    const all = res.all![0]!;
    expect(all.rows).toBe(run.rows.records);
    expect(all.scored).toBe(run.rows.scored);
    expect(all.scores.bleu!.bleu).toBe(run.metrics.bleu!.scores.bleu);
    // statistics files are f32, the summary sums f64 values
    expect(all.scores.rougeL!.rougeL).toBeCloseTo(run.metrics.rougeL!.scores.rougeL!, 7);
    expect(all.ci).toEqual({ bleu: run.metrics.bleu!.ci, rougeL: run.metrics.rougeL!.ci });
    const langs = res.lang!;
    expect(langs.reduce((a, s) => a + s.rows, 0)).toBe(rows.length);
    expect(langs.map((s) => s.rows)).toEqual([...langs.map((s) => s.rows)].sort((a, b) => b - a));
    // a slice is scored from its own summed statistics: equal to scoring that slice alone
    const en = langs.find((s) => s.value === "en")!;
    const enFile = join(dir, "en.jsonl");
    writeFileSync(
      enFile,
      rows
        .filter((r) => r.lang === "en")
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const enRun = await scoreFile({
      input: enFile,
      output: join(dir, "en.out.jsonl"),
      metrics: ["bleu", "rougeL"],
      workers: 1,
      bootstrap: { resamples: 200 },
    });
    expect(en.scores.bleu!.bleu).toBe(enRun.metrics.bleu!.scores.bleu);
    expect(en.ci!.bleu).toEqual(enRun.metrics.bleu!.ci);
    await expect(sliceScores(run, { lang: ["en"] })).rejects.toThrow(/statistics rows/);
  });

  it("the paired test per slice: a slice of every row repeats the whole test", async () => {
    const metrics = ["bleu"] as const;
    const base = await scoreFile({ input, output: join(dir, "pbase.jsonl"), metrics, workers: 2, keepStatistics: true });
    const better = join(dir, "pbetter.jsonl");
    writeFileSync(better, pairs.map((p, i) => JSON.stringify({ hyp: i % 4 === 0 ? p.refs[0] : p.hyp, refs: p.refs })).join("\n") + "\n");
    const sys = await scoreFile({ input: better, output: join(dir, "pbetter.out.jsonl"), metrics, workers: 2, keepStatistics: true });
    const r = await pairedTest({
      baseline: base,
      system: sys,
      resamples: 150,
      workers: 2,
      slices: { all: pairs.map(() => "x"), parity: pairs.map((_, i) => (i % 2 ? "odd" : "even")) },
    });
    expect(r.slices!.all![0]!.rows).toBe(r.rows);
    expect(r.slices!.all![0]!.metrics).toEqual(r.metrics);
    expect(r.slices!.parity!.map((s) => s.value).sort()).toEqual(["even", "odd"]);
    expect(r.slices!.parity![0]!.metrics.bleu!.bleu!.difference).toBeGreaterThan(3);
  });
});
