// Bootstrap resampling of segment statistics (sacreBLEU's `significance.py`): each resample draws n
// rows with replacement, sums their statistics and scores the sum with the metric's corpus function.
// `estimateCi` and the paired bootstrap p-value follow sacreBLEU (`estimate_ci`, `_paired_bs_test`,
// `_compute_p_value`).
//
// All resamples are accumulated in ONE row-major pass over the statistics, with bounded memory and no
// resamples × rows count matrix. The usable rows are cut into blocks of `BLOCK_ROWS` consecutive rows,
// and the blocks into super-blocks of `SUPER_BLOCKS` blocks. For resample b, the number of its n draws
// that fall into super-block s is drawn sequentially with conditional binomials,
// T_b,s ~ Binomial(remaining_b, |super-block s| / (rows not yet passed)); inside super-block s the same
// rule splits T_b,s over its blocks (T_b,k), and the T_b,k draws of block k are uniform over its rows.
// Conditional binomials give exactly the multinomial distribution at each level, so each resample is
// exactly "n rows drawn uniformly with replacement", as numpy's `rng.choice(n, n)` in sacreBLEU, while the
// pass only keeps one block of rows in memory. Only the columns the corpus scores read are gathered
// (`BulkMetric.corpusColumns`).
//
// Random streams (xoshiro128**, seeded by SplitMix32): one per resample for its super-block counts, one
// per (resample, super-block) for the block counts inside it, one per (resample, block) for the draws
// inside the block. So a super-block's contribution to every resample depends only on its own rows and
// its T_b,s: a cluster ships each super-block with its counts to any worker (`superBlockCounts`,
// `superBlockSums`) and the producer adds the returned sums in super-block order. The sums are grouped
// the same way everywhere: each super-block's sums start from zero (blocks added in order), then the
// super-blocks are added to the resample's total in order. Results therefore do not depend on how
// resamples or super-blocks are spread over threads or machines, on chunking or on how the statistics
// are read. Integer statistics (BLEU/chrF counts) are summed exactly (integers < 2^53 in f64).
// sacreBLEU draws with numpy's PCG64; individual resamples therefore differ from sacreBLEU's for the
// same seed, not the method.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { RESAMPLE_MAX_VECTORS, RESAMPLE_WASM } from "./resample-wasm.js";
import { Xoshiro128, streamState } from "./rng.js";

/** sacreBLEU's default seed (`SACREBLEU_SEED`) and resample count. */
export const DEFAULT_SEED = 12345;
export const DEFAULT_RESAMPLES = 1000;

export interface BootstrapOptions {
  /** Resamples (default 1000, as sacreBLEU). */
  readonly resamples?: number;
  /** Seed (default 12345, sacreBLEU's SACREBLEU_SEED default). */
  readonly seed?: number;
}

/** Validated bootstrap options, or null when off. */
export function resolveBootstrap(b: boolean | BootstrapOptions | undefined): { resamples: number; seed: number } | null {
  if (b === undefined || b === false) return null;
  const o = b === true ? {} : b;
  if (typeof o !== "object" || o === null)
    throw new InvalidArgumentError("bootstrap must be true or { resamples, seed }", { argument: "bootstrap" });
  const resamples = o.resamples ?? DEFAULT_RESAMPLES;
  if (typeof resamples !== "number" || !Number.isSafeInteger(resamples) || resamples < 1) {
    throw new InvalidArgumentError("bootstrap.resamples must be a positive integer", { argument: "bootstrap.resamples" });
  }
  const seed = o.seed ?? DEFAULT_SEED;
  if (typeof seed !== "number" || !Number.isSafeInteger(seed))
    throw new InvalidArgumentError("bootstrap.seed must be a safe integer", { argument: "bootstrap.seed" });
  return { resamples, seed };
}

/** Rows per resampling block. Part of the method: changing it changes the resamples drawn for a seed. */
export const BLOCK_ROWS = 512;
/** Blocks per super-block (the unit of work a cluster ships). Part of the method, as `BLOCK_ROWS`. */
export const SUPER_BLOCKS = 64;
/** Usable rows per super-block (the last one of a group may be shorter). */
export const SUPER_ROWS = BLOCK_ROWS * SUPER_BLOCKS;

/** The stream domains of one resample (see the method comment): super-block counts, block counts, draws. */
const COUNTS = 0;
const BLOCK_COUNTS = 1;
const DRAWS = 2;

const TWO32 = 4294967296;
const TWO53 = 9007199254740992;

// ------------------------------------------------------------------------------- binomial sampling

const LF_TABLE: Float64Array = (() => {
  const t = new Float64Array(64);
  for (let k = 2; k < 64; k++) t[k] = t[k - 1]! + Math.log(k);
  return t;
})();
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** ln(k!) (a table below 64, Stirling's series above: relative error far below 1e-15). */
export function logFactorial(k: number): number {
  if (k < 64) return LF_TABLE[k]!;
  const x = k + 1;
  const x2 = x * x;
  return (x - 0.5) * Math.log(x) - x + HALF_LOG_2PI + (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x;
}

/** A uniform double in [0, 1) from 53 random bits of `rng`. */
function uniform(rng: Xoshiro128): number {
  const a = rng.next() >>> 5;
  const b = rng.next() >>> 6;
  return (a * 67108864 + b) / TWO53;
}

/**
 * Binomial(m, p) by inversion of the distribution searched outward from its mode (exact up to
 * floating-point rounding of the probabilities; O(sqrt(m p)) steps).
 */
export function binomial(rng: Xoshiro128, m: number, p: number): number {
  if (m <= 0 || p <= 0) return 0;
  if (p >= 1) return m;
  const q = 1 - p;
  const mode = Math.min(m, Math.floor((m + 1) * p));
  const pMode = Math.exp(logFactorial(m) - logFactorial(mode) - logFactorial(m - mode) + mode * Math.log(p) + (m - mode) * Math.log1p(-p));
  const up = p / q;
  const down = q / p;
  for (;;) {
    let u = uniform(rng) - pMode;
    if (u < 0) return mode;
    let hi = mode;
    let lo = mode;
    let ph = pMode;
    let pl = pMode;
    while (ph > 0 || pl > 0) {
      if (hi < m) {
        ph *= ((m - hi) / (hi + 1)) * up;
        hi++;
        u -= ph;
        if (u < 0) return hi;
      } else ph = 0;
      if (lo > 0) {
        pl *= (lo / (m - lo + 1)) * down;
        lo--;
        u -= pl;
        if (u < 0) return lo;
      } else pl = 0;
    }
    // the rounding residue of the probabilities (~1e-15) was drawn: draw again
  }
}

// ------------------------------------------------------------------------------ one-pass resampling

/**
 * The super-block counts T_b,s of resamples [from, from + K) over n usable rows, one super-block after
 * another: each resample's own stream splits its n draws by conditional binomials.
 */
export class SuperBlockCounter {
  private readonly rngs: Xoshiro128[] = [];
  private readonly remaining: Float64Array;
  private passed = 0;
  private index = 0;

  constructor(
    private readonly n: number,
    seed: number,
    from: number,
    private readonly K: number,
  ) {
    this.remaining = new Float64Array(K).fill(n);
    for (let k = 0; k < K; k++) this.rngs.push(new Xoshiro128(seed, from + k, COUNTS, 0));
  }

  /** Usable rows of the next super-block. */
  rows(): number {
    return Math.min(SUPER_ROWS, this.n - this.passed);
  }

  /** The K counts of the next super-block into `out`; returns the super-block's index. */
  next(out: Float64Array): number {
    const rows = this.rows();
    if (!(rows > 0)) throw new RangeError("bootstrap: no super-block left");
    const p = rows / (this.n - this.passed);
    for (let k = 0; k < this.K; k++) {
      const rem = this.remaining[k]!;
      const T = p >= 1 ? rem : binomial(this.rngs[k]!, rem, p);
      this.remaining[k] = rem - T;
      out[k] = T;
    }
    this.passed += rows;
    return this.index++;
  }
}

/** Super-blocks of a group of n usable rows. */
export function superBlocksOf(n: number): number {
  return Math.ceil(n / SUPER_ROWS);
}

/** T_b,s of resamples [from, to) for every super-block of n usable rows: super-blocks × (to − from), super-block-major. */
export function superBlockCounts(n: number, seed: number, from: number, to: number): Float64Array {
  const K = to - from;
  const S = superBlocksOf(n);
  const out = new Float64Array(S * K);
  const counter = new SuperBlockCounter(n, seed, from, K);
  for (let s = 0; s < S; s++) counter.next(out.subarray(s * K, (s + 1) * K));
  return out;
}

/**
 * One super-block's draws for resamples [from, from + K): `start` it with its counts T_b,s, then feed
 * its blocks in order (`block`); each resample's T_b,s is split over the blocks by conditional binomials
 * (one stream per resample and super-block) and drawn uniformly inside each block (one stream per
 * resample and block), summed into `out[at + k·C ..]` from zero.
 */
export class SuperBlockDraws {
  private readonly inner: Xoshiro128[] = [];
  private readonly left: Float64Array;
  private readonly state = new Uint32Array(4);
  private rowsLeft = 0;
  private blockIndex = 0;
  private out: Float64Array = new Float64Array(0);
  private at = 0;

  constructor(
    private readonly C: number,
    private readonly seed: number,
    private readonly from: number,
    private readonly K: number,
  ) {
    this.left = new Float64Array(K);
    for (let k = 0; k < K; k++) this.inner.push(new Xoshiro128(seed, from + k, BLOCK_COUNTS, 0));
  }

  /** Begin super-block `index` of `rows` usable rows, whose counts are `counts[0..K)`. */
  start(index: number, rows: number, counts: ArrayLike<number>, out: Float64Array, at: number): void {
    for (let k = 0; k < this.K; k++) {
      this.left[k] = counts[k]!;
      this.inner[k]!.reseed(this.seed, this.from + k, BLOCK_COUNTS, index);
    }
    this.rowsLeft = rows;
    this.blockIndex = index * SUPER_BLOCKS;
    this.out = out;
    this.at = at;
    out.fill(0, at, at + this.K * this.C);
  }

  /** The next block: `L` rows of C gathered values in `X`. */
  block(X: Float64Array, L: number): void {
    if (!(L > 0 && L <= this.rowsLeft))
      throw new RangeError(`bootstrap: a block of ${L} rows with ${this.rowsLeft} left in its super-block`);
    const C = this.C;
    const kernel = drawKernel(C);
    const p = L / this.rowsLeft;
    // Lemire's multiply-shift draw of a row in [0, L), rejecting the 2^32 mod L biased values
    const threshold = TWO32 % L;
    const st = this.state;
    const simd = packBlock(X, L, C);
    for (let k = 0; k < this.K; k++) {
      const rem = this.left[k]!;
      const T = p >= 1 ? rem : binomial(this.inner[k]!, rem, p);
      this.left[k] = rem - T;
      if (T === 0) continue;
      streamState(this.seed, this.from + k, DRAWS, this.blockIndex, st);
      const at = this.at + k * C;
      if (simd && T * simd.maxInt < 2 ** 31) simd.draw(T, L, threshold, st, this.out, at);
      else kernel(X, T, L, threshold, st, this.out, at);
    }
    this.rowsLeft -= L;
    this.blockIndex++;
  }
}

/**
 * What a cluster worker computes: the sums of super-block `index` for resamples [from, from + counts.length),
 * from its usable rows' gathered columns (`gathered`: rows × C, in row order) and its counts T_b,s.
 * Returns K × C sums, which the producer adds to the totals in super-block order.
 */
export function superBlockSums(
  gathered: Float64Array,
  C: number,
  seed: number,
  from: number,
  index: number,
  counts: ArrayLike<number>,
): Float64Array {
  const rows = gathered.length / C;
  if (!Number.isInteger(rows) || rows <= 0 || rows > SUPER_ROWS) throw new RangeError(`bootstrap: a super-block of ${rows} rows`);
  const K = counts.length;
  const out = new Float64Array(K * C);
  const d = new SuperBlockDraws(C, seed, from, K);
  d.start(index, rows, counts, out, 0);
  for (let r = 0; r < rows; r += BLOCK_ROWS) {
    const L = Math.min(BLOCK_ROWS, rows - r);
    d.block(gathered.subarray(r * C, (r + L) * C), L);
  }
  return out;
}

/** Add one super-block's K × C sums to the totals (the one order every runner adds them in). */
export function addSuperBlock(totals: Float64Array, at: number, part: Float64Array, partAt: number, length: number): void {
  for (let i = 0; i < length; i++) totals[at + i] = totals[at + i]! + part[partAt + i]!;
}

/**
 * Accumulates resamples [from, to) of one or more independent groups (the whole corpus, or slices) in
 * one pass. Feed every usable row once, in row order, with `add(group, ...)`; then `finish()` gives
 * the summed gathered columns: groups × (to − from) × columns f64.
 *
 * A row contributes `columns.length` values per source: the values at `at + columns[j]` of each source
 * row (the paired test passes two sources, so both systems see the same resampled rows).
 */
export class ResampleAccumulator {
  private readonly G: number;
  private readonly K: number;
  private readonly C: number;
  private readonly cols: Int32Array;
  private readonly sizes: Float64Array;
  private readonly started: Float64Array;
  private readonly fill: Int32Array;
  private readonly blocks: (Float64Array | undefined)[];
  private readonly counters: SuperBlockCounter[];
  private readonly draws: SuperBlockDraws[];
  private readonly counts: Float64Array;
  /** The current super-block's sums of each group (groups × K × C). */
  private readonly partial: Float64Array;
  readonly sums: Float64Array;

  /**
   * @param sizes usable rows of each group (n of its resamples)
   * @param columns offsets (within a source row) of the gathered columns
   * @param sources 1, or 2 for a paired test
   */
  constructor(sizes: ArrayLike<number>, columns: ArrayLike<number>, sources: number, seed: number, from: number, to: number) {
    this.G = sizes.length;
    this.K = Math.max(0, to - from);
    this.cols = Int32Array.from(columns);
    this.C = this.cols.length * sources;
    this.sizes = Float64Array.from(sizes);
    this.started = new Float64Array(this.G);
    this.fill = new Int32Array(this.G);
    this.blocks = new Array<Float64Array | undefined>(this.G);
    this.counters = Array.from(this.sizes, (n) => new SuperBlockCounter(n, seed, from, this.K));
    this.draws = Array.from(this.sizes, () => new SuperBlockDraws(this.C, seed, from, this.K));
    this.counts = new Float64Array(this.K);
    this.partial = new Float64Array(this.G * this.K * this.C);
    this.sums = new Float64Array(this.G * this.K * this.C);
  }

  /** Add one usable row of `group`: source rows `a` at `atA` (and `b` at `atB` when paired). */
  add(group: number, a: ArrayLike<number>, atA: number, b?: ArrayLike<number>, atB?: number): void {
    let block = this.blocks[group];
    if (!block) {
      const rows = Math.min(BLOCK_ROWS, this.sizes[group]! - this.started[group]!);
      if (!(rows > 0)) throw new RangeError(`bootstrap: more rows than announced in group ${group}`);
      block = this.blocks[group] = new Float64Array(Math.min(BLOCK_ROWS, this.sizes[group]!) * this.C);
    }
    const f = this.fill[group]!;
    const cols = this.cols;
    const nc = cols.length;
    let o = f * this.C;
    for (let j = 0; j < nc; j++) block[o++] = a[atA + cols[j]!]!;
    if (b !== undefined) for (let j = 0; j < nc; j++) block[o++] = b[atB! + cols[j]!]!;
    this.fill[group] = f + 1;
    if (f + 1 === BLOCK_ROWS || this.started[group]! + f + 1 === this.sizes[group]) this.flush(group);
  }

  private flush(group: number): void {
    const L = this.fill[group]!;
    if (L === 0) return;
    const at = group * this.K * this.C;
    const width = this.K * this.C;
    const started = this.started[group]!;
    if (started % SUPER_ROWS === 0) {
      // a super-block begins: its counts from each resample's stream, its sums from zero
      const counter = this.counters[group]!;
      const rows = counter.rows();
      const index = counter.next(this.counts);
      this.draws[group]!.start(index, rows, this.counts, this.partial, at);
    }
    this.draws[group]!.block(this.blocks[group]!, L);
    const now = started + L;
    this.started[group] = now;
    this.fill[group] = 0;
    if (now % SUPER_ROWS === 0 || now === this.sizes[group]) addSuperBlock(this.sums, at, this.partial, at, width);
    if (now === this.sizes[group]) this.blocks[group] = undefined;
  }

  /** Summed gathered columns, groups × resamples × columns (every group must have had all its rows). */
  finish(): Float64Array {
    for (let g = 0; g < this.G; g++) {
      this.flush(g);
      if (this.started[g] !== this.sizes[g])
        throw new RangeError(`bootstrap: group ${g} had ${this.started[g]} usable rows, ${this.sizes[g]} announced`);
    }
    return this.sums;
  }
}

// ------------------------------------------------------------------------- the WebAssembly kernel

type DrawFn = (
  x: number,
  stride: number,
  intBytes: number,
  floatBytes: number,
  T: number,
  L: number,
  threshold: number,
  st: number,
  acc: number,
) => void;
interface Simd {
  readonly memory: WebAssembly.Memory;
  /** The generic kernel (accumulators in memory). */
  readonly draw: DrawFn;
  /** Register variants by `${intVectors}_${floatVectors}` (accumulators in locals). */
  readonly exports: WebAssembly.Exports;
}
let simd: Simd | null | undefined;
let simdOff = false;

/** Tests: run the JS kernel only (false) or the SIMD kernel where it applies (true, the default). */
export function useSimdKernel(on: boolean): void {
  simdOff = !on;
}

function simdKernel(): Simd | null {
  if (simd !== undefined) return simd;
  try {
    const bin = atob(RESAMPLE_WASM);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
    simd = { memory: inst.exports.memory as WebAssembly.Memory, draw: inst.exports.draw as DrawFn, exports: inst.exports };
  } catch {
    simd = null; // no WebAssembly SIMD here: the JS kernel gives the same sums
  }
  return simd;
}

const ST = 0;
const ACC = 64;

/**
 * Lay a block out for the SIMD kernel: per row, the columns holding only integers of at most 2^24 in
 * this block as i32 lanes, then the others as f64 lanes. Integer sums are exact either way, and each
 * float column is summed in the same order as by the JS kernel, so both give bit-identical sums.
 */
function packBlock(
  X: Float64Array,
  L: number,
  C: number,
): { maxInt: number; draw: (T: number, L: number, threshold: number, st: Uint32Array, sums: Float64Array, out: number) => void } | null {
  const k = simdOff ? null : simdKernel();
  if (!k) return null;
  const ints: number[] = [];
  const floats: number[] = [];
  let maxInt = 0;
  for (let j = 0; j < C; j++) {
    let integer = true;
    let max = 0;
    for (let r = 0; r < L; r++) {
      const v = X[r * C + j]!;
      const a = Math.abs(v);
      if (!(Number.isInteger(v) && a <= 16777216)) {
        integer = false;
        break;
      }
      if (a > max) max = a;
    }
    if (integer) {
      ints.push(j);
      if (max > maxInt) maxInt = max;
    } else floats.push(j);
  }
  const intBytes = Math.ceil(ints.length / 4) * 16;
  const floatBytes = Math.ceil(floats.length / 2) * 16;
  const stride = intBytes + floatBytes;
  const xAt = ACC + stride + 64;
  const need = xAt + L * stride;
  if (need > k.memory.buffer.byteLength) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / 65536));
  const buf = k.memory.buffer;
  const i32 = new Int32Array(buf);
  const f64 = new Float64Array(buf);
  new Uint8Array(buf, xAt, L * stride).fill(0);
  for (let r = 0; r < L; r++) {
    const row = xAt + r * stride;
    for (let i = 0; i < ints.length; i++) i32[(row >> 2) + i] = X[r * C + ints[i]!]!;
    for (let i = 0; i < floats.length; i++) f64[((row + intBytes) >> 3) + i] = X[r * C + floats[i]!]!;
  }
  const st32 = new Uint32Array(buf, ST, 4);
  const accI = new Int32Array(buf, ACC, intBytes / 4);
  const accF = new Float64Array(buf, ACC + intBytes, floatBytes / 8);
  const vectors = (intBytes + floatBytes) / 16;
  const fn =
    vectors <= RESAMPLE_MAX_VECTORS ? ((k.exports[`d${intBytes / 16}_${floatBytes / 16}`] as DrawFn | undefined) ?? k.draw) : k.draw;
  return {
    maxInt,
    draw(T, L, threshold, st, sums, out) {
      st32.set(st);
      accI.fill(0);
      accF.fill(0);
      fn(xAt, stride, intBytes, floatBytes, T, L, threshold, ST, ACC);
      st.set(st32);
      for (let i = 0; i < ints.length; i++) sums[out + ints[i]!] = sums[out + ints[i]!]! + accI[i]!;
      for (let i = 0; i < floats.length; i++) sums[out + floats[i]!] = sums[out + floats[i]!]! + accF[i]!;
    },
  };
}

type DrawKernel = (X: Float64Array, T: number, L: number, threshold: number, state: Uint32Array, sums: Float64Array, out: number) => void;
const kernels = new Map<number, DrawKernel>();

/**
 * The hot loop, specialised for `C` columns so the running sums live in local variables: T times, draw
 * a row in [0, L) from the xoshiro128** state (Lemire's multiply-shift with rejection) and add its C
 * values; then add the block's sums to `sums[out..out+C)`. Generated once per width (the JIT keeps the
 * accumulators in registers, about twice as fast as an accumulator array).
 */
function drawKernel(C: number): DrawKernel {
  let k = kernels.get(C);
  if (k) return k;
  const decl = Array.from({ length: C }, (_, j) => `a${j} = 0`).join(", ");
  const add = Array.from({ length: C }, (_, j) => `a${j} += X[o + ${j}];`).join(" ");
  const out = Array.from({ length: C }, (_, j) => `sums[out + ${j}] += a${j};`).join(" ");
  k = new Function(
    "X",
    "T",
    "L",
    "threshold",
    "st",
    "sums",
    "out",
    `"use strict";
    let s0 = st[0] | 0, s1 = st[1] | 0, s2 = st[2] | 0, s3 = st[3] | 0;
    let ${decl};
    for (let t = 0; t < T; t++) {
      let idx;
      for (;;) {
        const x = Math.imul(s1, 5);
        const r = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
        const sh = s1 << 9;
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= sh;
        s3 = (s3 << 11) | (s3 >>> 21);
        const m = r * L;
        idx = Math.floor(m / 4294967296);
        if (m - idx * 4294967296 >= threshold) break;
      }
      const o = idx * ${C};
      ${add}
    }
    st[0] = s0; st[1] = s1; st[2] = s2; st[3] = s3;
    ${out}`,
  ) as DrawKernel;
  kernels.set(C, k);
  return k;
}

// ------------------------------------------------------------------------------- sacreBLEU's rules

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
