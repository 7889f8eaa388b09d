// DSPy `DPR_normalize` (dspy/dsp/utils/dpr.py), the tokenizer of `answer_passage_match`:
//   DPR_normalize(text) = [t.lower() for t in SimpleTokenizer(unicodedata.normalize("NFD", text))]
// SimpleTokenizer takes, in order, every match of `([\p{L}\p{N}\p{M}]+)|([^\p{Z}\p{C}])` (third-party
// `regex` module): a maximal run of letters/numbers/marks, or one code point that is neither a
// separator nor "other". Each token is lowercased on its own, so Final_Sigma sees only the token.
//
// Unicode versions, as in the golden runtime: NFD and lower() are CPython 3.11's `unicodedata` (14.0,
// the shared tables of ucd.ts), while the classes are those of `regex` 2022.10.31, which carries
// Unicode 15.0.0. The two agree on every code point assigned in 14.0; the 4,482 code points that 15.0
// newly assigns (14.0: Cn, dropped) are listed in U15_NEW below (generated from @unicode/unicode-15.0.0).
//
// With flag bit 0 the input first goes through DSPy `normalize_text` (normalize.ts), which is what
// `answer_passage_match` tokenizes: DPR_normalize(normalize_text(x)).
//
// Output: the tokens of each string joined by U+0020 (a token never contains a Z* or C* code point,
// so the separator is unambiguous), in the result block format of normalize.ts `normalizeBatch`.

import { alloc, mark, release } from "./mem";
import { decodeUtf8, encodeUtf8 } from "./text";
import { strPtr, strLen } from "./batch";
import { nfd, pyLowerInto, ucdInfo, GC_NO, GC_ZS, GC_CN, NFD_MAX_EXPANSION } from "./ucd";
import { normalizeUtf8, tokLen } from "./normalize";

const SKIP: u32 = 0; // \p{Z} or \p{C}: not part of any token
const RUN: u32 = 1; // \p{L}, \p{N} or \p{M}: part of a run token
const SINGLE: u32 = 2; // anything else (\p{P}, \p{S}): a token of its own

// Code points unassigned in Unicode 14.0 and assigned in 15.0, as [first, last, class] (sorted).
// @ts-ignore: decorator
@lazy const U15_NEW: usize = memory.data<u32>([
  0x0cf3, 0x0cf3, 1, 0x0ece, 0x0ece, 1, 0x10efd, 0x10eff, 1, 0x1123f, 0x11241, 1,
  0x11b00, 0x11b09, 2, 0x11f00, 0x11f10, 1, 0x11f12, 0x11f3a, 1, 0x11f3e, 0x11f42, 1,
  0x11f43, 0x11f4f, 2, 0x11f50, 0x11f59, 1, 0x1342f, 0x1342f, 1, 0x13440, 0x13455, 1,
  0x1b132, 0x1b132, 1, 0x1b155, 0x1b155, 1, 0x1d2c0, 0x1d2d3, 1, 0x1df25, 0x1df2a, 1,
  0x1e030, 0x1e06d, 1, 0x1e08f, 0x1e08f, 1, 0x1e4d0, 0x1e4f9, 1, 0x1f6dc, 0x1f6dc, 2,
  0x1f774, 0x1f776, 2, 0x1f77b, 0x1f77f, 2, 0x1f7d9, 0x1f7d9, 2, 0x1fa75, 0x1fa77, 2,
  0x1fa87, 0x1fa88, 2, 0x1faad, 0x1faaf, 2, 0x1fabb, 0x1fabd, 2, 0x1fabf, 0x1fabf, 2,
  0x1face, 0x1facf, 2, 0x1fada, 0x1fadb, 2, 0x1fae8, 0x1fae8, 2, 0x1faf7, 0x1faf8, 2,
  0x2b739, 0x2b739, 1, 0x31350, 0x323af, 1,
]);
const U15_NEW_COUNT: i32 = 34;

/** Class of a code point unassigned in Unicode 14.0 under Unicode 15.0 (SKIP if still unassigned). */
function unicode15Class(cp: u32): u32 {
  let lo = 0;
  let hi = U15_NEW_COUNT;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = U15_NEW + <usize>(mid * 12);
    if (load<u32>(e, 4) < cp) lo = mid + 1;
    else if (load<u32>(e) > cp) hi = mid;
    else return load<u32>(e, 8);
  }
  return SKIP;
}

// ASCII classes: 0-9 A-Z a-z run; controls, space and DEL skip; the rest (punctuation, symbols) single.
// @ts-ignore: decorator
@inline function dprClass(cp: u32): u32 {
  if (cp < 0x80) {
    if (cp <= 0x20 || cp == 0x7f) return SKIP;
    const low = cp | 0x20;
    return cp - 0x30 < 10 || low - 0x61 < 26 ? RUN : SINGLE;
  }
  // general categories are numbered L*, M*, N*, P*, S*, Z*, C* (ucd.ts)
  const g = ucdInfo(cp) & 31;
  if (g <= GC_NO) return RUN;
  if (g < GC_ZS) return SINGLE;
  return g == GC_CN ? unicode15Class(cp) : SKIP;
}

/** Length (code points) of the last `dprTokensUtf8` result. */
// @ts-ignore: decorator
@lazy let dprLen: i32 = 0;

/**
 * Tokens of `byteLen` bytes of UTF-8 at `src`, lowercased, joined by U+0020: a new scratch array of
 * code points (length in `dprLen`).
 */
function dprTokensUtf8(src: usize, byteLen: i32, normalizeFirst: bool): usize {
  let a: usize;
  let n: i32;
  if (normalizeFirst) {
    a = normalizeUtf8(src, byteLen);
    n = tokLen;
  } else {
    a = alloc(<usize>max(byteLen, 1) << 2);
    n = decodeUtf8(src, byteLen, a);
  }
  const d = alloc(<usize>n * NFD_MAX_EXPANSION * 4 + 4);
  const m = nfd(a, n, d);
  // lower() grows only U+0130, which NFD has already split; the bound still allows 2x, plus separators
  const out = alloc(<usize>m * 12 + 4);
  let o = 0;
  let i = 0;
  while (i < m) {
    const k = dprClass(load<u32>(d + (<usize>i << 2)));
    if (k == SKIP) {
      i++;
      continue;
    }
    let j = i + 1;
    if (k == RUN) while (j < m && dprClass(load<u32>(d + (<usize>j << 2))) == RUN) j++;
    if (o > 0) {
      store<u32>(out + (<usize>o << 2), 0x20);
      o++;
    }
    o += pyLowerInto(d + (<usize>i << 2), j - i, out + (<usize>o << 2), false);
    i = j;
  }
  dprLen = o;
  return out;
}

/**
 * DPR tokens of strings 0..n-1 of the batch layout (assembly/batch.ts; no references). `flags` bit 0:
 * apply DSPy `normalize_text` first. Returns a pointer to a scratch block of n + 3 u32, as
 * `normalizeBatch`: [0] address of the UTF-8 output, [1] its end address, [2 + k] (k = 0..n) UTF-16
 * offset of result k in the decoded output, [2 + n] the total UTF-16 length.
 */
export function dprTokenizeBatch(n: i32, bytes: usize, strOffs: usize, flags: i32): usize {
  const normalizeFirst = (flags & 1) != 0;
  const block = alloc(<usize>(n + 3) << 2);
  let cur = mark();
  store<u32>(block, <u32>cur);
  let u16Pos: u32 = 0;
  for (let k = 0; k < n; k++) {
    store<u32>(block + (<usize>(k + 2) << 2), u16Pos);
    release(cur);
    const p = dprTokensUtf8(strPtr(bytes, strOffs, k), strLen(strOffs, k), normalizeFirst);
    const m = dprLen;
    for (let j = 0; j < m; j++) u16Pos += load<u32>(p + (<usize>j << 2)) >= 0x10000 ? 2 : 1;
    // Encode over the scratch this item used: `p` lies at least 4 bytes after `cur` and each code
    // point takes at most 4 bytes, so the write position never passes the code point being read.
    cur += encodeUtf8(p, m, cur);
  }
  store<u32>(block + (<usize>(n + 2) << 2), u16Pos);
  store<u32>(block, <u32>cur, 4);
  release((cur + 7) & ~(<usize>7));
  return block;
}
