// Levenshtein (edit) distance over code points: insertions, deletions and substitutions, each costing 1.
// JS libraries (js-levenshtein, fastest-levenshtein, autoevals) count UTF-16 units, so an astral
// character costs them 2; here every code point is one symbol, as Python's `len` counts.
//
// Per pair: strip the common prefix and suffix, then run Hyyrö's bit-parallel form of Myers' algorithm
// on the shorter remainder (m code points) against the longer (n): one u64 word when m <= 64, else
// Myers' blocks of 64 rows, O(ceil(m/64)·n) time. The per-code-point match masks take
// distinct(m)·ceil(m/64)·8 bytes; past MAX_MASK_BYTES the one-row dynamic programme (O(m·n) time,
// O(m) memory) is used instead.

import { alloc, allocZero, mark, release } from "./mem";
import { decodeUtf8 } from "./text";
import { strPtr, strLen } from "./batch";

const EMPTY: u32 = 0xffffffff;
const PEQ_SLOTS: u32 = 128; // open addressing for at most 64 distinct code points

// @ts-ignore: decorator
@inline function slotOf(keys: usize, cp: u32): u32 {
  let i = (cp * 0x9e3779b1) >> 25; // top 7 bits: 0..127
  while (true) {
    const k = load<u32>(keys + (<usize>i << 2));
    if (k == cp || k == EMPTY) return i;
    i = (i + 1) & (PEQ_SLOTS - 1);
  }
  return 0;
}

/** Distance of a[0..m) and b[0..n) with 1 <= m <= 64 (Hyyrö 2003, global edit distance). */
function bitParallel<T>(a: usize, m: i32, b: usize, n: i32): i32 {
  if (sizeof<T>() == 1) return bitParallelBytes(a, m, b, n);
  const keys = alloc(<usize>PEQ_SLOTS << 2);
  const masks = alloc(<usize>PEQ_SLOTS << 3);
  memory.fill(keys, 0xff, <usize>PEQ_SLOTS << 2);
  for (let i = 0; i < m; i++) {
    const c = <u32>load<T>(a + <usize>i * sizeof<T>());
    const s = slotOf(keys, c);
    const p = masks + (<usize>s << 3);
    if (load<u32>(keys + (<usize>s << 2)) == EMPTY) {
      store<u32>(keys + (<usize>s << 2), c);
      store<u64>(p, 0);
    }
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>i));
  }
  const last: u64 = <u64>1 << <u64>(m - 1);
  let pv: u64 = m == 64 ? ~(<u64>0) : (<u64>1 << <u64>m) - 1;
  let mv: u64 = 0;
  let score = m;
  for (let j = 0; j < n; j++) {
    const c = <u32>load<T>(b + <usize>j * sizeof<T>());
    const s = slotOf(keys, c);
    const eq: u64 = load<u32>(keys + (<usize>s << 2)) == c ? load<u64>(masks + (<usize>s << 3)) : 0;
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & last) score++;
    else if (mh & last) score--;
    ph = (ph << 1) | 1;
    mh = mh << 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return score;
}

// Per-byte tables for ASCII pairs, all zero between calls (each user clears the entries it set).
const BYTE_MASKS: usize = memory.data(256 << 3);
const BYTE_IDS: usize = memory.data(256 << 2);

/** bitParallel for byte strings: the match masks sit in a table indexed by the byte (no hashing). */
function bitParallelBytes(a: usize, m: i32, b: usize, n: i32): i32 {
  for (let i = 0; i < m; i++) {
    const p = BYTE_MASKS + (<usize>load<u8>(a + <usize>i) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>i));
  }
  const last: u64 = <u64>1 << <u64>(m - 1);
  let pv: u64 = m == 64 ? ~(<u64>0) : (<u64>1 << <u64>m) - 1;
  let mv: u64 = 0;
  let score = m;
  for (let j = 0; j < n; j++) {
    const eq = load<u64>(BYTE_MASKS + (<usize>load<u8>(b + <usize>j) << 3));
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & last) score++;
    else if (mh & last) score--;
    ph = (ph << 1) | 1;
    mh = mh << 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  for (let i = 0; i < m; i++) store<u64>(BYTE_MASKS + (<usize>load<u8>(a + <usize>i) << 3), 0);
  return score;
}

const MAX_MASK_BYTES: usize = 64 << 20;

/**
 * Distance of a[0..m) and b[0..n) with m > 64: Myers (1999) blocks of 64 rows, each column advanced
 * block by block with the horizontal delta carried from one block to the next (Hyyrö 2003). Returns
 * -1 when the match masks would exceed MAX_MASK_BYTES.
 */
function blocked<T>(a: usize, m: i32, b: usize, n: i32): i32 {
  if (sizeof<T>() == 1) return blockedBytes(a, m, b, n);
  const blocks = (m + 63) >> 6;
  // distinct code points of a -> dense ids, in an open-addressing table of 2^bits slots
  let bits: u32 = 4;
  while ((<u32>1 << bits) < <u32>m * 2) bits++;
  const cap: u32 = <u32>1 << bits;
  const keys = alloc(<usize>cap << 2);
  const ids = alloc(<usize>cap << 2);
  memory.fill(keys, 0xff, <usize>cap << 2);
  let distinct = 0;
  for (let i = 0; i < m; i++) {
    const c = <u32>load<T>(a + <usize>i * sizeof<T>());
    let h = (c * 0x9e3779b1) >> (32 - bits);
    while (true) {
      const k = load<u32>(keys + (<usize>h << 2));
      if (k == c) break;
      if (k == EMPTY) {
        store<u32>(keys + (<usize>h << 2), c);
        store<u32>(ids + (<usize>h << 2), distinct++);
        break;
      }
      h = (h + 1) & (cap - 1);
    }
  }
  // in 64 bits: distinct × blocks × 8 exceeds 32 bits for strings of a few hundred thousand code points
  const maskBytes64 = <u64>distinct * <u64>blocks * 8;
  if (maskBytes64 > <u64>MAX_MASK_BYTES) return -1;
  const maskBytes = <usize>maskBytes64;
  const masks = allocZero(maskBytes);
  for (let i = 0; i < m; i++) {
    const c = <u32>load<T>(a + <usize>i * sizeof<T>());
    let h = (c * 0x9e3779b1) >> (32 - bits);
    while (load<u32>(keys + (<usize>h << 2)) != c) h = (h + 1) & (cap - 1);
    const p = masks + ((<usize>load<u32>(ids + (<usize>h << 2)) * <usize>blocks + <usize>(i >> 6)) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(i & 63)));
  }
  const pvs = alloc(<usize>blocks << 3);
  const mvs = allocZero(<usize>blocks << 3);
  memory.fill(pvs, 0xff, <usize>blocks << 3);
  const lastBit: u64 = <u64>1 << <u64>((m - 1) & 63);
  const topBit: u64 = <u64>1 << 63;
  let score = m;
  for (let j = 0; j < n; j++) {
    const c = <u32>load<T>(b + <usize>j * sizeof<T>());
    let h = (c * 0x9e3779b1) >> (32 - bits);
    let row: usize = 0;
    let found = false;
    while (true) {
      const k = load<u32>(keys + (<usize>h << 2));
      if (k == c) {
        row = masks + ((<usize>load<u32>(ids + (<usize>h << 2)) * <usize>blocks) << 3);
        found = true;
        break;
      }
      if (k == EMPTY) break;
      h = (h + 1) & (cap - 1);
    }
    let hin = 1; // the top row D[0][j] = j grows by one per column
    for (let k = 0; k < blocks; k++) {
      let eq: u64 = found ? load<u64>(row + (<usize>k << 3)) : 0;
      const pv = load<u64>(pvs + (<usize>k << 3));
      const mv = load<u64>(mvs + (<usize>k << 3));
      const xv = eq | mv;
      if (hin < 0) eq |= 1;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      const top = k == blocks - 1 ? lastBit : topBit;
      const hout = ph & top ? 1 : mh & top ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (hin < 0) mh |= 1;
      else if (hin > 0) ph |= 1;
      store<u64>(pvs + (<usize>k << 3), mh | ~(xv | ph));
      store<u64>(mvs + (<usize>k << 3), ph & xv);
      hin = hout;
    }
    score += hin;
  }
  return score;
}

/** blocked for byte strings: dense ids from a table indexed by the byte (no hashing). */
function blockedBytes(a: usize, m: i32, b: usize, n: i32): i32 {
  const blocks = (m + 63) >> 6;
  let distinct: u32 = 0;
  for (let i = 0; i < m; i++) {
    const p = BYTE_IDS + (<usize>load<u8>(a + <usize>i) << 2);
    if (load<u32>(p) == 0) store<u32>(p, ++distinct); // id + 1
  }
  // one more all-zero row for bytes that a lacks (id 0); past MAX_MASK_BYTES, -1 as blocked
  const maskBytes64 = <u64>(distinct + 1) * <u64>blocks * 8;
  if (maskBytes64 > <u64>MAX_MASK_BYTES) {
    for (let i = 0; i < m; i++) store<u32>(BYTE_IDS + (<usize>load<u8>(a + <usize>i) << 2), 0);
    return -1;
  }
  const masks = allocZero(<usize>maskBytes64);
  for (let i = 0; i < m; i++) {
    const id = load<u32>(BYTE_IDS + (<usize>load<u8>(a + <usize>i) << 2));
    const p = masks + ((<usize>id * <usize>blocks + <usize>(i >> 6)) << 3);
    store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(i & 63)));
  }
  const pvs = alloc(<usize>blocks << 3);
  const mvs = allocZero(<usize>blocks << 3);
  memory.fill(pvs, 0xff, <usize>blocks << 3);
  const lastBit: u64 = <u64>1 << <u64>((m - 1) & 63);
  const topBit: u64 = <u64>1 << 63;
  let score = m;
  for (let j = 0; j < n; j++) {
    const id = load<u32>(BYTE_IDS + (<usize>load<u8>(b + <usize>j) << 2));
    const row = masks + ((<usize>id * <usize>blocks) << 3);
    let hin = 1; // the top row D[0][j] = j grows by one per column
    for (let k = 0; k < blocks; k++) {
      let eq: u64 = load<u64>(row + (<usize>k << 3));
      const pv = load<u64>(pvs + (<usize>k << 3));
      const mv = load<u64>(mvs + (<usize>k << 3));
      const xv = eq | mv;
      if (hin < 0) eq |= 1;
      const xh = (((eq & pv) + pv) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      const top = k == blocks - 1 ? lastBit : topBit;
      const hout = ph & top ? 1 : mh & top ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (hin < 0) mh |= 1;
      else if (hin > 0) ph |= 1;
      store<u64>(pvs + (<usize>k << 3), mh | ~(xv | ph));
      store<u64>(mvs + (<usize>k << 3), ph & xv);
      hin = hout;
    }
    score += hin;
  }
  for (let i = 0; i < m; i++) store<u32>(BYTE_IDS + (<usize>load<u8>(a + <usize>i) << 2), 0);
  return score;
}

/** Distance of a[0..m) and b[0..n) (one-row dynamic programme over the shorter string a). */
function rowDp<T>(a: usize, m: i32, b: usize, n: i32): i32 {
  const row = alloc(<usize>(m + 1) << 2);
  for (let i = 0; i <= m; i++) store<i32>(row + (<usize>i << 2), i);
  for (let j = 1; j <= n; j++) {
    const cb = <u32>load<T>(b + <usize>(j - 1) * sizeof<T>());
    let diag = load<i32>(row); // D[j-1][0]
    store<i32>(row, j);
    let left = j; // D[j][i-1]
    for (let i = 1; i <= m; i++) {
      const up = load<i32>(row + (<usize>i << 2)); // D[j-1][i]
      let v = diag + i32(<u32>load<T>(a + <usize>(i - 1) * sizeof<T>()) != cb);
      const ins = min(up, left) + 1;
      if (ins < v) v = ins;
      store<i32>(row + (<usize>i << 2), v);
      diag = up;
      left = v;
    }
  }
  return load<i32>(row + (<usize>m << 2));
}

/** Distance between two code-point arrays, elements of type T (u32 code points, or u8 for ASCII). */
export function distance<T>(a: usize, la: i32, b: usize, lb: i32): i32 {
  // common prefix and suffix never change the distance
  let p = 0;
  while (p < la && p < lb && <u32>load<T>(a + <usize>p * sizeof<T>()) == <u32>load<T>(b + <usize>p * sizeof<T>())) p++;
  a += <usize>p * sizeof<T>();
  b += <usize>p * sizeof<T>();
  la -= p;
  lb -= p;
  while (la > 0 && lb > 0 && <u32>load<T>(a + <usize>(la - 1) * sizeof<T>()) == <u32>load<T>(b + <usize>(lb - 1) * sizeof<T>())) {
    la--;
    lb--;
  }
  if (la > lb) {
    const t = a;
    a = b;
    b = t;
    const tl = la;
    la = lb;
    lb = tl;
  }
  if (la == 0) return lb;
  if (la <= 64) return bitParallel<T>(a, la, b, lb);
  const m0 = mark();
  const d = blocked<T>(a, la, b, lb);
  release(m0);
  return d >= 0 ? d : rowDp<T>(a, la, b, lb);
}

/** Whether p[0..n) is all ASCII (bytes < 0x80). */
function isAscii(p: usize, n: i32): bool {
  let i = 0;
  for (; i + 8 <= n; i += 8) if ((load<u64>(p + <usize>i) & 0x8080808080808080) != 0) return false;
  for (; i < n; i++) if (load<u8>(p + <usize>i) >= 0x80) return false;
  return true;
}

/**
 * `n` pairs: pair i is strings 2i and 2i+1 of the batch layout (assembly/batch.ts; no references).
 * Writes 2 f64 per pair at `out`: the distance and max(code points of the two strings).
 */
export function levenshteinBatch(n: i32, bytes: usize, strOffs: usize, out: usize): void {
  for (let i = 0; i < n; i++) {
    const m0 = mark();
    const la8 = strLen(strOffs, 2 * i);
    const lb8 = strLen(strOffs, 2 * i + 1);
    const pa = strPtr(bytes, strOffs, 2 * i);
    const pb = strPtr(bytes, strOffs, 2 * i + 1);
    const o = out + (<usize>i << 4);
    if (isAscii(pa, la8) && isAscii(pb, lb8)) {
      // ASCII: one byte per code point, so the bytes are the symbols (no decoding)
      store<f64>(o, <f64>distance<u8>(pa, la8, pb, lb8));
      store<f64>(o, <f64>(la8 > lb8 ? la8 : lb8), 8);
      release(m0);
      continue;
    }
    const a = alloc(<usize>max(la8, 1) << 2);
    const la = decodeUtf8(pa, la8, a);
    const b = alloc(<usize>max(lb8, 1) << 2);
    const lb = decodeUtf8(pb, lb8, b);
    store<f64>(o, <f64>distance<u32>(a, la, b, lb));
    store<f64>(o, <f64>(la > lb ? la : lb), 8);
    release(m0);
  }
}
