// sacreBLEU 2.6.0 BLEU: the 13a, intl, zh, char and none tokenizers, sentence statistics
// (`_compute_segment_statistics`) and `compute_bleu`, over code points.
//
// Statistics per item (f64): [sysLen, refLen, correct[0..N), total[0..N)], N = max n-gram order.

import { alloc, mark, release } from "./mem";
import { decodeUtf8, rstripLen, stripStart, stripEnd } from "./text";
import {
  Intern, internInit, intern, NONE, Ngrams, ngramsInit, ngramsAddHyp, ngramsFind,
  ngramHashStart, ngramHashStep, ngramHashFinal, slotN, slotHyp, slotRefMax, setSlotRefMax,
  slotCur, setSlotCur, slotStamp, setSlotStamp, SLOT_BYTES, ngramsCapacity,
} from "./hash";
import { strPtr, strLen, refFirst, refEnd } from "./batch";
import { pyLower } from "./ucd";
import { tokBegin, tokEnd, sink, r1, regexpEnd, i1, intlEnd, tokCps, tokSpans, tokCount } from "./tok";
import { Packed, packedArena, packedBegin, packedAdd, packedFind, packedSlot, ORDER_SHIFT } from "./packed";

export const TOK_13A = 0;
export const TOK_INTL = 1;
export const TOK_ZH = 2;
export const TOK_CHAR = 3;
export const TOK_NONE = 4;

// A growable-by-construction code-point buffer: every pass allocates its worst case in scratch.
// @ts-ignore: decorator
@inline function cpAt(p: usize, i: i32): u32 {
  return load<u32>(p + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline function put(p: usize, i: i32, c: u32): void {
  store<u32>(p + (<usize>i << 2), c);
}


/** str.replace(pattern, repl) for short ASCII patterns over code points; returns new length in `dst`. */
function replaceAll(src: usize, n: i32, pat: StaticArray<u32>, repl: StaticArray<u32>, dst: usize): i32 {
  const m = pat.length;
  const r = repl.length;
  let o = 0;
  let i = 0;
  while (i < n) {
    let hit = i + m <= n;
    if (hit) {
      for (let k = 0; k < m; k++) {
        if (cpAt(src, i + k) != unchecked(pat[k])) {
          hit = false;
          break;
        }
      }
    }
    if (hit) {
      for (let k = 0; k < r; k++) put(dst, o++, unchecked(repl[k]));
      i += m;
    } else {
      put(dst, o++, cpAt(src, i++));
    }
  }
  return o;
}

function contains(src: usize, n: i32, c: u32): bool {
  for (let i = 0; i < n; i++) if (cpAt(src, i) == c) return true;
  return false;
}

const P_SKIPPED: StaticArray<u32> = [0x3c, 0x73, 0x6b, 0x69, 0x70, 0x70, 0x65, 0x64, 0x3e]; // <skipped>
const P_HYPHEN_NL: StaticArray<u32> = [0x2d, 0x0a];
const P_NL: StaticArray<u32> = [0x0a];
const R_EMPTY: StaticArray<u32> = [];
const R_SPACE: StaticArray<u32> = [0x20];
const P_QUOT: StaticArray<u32> = [0x26, 0x71, 0x75, 0x6f, 0x74, 0x3b]; // &quot;
const P_AMP: StaticArray<u32> = [0x26, 0x61, 0x6d, 0x70, 0x3b]; // &amp;
const P_LT: StaticArray<u32> = [0x26, 0x6c, 0x74, 0x3b]; // &lt;
const P_GT: StaticArray<u32> = [0x26, 0x67, 0x74, 0x3b]; // &gt;
const R_QUOT: StaticArray<u32> = [0x22];
const R_AMP: StaticArray<u32> = [0x26];
const R_LT: StaticArray<u32> = [0x3c];
const R_GT: StaticArray<u32> = [0x3e];

/**
 * sacreBLEU's `_is_chinese_char`, including its bug: two 5-hex-digit `\u` escapes make the intended
 * CJK Ext-B range really U+2001..U+2A6D (general punctuation, arrows, math...) and the intended
 * compatibility supplement U+2F81..U+2FA1; real Ext-B ideographs (U+20000+) are not matched.
 */
export function isZhChar(c: u32): bool {
  if (c < 0x2001) return false;
  return (
    (c >= 0x3400 && c <= 0x4db5) ||
    (c >= 0x4e00 && c <= 0x9fa5) ||
    (c >= 0x9fa6 && c <= 0x9fbb) ||
    (c >= 0xf900 && c <= 0xfa2d) ||
    (c >= 0xfa30 && c <= 0xfa6a) ||
    (c >= 0xfa70 && c <= 0xfad9) ||
    (c >= 0x2001 && c <= 0x2a6d) ||
    (c >= 0x2f81 && c <= 0x2fa1) ||
    (c >= 0xff00 && c <= 0xffef) ||
    (c >= 0x2e80 && c <= 0x2eff) ||
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0x31c0 && c <= 0x31ef) ||
    (c >= 0x2f00 && c <= 0x2fdf) ||
    (c >= 0x2ff0 && c <= 0x2fff) ||
    (c >= 0x3100 && c <= 0x312f) ||
    (c >= 0x31a0 && c <= 0x31bf) ||
    (c >= 0xfe10 && c <= 0xfe1f) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0x2600 && c <= 0x26ff) ||
    (c >= 0x2700 && c <= 0x27bf) ||
    (c >= 0x3200 && c <= 0x32ff) ||
    (c >= 0x3300 && c <= 0x33ff)
  );
}

/**
 * `_preprocess_segment` + `line.split()` for one string: decode, lowercase (optional), rstrip, tokenize
 * and split, streaming (see tok.ts). Returns the token count; tokens are in `tokCps`/`tokSpans`.
 */
export function bleuTokenize(p: usize, byteLen: i32, tokenizer: i32, lowercase: bool): i32 {
  let cps = alloc(<usize>(byteLen + 1) << 2);
  let n = decodeUtf8(p, byteLen, cps);
  if (lowercase) {
    const low = alloc(<usize>(n * 2 + 1) << 2);
    n = pyLower(cps, n, low);
    cps = low;
  }
  n = rstripLen(cps, n);
  if (tokenizer == TOK_13A) {
    // the rare string replacements first (only when their trigger characters occur)
    const hasLt = contains(cps, n, 0x3c);
    const hasNl = contains(cps, n, 0x0a);
    if (hasLt || hasNl) {
      let t = alloc((<usize>n + 1) << 2);
      let cur = cps;
      if (hasLt) {
        n = replaceAll(cur, n, P_SKIPPED, R_EMPTY, t);
        cur = t;
        t = alloc((<usize>n + 1) << 2);
      }
      n = replaceAll(cur, n, P_HYPHEN_NL, R_EMPTY, t);
      const t2 = alloc((<usize>n + 1) << 2);
      n = replaceAll(t, n, P_NL, R_SPACE, t2);
      cps = t2;
    }
    if (contains(cps, n, 0x26)) {
      let t = alloc((<usize>n + 1) << 2);
      n = replaceAll(cps, n, P_QUOT, R_QUOT, t);
      let t2 = alloc((<usize>n + 1) << 2);
      n = replaceAll(t, n, P_AMP, R_AMP, t2);
      t = alloc((<usize>n + 1) << 2);
      n = replaceAll(t2, n, P_LT, R_LT, t);
      t2 = alloc((<usize>n + 1) << 2);
      n = replaceAll(t, n, P_GT, R_GT, t2);
      cps = t2;
    }
    tokBegin(n + 2);
    r1(0x20); // 13a pads the line with one space on each side
    for (let i = 0; i < n; i++) r1(cpAt(cps, i));
    r1(0x20);
    regexpEnd();
  } else if (tokenizer == TOK_INTL) {
    tokBegin(n);
    for (let i = 0; i < n; i++) i1(cpAt(cps, i));
    intlEnd();
  } else if (tokenizer == TOK_ZH) {
    const s = stripStart(cps, n);
    const e = stripEnd;
    tokBegin(e - s);
    for (let i = s; i < e; i++) {
      const c = cpAt(cps, i);
      if (isZhChar(c)) {
        r1(0x20);
        r1(c);
        r1(0x20);
      } else r1(c);
    }
    regexpEnd();
  } else if (tokenizer == TOK_CHAR) {
    // ' '.join(line), then split: every non-whitespace code point is a token
    tokBegin(n);
    for (let i = 0; i < n; i++) {
      sink(cpAt(cps, i));
      sink(0x20);
    }
  } else {
    tokBegin(n);
    for (let i = 0; i < n; i++) sink(cpAt(cps, i));
    tokEnd();
  }
  return tokCount;
}

/** Intern the tokens of the last tokenization into ids (hypothesis: add; reference: look up only). */
function tokenIds(t: Intern, count: i32, add: bool): usize {
  const ids = alloc(<usize>(count + 1) << 2);
  for (let k = 0; k < count; k++) {
    const s = <i32>load<u32>(tokSpans + (<usize>k << 3));
    const e = <i32>load<u32>(tokSpans + (<usize>k << 3) + 4);
    put(ids, k, intern(t, tokCps + (<usize>s << 2), e - s, add));
  }
  return ids;
}

// scratch objects reused per item (unmanaged, allocated once in static memory)
const INTERN = changetype<Intern>(memory.data(offsetof<Intern>()));
const NGRAMS = changetype<Ngrams>(memory.data(offsetof<Ngrams>()));
const PK = changetype<Packed>(memory.data(offsetof<Packed>()));

/**
 * Sentence statistics for one hypothesis and its references, written as f64 at `out`:
 * [sysLen, refLen, correct[0..N), total[0..N)].
 */
function bleuStatsOne(
  bytes: usize, strOffs: usize, hypIdx: i32, rFirst: i32, rEnd: i32,
  tokenizer: i32, lowercase: bool, maxOrder: i32, out: usize,
): void {
  const m = mark();
  const hypLen = bleuTokenize(strPtr(bytes, strOffs, hypIdx), strLen(strOffs, hypIdx), tokenizer, lowercase);
  internInit(INTERN, hypLen);
  const hyp = tokenIds(INTERN, hypLen, true);
  // fast path: token ids packed into exact u64 keys (bits per id so that maxOrder ids fit)
  const bits: u64 = <u64>(59 / maxOrder);
  const packed = maxOrder <= 59 && INTERN.count <= (<u32>1 << <u32>bits);
  if (packed) {
    packedBegin(PK, hypLen * maxOrder);
    for (let i = 0; i < hypLen; i++) {
      let key: u64 = 0;
      for (let n = 1; n <= maxOrder && i + n <= hypLen; n++) {
        key = (key << bits) | <u64>cpAt(hyp, i + n - 1);
        packedAdd(PK, key | (<u64>(n - 1) << ORDER_SHIFT));
      }
    }
  } else {
    ngramsInit(NGRAMS, hypLen * maxOrder, hyp);
    for (let i = 0; i < hypLen; i++) {
      let h = ngramHashStart();
      for (let n = 1; n <= maxOrder && i + n <= hypLen; n++) {
        h = ngramHashStep(h, cpAt(hyp, i + n - 1));
        ngramsAddHyp(NGRAMS, i, n, ngramHashFinal(h, n));
      }
    }
  }
  // references: only n-grams the hypothesis has can match; max count per n-gram over references
  let closestDiff: i32 = -1;
  let closestLen: i32 = -1;
  for (let r = rFirst; r < rEnd; r++) {
    const rm = mark();
    const refLen = bleuTokenize(strPtr(bytes, strOffs, r), strLen(strOffs, r), tokenizer, lowercase);
    const diff = refLen > hypLen ? refLen - hypLen : hypLen - refLen;
    if (closestDiff == -1 || diff < closestDiff) {
      closestDiff = diff;
      closestLen = refLen;
    } else if (diff == closestDiff && refLen < closestLen) {
      closestLen = refLen;
    }
    const ref = tokenIds(INTERN, refLen, false);
    const stamp = <u32>(r - rFirst + 1);
    for (let i = 0; i < refLen; i++) {
      let h = ngramHashStart();
      let key: u64 = 0;
      for (let n = 1; n <= maxOrder && i + n <= refLen; n++) {
        const id = cpAt(ref, i + n - 1);
        if (id == NONE) break; // no longer n-gram from here can match
        let s: usize;
        if (packed) {
          key = (key << bits) | <u64>id;
          s = packedFind(PK, key | (<u64>(n - 1) << ORDER_SHIFT));
          // an n-gram absent from the hypothesis has no longer extension in it either
          if (s == 0) break;
          // packed slots: cur @16, stamp @20, refMax @24
          const cur: u32 = load<u32>(s, 20) == stamp ? load<u32>(s, 16) + 1 : 1;
          store<u32>(s, stamp, 20);
          store<u32>(s, cur, 16);
          if (cur > load<u32>(s, 24)) store<u32>(s, cur, 24);
        } else {
          h = ngramHashStep(h, id);
          s = ngramsFind(NGRAMS, ref + (<usize>i << 2), n, ngramHashFinal(h, n));
          if (s == 0) break;
          const cur: u32 = slotStamp(s) == stamp ? slotCur(s) + 1 : 1;
          setSlotStamp(s, stamp);
          setSlotCur(s, cur);
          if (cur > slotRefMax(s)) setSlotRefMax(s, cur);
        }
      }
    }
    release(rm);
  }
  store<f64>(out, <f64>hypLen);
  store<f64>(out, <f64>closestLen, 8);
  for (let n = 0; n < maxOrder; n++) {
    store<f64>(out + 16 + (<usize>n << 3), 0);
    const total = hypLen - n;
    store<f64>(out + 16 + (<usize>(maxOrder + n) << 3), total > 0 ? <f64>total : 0);
  }
  if (packed) {
    for (let k: u32 = 0; k < PK.count; k++) {
      const s = packedSlot(PK, k);
      const rmx = load<u32>(s, 24);
      if (rmx == 0) continue;
      const hc = load<u32>(s, 12);
      const p = out + 16 + (<usize>(load<u64>(s) >> ORDER_SHIFT) << 3);
      store<f64>(p, load<f64>(p) + <f64>(hc < rmx ? hc : rmx));
    }
  } else {
    const cap = ngramsCapacity(NGRAMS);
    for (let k: u32 = 0; k < cap; k++) {
      const s = NGRAMS.slots + <usize>k * SLOT_BYTES;
      if (load<u32>(s, 4) == 0) continue;
      const rmx = slotRefMax(s);
      if (rmx == 0) continue;
      const hc = slotHyp(s);
      const p = out + 16 + (<usize>(slotN(s) - 1) << 3);
      store<f64>(p, load<f64>(p) + <f64>(hc < rmx ? hc : rmx));
    }
  }
  release(m);
}

/** Sentence statistics for a batch (see assembly/batch.ts); `2 + 2*maxOrder` f64 per item at `out`. */
export function bleuStatsBatch(
  n: i32, bytes: usize, strOffs: usize, refStart: usize,
  tokenizer: i32, lowercase: i32, maxOrder: i32, out: usize,
): void {
  const stride = <usize>(2 + 2 * maxOrder) << 3;
  let maxBytes = 0;
  for (let i = 0; i < n; i++) {
    const b = strLen(strOffs, i);
    if (b > maxBytes) maxBytes = b;
  }
  // a byte length bounds the token count of every tokenizer but char (one token per code point ≤ bytes)
  packedArena(PK, maxBytes * maxOrder);
  for (let i = 0; i < n; i++) {
    bleuStatsOne(bytes, strOffs, i, refFirst(refStart, i), refEnd(refStart, i), tokenizer, lowercase != 0, maxOrder, out + <usize>i * stride);
  }
}

export const SMOOTH_NONE = 0;
export const SMOOTH_FLOOR = 1;
export const SMOOTH_ADD_K = 2;
export const SMOOTH_EXP = 3;

// @ts-ignore: decorator
@inline function myLog(x: f64): f64 {
  return x == 0.0 ? -9999999999.0 : Math.log(x);
}

/**
 * sacreBLEU `compute_bleu` for each of `n` statistics rows at `stats` (`2 + 2*N` f64 each).
 * Writes per row: [score, bp, precisions[0..N), counts[0..N), totals[0..N)] (`2 + 3*N` f64), where
 * counts/totals are as sacreBLEU reports them (add-k smoothing adds k to orders ≥ 2 in place).
 * The log/exp are AssemblyScript's table-based musl ports (shrinkLevel 0), which reproduce glibc.
 */
export function bleuScoreBatch(
  n: i32, stats: usize, maxOrder: i32, smooth: i32, smoothValue: f64, effectiveOrder: i32, out: usize,
): void {
  const inStride = <usize>(2 + 2 * maxOrder) << 3;
  const outStride = <usize>(2 + 3 * maxOrder) << 3;
  for (let i = 0; i < n; i++) {
    const s = stats + <usize>i * inStride;
    const o = out + <usize>i * outStride;
    const sysLen = load<f64>(s);
    const refLen = load<f64>(s, 8);
    const prec = o + 16;
    const counts = o + 16 + (<usize>maxOrder << 3);
    const totals = o + 16 + (<usize>(2 * maxOrder) << 3);
    let anyCorrect = false;
    for (let k = 0; k < maxOrder; k++) {
      const c = load<f64>(s + 16 + (<usize>k << 3));
      store<f64>(counts + (<usize>k << 3), c);
      store<f64>(totals + (<usize>k << 3), load<f64>(s + 16 + (<usize>(maxOrder + k) << 3)));
      store<f64>(prec + (<usize>k << 3), 0.0);
      if (c != 0) anyCorrect = true;
    }
    let bp: f64 = 1.0;
    if (sysLen < refLen) bp = sysLen > 0 ? Math.exp(1.0 - refLen / sysLen) : 0.0;
    store<f64>(o, 0.0);
    store<f64>(o, bp, 8);
    if (!anyCorrect) continue;
    let smoothMteval: f64 = 1.0;
    let effOrder = maxOrder;
    for (let k = 1; k <= maxOrder; k++) {
      const cp = counts + (<usize>(k - 1) << 3);
      const tp = totals + (<usize>(k - 1) << 3);
      if (smooth == SMOOTH_ADD_K && k > 1) {
        store<f64>(cp, load<f64>(cp) + smoothValue);
        store<f64>(tp, load<f64>(tp) + smoothValue);
      }
      const total = load<f64>(tp);
      if (total == 0) break;
      if (effectiveOrder != 0) effOrder = k;
      const correct = load<f64>(cp);
      const pp = prec + (<usize>(k - 1) << 3);
      if (correct == 0) {
        if (smooth == SMOOTH_EXP) {
          smoothMteval *= 2;
          store<f64>(pp, 100.0 / (smoothMteval * total));
        } else if (smooth == SMOOTH_FLOOR) {
          store<f64>(pp, (100.0 * smoothValue) / total);
        }
      } else {
        store<f64>(pp, (100.0 * correct) / total);
      }
    }
    let sum: f64 = 0;
    for (let k = 0; k < effOrder; k++) sum += myLog(load<f64>(prec + (<usize>k << 3)));
    store<f64>(o, bp * Math.exp(sum / <f64>effOrder));
  }
}
