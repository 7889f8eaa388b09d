// The Rust primitives dsrs's messages and scores depend on (docs/spec/dsrs.md §0.3), emulated in TS:
// UTF-8 byte length, Unicode White_Space trimming/splitting, strict f64 parsing, `{:.1}` with
// ties-to-even, `Debug` of string and char lists, and f32 arithmetic.

/**
 * `str::len`: the UTF-8 byte length. A lone surrogate (impossible in Rust input) counts 3 bytes, the
 * length of the U+FFFD that `TextEncoder` would write for it.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * `char::is_whitespace`: the Unicode White_Space set. Unlike JS `\s`/`trim`, it has U+0085 and not
 * U+FEFF. All members are in the BMP, so a UTF-16 unit test is exact.
 */
export function isRustWhitespace(unit: number): boolean {
  return (
    (unit >= 0x09 && unit <= 0x0d) ||
    unit === 0x20 ||
    unit === 0x85 ||
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000
  );
}

/** `str::trim` with the Unicode White_Space set. */
export function rustTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isRustWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isRustWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** `str::split_whitespace`: the non-empty pieces between White_Space runs. */
export function rustSplitWhitespace(text: string): string[] {
  const pieces: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isRustWhitespace(text.charCodeAt(i))) {
      if (start >= 0) {
        pieces.push(text.slice(start, i));
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  if (start >= 0) pieces.push(text.slice(start));
  return pieces;
}

const DECIMAL_F64 = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const SPECIAL_F64 = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * `str::parse::<f64>`: an optional sign, digits with an optional `.` (at least one digit), an optional
 * exponent; or `inf`/`infinity`/`nan` in any case. No whitespace, hex, `_` or empty string.
 * Returns `undefined` where Rust returns `Err`.
 */
export function parseRustF64(text: string): number | undefined {
  if (DECIMAL_F64.test(text)) return Number(text);
  const special = SPECIAL_F64.exec(text);
  if (special === null) return undefined;
  if ((special[2] as string).toLowerCase() === "nan") return Number.NaN;
  return special[1] === "-" ? -Infinity : Infinity;
}

/**
 * `format!("{:.1}", x)`: correctly rounded from the exact binary value with ties to even. The only
 * exact one-decimal ties a double can hold are n + 0.25 and n + 0.75; `toFixed` rounds the first up
 * (6.25 → "6.3") where Rust rounds to the even digit (6.25 → "6.2").
 */
export function formatFixed1(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? "inf" : value < 0 ? "-inf" : "NaN";
  const magnitude = Math.abs(value);
  // magnitude * 4 is exact (a power of two); an odd multiple of 0.25 with remainder 1 mod 4 is n + 0.25.
  if (magnitude < 2 ** 50 && (magnitude * 4) % 4 === 1) {
    const sign = value < 0 || Object.is(value, -0) ? "-" : "";
    return `${sign}${Math.floor(magnitude)}.2`;
  }
  const fixed = value.toFixed(1);
  // Rust prints the sign of negative zero and of negatives that round to zero, as toFixed does not.
  return (value < 0 || Object.is(value, -0)) && !fixed.startsWith("-") ? `-${fixed}` : fixed;
}

// Rust's `char::escape_debug` (as `Debug for str` calls it) writes `\u{..}` for grapheme extenders and
// for everything `is_printable` rejects: general categories Cc Cf Cs Co Cn Zl Zp Zs, except U+0020
// (library/core/src/unicode/printable.py). The Unicode version is the JS engine's.
const DEBUG_UNICODE_ESCAPE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Grapheme_Extend}]$/u;

function debugEscapeChar(char: string, quote: '"' | "'"): string {
  switch (char) {
    case "\0":
      return "\\0";
    case "\t":
      return "\\t";
    case "\r":
      return "\\r";
    case "\n":
      return "\\n";
    case "\\":
      return "\\\\";
    case quote:
      return `\\${quote}`;
    case " ":
      return " ";
  }
  if (DEBUG_UNICODE_ESCAPE.test(char)) return `\\u{${(char.codePointAt(0) as number).toString(16)}}`;
  return char;
}

/** `format!("{:?}", s)` for one string: double quotes with Rust's escapes. */
export function debugString(text: string): string {
  let out = '"';
  // for…of walks code points; a lone surrogate comes out alone and is escaped as \u{d800} (as Rust's
  // WTF-8 Debug does), since category Cs is non-printable.
  for (const char of text) out += debugEscapeChar(char, '"');
  return `${out}"`;
}

/** `format!("{:?}", vec_of_strings)`: `["a", "b"]`. */
export function debugStringList(items: readonly string[]): string {
  return `[${items.map(debugString).join(", ")}]`;
}

/** `format!("{:?}", vec_of_chars)`: `['(', '[']`. */
export function debugCharList(items: readonly string[]): string {
  return `[${items.map((char) => `'${debugEscapeChar(char, "'")}'`).join(", ")}]`;
}

/** f32 rounding, applied after every f32 operation (a double op on two f32s rounded once equals f32). */
export const f32 = Math.fround;
