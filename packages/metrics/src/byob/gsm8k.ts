// BYOB `gsm8k_answer` (docs/spec/rule-metrics.md §2.11).
//
// The original runs three Python regexes (Unicode `\d`, `\s`) over the whole response:
//   HASH   `####\s*(-?\d[\d,]*(?:\.\d+)?)`             first match
//   BOXED  `\\boxed\{\s*(-?\d[\d,]*(?:\.\d+)?)\s*\}`   first match
//   NUMBER `-?\d[\d,]*(?:\.\d+)?`                      last of `re.findall`
// Their *results* are the contract; they are computed here by hand-written scanners that read each
// code unit a bounded number of times (linear time, no copy of the text), because a general regex engine
// took minutes on a 10 MB response of digits. Why the scanners give Python's answers: in every pattern
// the greedy choice can never be undone by backtracking (what follows a `\s*`, `[\d,]*` or `\d+` can
// never be a character that run consumes), so the match at a start position is the greedy one, and a
// match exists there exactly when the greedy walk succeeds. test/byob/extract.test.ts checks this
// against the regexes on random inputs.
import { PythonCompatError } from "../errors.js";
import { pyDecimalValue, pyIsSpace } from "../python/re/unicode.js";
import { isPyFloat, isPyInt, pyStr, pyTypeName } from "../python/repr.js";
import { pyStrip, pyTruthy } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

/** Python `\d` (Unicode decimal digit, category Nd) at UTF-16 offset i; returns the digit's length in units (0 if none). */
function digitAt(s: string, i: number): number {
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  if (c >= 0x30 && c <= 0x39) return 1;
  if (c < 0x80) return 0;
  const cp = s.codePointAt(i)!;
  return pyDecimalValue(cp) >= 0 ? (cp > 0xffff ? 2 : 1) : 0;
}

/** Python `\s` at offset i (no whitespace lies outside the BMP). */
function spaceAt(s: string, i: number): boolean {
  if (i >= s.length) return false;
  const c = s.charCodeAt(i);
  return c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) : pyIsSpace(c);
}

/** End offset of a NUMBER match starting exactly at i (greedy, as Python's leftmost-first engine), or -1. */
export function numberEndAt(s: string, i: number): number {
  let j = i;
  if (s.charCodeAt(j) === 0x2d /* - */) j++;
  let d = digitAt(s, j);
  if (d === 0) return -1; // `-?` then `\d`: a lone "-" cannot start a number, and "-" is no digit
  j += d;
  // [\d,]*
  for (;;) {
    if (s.charCodeAt(j) === 0x2c) j++;
    else if ((d = digitAt(s, j)) > 0) j += d;
    else break;
  }
  // (?:\.\d+)?
  if (s.charCodeAt(j) === 0x2e && (d = digitAt(s, j + 1)) > 0) {
    j += 1 + d;
    while ((d = digitAt(s, j)) > 0) j += d;
  }
  return j;
}

/** `re.search(r"####\s*(NUMBER)", s).group(1)`, or undefined. */
function firstHash(s: string): string | undefined {
  for (let p = s.indexOf("####"); p >= 0; p = s.indexOf("####", p + 1)) {
    let j = p + 4;
    while (spaceAt(s, j)) j++;
    const e = numberEndAt(s, j);
    if (e >= 0) return s.slice(j, e);
  }
  return undefined;
}

/** `re.search(r"\\boxed\{\s*(NUMBER)\s*\}", s).group(1)`, or undefined. */
function firstBoxed(s: string): string | undefined {
  for (let p = s.indexOf("\\boxed{"); p >= 0; p = s.indexOf("\\boxed{", p + 1)) {
    let j = p + 7;
    while (spaceAt(s, j)) j++;
    const e = numberEndAt(s, j);
    if (e < 0) continue;
    let k = e;
    while (spaceAt(s, k)) k++;
    if (s.charCodeAt(k) === 0x7d /* } */) return s.slice(j, e);
  }
  return undefined;
}

/** The last match of `re.findall(NUMBER, s)` (non-overlapping, left to right), or undefined. */
function lastNumber(s: string): string | undefined {
  let last: [number, number] | undefined;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    // only "-" or a digit can start a match; skip everything else one code point at a time
    if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c >= 0x80) {
      const e = numberEndAt(s, i);
      if (e >= 0) {
        last = [i, e];
        i = e;
        continue;
      }
    }
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return last === undefined ? undefined : s.slice(last[0], last[1]);
}

/**
 * BYOB `_normalize_number`: drop commas, strip, require a full NUMBER match, then (if there is a ".")
 * strip trailing zeros and dots; "" becomes "0". Leading zeros, signs and non-ASCII digits are kept.
 */
export function normalizeNumber(raw: string): string | null {
  const s = pyStrip(raw.replace(/,/g, ""));
  if (numberEndAt(s, 0) !== s.length) return null; // `re.fullmatch(NUMBER, s)` (greedy = longest here)
  let out = s;
  if (out.includes(".")) {
    let e = out.length;
    while (e > 0 && out.charCodeAt(e - 1) === 0x30) e--;
    while (e > 0 && out.charCodeAt(e - 1) === 0x2e) e--;
    out = out.slice(0, e);
  }
  return out === "" ? "0" : out;
}

/** The model's answer: the first `#### n`, else the first `\boxed{n}`, else the last number. */
export function extractPrediction(response: unknown): string | null {
  const text = pyTruthy(response) ? response : "";
  if (typeof text !== "string") throw new PythonCompatError("TypeError", `expected string or bytes-like object, got '${pyTypeName(text)}'`);
  const raw = firstHash(text) ?? firstBoxed(text) ?? lastNumber(text);
  return raw === undefined ? null : normalizeNumber(raw);
}

/** The gold answer: a number through `str()` (so `1e20` → "1e+20" never parses), else `#### n` or the last number. */
export function extractGold(target: unknown): string | null {
  if (typeof target === "boolean" || isPyInt(target) || isPyFloat(target)) return normalizeNumber(pyStr(target));
  const text = pyStr(pyTruthy(target) ? target : "");
  const raw = firstHash(text) ?? lastNumber(text);
  return raw === undefined ? null : normalizeNumber(raw);
}

/**
 * BYOB `gsm8k_answer` → `{ correct, parsed }`: the normalised numbers are compared as strings
 * (`"018"` ≠ `"18"`, `"-0"` ≠ `"0"`, `"٤٢"` ≠ `"42"`). Linear time in the response's length.
 * @example gsm8kAnswer({ response: "so 3,181 apples", target: "#### 3181", metadata: {} }) // { correct: true, parsed: true }
 */
export const gsm8kAnswer = pythonName((sample: ScorerInput): { correct: boolean; parsed: boolean } => {
  checkSample(sample);
  const pred = extractPrediction(sample.response);
  const gold = extractGold(sample.target);
  return { correct: pred !== null && gold !== null && pred === gold, parsed: pred !== null };
}, "gsm8k_answer");
