// Levenshtein kernel (assembly/levenshtein.ts): known values, code points rather than UTF-16 units,
// all three algorithms (one-word bit-parallel for remainders of at most 64 code points, Myers' blocks
// beyond, the one-row DP when the block masks would be too large), and property tests against a
// pure-TS dynamic programme.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../src/errors.js";
import { ready } from "../src/kernel.js";
import { levenshteinBatch, levenshteinDistance } from "../src/levenshtein.js";

beforeAll(async () => {
  await ready();
});

/** Reference: the textbook full-matrix dynamic programme over code points. */
function reference(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...new Array<number>(y.length).fill(0)]);
  for (let j = 0; j <= y.length; j++) d[0]![j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
  }
  return d[x.length]![y.length]!;
}

describe("levenshteinDistance", () => {
  it("known values", () => {
    expect(levenshteinDistance("kitten", "sitting")).toBe(3);
    expect(levenshteinDistance("flaw", "lawn")).toBe(2);
    expect(levenshteinDistance("", "")).toBe(0);
    expect(levenshteinDistance("abc", "")).toBe(3);
    expect(levenshteinDistance("", "abc")).toBe(3);
    expect(levenshteinDistance("abc", "abc")).toBe(0);
    expect(levenshteinDistance("gumbo", "gambol")).toBe(2);
    expect(levenshteinDistance("Saturday", "Sunday")).toBe(3);
  });

  it("counts code points, not UTF-16 units", () => {
    expect(levenshteinDistance("😀", "")).toBe(1);
    expect(levenshteinDistance("😀", "😁")).toBe(1); // same high surrogate: 1 unit apart in UTF-16 too
    expect(levenshteinDistance("a😀b", "ab")).toBe(1);
    expect(levenshteinDistance("👍🏽", "👍")).toBe(1);
    expect(levenshteinDistance("e\u0301", "é")).toBe(2); // no normalisation: 2 code points vs 1
  });

  it("a lone surrogate counts as one U+FFFD", () => {
    expect(levenshteinDistance("\ud800", "\ufffd")).toBe(0);
    expect(levenshteinDistance("a\udc00", "a")).toBe(1);
  });

  it("both algorithms around the 64-code-point boundary", () => {
    for (const m of [63, 64, 65, 130]) {
      const a = "x".repeat(m);
      const b = "y".repeat(m);
      expect(levenshteinDistance(a, b)).toBe(m);
      expect(levenshteinDistance(a, a.slice(1))).toBe(1);
      const c = Array.from({ length: m }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7) % 50))).join("");
      const d = Array.from({ length: m + 3 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 11) % 50))).join("");
      expect(levenshteinDistance(c, d)).toBe(reference(c, d));
    }
  });

  it("equals the reference on random strings (short and long, small alphabets)", () => {
    const alphabet = fc.constantFrom("a", "b", "c", "é", "😀", "東", " ");
    const str = (max: number) => fc.array(alphabet, { maxLength: max }).map((x) => x.join(""));
    fc.assert(
      fc.property(str(20), str(20), (a, b) => levenshteinDistance(a, b) === reference(a, b)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(str(150), str(150), (a, b) => levenshteinDistance(a, b) === reference(a, b)),
      { numRuns: 150 },
    );
    fc.assert(
      fc.property(str(400), str(400), (a, b) => levenshteinDistance(a, b) === reference(a, b)),
      { numRuns: 40 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 90 }),
        fc.string({ unit: "binary", maxLength: 90 }),
        (a, b) => levenshteinDistance(a, b) === reference(a, b),
      ),
      { numRuns: 300 },
    );
  });

  it("is symmetric and a metric on random strings", () => {
    const s = fc.string({ unit: "grapheme", maxLength: 30 });
    fc.assert(
      fc.property(s, s, s, (a, b, c) => {
        const ab = levenshteinDistance(a, b);
        return ab === levenshteinDistance(b, a) && ab <= levenshteinDistance(a, c) + levenshteinDistance(c, b);
      }),
      { numRuns: 300 },
    );
  });

  it("batch equals per pair, with each pair's longer length", () => {
    const a = Array.from({ length: 70000 }, (_, i) => `item ${i} 😀`.repeat(1 + (i % 3)));
    const b = Array.from({ length: 70000 }, (_, i) => `item ${i * 7} 😁`);
    const r = levenshteinBatch(a, b);
    for (let i = 0; i < a.length; i += 1231) {
      expect(r.distance[i]).toBe(levenshteinDistance(a[i]!, b[i]!));
      expect(r.maxLength[i]).toBe(Math.max(Array.from(a[i]!).length, Array.from(b[i]!).length));
    }
    expect(levenshteinBatch([], []).distance.length).toBe(0);
  });

  it("handles long inputs", () => {
    const a = "ab".repeat(2000);
    const b = "ba".repeat(2000);
    expect(levenshteinDistance(a, b)).toBe(2);
    expect(levenshteinDistance("x".repeat(3000), "y".repeat(2000))).toBe(3000);
    // 401 positions of a periodic 40,000-code-point string replaced by "z": each needs one edit, and
    // substituting them is enough (blocks path: 625 words per column)
    const long = "ab".repeat(20000);
    const edited = Array.from(long, (ch, i) => (i % 100 === 0 || i === long.length - 1 ? "z" : ch)).join("");
    expect(levenshteinDistance(long, edited)).toBe(401);
  });

  it("falls back to the one-row DP when the block masks would pass 64 MB", () => {
    // 24,000 distinct code points: masks of 24,000 × 375 words = 72 MB; edits at both ends defeat the
    // prefix/suffix strip
    const a = Array.from({ length: 24000 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
    const b = "x" + a.slice(1, -1) + "y";
    expect(levenshteinDistance(a, b)).toBe(2);
  }, 120_000);

  it("rejects wrong shapes with typed errors", () => {
    expect(() => levenshteinDistance(1 as unknown as string, "a")).toThrow(InvalidArgumentError);
    expect(() => levenshteinBatch(["a"], ["a", "b"])).toThrow(InvalidArgumentError);
    expect(() => levenshteinBatch(["a"], [null as unknown as string])).toThrow(InvalidArgumentError);
    expect(() => levenshteinBatch("a" as unknown as string[], ["a"])).toThrow(InvalidArgumentError);
  });
});
