// `\N{NAME}` as `unicodedata.lookup` resolves it, for both of its users: `re` patterns (re/parser.ts) and
// string literals (literal/strings.ts). The algorithmic names are computed here; every other name goes
// through the caller's table, since the full Unicode 14.0 one (400 kB) is only loaded by the subpaths
// that pass it (BYOB's `compilePython`, evalwire's literals).

/** Resolves an ordinary character name or alias (already upper-cased) to a code point. */
export type UnicodeNameResolver = (upperName: string) => number | undefined;

const JAMO_L = ["G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"];
// biome-ignore format: one table, two lines
const JAMO_V = ["A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE",
  "WI", "YU", "EU", "YI", "I"];
// biome-ignore format: one table, two lines
const JAMO_T = ["", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S",
  "SS", "NG", "J", "C", "K", "T", "P", "H"];

// Unicode 14 `Unified_Ideograph` blocks that `unicodedata` names algorithmically.
const CJK_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0x20000, 0x2a6df],
  [0x2a700, 0x2b738],
  [0x2b740, 0x2b81d],
  [0x2b820, 0x2cea1],
  [0x2ceb0, 0x2ebe0],
  [0x30000, 0x3134a],
];

/** CPython's `find_syllable`: the longest jamo short name at each step, the first on ties. */
function hangulSyllable(rest: string): number | undefined {
  let at = 0;
  const take = (list: readonly string[]): number => {
    let best = -1;
    let length = -1;
    list.forEach((jamo, index) => {
      if (jamo.length > length && rest.startsWith(jamo, at)) {
        best = index;
        length = jamo.length;
      }
    });
    if (best >= 0) at += length;
    return best;
  };
  const l = take(JAMO_L);
  const v = take(JAMO_V);
  const t = take(JAMO_T);
  return l >= 0 && v >= 0 && t >= 0 && at === rest.length ? 0xac00 + (l * 21 + v) * 28 + t : undefined;
}

/**
 * `unicodedata.lookup` as `\N{...}` uses it: the algorithmic CJK and Hangul names (case-sensitive, as in
 * CPython), then every other name and alias case-insensitively through `resolver`.
 */
export function lookupUnicodeName(name: string, resolver: UnicodeNameResolver | undefined): number | undefined {
  if (name.startsWith("HANGUL SYLLABLE ")) {
    const code = hangulSyllable(name.slice(16));
    if (code !== undefined) return code;
  }
  if (name.startsWith("CJK UNIFIED IDEOGRAPH-")) {
    const digits = name.slice(22);
    if ((digits.length === 4 || digits.length === 5) && /^[0-9A-F]+$/.test(digits)) {
      const code = parseInt(digits, 16);
      if (CJK_RANGES.some(([lo, hi]) => code >= lo && code <= hi)) return code;
    }
  }
  return resolver?.(name.replace(/[a-z]/g, (ch) => ch.toUpperCase()));
}
