// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The resolver of the `re` port.
import { PythonRegexError, RegexBudgetExceededError } from "./errors.js";
import { ASCII, DOTALL, IGNORECASE, MULTILINE, TEMPLATE, TYPE_FLAGS, UNICODE } from "./flags.js";
import { type Category, type Item, type SetItem, setItemKey, type SubPattern } from "./parser.js";
import {
  ALL,
  complements,
  type Ranges,
  rsComplement,
  rsEach,
  rsHas,
  rsIntersect,
  rsMinus,
  rsPoints,
  rsUnion,
  rsUnionSorted,
} from "./sets.js";
import {
  ASCII_DIGIT,
  ASCII_LETTERS,
  ASCII_SPACE,
  ASCII_WORD,
  asciiLowerCp,
  EXTRA_CASES,
  isCasedAscii,
  isCasedUnicode,
  preimage,
  pyLowerCp,
  pyUpperCp,
  uni,
} from "./unicode.js";

// ---------------------------------------------------------------------------------------------------
// Resolve: re/_compiler.py + _sre semantics, flags applied, every character test an explicit set

/** Position assertions after flags (`_sre` AT codes). */
export type At =
  | "BEGINNING" // ^ and \A: position 0
  | "BEGINNING_LINE" // MULTILINE ^
  | "END" // $: end, or before a final "\n"
  | "END_LINE" // MULTILINE $
  | "END_STRING" // \Z
  | "UNI_BOUNDARY"
  | "UNI_NON_BOUNDARY"
  | "BOUNDARY" // ASCII \b under (?a)
  | "NON_BOUNDARY";

export const AT_KINDS: readonly At[] = [
  "BEGINNING",
  "BEGINNING_LINE",
  "END",
  "END_LINE",
  "END_STRING",
  "UNI_BOUNDARY",
  "UNI_NON_BOUNDARY",
  "BOUNDARY",
  "NON_BOUNDARY",
];

export type Node =
  | { readonly k: "set"; readonly s: Ranges }
  | { readonly k: "seq"; readonly xs: readonly Node[] }
  | { readonly k: "alt"; readonly xs: readonly Node[] }
  | { readonly k: "group"; readonly g: number; readonly x: Node }
  | { readonly k: "rep"; readonly min: number; readonly max: number; readonly mode: "greedy" | "lazy" | "possessive"; readonly x: Node }
  | { readonly k: "at"; readonly at: At }
  | { readonly k: "look"; readonly behind: boolean; readonly negate: boolean; readonly width: number; readonly x: Node }
  | { readonly k: "ref"; readonly g: number; readonly fold: "none" | "ascii" | "unicode" }
  | { readonly k: "cond"; readonly g: number; readonly yes: Node; readonly no: Node }
  | { readonly k: "atomic"; readonly x: Node };

/** The complement of a static table, computed once. */
function complementOf(a: Ranges): Ranges {
  let c = complements.get(a);
  if (c === undefined) {
    c = rsComplement(a);
    complements.set(a, c);
  }
  return c;
}

function categorySet(cat: Category, flags: number): Ranges {
  const u = (flags & ASCII) === 0;
  switch (cat) {
    case "DIGIT":
      return u ? uni().decimal : ASCII_DIGIT;
    case "NOT_DIGIT":
      return complementOf(u ? uni().decimal : ASCII_DIGIT);
    case "SPACE":
      return u ? uni().space : ASCII_SPACE;
    case "NOT_SPACE":
      return complementOf(u ? uni().space : ASCII_SPACE);
    case "WORD":
      return u ? uni().word : ASCII_WORD;
    case "NOT_WORD":
      return complementOf(u ? uni().word : ASCII_WORD);
  }
}

interface CaseRules {
  readonly lower: (cp: number) => number;
  readonly changed: Ranges;
  readonly iscased: (cp: number) => boolean;
  readonly fixes: ReadonlyMap<number, readonly number[]>;
  /** The code points `iscased` accepts. */
  readonly cased: Ranges;
}

function caseRules(flags: number): CaseRules | null {
  if ((flags & IGNORECASE) === 0) return null;
  if ((flags & UNICODE) !== 0) {
    const u = uni();
    return { lower: pyLowerCp, changed: u.lowerChanged, iscased: isCasedUnicode, fixes: EXTRA_CASES, cased: u.cased };
  }
  return { lower: asciiLowerCp, changed: [0x41, 0x5a], iscased: isCasedAscii, fixes: new Map(), cased: ASCII_LETTERS };
}

/** The code points a literal matches: `_compiler._compile` LITERAL branch. */
function literalSet(cp: number, flags: number): Ranges {
  const cr = caseRules(flags);
  if (cr === null || !cr.iscased(cp)) return [cp, cp];
  const lo = cr.lower(cp);
  return preimage(rsPoints([lo, ...(cr.fixes.get(lo) ?? [])]), cr.lower, cr.changed);
}

/** The code points a class matches: `_optimize_charset` + `IN`/`IN_UNI_IGNORE` (charset tested on lower(c)). */
function classSet(items: readonly SetItem[], flags: number): Ranges {
  const cr = caseRules(flags);
  const negate = items[0]?.op === "NEGATE";
  const parts: Ranges[] = [];
  let hascased = false;
  for (const it of items) {
    if (it.op === "NEGATE") continue;
    if (it.op === "CATEGORY") {
      parts.push(categorySet(it.cat, flags));
    } else if (cr === null) {
      parts.push(it.op === "LITERAL" ? [it.cp, it.cp] : [it.lo, it.hi]);
    } else if (it.op === "LITERAL") {
      if (it.cp > 0xffff) {
        // CPython puts astral literals unlowered in the tail, then compares them with lower(c)
        parts.push([it.cp, it.cp]);
        hascased = true;
      } else {
        const lo = cr.lower(it.cp);
        parts.push(rsPoints([lo, ...(cr.fixes.get(lo) ?? [])]));
        if (cr.iscased(it.cp)) hascased = true;
      }
    } else {
      // RANGE: the BMP part goes into the charmap lowered (plus fixes) ...
      const bmpHi = Math.min(it.hi, 0xffff);
      if (it.lo <= bmpHi) {
        const r: Ranges = [it.lo, bmpHi];
        const moved: number[] = [];
        for (const c of rsEach(rsIntersect(r, cr.changed))) moved.push(cr.lower(c));
        let lowered = rsUnion(rsMinus(r, cr.changed), rsPoints(moved));
        const fix: number[] = [];
        for (const [k, vs] of cr.fixes) if (rsHas(lowered, k)) fix.push(...vs);
        lowered = rsUnion(lowered, rsPoints(fix));
        parts.push(lowered);
        if (rsIntersect(r, cr.cased).length > 0) hascased = true;
      }
      if (it.hi > 0xffff) {
        // ... and a range reaching past the BMP is kept whole as RANGE_UNI_IGNORE: lc or upper(lc) in it
        hascased = true;
        const r: Ranges = [it.lo, it.hi];
        const up: number[] = [];
        for (const c of rsEach(uni().upperChanged)) if (rsHas(r, pyUpperCp(c))) up.push(c);
        parts.push(rsUnion(r, rsPoints(up)));
      }
    }
  }
  let s = parts.length === 1 ? parts[0]! : rsUnionSorted(parts);
  if (cr !== null && hascased) s = preimage(s, cr.lower, cr.changed);
  return negate ? rsComplement(s) : s;
}

function combineFlags(flags: number, add: number, del: number): number {
  if ((add & TYPE_FLAGS) !== 0) flags &= ~TYPE_FLAGS;
  return (flags | add) & ~del;
}

const NOT_NL: Ranges = rsComplement([10, 10]);

/**
 * Resolved sets of the pattern being compiled, by item and flags: a pattern repeating `\w` or `[a-z]`
 * resolves it once, and equal tests share one Ranges object (which the reduced alphabet relies on).
 */
let setMemo: Map<string, Ranges> | null = null;
let setBounds = 0;

/**
 * Compile budget: range bounds (two per range) over the distinct classes of one pattern. `\w` has about
 * 1,400; a 100 KB pattern of distinct `\w`-sized classes would hold ~70 million and gigabytes.
 */
const COMPILE_BOUNDS_BUDGET = 4_000_000;

class CompileBudgetSignal extends Error {}

function memoSet(key: string, make: () => Ranges): Ranges {
  if (setMemo === null) return make();
  let r = setMemo.get(key);
  if (r === undefined) {
    r = make();
    setMemo.set(key, r);
    setBounds += r.length;
    if (setBounds > COMPILE_BOUNDS_BUDGET) throw new CompileBudgetSignal();
  }
  return r;
}

function setItemsKey(items: readonly SetItem[]): string {
  let k = "";
  for (const it of items) k += setItemKey(it);
  return k;
}

/**
 * The resolved tree of a parsed pattern, its sets memoised for this one compilation; a pattern whose
 * classes need more than the compile budget throws `RegexBudgetExceededError` ("compile").
 */
export function resolvePattern(p: SubPattern, flags: number, pattern: string): Node {
  setMemo = new Map();
  setBounds = 0;
  try {
    return resolve(p, flags, pattern);
  } catch (e) {
    if (e instanceof CompileBudgetSignal) throw new RegexBudgetExceededError(pattern, COMPILE_BOUNDS_BUDGET, "compile");
    throw e;
  } finally {
    setMemo = null;
  }
}

function resolve(p: SubPattern, flags: number, pattern: string): Node {
  const xs: Node[] = [];
  for (const it of p.data) xs.push(resolveItem(it, flags, pattern));
  return xs.length === 1 ? xs[0]! : { k: "seq", xs };
}

function resolveItem(it: Item, flags: number, pattern: string): Node {
  switch (it.op) {
    case "LITERAL":
      return { k: "set", s: memoSet(`L${flags}:${it.cp}`, () => literalSet(it.cp, flags)) };
    case "NOT_LITERAL":
      return { k: "set", s: memoSet(`N${flags}:${it.cp}`, () => rsComplement(literalSet(it.cp, flags))) };
    case "ANY":
      return { k: "set", s: (flags & DOTALL) !== 0 ? ALL : NOT_NL };
    case "IN":
      return { k: "set", s: memoSet(`I${flags}:${setItemsKey(it.items)}`, () => classSet(it.items, flags)) };
    case "AT": {
      const ml = (flags & MULTILINE) !== 0;
      const u = (flags & UNICODE) !== 0;
      const at: At =
        it.at === "BEGINNING"
          ? ml
            ? "BEGINNING_LINE"
            : "BEGINNING"
          : it.at === "BEGINNING_STRING"
            ? "BEGINNING"
            : it.at === "END"
              ? ml
                ? "END_LINE"
                : "END"
              : it.at === "END_STRING"
                ? "END_STRING"
                : it.at === "BOUNDARY"
                  ? u
                    ? "UNI_BOUNDARY"
                    : "BOUNDARY"
                  : u
                    ? "UNI_NON_BOUNDARY"
                    : "NON_BOUNDARY";
      return { k: "at", at };
    }
    case "BRANCH":
      return { k: "alt", xs: it.branches.map((b) => resolve(b, flags, pattern)) };
    case "SUBPATTERN": {
      const x = resolve(it.p, combineFlags(flags, it.add, it.del), pattern);
      return it.group !== null ? { k: "group", g: it.group, x } : x;
    }
    case "ATOMIC_GROUP":
      return { k: "atomic", x: resolve(it.p, flags, pattern) };
    case "REPEAT":
      if ((flags & TEMPLATE) !== 0) throw new PythonRegexError(`internal: unsupported template operator ${it.kind}_REPEAT`, pattern, 0);
      return {
        k: "rep",
        min: it.min,
        max: it.max,
        mode: it.kind === "MAX" ? "greedy" : it.kind === "MIN" ? "lazy" : "possessive",
        x: resolve(it.p, flags, pattern),
      };
    case "ASSERT": {
      let width = 0;
      if (it.behind) {
        const [lo, hi] = it.p.getwidth();
        if (lo !== hi) throw new PythonRegexError("look-behind requires fixed-width pattern", pattern, 0);
        width = lo;
      }
      return { k: "look", behind: it.behind, negate: it.negate, width, x: resolve(it.p, flags, pattern) };
    }
    case "GROUPREF":
      return { k: "ref", g: it.group, fold: (flags & IGNORECASE) === 0 ? "none" : (flags & UNICODE) !== 0 ? "unicode" : "ascii" };
    case "GROUPREF_EXISTS":
      return {
        k: "cond",
        g: it.group,
        yes: resolve(it.yes, flags, pattern),
        no: it.no === null ? { k: "seq", xs: [] } : resolve(it.no, flags, pattern),
      };
  }
}
