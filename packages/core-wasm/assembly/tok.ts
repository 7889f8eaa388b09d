// sacreBLEU's tokenizers as one streaming pass per string.
//
// Each `re.sub` of a tokenizer is a small transducer with at most one pending code point (the regexes
// match two adjacent characters and consume both, scanning left to right without overlap), so the
// passes are chained char by char instead of materialising a buffer per pass, and the last stage
// splits on Python whitespace as it goes. The output is the tokens' code points back to back in
// `tokCps`, with (start, end) spans in `tokSpans`: at most one output code point per input code point,
// since the passes only add spaces.

import { alloc } from "./mem";
import { isPyWs } from "./text";
import { isIntlP, isIntlS, isIntlN, intlClass } from "./ucd";

// @ts-ignore: decorator
@lazy export let tokCps: usize = 0;
// @ts-ignore: decorator
@lazy export let tokSpans: usize = 0;
// @ts-ignore: decorator
@lazy export let tokCount: i32 = 0;
// @ts-ignore: decorator
@lazy let outLen: i32 = 0;
// @ts-ignore: decorator
@lazy let tokStart: i32 = -1;

const NO: i32 = -1;
// @ts-ignore: decorator
@lazy let p2: i32 = NO;
// @ts-ignore: decorator
@lazy let p3: i32 = NO;
// @ts-ignore: decorator
@lazy let p4: i32 = NO;

/** Prepare output for a string of `n` code points. */
export function tokBegin(n: i32): void {
  tokCps = alloc(<usize>(n + 1) << 2);
  tokSpans = alloc(<usize>(n + 1) << 3); // every code point can be a token (char, 13a punctuation)
  tokCount = 0;
  outLen = 0;
  tokStart = NO;
  p2 = NO;
  p3 = NO;
  p4 = NO;
}

/** The final stage: split on Python whitespace. */
// @ts-ignore: decorator
@inline export function sink(c: u32): void {
  if (isPyWs(c)) {
    if (tokStart != NO) {
      store<u32>(tokSpans + (<usize>tokCount << 3), tokStart);
      store<u32>(tokSpans + (<usize>tokCount << 3) + 4, outLen);
      tokCount++;
      tokStart = NO;
    }
  } else {
    if (tokStart == NO) tokStart = outLen;
    store<u32>(tokCps + (<usize>outLen << 2), c);
    outLen++;
  }
}

/** Close the last token. */
export function tokEnd(): void {
  sink(0x20);
}

// @ts-ignore: decorator
@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

// ---- TokenizerRegexp (13a and zh): four re.subs ----

/** `([0-9])(-)` → `\1 \2 ` */
function r4(c: u32): void {
  if (p4 != NO) {
    if (c == 0x2d) {
      sink(<u32>p4);
      sink(0x20);
      sink(0x2d);
      sink(0x20);
      p4 = NO;
      return;
    }
    sink(<u32>p4);
    p4 = NO;
  }
  if (isDigit(c)) p4 = <i32>c;
  else sink(c);
}

/** `([\.,])([^0-9])` → ` \1 \2` */
function r3(c: u32): void {
  if (p3 != NO) {
    if (!isDigit(c)) {
      r4(0x20);
      r4(<u32>p3);
      r4(0x20);
      r4(c);
      p3 = NO;
      return;
    }
    r4(<u32>p3);
    p3 = NO;
  }
  if (c == 0x2e || c == 0x2c) p3 = <i32>c;
  else r4(c);
}

/** `([^0-9])([\.,])` → `\1 \2 ` */
function r2(c: u32): void {
  if (p2 != NO) {
    if (c == 0x2e || c == 0x2c) {
      r3(<u32>p2);
      r3(0x20);
      r3(c);
      r3(0x20);
      p2 = NO;
      return;
    }
    r3(<u32>p2);
    p2 = NO;
  }
  if (!isDigit(c)) p2 = <i32>c;
  else r3(c);
}

/** 13a's first class `[\{-\~\[-\` -\&\(-\+\:-\@\/]` → ` \1 ` */
// @ts-ignore: decorator
@inline function is13aSym(c: u32): bool {
  return (
    (c >= 0x7b && c <= 0x7e) || (c >= 0x5b && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
    (c >= 0x28 && c <= 0x2b) || (c >= 0x3a && c <= 0x40) || c == 0x2f
  );
}

/** Not touched by any of the four substitutions on its own: no class char, digit, '.' or ','. */
// @ts-ignore: decorator
@inline function isPlain13a(c: u32): bool {
  return !is13aSym(c) && !isDigit(c) && c != 0x2e && c != 0x2c;
}

/**
 * Feed one code point to the regexp stage. Fast paths for the common cases, when nothing is pending
 * below the first substitution and the pending character X is not '.' or ',' (so the lower stages pass
 * X through unchanged — X is never a digit, the first stage only holds non-digits):
 * - a plain character c: the chain would emit X and hold c;
 * - a class character c (space included): the chain of ' ', c, ' ' would emit X, ' ', c and hold ' '.
 */
export function r1(c: u32): void {
  if (p3 == NO && p4 == NO && p2 != NO && p2 != 0x2e && p2 != 0x2c) {
    if (isPlain13a(c)) {
      sink(<u32>p2);
      p2 = <i32>c;
      return;
    }
    if (is13aSym(c)) {
      sink(<u32>p2);
      sink(0x20);
      sink(c);
      p2 = 0x20;
      return;
    }
  }
  if (is13aSym(c)) {
    r2(0x20);
    r2(c);
    r2(0x20);
  } else r2(c);
}

/** Flush the pending characters of the regexp stage, then the last token. */
export function regexpEnd(): void {
  if (p2 != NO) {
    r3(<u32>p2);
    p2 = NO;
  }
  if (p3 != NO) {
    r4(<u32>p3);
    p3 = NO;
  }
  if (p4 != NO) {
    sink(<u32>p4);
    p4 = NO;
  }
  tokEnd();
}

// ---- intl: three regex-module subs over Unicode 15.0 classes (what regex 2022.10.31 has) ----

/** `(\p{S})` → ` \1 ` */
function i3(c: u32): void {
  if (isIntlS(c)) {
    sink(0x20);
    sink(c);
    sink(0x20);
  } else sink(c);
}

/** `(\p{P})(\P{N})` → ` \1 \2` */
function i2(c: u32): void {
  if (p3 != NO) {
    if (!isIntlN(c)) {
      i3(0x20);
      i3(<u32>p3);
      i3(0x20);
      i3(c);
      p3 = NO;
      return;
    }
    i3(<u32>p3);
    p3 = NO;
  }
  if (isIntlP(c)) p3 = <i32>c;
  else i3(c);
}

/** `(\P{N})(\p{P})` → `\1 \2 ` */
export function i1(c: u32): void {
  // fast path, as in r1: a character that is none of P, S, N after a pending one of the same kind
  if (p3 == NO && p2 != NO && intlClass(c) == 0 && intlClass(<u32>p2) == 0) {
    sink(<u32>p2);
    p2 = <i32>c;
    return;
  }
  if (p2 != NO) {
    if (isIntlP(c)) {
      i2(<u32>p2);
      i2(0x20);
      i2(c);
      i2(0x20);
      p2 = NO;
      return;
    }
    i2(<u32>p2);
    p2 = NO;
  }
  if (!isIntlN(c)) p2 = <i32>c;
  else i2(c);
}

export function intlEnd(): void {
  if (p2 != NO) {
    i2(<u32>p2);
    p2 = NO;
  }
  if (p3 != NO) {
    i3(<u32>p3);
    p3 = NO;
  }
  tokEnd();
}
