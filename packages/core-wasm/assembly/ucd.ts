// Unicode lookups on the generated tables (assembly/unicode-data.generated.ts, Unicode 14.0.0 as in
// CPython 3.11's `unicodedata`), so that no result depends on the ICU of the runtime:
//   * general category and the classes built on it (Python re `\w`, `\d`, \p{P}/\p{S}/\p{N})
//   * Python `str.lower()` (full lowercase mapping + Final_Sigma exactly as CPython)
//   * NFD (`unicodedata.normalize("NFD")`)
// Code points must be <= 0x10FFFF (the UTF-8 from the JS side guarantees it; larger values are clamped).

import {
  LEAF_BITS,
  MID_BITS,
  PROP_TOP,
  PROP_MID,
  PROP_LEAF,
  REC_INFO,
  REC_LOWER,
  DEC_PLANE,
  DEC_KEYS,
  DEC_OFFS,
  DEC_SEQ,
  DEC_MAX_LEN,
} from "./unicode-data.generated";

// General categories, in the generator's order (each major class is one contiguous range).
export const GC_LU: u32 = 0;
export const GC_LL: u32 = 1;
export const GC_LT: u32 = 2;
export const GC_LM: u32 = 3;
export const GC_LO: u32 = 4;
export const GC_MN: u32 = 5;
export const GC_MC: u32 = 6;
export const GC_ME: u32 = 7;
export const GC_ND: u32 = 8;
export const GC_NL: u32 = 9;
export const GC_NO: u32 = 10;
export const GC_PC: u32 = 11;
export const GC_PD: u32 = 12;
export const GC_PS: u32 = 13;
export const GC_PE: u32 = 14;
export const GC_PI: u32 = 15;
export const GC_PF: u32 = 16;
export const GC_PO: u32 = 17;
export const GC_SM: u32 = 18;
export const GC_SC: u32 = 19;
export const GC_SK: u32 = 20;
export const GC_SO: u32 = 21;
export const GC_ZS: u32 = 22;
export const GC_ZL: u32 = 23;
export const GC_ZP: u32 = 24;
export const GC_CC: u32 = 25;
export const GC_CF: u32 = 26;
export const GC_CS: u32 = 27;
export const GC_CO: u32 = 28;
export const GC_CN: u32 = 29;

/** Upper bound of NFD output length per input code point (full decomposition: 4; Hangul: 3). */
export const NFD_MAX_EXPANSION: i32 = DEC_MAX_LEN;

const INFO_CASED: u32 = 1 << 5;
const INFO_CASE_IGNORABLE: u32 = 1 << 6;
const INFO_DECOMPOSES: u32 = 1 << 7;
const INFO_LOWER_EXPANDS: u32 = 1 << 18;

/** Property record index of a code point (three table stages). */
// @ts-ignore: decorator
@inline function recordOf(cp: u32): u32 {
  cp = min<u32>(cp, 0x10ffff);
  const t = <u32>load<u8>(PROP_TOP + <usize>(cp >> (LEAF_BITS + MID_BITS)));
  const m = <u32>load<u16>(PROP_MID + (<usize>((t << MID_BITS) | ((cp >> LEAF_BITS) & ((1 << MID_BITS) - 1))) << 1));
  return <u32>load<u8>(PROP_LEAF + <usize>((m << LEAF_BITS) | (cp & ((1 << LEAF_BITS) - 1))));
}

/** Record bits of a code point: gc 0-4, Cased 5, Case_Ignorable 6, decomposes 7, ccc 8-15, intl 16-17, lower expands 18. */
// @ts-ignore: decorator
@inline export function ucdInfo(cp: u32): u32 {
  return load<u32>(REC_INFO + (<usize>recordOf(cp) << 2));
}

/** General category (GC_* constant). */
// @ts-ignore: decorator
@inline export function generalCategory(cp: u32): u8 {
  return <u8>(ucdInfo(cp) & 31);
}

// ASCII classes as 128-bit masks (bit c of lo for c < 64, bit c-64 of hi).
// Python `string.punctuation`: !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~
const PUNCT_LO: u64 = 0xfc00fffe00000000; // 0x21-0x2F, 0x3A-0x3F
const PUNCT_HI: u64 = 0x78000001f8000001; // 0x40, 0x5B-0x60, 0x7B-0x7E
// \w: [0-9A-Za-z_]
const WORD_LO: u64 = 0x03ff000000000000;
const WORD_HI: u64 = 0x07fffffe87fffffe;

/** ASCII `string.punctuation` (c < 128 only; false above). */
// @ts-ignore: decorator
@inline export function isAsciiPunct(c: u32): bool {
  return c < 64 ? <bool>((PUNCT_LO >> <u64>c) & 1) : c < 128 ? <bool>((PUNCT_HI >> <u64>(c - 64)) & 1) : false;
}

/** Python `re` `\w` on str: general category L* or N*, or "_". */
// @ts-ignore: decorator
@inline export function isWordChar(cp: u32): bool {
  if (cp < 128) return cp < 64 ? <bool>((WORD_LO >> <u64>cp) & 1) : <bool>((WORD_HI >> <u64>(cp - 64)) & 1);
  const g = ucdInfo(cp) & 31;
  return g <= GC_LO || (g - GC_ND) <= (GC_NO - GC_ND);
}

/** Python `re` `\d` on str / `str.isdecimal()`: general category Nd. */
// @ts-ignore: decorator
@inline export function isDecimalDigit(cp: u32): bool {
  if (cp < 128) return cp - 0x30 < 10;
  return (ucdInfo(cp) & 31) == GC_ND;
}

/** Any letter (L*). */
// @ts-ignore: decorator
@inline export function isUniL(cp: u32): bool {
  return (ucdInfo(cp) & 31) <= GC_LO;
}
/** Any mark (M*). */
// @ts-ignore: decorator
@inline export function isUniM(cp: u32): bool {
  return (ucdInfo(cp) & 31) - GC_MN <= GC_ME - GC_MN;
}
/** Any number (N*), Unicode 14.0. */
// @ts-ignore: decorator
@inline export function isUniN(cp: u32): bool {
  return (ucdInfo(cp) & 31) - GC_ND <= GC_NO - GC_ND;
}
/** Any punctuation (P*), Unicode 14.0. */
// @ts-ignore: decorator
@inline export function isUniP(cp: u32): bool {
  return (ucdInfo(cp) & 31) - GC_PC <= GC_PO - GC_PC;
}
/** Any symbol (S*), Unicode 14.0. */
// @ts-ignore: decorator
@inline export function isUniS(cp: u32): bool {
  return (ucdInfo(cp) & 31) - GC_SM <= GC_SO - GC_SM;
}
/** Any separator (Z*). */
// @ts-ignore: decorator
@inline export function isUniZ(cp: u32): bool {
  return (ucdInfo(cp) & 31) - GC_ZS <= GC_ZP - GC_ZS;
}
/** Any other (C*: Cc, Cf, Cs, Co, Cn). */
// @ts-ignore: decorator
@inline export function isUniC(cp: u32): bool {
  return (ucdInfo(cp) & 31) >= GC_CC;
}

/**
 * Class of a code point as the `regex` module 2022.10.31 (sacrebleu's `intl` tokenizer) sees it:
 * 0 none, 1 \p{P}, 2 \p{S}, 3 \p{N}. That release has Unicode 15.0.0 tables, which differ from
 * Unicode 14.0 on 92 code points that are unassigned in 14.0 (e.g. U+1FA77 PINK HEART is \p{S}).
 */
// @ts-ignore: decorator
@inline export function intlClass(cp: u32): u32 {
  return (ucdInfo(cp) >> 16) & 3;
}
/** \p{P} of regex 2022.10.31 (Unicode 15.0). */
// @ts-ignore: decorator
@inline export function isIntlP(cp: u32): bool {
  return intlClass(cp) == 1;
}
/** \p{S} of regex 2022.10.31 (Unicode 15.0). */
// @ts-ignore: decorator
@inline export function isIntlS(cp: u32): bool {
  return intlClass(cp) == 2;
}
/** \p{N} of regex 2022.10.31 (Unicode 15.0). */
// @ts-ignore: decorator
@inline export function isIntlN(cp: u32): bool {
  return intlClass(cp) == 3;
}

/** Derived property Cased. */
// @ts-ignore: decorator
@inline export function isCased(cp: u32): bool {
  return (ucdInfo(cp) & INFO_CASED) != 0;
}
/** Derived property Case_Ignorable. */
// @ts-ignore: decorator
@inline export function isCaseIgnorable(cp: u32): bool {
  return (ucdInfo(cp) & INFO_CASE_IGNORABLE) != 0;
}

/** Canonical combining class. */
// @ts-ignore: decorator
@inline export function combiningClass(cp: u32): u32 {
  return cp < 0x300 ? 0 : (ucdInfo(cp) >> 8) & 255;
}

// ------------------------------------------------------------------------------------------ lowercase

// ASCII Case_Ignorable: ' . : ^ `  (U+0027, U+002E, U+003A, U+005E, U+0060); ASCII Cased: A-Z a-z.
const CASE_IGN_LO: u64 = 0x0400408000000000;
const CASE_IGN_HI: u64 = 0x0000000140000000;
const LETTER_HI: u64 = 0x07fffffe07fffffe;

/**
 * Python `str.lower()` of `src[0..n)` (u32 code points) into `out`; returns the output length.
 * Capacity of `out`: 2n (only U+0130 expands, to "i" U+0307). `out` may be `src` itself (in place)
 * when `src` holds no U+0130 (e.g. after NFD); otherwise they must not overlap.
 * With `dropAsciiPunct`, code points of `string.punctuation` are left out of the output (they still
 * count as context for Final_Sigma, as in `lower()` followed by the deletion).
 *
 * U+03A3 follows CPython's `handle_capital_sigma`: it becomes final ς when the last code point before
 * it that is not Case_Ignorable exists and is Cased (tracked in `casedBefore` while scanning), and no
 * Cased code point follows after skipping Case_Ignorable ones (read ahead in `src`, which in-place
 * writing has not reached yet).
 */
export function pyLowerInto(src: usize, n: i32, out: usize, dropAsciiPunct: bool): i32 {
  let o: usize = out;
  let casedBefore = false;
  for (let i = 0; i < n; i++) {
    const c = load<u32>(src + (<usize>i << 2));
    if (c < 0x80) {
      if (c < 64) {
        if (!((CASE_IGN_LO >> <u64>c) & 1)) casedBefore = false;
      } else if (!((CASE_IGN_HI >> <u64>(c - 64)) & 1)) {
        casedBefore = <bool>((LETTER_HI >> <u64>(c - 64)) & 1);
      }
      if (dropAsciiPunct && isAsciiPunct(c)) continue;
      store<u32>(o, c - 0x41 < 26 ? c + 32 : c);
      o += 4;
      continue;
    }
    const r = recordOf(c);
    const info = load<u32>(REC_INFO + (<usize>r << 2));
    if (c == 0x3a3) {
      let fin = casedBefore;
      if (fin) {
        let j = i + 1;
        let x: u32 = 0;
        for (; j < n; j++) {
          x = ucdInfo(load<u32>(src + (<usize>j << 2)));
          if (!(x & INFO_CASE_IGNORABLE)) break;
        }
        fin = j == n || !(x & INFO_CASED);
      }
      store<u32>(o, fin ? 0x3c2 : 0x3c3);
      o += 4;
    } else if (info & INFO_LOWER_EXPANDS) {
      // U+0130 -> "i" U+0307
      store<u32>(o, 0x69);
      store<u32>(o, 0x307, 4);
      o += 8;
    } else {
      store<u32>(o, <u32>(<i32>c + load<i32>(REC_LOWER + (<usize>r << 2))));
      o += 4;
    }
    if (!(info & INFO_CASE_IGNORABLE)) casedBefore = (info & INFO_CASED) != 0;
  }
  return <i32>((o - out) >> 2);
}

/** Python `str.lower()`: code points in, code points out (capacity 2n, no overlap); returns the length. */
export function pyLower(src: usize, n: i32, out: usize): i32 {
  return pyLowerInto(src, n, out, false);
}

// ---------------------------------------------------------------------------------------------- NFD

/** Index of `cp` in the decomposition tables (cp must have the "decomposes" bit). */
function decompIndex(cp: u32): i32 {
  const plane = <usize>(cp >> 16);
  let lo = <i32>load<u16>(DEC_PLANE + (plane << 1));
  let hi = <i32>load<u16>(DEC_PLANE + (plane << 1) + 2);
  const key = cp & 0xffff;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = <u32>load<u16>(DEC_KEYS + (<usize>mid << 1));
    if (k < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Append `c` (combining class `cc`) at `out[o]`, keeping canonical order; returns the new length. */
// @ts-ignore: decorator
@inline function appendOrdered(out: usize, o: i32, c: u32, cc: u32): i32 {
  let j = o;
  if (cc != 0) {
    // stable insertion into the run of non-zero classes before it (class 0 stops the scan)
    while (j > 0) {
      const prev = load<u32>(out + (<usize>(j - 1) << 2));
      if (combiningClass(prev) <= cc) break;
      store<u32>(out + (<usize>j << 2), prev);
      j--;
    }
  }
  store<u32>(out + (<usize>j << 2), c);
  return o + 1;
}

/**
 * `unicodedata.normalize("NFD")` of `src[0..n)` (u32 code points) into `out`; returns the length.
 * Capacity of `out`: NFD_MAX_EXPANSION * n = 4n code points. `out` must not overlap `src`.
 */
export function nfd(src: usize, n: i32, out: usize): i32 {
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = load<u32>(src + (<usize>i << 2));
    if (c < 0xc0) {
      store<u32>(out + (<usize>o << 2), c);
      o++;
      continue;
    }
    const s = c - 0xac00;
    if (s < 11172) {
      // Hangul syllable: L V (T)
      const t = s % 28;
      store<u32>(out + (<usize>o << 2), 0x1100 + s / 588);
      store<u32>(out + (<usize>o << 2), 0x1161 + (s % 588) / 28, 4);
      o += 2;
      if (t) {
        store<u32>(out + (<usize>o << 2), 0x11a7 + t);
        o++;
      }
      continue;
    }
    const info = ucdInfo(c);
    if (info & INFO_DECOMPOSES) {
      const k = decompIndex(c);
      let p = <usize>load<u16>(DEC_OFFS + (<usize>k << 1));
      const e = <usize>load<u16>(DEC_OFFS + (<usize>k << 1) + 2);
      while (p < e) {
        let x = <u32>load<u16>(DEC_SEQ + (p << 1));
        p++;
        if (x - 0xd800 < 0x400) {
          x = 0x10000 + ((x - 0xd800) << 10) + (<u32>load<u16>(DEC_SEQ + (p << 1)) - 0xdc00);
          p++;
        }
        o = appendOrdered(out, o, x, combiningClass(x));
      }
    } else {
      o = appendOrdered(out, o, c, (info >> 8) & 255);
    }
  }
  return o;
}

/**
 * `lower(NFD(cp))` of one non-ASCII code point, when no neighbour can change it: writes its code points
 * at `out` and returns their count, plus 0x100 when one of them is not Python `\w`. Returns -1 (the
 * caller takes the general path) for Python whitespace, U+03A3 (lower() looks at its neighbours), a
 * code point whose NFD starts with a non-zero combining class (canonical reordering with what comes
 * before), and a lowercase that expands. A run of code points accepted here, each followed by one
 * accepted here or by ASCII, is therefore `lower(NFD(run))` piece by piece: NFD reorders only marks
 * after a mark, and a decomposition ends the marks it brings before the next starter.
 */
export function nfdLowerOne(cp: u32, out: usize): i32 {
  const s = cp - 0xac00;
  if (s < 11172) {
    // Hangul syllable: L V (T), all letters
    const t = s % 28;
    store<u32>(out, 0x1100 + s / 588);
    store<u32>(out, 0x1161 + (s % 588) / 28, 4);
    if (t == 0) return 2;
    store<u32>(out, 0x11a7 + t, 8);
    return 3;
  }
  if (cp == 0x3a3 || isPyWsCp(cp)) return -1;
  const r = recordOf(cp);
  const info = load<u32>(REC_INFO + (<usize>r << 2));
  if ((info & INFO_DECOMPOSES) == 0) {
    if ((info & (INFO_LOWER_EXPANDS | 0xff00)) != 0) return -1;
    const lc = <u32>(<i32>cp + load<i32>(REC_LOWER + (<usize>r << 2)));
    store<u32>(out, lc);
    return isWordChar(lc) ? 1 : 0x101;
  }
  const k = decompIndex(cp);
  let p = <usize>load<u16>(DEC_OFFS + (<usize>k << 1));
  const e = <usize>load<u16>(DEC_OFFS + (<usize>k << 1) + 2);
  let o = 0;
  let nonWord = 0;
  while (p < e) {
    let x = <u32>load<u16>(DEC_SEQ + (p << 1));
    p++;
    if (x - 0xd800 < 0x400) {
      x = 0x10000 + ((x - 0xd800) << 10) + (<u32>load<u16>(DEC_SEQ + (p << 1)) - 0xdc00);
      p++;
    }
    const rx = recordOf(x);
    const ix = load<u32>(REC_INFO + (<usize>rx << 2));
    if (x == 0x3a3 || (ix & INFO_LOWER_EXPANDS) != 0 || isPyWsCp(x) || isAsciiPunct(x)) return -1;
    if (o == 0 && x >= 0x300 && (ix & 0xff00) != 0) return -1;
    const lx = <u32>(<i32>x + load<i32>(REC_LOWER + (<usize>rx << 2)));
    store<u32>(out + (<usize>o << 2), lx);
    o++;
    if (!isWordChar(lx)) nonWord = 0x100;
  }
  return o | nonWord;
}

/** Python whitespace (str.split) among code points >= 0x80 (and the ASCII ones, for decompositions). */
// @ts-ignore: decorator
@inline function isPyWsCp(c: u32): bool {
  if (c < 0x80) return c - 9 < 5 || c - 0x1c < 5;
  return c == 0x85 || c == 0xa0 || c == 0x1680 || c - 0x2000 < 11 || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}
