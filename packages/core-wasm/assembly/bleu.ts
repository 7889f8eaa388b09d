// sacreBLEU 2.6.0 BLEU: the 13a, intl, zh, char and none tokenizers, sentence statistics
// (`_compute_segment_statistics`) and `compute_bleu`, over code points.
//
// Statistics per item (f64): [sysLen, refLen, correct[0..N), total[0..N)], N = max n-gram order.

import { alloc, mark, release, persistBase, PERSIST_BIGRAM, PERSIST_CHRF } from "./mem";
import { decodeUtf8, encodeUtf8, isPyWs, rstripLen } from "./text";
import { NONE, tokTableBegin, tiCount, ngramMapBegin, ngramMapAdd, ngramAdded, ngramMapFind } from "./hash";
import { strPtr, strLen, refFirst, refEnd } from "./batch";
import { pyLower } from "./ucd";
import { tokBegin, tokIds, tokCount, scanRegexp, scanIntl, scanChar, scanNone, MODE_13A, MODE_13A_POST, MODE_ZH } from "./tok";
export { isZhChar } from "./tok";

export const TOK_13A = 0;
export const TOK_INTL = 1;
export const TOK_ZH = 2;
export const TOK_CHAR = 3;
export const TOK_NONE = 4;

/** str.replace(pattern, repl) for short ASCII patterns over UTF-8 bytes (an ASCII byte is never part of a longer character); returns the new length at `dst`. */
function replaceAll(src: usize, n: i32, pat: StaticArray<u32>, repl: StaticArray<u32>, dst: usize): i32 {
  const m = pat.length;
  const r = repl.length;
  const first = <u8>unchecked(pat[0]);
  let o = 0;
  let i = 0;
  while (i < n) {
    const b = load<u8>(src + <usize>i);
    let hit = b == first && i + m <= n;
    if (hit) {
      for (let k = 1; k < m; k++) {
        if (<u32>load<u8>(src + <usize>(i + k)) != unchecked(pat[k])) {
          hit = false;
          break;
        }
      }
    }
    if (hit) {
      for (let k = 0; k < r; k++) store<u8>(dst + <usize>(o++), <u8>unchecked(repl[k]));
      i += m;
    } else {
      store<u8>(dst + <usize>(o++), b);
      i++;
    }
  }
  return o;
}

function contains(src: usize, n: i32, c: u8): bool {
  for (let i = 0; i < n; i++) if (load<u8>(src + <usize>i) == c) return true;
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

/** Python `str.rstrip()` over UTF-8 bytes: the new byte length. */
function rstripBytes(p: usize, n: i32): i32 {
  while (n > 0) {
    const b = <u32>load<u8>(p + <usize>(n - 1));
    if (b < 0x80) {
      if (!isPyWs(b)) break;
      n--;
      continue;
    }
    // a non-ASCII whitespace ends in 0x85 / 0xA0 (2 bytes) or 0x80..0xAF / 0x9F (3 bytes)
    let s = n - 1;
    while (s > 0 && (<u32>load<u8>(p + <usize>s) & 0xc0) == 0x80) s--;
    const b0 = <u32>load<u8>(p + <usize>s);
    let c: u32 = 0;
    if (b0 >= 0xc0 && b0 < 0xe0 && n - s == 2) c = ((b0 & 0x1f) << 6) | (b & 0x3f);
    else if (b0 >= 0xe0 && b0 < 0xf0 && n - s == 3) c = ((b0 & 0x0f) << 12) | ((<u32>load<u8>(p + <usize>s + 1) & 0x3f) << 6) | (b & 0x3f);
    if (c == 0 || !isPyWs(c)) break;
    n = s;
  }
  return n;
}

/**
 * `_preprocess_segment` + `line.split()` for one string, interning each token (hypothesis: `add`;
 * reference: look-up only, NONE for a token the hypothesis lacks). Returns the token count; the ids are
 * at `tokIds`. Bytes it makes (lowercasing, 13a's replacements) stay in scratch until the caller's release.
 */
export function bleuTokenize(p: usize, byteLen: i32, tokenizer: i32, lowercase: bool, add: bool): i32 {
  let n = rstripBytes(p, byteLen);
  if (lowercase) {
    // Python str.lower(): ASCII bytes directly, anything else through the Unicode tables
    let ascii = true;
    for (let i = 0; i < n; i++) {
      if (load<u8>(p + <usize>i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      const low = alloc(<usize>n + 16);
      for (let i = 0; i < n; i++) {
        const b = load<u8>(p + <usize>i);
        store<u8>(low + <usize>i, b - 0x41 < 26 ? b | 0x20 : b);
      }
      p = low;
    } else {
      const cps = alloc(<usize>(n + 1) << 2);
      const cn = decodeUtf8(p, n, cps);
      const low = alloc(<usize>(cn * 2 + 1) << 2);
      const ln = rstripLen(low, pyLower(cps, cn, low));
      const buf = alloc((<usize>ln << 2) + 16);
      n = encodeUtf8(low, ln, buf);
      p = buf;
    }
  }
  tokBegin(alloc((<usize>n + 2) << 2), add);
  if (tokenizer == TOK_13A) {
    if (scanRegexp(p, n, MODE_13A)) return tokCount;
    // a '<', '&' or '\n': 13a's string replacements first; a hypothesis starts its table again
    if (add) tokTableBegin(n);
    if (contains(p, n, 0x3c) || contains(p, n, 0x0a)) {
      const t = alloc(<usize>n + 16);
      const t2 = alloc(<usize>n + 16);
      let src = p;
      if (contains(p, n, 0x3c)) {
        n = replaceAll(p, n, P_SKIPPED, R_EMPTY, t2);
        src = t2;
      }
      n = replaceAll(src, n, P_HYPHEN_NL, R_EMPTY, t);
      n = replaceAll(t, n, P_NL, R_SPACE, t2);
      p = t2;
    }
    if (contains(p, n, 0x26)) {
      const t = alloc(<usize>n + 16);
      const t2 = alloc(<usize>n + 16);
      n = replaceAll(p, n, P_QUOT, R_QUOT, t);
      n = replaceAll(t, n, P_AMP, R_AMP, t2);
      n = replaceAll(t2, n, P_LT, R_LT, t);
      n = replaceAll(t, n, P_GT, R_GT, t2);
      p = t2;
    }
    tokBegin(alloc((<usize>n + 2) << 2), add);
    scanRegexp(p, n, MODE_13A_POST);
  } else if (tokenizer == TOK_INTL) {
    scanIntl(p, n);
  } else if (tokenizer == TOK_ZH) {
    scanRegexp(p, n, MODE_ZH);
  } else if (tokenizer == TOK_CHAR) {
    scanChar(p, n);
  } else {
    scanNone(p, n);
  }
  return tokCount;
}

// The direct bigram table in the persistent arena (mem.ts): for hypotheses of at most BG_MAX_V distinct tokens.
const BG_BYTES: usize = PERSIST_CHRF - PERSIST_BIGRAM; // the arena up to the next one
const BG_MAX_V: i32 = 90; // 90 × 90 × 8 bytes ≤ 64 KiB
// @ts-ignore: decorator
@inline function BG_TABLE(): usize {
  return persistBase() + PERSIST_BIGRAM;
}
// @ts-ignore: decorator
@lazy let bigramEpoch: u32 = 0;

/**
 * Sentence statistics for one hypothesis and its references, written as f64 at `out`:
 * [sysLen, refLen, correct[0..N), total[0..N)].
 *
 * N-grams get dense ids: a unigram's id is its token id, and the n-gram at position i has the id the
 * n-gram map gives (id of the (n-1)-gram at i, token at i+n-1), so ids of order n follow those of order
 * n-1. Counts live in a 16-byte record per id [hyp, refMax, cur, stamp]; a reference walks its
 * n-grams from each position while they exist in the hypothesis.
 */
function bleuStatsOne(
  bytes: usize, strOffs: usize, hypIdx: i32, rFirst: i32, rEnd: i32,
  tokenizer: i32, lowercase: bool, maxOrder: i32, out: usize,
): void {
  const m = mark();
  const hypBytes = strLen(strOffs, hypIdx);
  tokTableBegin(hypBytes >> 2);
  const hypLen = bleuTokenize(strPtr(bytes, strOffs, hypIdx), hypBytes, tokenizer, lowercase, true);
  const hyp = tokIds;
  const V = <i32>tiCount;
  // records for up to hypLen ids per order, plus the first id of each order
  const rec = alloc(<usize>(hypLen * maxOrder + 1) << 4);
  const orderStart = alloc(<usize>(maxOrder + 2) << 2);
  memory.fill(rec, 0, <usize>V << 4);
  for (let i = 0; i < hypLen; i++) {
    const r = rec + (<usize>load<u32>(hyp + (<usize>i << 2)) << 4);
    store<u32>(r, load<u32>(r) + 1);
  }
  store<u32>(orderStart, 0);
  store<u32>(orderStart, <u32>V, 4);
  let G = <u32>V;
  // bigrams: a direct V×V table (epoch-stamped u64 entries: epoch << 32 | id) when it fits the arena
  const direct = V <= BG_MAX_V;
  if (++bigramEpoch == 0) {
    memory.fill(BG_TABLE(), 0, BG_BYTES); // wrapped after 2^32 items: clear once
    bigramEpoch = 1;
  }
  const bgEpoch = bigramEpoch;
  const bg = BG_TABLE();
  if (maxOrder > 1 && hypLen > 1) {
    ngramMapBegin(hypLen * (maxOrder - (direct ? 2 : 1)));
    const prev = alloc(<usize>(hypLen + 1) << 2);
    memory.copy(prev, hyp, <usize>hypLen << 2);
    if (direct) {
      for (let i = 0; i + 2 <= hypLen; i++) {
        const e = bg + (<usize>(load<u32>(prev + (<usize>i << 2)) * <u32>V + load<u32>(hyp + (<usize>(i + 1) << 2))) << 3);
        let g: u32;
        if (load<u32>(e, 4) == bgEpoch) {
          g = load<u32>(e);
          const r = rec + (<usize>g << 4);
          store<u32>(r, load<u32>(r) + 1);
        } else {
          g = G++;
          store<u64>(e, (<u64>bgEpoch << 32) | <u64>g);
          const r = rec + (<usize>g << 4);
          store<u64>(r, 1); // hyp 1, refMax 0
          store<u64>(r, 0, 8); // cur, stamp
        }
        store<u32>(prev + (<usize>(i << 2)), g);
      }
      store<u32>(orderStart + 8, G);
    }
    for (let n = direct ? 3 : 2; n <= maxOrder; n++) {
      for (let i = 0; i + n <= hypLen; i++) {
        const key = (<u64>load<u32>(prev + (<usize>i << 2)) << 32) | <u64>load<u32>(hyp + (<usize>(i + n - 1) << 2));
        const g = ngramMapAdd(key, G);
        const r = rec + (<usize>g << 4);
        if (ngramAdded) {
          G++;
          store<u64>(r, 1); // hyp 1, refMax 0
          store<u64>(r, 0, 8); // cur, stamp
        } else {
          store<u32>(r, load<u32>(r) + 1);
        }
        store<u32>(prev + (<usize>(i << 2)), g);
      }
      store<u32>(orderStart + (<usize>n << 2), G);
    }
  } else {
    ngramMapBegin(0);
    for (let n = 2; n <= maxOrder; n++) store<u32>(orderStart + (<usize>n << 2), G);
  }
  // references: only n-grams the hypothesis has can match; max count per n-gram over references
  let closestDiff: i32 = -1;
  let closestLen: i32 = -1;
  for (let r = rFirst; r < rEnd; r++) {
    const rm = mark();
    const refLen = bleuTokenize(strPtr(bytes, strOffs, r), strLen(strOffs, r), tokenizer, lowercase, false);
    const ref = tokIds;
    const diff = refLen > hypLen ? refLen - hypLen : hypLen - refLen;
    if (closestDiff == -1 || diff < closestDiff) {
      closestDiff = diff;
      closestLen = refLen;
    } else if (diff == closestDiff && refLen < closestLen) {
      closestLen = refLen;
    }
    const stamp = <u32>(r - rFirst + 1);
    for (let i = 0; i < refLen; i++) {
      let g = load<u32>(ref + (<usize>i << 2));
      if (g == NONE) continue;
      let n = 1;
      while (true) {
        const rc = rec + (<usize>g << 4);
        const cur: u32 = load<u32>(rc, 12) == stamp ? load<u32>(rc, 8) + 1 : 1;
        store<u32>(rc, cur, 8);
        store<u32>(rc, stamp, 12);
        if (cur > load<u32>(rc, 4)) store<u32>(rc, cur, 4);
        if (n == maxOrder || i + n >= refLen) break;
        const t = load<u32>(ref + (<usize>(i + n) << 2));
        if (t == NONE) break;
        if (n == 1 && direct) {
          const e = bg + (<usize>(g * <u32>V + t) << 3);
          g = load<u32>(e, 4) == bgEpoch ? load<u32>(e) : NONE;
        } else {
          g = ngramMapFind((<u64>g << 32) | <u64>t);
        }
        if (g == NONE) break; // an n-gram absent from the hypothesis has no longer extension in it either
        n++;
      }
    }
    release(rm);
  }
  store<f64>(out, <f64>hypLen);
  store<f64>(out, <f64>closestLen, 8);
  for (let n = 0; n < maxOrder; n++) {
    let correct: u32 = 0;
    const g1 = load<u32>(orderStart + (<usize>(n + 1) << 2));
    for (let g = load<u32>(orderStart + (<usize>n << 2)); g < g1; g++) {
      const rc = rec + (<usize>g << 4);
      const hc = load<u32>(rc);
      const rmx = load<u32>(rc, 4);
      correct += hc < rmx ? hc : rmx;
    }
    store<f64>(out + 16 + (<usize>n << 3), <f64>correct);
    const total = hypLen - n;
    store<f64>(out + 16 + (<usize>(maxOrder + n) << 3), total > 0 ? <f64>total : 0);
  }
  release(m);
}

/** Sentence statistics for a batch (see assembly/batch.ts); `2 + 2*maxOrder` f64 per item at `out`. */
export function bleuStatsBatch(
  n: i32, bytes: usize, strOffs: usize, refStart: usize,
  tokenizer: i32, lowercase: i32, maxOrder: i32, out: usize,
): void {
  const stride = <usize>(2 + 2 * maxOrder) << 3;
  for (let i = 0; i < n; i++) {
    bleuStatsOne(bytes, strOffs, i, refFirst(refStart, i), refEnd(refStart, i), tokenizer, lowercase != 0, maxOrder, out + <usize>i * stride);
  }
}

/**
 * The per-call path: one pair (string 0 the hypothesis, strings 1..nStr-1 its references) in one
 * crossing. Writes the statistics row (`2 + 2N` f64) at `out` and `compute_bleu`'s row
 * (`2 + 3N` f64, see bleuScoreBatch) right after it.
 */
export function bleuSentence(
  bytes: usize, strOffs: usize, nStr: i32,
  tokenizer: i32, lowercase: i32, maxOrder: i32, smooth: i32, smoothValue: f64, effectiveOrder: i32, out: usize,
): void {
  bleuStatsOne(bytes, strOffs, 0, 1, nStr, tokenizer, lowercase != 0, maxOrder, out);
  bleuScoreBatch(1, out, maxOrder, smooth, smoothValue, effectiveOrder, out + (<usize>(2 + 2 * maxOrder) << 3));
}

/** Sentence BLEU for a batch: statistics and `compute_bleu` per item, one f64 score per item at `out`. */
export function bleuSentenceBatch(
  n: i32, bytes: usize, strOffs: usize, refStart: usize,
  tokenizer: i32, lowercase: i32, maxOrder: i32, smooth: i32, smoothValue: f64, effectiveOrder: i32, out: usize,
): void {
  const row = alloc(<usize>(4 + 5 * maxOrder) << 3);
  const score = row + (<usize>(2 + 2 * maxOrder) << 3);
  for (let i = 0; i < n; i++) {
    bleuStatsOne(bytes, strOffs, i, refFirst(refStart, i), refEnd(refStart, i), tokenizer, lowercase != 0, maxOrder, row);
    bleuScoreBatch(1, row, maxOrder, smooth, smoothValue, effectiveOrder, score);
    store<f64>(out + (<usize>i << 3), load<f64>(score));
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
