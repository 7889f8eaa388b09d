// Python's `str.strip()` and `str.rstrip()` with no argument: Python's 29 whitespace code points
// (not U+FEFF, not U+200B), which differ from JavaScript's `trim()` (docs/spec/rule-metrics.md §0.1).
import { pyIsSpace } from "./unicode-classes.js";

/** `str.strip()` with no argument. */
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
