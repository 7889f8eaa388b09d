// Raw memory management for the kernels.
//
// Layout: [static data | persistent arenas | JS I/O region | scratch ...]. The persistent arenas (a
// fixed PERSIST_BYTES) keep epoch-stamped tables across calls. JS calls `reserve(bytes)` once per batch: it
// gets the I/O region (strings, offset tables, numeric inputs and outputs, laid out by the JS side),
// and everything after it is scratch. Kernels take scratch with `alloc`, and hand it back per item with
// `mark`/`release`, so memory use is bounded by the largest batch plus the largest single item, never
// by the number of calls. No managed objects (`new`) are used on hot paths: the runtime is `stub`.

// @ts-ignore: decorator
@lazy let ioBase: usize = 0;
// @ts-ignore: decorator
@lazy let top: usize = 0;
// @ts-ignore: decorator
@lazy let limit: usize = 0;

/**
 * The highest address the I/O region and scratch may reach: 1 GiB (`INPUT_LIMITS.maxMemoryBytes` on
 * the JS side). Past it the call is refused ("input too large: memory") instead of growing the memory
 * further; being far below 4 GiB, `top` plus an allocation can never wrap around either (an address
 * that wrapped made the next store trap with "memory access out of bounds").
 */
const MAX_END: u64 = 1 << 30;

/**
 * Largest single scratch table a kernel may ask for through `allocTable` (match masks, DP tables whose
 * size is a product of two lengths): beyond it the input is refused rather than the memory grown.
 */
const MAX_TABLE: u64 = 512 << 20;

/**
 * Ends the call with a typed error on the JS side (the loader's `abort` import maps these messages):
 * "out of memory" when the host refuses to grow the memory, "input too large: memory" past MAX_END,
 * "input too large: table" when one table would exceed MAX_TABLE.
 */
export function fail(message: string): void {
  abort(message, null, 0, 0);
  unreachable();
}

function grow(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) {
    limit = have;
    return;
  }
  const need = <i32>((end - have + 0xffff) >> 16);
  const cur = memory.size();
  // grow geometrically so a run of slightly larger batches does not grow every time, but by at most
  // 64 MiB beyond what is needed (doubling a 1 GiB memory for one huge input would waste a gigabyte)
  let want = need > cur ? need : cur;
  if (want > need + 1024) want = need + 1024;
  if (memory.grow(want) < 0) {
    if (memory.grow(need) < 0) fail("out of memory");
  }
  limit = (<usize>memory.size()) << 16;
}

/**
 * Persistent arenas: a fixed region between the static data and the I/O region that no call overwrites,
 * zero when the instance starts. Kernels carve fixed parts of it (see PERSIST_* below) for tables
 * whose slots carry an epoch stamp, so a call neither allocates nor clears them.
 */
export const PERSIST_BYTES: usize = 384 << 10;
/** BLEU's token interning table (hash.ts): 64 KiB. */
export const PERSIST_INTERN: usize = 0;
/** BLEU's n-gram id map (hash.ts): 128 KiB. */
export const PERSIST_NGRAM: usize = 64 << 10;
/** BLEU's direct bigram table (bleu.ts): 64 KiB. */
export const PERSIST_BIGRAM: usize = 192 << 10;
/** chrF's per-call occurrence masks (chrf-bits.ts `charMasksInitAt`): 64 KiB. */
export const PERSIST_CHRF: usize = 256 << 10;
/** Token F1's table of the prediction's tokens (f1.ts): the last 64 KiB. */
export const PERSIST_FREE: usize = 320 << 10;

// @ts-ignore: decorator
@inline export function persistBase(): usize {
  return (__heap_base + 15) & ~(<usize>15);
}

/** Start a batch: returns the start of an I/O region of `bytes` bytes; scratch begins after it. */
export function reserve(bytes: usize): usize {
  ioBase = persistBase() + PERSIST_BYTES;
  if (<u64>ioBase + <u64>bytes + 65536 > MAX_END) fail("input too large: memory");
  top = (ioBase + bytes + 15) & ~(<usize>15);
  grow(top + 65536);
  return ioBase;
}

/** Scratch allocation, 8-byte aligned. Valid until the `release` of an earlier mark or the next `reserve`. */
// @ts-ignore: decorator
@inline export function alloc(bytes: usize): usize {
  const p = top;
  top = (p + bytes + 7) & ~(<usize>7);
  if (top > limit || top < p) growTo(p, bytes);
  return p;
}

function growTo(p: usize, bytes: usize): void {
  if (<u64>p + <u64>bytes + 7 > MAX_END) fail("input too large: memory");
  grow(top);
}

/**
 * A scratch table of `bytes` bytes computed in 64 bits (a product of two lengths can exceed 32 bits):
 * refused with "input too large" past MAX_TABLE, zero-filled when `zero`.
 */
export function allocTable(bytes: u64, zero: bool): usize {
  if (bytes > MAX_TABLE) fail("input too large: table");
  const p = alloc(<usize>bytes);
  if (zero) memory.fill(p, 0, <usize>bytes);
  return p;
}


/** Scratch allocation filled with zeros. */
export function allocZero(bytes: usize): usize {
  const p = alloc(bytes);
  memory.fill(p, 0, bytes);
  return p;
}

// @ts-ignore: decorator
@inline export function mark(): usize {
  return top;
}

// @ts-ignore: decorator
@inline export function release(m: usize): void {
  top = m;
}
