// Seeded, splittable random numbers for bootstrap resampling: xoshiro128** with each stream derived
// from (seed, resample index, domain, index) by SplitMix32, so results do not depend on how resamples
// (or the super-blocks of one resample) are spread over workers or batches. The bootstrap uses three
// domains: a resample's counts per super-block, its counts per block inside one super-block, and its
// draws inside one block (see `bootstrap.ts`).

function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let t = state.s ^ (state.s >>> 16);
  t = Math.imul(t, 0x21f0aaad);
  t ^= t >>> 15;
  t = Math.imul(t, 0x735a2d97);
  return (t ^ (t >>> 15)) >>> 0;
}

export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** The stream of resample `stream` under `seed` (any safe integer); `domain` and `index` select a sub-stream. */
  constructor(seed: number, stream: number, domain = 0, index = 0) {
    this.s0 = this.s1 = this.s2 = this.s3 = 0;
    this.reseed(seed, stream, domain, index);
  }

  /** Start over as `new Xoshiro128(seed, stream, domain, index)` (no allocation). */
  reseed(seed: number, stream: number, domain = 0, index = 0): void {
    streamState(seed, stream, domain, index, SCRATCH);
    this.restore(SCRATCH);
  }

  /** Next uint32. */
  next(): number {
    const s1 = this.s1;
    const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return r;
  }

  /** Copy the state out (for inlined loops) and back. */
  save(into: Uint32Array): void {
    into[0] = this.s0;
    into[1] = this.s1;
    into[2] = this.s2;
    into[3] = this.s3;
  }
  restore(from: Uint32Array): void {
    this.s0 = from[0]! | 0;
    this.s1 = from[1]! | 0;
    this.s2 = from[2]! | 0;
    this.s3 = from[3]! | 0;
  }

  /** Uniform integer in [0, n) for 0 < n ≤ 2^32, without modulo bias (rejection). */
  below(n: number): number {
    const limit = 4294967296 - (4294967296 % n);
    let r = this.next();
    while (r >= limit) r = this.next();
    return r % n;
  }
}

const SCRATCH = new Uint32Array(4);

/** The initial xoshiro128** state of a stream (see the constructor) into `out[0..4)`. */
export function streamState(seed: number, stream: number, domain: number, index: number, out: Uint32Array): void {
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 0x100000000) >>> 0;
  const st = { s: lo ^ Math.imul(hi, 0x85ebca6b) ^ Math.imul(stream + 1, 0x27d4eb2f) };
  splitmix32(st);
  st.s ^= Math.imul(stream, 0x165667b1);
  if (domain !== 0 || index !== 0) {
    // a sub-stream: (domain, index) mixed in through two more SplitMix32 rounds
    splitmix32(st);
    st.s ^= Math.imul(domain, 0x2545f491) ^ Math.imul(index + 1, 0x9e3779b1);
    splitmix32(st);
    st.s ^= Math.imul(index >>> 16, 0x85ebca77);
  }
  out[0] = splitmix32(st);
  out[1] = splitmix32(st);
  out[2] = splitmix32(st);
  out[3] = splitmix32(st);
  if ((out[0]! | out[1]! | out[2]! | out[3]!) === 0) out[0] = 1;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
