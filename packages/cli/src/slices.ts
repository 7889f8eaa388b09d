// Corpus scores of subsets of a scored run (slices such as `lang`), from the bulk scorer's per-row
// statistics file: the statistics of a slice's rows are summed and scored like the whole corpus
// (BLEU/chrF from summed counts, the other metrics as means), and a paired bootstrap compares two
// systems on each slice.
//
// The statistics layout (per metric: `offset`, `width` in the summary; f32 rows [valid, ...stats]) and
// the corpus rules are the harness's; `checkAgainstSummary` recomputes the whole corpus this way and
// compares it with the harness's own corpus scores, so a layout change is caught instead of printed.
import { openSync, readSync, closeSync, fstatSync } from "node:fs";
import { bleuScoresFromStatisticsBatch, chrfScoresFromStatisticsBatch, ready, type BleuOptions, type ChrfOptions } from "@evalkern/core-wasm";
import { estimateCi, pairedBootstrapPValue, type ConfidenceInterval, type ScoreSummary } from "@evalkern/harness";

type NormalizedSpec = ScoreSummary["metricSpecs"][number];

/** One metric's statistics columns and how to score them. */
export interface SliceMetric {
  readonly name: string;
  /** Score names, in order (the scorer's columns). */
  readonly scoreNames: readonly string[];
  readonly offset: number;
  readonly width: number;
  readonly spec: NormalizedSpec;
}

export function sliceMetrics(summary: ScoreSummary): SliceMetric[] {
  return summary.metricSpecs.map((spec) => {
    const m = summary.metrics[spec.name]!;
    return { name: spec.name, scoreNames: Object.keys(m.scores), offset: m.offset, width: m.width, spec };
  });
}

/**
 * Corpus scores of `k` rows of summed statistics (`sums`: k × totalWidth, over `counts[j]` rows each):
 * metric → score name → k values.
 */
export function corpusFromSums(metrics: readonly SliceMetric[], sums: Float64Array, k: number, counts: ArrayLike<number>): Record<string, Record<string, Float64Array>> {
  const total = metrics.reduce((a, m) => a + m.width, 0);
  const out: Record<string, Record<string, Float64Array>> = {};
  for (const m of metrics) {
    const block = new Float64Array(k * m.width);
    for (let j = 0; j < k; j++) block.set(sums.subarray(j * total + m.offset, j * total + m.offset + m.width), j * m.width);
    const per: Record<string, Float64Array> = {};
    const mean = (col: number) => {
      const v = new Float64Array(k);
      for (let j = 0; j < k; j++) v[j] = counts[j]! > 0 ? block[j * m.width + col]! / counts[j]! : 0;
      return v;
    };
    switch (m.spec.metric) {
      case "bleu": {
        const o = m.spec.options as BleuOptions;
        per[m.scoreNames[0]!] = bleuScoresFromStatisticsBatch(block, { ...o, effectiveOrder: o.effectiveOrder ?? false });
        break;
      }
      case "chrf":
        per[m.scoreNames[0]!] = chrfScoresFromStatisticsBatch(block, m.spec.options as ChrfOptions);
        break;
      case "rouge":
        // per type: precision, recall, F-measure; the score is the mean F-measure
        m.scoreNames.forEach((name, t) => (per[name] = mean(3 * t + 2)));
        break;
      case "tokenF1":
        per[m.scoreNames[0]!] = mean(0); // f1, precision, recall
        break;
      default:
        m.scoreNames.forEach((name, c) => (per[name] = mean(c)));
    }
    out[m.name] = per;
  }
  return out;
}

/** Reads the f32 statistics rows in order, block by block. */
export class StatisticsReader {
  private readonly fds: number[];
  private file = 0;
  private pos = 0;
  readonly rowWidth: number;

  constructor(files: readonly string[], rowWidth: number) {
    this.fds = files.map((f) => openSync(f, "r"));
    this.rowWidth = rowWidth;
  }

  /** The next `rows` rows (fewer at the end; empty when done). */
  read(rows: number): Float32Array {
    const bytes = rows * this.rowWidth * 4;
    const buf = Buffer.alloc(bytes);
    let filled = 0;
    while (filled < bytes && this.file < this.fds.length) {
      const fd = this.fds[this.file]!;
      const got = readSync(fd, buf, filled, bytes - filled, this.pos);
      if (got === 0) {
        this.file++;
        this.pos = 0;
        continue;
      }
      filled += got;
      this.pos += got;
    }
    const whole = filled - (filled % (this.rowWidth * 4));
    const out = new Float32Array(whole / 4);
    for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(i * 4);
    return out;
  }

  get totalRows(): number {
    let bytes = 0;
    for (const fd of this.fds) bytes += fstatSync(fd).size;
    return Math.floor(bytes / 4 / this.rowWidth);
  }

  close(): void {
    for (const fd of this.fds) closeSync(fd);
  }
}

/** Per-slice sums: slice value → sums over valid rows, their count, and (optionally) the rows themselves. */
export interface SliceAccumulator {
  readonly sums: Map<string, { sums: Float64Array; count: number; rows: number }>;
}

export function newAccumulator(): SliceAccumulator {
  return { sums: new Map() };
}

export function accumulate(acc: SliceAccumulator, key: string, row: Float32Array, at: number, rowWidth: number): void {
  let e = acc.sums.get(key);
  if (!e) {
    e = { sums: new Float64Array(rowWidth - 1), count: 0, rows: 0 };
    acc.sums.set(key, e);
  }
  e.rows++;
  if (row[at] !== 1) return;
  e.count++;
  for (let j = 1; j < rowWidth; j++) e.sums[j - 1]! += row[at + j]!;
}

/** Corpus scores of each slice: value → metric → score name → score. */
export async function sliceScores(metrics: readonly SliceMetric[], acc: SliceAccumulator): Promise<Map<string, { rows: number; scored: number; scores: Record<string, Record<string, number>> }>> {
  await ready();
  const keys = [...acc.sums.keys()];
  const total = metrics.reduce((a, m) => a + m.width, 0);
  const sums = new Float64Array(keys.length * total);
  const counts = new Float64Array(keys.length);
  keys.forEach((k, j) => {
    const e = acc.sums.get(k)!;
    sums.set(e.sums, j * total);
    counts[j] = e.count;
  });
  const scores = corpusFromSums(metrics, sums, keys.length, counts);
  const out = new Map<string, { rows: number; scored: number; scores: Record<string, Record<string, number>> }>();
  keys.forEach((k, j) => {
    const per: Record<string, Record<string, number>> = {};
    for (const m of metrics) {
      per[m.name] = {};
      for (const s of m.scoreNames) per[m.name]![s] = scores[m.name]![s]![j]!;
    }
    const e = acc.sums.get(k)!;
    out.set(k, { rows: e.rows, scored: e.count, scores: per });
  });
  return out;
}

/**
 * Recompute the whole corpus from `total` (summed over every valid row) and compare it with the
 * harness's corpus scores; false when any differs by more than 1e-6 (relative), i.e. when this module's
 * reading of the statistics layout no longer matches the harness.
 */
export async function checkAgainstSummary(metrics: readonly SliceMetric[], summary: ScoreSummary, total: { sums: Float64Array; count: number }): Promise<boolean> {
  await ready();
  const scores = corpusFromSums(metrics, total.sums, 1, [total.count]);
  for (const m of metrics) {
    for (const s of m.scoreNames) {
      const want = summary.metrics[m.name]!.scores[s]!;
      const got = scores[m.name]![s]![0]!;
      if (Math.abs(want - got) > 1e-6 * Math.max(1, Math.abs(want))) return false;
    }
  }
  return true;
}

// ------------------------------------------------------------------------ paired bootstrap on a slice

/** mulberry32: a small seeded generator (the harness's own generator is internal to it). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SlicePaired {
  readonly baseline: { readonly score: number; readonly ci: ConfidenceInterval };
  readonly system: { readonly score: number; readonly ci: ConfidenceInterval };
  readonly difference: number;
  readonly pValue: number;
}

/**
 * sacreBLEU's paired bootstrap test on one slice: `a` and `b` hold the slice's rows valid in both
 * systems (n × width statistics each, without the validity flag). Returns metric → score name → result.
 */
export async function pairedSlice(metrics: readonly SliceMetric[], a: Float32Array, b: Float32Array, n: number, resamples: number, seed: number): Promise<Record<string, Record<string, SlicePaired>>> {
  await ready();
  const W = metrics.reduce((s, m) => s + m.width, 0);
  const sumsA = new Float64Array((resamples + 1) * W);
  const sumsB = new Float64Array((resamples + 1) * W);
  // row 0: the real slice; rows 1..B: resamples
  for (let i = 0; i < n; i++) for (let j = 0; j < W; j++) (sumsA[j]! += a[i * W + j]!), (sumsB[j]! += b[i * W + j]!);
  const next = rng(seed);
  const counts = new Uint32Array(n);
  for (let r = 1; r <= resamples; r++) {
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[Math.floor(next() * n)]!++;
    const o = r * W;
    for (let i = 0; i < n; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      for (let j = 0; j < W; j++) (sumsA[o + j]! += c * a[i * W + j]!), (sumsB[o + j]! += c * b[i * W + j]!);
    }
  }
  const countsAll = new Float64Array(resamples + 1).fill(n);
  const sa = corpusFromSums(metrics, sumsA, resamples + 1, countsAll);
  const sb = corpusFromSums(metrics, sumsB, resamples + 1, countsAll);
  const out: Record<string, Record<string, SlicePaired>> = {};
  for (const m of metrics) {
    out[m.name] = {};
    for (const s of m.scoreNames) {
      const va = sa[m.name]![s]!;
      const vb = sb[m.name]![s]!;
      const ra = va.subarray(1);
      const rb = vb.subarray(1);
      out[m.name]![s] = {
        baseline: { score: va[0]!, ci: estimateCi(ra, seed) },
        system: { score: vb[0]!, ci: estimateCi(rb, seed) },
        difference: vb[0]! - va[0]!,
        pValue: pairedBootstrapPValue(ra, rb, Math.abs(vb[0]! - va[0]!)),
      };
    }
  }
  return out;
}
