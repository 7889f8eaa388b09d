// Exact summation (Shewchuk's algorithm, as CPython's `math.fsum`). A column is summed into a short
// list of non-overlapping partials that represent the exact sum; `fsumValue` rounds it once. The result
// does not depend on the order of the additions, so corpus statistics summed per chunk, per worker, per
// shard or after a resume all give bit-identical totals, and shard summaries merge exactly.

/** Add `x` (finite) to the exact sum held in `partials` (modified in place). */
export function fsumAdd(partials: number[], x: number): void {
  let i = 0;
  for (let j = 0; j < partials.length; j++) {
    let y = partials[j]!;
    if (Math.abs(x) < Math.abs(y)) {
      const t = x;
      x = y;
      y = t;
    }
    const hi = x + y;
    const lo = y - (hi - x);
    if (lo !== 0) partials[i++] = lo;
    x = hi;
  }
  // resizing an array is a builtin call: only do it when the partials count changes
  partials[i] = x;
  if (partials.length !== i + 1) partials.length = i + 1;
}

/** Add every partial of `from` into `into`. */
export function fsumMerge(into: number[], from: readonly number[]): void {
  for (const x of from) if (x !== 0) fsumAdd(into, x);
}

/** The exact sum rounded to the nearest double (ties to even), as `math.fsum` returns it. */
export function fsumValue(partials: readonly number[]): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  // Make half-even rounding work across multiple partials: if the remaining partials have the same
  // sign as `lo`, the exact sum is beyond the halfway point and `hi` must move by one ulp.
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    const yr = x - hi;
    if (y === yr) hi = x;
  }
  return hi;
}

/** Exact column sums of an n × width matrix, one partials list per column. */
export class ColumnSums {
  readonly partials: number[][];
  constructor(
    readonly width: number,
    partials?: readonly (readonly number[])[],
  ) {
    this.partials = partials ? partials.map((p) => p.slice()) : Array.from({ length: width }, () => []);
  }
  addRow(values: ArrayLike<number>, offset: number): void {
    for (let j = 0; j < this.width; j++) {
      const v = values[offset + j]!;
      if (v !== 0) fsumAdd(this.partials[j]!, v);
    }
  }
  merge(other: readonly (readonly number[])[]): void {
    for (let j = 0; j < this.width; j++) fsumMerge(this.partials[j]!, other[j]!);
  }
  values(): Float64Array {
    const out = new Float64Array(this.width);
    for (let j = 0; j < this.width; j++) out[j] = fsumValue(this.partials[j]!);
    return out;
  }
}
