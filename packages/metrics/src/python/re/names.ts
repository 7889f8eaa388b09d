// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. `\N{name}` escapes of the `re` port.
import { rsHas } from "./sets.js";

// ---------------------------------------------------------------------------------------------------
// \N{name}: unicodedata.lookup for a built-in subset (see the generator) plus the algorithmic names

/** Resolves an ordinary character name or alias (already upper-cased) to a code point. */
export type UnicodeNameResolver = (upperName: string) => number | undefined;

/**
 * `unicodedata.lookup` as `\N{...}` uses it: the algorithmic CJK and Hangul names (case-sensitive, as
 * in CPython), then every other name and alias case-insensitively through `resolver`.
 */
export function lookupName(name: string, resolver: UnicodeNameResolver | undefined): number | undefined {
  if (name.startsWith("CJK UNIFIED IDEOGRAPH-")) {
    const hex = name.slice(22);
    if ((hex.length === 4 || hex.length === 5) && /^[0-9A-F]+$/.test(hex)) {
      const v = parseInt(hex, 16);
      const unified = [
        0x3400, 0x4dbf, 0x4e00, 0x9fff, 0x20000, 0x2a6df, 0x2a700, 0x2b738, 0x2b740, 0x2b81d, 0x2b820, 0x2cea1, 0x2ceb0, 0x2ebe0, 0x30000,
        0x3134a,
      ];
      if (rsHas(unified, v)) return v;
    }
  }
  if (name.startsWith("HANGUL SYLLABLE ")) {
    const v = hangulSyllable(name.slice(16));
    if (v !== undefined) return v;
  }
  return resolver?.(name.replace(/[a-z]/g, (c) => c.toUpperCase()));
}

const JAMO_L = ["G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"];
const JAMO_V = [
  "A",
  "AE",
  "YA",
  "YAE",
  "EO",
  "E",
  "YEO",
  "YE",
  "O",
  "WA",
  "WAE",
  "OE",
  "YO",
  "U",
  "WEO",
  "WE",
  "WI",
  "YU",
  "EU",
  "YI",
  "I",
];
const JAMO_T = [
  "",
  "G",
  "GG",
  "GS",
  "N",
  "NJ",
  "NH",
  "D",
  "L",
  "LG",
  "LM",
  "LB",
  "LS",
  "LT",
  "LP",
  "LH",
  "M",
  "B",
  "BS",
  "S",
  "SS",
  "NG",
  "J",
  "C",
  "K",
  "T",
  "P",
  "H",
];

/** CPython `find_syllable`: longest matching jamo short name at each step. */
function hangulSyllable(rest: string): number | undefined {
  let pos = 0;
  const take = (table: readonly string[]): number => {
    let best = -1;
    let len = -1;
    table.forEach((j, i) => {
      if (j.length > len && rest.startsWith(j, pos)) {
        best = i;
        len = j.length;
      }
    });
    if (best >= 0) pos += len;
    return best;
  };
  const l = take(JAMO_L);
  const v = take(JAMO_V);
  const t = take(JAMO_T);
  if (l < 0 || v < 0 || t < 0 || pos !== rest.length) return undefined;
  return 0xac00 + (l * 21 + v) * 28 + t;
}
