// Open-addressing hash tables in scratch memory, with exact comparison (a hash collision can never
// merge two different strings or n-grams).

import { alloc, allocZero, persistBase, PERSIST_INTERN, PERSIST_NGRAM, PERSIST_BIGRAM } from "./mem";
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

// ---------------------------------------------------------------------------------------------------
// BLEU: byte-range tokens -> dense ids, and n-gram ids, in persistent epoch-stamped tables.
//
// Both tables live in the persistent arenas of mem.ts: a slot belongs to the current item only if it
// carries the current epoch, so starting an item is one increment (no clearing), across items and
// across calls. An item whose table outgrows the arena moves it to scratch (zeroed) and doubles there.

// @ts-ignore: decorator
@inline function mix64(x: u64): u64 {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93;
  x ^= x >> 32;
  return x;
}

// Token table slot (32 bytes): head u64 (first 8 bytes, zero-padded) @0, epoch u32 @8, len u32 @12,
// id u32 @16, ptr u32 @20.
const TI_ARENA_SLOTS: u32 = <u32>(PERSIST_NGRAM - PERSIST_INTERN) >> 5;
// @ts-ignore: decorator
@lazy let tiSlots: usize = 0;
// @ts-ignore: decorator
@lazy let tiMask: u32 = 0;
// @ts-ignore: decorator
@lazy let tiEpoch: u32 = 0;
// @ts-ignore: decorator
@lazy export let tiCount: u32 = 0;

/** Start an item's token table, sized for about `items` distinct tokens (it grows past half full). */
export function tokTableBegin(items: i32): void {
  let cap: u32 = 16;
  while (cap < <u32>items * 2 && cap < (1 << 24)) cap <<= 1;
  if (++tiEpoch == 0) {
    // wrapped after 2^32 items: clear the arena once
    memory.fill(persistBase() + PERSIST_INTERN, 0, <usize>TI_ARENA_SLOTS << 5);
    tiEpoch = 1;
  }
  tiSlots = cap <= TI_ARENA_SLOTS ? persistBase() + PERSIST_INTERN : allocZero(<usize>cap << 5);
  tiMask = cap - 1;
  tiCount = 0;
}

// @ts-ignore: decorator
@inline function headOf(p: usize, n: i32): u64 {
  const v = load<u64>(p);
  return n >= 8 ? v : v & ((<u64>1 << (<u64>n << 3)) - 1);
}

function hashTail(p: usize, n: i32, h: u64): u64 {
  for (let k = 8; k < n; k += 8) h = mix64(h ^ headOf(p + <usize>k, n - k));
  return h;
}

// @ts-ignore: decorator
@inline function hashBytes(p: usize, n: i32, head: u64): u64 {
  const h = mix64(head ^ (<u64>n * 0x9e3779b97f4a7c15));
  return n > 8 ? hashTail(p, n, h) : h;
}

function tokTableGrow(): void {
  const oldSlots = tiSlots;
  const oldCap = tiMask + 1;
  const cap = oldCap << 1;
  const slots = allocZero(<usize>cap << 5);
  const mask = cap - 1;
  for (let k: u32 = 0; k < oldCap; k++) {
    const o = oldSlots + (<usize>k << 5);
    if (load<u32>(o, 8) != tiEpoch) continue;
    const ptr = <usize>load<u32>(o, 20);
    const n = <i32>load<u32>(o, 12);
    let i = <u32>hashBytes(ptr, n, load<u64>(o)) & mask;
    while (load<u32>(slots + (<usize>i << 5), 8) == tiEpoch) i = (i + 1) & mask;
    memory.copy(slots + (<usize>i << 5), o, 32);
  }
  tiSlots = slots;
  tiMask = mask;
}

/**
 * The id of the token `p[0..n)` (bytes; up to 7 bytes past its end are read but ignored): added when
 * `add`, else NONE when absent. The bytes must stay in place until the item ends.
 */
export function internToken(p: usize, n: i32, add: bool): u32 {
  const head = headOf(p, n);
  const h = hashBytes(p, n, head);
  let i = <u32>h & tiMask;
  const epoch = tiEpoch;
  while (true) {
    const s = tiSlots + (<usize>i << 5);
    if (load<u32>(s, 8) != epoch) {
      if (!add) return NONE;
      if ((tiCount + 1) * 2 > tiMask + 1) {
        tokTableGrow();
        return internToken(p, n, add);
      }
      const id = tiCount++;
      store<u64>(s, head);
      store<u32>(s, epoch, 8);
      store<u32>(s, <u32>n, 12);
      store<u32>(s, id, 16);
      store<u32>(s, <u32>p, 20);
      return id;
    }
    if (load<u64>(s) == head && load<u32>(s, 12) == <u32>n) {
      if (n <= 8 || memory.compare(<usize>load<u32>(s, 20) + 8, p + 8, <usize>(n - 8)) == 0) return load<u32>(s, 16);
    }
    i = (i + 1) & tiMask;
  }
}

// N-gram id map: (id of the (n-1)-gram, token id) -> id of the n-gram. Slot (16 bytes): key u64 @0,
// epoch u32 @8, id u32 @12.
const NG_ARENA_SLOTS: u32 = <u32>(PERSIST_BIGRAM - PERSIST_NGRAM) >> 4;
// @ts-ignore: decorator
@lazy let ngSlots: usize = 0;
// @ts-ignore: decorator
@lazy let ngMask: u32 = 0;
// @ts-ignore: decorator
@lazy let ngEpoch: u32 = 0;
// @ts-ignore: decorator
@lazy let ngCount: u32 = 0;

/** Start an item's n-gram map for up to `items` entries (it grows past half full). */
export function ngramMapBegin(items: i32): void {
  let cap: u32 = 16;
  while (cap < <u32>items * 2 && cap < (1 << 20)) cap <<= 1;
  if (++ngEpoch == 0) {
    // wrapped after 2^32 items: clear the arena once
    memory.fill(persistBase() + PERSIST_NGRAM, 0, <usize>NG_ARENA_SLOTS << 4);
    ngEpoch = 1;
  }
  ngSlots = cap <= NG_ARENA_SLOTS ? persistBase() + PERSIST_NGRAM : allocZero(<usize>cap << 4);
  ngMask = cap - 1;
  ngCount = 0;
}

// @ts-ignore: decorator
@inline function ngIndex(key: u64, mask: u32): u32 {
  return (<u32>((key * 0x9e3779b97f4a7c15) >> 40)) & mask;
}

function ngramMapGrow(): void {
  const oldSlots = ngSlots;
  const oldCap = ngMask + 1;
  const cap = oldCap << 1;
  const slots = allocZero(<usize>cap << 4);
  const mask = cap - 1;
  for (let k: u32 = 0; k < oldCap; k++) {
    const o = oldSlots + (<usize>k << 4);
    if (load<u32>(o, 8) != ngEpoch) continue;
    let i = ngIndex(load<u64>(o), mask);
    while (load<u32>(slots + (<usize>i << 4), 8) == ngEpoch) i = (i + 1) & mask;
    memory.copy(slots + (<usize>i << 4), o, 16);
  }
  ngSlots = slots;
  ngMask = mask;
}

/** The id of key `(prev << 32) | tok`; when absent, `fresh` is stored and returned with `ngramAdded` set. */
// @ts-ignore: decorator
@lazy export let ngramAdded: bool = false;
export function ngramMapAdd(key: u64, fresh: u32): u32 {
  if ((ngCount + 1) * 2 > ngMask + 1) ngramMapGrow();
  let i = ngIndex(key, ngMask);
  const epoch = ngEpoch;
  while (true) {
    const s = ngSlots + (<usize>i << 4);
    if (load<u32>(s, 8) != epoch) {
      store<u64>(s, key);
      store<u32>(s, epoch, 8);
      store<u32>(s, fresh, 12);
      ngCount++;
      ngramAdded = true;
      return fresh;
    }
    if (load<u64>(s) == key) {
      ngramAdded = false;
      return load<u32>(s, 12);
    }
    i = (i + 1) & ngMask;
  }
}

/** The id of key `(prev << 32) | tok`, or NONE. */
// @ts-ignore: decorator
@inline export function ngramMapFind(key: u64): u32 {
  let i = ngIndex(key, ngMask);
  const epoch = ngEpoch;
  while (true) {
    const s = ngSlots + (<usize>i << 4);
    if (load<u32>(s, 8) != epoch) return NONE;
    if (load<u64>(s) == key) return load<u32>(s, 12);
    i = (i + 1) & ngMask;
  }
}
