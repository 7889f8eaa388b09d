// Raw memory management for the kernels.
//
// Layout: [static data | JS I/O region | scratch ...]. JS calls `reserve(bytes)` once per batch: it
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

function grow(end: usize): void {
  const have = (<usize>memory.size()) << 16;
  if (end <= have) {
    limit = have;
    return;
  }
  const need = <i32>((end - have + 0xffff) >> 16);
  const cur = memory.size();
  // grow geometrically so a run of slightly larger batches does not grow every time
  const want = need > cur ? need : cur;
  if (memory.grow(want) < 0) {
    if (memory.grow(need) < 0) unreachable();
  }
  limit = (<usize>memory.size()) << 16;
}

/** Start a batch: returns the start of an I/O region of `bytes` bytes; scratch begins after it. */
export function reserve(bytes: usize): usize {
  ioBase = (__heap_base + 15) & ~(<usize>15);
  top = (ioBase + bytes + 15) & ~(<usize>15);
  grow(top + 65536);
  return ioBase;
}

/** Scratch allocation, 8-byte aligned. Valid until the `release` of an earlier mark or the next `reserve`. */
// @ts-ignore: decorator
@inline export function alloc(bytes: usize): usize {
  const p = top;
  top = (p + bytes + 7) & ~(<usize>7);
  if (top > limit) grow(top);
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
