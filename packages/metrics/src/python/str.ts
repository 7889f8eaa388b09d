// Python `str` methods shared by the ports (BYOB scorers, DeepEval's rule metrics), with Python's character
// classes (docs/spec/rule-metrics.md §0.1). Case mapping goes through core-wasm (Unicode 14.0, CPython 3.11's tables).
import { pythonLower } from "@evalkern/core-wasm";
import { pyIsSpace } from "./re/unicode.js";

/** `str.strip()` with no argument: Python's 29 whitespace code points (not U+FEFF, not U+200B). */
export function pyStrip(s: string): string {
  let a = 0;
  while (a < s.length) {
    const cp = s.codePointAt(a)!;
    if (!pyIsSpace(cp)) break;
    a += cp > 0xffff ? 2 : 1;
  }
  return pyRstrip(a === 0 ? s : s.slice(a));
}

/** `str.rstrip()` with no argument (sacreBLEU's CLI applies it to every line it reads). */
export function pyRstrip(s: string): string {
  let b = s.length;
  // no whitespace lies outside the BMP, so a trailing surrogate (paired or not) ends the strip
  while (b > 0 && pyIsSpace(s.charCodeAt(b - 1))) b--;
  return b === s.length ? s : s.slice(0, b);
}

/** `str.split()` with no argument: runs of Python whitespace, no empty pieces. */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (const ch of s) {
    if (pyIsSpace(ch.codePointAt(0)!)) {
      if (cur !== "") out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur !== "") out.push(cur);
  return out;
}

/** `str.lower()` (full mapping, Final_Sigma; Unicode 14.0 via core-wasm). */
export const pyLower = (s: string): string => pythonLower(s);
