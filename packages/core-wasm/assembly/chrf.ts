// sacreBLEU 2.6.0 chrF / chrF++: character n-grams over code points (whitespace removed unless
// `whitespace`), word n-grams over `_remove_punctuation` words, per-reference statistics, and
// `_compute_f_score`. Statistics per item: [hyp, ref, match] for char orders 1..C then word orders 1..W.

import { alloc, mark, release, persistBase, PERSIST_CHRF } from "./mem";
import { decodeUtf8, isPyWs } from "./text";
import {
  Intern, internInit, intern, NONE, Ngrams, ngramsInit, ngramsAddHyp, ngramsFind,
  ngramHashStart, ngramHashStep, ngramHashFinal, slotHyp, slotCur, setSlotCur, slotStamp, setSlotStamp,
} from "./hash";
import { strPtr, strLen, refFirst, refEnd } from "./batch";
import { pyLower } from "./ucd";
import { Packed, packedArena, packedBegin, packedAdd, packedSlotIndex, packedRoom, CpIds, cpIdsInit, cpIdsBegin, cpId, ORDER_SHIFT } from "./packed";
import {
  CharMasks, charMasksInit, charMasksInitAt, charMasksBuild, charMasksEnd, charMaskPtrs, charMatch6w1, bitsMatch, MAX_BITS_LEN,
  WordMasks, wordMasksInit, wordMasksBuild, wordMaskPtrs, WH_SEED, whStep, whFinal, wordHash,
} from "./chrf-bits";

// @ts-ignore: decorator
@inline function cpAt(p: usize, i: i32): u32 {
  return load<u32>(p + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline function put(p: usize, i: i32, c: u32): void {
  store<u32>(p + (<usize>i << 2), c);
}

/** Python's string.punctuation, the set `_remove_punctuation` splits off. */
// @ts-ignore: decorator
@inline function isAsciiPunct(c: u32): bool {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/** One preprocessed text: code points, the char sequence for n-grams, and its words. */
@unmanaged
class Side {
  cps: usize = 0; // full text (lowercased if asked)
  len: i32 = 0;
  chars: usize = 0; // whitespace-free (or full) code points for char n-grams
  charLen: i32 = 0;
  words: usize = 0; // word spans (start, end) in cps
  hashes: usize = 0; // wordHash of each span
  wordCount: i32 = 0;
}

const HYP = changetype<Side>(memory.data(offsetof<Side>()));
const REF = changetype<Side>(memory.data(offsetof<Side>()));
const CHAR_T = changetype<Ngrams>(memory.data(offsetof<Ngrams>()));
const WORD_T = changetype<Ngrams>(memory.data(offsetof<Ngrams>()));
const WORDS = changetype<Intern>(memory.data(offsetof<Intern>()));
const PK = changetype<Packed>(memory.data(offsetof<Packed>()));
const CP_IDS = changetype<CpIds>(memory.data(offsetof<CpIds>()));
const CM = changetype<CharMasks>(memory.data(offsetof<CharMasks>()));
const WM = changetype<WordMasks>(memory.data(offsetof<WordMasks>()));

/** The code point of the multi-byte UTF-8 sequence at `q` (lead byte b0 ≥ 0x80; valid UTF-8 from TextEncoder). */
// @ts-ignore: decorator
@inline function decodeMulti(q: usize, b0: u32): u32 {
  if (b0 < 0xe0) return ((b0 & 0x1f) << 6) | (<u32>load<u8>(q, 1) & 0x3f);
  if (b0 < 0xf0) return ((b0 & 0x0f) << 12) | ((<u32>load<u8>(q, 1) & 0x3f) << 6) | (<u32>load<u8>(q, 2) & 0x3f);
  return ((b0 & 0x07) << 18) | ((<u32>load<u8>(q, 1) & 0x3f) << 12) | ((<u32>load<u8>(q, 2) & 0x3f) << 6) | (<u32>load<u8>(q, 3) & 0x3f);
}

// @ts-ignore: decorator
@inline function seqLen(b0: u32): i32 {
  return b0 < 0xe0 ? 2 : b0 < 0xf0 ? 3 : 4;
}

/**
 * One text → the char sequence for char n-grams (whitespace dropped unless `whitespace`) and the
 * `_remove_punctuation` word spans as (start, end) indices into it (words never contain whitespace, so
 * they are contiguous in the whitespace-free sequence too). Without `lowercase`, decoding is part of the
 * same pass; with it, the text is decoded and lowercased first (Python `str.lower()` can lengthen it).
 */
function prepare(side: Side, p: usize, byteLen: i32, lowercase: bool, whitespace: bool, wordOrder: i32): void {
  side.wordCount = 0;
  const keep = i32(whitespace);
  if (lowercase) {
    const raw = alloc(<usize>(byteLen + 1) << 2);
    let n = decodeUtf8(p, byteLen, raw);
    const cps = alloc(<usize>(n * 2 + 1) << 2);
    n = pyLower(raw, n, cps);
    side.cps = cps;
    side.chars = cps;
    side.len = n;
    if (wordOrder <= 0) {
      let o = 0;
      for (let i = 0; i < n; i++) {
        const c = cpAt(cps, i);
        put(cps, o, c); // in place (o ≤ i); store always, advance only past non-whitespace
        o += keep | i32(!isPyWs(c));
      }
      side.charLen = o;
      return;
    }
    // at most n + 1 pieces: a word of w ≥ 2 code points gives at most 2, and words are separated
    const words = alloc(<usize>(n + 2) << 3);
    const hashes = alloc(<usize>(n + 2) << 2);
    let o = 0;
    let k = 0;
    let start = -1;
    let h = WH_SEED;
    let hp = WH_SEED;
    for (let i = 0; i < n; i++) {
      const c = cpAt(cps, i);
      const ws = isPyWs(c);
      put(cps, o, c);
      if (!ws) {
        if (start < 0) start = o;
        hp = h;
        h = whStep(h, c);
      } else if (start >= 0) {
        k = addWord(words, hashes, k, cps, start, o, h, hp);
        start = -1;
        h = WH_SEED;
      }
      o += keep | i32(!ws);
    }
    if (start >= 0) k = addWord(words, hashes, k, cps, start, o, h, hp);
    side.charLen = o;
    side.words = words;
    side.hashes = hashes;
    side.wordCount = k;
    return;
  }
  const cps = alloc(<usize>(byteLen + 1) << 2);
  side.cps = cps;
  side.chars = cps;
  const end = p + <usize>byteLen;
  let q = p;
  let o = 0;
  if (wordOrder <= 0) {
    while (q < end) {
      let c = <u32>load<u8>(q);
      if (c < 0x80) {
        q++;
      } else {
        const b0 = c;
        c = decodeMulti(q, b0);
        q += <usize>seqLen(b0);
      }
      put(cps, o, c); // store always, advance only past non-whitespace
      o += keep | i32(!isPyWs(c));
    }
    side.len = o;
    side.charLen = o;
    return;
  }
  const words = alloc(<usize>(byteLen + 2) << 3);
  const hashes = alloc(<usize>(byteLen + 2) << 2);
  let k = 0;
  let start = -1;
  let h = WH_SEED;
  let hp = WH_SEED;
  while (q < end) {
    let c = <u32>load<u8>(q);
    if (c < 0x80) {
      q++;
    } else {
      const b0 = c;
      c = decodeMulti(q, b0);
      q += <usize>seqLen(b0);
    }
    const ws = isPyWs(c);
    put(cps, o, c);
    if (!ws) {
      if (start < 0) start = o;
      hp = h;
      h = whStep(h, c);
    } else if (start >= 0) {
      k = addWord(words, hashes, k, cps, start, o, h, hp);
      start = -1;
      h = WH_SEED;
    }
    o += keep | i32(!ws);
  }
  if (start >= 0) k = addWord(words, hashes, k, cps, start, o, h, hp);
  side.len = o;
  side.charLen = o;
  side.words = words;
  side.hashes = hashes;
  side.wordCount = k;
}

// @ts-ignore: decorator
@inline function putSpan(words: usize, hashes: usize, k: i32, s: i32, e: i32, h: u32): void {
  store<u32>(words + (<usize>k << 3), s);
  store<u32>(words + (<usize>k << 3), e, 4);
  store<u32>(hashes + (<usize>k << 2), h);
}

/**
 * `_remove_punctuation` of one whitespace-separated word cps[s..e): at most one ASCII punctuation split
 * off, last first. `h` is the running word hash after its last code point, `hp` before it.
 */
function addWord(words: usize, hashes: usize, k: i32, cps: usize, s: i32, e: i32, h: u32, hp: u32): i32 {
  if (e - s > 1 && isAsciiPunct(cpAt(cps, e - 1))) {
    putSpan(words, hashes, k, s, e - 1, whFinal(hp, e - 1 - s));
    putSpan(words, hashes, k + 1, e - 1, e, whFinal(whStep(WH_SEED, cpAt(cps, e - 1)), 1));
    return k + 2;
  }
  if (e - s > 1 && isAsciiPunct(cpAt(cps, s))) {
    putSpan(words, hashes, k, s, s + 1, whFinal(whStep(WH_SEED, cpAt(cps, s)), 1));
    putSpan(words, hashes, k + 1, s + 1, e, wordHash(cps + (<usize>(s + 1) << 2), e - s - 1));
    return k + 2;
  }
  putSpan(words, hashes, k, s, e, whFinal(h, e - s));
  return k + 1;
}

function wordIds(side: Side, add: bool): usize {
  const ids = alloc(<usize>(side.wordCount + 1) << 2);
  for (let k = 0; k < side.wordCount; k++) {
    const s = <i32>load<u32>(side.words + (<usize>k << 3));
    const e = <i32>load<u32>(side.words + (<usize>k << 3) + 4);
    put(ids, k, intern(WORDS, side.cps + (<usize>s << 2), e - s, add));
  }
  return ids;
}

function insertAll(t: Ngrams, syms: usize, len: i32, maxOrder: i32): void {
  for (let i = 0; i < len; i++) {
    let h = ngramHashStart();
    for (let n = 1; n <= maxOrder && i + n <= len; n++) {
      h = ngramHashStep(h, cpAt(syms, i + n - 1));
      ngramsAddHyp(t, i, n, ngramHashFinal(h, n));
    }
  }
}

/**
 * Match counts of a reference sequence against the hypothesis table: adds Σ min(hyp, ref) per order to
 * `stats` (the `match` field at stats + 3*(base+n-1)). `stamp` distinguishes references.
 */
function matchAll(t: Ngrams, syms: usize, len: i32, maxOrder: i32, stamp: u32, stats: usize, base: i32): void {
  for (let i = 0; i < len; i++) {
    let h = ngramHashStart();
    for (let n = 1; n <= maxOrder && i + n <= len; n++) {
      const sym = cpAt(syms, i + n - 1);
      if (sym == NONE) break;
      h = ngramHashStep(h, sym);
      const s = ngramsFind(t, syms + (<usize>i << 2), n, ngramHashFinal(h, n));
      if (s == 0) break;
      const cur: u32 = slotStamp(s) == stamp ? slotCur(s) + 1 : 1;
      setSlotStamp(s, stamp);
      setSlotCur(s, cur);
      if (cur <= slotHyp(s)) {
        const p = stats + (<usize>(3 * (base + n - 1) + 2) << 3);
        store<f64>(p, load<f64>(p) + 1);
      }
    }
  }
}

/** Hypothesis symbols → packed keys (order index `base + n - 1` in the top bits). */
function packedInsert(syms: usize, len: i32, maxOrder: i32, bits: u64, base: i32): void {
  if (PK.count + <u32>len * <u32>maxOrder > packedRoom(PK)) {
    // a table that may have to grow: the general insert
    for (let i = 0; i < len; i++) {
      let key: u64 = 0;
      for (let n = 1; n <= maxOrder && i + n <= len; n++) {
        key = (key << bits) | <u64>cpAt(syms, i + n - 1);
        packedAdd(PK, key | (<u64>(base + n - 1) << ORDER_SHIFT));
      }
    }
    return;
  }
  // the table has room for every n-gram: the same insert with the table's fields in locals
  const slots = PK.slots;
  const mask = PK.mask;
  const epoch = PK.epoch;
  const list = PK.list;
  let count = PK.count;
  for (let i = 0; i < len; i++) {
    let key: u64 = 0;
    for (let n = 1; n <= maxOrder && i + n <= len; n++) {
      key = (key << bits) | <u64>cpAt(syms, i + n - 1);
      const k = key | (<u64>(base + n - 1) << ORDER_SHIFT);
      let j = packedSlotIndex(k, mask);
      while (true) {
        const s = slots + (<usize>j << 5);
        if (load<u32>(s, 8) != epoch) {
          store<u64>(s, k);
          store<u32>(s, epoch, 8);
          store<u32>(s, 1, 12);
          store<u64>(s, 0, 16);
          store<u32>(s, 0, 24);
          store<u32>(list + (<usize>count << 2), j);
          count++;
          break;
        }
        if (load<u64>(s) == k) {
          store<u32>(s, load<u32>(s, 12) + 1, 12);
          break;
        }
        j = (j + 1) & mask;
      }
    }
  }
  PK.count = count;
}

/** As `matchAll`, over packed keys; NONE ids (absent from the hypothesis) end the n-grams through them. */
function packedMatch(syms: usize, len: i32, maxOrder: i32, bits: u64, base: i32, stamp: u32, stats: usize): void {
  const slots = PK.slots;
  const mask = PK.mask;
  const epoch = PK.epoch;
  for (let i = 0; i < len; i++) {
    let key: u64 = 0;
    for (let n = 1; n <= maxOrder && i + n <= len; n++) {
      const sym = cpAt(syms, i + n - 1);
      if (sym == NONE) break;
      key = (key << bits) | <u64>sym;
      const k = key | (<u64>(base + n - 1) << ORDER_SHIFT);
      let j = packedSlotIndex(k, mask);
      let s: usize = 0;
      while (true) {
        const t = slots + (<usize>j << 5);
        if (load<u32>(t, 8) != epoch) break;
        if (load<u64>(t) == k) {
          s = t;
          break;
        }
        j = (j + 1) & mask;
      }
      // an n-gram absent from the hypothesis has no longer extension in it either
      if (s == 0) break;
      const cur: u32 = load<u32>(s, 20) == stamp ? load<u32>(s, 16) + 1 : 1;
      store<u32>(s, stamp, 20);
      store<u32>(s, cur, 16);
      if (cur <= load<u32>(s, 12)) {
        const p = stats + (<usize>(3 * (base + n - 1) + 2) << 3);
        store<f64>(p, load<f64>(p) + 1);
      }
    }
  }
}

/** Dense ids of the hypothesis characters; 0 when there are too many distinct ones for `bits`. */
function hypCharIds(bits: u64): usize {
  cpIdsBegin(CP_IDS);
  const ids = alloc(<usize>(HYP.charLen + 1) << 2);
  const limit = <u32>(1 << <u32>bits);
  for (let i = 0; i < HYP.charLen; i++) {
    const id = cpId(CP_IDS, cpAt(HYP.chars, i), true);
    if (id >= limit) return 0; // includes NONE (map full)
    put(ids, i, id);
  }
  return ids;
}

function refCharIds(): usize {
  const ids = alloc(<usize>(REF.charLen + 1) << 2);
  for (let i = 0; i < REF.charLen; i++) put(ids, i, cpId(CP_IDS, cpAt(REF.chars, i), false));
  return ids;
}

/** Per-order [hyp, ref] counts of one reference (match filled in by the matcher). */
function setCounts(cur: usize, charOrder: i32, wordOrder: i32): void {
  for (let k = 1; k <= charOrder; k++) {
    const refCount = REF.charLen - k + 1;
    const hypCount = HYP.charLen - k + 1;
    const p = cur + (<usize>(3 * (k - 1)) << 3);
    if (refCount > 0) {
      store<f64>(p, hypCount > 0 ? <f64>hypCount : 0);
      store<f64>(p, <f64>refCount, 8);
    }
  }
  for (let k = 1; k <= wordOrder; k++) {
    const refCount = REF.wordCount - k + 1;
    const hypCount = HYP.wordCount - k + 1;
    const p = cur + (<usize>(3 * (charOrder + k - 1)) << 3);
    if (refCount > 0) {
      store<f64>(p, hypCount > 0 ? <f64>hypCount : 0);
      store<f64>(p, <f64>refCount, 8);
    }
  }
}

/** `_compute_f_score` over `order` triples at `stats`. */
export function chrfFScore(stats: usize, order: i32, beta: f64, epsSmoothing: bool): f64 {
  const eps: f64 = 1e-16;
  let score: f64 = 0.0;
  let effectiveOrder = 0;
  const factor = beta * beta;
  let avgPrec: f64 = 0.0;
  let avgRec: f64 = 0.0;
  for (let i = 0; i < order; i++) {
    const nHyp = load<f64>(stats + (<usize>(3 * i) << 3));
    const nRef = load<f64>(stats + (<usize>(3 * i + 1) << 3));
    const nMatch = load<f64>(stats + (<usize>(3 * i + 2) << 3));
    const prec = nHyp > 0 ? nMatch / nHyp : eps;
    const rec = nRef > 0 ? nMatch / nRef : eps;
    const denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : eps;
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec;
      avgRec += rec;
      effectiveOrder++;
    }
  }
  if (epsSmoothing) return (100 * score) / <f64>order;
  if (effectiveOrder == 0) {
    avgPrec = 0.0;
    avgRec = 0.0;
  } else {
    avgPrec /= <f64>effectiveOrder;
    avgRec /= <f64>effectiveOrder;
  }
  if (avgPrec + avgRec != 0) {
    let s = (1 + factor) * avgPrec * avgRec;
    s /= factor * avgPrec + avgRec;
    return 100 * s;
  }
  return 0.0;
}

/**
 * chrF statistics and sentence score for a batch. Per item at `out`: [score, stats(3*(C+W))].
 * Several references: each is scored alone; the first with the strictly highest F keeps its stats.
 */
export function chrfBatch(
  n: i32, bytes: usize, strOffs: usize, refStart: usize,
  charOrder: i32, wordOrder: i32, beta: f64, lowercase: i32, whitespace: i32, epsSmoothing: i32, out: usize,
): void {
  chrfRun(n, bytes, strOffs, refStart, charOrder, wordOrder, beta, lowercase, whitespace, epsSmoothing, out, CM, false, false);
}

/** As `chrfBatch`, writing only the score of each item: one f64 per item at `out`. */
export function chrfScoresBatch(
  n: i32, bytes: usize, strOffs: usize, refStart: usize,
  charOrder: i32, wordOrder: i32, beta: f64, lowercase: i32, whitespace: i32, epsSmoothing: i32, out: usize,
): void {
  chrfRun(n, bytes, strOffs, refStart, charOrder, wordOrder, beta, lowercase, whitespace, epsSmoothing, out, CM, false, true);
}

/** The reference table of a one-item batch: references are strings 1..nStr-1. */
const ONE_ITEM = memory.data(8);
// CHAR_MASKS_FIXED_BYTES (51,344) fits the 64 KiB of PERSIST_CHRF
const CM_FIXED = changetype<CharMasks>(memory.data(offsetof<CharMasks>()));
// @ts-ignore: decorator
@lazy let cmFixedReady = false;

/**
 * sacreBLEU `sentence_chrf` for one hypothesis (string 0) and its references (strings 1..nStr-1), in
 * one call: [score, stats(3*(C+W))] at `out`, as one item of `chrfBatch`. The char occurrence masks
 * live in the persistent arena (mem.ts PERSIST_CHRF), so a call neither allocates nor clears them.
 */
export function chrfSentence(
  bytes: usize, strOffs: usize, nStr: i32,
  charOrder: i32, wordOrder: i32, beta: f64, lowercase: i32, whitespace: i32, epsSmoothing: i32, out: usize,
): void {
  if (!cmFixedReady) {
    charMasksInitAt(CM_FIXED, persistBase() + PERSIST_CHRF);
    cmFixedReady = true;
  }
  store<u32>(ONE_ITEM, 1);
  store<u32>(ONE_ITEM, <u32>nStr, 4);
  chrfRun(1, bytes, strOffs, ONE_ITEM, charOrder, wordOrder, beta, lowercase, whitespace, epsSmoothing, out, CM_FIXED, true, false);
}

// @ts-ignore: decorator
@inline function chrfRun(
  n: i32, bytes: usize, strOffs: usize, refStart: usize,
  charOrder: i32, wordOrder: i32, beta: f64, lowercase: i32, whitespace: i32, epsSmoothing: i32, out: usize,
  CM: CharMasks, fixedMasks: bool, scoresOnly: bool,
): void {
  const order = charOrder + wordOrder;
  const stride = <usize>(1 + 3 * order) << 3;
  const lc = lowercase != 0;
  const ws = whitespace != 0;
  const eps = epsSmoothing != 0;
  const cur = alloc(<usize>(3 * order) << 3);
  const row = scoresOnly ? alloc(stride) : 0; // the item's row when only its score goes out
  // packed keys: bits per symbol id so that the longest n-gram fits below the order bits
  const maxOrder = charOrder > wordOrder ? charOrder : wordOrder;
  const bits: u64 = <u64>(59 / maxOrder);
  const packable = maxOrder <= 59 && order <= 31;
  let maxBytes = 0; // of the hypotheses
  for (let i = 0; i < n; i++) {
    const b = strLen(strOffs, i);
    if (b > maxBytes) maxBytes = b;
  }
  let packedReady = false;
  if (n > 0) {
    if (!fixedMasks) charMasksInit(CM, maxBytes);
    if (wordOrder > 0) wordMasksInit(WM, maxBytes);
  }
  for (let i = 0; i < n; i++) {
    let m = mark();
    const o = scoresOnly ? row : out + <usize>i * stride;
    prepare(HYP, strPtr(bytes, strOffs, i), strLen(strOffs, i), lc, ws, wordOrder);
    memory.fill(o, 0, stride);
    const r0 = refFirst(refStart, i);
    const r1 = refEnd(refStart, i);
    // bit-parallel occurrence sets (chrf-bits.ts) for hypotheses of up to MAX_BITS_LEN symbols
    if (HYP.charLen <= MAX_BITS_LEN && HYP.charLen <= CM.stride << 6 && HYP.wordCount <= MAX_BITS_LEN) {
      if (charOrder > 0) charMasksBuild(CM, HYP.chars, HYP.charLen, charOrder);
      if (wordOrder > 0) wordMasksBuild(WM, HYP.cps, HYP.words, HYP.hashes, HYP.wordCount);
      let best: f64 = -1.0;
      for (let r = r0; r < r1; r++) {
        const rm = mark();
        prepare(REF, strPtr(bytes, strOffs, r), strLen(strOffs, r), lc, ws, wordOrder);
        memory.fill(cur, 0, <usize>(3 * order) << 3);
        setCounts(cur, charOrder, wordOrder);
        const stamp = <u32>(r - r0 + 1);
        if (charOrder > 0) {
          if (CM.words == 1 && charOrder <= 6) charMatch6w1(CM, REF.chars, REF.charLen, charOrder, cur);
          else bitsMatch(charMaskPtrs(CM, REF.chars, REF.charLen), REF.charLen, CM.words, charOrder, cur, 0, stamp);
        }
        if (wordOrder > 0) {
          const ptrs = wordMaskPtrs(WM, REF.cps, REF.words, REF.hashes, REF.wordCount, CM.zero);
          bitsMatch(ptrs, REF.wordCount, WM.words, wordOrder, cur, charOrder, stamp);
        }
        const f = chrfFScore(cur, order, beta, eps);
        if (f > best) {
          best = f;
          store<f64>(o, f);
          memory.copy(o + 8, cur, <usize>(3 * order) << 3);
        }
        release(rm);
      }
      if (charOrder > 0) charMasksEnd(CM, HYP.chars, HYP.charLen);
      if (scoresOnly) store<f64>(out + (<usize>i << 3), load<f64>(row));
      release(m);
      continue;
    }
    if (packable && !packedReady) {
      // the first hypothesis too long for the bit sets: the packed tables' arena, outside the item's scratch
      release(m);
      packedArena(PK, maxBytes * order);
      cpIdsInit(CP_IDS, bits >= 10 ? 2048 : <u32>(2 << <u32>bits));
      packedReady = true;
      m = mark();
      prepare(HYP, strPtr(bytes, strOffs, i), strLen(strOffs, i), lc, ws, wordOrder);
    }
    // fast path: dense ids packed into exact u64 keys; else the general hash table over the text
    let hypChars: usize = packable ? hypCharIds(bits) : 0;
    let hypWords: usize = 0;
    let packed = packable && hypChars != 0;
    if (wordOrder > 0) {
      internInit(WORDS, HYP.wordCount);
      hypWords = wordIds(HYP, true);
      if (WORDS.count > (<u32>1 << <u32>bits)) packed = false;
    }
    if (packed) {
      packedBegin(PK, HYP.charLen * charOrder + HYP.wordCount * wordOrder);
      packedInsert(hypChars, HYP.charLen, charOrder, bits, 0);
      if (wordOrder > 0) packedInsert(hypWords, HYP.wordCount, wordOrder, bits, charOrder);
    } else {
      ngramsInit(CHAR_T, HYP.charLen * charOrder, HYP.chars);
      insertAll(CHAR_T, HYP.chars, HYP.charLen, charOrder);
      if (wordOrder > 0) {
        ngramsInit(WORD_T, HYP.wordCount * wordOrder, hypWords);
        insertAll(WORD_T, hypWords, HYP.wordCount, wordOrder);
      }
    }
    let best: f64 = -1.0;
    for (let r = r0; r < r1; r++) {
      const rm = mark();
      prepare(REF, strPtr(bytes, strOffs, r), strLen(strOffs, r), lc, ws, wordOrder);
      memory.fill(cur, 0, <usize>(3 * order) << 3);
      setCounts(cur, charOrder, wordOrder);
      const stamp = <u32>(r - r0 + 1);
      if (packed) {
        packedMatch(refCharIds(), REF.charLen, charOrder, bits, 0, stamp, cur);
        if (wordOrder > 0) packedMatch(wordIds(REF, false), REF.wordCount, wordOrder, bits, charOrder, stamp, cur);
      } else {
        matchAll(CHAR_T, REF.chars, REF.charLen, charOrder, stamp, cur, 0);
        if (wordOrder > 0) matchAll(WORD_T, wordIds(REF, false), REF.wordCount, wordOrder, stamp, cur, charOrder);
      }
      const f = chrfFScore(cur, order, beta, eps);
      if (f > best) {
        best = f;
        store<f64>(o, f);
        memory.copy(o + 8, cur, <usize>(3 * order) << 3);
      }
      release(rm);
    }
    if (scoresOnly) store<f64>(out + (<usize>i << 3), load<f64>(row));
    release(m);
  }
}

/** `_compute_f_score` for `n` statistics rows (3*order f64 each) → one f64 score per row. */
export function chrfScoreBatch(n: i32, stats: usize, order: i32, beta: f64, epsSmoothing: i32, out: usize): void {
  const stride = <usize>(3 * order) << 3;
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), chrfFScore(stats + <usize>i * stride, order, beta, epsSmoothing != 0));
}
