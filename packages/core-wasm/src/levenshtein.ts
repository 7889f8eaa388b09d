// Levenshtein distance over code points (each of insertion, deletion, substitution costs 1), computed
// in WASM. JS peers (js-levenshtein, fastest-levenshtein, autoevals, promptfoo) count UTF-16 units, so
// for them "😀" vs "" is 2 edits; here it is 1, as Python's `len` and `Levenshtein.distance` count.
//
// Strings are passed as UTF-8, so a lone surrogate counts as one U+FFFD code point.
import { InvalidArgumentError } from "./errors.js";
import { chunks, kernels, layout, memoryViews } from "./kernel.js";
import { INPUT_LIMITS, checkCells, checkItems } from "./limits.js";
import { requireArray, requireString } from "./validate.js";

/** Distance of each pair and the longer string's code-point count. */
export interface LevenshteinBatchResult {
  /** Edit distance of pair i. */
  readonly distance: Float64Array;
  /** max(code points of a[i], code points of b[i]): the denominator of the normalised similarity. */
  readonly maxLength: Float64Array;
}

function run(a: readonly string[], b: readonly string[]): LevenshteinBatchResult {
  const n = a.length;
  checkItems(
    n,
    (i) => a[i]!,
    (i) => b[i]!,
    "a",
    "b",
    false,
  );
  for (let i = 0; i < n; i++) checkCells(a[i]!, b[i]!, INPUT_LIMITS.maxLevenshteinCells, "levenshtein", "a", i);
  const k = kernels();
  const distance = new Float64Array(n);
  const maxLength = new Float64Array(n);
  chunks(
    n,
    (i) => a[i]!.length + b[i]!.length,
    (from, to, units) => {
      const count = to - from;
      // 2 strings per pair (a then b), one f64 of output per string = 2 per pair
      const l = layout(0, 2 * count, (j) => (j & 1 ? b : a)[from + (j >> 1)]!, undefined, 1, 0, units);
      k.levenshteinBatch(count, l.bytes, l.strOffs, l.out);
      const { f64 } = memoryViews();
      const o = l.out >>> 3;
      for (let i = 0; i < count; i++) {
        distance[from + i] = f64[o + 2 * i]!;
        maxLength[from + i] = f64[o + 2 * i + 1]!;
      }
    },
  );
  return { distance, maxLength };
}

/**
 * Edit distance between `a` and `b` in code points.
 * @example levenshteinDistance("kitten", "sitting") // 3
 * @example levenshteinDistance("😀", "")           // 1 (js-levenshtein: 2)
 */
export function levenshteinDistance(a: string, b: string): number {
  requireString(a, "a");
  requireString(b, "b");
  return run([a], [b]).distance[0]!;
}

/** Distances of many pairs (`a[i]` vs `b[i]`) in one crossing, with each pair's longer length. */
export function levenshteinBatch(a: readonly string[], b: readonly string[]): LevenshteinBatchResult {
  const xs = requireArray(a, "a");
  const ys = requireArray(b, "b");
  if (xs.length !== ys.length) {
    throw new InvalidArgumentError(`a and b must have the same length: got ${xs.length} and ${ys.length}`, {
      argument: "b",
      expected: `length ${xs.length}`,
      actual: `length ${ys.length}`,
    });
  }
  for (let i = 0; i < xs.length; i++) {
    requireString(xs[i], "a", i);
    requireString(ys[i], "b", i);
  }
  return run(xs as readonly string[], ys as readonly string[]);
}
