// The one resample splitter (resampleInRanges) behind the three resamplers: wherever it cuts, each
// resample's sums land in the same place, and progress reaches the total.
import { describe, expect, it } from "vitest";
import { resampleInRanges, type ResampleCut } from "../src/bulk/statistics-core.js";

const G = 3;
const B = 10;
const W = 2;
// the sum a resample r of group g gives for column c, as a range computation would return it
const value = (g: number, r: number, c: number) => g * 1000 + r * 10 + c;

function run(from: number, to: number): Float64Array {
  const K = to - from;
  const sums = new Float64Array(G * K * W);
  for (let g = 0; g < G; g++) for (let k = 0; k < K; k++) for (let c = 0; c < W; c++) sums[(g * K + k) * W + c] = value(g, from + k, c);
  return sums;
}

describe("resampleInRanges", () => {
  const expected = new Float64Array(G * B * W);
  for (let g = 0; g < G; g++) for (let r = 0; r < B; r++) for (let c = 0; c < W; c++) expected[(g * B + r) * W + c] = value(g, r, c);

  for (const cut of [{ tasks: 1 }, { tasks: 3 }, { tasks: 7 }, { tasks: 50 }, { step: 1 }, { step: 4 }, { step: 100 }] as ResampleCut[]) {
    it(`places every range where it belongs (${JSON.stringify(cut)})`, async () => {
      const progress: number[] = [];
      const ranges: [number, number, number][] = [];
      const out = await resampleInRanges(
        { sizes: [5, 6, 7], resamples: B, onProgress: (done, total) => progress.push(total === B ? done : -1) },
        W,
        cut,
        async (from, to, index) => {
          ranges.push([from, to, index]);
          return run(from, to);
        },
      );
      expect([...out]).toEqual([...expected]);
      expect(progress.at(-1)).toBe(B);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      const covered = ranges.map(([from, to]) => to - from).reduce((a, b) => a + b, 0);
      expect(covered).toBe(B);
      expect(ranges.every(([from, to]) => to > from)).toBe(true);
      expect(ranges.map(([, , index]) => index)).toEqual(ranges.map((_, i) => i));
    });
  }

  it("cuts near-equal ranges for a pool and `step`-long ones in turn", async () => {
    const seen: [number, number][] = [];
    await resampleInRanges(
      { sizes: [1], resamples: 10 },
      1,
      { tasks: 4 },
      (from, to) => (seen.push([from, to]), new Float64Array(to - from)),
    );
    expect(seen).toEqual([
      [0, 2],
      [2, 5],
      [5, 7],
      [7, 10],
    ]);
    seen.length = 0;
    await resampleInRanges(
      { sizes: [1], resamples: 10 },
      1,
      { step: 4 },
      (from, to) => (seen.push([from, to]), new Float64Array(to - from)),
    );
    expect(seen).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
  });

  it("does no work when there is no group or no resample", async () => {
    const never = () => {
      throw new Error("called");
    };
    expect((await resampleInRanges({ sizes: [], resamples: 10 }, 2, { tasks: 2 }, never)).length).toBe(0);
    expect((await resampleInRanges({ sizes: [3], resamples: 0 }, 2, { step: 2 }, never)).length).toBe(0);
  });
});
