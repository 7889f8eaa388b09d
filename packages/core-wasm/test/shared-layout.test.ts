// sharedPairBatch: the kernels of one batch read strings laid out once. Results must equal separate
// calls exactly (same kernels, same bytes), the strings are encoded once, and anything that reuses the
// I/O region in between (a numeric kernel, another batch) makes the next kernel lay the batch out again.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  bleuScoresFromStatisticsBatch,
  bleuStatisticsBatch,
  chrfStatisticsBatch,
  ready,
  rougeBatch,
  sharedPairBatch,
  tokenF1Batch,
} from "../src/index.js";
import { readJsonl } from "./shared.js";

let hyps: string[];
let refs: string[][];

beforeAll(async () => {
  await ready();
  const rows = await readJsonl<{ hyp: string; refs: string[] }>("golden/pairs.jsonl"); // edge cases: empty strings, scripts, emoji
  hyps = rows.map((r) => r.hyp);
  refs = rows.map((r) => r.refs);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const all = (h: string[], r: string[][]): Float64Array[] => [
  bleuStatisticsBatch(h, r),
  bleuStatisticsBatch(h, r, { tokenize: "intl", lowercase: true }),
  chrfStatisticsBatch(h, r),
  chrfStatisticsBatch(h, r, { wordOrder: 2 }),
  rougeBatch(h, r, {
    types: ["rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rouge6", "rouge7", "rouge8", "rouge9", "rougeL", "rougeLsum"],
    useStemmer: true,
  }),
  tokenF1Batch(h, r),
  tokenF1Batch(h, r, { mode: "byob" }),
];

describe("sharedPairBatch", () => {
  it("gives exactly the results of separate calls", () => {
    const separate = all(hyps, refs);
    const together = sharedPairBatch(hyps, refs, () => all(hyps, refs));
    expect(together).toEqual(separate);
  });

  it("encodes each string once for all the kernels of the batch", () => {
    const strings = hyps.length + refs.reduce((a, r) => a + r.length, 0);
    const spy = vi.spyOn(TextEncoder.prototype, "encodeInto");
    all(hyps, refs);
    expect(spy.mock.calls.length).toBe(7 * strings);
    spy.mockClear();
    sharedPairBatch(hyps, refs, () => all(hyps, refs));
    expect(spy.mock.calls.length).toBe(strings);
  });

  it("lays the batch out again after another use of the I/O region, and leaves other batches alone", () => {
    const want = all(hyps, refs);
    const got = sharedPairBatch(hyps, refs, () => {
      const a = bleuStatisticsBatch(hyps, refs);
      bleuScoresFromStatisticsBatch(a); // a numeric kernel reuses the I/O region
      const other = tokenF1Batch(["a b"], [["a c"]]); // another batch: its own layout
      expect(Array.from(other)).toEqual(Array.from(tokenF1Batch(["a b"], [["a c"]])));
      return [a, ...all(hyps, refs).slice(1)];
    });
    expect(got).toEqual(want);
  });
});
