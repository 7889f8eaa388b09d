// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The parser of the `re` port.
import { PythonCompatError } from "../../errors.js";
import { PythonRegexError } from "./errors.js";
import { ASCII, FLAG_CHARS, GLOBAL_FLAGS, LOCALE, MAX_CP, MAXGROUPS, MAXREPEAT, TYPE_FLAGS, UNICODE, VERBOSE } from "./flags.js";
import { lookupName, type UnicodeNameResolver } from "./names.js";
import { pyDecimalValue, pyIsSpace } from "./unicode.js";

// ---------------------------------------------------------------------------------------------------
// Parser: re/_parser.py (3.11), item for item

export type Category = "DIGIT" | "NOT_DIGIT" | "SPACE" | "NOT_SPACE" | "WORD" | "NOT_WORD";
type AtCode = "BEGINNING" | "BEGINNING_STRING" | "BOUNDARY" | "NON_BOUNDARY" | "END" | "END_STRING";

export type SetItem =
  | { readonly op: "LITERAL"; readonly cp: number }
  | { readonly op: "RANGE"; readonly lo: number; readonly hi: number }
  | { readonly op: "CATEGORY"; readonly cat: Category }
  | { readonly op: "NEGATE" };

export type Item =
  | { readonly op: "LITERAL"; readonly cp: number }
  | { readonly op: "NOT_LITERAL"; readonly cp: number }
  | { readonly op: "ANY" }
  | { readonly op: "IN"; readonly items: readonly SetItem[] }
  | { readonly op: "AT"; readonly at: AtCode }
  | { readonly op: "BRANCH"; readonly branches: SubPattern[] }
  | { readonly op: "SUBPATTERN"; readonly group: number | null; readonly add: number; readonly del: number; readonly p: SubPattern }
  | { readonly op: "ATOMIC_GROUP"; readonly p: SubPattern }
  | {
      readonly op: "REPEAT";
      readonly kind: "MAX" | "MIN" | "POSSESSIVE";
      readonly min: number;
      readonly max: number;
      readonly p: SubPattern;
    }
  | { readonly op: "ASSERT"; readonly behind: boolean; readonly negate: boolean; readonly p: SubPattern }
  | { readonly op: "GROUPREF"; readonly group: number }
  | { readonly op: "GROUPREF_EXISTS"; readonly group: number; readonly yes: SubPattern; readonly no: SubPattern | null };

const CATEGORIES: Readonly<Record<string, Item>> = {
  "\\A": { op: "AT", at: "BEGINNING_STRING" },
  "\\b": { op: "AT", at: "BOUNDARY" },
  "\\B": { op: "AT", at: "NON_BOUNDARY" },
  "\\d": { op: "IN", items: [{ op: "CATEGORY", cat: "DIGIT" }] },
  "\\D": { op: "IN", items: [{ op: "CATEGORY", cat: "NOT_DIGIT" }] },
  "\\s": { op: "IN", items: [{ op: "CATEGORY", cat: "SPACE" }] },
  "\\S": { op: "IN", items: [{ op: "CATEGORY", cat: "NOT_SPACE" }] },
  "\\w": { op: "IN", items: [{ op: "CATEGORY", cat: "WORD" }] },
  "\\W": { op: "IN", items: [{ op: "CATEGORY", cat: "NOT_WORD" }] },
  "\\Z": { op: "AT", at: "END_STRING" },
};
const ESCAPES: Readonly<Record<string, number>> = {
  "\\a": 7,
  "\\b": 8,
  "\\f": 12,
  "\\n": 10,
  "\\r": 13,
  "\\t": 9,
  "\\v": 11,
  "\\\\": 92,
};
const SPECIAL_CHARS = ".\\[{()*+?^$|";
const REPEAT_CHARS = "*+?{";
const DIGITS = "0123456789";
const OCTDIGITS = "01234567";
const HEXDIGITS = "0123456789abcdefABCDEF";
const WHITESPACE = " \t\n\r\v\f";
const isAsciiLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);

class State {
  flags = 0;
  groupdict = new Map<string, number>();
  groupwidths: ([number, number] | null)[] = [null];
  lookbehindgroups: number | null = null;
  grouprefpos = new Map<number, number>();
  get groups(): number {
    return this.groupwidths.length;
  }
}

export class SubPattern {
  data: Item[];
  private width: [number, number] | undefined;
  constructor(
    readonly state: State,
    data: Item[] = [],
  ) {
    this.data = data;
  }
  get length(): number {
    return this.data.length;
  }
  getwidth(): [number, number] {
    if (this.width !== undefined) return this.width;
    let lo = 0;
    let hi = 0;
    for (const it of this.data) {
      if (it.op === "BRANCH") {
        let i = MAXREPEAT - 1;
        let j = 0;
        for (const b of it.branches) {
          const [l, h] = b.getwidth();
          i = Math.min(i, l);
          j = Math.max(j, h);
        }
        lo += i;
        hi += j;
      } else if (it.op === "ATOMIC_GROUP" || it.op === "SUBPATTERN") {
        const [i, j] = it.p.getwidth();
        lo += i;
        hi += j;
      } else if (it.op === "REPEAT") {
        const [i, j] = it.p.getwidth();
        lo += i * it.min;
        hi += j * it.max;
      } else if (it.op === "LITERAL" || it.op === "NOT_LITERAL" || it.op === "ANY" || it.op === "IN") {
        lo += 1;
        hi += 1;
      } else if (it.op === "GROUPREF") {
        const [i, j] = this.state.groupwidths[it.group]!;
        lo += i;
        hi += j;
      } else if (it.op === "GROUPREF_EXISTS") {
        let [i, j] = it.yes.getwidth();
        if (it.no !== null) {
          const [l, h] = it.no.getwidth();
          i = Math.min(i, l);
          j = Math.max(j, h);
        } else i = 0;
        lo += i;
        hi += j;
      }
    }
    this.width = [Math.min(lo, MAXREPEAT - 1), Math.min(hi, MAXREPEAT)];
    return this.width;
  }
}

class Tokenizer {
  private readonly chars: string[];
  private index = 0;
  next: string | null = null;
  constructor(
    readonly pattern: string,
    readonly unicodeName: UnicodeNameResolver | undefined,
  ) {
    this.chars = Array.from(pattern);
    this.advance();
  }
  private advance(): void {
    let i = this.index;
    if (i >= this.chars.length) {
      this.next = null;
      return;
    }
    let ch = this.chars[i]!;
    if (ch === "\\") {
      i++;
      if (i >= this.chars.length) throw new PythonRegexError("bad escape (end of pattern)", this.pattern, this.chars.length - 1);
      ch += this.chars[i]!;
    }
    this.index = i + 1;
    this.next = ch;
  }
  match(c: string): boolean {
    if (c === this.next) {
      this.advance();
      return true;
    }
    return false;
  }
  get(): string | null {
    const t = this.next;
    this.advance();
    return t;
  }
  getwhile(n: number, charset: string): string {
    let result = "";
    for (let k = 0; k < n; k++) {
      const c = this.next;
      if (c === null || c.length !== 1 || !charset.includes(c)) break;
      result += c;
      this.advance();
    }
    return result;
  }
  getuntil(terminator: string, name: string): string {
    let result = "";
    for (;;) {
      const c = this.next;
      this.advance();
      if (c === null) {
        if (result === "") throw this.error("missing " + name);
        throw this.error(`missing ${terminator}, unterminated name`, Array.from(result).length);
      }
      if (c === terminator) {
        if (result === "") throw this.error("missing " + name, 1);
        break;
      }
      result += c;
    }
    return result;
  }
  tell(): number {
    return this.index - (this.next === null ? 0 : Array.from(this.next).length);
  }
  seek(index: number): void {
    this.index = index;
    this.advance();
  }
  error(msg: string, offset = 0): PythonRegexError {
    return new PythonRegexError(msg, this.pattern, this.tell() - offset);
  }
  checkgroupname(name: string, offset: number): void {
    if (!isIdentifier(name)) throw this.error(`bad character in group name ${pyQuote(name)}`, Array.from(name).length + offset);
  }
}

/** Python `str.isidentifier()` (XID_Start/XID_Continue; the runtime's Unicode tables). */
function isIdentifier(s: string): boolean {
  return /^[\p{XID_Start}_][\p{XID_Continue}]*$/u.test(s);
}

const pyQuote = (s: string): string =>
  s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

function isDigitToken(t: string | null): boolean {
  return t !== null && t.length === 1 && DIGITS.includes(t);
}

function pyInt(s: string): number {
  // only ASCII digit strings reach here (the parser reads DIGITS)
  return Number(s);
}

function classEscape(source: Tokenizer, escape: string): Item | SetItem {
  const lit = ESCAPES[escape];
  if (lit !== undefined) return { op: "LITERAL", cp: lit };
  const cat = CATEGORIES[escape];
  if (cat !== undefined && cat.op === "IN") return cat;
  const c = escape.slice(1);
  if (c === "x") {
    escape += source.getwhile(2, HEXDIGITS);
    if (escape.length !== 4) throw source.error(`incomplete escape ${escape}`, escape.length);
    return { op: "LITERAL", cp: parseInt(escape.slice(2), 16) };
  } else if (c === "u") {
    escape += source.getwhile(4, HEXDIGITS);
    if (escape.length !== 6) throw source.error(`incomplete escape ${escape}`, escape.length);
    return { op: "LITERAL", cp: parseInt(escape.slice(2), 16) };
  } else if (c === "U") {
    escape += source.getwhile(8, HEXDIGITS);
    if (escape.length !== 10) throw source.error(`incomplete escape ${escape}`, escape.length);
    const v = parseInt(escape.slice(2), 16);
    if (v > MAX_CP) throw source.error(`bad escape ${escape}`, escape.length); // chr() raised ValueError
    return { op: "LITERAL", cp: v };
  } else if (c === "N") {
    return { op: "LITERAL", cp: namedEscape(source) };
  } else if (OCTDIGITS.includes(c)) {
    escape += source.getwhile(2, OCTDIGITS);
    const v = parseInt(escape.slice(1), 8);
    if (v > 0o377) throw source.error(`octal escape value ${escape} outside of range 0-0o377`, escape.length);
    return { op: "LITERAL", cp: v };
  } else if (DIGITS.includes(c)) {
    throw source.error(`bad escape ${escape}`, escape.length);
  }
  if (Array.from(escape).length === 2) {
    if (isAsciiLetter(c)) throw source.error(`bad escape ${escape}`, escape.length);
    return { op: "LITERAL", cp: c.codePointAt(0)! };
  }
  throw source.error(`bad escape ${escape}`, escape.length);
}

function namedEscape(source: Tokenizer): number {
  if (!source.match("{")) throw source.error("missing {");
  const name = source.getuntil("}", "character name");
  const cp = lookupName(name, source.unicodeName);
  if (cp === undefined) throw source.error(`undefined character name ${pyQuote(name)}`, Array.from(name).length + 4);
  return cp;
}

function escape(source: Tokenizer, esc: string, state: State): Item {
  const cat = CATEGORIES[esc];
  if (cat !== undefined) return cat;
  const lit = ESCAPES[esc];
  if (lit !== undefined) return { op: "LITERAL", cp: lit };
  const c = esc.slice(1);
  if (c === "x") {
    esc += source.getwhile(2, HEXDIGITS);
    if (esc.length !== 4) throw source.error(`incomplete escape ${esc}`, esc.length);
    return { op: "LITERAL", cp: parseInt(esc.slice(2), 16) };
  } else if (c === "u") {
    esc += source.getwhile(4, HEXDIGITS);
    if (esc.length !== 6) throw source.error(`incomplete escape ${esc}`, esc.length);
    return { op: "LITERAL", cp: parseInt(esc.slice(2), 16) };
  } else if (c === "U") {
    esc += source.getwhile(8, HEXDIGITS);
    if (esc.length !== 10) throw source.error(`incomplete escape ${esc}`, esc.length);
    const v = parseInt(esc.slice(2), 16);
    if (v > MAX_CP) throw source.error(`bad escape ${esc}`, esc.length);
    return { op: "LITERAL", cp: v };
  } else if (c === "N") {
    return { op: "LITERAL", cp: namedEscape(source) };
  } else if (c === "0") {
    esc += source.getwhile(2, OCTDIGITS);
    return { op: "LITERAL", cp: parseInt(esc.slice(1), 8) };
  } else if (DIGITS.includes(c) && c.length === 1) {
    if (isDigitToken(source.next)) {
      esc += source.get()!;
      if (
        OCTDIGITS.includes(esc[1]!) &&
        OCTDIGITS.includes(esc[2]!) &&
        source.next !== null &&
        source.next.length === 1 &&
        OCTDIGITS.includes(source.next)
      ) {
        esc += source.get()!;
        const v = parseInt(esc.slice(1), 8);
        if (v > 0o377) throw source.error(`octal escape value ${esc} outside of range 0-0o377`, esc.length);
        return { op: "LITERAL", cp: v };
      }
    }
    const group = pyInt(esc.slice(1));
    if (group < state.groups) {
      if (!checkgroup(state, group)) throw source.error("cannot refer to an open group", esc.length);
      checklookbehindgroup(state, group, source);
      return { op: "GROUPREF", group };
    }
    throw source.error(`invalid group reference ${group}`, esc.length - 1);
  }
  if (Array.from(esc).length === 2) {
    if (isAsciiLetter(c)) throw source.error(`bad escape ${esc}`, esc.length);
    return { op: "LITERAL", cp: c.codePointAt(0)! };
  }
  throw source.error(`bad escape ${esc}`, esc.length);
}

function checkgroup(state: State, gid: number): boolean {
  return gid < state.groups && state.groupwidths[gid] !== null;
}

function checklookbehindgroup(state: State, gid: number, source: Tokenizer): void {
  if (state.lookbehindgroups !== null) {
    if (!checkgroup(state, gid)) throw source.error("cannot refer to an open group");
    if (gid >= state.lookbehindgroups) throw source.error("cannot refer to group defined in the same lookbehind subpattern");
  }
}

function opengroup(state: State, source: Tokenizer, name: string | null): number {
  const gid = state.groups;
  state.groupwidths.push(null);
  if (state.groups > MAXGROUPS) throw source.error("too many groups");
  if (name !== null) {
    const ogid = state.groupdict.get(name);
    if (ogid !== undefined) {
      throw source.error(`redefinition of group name ${pyQuote(name)} as group ${gid}; was group ${ogid}`, Array.from(name).length + 1);
    }
    state.groupdict.set(name, gid);
  }
  return gid;
}

/** Python tuple equality of two parser items (items holding a SubPattern compare by identity). */
function itemEquals(a: Item | SetItem, b: Item | SetItem): boolean {
  if (a === b) return true;
  if (a.op !== b.op) return false;
  switch (a.op) {
    case "LITERAL":
    case "NOT_LITERAL":
      return a.cp === (b as typeof a).cp;
    case "ANY":
    case "NEGATE":
      return true;
    case "AT":
      return a.at === (b as typeof a).at;
    case "RANGE":
      return a.lo === (b as typeof a).lo && a.hi === (b as typeof a).hi;
    case "CATEGORY":
      return a.cat === (b as typeof a).cat;
    case "GROUPREF":
      return a.group === (b as typeof a).group;
    case "IN": {
      const bi = (b as typeof a).items;
      return a.items.length === bi.length && a.items.every((x, i) => itemEquals(x, bi[i]!));
    }
    default:
      return false;
  }
}

/** A set item as text: equal items (by `itemEquals`) and only they have equal keys. */
export function setItemKey(it: SetItem): string {
  return it.op === "LITERAL" ? `l${it.cp},` : it.op === "RANGE" ? `r${it.lo}-${it.hi},` : it.op === "CATEGORY" ? `c${it.cat},` : "^,";
}

/** The set items without repeats, first occurrence kept (CPython's `_uniq`), in one pass over a key set. */
function uniq(items: readonly SetItem[]): SetItem[] {
  const seen = new Set<string>();
  const out: SetItem[] = [];
  for (const it of items) {
    const key = setItemKey(it);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(it);
  }
  return out;
}

/**
 * Deepest group nesting CPython 3.11 compiles: `_parser` recurses twice per level, and at 496 levels
 * (from a shallow caller) `re.compile` raises RecursionError. Past it evalkern raises the same, before the
 * JS stack runs out.
 */
const MAX_NESTING = 495;

function parseSub(source: Tokenizer, state: State, verbose: boolean, nested: number): SubPattern {
  if (nested > 2 * MAX_NESTING + 1) throw new PythonCompatError("RecursionError", "maximum recursion depth exceeded");
  const items: SubPattern[] = [];
  for (;;) {
    items.push(parseSeq(source, state, verbose, nested + 1, nested === 0 && items.length === 0));
    if (!source.match("|")) break;
    if (nested === 0) verbose = (state.flags & VERBOSE) !== 0;
  }
  if (items.length === 1) return items[0]!;
  const subpattern = new SubPattern(state);
  // move a common prefix out of the branch (measured first, then cut once: linear in the branches)
  let shared = 0;
  for (;;) {
    let prefix: Item | null = null;
    let common = true;
    for (const item of items) {
      if (item.length <= shared) {
        common = false;
        break;
      }
      if (prefix === null) prefix = item.data[shared]!;
      else if (!itemEquals(item.data[shared]!, prefix)) {
        common = false;
        break;
      }
    }
    if (!common || prefix === null) break;
    subpattern.data.push(prefix);
    shared++;
  }
  if (shared > 0) for (const item of items) item.data.splice(0, shared);
  // a branch of single characters/sets becomes one set
  const set: SetItem[] = [];
  let allSets = true;
  for (const item of items) {
    if (item.length !== 1) {
      allSets = false;
      break;
    }
    const it = item.data[0]!;
    if (it.op === "LITERAL") set.push({ op: "LITERAL", cp: it.cp });
    else if (it.op === "IN" && it.items[0]?.op !== "NEGATE") for (const x of it.items) set.push(x);
    else {
      allSets = false;
      break;
    }
  }
  if (allSets) {
    subpattern.data.push({ op: "IN", items: uniq(set) });
    return subpattern;
  }
  subpattern.data.push({ op: "BRANCH", branches: items });
  return subpattern;
}

function parseSeq(source: Tokenizer, state: State, verbose: boolean, nested: number, first: boolean): SubPattern {
  const subpattern = new SubPattern(state);
  const data = subpattern.data;
  for (;;) {
    const self = source.next;
    if (self === null || self === "|" || self === ")") break;
    source.get();
    if (verbose) {
      if (self.length === 1 && WHITESPACE.includes(self)) continue;
      if (self === "#") {
        for (;;) {
          const t = source.get();
          if (t === null || t === "\n") break;
        }
        continue;
      }
    }
    if (self[0] === "\\") {
      data.push(escape(source, self, state));
    } else if (!SPECIAL_CHARS.includes(self)) {
      data.push({ op: "LITERAL", cp: self.codePointAt(0)! });
    } else if (self === "[") {
      data.push(parseClass(source));
    } else if (REPEAT_CHARS.includes(self)) {
      parseRepeat(source, state, data, self);
    } else if (self === ".") {
      data.push({ op: "ANY" });
    } else if (self === "(") {
      const item = parseGroup(source, state, verbose, nested, first && data.length === 0);
      if (item === GLOBAL_FLAGS_SET) verbose = (state.flags & VERBOSE) !== 0;
      else if (item !== null) data.push(item);
    } else if (self === "^") {
      data.push({ op: "AT", at: "BEGINNING" });
    } else if (self === "$") {
      data.push({ op: "AT", at: "END" });
    }
  }
  unpackPlainGroups(data);
  return subpattern;
}

/** `[...]` after its "[": the class as one item (a one-literal class is that literal, as `_parser` makes it). */
function parseClass(source: Tokenizer): Item {
  const here = source.tell() - 1;
  let set: SetItem[] = [];
  const negate = source.match("^");
  for (;;) {
    const t = source.get();
    if (t === null) throw source.error("unterminated character set", source.tell() - here);
    if (t === "]" && set.length > 0) break;
    let code1: Item | SetItem;
    if (t[0] === "\\") code1 = classEscape(source, t);
    else code1 = { op: "LITERAL", cp: t.codePointAt(0)! };
    if (source.match("-")) {
      const that = source.get();
      if (that === null) throw source.error("unterminated character set", source.tell() - here);
      if (that === "]") {
        set.push(code1.op === "IN" ? (code1.items[0] as SetItem) : (code1 as SetItem));
        set.push({ op: "LITERAL", cp: 0x2d });
        break;
      }
      const code2: Item | SetItem = that[0] === "\\" ? classEscape(source, that) : { op: "LITERAL", cp: that.codePointAt(0)! };
      if (code1.op !== "LITERAL" || code2.op !== "LITERAL") {
        throw source.error(`bad character range ${t}-${that}`, Array.from(t).length + 1 + Array.from(that).length);
      }
      if (code2.cp < code1.cp) throw source.error(`bad character range ${t}-${that}`, Array.from(t).length + 1 + Array.from(that).length);
      set.push({ op: "RANGE", lo: code1.cp, hi: code2.cp });
    } else {
      set.push(code1.op === "IN" ? (code1.items[0] as SetItem) : (code1 as SetItem));
    }
  }
  set = uniq(set);
  if (set.length === 1 && set[0]!.op === "LITERAL") {
    return negate ? { op: "NOT_LITERAL", cp: set[0]!.cp } : { op: "LITERAL", cp: set[0]!.cp };
  }
  if (negate) set.unshift({ op: "NEGATE" });
  return { op: "IN", items: set };
}

/** A repeat (`?`, `*`, `+`, `{m,n}`, `self`) applied to the last item of `data`; `{` that is no repeat is a literal. */
function parseRepeat(source: Tokenizer, state: State, data: Item[], self: string): void {
  const here = source.tell();
  let min: number;
  let max: number;
  if (self === "?") [min, max] = [0, 1];
  else if (self === "*") [min, max] = [0, MAXREPEAT];
  else if (self === "+") [min, max] = [1, MAXREPEAT];
  else {
    // "{"
    if (source.next === "}") {
      data.push({ op: "LITERAL", cp: 0x7b });
      return;
    }
    [min, max] = [0, MAXREPEAT];
    let lo = "";
    let hi = "";
    while (isDigitToken(source.next)) lo += source.get()!;
    if (source.match(",")) {
      while (isDigitToken(source.next)) hi += source.get()!;
    } else hi = lo;
    if (!source.match("}")) {
      data.push({ op: "LITERAL", cp: 0x7b });
      source.seek(here);
      return;
    }
    if (lo !== "") {
      min = pyInt(lo);
      if (min >= MAXREPEAT) throw new PythonCompatError("OverflowError", "the repetition number is too large");
    }
    if (hi !== "") {
      max = pyInt(hi);
      if (max >= MAXREPEAT) throw new PythonCompatError("OverflowError", "the repetition number is too large");
      if (max < min) throw source.error("min repeat greater than max repeat", source.tell() - here);
    }
  }
  const last = data[data.length - 1];
  if (last === undefined || last.op === "AT") throw source.error("nothing to repeat", source.tell() - here + self.length);
  if (last.op === "REPEAT") throw source.error("multiple repeat", source.tell() - here + self.length);
  let item: SubPattern;
  if (last.op === "SUBPATTERN" && last.group === null && last.add === 0 && last.del === 0) item = last.p;
  else item = new SubPattern(state, [last]);
  const kind = source.match("?") ? "MIN" : source.match("+") ? "POSSESSIVE" : "MAX";
  data[data.length - 1] = { op: "REPEAT", kind, min, max, p: item };
}

/** What `parseGroup` returns for a group of global flags (`(?x)` at the start): no item, and VERBOSE may have changed. */
const GLOBAL_FLAGS_SET: unique symbol = Symbol("global flags");

/**
 * A group after its "(": the item it makes, null for a comment `(?#…)`, or `GLOBAL_FLAGS_SET`. `atStart`:
 * nothing precedes it in the pattern (global flags are allowed only there).
 */
function parseGroup(
  source: Tokenizer,
  state: State,
  verbose: boolean,
  nested: number,
  atStart: boolean,
): Item | null | typeof GLOBAL_FLAGS_SET {
  const start = source.tell() - 1;
  let capture = true;
  let atomic = false;
  let name: string | null = null;
  let add = 0;
  let del = 0;
  if (source.match("?")) {
    const char = source.get();
    if (char === null) throw source.error("unexpected end of pattern");
    if (char === "P") {
      if (!source.match("<")) return namedGroupReference(source, state);
      name = source.getuntil(">", "group name");
      source.checkgroupname(name, 1);
    } else if (char === ":") {
      capture = false;
    } else if (char === "#") {
      for (;;) {
        if (source.next === null) throw source.error("missing ), unterminated comment", source.tell() - start);
        if (source.get() === ")") break;
      }
      return null;
    } else if (char === "=" || char === "!" || char === "<") {
      return parseLookaround(source, state, verbose, nested, char, start);
    } else if (char === "(") {
      return parseConditional(source, state, verbose, nested, start);
    } else if (char === ">") {
      capture = false;
      atomic = true;
    } else if (FLAG_CHARS[char] !== undefined || char === "-") {
      const flags = parseFlags(source, state, char);
      if (flags === null) {
        if (!atStart) throw source.error("global flags not at the start of the expression", source.tell() - start);
        return GLOBAL_FLAGS_SET;
      }
      [add, del] = flags;
      capture = false;
    } else {
      throw source.error("unknown extension ?" + char, char.length + 1);
    }
  }
  const group = capture ? opengroup(state, source, name) : null;
  const subVerbose = (verbose || (add & VERBOSE) !== 0) && (del & VERBOSE) === 0;
  const p = parseSub(source, state, subVerbose, nested + 1);
  if (!source.match(")")) throw source.error("missing ), unterminated subpattern", source.tell() - start);
  if (group !== null) state.groupwidths[group] = p.getwidth();
  return atomic ? { op: "ATOMIC_GROUP", p } : { op: "SUBPATTERN", group, add, del, p };
}

/** `(?P=name)` after its "(?P", or the error of any other `(?P…` but `(?P<`. */
function namedGroupReference(source: Tokenizer, state: State): Item {
  if (source.match("=")) {
    const ref = source.getuntil(")", "group name");
    source.checkgroupname(ref, 1);
    const gid = state.groupdict.get(ref);
    if (gid === undefined) throw source.error(`unknown group name ${pyQuote(ref)}`, Array.from(ref).length + 1);
    if (!checkgroup(state, gid)) throw source.error("cannot refer to an open group", Array.from(ref).length + 1);
    checklookbehindgroup(state, gid, source);
    return { op: "GROUPREF", group: gid };
  }
  const c2 = source.get();
  if (c2 === null) throw source.error("unexpected end of pattern");
  throw source.error("unknown extension ?P" + c2, c2.length + 2);
}

/** `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)` after "(?" and `char`; `start` is the position of the "(". */
function parseLookaround(source: Tokenizer, state: State, verbose: boolean, nested: number, char: string, start: number): Item {
  let dir = 1;
  let kind = char;
  let lookbehindgroups: number | null = null;
  if (char === "<") {
    const c2 = source.get();
    if (c2 === null) throw source.error("unexpected end of pattern");
    if (c2 !== "=" && c2 !== "!") throw source.error("unknown extension ?<" + c2, c2.length + 2);
    kind = c2;
    dir = -1;
    lookbehindgroups = state.lookbehindgroups;
    if (lookbehindgroups === null) state.lookbehindgroups = state.groups;
  }
  const p = parseSub(source, state, verbose, nested + 1);
  if (dir < 0 && lookbehindgroups === null) state.lookbehindgroups = null;
  if (!source.match(")")) throw source.error("missing ), unterminated subpattern", source.tell() - start);
  return { op: "ASSERT", behind: dir < 0, negate: kind === "!", p };
}

/** `(?(group)yes|no)` after its "(?("; `start` is the position of the first "(". */
function parseConditional(source: Tokenizer, state: State, verbose: boolean, nested: number, start: number): Item {
  const condname = source.getuntil(")", "group name");
  let condgroup: number;
  if (isIdentifier(condname)) {
    source.checkgroupname(condname, 1);
    const g = state.groupdict.get(condname);
    if (g === undefined) throw source.error(`unknown group name ${pyQuote(condname)}`, Array.from(condname).length + 1);
    condgroup = g;
  } else {
    // Python int(): optional sign and surrounding whitespace, Unicode digits, underscores
    const v = pyIntLiteral(condname);
    if (v === undefined || v < 0) throw source.error(`bad character in group name ${pyQuote(condname)}`, Array.from(condname).length + 1);
    condgroup = v;
    if (condgroup === 0) throw source.error("bad group number", Array.from(condname).length + 1);
    if (condgroup >= MAXGROUPS) throw source.error(`invalid group reference ${condgroup}`, Array.from(condname).length + 1);
    if (!state.grouprefpos.has(condgroup)) state.grouprefpos.set(condgroup, source.tell() - Array.from(condname).length - 1);
  }
  checklookbehindgroup(state, condgroup, source);
  const yes = parseSeq(source, state, verbose, nested + 1, false);
  let no: SubPattern | null = null;
  if (source.match("|")) {
    no = parseSeq(source, state, verbose, nested + 1, false);
    if (source.next === "|") throw source.error("conditional backref with more than two branches");
  }
  if (!source.match(")")) throw source.error("missing ), unterminated subpattern", source.tell() - start);
  return { op: "GROUPREF_EXISTS", group: condgroup, yes, no };
}

/** Unpacks non-capturing groups without flags into `data`. */
function unpackPlainGroups(data: Item[]): void {
  // in one pass (a splice per group moved the tail each time)
  const plain = (it: Item): it is Extract<Item, { op: "SUBPATTERN" }> =>
    it.op === "SUBPATTERN" && it.group === null && it.add === 0 && it.del === 0;
  if (data.some(plain)) {
    const unpacked: Item[] = [];
    for (const it of data) {
      if (plain(it)) for (const x of it.p.data) unpacked.push(x);
      else unpacked.push(it);
    }
    data.length = 0;
    for (const it of unpacked) data.push(it);
  }
}

/** Python `int(s)` for a conditional group number; undefined where it raises ValueError. */
function pyIntLiteral(s: string): number | undefined {
  const t = stripPySpace(s);
  const m = /^([+-]?)(.+)$/su.exec(t);
  if (m === null) return undefined;
  const body = m[2]!;
  let value = 0;
  let prevUnderscore = true;
  let digits = 0;
  for (const ch of body) {
    if (ch === "_") {
      if (prevUnderscore) return undefined;
      prevUnderscore = true;
      continue;
    }
    const d = pyDecimalValue(ch.codePointAt(0)!);
    if (d < 0) return undefined;
    value = value * 10 + d;
    digits++;
    prevUnderscore = false;
  }
  if (digits === 0 || prevUnderscore) return undefined;
  return m[1] === "-" ? -value : value;
}

function stripPySpace(s: string): string {
  const cps = Array.from(s);
  let a = 0;
  let b = cps.length;
  while (a < b && pyIsSpace(cps[a]!.codePointAt(0)!)) a++;
  while (b > a && pyIsSpace(cps[b - 1]!.codePointAt(0)!)) b--;
  return cps.slice(a, b).join("");
}

function parseFlags(source: Tokenizer, state: State, char: string | null): [number, number] | null {
  let add = 0;
  let del = 0;
  if (char !== "-") {
    for (;;) {
      const flag = FLAG_CHARS[char!]!;
      if (char === "L") throw source.error("bad inline flags: cannot use 'L' flag with a str pattern");
      add |= flag;
      if ((flag & TYPE_FLAGS) !== 0 && (add & TYPE_FLAGS) !== flag) {
        throw source.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      }
      char = source.get();
      if (char === null) throw source.error("missing -, : or )");
      if (char === ")" || char === "-" || char === ":") break;
      if (FLAG_CHARS[char] === undefined) {
        throw source.error(/^\p{L}+$/u.test(char) ? "unknown flag" : "missing -, : or )", char.length);
      }
    }
  }
  if (char === ")") {
    state.flags |= add;
    return null;
  }
  if ((add & GLOBAL_FLAGS) !== 0) throw source.error("bad inline flags: cannot turn on global flag", 1);
  if (char === "-") {
    char = source.get();
    if (char === null) throw source.error("missing flag");
    if (FLAG_CHARS[char] === undefined) throw source.error(/^\p{L}+$/u.test(char) ? "unknown flag" : "missing flag", char.length);
    for (;;) {
      const flag = FLAG_CHARS[char!]!;
      if ((flag & TYPE_FLAGS) !== 0) throw source.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      del |= flag;
      char = source.get();
      if (char === null) throw source.error("missing :");
      if (char === ":") break;
      if (FLAG_CHARS[char] === undefined) throw source.error(/^\p{L}+$/u.test(char) ? "unknown flag" : "missing :", char.length);
    }
  }
  if ((del & GLOBAL_FLAGS) !== 0) throw source.error("bad inline flags: cannot turn off global flag", 1);
  if ((add & del) !== 0) throw source.error("bad inline flags: flag turned on and off", 1);
  return [add, del];
}

interface Parsed {
  readonly p: SubPattern;
  readonly flags: number;
  readonly groups: number;
  readonly groupindex: ReadonlyMap<string, number>;
}

export function parse(pattern: string, flags: number, unicodeName: UnicodeNameResolver | undefined): Parsed {
  const source = new Tokenizer(pattern, unicodeName);
  const state = new State();
  state.flags = flags;
  const p = parseSub(source, state, (flags & VERBOSE) !== 0, 0);
  // fix_flags for a str pattern
  if ((state.flags & LOCALE) !== 0) throw new PythonCompatError("ValueError", "cannot use LOCALE flag with a str pattern");
  if ((state.flags & ASCII) === 0) state.flags |= UNICODE;
  else if ((state.flags & UNICODE) !== 0) throw new PythonCompatError("ValueError", "ASCII and UNICODE flags are incompatible");
  if (source.next !== null) throw source.error("unbalanced parenthesis");
  for (const [g, pos] of state.grouprefpos) {
    if (g >= state.groups) throw new PythonRegexError(`invalid group reference ${g}`, pattern, pos);
  }
  return { p, flags: state.flags, groups: state.groups - 1, groupindex: state.groupdict };
}
