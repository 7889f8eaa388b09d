// chrF n-gram matching without a table per n-gram: bit-parallel occurrence sets over the hypothesis.
//
// For every distinct hypothesis symbol s (a code point, or a word id), mask(s) is the set of hypothesis
// positions holding s (W u64 words: hypotheses of up to 64·W symbols). Walking a reference, the set of
// hypothesis end positions of the order-n n-gram that ends at reference position j is
//
//     A_n(j) = (A_{n-1}(j-1) << 1) & mask(ref[j]),      A_1(j) = mask(ref[j]),
//
// so A_n(j) depends only on the n-gram itself (it is the set of its occurrences in the hypothesis), and
// two different n-grams of one order have disjoint sets. Each reference occurrence of an n-gram takes
// ("consumes") the lowest hypothesis occurrence of it not yet taken; it matches when there is one left.
// The matches of an n-gram are then exactly min(count in hypothesis, count in reference), sacreBLEU's
// `_get_match_statistics`, with no hashing, no counts and nothing to clear per n-gram.

import { alloc, allocZero } from "./mem";

// Every mask is preceded by a 16-byte header (the mask pointer points past it):
//   -16 u32  occurrences in the hypothesis (0: the symbol is absent)
//   -12 u16  first nonzero word, -10 u16 last nonzero word
//    -8 u32  reference stamp, -4 u32 occurrences taken by that reference (order 1 of `matchRanges`;
//            written only in masks of hypothesis symbols, which their item clears or drops)
// Only `matchRanges` (masks of more than four words, or orders above 6) reads the headers; other char
// masks leave them zero.
const HEAD: usize = 16;

/** Adds hypothesis position i to mask m (positions arrive in increasing order). */
// @ts-ignore: decorator
@inline function setBit(m: usize, i: i32): void {
  const q = i >> 6;
  const c0 = load<u32>(m - 16);
  if (c0 == 0) store<u16>(m - 12, <u16>q);
  store<u32>(m - 16, c0 + 1);
  store<u16>(m - 10, <u16>q);
  const p = m + (<usize>q << 3);
  store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(i & 63)));
}

// The hash of a word's code points (one multiply per code point; the tables compare words exactly):
// whFinal(whStep(...whStep(WH_SEED, c0)..., c_{len-1}), len). chrf.ts computes it while splitting words.
export const WH_SEED: u32 = 0x811c9dc5;

// @ts-ignore: decorator
@inline export function whStep(h: u32, c: u32): u32 {
  return (h ^ c) * 0x01000193;
}

// @ts-ignore: decorator
@inline export function whFinal(h: u32, len: i32): u32 {
  h ^= <u32>len * 0x9e3779b1;
  h ^= h >> 15;
  h *= 0x2c1b3c6d;
  h ^= h >> 12;
  return h;
}

export function wordHash(p: usize, len: i32): u32 {
  let h = WH_SEED;
  for (let k = 0; k < len; k++) h = whStep(h, load<u32>(p + (<usize>k << 2)));
  return whFinal(h, len);
}

/** Most u64 words per mask: hypotheses of up to 64 · MAX_WORDS symbols take this path. */
export const MAX_WORDS: i32 = 16;
export const MAX_BITS_LEN: i32 = 64 * MAX_WORDS;

/**
 * Code point → occurrence mask for the current hypothesis. ASCII masks are direct-mapped (128 masks
 * of `stride` words, all zero between items: an item clears the ones it set); other code points go
 * through a small epoch-stamped open-addressing table (slot: cp u32, epoch u32, mask pointer u32).
 */
@unmanaged
export class CharMasks {
  ascii: usize = 0;
  stride: i32 = 0; // words per ASCII mask (≥ the words of any hypothesis of the batch on this path)
  slots: usize = 0;
  mask: u32 = 0;
  epoch: u32 = 0;
  zero: usize = 0; // MAX_WORDS zero words: the mask of a symbol absent from the hypothesis
  pool: usize = 0; // non-ASCII masks of the current item
  poolCount: i32 = 0;
  words: i32 = 0; // words per mask for the current item
}

/**
 * At the start of a batch whose hypotheses take at most `maxHypBytes` bytes of UTF-8 (an upper bound
 * of their code points, and twice one of their distinct non-ASCII code points).
 */
export function charMasksInit(t: CharMasks, maxHypBytes: i32): void {
  let words = (maxHypBytes + 63) >> 6;
  if (words > MAX_WORDS) words = MAX_WORDS;
  if (words < 1) words = 1;
  t.stride = words;
  t.ascii = allocZero(<usize>128 * ((<usize>words << 3) + HEAD)) + HEAD;
  let distinct = maxHypBytes >> 1;
  if (distinct > MAX_BITS_LEN) distinct = MAX_BITS_LEN;
  let cap: u32 = 16;
  while (cap < <u32>distinct * 2) cap <<= 1;
  t.slots = allocZero(<usize>cap << 4);
  t.mask = cap - 1;
  t.epoch = 0;
  t.zero = allocZero((<usize>MAX_WORDS << 3) + HEAD) + HEAD;
}

/** Bytes `charMasksInitAt` takes: 128 ASCII masks of MAX_WORDS words, a table for MAX_BITS_LEN code points, the zero mask. */
export const CHAR_MASKS_FIXED_BYTES: usize = 128 * ((<usize>MAX_WORDS << 3) + HEAD) + (<usize>(2 * MAX_BITS_LEN) << 4) + (<usize>MAX_WORDS << 3) + HEAD;

/**
 * As `charMasksInit` for any hypothesis of up to MAX_BITS_LEN symbols, in the `CHAR_MASKS_FIXED_BYTES`
 * at `base` (zero when first used, and left zero by every item as `charMasksEnd` leaves the ASCII
 * masks): called once, the masks then serve every later call without allocating or clearing.
 */
export function charMasksInitAt(t: CharMasks, base: usize): void {
  t.stride = MAX_WORDS;
  t.ascii = base + HEAD;
  const slots = base + 128 * ((<usize>MAX_WORDS << 3) + HEAD);
  t.slots = slots;
  t.mask = <u32>(2 * MAX_BITS_LEN) - 1;
  t.epoch = 0;
  t.zero = slots + (<usize>(2 * MAX_BITS_LEN) << 4) + HEAD;
}

// @ts-ignore: decorator
@inline function slotOf(cp: u32, mask: u32): u32 {
  return ((cp * 0x9e3779b1) >> 15) & mask;
}

/**
 * Occurrence masks of the hypothesis symbols `chars[0..len)` (len ≤ 64 · stride). Call after the
 * item's `mark()` (the non-ASCII masks live in its scratch); `charMasksEnd` before its `release`.
 */
export function charMasksBuild(t: CharMasks, chars: usize, len: i32, maxOrder: i32): void {
  const w = (len + 63) >> 6;
  t.words = w;
  t.epoch++;
  if (t.epoch == 0) {
    memory.fill(t.slots, 0, <usize>(t.mask + 1) << 4);
    t.epoch = 1;
  }
  const epoch = t.epoch;
  const entry = (<usize>w << 3) + HEAD;
  const pool = alloc(<usize>len * entry) + HEAD;
  let poolCount = 0;
  const ascii = t.ascii;
  const strideBytes = (<usize>t.stride << 3) + HEAD;
  const slots = t.slots;
  const smask = t.mask;
  const head = w > 4 || maxOrder > 6; // only matchRanges reads the headers
  for (let i = 0; i < len; i++) {
    const c = load<u32>(chars + (<usize>i << 2));
    let m: usize = 0;
    if (c < 128) {
      m = ascii + <usize>c * strideBytes;
    } else {
      let j = slotOf(c, smask);
      while (true) {
        const s = slots + (<usize>j << 4);
        if (load<u32>(s, 4) != epoch) {
          m = pool + <usize>poolCount * entry;
          poolCount++;
          for (let q: usize = 0; q < entry; q += 8) store<u64>(m - HEAD + q, 0);
          store<u32>(s, c);
          store<u32>(s, epoch, 4);
          store<u32>(s, <u32>m, 8);
          break;
        }
        if (load<u32>(s) == c) {
          m = <usize>load<u32>(s, 8);
          break;
        }
        j = (j + 1) & smask;
      }
    }
    if (head) {
      setBit(m, i);
    } else {
      const b = m + (<usize>(i >> 6) << 3);
      store<u64>(b, load<u64>(b) | (<u64>1 << <u64>(i & 63)));
    }
  }
  t.pool = pool;
  t.poolCount = poolCount;
}

/** Clear the ASCII masks the item set (the non-ASCII ones go with its scratch and epoch). */
export function charMasksEnd(t: CharMasks, chars: usize, len: i32): void {
  const ascii = t.ascii;
  const strideBytes = (<usize>t.stride << 3) + HEAD;
  const wordBytes = (<usize>t.words << 3) + HEAD;
  for (let i = 0; i < len; i++) {
    const c = load<u32>(chars + (<usize>i << 2));
    if (c < 128) {
      const m = ascii + <usize>c * strideBytes - HEAD;
      for (let q: usize = 0; q < wordBytes; q += 8) store<u64>(m + q, 0);
    }
  }
}

/** The mask of reference code point c (the zero mask when the hypothesis lacks it). */
// @ts-ignore: decorator
@inline function maskOf(c: u32, ascii: usize, strideBytes: usize, slots: usize, smask: u32, epoch: u32, zero: usize): usize {
  if (c < 128) return ascii + <usize>c * strideBytes;
  let j = slotOf(c, smask);
  while (true) {
    const s = slots + (<usize>j << 4);
    if (load<u32>(s, 4) != epoch) return zero;
    if (load<u32>(s) == c) return <usize>load<u32>(s, 8);
    j = (j + 1) & smask;
  }
  return zero;
}

/** Mask pointers (u32 each) of the reference symbols `chars[0..len)`, as `bitsMatch` takes them. */
export function charMaskPtrs(t: CharMasks, chars: usize, len: i32): usize {
  const out = alloc(<usize>(len + 1) << 2);
  const ascii = t.ascii;
  const strideBytes = (<usize>t.stride << 3) + HEAD;
  const slots = t.slots;
  const smask = t.mask;
  const epoch = t.epoch;
  const zero = t.zero;
  for (let i = 0; i < len; i++) {
    const c = load<u32>(chars + (<usize>i << 2));
    store<u32>(out + (<usize>i << 2), <u32>maskOf(c, ascii, strideBytes, slots, smask, epoch, zero));
  }
  return out;
}

/**
 * The char matches of a reference `chars[0..len)` (orders 1..maxOrder ≤ 6, hypothesis of ≤ 64 symbols):
 * `match6w1` with each mask looked up as the reference is walked (no pointer array).
 */
export function charMatch6w1(t: CharMasks, chars: usize, len: i32, maxOrder: i32, stats: usize): void {
  const ascii = t.ascii;
  const strideBytes = (<usize>t.stride << 3) + HEAD;
  const slots = t.slots;
  const smask = t.mask;
  const epoch = t.epoch;
  const zero = t.zero;
  // the orders' sets in pairs of i64x2 lanes, x = (a1, a2), y = (a3, a4), z = (a5, a6), and their taken sets
  let x = i64x2.splat(0);
  let y = i64x2.splat(0);
  let z = i64x2.splat(0);
  let tx = i64x2.splat(0);
  let ty = i64x2.splat(0);
  let tz = i64x2.splat(0);
  for (let j = 0; j < len; j++) {
    const e = load<u64>(maskOf(load<u32>(chars + (<usize>j << 2)), ascii, strideBytes, slots, smask, epoch, zero));
    const ev = i64x2.splat(e);
    const nz = v128.and(i64x2.shl(i8x16.shuffle(y, z, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23), 1), ev);
    const ny = v128.and(i64x2.shl(i8x16.shuffle(x, y, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23), 1), ev);
    x = i64x2.replace_lane(v128.and(i64x2.shl(i8x16.shuffle(x, x, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7), 1), ev), 0, e);
    y = ny;
    z = nz;
    const fx = v128.andnot(x, tx);
    tx = v128.or(tx, v128.and(fx, i64x2.neg(fx)));
    const fy = v128.andnot(y, ty);
    ty = v128.or(ty, v128.and(fy, i64x2.neg(fy)));
    const fz = v128.andnot(z, tz);
    tz = v128.or(tz, v128.and(fz, i64x2.neg(fz)));
  }
  addMatches(
    stats,
    0,
    maxOrder,
    pc(i64x2.extract_lane(tx, 0)),
    pc(i64x2.extract_lane(tx, 1)),
    pc(i64x2.extract_lane(ty, 0)),
    pc(i64x2.extract_lane(ty, 1)),
    pc(i64x2.extract_lane(tz, 0)),
    pc(i64x2.extract_lane(tz, 1)),
  );
}

/**
 * Adds the matches of orders 1..maxOrder of a reference (mask pointers `ptrs[0..len)`, masks of `w`
 * words) to `stats` (the match field of order n is at stats + 8·(3·(base+n-1)+2)).
 */
export function bitsMatch(ptrs: usize, len: i32, w: i32, maxOrder: i32, stats: usize, base: i32, stamp: u32): void {
  if (w == 0 || len == 0) return;
  if (w > 4 || maxOrder > 6) {
    matchRanges(ptrs, len, w, maxOrder, stats, base, stamp);
    return;
  }
  if (w == 1) match6w1(ptrs, len, maxOrder, stats, base);
  else if (w == 2) match6w2(ptrs, len, maxOrder, stats, base);
  else if (w == 3) match6w3(ptrs, len, maxOrder, stats, base);
  else match6w4(ptrs, len, maxOrder, stats, base);
}

/**
 * `bitsMatch` for longer hypotheses: order 1 from the masks' counts (a reference occurrence matches
 * while fewer than the hypothesis count were taken), and each order-n set computed only over the words
 * where it can be nonzero (those of the order n-1 set, shifted, within those of the symbol's mask), so
 * orders ≥ 2 cost about one word per position instead of the hypothesis length / 64. One pass over the
 * reference, orders from high to low at each position, so memory is per order, not per position.
 */
function matchRanges(ptrs: usize, len: i32, w: i32, maxOrder: i32, stats: usize, base: i32, stamp: u32): void {
  const wb = <usize>w << 3;
  // per order n ≥ 2: its set at the previous position, the (first, last) nonzero word of it (first > last:
  // empty), the occurrences taken, the match count
  const sets = alloc(<usize>(maxOrder + 1) * wb);
  const ranges = allocZero(<usize>(maxOrder + 1) << 2);
  const taken = allocZero(<usize>(maxOrder + 1) * wb);
  const counts = allocZero(<usize>(maxOrder + 1) << 2);
  for (let n = 2; n <= maxOrder; n++) store<u32>(ranges + (<usize>n << 2), 0xffff);
  let m1 = 0;
  let prev: usize = 0; // the mask of the previous reference symbol (order-1 set), 0 at the start
  for (let j = 0; j < len; j++) {
    const e = <usize>load<u32>(ptrs + (<usize>j << 2));
    const cH = load<u32>(e - 16);
    if (cH == 0) {
      // absent from the hypothesis: no n-gram ending here
      for (let n = 2; n <= maxOrder; n++) store<u32>(ranges + (<usize>n << 2), 0xffff);
      prev = 0;
      continue;
    }
    const elo = <i32>load<u16>(e - 12);
    const ehi = <i32>load<u16>(e - 10);
    for (let n = maxOrder; n >= 2; n--) {
      const rp = ranges + (<usize>n << 2);
      let src: usize;
      let slo: i32;
      let shi: i32;
      if (n == 2) {
        if (prev == 0) {
          store<u32>(rp, 0xffff);
          continue;
        }
        src = prev;
        slo = <i32>load<u16>(prev - 12);
        shi = <i32>load<u16>(prev - 10);
      } else {
        src = sets + <usize>(n - 1) * wb;
        slo = <i32>load<u16>(rp - 4);
        shi = <i32>load<u16>(rp - 2);
      }
      const qlo = slo > elo ? slo : elo;
      const qhi = shi + 1 < ehi ? shi + 1 : ehi;
      const dst = sets + <usize>n * wb; // its value at j-1 is no longer needed (order n+1 is done)
      let nlo = 0xffff;
      let nhi = 0;
      for (let q = qlo; q <= qhi; q++) {
        const cur = q <= shi ? load<u64>(src + (<usize>q << 3)) : 0;
        const before = q > slo ? load<u64>(src + (<usize>(q - 1) << 3)) : 0;
        const v = ((cur << 1) | (before >> 63)) & load<u64>(e + (<usize>q << 3));
        store<u64>(dst + (<usize>q << 3), v);
        if (v != 0) {
          if (nlo == 0xffff) nlo = q;
          nhi = q;
        }
      }
      store<u32>(rp, <u32>nlo | (<u32>nhi << 16));
      if (nlo == 0xffff) continue;
      const tk = taken + <usize>n * wb;
      for (let q = nlo; q <= nhi; q++) {
        const t = tk + (<usize>q << 3);
        const f = load<u64>(dst + (<usize>q << 3)) & ~load<u64>(t);
        if (f != 0) {
          store<u64>(t, load<u64>(t) | (f & (0 - f)));
          const c = counts + (<usize>n << 2);
          store<u32>(c, load<u32>(c) + 1);
          break;
        }
      }
    }
    const tk1 = load<u32>(e - 8) == stamp ? load<u32>(e - 4) : 0;
    m1 += i32(tk1 < cH);
    store<u32>(e - 8, stamp);
    store<u32>(e - 4, tk1 + 1);
    prev = e;
  }
  addMatch(stats, base, 1, m1);
  for (let n = 2; n <= maxOrder; n++) addMatch(stats, base, n, <i32>load<u32>(counts + (<usize>n << 2)));
}

/** `match6w1` for hypotheses of 129 to 192 symbols: three words per set (see `match6w34`). */
function match6w3(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32): void {
  match6w34(ptrs, len, maxOrder, stats, base, false);
}

/** `match6w1` for hypotheses of 193 to 256 symbols: four words per set. */
function match6w4(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32): void {
  match6w34(ptrs, len, maxOrder, stats, base, true);
}

/**
 * Sets of three or four words as two 128-bit values each, (w0, w1) and (w2, w3) (w3 zero for three
 * words: its mask word is not loaded). A reference occurrence takes the lowest free bit of the first
 * word that has one.
 */
// @ts-ignore: decorator
@inline function match6w34(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32, four: bool): void {
  let a1 = i64x2.splat(0), a2 = i64x2.splat(0), a3 = i64x2.splat(0);
  let a4 = i64x2.splat(0), a5 = i64x2.splat(0), a6 = i64x2.splat(0);
  let b1 = i64x2.splat(0), b2 = i64x2.splat(0), b3 = i64x2.splat(0);
  let b4 = i64x2.splat(0), b5 = i64x2.splat(0), b6 = i64x2.splat(0);
  let t1 = i64x2.splat(0), t2 = i64x2.splat(0), t3 = i64x2.splat(0);
  let t4 = i64x2.splat(0), t5 = i64x2.splat(0), t6 = i64x2.splat(0);
  let u1 = i64x2.splat(0), u2 = i64x2.splat(0), u3 = i64x2.splat(0);
  let u4 = i64x2.splat(0), u5 = i64x2.splat(0), u6 = i64x2.splat(0);
  for (let j = 0; j < len; j++) {
    const p = <usize>load<u32>(ptrs + (<usize>j << 2));
    const e = v128.load(p);
    const g = four ? v128.load(p, 16) : v128.load64_zero(p + 16);
    b6 = v128.and(shlHi(a5, b5), g);
    a6 = v128.and(shl128(a5), e);
    b5 = v128.and(shlHi(a4, b4), g);
    a5 = v128.and(shl128(a4), e);
    b4 = v128.and(shlHi(a3, b3), g);
    a4 = v128.and(shl128(a3), e);
    b3 = v128.and(shlHi(a2, b2), g);
    a3 = v128.and(shl128(a2), e);
    b2 = v128.and(shlHi(a1, b1), g);
    a2 = v128.and(shl128(a1), e);
    a1 = e;
    b1 = g;
    u1 = takeHi(b1, u1, a1, t1);
    t1 = take128(a1, t1);
    u2 = takeHi(b2, u2, a2, t2);
    t2 = take128(a2, t2);
    u3 = takeHi(b3, u3, a3, t3);
    t3 = take128(a3, t3);
    u4 = takeHi(b4, u4, a4, t4);
    t4 = take128(a4, t4);
    u5 = takeHi(b5, u5, a5, t5);
    t5 = take128(a5, t5);
    u6 = takeHi(b6, u6, a6, t6);
    t6 = take128(a6, t6);
  }
  addMatches(
    stats,
    base,
    maxOrder,
    pc2(t1) + pc2(u1),
    pc2(t2) + pc2(u2),
    pc2(t3) + pc2(u3),
    pc2(t4) + pc2(u4),
    pc2(t5) + pc2(u5),
    pc2(t6) + pc2(u6),
  );
}

/** The high half (w2, w3) of a 256-bit set (lo, hi) shifted up by one position. */
// @ts-ignore: decorator
@inline function shlHi(lo: v128, hi: v128): v128 {
  const carry = i8x16.shuffle(i64x2.shr_u(lo, 63), i64x2.splat(0), 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
  return v128.or(shl128(hi), carry);
}

/** `take128` for the high half (bh, uh) of a 256-bit set, gated on the low half (bl, ul) having no free bit. */
// @ts-ignore: decorator
@inline function takeHi(bh: v128, uh: v128, bl: v128, ul: v128): v128 {
  const gate = i64x2.splat(<i64>v128.any_true(v128.andnot(bl, ul)) - 1);
  return v128.and(take128(bh, uh), v128.or(uh, gate));
}

/**
 * `bitsMatch` for hypotheses of at most 64 symbols and orders up to 6: one reference pass with every
 * order's set and taken set in locals (orders above maxOrder are computed and dropped).
 */
function match6w1(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32): void {
  // the orders' sets in pairs of i64x2 lanes, x = (a1, a2), y = (a3, a4), z = (a5, a6), and their taken sets
  let x = i64x2.splat(0);
  let y = i64x2.splat(0);
  let z = i64x2.splat(0);
  let tx = i64x2.splat(0);
  let ty = i64x2.splat(0);
  let tz = i64x2.splat(0);
  for (let j = 0; j < len; j++) {
    const e = load<u64>(<usize>load<u32>(ptrs + (<usize>j << 2)));
    const ev = i64x2.splat(e);
    const nz = v128.and(i64x2.shl(i8x16.shuffle(y, z, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23), 1), ev);
    const ny = v128.and(i64x2.shl(i8x16.shuffle(x, y, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23), 1), ev);
    x = i64x2.replace_lane(v128.and(i64x2.shl(i8x16.shuffle(x, x, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7), 1), ev), 0, e);
    y = ny;
    z = nz;
    const fx = v128.andnot(x, tx);
    tx = v128.or(tx, v128.and(fx, i64x2.neg(fx)));
    const fy = v128.andnot(y, ty);
    ty = v128.or(ty, v128.and(fy, i64x2.neg(fy)));
    const fz = v128.andnot(z, tz);
    tz = v128.or(tz, v128.and(fz, i64x2.neg(fz)));
  }
  addMatches(
    stats,
    base,
    maxOrder,
    pc(i64x2.extract_lane(tx, 0)),
    pc(i64x2.extract_lane(tx, 1)),
    pc(i64x2.extract_lane(ty, 0)),
    pc(i64x2.extract_lane(ty, 1)),
    pc(i64x2.extract_lane(tz, 0)),
    pc(i64x2.extract_lane(tz, 1)),
  );
}

/** `match6w1` for hypotheses of 65 to 128 symbols: two words per set (lo, hi). */
function match6w2(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32): void {
  // each order's set (and taken set) as one 128-bit value: lane 0 the low word, lane 1 the high word
  let v1 = i64x2.splat(0), v2 = i64x2.splat(0), v3 = i64x2.splat(0);
  let v4 = i64x2.splat(0), v5 = i64x2.splat(0), v6 = i64x2.splat(0);
  let t1 = i64x2.splat(0), t2 = i64x2.splat(0), t3 = i64x2.splat(0);
  let t4 = i64x2.splat(0), t5 = i64x2.splat(0), t6 = i64x2.splat(0);
  for (let j = 0; j < len; j++) {
    const e = v128.load(<usize>load<u32>(ptrs + (<usize>j << 2)));
    v6 = v128.and(shl128(v5), e);
    v5 = v128.and(shl128(v4), e);
    v4 = v128.and(shl128(v3), e);
    v3 = v128.and(shl128(v2), e);
    v2 = v128.and(shl128(v1), e);
    v1 = e;
    t1 = take128(v1, t1);
    t2 = take128(v2, t2);
    t3 = take128(v3, t3);
    t4 = take128(v4, t4);
    t5 = take128(v5, t5);
    t6 = take128(v6, t6);
  }
  addMatches(stats, base, maxOrder, pc2(t1), pc2(t2), pc2(t3), pc2(t4), pc2(t5), pc2(t6));
}

/** A 128-bit set shifted up by one position (the low word's top bit moves into the high word). */
// @ts-ignore: decorator
@inline function shl128(v: v128): v128 {
  const carry = i8x16.shuffle(i64x2.splat(0), i64x2.shr_u(v, 63), 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
  return v128.or(i64x2.shl(v, 1), carry);
}

/** The taken set `t` plus the lowest bit of the 128-bit set `a` not in it (the high word's only when the low word has none). */
// @ts-ignore: decorator
@inline function take128(a: v128, t: v128): v128 {
  const f = v128.andnot(a, t);
  const low = v128.and(f, i64x2.neg(f));
  // keep lane 1 only where lane 0 of f is zero
  const keep = i8x16.shuffle(i64x2.splat(-1), i64x2.eq(f, i64x2.splat(0)), 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
  return v128.or(t, v128.and(low, keep));
}

// @ts-ignore: decorator
@inline function pc2(v: v128): i32 {
  return <i32>(popcnt<u64>(i64x2.extract_lane(v, 0)) + popcnt<u64>(i64x2.extract_lane(v, 1)));
}

// The taken set of an order gains exactly one bit per match (the lowest free occurrence), so its
// population count at the end of a reference is that order's match count: nothing to count per position.
// @ts-ignore: decorator
@inline function pc(x: u64): i32 {
  return <i32>popcnt<u64>(x);
}

// @ts-ignore: decorator
@inline function addMatch(stats: usize, base: i32, n: i32, m: i32): void {
  const p = stats + (<usize>(3 * (base + n - 1) + 2) << 3);
  store<f64>(p, load<f64>(p) + <f64>m);
}

function addMatches(stats: usize, base: i32, maxOrder: i32, m1: i32, m2: i32, m3: i32, m4: i32, m5: i32, m6: i32): void {
  if (maxOrder >= 1) addMatch(stats, base, 1, m1);
  if (maxOrder >= 2) addMatch(stats, base, 2, m2);
  if (maxOrder >= 3) addMatch(stats, base, 3, m3);
  if (maxOrder >= 4) addMatch(stats, base, 4, m4);
  if (maxOrder >= 5) addMatch(stats, base, 5, m5);
  if (maxOrder >= 6) addMatch(stats, base, 6, m6);
}

/**
 * Word → occurrence mask for the current hypothesis: an epoch-stamped open-addressing table keyed by
 * the word's code points (exact compare). Slot (32 bytes): hash u32, epoch u32, code points u32 (address),
 * length u32, mask u32 (address), spare.
 */
@unmanaged
export class WordMasks {
  slots: usize = 0;
  mask: u32 = 0;
  epoch: u32 = 0;
  words: i32 = 0; // u64 words per mask for the current item
}

/** At the start of a batch whose hypotheses take at most `maxHypBytes` bytes (≥ their word pieces). */
export function wordMasksInit(t: WordMasks, maxHypBytes: i32): void {
  let pieces = maxHypBytes + 1;
  if (pieces > MAX_BITS_LEN) pieces = MAX_BITS_LEN;
  let cap: u32 = 16;
  while (cap < <u32>pieces * 2) cap <<= 1;
  t.slots = allocZero(<usize>cap << 5);
  t.mask = cap - 1;
  t.epoch = 0;
}

// @ts-ignore: decorator
@inline function spanStart(words: usize, k: i32): i32 {
  return <i32>load<u32>(words + (<usize>k << 3));
}
// @ts-ignore: decorator
@inline function spanEnd(words: usize, k: i32): i32 {
  return <i32>load<u32>(words + (<usize>k << 3), 4);
}

/** The slot of word p[0..len) with hash h, or (when absent) of the empty slot where it goes. */
// @ts-ignore: decorator
@inline function wordSlot(t: WordMasks, p: usize, len: i32, h: u32): usize {
  let j = h & t.mask;
  const epoch = t.epoch;
  while (true) {
    const s = t.slots + (<usize>j << 5);
    if (load<u32>(s, 4) != epoch) return s;
    if (load<u32>(s) == h && <i32>load<u32>(s, 12) == len) {
      const q = <usize>load<u32>(s, 8);
      let k = 0;
      while (k < len && load<u32>(q + (<usize>k << 2)) == load<u32>(p + (<usize>k << 2))) k++;
      if (k == len) return s;
    }
    j = (j + 1) & t.mask;
  }
}

/**
 * Occurrence masks of the hypothesis words (spans (start, end) into `cps` and their `wordHash`es,
 * `count` ≤ MAX_BITS_LEN). Call
 * after the item's `mark()`: the masks live in its scratch.
 */
export function wordMasksBuild(t: WordMasks, cps: usize, words: usize, hashes: usize, count: i32): void {
  const w = (count + 63) >> 6;
  t.words = w;
  t.epoch++;
  if (t.epoch == 0) {
    memory.fill(t.slots, 0, <usize>(t.mask + 1) << 5);
    t.epoch = 1;
  }
  const entry = (<usize>w << 3) + HEAD;
  const pool = alloc(<usize>count * entry) + HEAD;
  let poolCount = 0;
  for (let k = 0; k < count; k++) {
    const a = spanStart(words, k);
    const len = spanEnd(words, k) - a;
    const p = cps + (<usize>a << 2);
    const h = load<u32>(hashes + (<usize>k << 2));
    const s = wordSlot(t, p, len, h);
    let m: usize;
    if (load<u32>(s, 4) != t.epoch) {
      m = pool + <usize>poolCount * entry;
      poolCount++;
      for (let q: usize = 0; q < entry; q += 8) store<u64>(m - HEAD + q, 0);
      store<u32>(s, h);
      store<u32>(s, t.epoch, 4);
      store<u32>(s, <u32>p, 8);
      store<u32>(s, <u32>len, 12);
      store<u32>(s, <u32>m, 16);
    } else {
      m = <usize>load<u32>(s, 16);
    }
    setBit(m, k);
  }
}

/** Mask pointers of reference words (absent from the hypothesis → the zero mask `zero`). */
export function wordMaskPtrs(t: WordMasks, cps: usize, words: usize, hashes: usize, count: i32, zero: usize): usize {
  const out = alloc(<usize>(count + 1) << 2);
  for (let k = 0; k < count; k++) {
    const a = spanStart(words, k);
    const len = spanEnd(words, k) - a;
    const p = cps + (<usize>a << 2);
    const s = wordSlot(t, p, len, load<u32>(hashes + (<usize>k << 2)));
    store<u32>(out + (<usize>k << 2), load<u32>(s, 4) == t.epoch ? load<u32>(s, 16) : <u32>zero);
  }
  return out;
}
