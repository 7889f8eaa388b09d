// ROUGE as computed by Google's `rouge-score` 0.1.x (RougeScorer with the default tokenizer,
// split_summaries=False), optionally with NLTK's Porter stemmer.
//
// Tokenizer: Python `lower()`, every run of chars outside [a-z0-9] becomes a space, split, and (when
// stemming) tokens longer than 3 chars are stemmed. The only non-ASCII code points whose lowercase
// holds an ASCII letter are U+0130 (-> "i" + U+0307, so "i" then a separator) and U+212A KELVIN SIGN
// (-> "k"); every other non-ASCII code point is a separator. So the kernel works on UTF-8 bytes
// directly and tokens are ASCII. Tokens are interned into dense u32 ids per item (hyp + refs), so all
// comparisons below are integer comparisons.
//
// rougeN: multiset n-gram overlap, P = overlap / max(#hyp n-grams, 1), R = overlap / max(#ref n-grams, 1).
// rougeL: LCS of the whole token sequences (bit-parallel, Hyyro 2004); 0/0/0 if a side is empty.
// rougeLsum: text split at "\n" only, empty lines dropped; for each reference line, in order, the union
// of one LCS (DP table + rouge-score's backtrack, ties go "up") against each candidate line; each union
// token counts while its remaining count is > 0 in both whole texts. Lines that yield no token cannot
// contribute anything, so only lines with tokens are kept (`groups` below); with at most one such line
// on each side the result equals rougeL's.
// Several references (score_multi): per type, the reference with the highest F (first on ties).
// F = 2*P*R/(P+R) evaluated left to right, 0 when P+R == 0, as rouge_score.scoring.fmeasure.

import { alloc, allocTable, allocZero, mark, release } from "./mem";
import { strPtr, strLen, refFirst, refEnd } from "./batch";
import { porterStem } from "./porter";

/** Type codes: 1..9 = rougeN, 10 = rougeL, 11 = rougeLsum. */
const ROUGE_L: u32 = 10;
const ROUGE_LSUM: u32 = 11;

const NONE: u32 = 0xffffffff;

// ---------------------------------------------------------------------------------------------------
// Per-item scratch state (module globals; every pointer is into scratch released after the item).

// @ts-ignore: decorator
@lazy let norm: usize = 0; // lowercased token chars, back to back
// @ts-ignore: decorator
@lazy let normPos: i32 = 0;
// @ts-ignore: decorator
@lazy let spans: usize = 0; // per token: u32 start (in norm), u32 len, u32 hash, u32 spare
// @ts-ignore: decorator
@lazy let tokCount: i32 = 0;
// @ts-ignore: decorator
@lazy let toks: usize = 0; // per token: final (stemmed) id
// @ts-ignore: decorator
@lazy let grp: usize = 0; // first-token index of each line that has tokens, per text, + a sentinel
// @ts-ignore: decorator
@lazy let grpCount: i32 = 0;
// @ts-ignore: decorator
@lazy let txt: usize = 0; // per text: u32 first token, u32 token end, u32 first group entry, u32 groups

// ---------------------------------------------------------------------------------------------------
// Tokenizer

// Byte classes: a token char (its lowercase, >= 0x30), or SEP, NL ("\n"), LEAD_C4 (U+0130 is C4 B0),
// LEAD_E2 (U+212A is E2 84 AA). Every other byte, including all other UTF-8 bytes, is SEP.
const SEP: u32 = 0;
const NL: u32 = 1;
const LEAD_C4: u32 = 2;
const LEAD_E2: u32 = 3;
const CLS: usize = memory.data(256);
// @ts-ignore: decorator
@lazy let clsReady = false;

function initClasses(): void {
  for (let c: u32 = 0; c < 256; c++) {
    let v: u32 = SEP;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) v = c;
    else if (c >= 0x41 && c <= 0x5a) v = c | 0x20;
    else if (c == 0x0a) v = NL;
    else if (c == 0xc4) v = LEAD_C4;
    else if (c == 0xe2) v = LEAD_E2;
    store<u8>(CLS + <usize>c, <u8>v);
  }
  clsReady = true;
}

// @ts-ignore: decorator
@inline function cls(p: usize, i: i32): u32 {
  return <u32>load<u8>(CLS + <usize>load<u8>(p + <usize>i));
}

// @ts-ignore: decorator
@inline function isDottedI(p: usize, i: i32, len: i32): bool {
  return i + 1 < len && load<u8>(p + <usize>i, 1) == 0xb0;
}

// @ts-ignore: decorator
@inline function isKelvin(p: usize, i: i32, len: i32): bool {
  return i + 2 < len && load<u8>(p + <usize>i, 1) == 0x84 && load<u8>(p + <usize>i, 2) == 0xaa;
}

/**
 * Tokenizes text k (UTF-8 p[0..len)): appends its tokens (lowercased chars to `norm`, spans with
 * hashes to `spans`) and the first-token index of each of its lines that has tokens to `grp`.
 */
function tokenize(p: usize, len: i32, k: i32): void {
  const rec = txt + (<usize>k << 4);
  let tc = tokCount;
  let gc = grpCount;
  let np = normPos;
  const nb = norm;
  store<u32>(rec, <u32>tc);
  store<u32>(rec, <u32>gc, 8);
  let lineHas = false;
  let i = 0;
  while (i < len) {
    let c = cls(p, i);
    if (c < 0x30) {
      if (c == NL) lineHas = false;
      if (c == SEP || c == NL || (c == LEAD_C4 && !isDottedI(p, i, len)) || (c == LEAD_E2 && !isKelvin(p, i, len))) {
        i++;
        continue;
      }
    }
    // a token starts at i
    const start = np;
    if (!lineHas) {
      lineHas = true;
      store<u32>(grp + (<usize>gc << 2), <u32>tc);
      gc++;
    }
    while (true) {
      if (c >= 0x30) {
        if (i + 16 <= len) {
          // 16 bytes at once: lowercase them all into norm (16 bytes of slack), keep the leading run of
          // ASCII letters and digits (at least one: c is one)
          const v = v128.load(p + <usize>i);
          const w = v128.or(v, i8x16.splat(0x20)); // ASCII lowercase; digits already have bit 5 set
          const letter = i8x16.le_u(i8x16.sub(w, i8x16.splat(0x61)), i8x16.splat(25));
          const digit = i8x16.le_u(i8x16.sub(v, i8x16.splat(0x30)), i8x16.splat(9));
          v128.store(nb + <usize>np, w);
          const m = ~(<u32>i8x16.bitmask(v128.or(letter, digit))) & 0xffff;
          const k = m == 0 ? 16 : <i32>ctz(m);
          np += k;
          i += k;
        } else {
          store<u8>(nb + <usize>np, <u8>c);
          np++;
          i++;
        }
      } else if (c == LEAD_E2 && isKelvin(p, i, len)) {
        store<u8>(nb + <usize>np, 0x6b); // U+212A KELVIN SIGN -> "k"
        np++;
        i += 3;
      } else if (c == LEAD_C4 && isDottedI(p, i, len)) {
        // U+0130 -> "i" + U+0307: an "i" that ends the token
        store<u8>(nb + <usize>np, 0x69);
        np++;
        i += 2;
        break;
      } else {
        break; // a separator: left for the outer loop (it may be a newline)
      }
      if (i >= len) break;
      c = cls(p, i);
    }
    const s = spans + (<usize>tc << 4);
    store<u32>(s, <u32>start);
    store<u32>(s, <u32>(np - start), 4);
    store<u32>(s, hashBytes(nb + <usize>start, np - start), 8);
    tc++;
  }
  store<u32>(rec, <u32>tc, 4);
  store<u32>(rec, <u32>(gc - <i32>load<u32>(rec, 8)), 12);
  store<u32>(grp + (<usize>gc << 2), <u32>tc); // sentinel: end of the last line
  gc++;
  tokCount = tc;
  grpCount = gc;
  normPos = np;
}

// ---------------------------------------------------------------------------------------------------
// Interning (open addressing; slot = hash, id+1; keys[id] = ptr, len)

function lookupAdd(slots: usize, mask: u32, keys: usize, count: u32, p: usize, n: i32, h: u32): u32 {
  let i = h & mask;
  while (true) {
    const s = slots + (<usize>i << 3);
    const idp1 = load<u32>(s, 4);
    if (idp1 == 0) {
      store<u32>(s, h);
      store<u32>(s, count + 1, 4);
      const k = keys + (<usize>count << 3);
      store<u32>(k, <u32>p);
      store<u32>(k, <u32>n, 4);
      return count; // new id
    }
    if (load<u32>(s) == h) {
      const k = keys + (<usize>(idp1 - 1) << 3);
      if (load<u32>(k, 4) == <u32>n && bytesEq(<usize>load<u32>(k), p, n)) return idp1 - 1;
    }
    i = (i + 1) & mask;
  }
}

/**
 * Whether a[0..n) == b[0..n), 8 bytes at a time. Like `hashBytes` it may read up to 7 bytes past either
 * end (masked out): every buffer compared here has 8 bytes of slack after it.
 */
// @ts-ignore: decorator
@inline function bytesEq(a: usize, b: usize, n: i32): bool {
  let i = 0;
  for (; i + 8 <= n; i += 8) if (load<u64>(a + <usize>i) != load<u64>(b + <usize>i)) return false;
  const rest = n - i;
  if (rest == 0) return true;
  return ((load<u64>(a + <usize>i) ^ load<u64>(b + <usize>i)) & ((<u64>1 << (<u64>rest << 3)) - 1)) == 0;
}

function capFor(items: i32): u32 {
  let cap: u32 = 16;
  while (cap < <u32>items * 2) cap <<= 1;
  return cap;
}

/**
 * Hash of the bytes p[0..n), read 8 at a time (multiplicative, 64-bit). It may read up to 7 bytes past
 * p + n (masked out), so every buffer hashed here has 8 bytes of slack after it.
 */
// @ts-ignore: decorator
@inline function hashBytes(p: usize, n: i32): u32 {
  const K: u64 = 0x9e3779b97f4a7c15;
  let h: u64 = (<u64>n + 1) * K;
  let i = 0;
  for (; i + 8 <= n; i += 8) h = (h ^ load<u64>(p + <usize>i)) * K;
  const rest = n - i;
  if (rest > 0) h = (h ^ (load<u64>(p + <usize>i) & ((<u64>1 << (<u64>rest << 3)) - 1))) * K;
  return <u32>(h ^ (h >> 32));
}

/** Interns every token; returns the vocabulary size V (ids 0..V-1 in `toks`). */
function internAll(stem: bool): i32 {
  const T = tokCount;
  const cap = capFor(T);
  const mask = cap - 1;
  const rawSlots = allocZero(<usize>cap << 3);
  const rawKeys = alloc(<usize>(T + 1) << 3);
  let rawCount: u32 = 0;
  if (!stem) {
    for (let t = 0; t < T; t++) {
      const s = spans + (<usize>t << 4);
      const id = lookupAdd(rawSlots, mask, rawKeys, rawCount, norm + <usize>load<u32>(s), <i32>load<u32>(s, 4), load<u32>(s, 8));
      if (id == rawCount) rawCount++;
      store<u32>(toks + (<usize>t << 2), id);
    }
    return <i32>rawCount;
  }
  // stemming: each distinct raw token is stemmed once, then the stems are interned
  const stemSlots = allocZero(<usize>cap << 3);
  const stemKeys = alloc(<usize>(T + 1) << 3);
  const rawStem = alloc(<usize>(T + 1) << 2);
  const arena = alloc(<usize>normPos + 8);
  let arenaPos: usize = 0;
  let stemCount: u32 = 0;
  for (let t = 0; t < T; t++) {
    const s = spans + (<usize>t << 4);
    const p = norm + <usize>load<u32>(s);
    const n = <i32>load<u32>(s, 4);
    const rid = lookupAdd(rawSlots, mask, rawKeys, rawCount, p, n, load<u32>(s, 8));
    let sid: u32;
    if (rid == rawCount) {
      rawCount++;
      let sid2: u32;
      if (n > 3) {
        const c = stemCacheGet(p, n, load<u32>(s, 8));
        if (c != 0) {
          const lens = load<u32>(c, 8);
          const kl = lens & 0xffff;
          sid2 = lookupAdd(stemSlots, mask, stemKeys, stemCount, scArena + <usize>load<u32>(c, 4) + kl, <i32>(lens >> 16), load<u32>(c, 12));
        } else {
          // the cache is full: stem into this item's scratch
          const q = arena + arenaPos;
          memory.copy(q, p, <usize>n);
          arenaPos += <usize>n;
          const m = porterStem(q, n);
          sid2 = lookupAdd(stemSlots, mask, stemKeys, stemCount, q, m, hashBytes(q, m));
        }
      } else {
        sid2 = lookupAdd(stemSlots, mask, stemKeys, stemCount, p, n, load<u32>(s, 8));
      }
      if (sid2 == stemCount) stemCount++;
      store<u32>(rawStem + (<usize>rid << 2), sid2);
      sid = sid2;
    } else {
      sid = load<u32>(rawStem + (<usize>rid << 2));
    }
    store<u32>(toks + (<usize>t << 2), sid);
  }
  return <i32>stemCount;
}

// ---------------------------------------------------------------------------------------------------
// Stem cache for one batch: raw token -> stem, so each distinct word of a batch is stemmed once. It is
// allocated before the first item (so per-item release leaves it alone) with a bounded size; once full
// it stops growing and further words are stemmed per item.
// Slot (16 bytes): hash of the raw token, arena offset of the raw token (its stem follows it),
// raw length | stem length << 16 (0 = empty slot; tokens are never empty), hash of the stem.

// @ts-ignore: decorator
@lazy let scSlots: usize = 0;
// @ts-ignore: decorator
@lazy let scMask: u32 = 0;
// @ts-ignore: decorator
@lazy let scFree: u32 = 0; // entries that may still be added
// @ts-ignore: decorator
@lazy let scArena: usize = 0;
// @ts-ignore: decorator
@lazy let scArenaPos: usize = 0;
// @ts-ignore: decorator
@lazy let scArenaEnd: usize = 0;

function stemCacheInit(totalBytes: usize): void {
  let want = totalBytes >> 2; // tokens that need stemming are > 3 chars, plus a separator
  if (want > 32768) want = 32768;
  const cap = capFor(<i32>want);
  scSlots = allocZero(<usize>cap << 4);
  scMask = cap - 1;
  scFree = cap >> 1;
  let arena = totalBytes * 2 + 64;
  if (arena > (1 << 20)) arena = 1 << 20;
  scArena = alloc(arena + 8); // + slack for hashBytes
  scArenaPos = 0;
  scArenaEnd = arena;
}

/** The cache slot of raw token p[0..n) (hash h), adding it if there is room; 0 when the cache is full. */
function stemCacheGet(p: usize, n: i32, h: u32): usize {
  let i = h & scMask;
  while (true) {
    const s = scSlots + (<usize>i << 4);
    const lens = load<u32>(s, 8);
    if (lens == 0) break;
    if (load<u32>(s) == h && (lens & 0xffff) == <u32>n && bytesEq(scArena + <usize>load<u32>(s, 4), p, n)) return s;
    i = (i + 1) & scMask;
  }
  if (scFree == 0 || scArenaPos + (<usize>n << 1) > scArenaEnd || n > 0xffff) return 0;
  scFree--;
  const key = scArena + scArenaPos;
  memory.copy(key, p, <usize>n);
  const q = key + <usize>n;
  memory.copy(q, p, <usize>n);
  const m = porterStem(q, n);
  const s = scSlots + (<usize>i << 4);
  store<u32>(s, h);
  store<u32>(s, <u32>scArenaPos, 4);
  store<u32>(s, <u32>n | (<u32>m << 16), 8);
  store<u32>(s, hashBytes(q, m), 12);
  scArenaPos += (<usize>n << 1);
  return s;
}

// ---------------------------------------------------------------------------------------------------
// n-gram ids: an n-gram is (id of its (n-1)-gram prefix, last token id) -> a new id >= Vh (the hypothesis vocabulary). Ids of
// different orders never collide, so one table serves all orders. Only hypothesis n-grams are added;
// reference n-grams are looked up (a missing prefix means a missing n-gram).

// @ts-ignore: decorator
@lazy let pairSlots: usize = 0;
// @ts-ignore: decorator
@lazy let pairMask: u32 = 0;
// @ts-ignore: decorator
@lazy let pairNext: u32 = 0;

// @ts-ignore: decorator
@inline function pairHash(a: u32, b: u32): u32 {
  const h = (((<u64>a << 32) | <u64>b) ^ 0x5bd1e9955bd1e995) * 0x9e3779b97f4a7c15;
  return <u32>(h ^ (h >> 32));
}

function pairGet(a: u32, b: u32, add: bool): u32 {
  let i = pairHash(a, b) & pairMask;
  while (true) {
    const s = pairSlots + (<usize>i << 4);
    const idp1 = load<u32>(s, 8);
    if (idp1 == 0) {
      if (!add) return NONE;
      store<u32>(s, a);
      store<u32>(s, b, 4);
      const id = pairNext++;
      store<u32>(s, id + 1, 8);
      return id;
    }
    if (load<u32>(s) == a && load<u32>(s, 4) == b) return idp1 - 1;
    i = (i + 1) & pairMask;
  }
}

// ---------------------------------------------------------------------------------------------------
// Batch-wide configuration

// @ts-ignore: decorator
@lazy let needN: u32 = 0; // bit n set: rougeN requested
// @ts-ignore: decorator
@lazy let maxN: i32 = 0;
// @ts-ignore: decorator
@lazy let needL: bool = false;
// @ts-ignore: decorator
@lazy let needLsum: bool = false;

// Per item, hypothesis-side structures
// @ts-ignore: decorator
@lazy let cnt: usize = 0; // hyp count per id (tokens and n-grams)
// @ts-ignore: decorator
@lazy let used: usize = 0; // matches taken per id for the current reference (reset after use)
// @ts-ignore: decorator
@lazy let lev: usize = 0; // rolling n-gram ids of the current reference
// @ts-ignore: decorator
@lazy let ov: usize = 0; // overlap per order for the current reference
// @ts-ignore: decorator
@lazy let masks: usize = 0; // LCS match masks: V rows of W u64
// @ts-ignore: decorator
@lazy let W: i32 = 0;
// @ts-ignore: decorator
@lazy let vecs: usize = 0; // W u64 working vector
// @ts-ignore: decorator
@lazy let cntR: usize = 0; // rougeLsum: remaining counts per id, reference
// @ts-ignore: decorator
@lazy let cntC: usize = 0; // rougeLsum: remaining counts per id, candidate
// @ts-ignore: decorator
@lazy let inU: usize = 0; // rougeLsum: union flags over the positions of one reference line
// @ts-ignore: decorator
@lazy let dp: usize = 0; // rougeLsum: DP table

// ---------------------------------------------------------------------------------------------------
// Scores

// @ts-ignore: decorator
@inline function fmeasure(p: f64, r: f64): f64 {
  return p + r > 0 ? (2 * p * r) / (p + r) : 0.0;
}

/** Writes (p, r, f) at `o` when this is the first reference or its F is strictly higher. */
// @ts-ignore: decorator
@inline function offer(o: usize, first: bool, p: f64, r: f64): void {
  const f = fmeasure(p, r);
  if (first || f > load<f64>(o, 16)) {
    store<f64>(o, p);
    store<f64>(o, r, 8);
    store<f64>(o, f, 16);
  }
}

/** LCS length of the hypothesis (as masks of ids < vh) and the reference tokens ref[0..r); hypothesis length h. */
function lcsLength(ref: usize, r: i32, h: i32, vh: u32): i32 {
  if (W == 1) {
    let v: u64 = <u64>-1;
    for (let j = 0; j < r; j++) {
      const id = load<u32>(ref + (<usize>j << 2));
      if (id >= vh) continue; // no match mask: v stays as it is
      const m = load<u64>(masks + (<usize>id << 3));
      const u = v & m;
      v = (v + u) | (v - u);
    }
    const low: u64 = h >= 64 ? <u64>-1 : ((<u64>1 << <u64>h) - 1);
    return <i32>popcnt(~v & low);
  }
  const w = W;
  memory.fill(vecs, 0xff, <usize>w << 3);
  for (let j = 0; j < r; j++) {
    const id = load<u32>(ref + (<usize>j << 2));
    if (id >= vh) continue; // no match mask: v stays as it is
    const row = masks + ((<usize>id * <usize>w) << 3);
    let carry: u64 = 0;
    for (let k = 0; k < w; k++) {
      const pv = vecs + (<usize>k << 3);
      const v = load<u64>(pv);
      const u = v & load<u64>(row + (<usize>k << 3));
      const t = v + u;
      const c1: u64 = t < v ? 1 : 0;
      const s = t + carry;
      const c2: u64 = s < t ? 1 : 0;
      carry = c1 | c2;
      store<u64>(pv, s | (v - u));
    }
  }
  let l = 0;
  const full = h >> 6;
  for (let k = 0; k < full; k++) l += <i32>popcnt(~load<u64>(vecs + (<usize>k << 3)));
  const rest = h & 63;
  if (rest != 0) l += <i32>popcnt(~load<u64>(vecs + (<usize>full << 3)) & ((<u64>1 << <u64>rest) - 1));
  return l;
}

/** One LCS of ref[0..rl) and can[0..cl) by rouge-score's table and backtrack; marks ref positions in inU. */
function unionLcs<T>(ref: usize, rl: i32, can: usize, cl: i32): void {
  const C = cl + 1;
  const sz = <usize>sizeof<T>();
  memory.fill(dp, 0, <usize>C * sz);
  for (let i = 1; i <= rl; i++) {
    const ri = load<u32>(ref + (<usize>(i - 1) << 2));
    const prev = dp + <usize>(i - 1) * <usize>C * sz;
    const row = prev + <usize>C * sz;
    store<T>(row, <T>0);
    let left: u32 = 0;
    for (let j = 1; j <= cl; j++) {
      let v: u32;
      if (ri == load<u32>(can + (<usize>(j - 1) << 2))) {
        v = <u32>load<T>(prev + <usize>(j - 1) * sz) + 1;
      } else {
        const up = <u32>load<T>(prev + <usize>j * sz);
        v = up > left ? up : left;
      }
      store<T>(row + <usize>j * sz, <T>v);
      left = v;
    }
  }
  let i = rl;
  let j = cl;
  while (i > 0 && j > 0) {
    const ri = load<u32>(ref + (<usize>(i - 1) << 2));
    if (ri == load<u32>(can + (<usize>(j - 1) << 2))) {
      store<u8>(inU + <usize>(i - 1), 1);
      i--;
      j--;
    } else {
      const leftV = <u32>load<T>(dp + (<usize>i * <usize>C + <usize>(j - 1)) * sz);
      const upV = <u32>load<T>(dp + (<usize>(i - 1) * <usize>C + <usize>j) * sz);
      if (leftV > upV) j--;
      else i--;
    }
  }
}

/** rougeLsum hits between reference text `rk` and the hypothesis (text 0), general case. */
function summaryHits(rk: usize, hk: usize, V: i32): i32 {
  const rT0 = <i32>load<u32>(rk);
  const rT1 = <i32>load<u32>(rk, 4);
  const rG0 = <i32>load<u32>(rk, 8);
  const rGN = <i32>load<u32>(rk, 12);
  const hT0 = <i32>load<u32>(hk);
  const hT1 = <i32>load<u32>(hk, 4);
  const hG0 = <i32>load<u32>(hk, 8);
  const hGN = <i32>load<u32>(hk, 12);
  memory.fill(cntR, 0, <usize>V << 2);
  memory.fill(cntC, 0, <usize>V << 2);
  for (let t = rT0; t < rT1; t++) {
    const p = cntR + (<usize>load<u32>(toks + (<usize>t << 2)) << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
  for (let t = hT0; t < hT1; t++) {
    const p = cntC + (<usize>load<u32>(toks + (<usize>t << 2)) << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
  let hits = 0;
  for (let g = 0; g < rGN; g++) {
    const a = <i32>load<u32>(grp + (<usize>(rG0 + g) << 2));
    const b = <i32>load<u32>(grp + (<usize>(rG0 + g + 1) << 2));
    const rl = b - a;
    const ref = toks + (<usize>a << 2);
    memory.fill(inU, 0, <usize>rl);
    for (let c = 0; c < hGN; c++) {
      const ca = <i32>load<u32>(grp + (<usize>(hG0 + c) << 2));
      const cb = <i32>load<u32>(grp + (<usize>(hG0 + c + 1) << 2));
      const cl = cb - ca;
      const can = toks + (<usize>ca << 2);
      if ((rl < cl ? rl : cl) < 65535) unionLcs<u16>(ref, rl, can, cl);
      else unionLcs<u32>(ref, rl, can, cl);
    }
    for (let i = 0; i < rl; i++) {
      if (load<u8>(inU + <usize>i) == 0) continue;
      const id = <usize>load<u32>(ref + (<usize>i << 2));
      const pc = cntC + (id << 2);
      const pr = cntR + (id << 2);
      const vc = load<u32>(pc);
      const vr = load<u32>(pr);
      if (vc > 0 && vr > 0) {
        hits++;
        store<u32>(pc, vc - 1);
        store<u32>(pr, vr - 1);
      }
    }
  }
  return hits;
}

// @ts-ignore: decorator
@inline function maxGroupLen(k: usize): i32 {
  const g0 = <i32>load<u32>(k, 8);
  const gn = <i32>load<u32>(k, 12);
  let m = 0;
  for (let g = 0; g < gn; g++) {
    const l = <i32>(load<u32>(grp + (<usize>(g0 + g + 1) << 2)) - load<u32>(grp + (<usize>(g0 + g) << 2)));
    if (l > m) m = l;
  }
  return m;
}

function scoreItem(
  i: i32,
  bytes: usize,
  strOffs: usize,
  refStart: usize,
  types: usize,
  typeCount: i32,
  stem: bool,
  out: usize,
): void {
  const m0 = mark();
  const r0 = refFirst(refStart, i);
  const r1 = refEnd(refStart, i);
  const nRefs = r1 - r0;
  const o = out + ((<usize>i * <usize>typeCount * 3) << 3);
  if (nRefs <= 0) {
    memory.fill(o, 0, (<usize>typeCount * 3) << 3);
    return;
  }
  let B = strLen(strOffs, i);
  for (let r = r0; r < r1; r++) B += strLen(strOffs, r);
  const texts = 1 + nRefs;

  norm = alloc(<usize>B + 24); // + slack: 16-byte stores in tokenize, 8-byte reads in hashBytes/bytesEq
  normPos = 0;
  spans = alloc((<usize>B + 1) << 4);
  toks = alloc((<usize>B + 1) << 2);
  grp = alloc((<usize>(B + texts) + 1) << 2);
  txt = alloc(<usize>texts << 4);
  tokCount = 0;
  grpCount = 0;
  tokenize(strPtr(bytes, strOffs, i), strLen(strOffs, i), 0);
  for (let r = r0; r < r1; r++) tokenize(strPtr(bytes, strOffs, r), strLen(strOffs, r), 1 + r - r0);
  const V = internAll(stem);

  // hypothesis side
  const hk = txt;
  const hT0 = <i32>load<u32>(hk);
  const h = <i32>load<u32>(hk, 4) - hT0;
  const hTok = toks + (<usize>hT0 << 2);
  // the hypothesis is interned first, so its tokens have the ids 0..Vh-1: a reference token with an id
  // >= Vh matches nothing (no count, no LCS match mask, no n-gram)
  let Vh = 0;
  for (let t = 0; t < h; t++) {
    const id = <i32>load<u32>(hTok + (<usize>t << 2));
    if (id >= Vh) Vh = id + 1;
  }

  if (needN != 0) {
    // counts of hypothesis tokens and n-grams up to maxN
    let extra = 0;
    for (let n = 2; n <= maxN; n++) if (h - n + 1 > 0) extra += h - n + 1;
    const total = Vh + extra;
    cnt = allocZero(<usize>total << 2);
    used = allocZero(<usize>total << 2);
    ov = alloc(16 << 2);
    for (let t = 0; t < h; t++) {
      const p = cnt + (<usize>load<u32>(hTok + (<usize>t << 2)) << 2);
      store<u32>(p, load<u32>(p) + 1);
    }
    let maxLen = h;
    for (let r = 1; r < texts; r++) {
      const rk = txt + (<usize>r << 4);
      const l = <i32>(load<u32>(rk, 4) - load<u32>(rk));
      if (l > maxLen) maxLen = l;
    }
    lev = alloc((<usize>maxLen + 1) << 2);
    pairSlots = 0;
    if (maxN >= 2 && extra > 0) {
      const cap = capFor(extra);
      pairSlots = allocZero(<usize>cap << 4);
      pairMask = cap - 1;
      pairNext = <u32>Vh;
      memory.copy(lev, hTok, <usize>h << 2);
      for (let n = 2; n <= maxN; n++) {
        const c = h - n + 1;
        for (let t = 0; t < c; t++) {
          const pl = lev + (<usize>t << 2);
          const id = pairGet(load<u32>(pl), load<u32>(hTok + (<usize>(t + n - 1) << 2)), true);
          store<u32>(pl, id);
          const p = cnt + (<usize>id << 2);
          store<u32>(p, load<u32>(p) + 1);
        }
      }
    }
  }

  const needLcs = (needL || needLsum) && h > 0;
  if (needLcs) {
    W = (h + 63) >> 6;
    masks = allocTable((<u64>Vh * <u64>W) << 3, true);
    vecs = alloc(<usize>W << 3);
    for (let t = 0; t < h; t++) {
      const id = <usize>load<u32>(hTok + (<usize>t << 2));
      const p = masks + ((id * <usize>W + <usize>(t >> 6)) << 3);
      store<u64>(p, load<u64>(p) | (<u64>1 << <u64>(t & 63)));
    }
  }
  const hGN = <i32>load<u32>(hk, 12);
  let lsumReady = false;

  for (let r = 1; r < texts; r++) {
    const first = r == 1;
    const rk = txt + (<usize>r << 4);
    const rT0 = <i32>load<u32>(rk);
    const rl = <i32>load<u32>(rk, 4) - rT0;
    const rTok = toks + (<usize>rT0 << 2);

    if (needN != 0) {
      // overlaps per order, rolling the reference's n-gram ids in place
      for (let t = 0; t < rl; t++) {
        const id = load<u32>(rTok + (<usize>t << 2));
        store<u32>(lev + (<usize>t << 2), id < <u32>Vh ? id : NONE);
      }
      for (let n = 1; n <= maxN; n++) {
        const c = rl - n + 1;
        if (c <= 0) {
          store<u32>(ov + (<usize>n << 2), 0);
          continue;
        }
        if (n > 1) {
          for (let t = 0; t < c; t++) {
            const pl = lev + (<usize>t << 2);
            const prev = load<u32>(pl);
            store<u32>(pl, prev == NONE || pairSlots == 0 ? NONE : pairGet(prev, load<u32>(rTok + (<usize>(t + n - 1) << 2)), false));
          }
        }
        if ((needN & (1 << n)) == 0) continue;
        let hit: u32 = 0;
        if (h - n + 1 > 0) {
          for (let t = 0; t < c; t++) {
            const id = load<u32>(lev + (<usize>t << 2));
            if (id == NONE) continue;
            const pu = used + (<usize>id << 2);
            const u = load<u32>(pu);
            if (u < load<u32>(cnt + (<usize>id << 2))) {
              store<u32>(pu, u + 1);
              hit++;
            }
          }
          for (let t = 0; t < c; t++) {
            const id = load<u32>(lev + (<usize>t << 2));
            if (id != NONE) store<u32>(used + (<usize>id << 2), 0);
          }
        }
        store<u32>(ov + (<usize>n << 2), hit);
      }
    }

    let lcs = -1;
    for (let ty = 0; ty < typeCount; ty++) {
      const code = load<u32>(types + (<usize>ty << 2));
      const oo = o + ((<usize>ty * 3) << 3);
      if (code >= 1 && code <= 9) {
        const n = <i32>code;
        const hit = <f64>load<u32>(ov + (<usize>n << 2));
        const pc = h - n + 1;
        const rc = rl - n + 1;
        const p = hit / <f64>(pc > 1 ? pc : 1);
        const rr = hit / <f64>(rc > 1 ? rc : 1);
        offer(oo, first, p, rr);
      } else if (code == ROUGE_L || code == ROUGE_LSUM) {
        if (h == 0 || rl == 0) {
          offer(oo, first, 0, 0);
          continue;
        }
        let hits: i32;
        if (code == ROUGE_LSUM && (hGN > 1 || <i32>load<u32>(rk, 12) > 1)) {
          if (!lsumReady) {
            lsumReady = true;
            cntR = alloc(<usize>V << 2);
            cntC = alloc(<usize>V << 2);
            // the DP table fits the longest reference line × the longest hypothesis line; its cells
            // are u16 whenever the shorter side is < 65535 tokens (an LCS never exceeds it)
            let mr = 0;
            const mh = maxGroupLen(hk);
            for (let q = 1; q < texts; q++) {
              const ml = maxGroupLen(txt + (<usize>q << 4));
              if (ml > mr) mr = ml;
            }
            inU = alloc(<usize>mr + 1);
            dp = allocTable((<u64>mr + 1) * (<u64>mh + 1) * (mr < 65535 || mh < 65535 ? 2 : 4), false);
          }
          hits = summaryHits(rk, hk, V);
        } else {
          if (lcs < 0) lcs = lcsLength(rTok, rl, h, <u32>Vh);
          hits = lcs;
        }
        offer(oo, first, <f64>hits / <f64>h, <f64>hits / <f64>rl);
      } else if (first) {
        store<f64>(oo, 0);
        store<f64>(oo, 0, 8);
        store<f64>(oo, 0, 16);
      }
    }
  }
  release(m0);
}

/**
 * ROUGE over a batch (layout: see batch.ts). For item i and requested type k (codes: 1..9 rougeN,
 * 10 rougeL, 11 rougeLsum), writes precision, recall, fmeasure as f64 at out[(i*typeCount + k)*3 ...].
 * One reference: rouge-score's `score`; several: `score_multi`. `useStemmer` != 0 applies NLTK's Porter
 * stemmer to tokens longer than 3 chars.
 */
export function rougeBatch(
  n: i32,
  bytes: usize,
  strOffs: usize,
  refStart: usize,
  types: usize,
  typeCount: i32,
  useStemmer: i32,
  out: usize,
): void {
  needN = 0;
  maxN = 0;
  needL = false;
  needLsum = false;
  if (!clsReady) initClasses();
  for (let k = 0; k < typeCount; k++) {
    const c = load<u32>(types + (<usize>k << 2));
    if (c >= 1 && c <= 9) {
      needN |= <u32>1 << c;
      if (<i32>c > maxN) maxN = <i32>c;
    } else if (c == ROUGE_L) needL = true;
    else if (c == ROUGE_LSUM) needLsum = true;
  }
  const stem = useStemmer != 0;
  if (stem && n > 0) {
    const strings = refEnd(refStart, n - 1);
    stemCacheInit(<usize>load<u32>(strOffs + (<usize>strings << 2)));
  }
  for (let i = 0; i < n; i++) scoreItem(i, bytes, strOffs, refStart, types, typeCount, stem, out);
}

/** The reference table of a one-item batch (references are strings 1..nStr-1) and its type codes. */
const ONE_ITEM = memory.data(8);
const ONE_TYPES = memory.data(32 << 2);

/**
 * rouge-score for one hypothesis (string 0) and its references (strings 1..nStr-1) in one call, as one
 * item of `rougeBatch`: up to 32 type codes packed 4 bits each, 8 per u32 (`codes0` holds types 0..7,
 * lowest bits first), so the call needs no input region of its own.
 */
export function rougeSentence(
  bytes: usize, strOffs: usize, nStr: i32,
  codes0: u32, codes1: u32, codes2: u32, codes3: u32, typeCount: i32, useStemmer: i32, out: usize,
): void {
  for (let k = 0; k < typeCount; k++) {
    const w = k < 8 ? codes0 : k < 16 ? codes1 : k < 24 ? codes2 : codes3;
    store<u32>(ONE_TYPES + (<usize>k << 2), (w >> (<u32>(k & 7) << 2)) & 15);
  }
  store<u32>(ONE_ITEM, 1);
  store<u32>(ONE_ITEM, <u32>nStr, 4);
  rougeBatch(1, bytes, strOffs, ONE_ITEM, ONE_TYPES, typeCount, useStemmer, out);
}
