// Open-addressing hash tables in scratch memory, with exact comparison (a hash collision can never
// merge two different strings or n-grams).

import { alloc } from "./mem";
import { cpsEqual, hashRange, mix, finish } from "./text";

export const NONE: u32 = 0xffffffff;

// Tables start at a capacity for min(expected, START_ITEMS) items and double when half full, so a
// 10 MB string with few distinct n-grams does not reserve a table for millions of them.
const START_ITEMS: i32 = 8192;

function capacityFor(items: i32): u32 {
  if (items > START_ITEMS) items = START_ITEMS;
  let cap: u32 = 16;
  while (cap < <u32>items * 2) cap <<= 1;
  return cap;
}

/**
 * Interning: code-point ranges -> dense ids 0, 1, 2, ...
 * Slot (16 bytes): hash, id+1 (0 = empty), ptr, len.
 */
@unmanaged
export class Intern {
  slots: usize = 0;
  mask: u32 = 0;
  count: u32 = 0;
}

export function internInit(t: Intern, maxItems: i32): void {
  const cap = capacityFor(maxItems);
  const bytes = <usize>cap << 4;
  t.slots = alloc(bytes);
  memory.fill(t.slots, 0, bytes);
  t.mask = cap - 1;
  t.count = 0;
}

/** Id of `p[0..n)`, adding it when `add`; NONE when absent and not added. */
function internGrow(t: Intern): void {
  const oldSlots = t.slots;
  const oldCap = t.mask + 1;
  const cap = oldCap << 1;
  const bytes = <usize>cap << 4;
  t.slots = alloc(bytes);
  memory.fill(t.slots, 0, bytes);
  t.mask = cap - 1;
  for (let k: u32 = 0; k < oldCap; k++) {
    const o = oldSlots + (<usize>k << 4);
    if (load<u32>(o, 4) == 0) continue;
    let i = load<u32>(o) & t.mask;
    while (load<u32>(t.slots + (<usize>i << 4), 4) != 0) i = (i + 1) & t.mask;
    memory.copy(t.slots + (<usize>i << 4), o, 16);
  }
}

export function intern(t: Intern, p: usize, n: i32, add: bool): u32 {
  if (add && (t.count + 1) * 2 > t.mask + 1) internGrow(t);
  const h = hashRange(p, n);
  let i = h & t.mask;
  while (true) {
    const s = t.slots + (<usize>i << 4);
    const idp1 = load<u32>(s, 4);
    if (idp1 == 0) {
      if (!add) return NONE;
      const id = t.count++;
      store<u32>(s, h);
      store<u32>(s, id + 1, 4);
      store<u32>(s, <u32>p, 8);
      store<u32>(s, <u32>n, 12);
      return id;
    }
    if (load<u32>(s) == h && load<u32>(s, 12) == <u32>n && cpsEqual(<usize>load<u32>(s, 8), p, n)) return idp1 - 1;
    i = (i + 1) & t.mask;
  }
}

/**
 * N-gram counts over a symbol array (code points or token ids), keyed by (position in the hypothesis
 * symbol array, order). The hypothesis n-grams are inserted; reference n-grams are only looked up,
 * since an n-gram absent from the hypothesis can never match.
 * Slot (32 bytes): hash, pos+1 (0 = empty), n, hypCount, refMax, cur, stamp, spare.
 */
@unmanaged
export class Ngrams {
  slots: usize = 0;
  mask: u32 = 0;
  syms: usize = 0;
  count: u32 = 0;
}

export function ngramsInit(t: Ngrams, maxItems: i32, syms: usize): void {
  const cap = capacityFor(maxItems);
  const bytes = <usize>cap << 5;
  t.slots = alloc(bytes);
  memory.fill(t.slots, 0, bytes);
  t.mask = cap - 1;
  t.syms = syms;
  t.count = 0;
}

// @ts-ignore: decorator
@inline export function ngramHashStart(): u32 {
  return 0x811c9dc5;
}
// @ts-ignore: decorator
@inline export function ngramHashStep(h: u32, sym: u32): u32 {
  return mix(h, sym);
}
// @ts-ignore: decorator
@inline export function ngramHashFinal(h: u32, n: i32): u32 {
  return finish(h ^ (<u32>n * 0x9e3779b1));
}

function ngramsGrow(t: Ngrams): void {
  const oldSlots = t.slots;
  const oldCap = t.mask + 1;
  const cap = oldCap << 1;
  const bytes = <usize>cap << 5;
  t.slots = alloc(bytes);
  memory.fill(t.slots, 0, bytes);
  t.mask = cap - 1;
  for (let k: u32 = 0; k < oldCap; k++) {
    const o = oldSlots + (<usize>k << 5);
    if (load<u32>(o, 4) == 0) continue;
    let i = load<u32>(o) & t.mask;
    while (load<u32>(t.slots + (<usize>i << 5), 4) != 0) i = (i + 1) & t.mask;
    memory.copy(t.slots + (<usize>i << 5), o, 32);
  }
}

/** Count one hypothesis n-gram `syms[pos..pos+n)` with final hash `h`; returns its slot. */
export function ngramsAddHyp(t: Ngrams, pos: i32, n: i32, h: u32): usize {
  if ((t.count + 1) * 2 > t.mask + 1) ngramsGrow(t);
  let i = h & t.mask;
  const key = t.syms + (<usize>pos << 2);
  while (true) {
    const s = t.slots + (<usize>i << 5);
    const posp1 = load<u32>(s, 4);
    if (posp1 == 0) {
      store<u32>(s, h);
      store<u32>(s, <u32>pos + 1, 4);
      store<u32>(s, <u32>n, 8);
      store<u32>(s, 1, 12);
      t.count++;
      return s;
    }
    if (load<u32>(s) == h && load<u32>(s, 8) == <u32>n && cpsEqual(t.syms + (<usize>(posp1 - 1) << 2), key, n)) {
      store<u32>(s, load<u32>(s, 12) + 1, 12);
      return s;
    }
    i = (i + 1) & t.mask;
  }
}

/** Slot of the n-gram `p[0..n)` (from another symbol array) with final hash `h`, or 0. */
export function ngramsFind(t: Ngrams, p: usize, n: i32, h: u32): usize {
  let i = h & t.mask;
  while (true) {
    const s = t.slots + (<usize>i << 5);
    const posp1 = load<u32>(s, 4);
    if (posp1 == 0) return 0;
    if (load<u32>(s) == h && load<u32>(s, 8) == <u32>n && cpsEqual(t.syms + (<usize>(posp1 - 1) << 2), p, n)) return s;
    i = (i + 1) & t.mask;
  }
}

// slot field accessors
// @ts-ignore: decorator
@inline export function slotN(s: usize): i32 { return <i32>load<u32>(s, 8); }
// @ts-ignore: decorator
@inline export function slotHyp(s: usize): u32 { return load<u32>(s, 12); }
// @ts-ignore: decorator
@inline export function slotRefMax(s: usize): u32 { return load<u32>(s, 16); }
// @ts-ignore: decorator
@inline export function setSlotRefMax(s: usize, v: u32): void { store<u32>(s, v, 16); }
// @ts-ignore: decorator
@inline export function slotCur(s: usize): u32 { return load<u32>(s, 20); }
// @ts-ignore: decorator
@inline export function setSlotCur(s: usize, v: u32): void { store<u32>(s, v, 20); }
// @ts-ignore: decorator
@inline export function slotStamp(s: usize): u32 { return load<u32>(s, 24); }
// @ts-ignore: decorator
@inline export function setSlotStamp(s: usize, v: u32): void { store<u32>(s, v, 24); }
/** Bytes per slot, and the slot count, for iterating over the table. */
export const SLOT_BYTES: usize = 32;
export function ngramsCapacity(t: Ngrams): u32 { return t.mask + 1; }
