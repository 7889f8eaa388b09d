// A strict fast path for the JSONL rows of bulk scoring: the hypothesis, the references and the id of a
// row read straight from its text, without `JSON.parse` building an object (and a string for every field
// nobody reads). It answers only when it is sure to give what `JSON.parse` + `extractPair` give: the whole
// line is checked against JSON's grammar, and anything it does not handle itself (whitespace other than
// spaces, a key with escapes, a target key seen twice, a target value of another type, no reference, a
// nesting deeper than `MAX_DEPTH`) makes it give up; the caller then parses the row as before, so bad rows
// and their messages stay exactly what they were. Strings with escapes are decoded by `JSON.parse` of the
// string's own text (every escape, lone surrogates included, as the whole row's parse decodes them).
import type { Extracted, ResolvedFields } from "./records.js";

/** The top-level keys a scan looks for. */
export interface ScanKeys {
  readonly hyp: string;
  readonly ref: string;
  readonly id: string | undefined;
}

/**
 * The keys to scan rows for, or undefined when a field is not a plain top-level key (a dotted path: `getPath`
 * tries the literal key first, then the path) or when there are several reference paths.
 */
export function scanKeys(fields: ResolvedFields): ScanKeys | undefined {
  if (fields.references.length !== 1) return undefined;
  const ref = fields.references[0]!;
  for (const p of [fields.hypothesis, ref, fields.id ?? ""]) if (p.includes(".")) return undefined;
  return { hyp: fields.hypothesis, ref, id: fields.id };
}

/** Deeper nesting (in a field nobody reads) is left to `JSON.parse`. */
const MAX_DEPTH = 64;

const SPACE = 32;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** Whether the last `skipString` met a backslash. */
let escaped = false;
/** Where the next backslash of the row is at or after the scan's position (the row's length when none): most strings have none. */
let backslashAt = 0;
/** A control character (U+0000–U+001F): JSON allows none in strings, and only tab, LF and CR between tokens, which the scan leaves to `JSON.parse`. */
const CONTROL = /[\u0000-\u001f]/;

function skipSpaces(s: string, i: number): number {
  while (s.charCodeAt(i) === SPACE) i++;
  return i;
}

/**
 * The index after the JSON string opening at `i` (a quote), or -1 when it is not one (a bad escape, no end).
 * The row has no control character (`scanPair` checked), so a string without a backslash ends at the next quote.
 */
function skipString(s: string, i: number): number {
  const q = s.indexOf('"', i + 1);
  if (q < 0) return -1;
  if (backslashAt <= i) {
    backslashAt = s.indexOf("\\", i + 1);
    if (backslashAt < 0) backslashAt = s.length;
  }
  escaped = backslashAt < q;
  return escaped ? skipEscapedString(s, i + 1) : q + 1;
}

/** `skipString` of a string holding escapes, from its first character `i`. */
function skipEscapedString(s: string, i: number): number {
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      const e = s.charCodeAt(i + 1);
      if (e === 117) {
        // \uXXXX (isHex of NaN past the end is false)
        if (!(isHex(s.charCodeAt(i + 2)) && isHex(s.charCodeAt(i + 3)) && isHex(s.charCodeAt(i + 4)) && isHex(s.charCodeAt(i + 5))))
          return -1;
        i += 6;
      } else if (e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
      else return -1;
    } else i++;
  }
  return -1;
}

/** The index after the JSON number at `i` (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`), or -1. */
function skipNumber(s: string, i: number): number {
  let c = s.charCodeAt(i);
  if (c === 45) c = s.charCodeAt(++i);
  if (c === 48) c = s.charCodeAt(++i);
  else if (c >= 49 && c <= 57) {
    do c = s.charCodeAt(++i);
    while (isDigit(c));
  } else return -1;
  if (c === 46) {
    c = s.charCodeAt(++i);
    if (!isDigit(c)) return -1;
    do c = s.charCodeAt(++i);
    while (isDigit(c));
  }
  if (c === 101 || c === 69) {
    c = s.charCodeAt(++i);
    if (c === 43 || c === 45) c = s.charCodeAt(++i);
    if (!isDigit(c)) return -1;
    do c = s.charCodeAt(++i);
    while (isDigit(c));
  }
  return i;
}

/** The index after the JSON value at `i`, or -1 when it is not one (or nests deeper than `MAX_DEPTH`). */
function skipValue(s: string, i: number, depth: number): number {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return skipString(s, i);
  if (c === 123 || c === 91) return depth >= MAX_DEPTH ? -1 : skipContainer(s, i, depth + 1, c === 123);
  if (c === 116) return s.startsWith("true", i) ? i + 4 : -1;
  if (c === 102) return s.startsWith("false", i) ? i + 5 : -1;
  if (c === 110) return s.startsWith("null", i) ? i + 4 : -1;
  return skipNumber(s, i);
}

/** The index after the object (`{`) or array (`[`) at `i`, or -1. */
function skipContainer(s: string, i: number, depth: number, object: boolean): number {
  const close = object ? 125 : 93;
  i = skipSpaces(s, i + 1);
  if (s.charCodeAt(i) === close) return i + 1;
  for (;;) {
    if (object) {
      if (s.charCodeAt(i) !== QUOTE) return -1;
      i = skipString(s, i);
      if (i < 0) return -1;
      i = skipSpaces(s, i);
      if (s.charCodeAt(i) !== COLON) return -1;
      i = skipSpaces(s, i + 1);
    }
    i = skipValue(s, i, depth);
    if (i < 0) return -1;
    i = skipSpaces(s, i);
    const c = s.charCodeAt(i);
    if (c === close) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpaces(s, i + 1);
  }
}

/** The text of the JSON string `[a, b)` (quotes included) that `skipString` just passed. */
function stringAt(s: string, a: number, b: number): string {
  return escaped ? (JSON.parse(s.slice(a, b)) as string) : s.slice(a + 1, b - 1);
}

/** The references of a row: its `ref` value, a string or an array of strings and nulls (nulls skipped). */
let refsOut: string[] = [];

/** The index after the references value at `i` (into `refsOut`), or -1 for any other value. */
function scanRefs(s: string, i: number): number {
  refsOut = [];
  if (s.charCodeAt(i) === QUOTE) {
    const j = skipString(s, i);
    if (j >= 0) refsOut.push(stringAt(s, i, j));
    return j;
  }
  if (s.charCodeAt(i) !== 91) return -1;
  i = skipSpaces(s, i + 1);
  if (s.charCodeAt(i) === 93) return i + 1;
  for (;;) {
    if (s.charCodeAt(i) === QUOTE) {
      const j = skipString(s, i);
      if (j < 0) return -1;
      refsOut.push(stringAt(s, i, j));
      i = j;
    } else if (s.startsWith("null", i)) i += 4;
    else return -1;
    i = skipSpaces(s, i);
    const c = s.charCodeAt(i);
    if (c === 93) return i + 1;
    if (c !== COMMA) return -1;
    i = skipSpaces(s, i + 1);
  }
}

/**
 * The pair of a JSONL row's text when it is a JSON object whose `keys.hyp` is a string and whose `keys.ref`
 * is a string or an array of strings and nulls with at least one string, exactly as `extractPair(JSON.parse(s))`
 * gives it; undefined whenever the scan is not sure of that (the caller then parses the row).
 */
export function scanPair(s: string, keys: ScanKeys): Extracted | undefined {
  let i = skipSpaces(s, 0);
  if (s.charCodeAt(i) !== 123 || CONTROL.test(s)) return undefined;
  backslashAt = 0;
  let hyp: string | undefined;
  let refs: string[] | undefined;
  let idAt = -1;
  let idEnd = -1;
  i = skipSpaces(s, i + 1);
  if (s.charCodeAt(i) !== 125) {
    for (;;) {
      if (s.charCodeAt(i) !== QUOTE) return undefined;
      const k = i + 1;
      i = skipString(s, i);
      if (i < 0 || escaped) return undefined; // a key with escapes could spell a target key
      const len = i - 1 - k;
      const isHyp = len === keys.hyp.length && s.startsWith(keys.hyp, k);
      const isRef = len === keys.ref.length && s.startsWith(keys.ref, k);
      const isId = keys.id !== undefined && len === keys.id.length && s.startsWith(keys.id, k);
      i = skipSpaces(s, i);
      if (s.charCodeAt(i) !== COLON) return undefined;
      const at = skipSpaces(s, i + 1);
      if (isHyp) {
        if (isRef || hyp !== undefined || s.charCodeAt(at) !== QUOTE) return undefined;
        i = skipString(s, at);
        if (i < 0) return undefined;
        hyp = stringAt(s, at, i);
      } else if (isRef) {
        if (refs !== undefined) return undefined;
        i = scanRefs(s, at);
        refs = refsOut;
      } else i = skipValue(s, at, 1);
      if (i < 0) return undefined;
      if (isId) {
        if (idAt >= 0) return undefined;
        idAt = at;
        idEnd = i;
      }
      i = skipSpaces(s, i);
      const c = s.charCodeAt(i);
      if (c === 125) break;
      if (c !== COMMA) return undefined;
      i = skipSpaces(s, i + 1);
    }
  }
  if (skipSpaces(s, i + 1) !== s.length || hyp === undefined || refs === undefined || refs.length === 0) return undefined;
  const id = keys.id === undefined ? undefined : idAt < 0 ? null : JSON.parse(s.slice(idAt, idEnd));
  return { ok: true, hyp, refs, id };
}
