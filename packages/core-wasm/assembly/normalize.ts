// DSPy `normalize_text` (dspy/evaluate/metrics.py), over code points:
//   1. NFD  2. str.lower()  3. delete ASCII `string.punctuation`
//   4. re.sub(r"\b(a|an|the)\b", " ", s) with Python's Unicode \b  5. " ".join(s.split())
// and the BYOB token stream `s.lower().split()`. Both produce a "token string": tokens joined by single
// U+0020, no leading/trailing space, which is exactly the normalised text (step 5) and splits into the
// tokens at every U+0020.

import { alloc, mark, release } from "./mem";
import { decodeUtf8, encodeUtf8, isPyWs } from "./text";
import { strPtr, strLen } from "./batch";
import { nfd, pyLowerInto, isWordChar, NFD_MAX_EXPANSION } from "./ucd";
import { NFD_LOWER_UTF8_GROWTH } from "./unicode-data.generated";

/** Length (code points) of the last `normalizeUtf8` / `lowerTokensUtf8` result. */
// @ts-ignore: decorator
@lazy export let tokLen: i32 = 0;

// Classes for steps 4-5: CLS_WS Python whitespace, CLS_ART "a"/"t" (where an article can start),
// CLS_WORD ASCII \w, CLS_OTHER any other non-ASCII code point (word or not: looked up when needed).
const CLS_WS: u32 = 1;
const CLS_ART: u32 = 2;
const CLS_WORD: u32 = 4;
const CLS_OTHER: u32 = 8;
// @ts-ignore: decorator
@lazy const ASCII_CLASS: usize = memory.data<u8>([
  0,0,0,0,0,0,0,0,0,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,
  1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4,4,4,4,4,4,4,4,4,4,0,0,0,0,0,0,
  0,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,0,0,0,0,4,
  0,6,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,6,4,4,4,4,4,4,0,0,0,0,0,
]);

/** ASCII `lower()`, with 0xff for the 32 code points of `string.punctuation` (deleted). */
// @ts-ignore: decorator
@lazy const ASCII_LOWER_NOPUNCT: usize = memory.data<u8>([
  0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,
  32,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,0xff,48,49,50,51,52,53,54,55,56,57,0xff,0xff,0xff,0xff,0xff,0xff,
  0xff,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,0xff,0xff,0xff,0xff,0xff,
  0xff,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,0xff,0xff,0xff,0xff,127,
]);

/**
 * Steps 4 and 5 in one pass, in place: replaces every `\b(a|an|the)\b` (alternatives in that order,
 * boundaries judged on the original neighbours, non-overlapping, left to right) by a space, then joins
 * the PY_WS-separated pieces with single spaces. Returns the new length.
 * Mostly branch-free: a space and the code point are stored speculatively and the write position
 * advances only when they are kept. In place is safe: writes land at or before the read position, and
 * a position is only overwritten with its own value before it is read again as a left neighbour
 * (right neighbours are never written yet).
 */
export function articlesAndSpaces(t: usize, m: i32): i32 {
  let o = 0;
  let pending: u32 = 0; // previous piece ended in whitespace (or a removed article)
  let prev: u32 = CLS_WS; // class of the previous code point; the start counts as non-word
  let p = 0;
  while (p < m) {
    const c = load<u32>(t + (<usize>p << 2));
    const cls: u32 = c < 0x80 ? <u32>load<u8>(ASCII_CLASS + <usize>c) : isPyWs(c) ? CLS_WS : CLS_OTHER;
    // "a"/"t" whose left neighbour is not an ASCII word character
    if ((cls & ~(prev >> 1)) & CLS_ART) {
      if (!(prev & CLS_OTHER) || !isWordChar(load<u32>(t + (<usize>(p - 1) << 2)))) {
        let len = 0;
        if (c == 0x61) {
          if (p + 1 == m || !isWordChar(load<u32>(t + (<usize>(p + 1) << 2)))) len = 1;
          else if (
            load<u32>(t + (<usize>(p + 1) << 2)) == 0x6e &&
            (p + 2 == m || !isWordChar(load<u32>(t + (<usize>(p + 2) << 2))))
          )
            len = 2;
        } else if (
          p + 2 < m &&
          load<u32>(t + (<usize>(p + 1) << 2)) == 0x68 &&
          load<u32>(t + (<usize>(p + 2) << 2)) == 0x65 &&
          (p + 3 == m || !isWordChar(load<u32>(t + (<usize>(p + 3) << 2))))
        ) {
          len = 3;
        }
        if (len) {
          pending = 1; // the replacement " " is whitespace
          prev = CLS_WORD; // the article's last letter (the next code point is a non-word one anyway)
          p += len;
          continue;
        }
      }
    }
    const ws = cls & CLS_WS;
    store<u32>(t + (<usize>o << 2), 0x20);
    o += <i32>(pending & (ws ^ 1) & <u32>(o > 0));
    store<u32>(t + (<usize>o << 2), c);
    o += <i32>(ws ^ 1);
    pending = ws;
    prev = cls;
    p++;
  }
  return o;
}

/**
 * DSPy `normalize_text` of `byteLen` bytes of UTF-8 at `src`: returns a new scratch array of code points
 * (length in `tokLen`).
 */
export function normalizeUtf8(src: usize, byteLen: i32): usize {
  const cap = byteLen > 0 ? byteLen : 1;
  const m0 = mark();
  // ASCII fast path: NFD is the identity and lower() is A-Z -> a-z.
  let t = alloc(<usize>cap << 2);
  let o = 0;
  let i = 0;
  for (; i < byteLen; i++) {
    const b = <u32>load<u8>(src + i);
    if (b >= 0x80) break;
    // lowercase, or 0xff for string.punctuation (written, then not counted)
    const v = <u32>load<u8>(ASCII_LOWER_NOPUNCT + <usize>b);
    store<u32>(t + (<usize>o << 2), v);
    o += i32(v != 0xff);
  }
  if (i < byteLen) {
    // general path: decode, NFD (<= 4n), then lower + drop punctuation in place (the only expanding
    // lowercase, U+0130, never survives NFD)
    release(m0);
    const a = alloc(<usize>cap << 2);
    const n = decodeUtf8(src, byteLen, a);
    t = alloc(<usize>n * NFD_MAX_EXPANSION * 4 + 4);
    o = pyLowerInto(t, nfd(a, n, t), t, true);
  }
  tokLen = articlesAndSpaces(t, o);
  return t;
}

/**
 * BYOB tokens: `s.lower().split()` joined by single spaces. Returns a new scratch array of code points
 * (length in `tokLen`).
 */
export function lowerTokensUtf8(src: usize, byteLen: i32): usize {
  const cap = byteLen > 0 ? byteLen : 1;
  const m0 = mark();
  let t = alloc(<usize>cap << 2);
  let o = 0;
  let i = 0;
  let pending = false;
  for (; i < byteLen; i++) {
    const b = <u32>load<u8>(src + i);
    if (b >= 0x80) break;
    if (isPyWs(b)) {
      pending = true;
      continue;
    }
    if (pending && o > 0) {
      store<u32>(t + (<usize>o << 2), 0x20);
      o++;
    }
    pending = false;
    store<u32>(t + (<usize>o << 2), b - 0x41 < 26 ? b + 32 : b);
    o++;
  }
  if (i < byteLen) {
    release(m0);
    const a = alloc(<usize>cap << 2);
    const n = decodeUtf8(src, byteLen, a);
    t = alloc(<usize>n * 8 + 4);
    const nl = pyLowerInto(a, n, t, false); // out of place: U+0130 grows
    o = 0;
    pending = false;
    for (let k = 0; k < nl; k++) {
      const c = load<u32>(t + (<usize>k << 2));
      if (isPyWs(c)) {
        pending = true;
        continue;
      }
      if (pending && o > 0) {
        store<u32>(t + (<usize>o << 2), 0x20);
        o++;
      }
      pending = false;
      store<u32>(t + (<usize>o << 2), c);
      o++;
    }
  }
  tokLen = o;
  return t;
}

/**
 * Batch `normalize_text` of strings 0..n-1 of the batch layout (assembly/batch.ts; no references).
 * Returns a pointer to a scratch block of n + 3 u32:
 *   [0] address of the UTF-8 output, [1] its end address,
 *   [2 + k] (k = 0..n) UTF-16 offset of result k in the decoded output, [2 + n] = total UTF-16 length.
 * So the JS side decodes bytes [block[0], block[1]) once and slices result k at [block[2+k], block[3+k]).
 * `mode` 0 = normalize_text, 1 = NFD only, 2 = str.lower() only, 3 = BYOB tokens (lower, split, join).
 */
export function normalizeBatch(n: i32, bytes: usize, strOffs: usize, mode: i32): usize {
  const block = alloc(<usize>(n + 3) << 2);
  let cur = mark();
  store<u32>(block, <u32>cur);
  let u16Pos: u32 = 0;
  for (let k = 0; k < n; k++) {
    store<u32>(block + (<usize>(k + 2) << 2), u16Pos);
    const len = strLen(strOffs, k);
    const src = strPtr(bytes, strOffs, k);
    release(cur);
    // room for this item's UTF-8; its temporaries come after
    alloc(<usize>len * NFD_LOWER_UTF8_GROWTH + 8);
    let p: usize;
    let m: i32;
    if (mode == 0) {
      p = normalizeUtf8(src, len);
      m = tokLen;
    } else if (mode == 3) {
      p = lowerTokensUtf8(src, len);
      m = tokLen;
    } else {
      const cap = len > 0 ? len : 1;
      const a = alloc(<usize>cap << 2);
      const na = decodeUtf8(src, len, a);
      const perCp: usize = mode == 1 ? <usize>NFD_MAX_EXPANSION << 2 : 8;
      p = alloc(<usize>na * perCp + 4);
      m = mode == 1 ? nfd(a, na, p) : pyLowerInto(a, na, p, false);
    }
    for (let j = 0; j < m; j++) u16Pos += load<u32>(p + (<usize>j << 2)) >= 0x10000 ? 2 : 1;
    cur += encodeUtf8(p, m, cur);
  }
  store<u32>(block + (<usize>(n + 2) << 2), u16Pos);
  store<u32>(block, <u32>cur, 4);
  release((cur + 7) & ~(<usize>7));
  return block;
}
