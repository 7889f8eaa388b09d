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
import { hashRange } from "./text";

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
  t.ascii = allocZero(<usize>(128 * words) << 3);
  let distinct = maxHypBytes >> 1;
  if (distinct > MAX_BITS_LEN) distinct = MAX_BITS_LEN;
  let cap: u32 = 16;
  while (cap < <u32>distinct * 2) cap <<= 1;
  t.slots = allocZero(<usize>cap << 4);
  t.mask = cap - 1;
  t.epoch = 0;
  t.zero = allocZero(<usize>MAX_WORDS << 3);
}

// @ts-ignore: decorator
@inline function slotOf(cp: u32, mask: u32): u32 {
  return ((cp * 0x9e3779b1) >> 15) & mask;
}

/**
 * Occurrence masks of the hypothesis symbols `chars[0..len)` (len ≤ 64 · stride). Call after the
 * item's `mark()` (the non-ASCII masks live in its scratch); `charMasksEnd` before its `release`.
 */
export function charMasksBuild(t: CharMasks, chars: usize, len: i32): void {
  const w = (len + 63) >> 6;
  t.words = w;
  t.epoch++;
  if (t.epoch == 0) {
    memory.fill(t.slots, 0, <usize>(t.mask + 1) << 4);
    t.epoch = 1;
  }
  const epoch = t.epoch;
  const pool = alloc(<usize>(len * w) << 3);
  let poolCount = 0;
  const ascii = t.ascii;
  const strideBytes = <usize>t.stride << 3;
  const slots = t.slots;
  const smask = t.mask;
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
          m = pool + (<usize>(poolCount * w) << 3);
          poolCount++;
          for (let q = 0; q < w; q++) store<u64>(m + (<usize>q << 3), 0);
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
    const p = m + (<usize>(i >> 6) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(i & 63)));
  }
  t.pool = pool;
  t.poolCount = poolCount;
}

/** Clear the ASCII masks the item set (the non-ASCII ones go with its scratch and epoch). */
export function charMasksEnd(t: CharMasks, chars: usize, len: i32): void {
  const ascii = t.ascii;
  const strideBytes = <usize>t.stride << 3;
  const wordBytes = <usize>t.words << 3;
  for (let i = 0; i < len; i++) {
    const c = load<u32>(chars + (<usize>i << 2));
    if (c < 128) {
      const m = ascii + <usize>c * strideBytes;
      for (let q: usize = 0; q < wordBytes; q += 8) store<u64>(m + q, 0);
    }
  }
}

/** Mask pointers (u32 each) of the reference symbols `chars[0..len)`, as `bitsMatch` takes them. */
export function charMaskPtrs(t: CharMasks, chars: usize, len: i32): usize {
  const out = alloc(<usize>(len + 1) << 2);
  const ascii = t.ascii;
  const strideBytes = <usize>t.stride << 3;
  const slots = t.slots;
  const smask = t.mask;
  const epoch = t.epoch;
  const zero = t.zero;
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
          m = zero;
          break;
        }
        if (load<u32>(s) == c) {
          m = <usize>load<u32>(s, 8);
          break;
        }
        j = (j + 1) & smask;
      }
    }
    store<u32>(out + (<usize>i << 2), <u32>m);
  }
  return out;
}

/**
 * Adds the matches of orders 1..maxOrder of a reference (mask pointers `ptrs[0..len)`, masks of `w`
 * words) to `stats` (the match field of order n is at stats + 8·(3·(base+n-1)+2)).
 */
export function bitsMatch(ptrs: usize, len: i32, w: i32, maxOrder: i32, stats: usize, base: i32): void {
  if (w == 0 || len == 0) return;
  if (maxOrder <= 6) {
    if (w == 1) {
      match6w1(ptrs, len, maxOrder, stats, base);
      return;
    }
    if (w == 2) {
      match6w2(ptrs, len, maxOrder, stats, base);
      return;
    }
  }
  const wb = <usize>w << 3;
  const a = alloc(<usize>len * wb);
  const taken = alloc(wb);
  for (let n = 1; n <= maxOrder && n <= len; n++) {
    memory.fill(taken, 0, wb);
    let matches = 0;
    let any: u64 = 0;
    if (n == 1) {
      for (let j = 0; j < len; j++) {
        const e = <usize>load<u32>(ptrs + (<usize>j << 2));
        const dst = a + <usize>j * wb;
        let found = false;
        for (let q: usize = 0; q < wb; q += 8) {
          const v = load<u64>(e + q);
          store<u64>(dst + q, v);
          any |= v;
          const f = v & ~load<u64>(taken + q);
          if (!found && f != 0) {
            store<u64>(taken + q, load<u64>(taken + q) | (f & (0 - f)));
            found = true;
          }
        }
        matches += i32(found);
      }
    } else {
      for (let j = len - 1; j >= n - 1; j--) {
        const e = <usize>load<u32>(ptrs + (<usize>j << 2));
        const dst = a + <usize>j * wb;
        const src = dst - wb;
        let carry: u64 = 0;
        let found = false;
        for (let q: usize = 0; q < wb; q += 8) {
          const x = load<u64>(src + q);
          const v = ((x << 1) | carry) & load<u64>(e + q);
          carry = x >> 63;
          store<u64>(dst + q, v);
          any |= v;
          const f = v & ~load<u64>(taken + q);
          if (!found && f != 0) {
            store<u64>(taken + q, load<u64>(taken + q) | (f & (0 - f)));
            found = true;
          }
        }
        matches += i32(found);
      }
    }
    const p = stats + (<usize>(3 * (base + n - 1) + 2) << 3);
    store<f64>(p, load<f64>(p) + <f64>matches);
    if (any == 0) break; // no order-n n-gram of the reference is in the hypothesis: none longer either
  }
}

/**
 * `bitsMatch` for hypotheses of at most 64 symbols and orders up to 6: one reference pass with every
 * order's set and taken set in locals (orders above maxOrder are computed and dropped).
 */
function match6w1(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32): void {
  let a1: u64 = 0, a2: u64 = 0, a3: u64 = 0, a4: u64 = 0, a5: u64 = 0, a6: u64 = 0;
  let t1: u64 = 0, t2: u64 = 0, t3: u64 = 0, t4: u64 = 0, t5: u64 = 0, t6: u64 = 0;
  let m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0;
  for (let j = 0; j < len; j++) {
    const e = load<u64>(<usize>load<u32>(ptrs + (<usize>j << 2)));
    a6 = (a5 << 1) & e;
    a5 = (a4 << 1) & e;
    a4 = (a3 << 1) & e;
    a3 = (a2 << 1) & e;
    a2 = (a1 << 1) & e;
    a1 = e;
    const f1 = a1 & ~t1;
    t1 |= f1 & (0 - f1);
    m1 += i32(f1 != 0);
    const f2 = a2 & ~t2;
    t2 |= f2 & (0 - f2);
    m2 += i32(f2 != 0);
    const f3 = a3 & ~t3;
    t3 |= f3 & (0 - f3);
    m3 += i32(f3 != 0);
    const f4 = a4 & ~t4;
    t4 |= f4 & (0 - f4);
    m4 += i32(f4 != 0);
    const f5 = a5 & ~t5;
    t5 |= f5 & (0 - f5);
    m5 += i32(f5 != 0);
    const f6 = a6 & ~t6;
    t6 |= f6 & (0 - f6);
    m6 += i32(f6 != 0);
  }
  addMatches(stats, base, maxOrder, m1, m2, m3, m4, m5, m6);
}

/** `match6w1` for hypotheses of 65 to 128 symbols: two words per set (lo, hi). */
function match6w2(ptrs: usize, len: i32, maxOrder: i32, stats: usize, base: i32): void {
  let a1: u64 = 0, a2: u64 = 0, a3: u64 = 0, a4: u64 = 0, a5: u64 = 0, a6: u64 = 0;
  let b1: u64 = 0, b2: u64 = 0, b3: u64 = 0, b4: u64 = 0, b5: u64 = 0, b6: u64 = 0;
  let t1: u64 = 0, t2: u64 = 0, t3: u64 = 0, t4: u64 = 0, t5: u64 = 0, t6: u64 = 0;
  let u1: u64 = 0, u2: u64 = 0, u3: u64 = 0, u4: u64 = 0, u5: u64 = 0, u6: u64 = 0;
  let m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0;
  for (let j = 0; j < len; j++) {
    const p = <usize>load<u32>(ptrs + (<usize>j << 2));
    const e = load<u64>(p);
    const g = load<u64>(p, 8);
    b6 = ((b5 << 1) | (a5 >> 63)) & g;
    a6 = (a5 << 1) & e;
    b5 = ((b4 << 1) | (a4 >> 63)) & g;
    a5 = (a4 << 1) & e;
    b4 = ((b3 << 1) | (a3 >> 63)) & g;
    a4 = (a3 << 1) & e;
    b3 = ((b2 << 1) | (a2 >> 63)) & g;
    a3 = (a2 << 1) & e;
    b2 = ((b1 << 1) | (a1 >> 63)) & g;
    a2 = (a1 << 1) & e;
    a1 = e;
    b1 = g;
    {
      const f = a1 & ~t1;
      const h = b1 & ~u1;
      t1 |= f & (0 - f);
      u1 |= select<u64>(h & (0 - h), 0, f == 0);
      m1 += i32((f | h) != 0);
    }
    {
      const f = a2 & ~t2;
      const h = b2 & ~u2;
      t2 |= f & (0 - f);
      u2 |= select<u64>(h & (0 - h), 0, f == 0);
      m2 += i32((f | h) != 0);
    }
    {
      const f = a3 & ~t3;
      const h = b3 & ~u3;
      t3 |= f & (0 - f);
      u3 |= select<u64>(h & (0 - h), 0, f == 0);
      m3 += i32((f | h) != 0);
    }
    {
      const f = a4 & ~t4;
      const h = b4 & ~u4;
      t4 |= f & (0 - f);
      u4 |= select<u64>(h & (0 - h), 0, f == 0);
      m4 += i32((f | h) != 0);
    }
    {
      const f = a5 & ~t5;
      const h = b5 & ~u5;
      t5 |= f & (0 - f);
      u5 |= select<u64>(h & (0 - h), 0, f == 0);
      m5 += i32((f | h) != 0);
    }
    {
      const f = a6 & ~t6;
      const h = b6 & ~u6;
      t6 |= f & (0 - f);
      u6 |= select<u64>(h & (0 - h), 0, f == 0);
      m6 += i32((f | h) != 0);
    }
  }
  addMatches(stats, base, maxOrder, m1, m2, m3, m4, m5, m6);
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
 * Occurrence masks of the hypothesis words (spans (start, end) into `cps`, `count` ≤ MAX_BITS_LEN). Call
 * after the item's `mark()`: the masks live in its scratch.
 */
export function wordMasksBuild(t: WordMasks, cps: usize, words: usize, count: i32): void {
  const w = (count + 63) >> 6;
  t.words = w;
  t.epoch++;
  if (t.epoch == 0) {
    memory.fill(t.slots, 0, <usize>(t.mask + 1) << 5);
    t.epoch = 1;
  }
  const pool = alloc(<usize>(count * w) << 3);
  let poolCount = 0;
  for (let k = 0; k < count; k++) {
    const a = spanStart(words, k);
    const len = spanEnd(words, k) - a;
    const p = cps + (<usize>a << 2);
    const h = hashRange(p, len);
    const s = wordSlot(t, p, len, h);
    let m: usize;
    if (load<u32>(s, 4) != t.epoch) {
      m = pool + (<usize>(poolCount * w) << 3);
      poolCount++;
      for (let q = 0; q < w; q++) store<u64>(m + (<usize>q << 3), 0);
      store<u32>(s, h);
      store<u32>(s, t.epoch, 4);
      store<u32>(s, <u32>p, 8);
      store<u32>(s, <u32>len, 12);
      store<u32>(s, <u32>m, 16);
    } else {
      m = <usize>load<u32>(s, 16);
    }
    const b = m + (<usize>(k >> 6) << 3);
    store<u64>(b, load<u64>(b) | (<u64>1 << <u64>(k & 63)));
  }
}

/** Mask pointers of reference words (absent from the hypothesis → the zero mask `zero`). */
export function wordMaskPtrs(t: WordMasks, cps: usize, words: usize, count: i32, zero: usize): usize {
  const out = alloc(<usize>(count + 1) << 2);
  for (let k = 0; k < count; k++) {
    const a = spanStart(words, k);
    const len = spanEnd(words, k) - a;
    const p = cps + (<usize>a << 2);
    const s = wordSlot(t, p, len, hashRange(p, len));
    store<u32>(out + (<usize>k << 2), load<u32>(s, 4) == t.epoch ? load<u32>(s, 16) : <u32>zero);
  }
  return out;
}
