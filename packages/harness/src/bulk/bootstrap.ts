// Bootstrap resampling of segment statistics (sacreBLEU's `significance.py`): each resample draws n
// rows with replacement, sums their statistics and scores the sum with the metric's corpus function.
// `estimateCi` and the paired bootstrap p-value follow sacreBLEU (`estimate_ci`, `_paired_bs_test`,
// `_compute_p_value`). The random stream of resample b depends only on (seed, b), so results are the
// same whatever the number of workers or the batching. (sacreBLEU draws with numpy's default_rng; the
// generator here is xoshiro128**, so individual resamples differ from sacreBLEU's, not the method.)
import { Xoshiro128 } from "./rng.js";

/** sacreBLEU's default seed (`SACREBLEU_SEED`) and resample count. */
export const DEFAULT_SEED = 12345;
export const DEFAULT_RESAMPLES = 1000;

/** Rows laid out as [valid flag, ...statistics]; a block holds whole rows. */
export interface RowBlocks {
  readonly rowWidth: number;
  /** Blocks of `blockRows` rows (the last may be shorter), in row order. */
  blocks(blockRows: number): Iterable<Float32Array | Float64Array>;
}

/**
 * Summed statistics of resamples [from, to): returns (to - from) × sources × (rowWidth - 1) f64.
 * With two sources (paired test) the same resampled rows are used for both, and a row is usable only
 * when valid in both; `n` is the number of usable rows.
 */
export function resampleSums(sources: readonly RowBlocks[], n: number, seed: number, from: number, to: number, blockRows = 8192): Float64Array {
  const S = sources.length;
  const rowWidth = sources[0]!.rowWidth;
  const W = rowWidth - 1;
  const K = to - from;
  const sums = new Float64Array(K * S * W);
  if (n === 0 || K <= 0) return sums;
  const counts = new Uint16Array(K * n);
  for (let k = 0; k < K; k++) {
    const rng = new Xoshiro128(seed, from + k);
    const base = k * n;
    for (let j = 0; j < n; j++) counts[base + rng.below(n)]!++;
  }
  const iterators = sources.map((s) => s.blocks(blockRows)[Symbol.iterator]());
  let v = 0;
  for (;;) {
    const blocks = iterators.map((it) => it.next());
    if (blocks.some((b) => b.done)) break;
    const data = blocks.map((b) => b.value as Float32Array | Float64Array);
    const rows = data[0]!.length / rowWidth;
    for (let r = 0; r < rows; r++) {
      const at = r * rowWidth;
      let usable = true;
      for (let s = 0; s < S; s++) if (data[s]![at] !== 1) usable = false;
      if (!usable) continue;
      for (let k = 0; k < K; k++) {
        const c = counts[k * n + v]!;
        if (c === 0) continue;
        for (let s = 0; s < S; s++) {
          const row = data[s]!;
          const o = (k * S + s) * W;
          for (let j = 0; j < W; j++) sums[o + j]! += c * row[at + 1 + j]!;
        }
      }
      v++;
    }
  }
  return sums;
}

/** In-memory rows as a `RowBlocks` source. */
export function memoryRows(rows: Float32Array | Float64Array, rowWidth: number): RowBlocks {
  return {
    rowWidth,
    *blocks(blockRows: number) {
      const step = blockRows * rowWidth;
      for (let i = 0; i < rows.length; i += step) yield rows.subarray(i, Math.min(rows.length, i + step));
    },
  };
}

export interface ConfidenceInterval {
  /** Mean of the bootstrap scores. */
  readonly mean: number;
  /** Half-width of the 95% interval (sacreBLEU's `ci`, printed as `μ ± ci`). */
  readonly ci: number;
  /** 2.5th and 97.5th percentile scores (sacreBLEU's index rule: the ⌊B/40⌋-th from each end). */
  readonly lower: number;
  readonly upper: number;
  readonly resamples: number;
  readonly seed: number;
}

/** sacreBLEU `estimate_ci`. */
export function estimateCi(scores: ArrayLike<number>, seed: number): ConfidenceInterval {
  const sorted = Float64Array.from(scores).sort();
  const B = sorted.length;
  const lowerIdx = Math.floor(B / 40);
  const upperIdx = B - lowerIdx - 1;
  let sum = 0;
  for (let i = 0; i < B; i++) sum += sorted[i]!;
  const lower = sorted[lowerIdx]!;
  const upper = sorted[upperIdx]!;
  return { mean: B ? sum / B : 0, ci: 0.5 * (upper - lower), lower, upper, resamples: B, seed };
}

/**
 * sacreBLEU `_paired_bs_test` p-value: the absolute differences of the resampled scores, centred on
 * their mean, compared with the real absolute difference; p = (count(> real) + 1) / (B + 1).
 */
export function pairedBootstrapPValue(baseline: ArrayLike<number>, system: ArrayLike<number>, realDifference: number): number {
  const B = baseline.length;
  const diffs = new Float64Array(B);
  let mean = 0;
  for (let b = 0; b < B; b++) {
    diffs[b] = Math.abs(system[b]! - baseline[b]!);
    mean += diffs[b]!;
  }
  mean /= B;
  let c = 0;
  for (let b = 0; b < B; b++) if (diffs[b]! - mean > realDifference) c++;
  return (c + 1) / (B + 1);
}
