// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. Code-point sets of the `re` port.
import { MAX_CP } from "./flags.js";

// ---------------------------------------------------------------------------------------------------
// Code-point sets: sorted, disjoint, non-adjacent inclusive ranges [lo0, hi0, lo1, hi1, ...]

export type Ranges = readonly number[];
export const ALL: Ranges = [0, MAX_CP];

function rsNormalize(pairs: number[]): Ranges {
  const idx: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) idx.push(i);
  idx.sort((x, y) => pairs[x]! - pairs[y]!);
  const out: number[] = [];
  for (const i of idx) {
    const lo = pairs[i]!;
    const hi = pairs[i + 1]!;
    if (hi < lo) continue;
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1) {
      if (hi > out[n - 1]!) out[n - 1] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

export function rsPoints(points: Iterable<number>): Ranges {
  const pairs: number[] = [];
  for (const p of points) pairs.push(p, p);
  return rsNormalize(pairs);
}

export function rsUnion(...sets: Ranges[]): Ranges {
  return rsUnionOf(sets);
}

/** The union of any number of sets (an array, not arguments: a class may hold 100,000 items). */
function rsUnionOf(sets: readonly Ranges[]): Ranges {
  const pairs: number[] = [];
  for (const s of sets) for (const v of s) pairs.push(v);
  return rsNormalize(pairs);
}

/** Union of a few normalized sets by linear merges (rsUnion sorts every range; this is for big tables). */
export function rsUnionSorted(parts: readonly Ranges[]): Ranges {
  if (parts.length > 8) return rsUnionOf(parts);
  let acc: Ranges = parts[0] ?? [];
  for (let p = 1; p < parts.length; p++) {
    const a = acc;
    const b = parts[p]!;
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      let lo: number;
      let hi: number;
      if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
        lo = a[i]!;
        hi = a[i + 1]!;
        i += 2;
      } else {
        lo = b[j]!;
        hi = b[j + 1]!;
        j += 2;
      }
      const n = out.length;
      if (n > 0 && lo <= out[n - 1]! + 1) {
        if (hi > out[n - 1]!) out[n - 1] = hi;
      } else out.push(lo, hi);
    }
    acc = out;
  }
  return acc;
}

export function rsComplement(a: Ranges): Ranges {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < a.length; i += 2) {
    if (a[i]! > next) out.push(next, a[i]! - 1);
    next = a[i + 1]! + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

export function rsIntersect(a: Ranges, b: Ranges): Ranges {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]!, b[j]!);
    const hi = Math.min(a[i + 1]!, b[j + 1]!);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1]! < b[j + 1]!) i += 2;
    else j += 2;
  }
  return out;
}

export const complements = new WeakMap<Ranges, Ranges>();

export function rsMinus(a: Ranges, b: Ranges): Ranges {
  if (a.length <= 4) {
    // a few ranges minus a big table: clip each against b directly
    const out: number[] = [];
    for (let i = 0; i < a.length; i += 2) {
      let lo = a[i]!;
      const hi = a[i + 1]!;
      for (let j = 0; j < b.length && lo <= hi; j += 2) {
        if (b[j + 1]! < lo) continue;
        if (b[j]! > hi) break;
        if (b[j]! > lo) out.push(lo, b[j]! - 1);
        lo = b[j + 1]! + 1;
      }
      if (lo <= hi) out.push(lo, hi);
    }
    return out;
  }
  let c = complements.get(b);
  if (c === undefined) {
    c = rsComplement(b);
    complements.set(b, c);
  }
  return rsIntersect(a, c);
}

export function rsHas(a: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = (a.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < a[2 * mid]!) hi = mid - 1;
    else if (cp > a[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

export function* rsEach(a: Ranges): Generator<number> {
  for (let i = 0; i < a.length; i += 2) for (let c = a[i]!; c <= a[i + 1]!; c++) yield c;
}
