// N-gram counts keyed by exact packed u64 keys: the ids of an n-gram's symbols (small dense ids given
// per hypothesis) shifted together, with the order index in the top 5 bits. Exact, so no compare
// against the text is needed, and cheap to roll: key(n) = key(n-1) << bits | id.
//
// Slots are stamped with an epoch instead of being cleared: a slot belongs to the current item only
// if its epoch is the current one. A batch allocates one arena sized for its largest item; each item
// uses a power-of-two prefix sized for itself, so small items stay in cache and nothing is memset.
// Slot (32 bytes): key u64, epoch u32, hyp u32, cur u32, stamp u32, refMax u32, spare u32.

import { alloc, allocZero } from "./mem";

export const ORDER_SHIFT: u64 = 59;
/** Largest arena allocated for a batch (slots); an item needing more gets its own table. */
const MAX_ARENA_SLOTS: u32 = 1 << 17;

@unmanaged
export class Packed {
  base: usize = 0; // batch arena
  baseCap: u32 = 0;
  slots: usize = 0; // the current item's table
  mask: u32 = 0;
  epoch: u32 = 0;
  list: usize = 0; // slots inserted for the current item (u32 offsets)
  count: u32 = 0;
  listCap: u32 = 0;
}

/** Items a table is first sized for; it doubles when half full (a 10 MB string has few distinct n-grams). */
const START_ITEMS: i32 = 1 << 16;

function capFor(items: i32): u32 {
  let cap: u32 = 16;
  while (cap < <u32>items * 2) cap <<= 1;
  return cap;
}

/** At the start of a batch: an arena for items of up to `maxItems` n-grams. */
export function packedArena(t: Packed, maxItems: i32): void {
  let cap = capFor(maxItems);
  if (cap > MAX_ARENA_SLOTS) cap = MAX_ARENA_SLOTS;
  t.base = allocZero(<usize>cap << 5);
  t.baseCap = cap;
  t.epoch = 0;
}

/**
 * Start an item with up to `items` distinct n-grams. Call after the item's `mark()`: a table too large
 * for the arena is allocated in the item's scratch.
 */
export function packedBegin(t: Packed, items: i32): void {
  if (items > START_ITEMS) items = START_ITEMS;
  const cap = capFor(items);
  t.epoch++;
  if (cap <= t.baseCap) {
    t.slots = t.base;
    if (t.epoch == 0) {
      // wrapped after 2^32 items: clear once
      memory.fill(t.base, 0, <usize>t.baseCap << 5);
      t.epoch = 1;
    }
  } else {
    t.slots = allocZero(<usize>cap << 5);
  }
  t.mask = cap - 1;
  t.list = alloc(<usize>cap << 1); // at most cap / 2 entries before the table grows
  t.listCap = cap >> 1;
  t.count = 0;
}

// @ts-ignore: decorator
@inline function slotIndex(key: u64, mask: u32): u32 {
  return (<u32>((key * 0x9e3779b97f4a7c15) >> 40)) & mask;
}

/** The slot index of `key` (for callers that keep a table's fields in locals). */
// @ts-ignore: decorator
@inline export function packedSlotIndex(key: u64, mask: u32): u32 {
  return slotIndex(key, mask);
}

/** How many distinct n-grams the current item's table takes before it must grow. */
// @ts-ignore: decorator
@inline export function packedRoom(t: Packed): u32 {
  return (t.mask + 1) >> 1;
}

/** Double the current item's table (and its slot list) and re-insert what it holds. */
function packedGrow(t: Packed): void {
  const cap = (t.mask + 1) << 1;
  const slots = allocZero(<usize>cap << 5);
  const mask = cap - 1;
  const list = alloc(<usize>cap << 1); // list capacity = cap / 2 entries
  for (let k: u32 = 0; k < t.count; k++) {
    const o = t.slots + (<usize>load<u32>(t.list + (<usize>k << 2)) << 5);
    let i = slotIndex(load<u64>(o), mask);
    while (load<u32>(slots + (<usize>i << 5), 8) == t.epoch) i = (i + 1) & mask;
    memory.copy(slots + (<usize>i << 5), o, 32);
    store<u32>(list + (<usize>k << 2), i);
  }
  t.slots = slots;
  t.mask = mask;
  t.list = list;
  t.listCap = cap >> 1;
}

/** Count one hypothesis n-gram; returns its slot. */
export function packedAdd(t: Packed, key: u64): usize {
  if ((t.count + 1) * 2 > t.mask + 1) packedGrow(t);
  let i = slotIndex(key, t.mask);
  const epoch = t.epoch;
  while (true) {
    const s = t.slots + (<usize>i << 5);
    if (load<u32>(s, 8) != epoch) {
      store<u64>(s, key);
      store<u32>(s, epoch, 8);
      store<u32>(s, 1, 12);
      store<u64>(s, 0, 16); // cur, stamp
      store<u32>(s, 0, 24); // refMax
      store<u32>(t.list + (<usize>t.count << 2), i);
      t.count++;
      return s;
    }
    if (load<u64>(s) == key) {
      store<u32>(s, load<u32>(s, 12) + 1, 12);
      return s;
    }
    i = (i + 1) & t.mask;
  }
}

/** The slot of `key` in the current item, or 0. */
// @ts-ignore: decorator
@inline export function packedFind(t: Packed, key: u64): usize {
  let i = slotIndex(key, t.mask);
  const epoch = t.epoch;
  while (true) {
    const s = t.slots + (<usize>i << 5);
    if (load<u32>(s, 8) != epoch) return 0;
    if (load<u64>(s) == key) return s;
    i = (i + 1) & t.mask;
  }
}

/** Slot `k` (0..count) of those inserted for the current item. */
// @ts-ignore: decorator
@inline export function packedSlot(t: Packed, k: u32): usize {
  return t.slots + (<usize>load<u32>(t.list + (<usize>k << 2)) << 5);
}

/**
 * Code point → dense id map for one item (epoch-stamped, so it is never cleared).
 * Slot (12 bytes, padded to 16): cp u32, epoch u32, id u32.
 */
@unmanaged
export class CpIds {
  slots: usize = 0;
  mask: u32 = 0;
  epoch: u32 = 0;
  count: u32 = 0;
}

export function cpIdsInit(t: CpIds, cap: u32): void {
  t.slots = allocZero(<usize>cap << 4);
  t.mask = cap - 1;
  t.epoch = 0;
}

export function cpIdsBegin(t: CpIds): void {
  t.epoch++;
  if (t.epoch == 0) {
    memory.fill(t.slots, 0, <usize>(t.mask + 1) << 4);
    t.epoch = 1;
  }
  t.count = 0;
}

/** Id of `cp`, added when `add` (returns 0xffffffff when absent and not added, or when the map is full). */
export function cpId(t: CpIds, cp: u32, add: bool): u32 {
  let i = (cp * 0x9e3779b1) >> 16 & t.mask;
  const epoch = t.epoch;
  while (true) {
    const s = t.slots + (<usize>i << 4);
    if (load<u32>(s, 4) != epoch) {
      if (!add || (t.count + 1) * 2 > t.mask + 1) return 0xffffffff;
      store<u32>(s, cp);
      store<u32>(s, epoch, 4);
      store<u32>(s, t.count, 8);
      return t.count++;
    }
    if (load<u32>(s) == cp) return load<u32>(s, 8);
    i = (i + 1) & t.mask;
  }
}
