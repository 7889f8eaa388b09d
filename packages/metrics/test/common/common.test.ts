// @evalkern/metrics/common: Levenshtein over code points and the autoevals-style scorers. Expected
// values follow autoevals' JS formulas (js/string.ts, number.ts, json.ts, list.ts); on ASCII text code
// points and UTF-16 units agree, so those numbers are autoevals' own.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { maxWeightAssignment } from "../../src/common/assignment.js";
import {
  JSONDiff,
  Levenshtein,
  ListContains,
  NumericDiff,
  levenshtein,
  levenshteinBatch,
  levenshteinSimilarity,
  levenshteinSimilarityBatch,
  numericDiff,
  ready,
  type Score,
} from "../../src/common/index.js";
import { InvalidArgumentError } from "../../src/errors.js";

beforeAll(async () => {
  await ready();
});

describe("levenshtein", () => {
  it("distance and similarity, in code points", () => {
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshteinSimilarity("kitten", "sitting")).toBe(1 - 3 / 7);
    expect(levenshteinSimilarity("", "")).toBe(1);
    expect(levenshteinSimilarity("abc", "")).toBe(0);
    // UTF-16 based peers: "😀" vs "" is 2 edits; "a😀" vs "a😁" is 1 of 3 units (similarity 2/3)
    expect(levenshtein("😀", "")).toBe(1);
    expect(levenshteinSimilarity("a😀", "a😁")).toBe(0.5);
    expect(levenshteinSimilarity("👍🏽", "👍")).toBe(0.5);
  });

  it("batch forms", () => {
    expect(Array.from(levenshteinBatch(["abc", "x"], ["abd", ""]))).toEqual([1, 1]);
    expect(Array.from(levenshteinSimilarityBatch(["abc", "", "x"], ["abd", "", ""]))).toEqual([1 - 1 / 3, 1, 0]);
  });

  it("typed errors", () => {
    expect(() => levenshtein(1 as unknown as string, "")).toThrow(InvalidArgumentError);
    expect(() => levenshteinBatch(["a"], [])).toThrow(InvalidArgumentError);
  });
});

describe("Levenshtein scorer", () => {
  it("has autoevals' shape and formula", () => {
    const s = Levenshtein({ output: "color", expected: "colour" });
    expect(s).toEqual({ name: "Levenshtein", score: 1 - 1 / 6, metadata: { distance: 1, maxLength: 6 } });
    expect(Levenshtein({ output: "", expected: "" }).score).toBe(1);
  });

  it("stringifies non-strings like autoevals (`${x}`), requires expected", () => {
    expect(Levenshtein({ output: 123, expected: "123" }).score).toBe(1);
    expect(Levenshtein({ output: null, expected: "null" }).score).toBe(1);
    expect(() => Levenshtein({ output: "a" })).toThrow(InvalidArgumentError);
    expect(() => Levenshtein({ output: Symbol("x"), expected: "x" })).toThrow(InvalidArgumentError);
  });
});

describe("NumericDiff", () => {
  it("autoevals' formula", () => {
    expect(numericDiff(0, 0)).toBe(1);
    expect(numericDiff(-0, 0)).toBe(1);
    expect(numericDiff(9, 10)).toBe(1 - 1 / 19);
    expect(numericDiff(5, 5)).toBe(1);
    expect(numericDiff(-3, 3)).toBe(0);
    expect(numericDiff(0, 7)).toBe(0);
    expect(NumericDiff({ output: 1, expected: 2 })).toEqual({ name: "NumericDiff", score: 1 - 1 / 3, metadata: {} });
  });

  it("never NaN: non-finite inputs throw, overflowing sums are rescaled", () => {
    expect(() => numericDiff(NaN, 1)).toThrow(InvalidArgumentError);
    expect(() => numericDiff(1, Infinity)).toThrow(InvalidArgumentError);
    expect(() => NumericDiff({ output: "1" as unknown as number, expected: 1 })).toThrow(InvalidArgumentError);
    expect(() => NumericDiff({ output: 1 })).toThrow(InvalidArgumentError);
    expect(numericDiff(1e308, -1e308)).toBe(0);
    expect(numericDiff(1.5e308, 1e308)).toBe(0.8);
    expect(numericDiff(Number.MAX_VALUE, Number.MAX_VALUE)).toBe(1);
  });

  it("stays in [0, 1] for any finite pair", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }), (a, b) => {
        const s = numericDiff(a, b);
        return s >= 0 && s <= 1;
      }),
      { numRuns: 2000 },
    );
  });
});

describe("JSONDiff", () => {
  const score = (output: unknown, expected: unknown) => JSONDiff({ output, expected }).score;

  it("objects: mean over the union of keys, key order irrelevant", () => {
    expect(score({ a: "cat", b: 1 }, { b: 1, a: "bat" })).toBe((1 - 1 / 3 + 1) / 2);
    expect(score({ a: 1 }, { a: 1, b: 2 })).toBe(0.5); // missing key: undefined vs 2 → 0
    expect(score({ a: null }, { b: undefined })).toBe(1);
    expect(score({}, {})).toBe(1);
    expect(score({ x: { y: [1, 2] } }, { x: { y: [1, 2] } })).toBe(1);
  });

  it("arrays: common prefix summed, divided by the longer length", () => {
    expect(score([1, 2, 3], [1, 2])).toBe(2 / 3);
    expect(score([], [])).toBe(1);
    expect(score([], [1])).toBe(0);
    expect(score(["abcd"], ["abce"])).toBe(0.75);
  });

  it("scalars and mixed kinds", () => {
    expect(score("abc", "abc")).toBe(1);
    expect(score(9, 10)).toBe(1 - 1 / 19);
    expect(score(null, undefined)).toBe(1);
    expect(score(null, 0)).toBe(0);
    expect(score(true, true)).toBe(1); // JSON text "true" vs "true"
    expect(score(true, false)).toBe(1 - 4 / 5); // "true" vs "false": distance 4
    expect(score(1, "1")).toBe(1 - 2 / 3); // "1" vs "\"1\""
    expect(score({ b: 1, a: 2 }, [2, 1])).toBe(JSONDiff({ output: '{"a":2,"b":1}', expected: "[2,1]" }).score);
  });

  it("custom scorers, which must be synchronous; null scores are left out", () => {
    const exact = ({ output, expected }: { output: string; expected?: string }): Score => ({
      name: "exact",
      score: output === expected ? 1 : 0,
      metadata: {},
    });
    expect(JSONDiff({ output: { a: "x", b: "y" }, expected: { a: "x", b: "z" }, stringScorer: exact }).score).toBe(0.5);
    const abstain = (): Score => ({ name: "abstain", score: null, metadata: {} });
    expect(JSONDiff({ output: { a: "x", b: 1 }, expected: { a: "y", b: 1 }, stringScorer: abstain }).score).toBe(1);
    expect(JSONDiff({ output: { a: "x" }, expected: { a: "y" }, stringScorer: abstain }).score).toBe(null); // autoevals: NaN
    const asyncScorer = (async () => ({ name: "x", score: 1, metadata: {} })) as unknown as () => Score;
    expect(() => JSONDiff({ output: "a", expected: "b", stringScorer: asyncScorer })).toThrow(InvalidArgumentError);
  });

  it("rejects non-JSON values", () => {
    expect(() => score({ f: () => 1 }, { f: 1 })).toThrow(InvalidArgumentError);
    expect(() => score(1n, 1)).toThrow(InvalidArgumentError);
    expect(() => score(NaN, 1)).toThrow(InvalidArgumentError);
  });
});

describe("ListContains", () => {
  it("pairs items one-to-one for the best total", () => {
    const r = ListContains({ output: ["paris", "rome"], expected: ["rome", "paris", "oslo"] });
    expect(r.name).toBe("ListContains");
    expect(r.score).toBe(2 / 3);
    expect(r.metadata.pairs).toEqual([
      { output: "paris", expected: "paris", score: 1 },
      { output: "rome", expected: "rome", score: 1 },
    ]);
    expect(ListContains({ output: ["paris", "rome"], expected: ["rome", "paris", "oslo"], allowExtraEntities: true }).score).toBe(2 / 3);
    expect(ListContains({ output: ["a", "b", "c"], expected: ["a"], allowExtraEntities: true }).score).toBe(1);
    expect(ListContains({ output: ["a", "b", "c"], expected: ["a"] }).score).toBe(1 / 3);
  });

  it("maximises the total, not each item greedily", () => {
    expect(ListContains({ output: ["ab", "xb"], expected: ["xy", "ab"] }).score).toBe((1 + 0.5) / 2);
    // equal totals (0.5 + 1 and 0.75 + 0.75) give the same score whichever pairing is picked
    expect(ListContains({ output: ["aaaa", "aaab"], expected: ["aaab", "aabb"] }).score).toBe(0.75);
    // greedy would give r0 its best column c0 (0.9) and leave r1 with c1 (0.1): 1.0 in total;
    // the optimum pairs r0↔c1 (0.8) and r1↔c0 (0.85): 1.65
    const sims: Record<string, number> = { "r0|c0": 0.9, "r0|c1": 0.8, "r1|c0": 0.85, "r1|c1": 0.1 };
    const table = ({ output, expected }: { output: string; expected?: string }): Score => ({
      name: "table",
      score: sims[`${output}|${expected}`]!,
      metadata: {},
    });
    const t = ListContains({ output: ["r0", "r1"], expected: ["c0", "c1"], pairwiseScorer: table });
    expect(t.score).toBe((0.8 + 0.85) / 2);
    expect(t.metadata.pairs).toEqual([
      { output: "r0", expected: "c1", score: 0.8 },
      { output: "r1", expected: "c0", score: 0.85 },
    ]);
  });

  it("empty lists, validation, custom scorer", () => {
    expect(ListContains({ output: [], expected: [] }).score).toBe(1);
    expect(ListContains({ output: [], expected: ["a"] }).score).toBe(0);
    expect(ListContains({ output: ["a"], expected: [] }).score).toBe(0);
    expect(() => ListContains({ output: ["a"] })).toThrow(InvalidArgumentError);
    expect(() => ListContains({ output: "a" as unknown as string[], expected: ["a"] })).toThrow(InvalidArgumentError);
    const firstLetter = ({ output, expected }: { output: string; expected?: string }): Score => ({
      name: "first",
      score: output[0] === expected?.[0] ? 1 : null,
      metadata: {},
    });
    expect(ListContains({ output: ["apple", "kiwi"], expected: ["avocado", "banana"], pairwiseScorer: firstLetter }).score).toBe(0.5);
  });

  it("code points: an emoji is one edit", () => {
    expect(ListContains({ output: ["a😀"], expected: ["a😁"] }).score).toBe(0.5);
  });
});

describe("maxWeightAssignment", () => {
  function brute(w: number[][]): number {
    const rows = w.length;
    const cols = w[0]!.length;
    let best = -Infinity;
    const usedCols = new Array<boolean>(cols).fill(false);
    const go = (r: number, acc: number, left: number): void => {
      if (r === rows || left === 0) {
        best = Math.max(best, acc);
        return;
      }
      if (rows - r > left) go(r + 1, acc, left); // row r unassigned (only when rows outnumber pairs)
      for (let c = 0; c < cols; c++) {
        if (usedCols[c]) continue;
        usedCols[c] = true;
        go(r + 1, acc + w[r]![c]!, left - 1);
        usedCols[c] = false;
      }
    };
    go(0, 0, Math.min(rows, cols));
    return best;
  }

  it("finds the optimal total on random rectangular matrices", () => {
    const matrix = fc
      .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }))
      .chain(([r, c]) =>
        fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: c, maxLength: c }), { minLength: r, maxLength: r }),
      );
    fc.assert(
      fc.property(matrix, (w) => {
        const a = maxWeightAssignment(w);
        const cols = new Set<number>();
        let total = 0;
        let pairs = 0;
        a.forEach((c, r) => {
          if (c < 0) return;
          expect(cols.has(c)).toBe(false);
          cols.add(c);
          total += w[r]![c]!;
          pairs++;
        });
        return pairs === Math.min(w.length, w[0]!.length) && Math.abs(total - brute(w)) < 1e-9;
      }),
      { numRuns: 400 },
    );
  });
});
