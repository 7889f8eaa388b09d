// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The backtracking matcher of the `re` port.
import { MAXREPEAT } from "./flags.js";
import { atHolds } from "./positions.js";
import type { Node } from "./resolve.js";
import { type Ranges, rsHas } from "./sets.js";
import { asciiLowerCp, pyLowerCp } from "./unicode.js";

// ---------------------------------------------------------------------------------------------------
// Backtracking matcher (only for what RE2 cannot run), in _sre's order, with a step budget

type Cont = (j: number) => boolean;
export type Matcher = (i: number, k: Cont) => boolean;

export interface RunState {
  cps: number[];
  start: Int32Array;
  end: Int32Array;
  steps: number;
  budget: number;
  pattern: string;
}

// A control-flow signal caught inside the port (never seen by callers): not an Error, so no stack is captured.
export class BudgetSignal {}

export function compileMatcher(n: Node, st: () => RunState): Matcher {
  switch (n.k) {
    case "set": {
      const set = n.s;
      return (i, k) => {
        const s = st();
        tick(s);
        return i < s.cps.length && rsHas(set, s.cps[i]!) && k(i + 1);
      };
    }
    case "seq": {
      const ms = n.xs.map((x) => compileMatcher(x, st));
      if (ms.length === 0) return (i, k) => k(i);
      return ms.reduceRight<Matcher>(
        (rest, m) => (i, k) => m(i, (j) => rest(j, k)),
        (i, k) => k(i),
      );
    }
    case "alt": {
      const ms = n.xs.map((x) => compileMatcher(x, st));
      return (i, k) => {
        for (const m of ms) if (m(i, k)) return true;
        return false;
      };
    }
    case "group":
      return groupMatcher(n, st);
    case "rep":
      if (n.x.k === "set") return repeatOneMatcher(n, n.x.s, st);
      return n.mode === "possessive" ? possessiveMatcher(n, st) : untilMatcher(n, st);
    case "at": {
      const at = n.at;
      return (i, k) => atHolds(at, st().cps, i) && k(i);
    }
    case "look":
      return lookMatcher(n, st);
    case "atomic":
      return atomicMatcher(n, st);
    case "ref":
      return refMatcher(n, st);
    case "cond": {
      const yes = compileMatcher(n.yes, st);
      const no = compileMatcher(n.no, st);
      const g = n.g;
      return (i, k) => {
        const s = st();
        return s.start[g]! >= 0 && s.end[g]! >= 0 ? yes(i, k) : no(i, k);
      };
    }
  }
}

type NodeOf<K extends Node["k"]> = Extract<Node, { k: K }>;

/** One step of the budget. */
function tick(s: RunState): void {
  if (++s.steps > s.budget) throw new BudgetSignal();
}

/** A capturing group: records its span for the continuation, restores the old one when that fails. */
function groupMatcher(n: NodeOf<"group">, st: () => RunState): Matcher {
  const m = compileMatcher(n.x, st);
  const g = n.g;
  return (i, k) =>
    m(i, (j) => {
      const s = st();
      const os = s.start[g]!;
      const oe = s.end[g]!;
      s.start[g] = i;
      s.end[g] = j;
      if (k(j)) return true;
      s.start[g] = os;
      s.end[g] = oe;
      return false;
    });
}

/**
 * A repeat of one character test: count forward, then give back (REPEAT_ONE, MIN_REPEAT_ONE,
 * POSSESSIVE_REPEAT_ONE, which gives nothing back).
 */
function repeatOneMatcher(n: NodeOf<"rep">, set: Ranges, st: () => RunState): Matcher {
  const { min, max, mode } = n;
  return (i, k) => {
    const s = st();
    let avail = i;
    const limit = Math.min(s.cps.length, max === MAXREPEAT ? Infinity : i + max);
    while (avail < limit && rsHas(set, s.cps[avail]!)) {
      tick(s);
      avail++;
    }
    if (avail - i < min) return false;
    if (mode === "possessive") return k(avail);
    if (mode === "greedy") {
      for (let j = avail; j >= i + min; j--) {
        tick(s);
        if (k(j)) return true;
      }
    } else {
      for (let j = i + min; j <= avail; j++) {
        tick(s);
        if (k(j)) return true;
      }
    }
    return false;
  };
}

/**
 * POSSESSIVE_REPEAT: every iteration takes the item's first match, no backtracking into it; an iteration
 * that ends where it started is kept and ends the loop.
 */
function possessiveMatcher(n: NodeOf<"rep">, st: () => RunState): Matcher {
  const m = compileMatcher(n.x, st);
  const { min, max } = n;
  return (i, k) => {
    const s = st();
    const saveS = s.start.slice();
    const saveE = s.end.slice();
    const first = (from: number): number => {
      let end = -1;
      return m(from, (j) => {
        end = j;
        return true;
      })
        ? end
        : -1;
    };
    let pos = i;
    let count = 0;
    let ok = true;
    while (count < min) {
      tick(s);
      const r = first(pos);
      if (r < 0) {
        ok = false;
        break;
      }
      pos = r;
      count++;
    }
    if (ok) {
      let last = -1;
      while ((count < max || max === MAXREPEAT) && pos !== last) {
        tick(s);
        const iterS = s.start.slice();
        const iterE = s.end.slice();
        last = pos;
        const r = first(pos);
        if (r < 0) {
          s.start.set(iterS);
          s.end.set(iterE);
          pos = last;
          break;
        }
        pos = r;
        count++;
      }
      if (k(pos)) return true;
    }
    s.start.set(saveS);
    s.end.set(saveE);
    return false;
  };
}

/**
 * MAX_UNTIL / MIN_UNTIL: `lastPtr` is where the last optional iteration started; an optional iteration
 * that ends there (matched nothing) goes straight to the tail, captures kept.
 */
function untilMatcher(n: NodeOf<"rep">, st: () => RunState): Matcher {
  const m = compileMatcher(n.x, st);
  const { min, max, mode } = n;
  const loop = (count: number, pos: number, lastPtr: number, k: Cont): boolean => {
    tick(st());
    if (count < min) return m(pos, (j) => loop(count + 1, j, lastPtr, k));
    if (mode === "greedy") {
      if (count < max && pos !== lastPtr && m(pos, (j) => loop(count + 1, j, pos, k))) return true;
      return k(pos);
    }
    if (k(pos)) return true;
    if (count >= max || pos === lastPtr) return false;
    return m(pos, (j) => loop(count + 1, j, pos, k));
  };
  return (i, k) => loop(0, i, -1, k);
}

/** Lookahead and lookbehind (fixed width): captures kept only by a positive assertion that leads to a match. */
function lookMatcher(n: NodeOf<"look">, st: () => RunState): Matcher {
  const m = compileMatcher(n.x, st);
  const { behind, negate, width } = n;
  return (i, k) => {
    const s = st();
    const from = behind ? i - width : i;
    const saveS = s.start.slice();
    const saveE = s.end.slice();
    const ok = from >= 0 && m(from, (j) => !behind || j === i);
    if (negate) {
      s.start.set(saveS);
      s.end.set(saveE);
      return !ok && k(i);
    }
    if (ok && k(i)) return true;
    s.start.set(saveS);
    s.end.set(saveE);
    return false;
  };
}

/** An atomic group: the item's first match only. */
function atomicMatcher(n: NodeOf<"atomic">, st: () => RunState): Matcher {
  const m = compileMatcher(n.x, st);
  return (i, k) => {
    const s = st();
    const saveS = s.start.slice();
    const saveE = s.end.slice();
    let end = -1;
    if (
      !m(i, (j) => {
        end = j;
        return true;
      })
    )
      return false;
    if (k(end)) return true;
    s.start.set(saveS);
    s.end.set(saveE);
    return false;
  };
}

/** A backreference, case-folded as the flags say. */
function refMatcher(n: NodeOf<"ref">, st: () => RunState): Matcher {
  const { g, fold } = n;
  const norm = fold === "unicode" ? pyLowerCp : fold === "ascii" ? asciiLowerCp : (c: number) => c;
  return (i, k) => {
    const s = st();
    const a = s.start[g]!;
    const b = s.end[g]!;
    if (a < 0 || b < 0) return false;
    const len = b - a;
    if (i + len > s.cps.length) return false;
    for (let t = 0; t < len; t++) {
      tick(s);
      if (norm(s.cps[a + t]!) !== norm(s.cps[i + t]!)) return false;
    }
    return k(i + len);
  };
}

/** Minimum number of characters `n` consumes. */
function minWidth(n: Node): number {
  switch (n.k) {
    case "set":
      return 1;
    case "seq":
      return n.xs.reduce((a, x) => a + minWidth(x), 0);
    case "alt":
      return n.xs.length === 0 ? 0 : n.xs.reduce((least, x) => Math.min(least, minWidth(x)), Infinity);
    case "group":
    case "atomic":
      return minWidth(n.x);
    case "rep":
      return n.min * minWidth(n.x);
    case "cond":
      return Math.min(minWidth(n.yes), minWidth(n.no));
    default:
      return 0;
  }
}

const hasGroup = (n: Node): boolean =>
  n.k === "group" ||
  ((n.k === "seq" || n.k === "alt") && n.xs.some(hasGroup)) ||
  ((n.k === "rep" || n.k === "look" || n.k === "atomic") && hasGroup(n.x)) ||
  (n.k === "cond" && (hasGroup(n.yes) || hasGroup(n.no)));

/**
 * Does a capture sit in a loop whose body can match nothing? There RE2 and `_sre` set the group
 * differently (`(a*)+` on "a": RE2 (0, 1), Python (1, 1), from a last, empty iteration), so `search`
 * takes the backtracker for its groups; `test` is unaffected.
 */
export function emptyLoopCaptures(n: Node): boolean {
  switch (n.k) {
    case "rep":
      return (minWidth(n.x) === 0 && hasGroup(n.x)) || emptyLoopCaptures(n.x);
    case "seq":
    case "alt":
      return n.xs.some(emptyLoopCaptures);
    case "group":
    case "look":
    case "atomic":
      return emptyLoopCaptures(n.x);
    case "cond":
      return emptyLoopCaptures(n.yes) || emptyLoopCaptures(n.no);
    default:
      return false;
  }
}
