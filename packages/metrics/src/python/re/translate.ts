// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The translation of the `re` port to RE2 syntax.
import { MAX_CP, MAXREPEAT } from "./flags.js";
import { NL } from "./positions.js";
import { type At, AT_KINDS, type Node } from "./resolve.js";
import { type Ranges, rsHas, rsPoints } from "./sets.js";
import { ASCII_WORD, uni } from "./unicode.js";

// ---------------------------------------------------------------------------------------------------
// Translation to RE2 syntax

// A control-flow signal caught inside the port (the backtracker takes over): not an Error, no stack captured.
export class Untranslatable {}

export const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;

function classText(s: Ranges): string {
  if (s.length === 2 && s[0] === 0 && s[1] === MAX_CP) return "(?s:.)";
  if (s.length === 0) return `[^\\x{0}-\\x{10ffff}]`;
  if (s.length === 2 && s[0] === s[1]) return hex(s[0]!);
  let out = "[";
  for (let i = 0; i < s.length; i += 2) out += s[i] === s[i + 1] ? hex(s[i]!) : `${hex(s[i]!)}-${hex(s[i + 1]!)}`;
  return out + "]";
}

function collectAts(n: Node, out: Set<At>): void {
  switch (n.k) {
    case "at":
      out.add(n.at);
      return;
    case "seq":
    case "alt":
      n.xs.forEach((x) => collectAts(x, out));
      return;
    case "group":
    case "rep":
    case "look":
    case "atomic":
      collectAts(n.x, out);
      return;
    case "cond":
      collectAts(n.yes, out);
      collectAts(n.no, out);
      return;
    default:
      return;
  }
}

/** Marker code points (one per text position) live here, one bit per assertion kind the pattern uses. */
const MARK_BASE = 0xe000;

export interface Translation {
  readonly source: string;
  /** Python group g is re2js group groupMap[g] (0 when it is not captured, inside a lookbehind). */
  readonly groupMap: readonly number[];
  readonly markerKinds: readonly At[] | null;
  readonly lookbehind: boolean;
  /**
   * Marker mode only: the pattern with every assertion dropped, on the plain text. It matches wherever
   * the real pattern does (and more), and runs on re2js's DFA, so a text it rejects skips the marker pass.
   */
  readonly relaxed: string | null;
  /** Set when the text is searched as block characters (see buildAlphabet). */
  readonly alphabet: Alphabet | null;
}

// ---------------------------------------------------------------------------------------------------
// Reduced alphabet: when the pattern's classes are big (`\w` is ~700 ranges; a 1 KB pattern of `\w`
// spelt out as RE2 classes is megabytes of pattern text), the text is searched through a relabelling
// instead. The code points are split into blocks that every set of the pattern either contains or
// excludes whole (partition refinement, each set processed from its smaller side); each code point of the
// text is replaced by one character naming its block, and each set becomes a class of block characters.
// `\w` repeated 50,000 times is then two blocks and a one-character class.

/** Block characters: BMP code points below the surrogates, clear of the markers. */
const BLOCK_BASE = 0x100;
const MAX_BLOCKS = 0xd800 - BLOCK_BASE;
/** Above this many range bounds over all character tests, the pattern is translated over blocks. */
export const DIRECT_BOUNDS_LIMIT = 16_384;
/** Work limits of building the alphabet and of the RE2 source; past them the backtracker takes over. */
const ALPHABET_WORK_LIMIT = 20_000_000;
export const SOURCE_LIMIT = 4_000_000;
const MARKS_ALL = "\\x{e000}-\\x{e1ff}";

export interface Alphabet {
  /** Sorted first code points of the elementary intervals (cuts[0] = 0). */
  readonly cuts: Int32Array;
  /** Block character of each elementary interval. */
  readonly charOf: Uint16Array;
  /** Block character of each ASCII code point. */
  readonly ascii: Uint16Array;
  /** RE2 class text, over block characters, of each set of the pattern. */
  readonly classes: ReadonlyMap<Ranges, string>;
}

export function collectSets(n: Node, out: Set<Ranges>): void {
  switch (n.k) {
    case "set":
      out.add(n.s);
      return;
    case "seq":
    case "alt":
      n.xs.forEach((x) => collectSets(x, out));
      return;
    case "group":
    case "rep":
    case "look":
    case "atomic":
      collectSets(n.x, out);
      return;
    case "cond":
      collectSets(n.yes, out);
      collectSets(n.no, out);
      return;
    default:
      return;
  }
}

/** Number of range bounds the direct translation would spell out (every occurrence counts). */
export function directBounds(n: Node): number {
  switch (n.k) {
    case "set":
      return n.s.length;
    case "seq":
    case "alt":
      return n.xs.reduce((a, x) => a + directBounds(x), 0);
    case "group":
    case "rep":
    case "look":
    case "atomic":
      return directBounds(n.x);
    case "cond":
      return directBounds(n.yes) + directBounds(n.no);
    default:
      return 0;
  }
}

function intervalOf(cuts: Int32Array, cp: number): number {
  let lo = 0;
  let hi = cuts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cuts[mid]! <= cp) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Instructions the RE2 program would roughly hold: RE2 unrolls counted repeats, so `((a{1000}){1000}){1000}`
 * would be 10^9 of them. Saturates at SOURCE_LIMIT + 1.
 */
export function unrolledSize(n: Node): number {
  const cap = SOURCE_LIMIT + 1;
  switch (n.k) {
    case "set":
    case "at":
    case "ref":
      return 1;
    case "seq":
    case "alt": {
      let t = 1;
      for (const x of n.xs) {
        t += unrolledSize(x);
        if (t >= cap) return cap;
      }
      return t;
    }
    case "group":
    case "look":
    case "atomic":
      return 1 + unrolledSize(n.x);
    case "rep": {
      const times = n.max === MAXREPEAT ? Math.max(n.min, 1) : n.max;
      return Math.min(cap, 1 + unrolledSize(n.x) * Math.max(times, 1));
    }
    case "cond":
      return Math.min(cap, 1 + unrolledSize(n.yes) + unrolledSize(n.no));
  }
}

/** Builds the block alphabet of `sets`, or null when it would take more than the work limits. */
export function buildAlphabet(distinct: readonly Ranges[]): Alphabet | null {
  let bounds = 1;
  for (const r of distinct) bounds += r.length;
  if (bounds > ALPHABET_WORK_LIMIT) return null;
  const all = new Int32Array(bounds);
  let k = 1; // all[0] = 0
  for (const r of distinct) {
    for (let i = 0; i < r.length; i += 2) {
      all[k++] = r[i]!;
      if (r[i + 1]! < MAX_CP) all[k++] = r[i + 1]! + 1;
    }
  }
  const sorted = all.subarray(0, k).sort();
  let e = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[e++] = sorted[i]!;
  const cuts = sorted.slice(0, e);
  const E = cuts.length;
  const blockOf = new Int32Array(E);
  const size: number[] = [E];
  let work = 0;
  // each set as inclusive interval-index runs [a0, b0, a1, b1, ...], and which side is smaller
  const sides: { runs: Int32Array; inside: boolean }[] = [];
  const touched = new Map<number, number[]>();
  for (const r of distinct) {
    const runs = new Int32Array(r.length);
    let count = 0;
    for (let i = 0; i < r.length; i += 2) {
      const a = intervalOf(cuts, r[i]!);
      const b = intervalOf(cuts, r[i + 1]!);
      runs[i] = a;
      runs[i + 1] = b;
      count += b - a + 1;
    }
    const inside = 2 * count <= E;
    let side = runs;
    if (!inside) {
      // the gaps between the runs
      const gaps: number[] = [];
      let next = 0;
      for (let i = 0; i < runs.length; i += 2) {
        if (runs[i]! > next) gaps.push(next, runs[i]! - 1);
        next = runs[i + 1]! + 1;
      }
      if (next < E) gaps.push(next, E - 1);
      side = Int32Array.from(gaps);
    }
    sides.push({ runs: side, inside });
    work += Math.min(count, E - count) + r.length;
    if (work > ALPHABET_WORK_LIMIT) return null;
    touched.clear();
    for (let i = 0; i < side.length; i += 2) {
      for (let t = side[i]!; t <= side[i + 1]!; t++) {
        const b = blockOf[t]!;
        const list = touched.get(b);
        if (list === undefined) touched.set(b, [t]);
        else list.push(t);
      }
    }
    for (const [b, list] of touched) {
      if (list.length === size[b]) continue;
      const nb = size.length;
      if (nb >= MAX_BLOCKS) return null;
      size.push(list.length);
      size[b]! -= list.length;
      for (const t of list) blockOf[t] = nb;
    }
  }
  const charOf = new Uint16Array(E);
  for (let t = 0; t < E; t++) charOf[t] = BLOCK_BASE + blockOf[t]!;
  const ascii = new Uint16Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = charOf[intervalOf(cuts, c)]!;
  const classes = new Map<Ranges, string>();
  const seen = new Int32Array(size.length).fill(-1);
  distinct.forEach((r, idx) => {
    const { runs, inside } = sides[idx]!;
    const ids: number[] = [];
    for (let i = 0; i < runs.length; i += 2) {
      for (let t = runs[i]!; t <= runs[i + 1]!; t++) {
        const b = blockOf[t]!;
        if (seen[b] !== idx) {
          seen[b] = idx;
          ids.push(b);
        }
      }
    }
    ids.sort((x, y) => x - y);
    let body = "";
    for (let i = 0; i < ids.length; ) {
      let j = i;
      while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
      body += j === i ? hex(BLOCK_BASE + ids[i]!) : `${hex(BLOCK_BASE + ids[i]!)}-${hex(BLOCK_BASE + ids[j]!)}`;
      i = j + 1;
    }
    // a block character never equals a marker, so "not these blocks" must also exclude the markers
    classes.set(r, inside ? (body === "" ? `[^\\x{0}-\\x{10ffff}]` : `[${body}]`) : `[^${MARKS_ALL}${body}]`);
  });
  return { cuts, charOf, ascii, classes };
}

const blockChar = (alpha: Alphabet, cp: number): number => (cp < 128 ? alpha.ascii[cp]! : alpha.charOf[intervalOf(alpha.cuts, cp)]!);

export function translate(root: Node, groups: number, alpha: Alphabet | null): Translation {
  const ats = new Set<At>();
  collectAts(root, ats);
  const needMarkers = [...ats].some((a) => a !== "BEGINNING");
  const kinds = needMarkers ? AT_KINDS.filter((a) => ats.has(a)) : null;
  const marks = kinds === null ? "" : `[${hex(MARK_BASE)}-${hex(MARK_BASE + (1 << kinds.length) - 1)}]`;
  const groupMap = new Array<number>(groups + 1).fill(0);
  let nextGroup = kinds === null ? 1 : 2; // marker mode wraps Python's group 0 in re2js group 1
  let lookbehind = false;
  let size = 0;

  const atText = (at: At): string => {
    if (kinds === null) return "\\A"; // only BEGINNING reaches here
    const bit = kinds.indexOf(at);
    const cps: number[] = [];
    for (let v = 0; v < 1 << kinds.length; v++) if ((v >> bit) & 1) cps.push(MARK_BASE + v);
    lookbehind = true;
    return `(?<=${classText(rsPoints(cps))})`;
  };

  const emit = (n: Node, inBehind: boolean): string => {
    switch (n.k) {
      case "set": {
        const t = (alpha === null ? classText(n.s) : alpha.classes.get(n.s)!) + marks;
        size += t.length;
        if (size > SOURCE_LIMIT) throw new Untranslatable();
        return t;
      }
      case "seq":
        return n.xs.map((x) => emit(x, inBehind)).join("");
      case "alt":
        return `(?:${n.xs.map((x) => emit(x, inBehind)).join("|")})`;
      case "group": {
        if (inBehind) return `(?:${emit(n.x, inBehind)})`;
        groupMap[n.g] = nextGroup++;
        return `(${emit(n.x, inBehind)})`;
      }
      case "rep": {
        if (n.mode === "possessive") throw new Untranslatable();
        const body = `(?:${emit(n.x, inBehind)})`;
        let q: string;
        if (n.min === 0 && n.max === MAXREPEAT) q = "*";
        else if (n.min === 1 && n.max === MAXREPEAT) q = "+";
        else if (n.min === 0 && n.max === 1) q = "?";
        else if (n.max === MAXREPEAT) q = `{${n.min},}`;
        else q = `{${n.min},${n.max}}`;
        return body + q + (n.mode === "lazy" ? "?" : "");
      }
      case "at":
        return atText(n.at);
      case "look": {
        if (!n.behind) throw new Untranslatable();
        lookbehind = true;
        return `(?<${n.negate ? "!" : "="}${emit(n.x, true)})`;
      }
      default:
        throw new Untranslatable();
    }
  };

  const body = emit(root, false);
  // marker mode: an anchored prefix skips whole (marker, character) pairs, so the pattern always starts
  // right after a marker whatever code points the text holds
  const source = kinds === null ? body : `\\A${marks}(?:(?s:.)${marks})*?(${body})`;
  return {
    source,
    groupMap,
    markerKinds: kinds,
    lookbehind,
    relaxed: kinds === null || alpha !== null ? null : relax(root),
    alphabet: alpha,
  };
}

/** RE2 text of `n` with assertions and lookbehinds removed (they only ever reject), captures dropped. */
function relax(n: Node): string {
  switch (n.k) {
    case "set":
      return classText(n.s);
    case "seq":
      return n.xs.map(relax).join("");
    case "alt":
      return `(?:${n.xs.map(relax).join("|")})`;
    case "group":
      return `(?:${relax(n.x)})`;
    case "rep": {
      const q = n.max === MAXREPEAT ? `{${n.min},}` : `{${n.min},${n.max}}`;
      return `(?:${relax(n.x)})${q}`;
    }
    case "at":
    case "look":
      return "";
    default:
      throw new Untranslatable();
  }
}

/** Bits of the marker at one position, for the kinds in `kinds` (bit b = kinds[b] holds). */
function markerBits(
  kinds: readonly At[],
  atStart: boolean,
  atEnd: boolean,
  prev: number,
  next: number,
  nextIsLast: boolean,
  empty: boolean,
): number {
  let v = 0;
  for (let b = 0; b < kinds.length; b++) {
    let holds: boolean;
    switch (kinds[b]!) {
      case "BEGINNING":
        holds = atStart;
        break;
      case "BEGINNING_LINE":
        holds = atStart || prev === NL;
        break;
      case "END":
        holds = atEnd || (nextIsLast && next === NL);
        break;
      case "END_LINE":
        holds = atEnd || next === NL;
        break;
      case "END_STRING":
        holds = atEnd;
        break;
      case "UNI_BOUNDARY":
        holds = !empty && isWordU(prev) !== isWordU(next);
        break;
      case "UNI_NON_BOUNDARY":
        holds = !empty && isWordU(prev) === isWordU(next);
        break;
      case "BOUNDARY":
        holds = !empty && isWordA(prev) !== isWordA(next);
        break;
      case "NON_BOUNDARY":
        holds = !empty && isWordA(prev) === isWordA(next);
        break;
    }
    if (holds) v |= 1 << b;
  }
  return v;
}

const isWordA = (cp: number): boolean => cp >= 0 && cp < 128 && rsHas(ASCII_WORD, cp);
const isWordU = (cp: number): boolean => (cp < 0 ? false : cp < 128 ? isWordA(cp) : rsHas(uni().word, cp));

/**
 * The text with a marker before every character and at the end, and (when asked) for every UTF-16
 * offset just after a marker the original offset it stands for (-1 elsewhere).
 */
export function markText(
  text: string,
  kinds: readonly At[],
  withOrigin: boolean,
  alpha: Alphabet | null = null,
): { marked: string; origin: Int32Array | undefined } {
  const n = text.length;
  const buf = new Uint16Array(2 * n + 1);
  const origin = withOrigin ? new Int32Array(2 * n + 2).fill(-1) : undefined;
  let o = 0;
  let prev = -1;
  let i = 0;
  for (;;) {
    const atEnd = i >= n;
    let next = -1;
    let len = 0;
    if (!atEnd) {
      next = text.codePointAt(i)!;
      len = next > 0xffff ? 2 : 1;
    }
    buf[o++] = MARK_BASE + markerBits(kinds, i === 0, atEnd, prev, next, i + len === n, n === 0);
    if (origin !== undefined) origin[o] = i;
    if (atEnd) break;
    if (alpha !== null) buf[o++] = blockChar(alpha, next);
    else {
      buf[o++] = text.charCodeAt(i);
      if (len === 2) buf[o++] = text.charCodeAt(i + 1);
    }
    prev = next;
    i += len;
  }
  return { marked: unitsToString(buf, o), origin };
}

/** `units[0..o)` as a string (String.fromCharCode keeps lone surrogates as they are; a TextDecoder would not). */
function unitsToString(units: Uint16Array, o: number): string {
  let out = "";
  for (let k = 0; k < o; k += 8192) out += String.fromCharCode.apply(null, units.subarray(k, Math.min(o, k + 8192)) as unknown as number[]);
  return out;
}

/**
 * The text as block characters, one per code point, and (when asked) the UTF-16 offset in `text` of every
 * position of the result (length + 1 entries).
 */
export function blockText(text: string, alpha: Alphabet, withOrigin: boolean): { mapped: string; origin: Int32Array | undefined } {
  const n = text.length;
  const buf = new Uint16Array(n);
  const origin = withOrigin ? new Int32Array(n + 1) : undefined;
  let o = 0;
  for (let i = 0; i < n; ) {
    const cp = text.codePointAt(i)!;
    if (origin !== undefined) origin[o] = i;
    buf[o++] = blockChar(alpha, cp);
    i += cp > 0xffff ? 2 : 1;
  }
  if (origin !== undefined) origin[o] = n;
  return { mapped: unitsToString(buf, o), origin: origin?.subarray(0, o + 1) };
}
