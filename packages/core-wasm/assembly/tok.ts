// sacreBLEU's tokenizers as one streaming pass over the UTF-8 bytes of a string, interning each token
// as it closes.
//
// Every substitution of a tokenizer only inserts spaces and the last step splits on Python whitespace,
// so each final token is a contiguous byte range of the input: the scanner never copies a token, it
// hands (start, end) to `tokSink`'s interning (hash.ts) and stores the id.
//
// Each `re.sub` is a small transducer with at most one pending character (the regexes match two
// adjacent characters and consume both, scanning left to right without overlap); the stages are
// chained char by char (r1..r4 for TokenizerRegexp, i1..i3 for intl). The chain only decides where
// spaces go: its last stage (`sink`) moves a byte cursor over the input, opening a token at a
// non-whitespace character and closing it at an inserted space (SPC) or at whitespace.
//
// Fast path: while nothing is pending below the first stage and the pending character is "plain" (no
// digit, '.', ','; for intl: none of P, S, N), a run of plain bytes extends the current token without
// entering the chain (a 256-entry class table per tokenizer; UTF-8 continuation bytes are plain, lead
// bytes that may start whitespace or a class character are decoded). Whitespace closes the token, and
// a 13a symbol or zh character becomes a token of its own. The pending character is then PEND: a
// plain character whose bytes the cursor has already passed (emitting it later does nothing).

import { isPyWs } from "./text";
import { intlClass } from "./ucd";
import { internToken } from "./hash";

/** An inserted space (never in the input; class: not a digit, '.', ',', '-', symbol, P, S or N). */
const SPC: u32 = 0x110000;
/** A plain character already passed by the cursor (see above). */
const PEND: u32 = 0x110001;
const NO: u32 = 0xffffffff;

// byte classes
const C_PLAIN: u8 = 0;
const C_WS: u8 = 1;
const C_ISO: u8 = 2; // a token of its own (13a symbol other than space; zh character)
const C_CHAIN: u8 = 3; // through the transducer chain (digits, '.', ','; intl: P, S, N)
const C_DEC: u8 = 4; // lead byte: decode and classify the code point
const C_BAIL: u8 = 5; // 13a: '<', '&', '\n' need the string replacements first

export const MODE_13A: i32 = 0; // bails out on '<', '&', '\n'
export const MODE_13A_POST: i32 = 1; // after the replacements
export const MODE_ZH: i32 = 2;
const MODE_INTL: i32 = 3;

// four 256-entry class tables (13a, 13a after replacements, zh, intl), built on first use
const TABLES: usize = memory.data(1024);
// @ts-ignore: decorator
@lazy let tablesReady = false;

/** 13a's first class `[\{-\~\[-\` -\&\(-\+\:-\@\/]` (space included). */
// @ts-ignore: decorator
@inline function is13aSym(c: u32): bool {
  return (
    (c >= 0x7b && c <= 0x7e) || (c >= 0x5b && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
    (c >= 0x28 && c <= 0x2b) || (c >= 0x3a && c <= 0x40) || c == 0x2f
  );
}

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

function buildTables(): void {
  for (let b: u32 = 0; b < 256; b++) {
    let r: u8 = C_PLAIN;
    let intl: u8 = C_PLAIN;
    if (b < 0x80) {
      if (isPyWs(b)) r = C_WS;
      else if (is13aSym(b)) r = C_ISO;
      else if (isDigit(b) || b == 0x2e || b == 0x2c) r = C_CHAIN;
      if (isPyWs(b)) intl = C_WS;
      else if (intlClass(b) != 0) intl = C_CHAIN;
    } else if (b >= 0xc0) {
      intl = C_DEC;
    }
    // 13a: lead bytes of the non-ASCII whitespace (U+0085, U+00A0, U+1680, U+2000.., U+3000)
    const ws13a = b == 0xc2 || b == 0xe1 || b == 0xe2 || b == 0xe3;
    let a = r;
    if (ws13a) a = C_DEC;
    let post = a;
    if (b == 0x3c || b == 0x26 || b == 0x0a) a = C_BAIL;
    // zh: also the lead bytes of the "Chinese" ranges (U+2001..U+9FBB: E2..E9; U+F900..U+FFEF: EF)
    let zh = r;
    if (ws13a || (b >= 0xe2 && b <= 0xe9) || b == 0xef) zh = C_DEC;
    store<u8>(TABLES + b, a);
    store<u8>(TABLES + 256 + b, post);
    store<u8>(TABLES + 512 + b, zh);
    store<u8>(TABLES + 768 + b, intl);
  }
  tablesReady = true;
}

// ---- SIMD128 run scans: the offset of the first byte in 16 that may not be plain (a superset: the
// scalar class table decides), or 16 ----

/** TokenizerRegexp: ASCII below 'A' but "'" and '-', [\]^_`, {|}~, and lead bytes C2, E1..E9, EF. */
// @ts-ignore: decorator
@inline function flagsRegexp(v: v128): i32 {
  let f = v128.andnot(
    i8x16.lt_u(v, i8x16.splat(0x41)),
    v128.or(i8x16.eq(v, i8x16.splat(0x27)), i8x16.eq(v, i8x16.splat(0x2d))),
  );
  f = v128.or(f, i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x5b)), i8x16.splat(6)));
  f = v128.or(f, i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x7b)), i8x16.splat(4)));
  f = v128.or(f, i8x16.eq(v, i8x16.splat(<i8>0xc2)));
  f = v128.or(f, i8x16.lt_u(i8x16.sub(v, i8x16.splat(<i8>0xe1)), i8x16.splat(9)));
  f = v128.or(f, i8x16.eq(v, i8x16.splat(<i8>0xef)));
  return i8x16.bitmask(f);
}

/** intl: ASCII below 'A', [\]^_`, {|}~, and every lead byte. */
// @ts-ignore: decorator
@inline function flagsIntl(v: v128): i32 {
  let f = i8x16.lt_u(v, i8x16.splat(0x41));
  f = v128.or(f, i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x5b)), i8x16.splat(6)));
  f = v128.or(f, i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x7b)), i8x16.splat(4)));
  f = v128.or(f, i8x16.gt_u(v, i8x16.splat(<i8>0xbf)));
  return i8x16.bitmask(f);
}

// ---- output ----

// @ts-ignore: decorator
@lazy let src: usize = 0; // the bytes being scanned
// @ts-ignore: decorator
@lazy let cur: i32 = 0; // byte offset of the next character the chain emits
// @ts-ignore: decorator
@lazy let tokStart: i32 = -1;
// @ts-ignore: decorator
@lazy export let tokIds: usize = 0; // u32 token ids
// @ts-ignore: decorator
@lazy export let tokCount: i32 = 0;
// @ts-ignore: decorator
@lazy let tokAdd: bool = false;

// @ts-ignore: decorator
@lazy let p2: u32 = NO;
// @ts-ignore: decorator
@lazy let p3: u32 = NO;
// @ts-ignore: decorator
@lazy let p4: u32 = NO;

/** Start writing token ids at `ids` (capacity: one per input byte, plus one); `add`: intern new tokens. */
export function tokBegin(ids: usize, add: bool): void {
  tokIds = ids;
  tokCount = 0;
  tokAdd = add;
}

// @ts-ignore: decorator
@inline function emit(s: i32, e: i32): void {
  store<u32>(tokIds + (<usize>tokCount << 2), internToken(src + <usize>s, e - s, tokAdd));
  tokCount++;
}

// @ts-ignore: decorator
@inline function close(): void {
  if (tokStart >= 0) {
    emit(tokStart, cur);
    tokStart = -1;
  }
}

// @ts-ignore: decorator
@inline function utf8Len(c: u32): i32 {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/** The last stage: split on Python whitespace, moving the cursor over original characters. */
function sink(c: u32): void {
  if (c >= SPC) {
    if (c == SPC) close();
    return;
  }
  if (isPyWs(c)) close();
  else if (tokStart < 0) tokStart = cur;
  cur += utf8Len(c);
}

// decoding one code point at a lead byte
// @ts-ignore: decorator
@lazy let dLen: i32 = 1;
// @ts-ignore: decorator
@inline function decodeAt(p: usize, b0: u32): u32 {
  if (b0 < 0xe0) {
    dLen = 2;
    return ((b0 & 0x1f) << 6) | (<u32>load<u8>(p, 1) & 0x3f);
  }
  if (b0 < 0xf0) {
    dLen = 3;
    return ((b0 & 0x0f) << 12) | ((<u32>load<u8>(p, 1) & 0x3f) << 6) | (<u32>load<u8>(p, 2) & 0x3f);
  }
  dLen = 4;
  return ((b0 & 0x07) << 18) | ((<u32>load<u8>(p, 1) & 0x3f) << 12) | ((<u32>load<u8>(p, 2) & 0x3f) << 6) | (<u32>load<u8>(p, 3) & 0x3f);
}

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

// ---- TokenizerRegexp (13a and zh): four re.subs ----

/** `([0-9])(-)` → `\1 \2 ` */
function r4(c: u32): void {
  if (p4 != NO) {
    if (c == 0x2d) {
      sink(p4);
      sink(SPC);
      sink(0x2d);
      sink(SPC);
      p4 = NO;
      return;
    }
    sink(p4);
    p4 = NO;
  }
  if (isDigit(c)) p4 = c;
  else sink(c);
}

/** `([\.,])([^0-9])` → ` \1 \2` */
function r3(c: u32): void {
  if (p3 != NO) {
    if (!isDigit(c)) {
      r4(SPC);
      r4(p3);
      r4(SPC);
      r4(c);
      p3 = NO;
      return;
    }
    r4(p3);
    p3 = NO;
  }
  if (c == 0x2e || c == 0x2c) p3 = c;
  else r4(c);
}

/** `([^0-9])([\.,])` → `\1 \2 ` */
function r2(c: u32): void {
  if (p2 != NO) {
    if (c == 0x2e || c == 0x2c) {
      r3(p2);
      r3(SPC);
      r3(c);
      r3(SPC);
      p2 = NO;
      return;
    }
    r3(p2);
    p2 = NO;
  }
  if (!isDigit(c)) p2 = c;
  else r3(c);
}

/** 13a's first class → ` \1 ` */
function r1(c: u32): void {
  if (is13aSym(c)) {
    r2(SPC);
    r2(c);
    r2(SPC);
  } else r2(c);
}

/**
 * TokenizerRegexp over `n` bytes at `p` (13a: with its padding spaces; zh: after `strip()` and the
 * spaces around Chinese characters). Returns false (13a only) at a '<', '&' or '\n': the caller then
 * applies 13a's string replacements and scans again in MODE_13A_POST.
 */
export function scanRegexp(p: usize, n: i32, mode: i32): bool {
  if (!tablesReady) buildTables();
  const cls = TABLES + (<usize>mode << 8);
  const zh = mode == MODE_ZH;
  src = p;
  tokStart = -1;
  p2 = NO;
  p3 = NO;
  p4 = NO;
  let i = 0;
  if (zh) {
    // str.strip(): leading whitespace would change what the first character follows
    while (i < n) {
      const b = <u32>load<u8>(p + i);
      let c = b;
      dLen = 1;
      if (b >= 0xc0) c = decodeAt(p + i, b);
      if (!isPyWs(c)) break;
      i += dLen;
    }
  } else {
    r1(SPC); // the padding space
  }
  cur = i;
  while (i < n) {
    const b = <u32>load<u8>(p + i);
    let k = load<u8>(cls + b);
    let c = b;
    let len = 1;
    if (k == C_DEC) {
      c = decodeAt(p + i, b);
      len = dLen;
      k = isPyWs(c) ? C_WS : zh && isZhChar(c) ? C_ISO : C_PLAIN;
    } else if (k == C_BAIL) {
      return false;
    }
    // fast paths: nothing pending below the first stage, and the pending character (if any) is not
    // '.' or ',' (it is never a digit: r2 only holds non-digits)
    if (p3 == NO && p4 == NO && p2 != 0x2e && p2 != 0x2c) {
      if (k == C_CHAIN && p2 != NO && (c == 0x2e || c == 0x2c)) {
        // `([^0-9])([\.,])`: the pending character, then '.' or ',' as a token; r2 then holds nothing
        if (p2 != PEND && p2 != NO) sink(p2);
        close();
        emit(i, i + 1);
        i++;
        cur = i;
        p2 = NO;
        continue;
      }
      if (k == C_PLAIN) {
        if (p2 != PEND && p2 != NO) sink(p2);
        if (tokStart < 0) tokStart = cur;
        i += len;
        while (i + 16 <= n) {
          const m = flagsRegexp(v128.load(p + <usize>i));
          if (m != 0) {
            i += ctz(m);
            break;
          }
          i += 16;
        }
        while (i < n && load<u8>(cls + <usize>load<u8>(p + i)) == C_PLAIN) i++;
        cur = i;
        p2 = PEND;
        continue;
      }
      if (k == C_WS) {
        if (p2 != PEND && p2 != NO) sink(p2);
        close();
        i += len;
        cur = i;
        p2 = PEND;
        continue;
      }
      if (k == C_ISO) {
        if (p2 != PEND && p2 != NO) sink(p2);
        close();
        emit(i, i + len);
        i += len;
        cur = i;
        p2 = PEND;
        continue;
      }
    }
    if (c >= 0xc0 && len == 1) {
      // a plain character reaching the chain: whole, so the cursor moves by its byte length
      c = decodeAt(p + i, b);
      len = dLen;
    }
    if (k == C_ISO && zh && c >= 0x80) {
      r1(SPC);
      r1(c);
      r1(SPC);
    } else {
      r1(c);
    }
    i += len;
  }
  if (!zh) r1(SPC);
  if (p2 != NO) {
    r3(p2);
    p2 = NO;
  }
  if (p3 != NO) {
    r4(p3);
    p3 = NO;
  }
  if (p4 != NO) {
    sink(p4);
    p4 = NO;
  }
  close();
  return true;
}

// ---- intl: three regex-module subs over Unicode 15.0 classes (what regex 2022.10.31 has) ----

/** `(\p{S})` → ` \1 ` */
function i3(c: u32): void {
  if (c < SPC && intlClass(c) == 2) {
    sink(SPC);
    sink(c);
    sink(SPC);
  } else sink(c);
}

/** `(\p{P})(\P{N})` → ` \1 \2` */
function i2(c: u32): void {
  if (p3 != NO) {
    if (c >= SPC || intlClass(c) != 3) {
      i3(SPC);
      i3(p3);
      i3(SPC);
      i3(c);
      p3 = NO;
      return;
    }
    i3(p3);
    p3 = NO;
  }
  if (c < SPC && intlClass(c) == 1) p3 = c;
  else i3(c);
}

/** `(\P{N})(\p{P})` → `\1 \2 ` */
function i1(c: u32): void {
  if (p2 != NO) {
    if (c < SPC && intlClass(c) == 1) {
      i2(p2);
      i2(SPC);
      i2(c);
      i2(SPC);
      p2 = NO;
      return;
    }
    i2(p2);
    p2 = NO;
  }
  if (c >= SPC || intlClass(c) != 3) p2 = c;
  else i2(c);
}

/** The intl tokenizer over `n` bytes at `p`. */
export function scanIntl(p: usize, n: i32): void {
  if (!tablesReady) buildTables();
  const cls = TABLES + (<usize>MODE_INTL << 8);
  src = p;
  tokStart = -1;
  p2 = NO;
  p3 = NO;
  cur = 0;
  let i = 0;
  while (i < n) {
    const b = <u32>load<u8>(p + i);
    let k = load<u8>(cls + b);
    let c = b;
    let len = 1;
    if (k == C_DEC) {
      c = decodeAt(p + i, b);
      len = dLen;
      k = isPyWs(c) ? C_WS : intlClass(c) == 0 ? C_PLAIN : C_CHAIN;
    }
    // fast paths: nothing pending in i2, and the pending character of i1 (if any) is none of P, S, N
    if (p3 == NO && (p2 == PEND || p2 == NO || p2 >= SPC || intlClass(p2) == 0)) {
      if (k == C_CHAIN && p2 != NO && intlClass(c) == 1) {
        // `(\P{N})(\p{P})` then `(\p{P})(\P{N})` on the inserted space: P becomes a token; i1 then holds nothing
        if (p2 != PEND) sink(p2);
        close();
        emit(i, i + len);
        i += len;
        cur = i;
        p2 = NO;
        continue;
      }
      if (k == C_PLAIN) {
        if (p2 != PEND && p2 != NO) sink(p2);
        if (tokStart < 0) tokStart = cur;
        i += len;
        while (i + 16 <= n) {
          const m = flagsIntl(v128.load(p + <usize>i));
          if (m != 0) {
            i += ctz(m);
            break;
          }
          i += 16;
        }
        while (i < n && load<u8>(cls + <usize>load<u8>(p + i)) == C_PLAIN) i++;
        cur = i;
        p2 = PEND;
        continue;
      }
      if (k == C_WS) {
        if (p2 != PEND && p2 != NO) sink(p2);
        close();
        i += len;
        cur = i;
        p2 = PEND;
        continue;
      }
    }
    if (c >= 0xc0 && len == 1) {
      c = decodeAt(p + i, b);
      len = dLen;
    }
    i1(c);
    i += len;
  }
  if (p2 != NO) {
    i2(p2);
    p2 = NO;
  }
  if (p3 != NO) {
    i3(p3);
    p3 = NO;
  }
  close();
}

/** `' '.join(line).split()`: every non-whitespace code point is a token. */
export function scanChar(p: usize, n: i32): void {
  src = p;
  let i = 0;
  while (i < n) {
    const b = <u32>load<u8>(p + i);
    let c = b;
    dLen = 1;
    if (b >= 0xc0) c = decodeAt(p + i, b);
    if (!isPyWs(c)) emit(i, i + dLen);
    i += dLen;
  }
}

/** `line.split()`. */
export function scanNone(p: usize, n: i32): void {
  src = p;
  let s = -1;
  let i = 0;
  while (i < n) {
    const b = <u32>load<u8>(p + i);
    let c = b;
    dLen = 1;
    if (b >= 0xc0) c = decodeAt(p + i, b);
    if (isPyWs(c)) {
      if (s >= 0) {
        emit(s, i);
        s = -1;
      }
    } else if (s < 0) s = i;
    i += dLen;
  }
  if (s >= 0) emit(s, n);
}
