// Issue 15.5: scores from statistics never come out impossible. Statistics that no text can produce
// (non-finite, negative, fractional, above 2^53, more matches than n-grams) are a typed error, never a
// BLEU of 500 or a null/NaN score; options that would make a score non-finite are refused too.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import {
  EvalkernError,
  InvalidArgumentError,
  bleuFromStatistics,
  bleuScoresFromStatisticsBatch,
  bleuStatisticsBatch,
  bleuStatisticsWidth,
  byobBleuScoresFromStatisticsBatch,
  chrfFromStatistics,
  chrfScoresFromStatisticsBatch,
  chrfStatisticsBatch,
  chrfStatisticsWidth,
  corpusBleu,
  corpusChrf,
  sentenceBleu,
  sentenceChrf,
  sumStatistics,
  terFromStatistics,
  terStatisticsBatch,
  terStatisticsWidth,
} from "../src/index.js";

beforeAll(async () => {
  await ready();
});

function invalid(f: () => unknown, argument: string): InvalidArgumentError {
  let caught: unknown;
  try {
    f();
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected an InvalidArgumentError").toBeInstanceOf(InvalidArgumentError);
  expect(EvalkernError.isInstance(caught)).toBe(true);
  const e = caught as InvalidArgumentError;
  expect(e.code).toBe("INVALID_ARGUMENT");
  expect(e.argument).toBe(argument);
  return e;
}

const ok = { counts: [3, 2, 1, 0], totals: [4, 3, 2, 1], sysLen: 4, refLen: 5 };
const impossibleValues = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 1.5, 1e308, 2 ** 53 + 2, -0.5];

describe("bleuFromStatistics", () => {
  it("scores possible statistics as before", () => {
    const r = bleuFromStatistics(ok);
    expect(Number.isFinite(r.score)).toBe(true);
    expect(r.score).toBeGreaterThanOrEqual(0);
    expect(r.score).toBeLessThanOrEqual(100);
    expect(bleuFromStatistics({ counts: [0, 0, 0, 0], totals: [0, 0, 0, 0], sysLen: 0, refLen: 0 }).score).toBe(0);
    expect(bleuFromStatistics({ counts: [2 ** 53, 0, 0, 0], totals: [2 ** 53, 0, 0, 0], sysLen: 2 ** 53, refLen: 1 }).score).toBe(0);
  });

  it("the issue's cases: 1e308 and matches above totals", () => {
    const e = invalid(
      () => bleuFromStatistics({ counts: [1e308, 1e308, 1e308, 1e308], totals: [1, 1, 1, 1], sysLen: 1, refLen: 1 }),
      "statistics",
    );
    expect(e.message).toMatch(/2\^53/);
    const m = invalid(() => bleuFromStatistics({ counts: [5, 4, 3, 2], totals: [1, 1, 1, 1], sysLen: 1, refLen: 1 }), "statistics");
    expect(m.message).toMatch(/must not exceed totals\[0\]/);
  });

  it("every field rejects non-finite, negative, fractional and huge values", () => {
    for (const v of impossibleValues) {
      invalid(() => bleuFromStatistics({ ...ok, sysLen: v }), "statistics");
      invalid(() => bleuFromStatistics({ ...ok, refLen: v }), "statistics");
      invalid(() => bleuFromStatistics({ ...ok, counts: [v, 0, 0, 0] }), "statistics");
      invalid(() => bleuFromStatistics({ ...ok, totals: [4, 3, 2, v] }), "statistics");
    }
    invalid(() => bleuFromStatistics({ ...ok, sysLen: "4" as unknown as number }), "statistics");
    invalid(() => bleuFromStatistics({ ...ok, counts: [3, 2, 1, null as unknown as number] }), "statistics");
  });

  it("options that would make a score impossible are refused", () => {
    invalid(() => bleuFromStatistics(ok, { smoothMethod: "add-k", smoothValue: -1 }), "options.smoothValue");
    invalid(() => bleuFromStatistics(ok, { smoothMethod: "floor", smoothValue: 1e308 }), "options.smoothValue");
    invalid(() => bleuFromStatistics(ok, { smoothMethod: "floor", smoothValue: 1.5 }), "options.smoothValue");
    invalid(() => sentenceBleu("a", ["a"], { smoothMethod: "add-k", smoothValue: -0.5 }), "options.smoothValue");
    for (const smoothMethod of ["none", "floor", "add-k", "exp"] as const) {
      const r = bleuFromStatistics(
        { counts: [1, 0, 0, 0], totals: [1, 0, 0, 0], sysLen: 1, refLen: 1 },
        { smoothMethod, smoothValue: smoothMethod === "floor" ? 1 : 0 },
      );
      expect(Number.isFinite(r.score)).toBe(true);
      expect(r.precisions.every(Number.isFinite)).toBe(true);
    }
  });
});

describe("batch and BYOB forms", () => {
  it("bleuScoresFromStatisticsBatch checks every row", () => {
    const good = bleuStatisticsBatch(["the cat sat", "a dog"], [["the cat sat down"], ["a dog"]]);
    expect(Array.from(bleuScoresFromStatisticsBatch(good)).every(Number.isFinite)).toBe(true);
    for (const v of impossibleValues) {
      const bad = good.slice();
      bad[10 + 3] = v;
      invalid(() => bleuScoresFromStatisticsBatch(bad), "stats");
    }
    const over = good.slice();
    over[10 + 2] = over[10 + 6]! + 1; // second row: counts[0] > totals[0]
    const e = invalid(() => bleuScoresFromStatisticsBatch(over), "stats");
    expect(e.index).toBe(12);
  });

  it("sumStatistics checks its rows, width and order", () => {
    const good = bleuStatisticsBatch(["the cat sat"], [["the cat sat down"]]);
    expect(bleuFromStatistics(sumStatistics(good, 4)).score).toBe(corpusBleu(["the cat sat"], [["the cat sat down"]]).score);
    invalid(() => sumStatistics(good.subarray(1), 4), "stats");
    invalid(() => sumStatistics(good, 0), "maxNgramOrder");
    invalid(() => sumStatistics(Float64Array.of(1, 1, Number.NaN, 0, 0, 0, 0, 0, 0, 0), 4), "stats");
    const huge = new Float64Array(20);
    huge[0] = 2 ** 53;
    huge[10] = 2 ** 53;
    invalid(() => sumStatistics(huge, 4), "stats");
  });

  it("byobBleuScoresFromStatisticsBatch", () => {
    expect(Array.from(byobBleuScoresFromStatisticsBatch(Float64Array.of(4, 5, 3, 2, 1, 0, 4, 3, 2, 1))).every(Number.isFinite)).toBe(true);
    invalid(() => byobBleuScoresFromStatisticsBatch(Float64Array.of(4, 5, 9, 2, 1, 0, 4, 3, 2, 1)), "stats");
    invalid(() => byobBleuScoresFromStatisticsBatch(Float64Array.of(4, 5, 1e308, 2, 1, 0, 1e308, 3, 2, 1)), "stats");
    invalid(() => byobBleuScoresFromStatisticsBatch(Float64Array.of(4.5, 5, 3, 2, 1, 0, 4, 3, 2, 1)), "stats");
  });
});

describe("chrfFromStatistics", () => {
  let good: number[] = [];
  beforeAll(() => {
    good = sentenceChrf("the cat sat", ["the cat sat down"]).stats;
  });

  it("scores possible statistics as before", () => {
    expect(chrfFromStatistics(good).score).toBe(sentenceChrf("the cat sat", ["the cat sat down"]).score);
    expect(chrfFromStatistics(new Array(18).fill(0)).score).toBe(0);
    expect(chrfFromStatistics(new Array(18).fill(2 ** 53)).score).toBe(100);
  });

  it("rejects impossible values and matches above the counts", () => {
    for (const v of impossibleValues) {
      for (const j of [0, 1, 2, 17]) {
        const bad = good.slice();
        bad[j] = v;
        invalid(() => chrfFromStatistics(bad), "stats");
      }
    }
    const over = good.slice();
    over[2] = over[0]! + 1; // more character unigram matches than hypothesis unigrams
    const e = invalid(() => chrfFromStatistics(over), "stats");
    expect(e.index).toBe(2);
    const overRef = new Array(18).fill(0);
    overRef[0] = 5;
    overRef[1] = 1;
    overRef[2] = 2;
    invalid(() => chrfFromStatistics(overRef), "stats");
    invalid(() => chrfFromStatistics([...good.slice(0, 17), "1" as unknown as number]), "stats");
  });

  it("chrfScoresFromStatisticsBatch checks every row", () => {
    const rows = chrfStatisticsBatch(["the cat", "a dog"], [["the cat sat"], ["a dog"]]);
    expect(Array.from(chrfScoresFromStatisticsBatch(rows)).every(Number.isFinite)).toBe(true);
    const bad = rows.slice();
    bad[18 + 5] = Number.POSITIVE_INFINITY;
    const e = invalid(() => chrfScoresFromStatisticsBatch(bad), "stats");
    expect(e.index).toBe(23);
  });

  it("a beta whose square overflows is refused (it made every score NaN)", () => {
    invalid(() => chrfFromStatistics(good, { beta: 1e200 }), "options.beta");
    invalid(() => corpusChrf(["a"], [["a"]], { beta: 1e7 }), "options.beta");
    expect(Number.isFinite(chrfFromStatistics(good, { beta: 1e6 }).score)).toBe(true);
    expect(Number.isFinite(chrfFromStatistics(good, { beta: 0 }).score)).toBe(true);
  });
});

describe("one shape per metric (issue 22)", () => {
  it("every xxxFromStatistics returns { score, … } with the statistics it scored", () => {
    // chrF of "the cat sat" against itself, characters only: every n-gram matches, F = 100
    const chrf = chrfFromStatistics(sentenceChrf("the cat sat", ["the cat sat"]).stats);
    expect(chrf.score).toBe(100);
    expect(chrf.stats).toEqual(sentenceChrf("the cat sat", ["the cat sat"]).stats);
    expect(chrfFromStatistics(Float64Array.from(new Array(18).fill(0)))).toEqual({ score: 0, stats: new Array(18).fill(0) });
    // sacreBLEU compute_bleu([3, 2, 1, 0], [4, 3, 2, 1], 4, 5) with "exp" smoothing: precisions 75, 66.67,
    // 50 and 100 / (2 × 1) = 50; geometric mean 59.46; brevity penalty exp(1 - 5/4) = 0.7788; BLEU 46.31
    const bleu = bleuFromStatistics(ok);
    expect(bleu.score).toBeCloseTo(46.3078, 3);
    expect([bleu.counts, bleu.totals, bleu.sysLen, bleu.refLen]).toEqual([ok.counts, ok.totals, ok.sysLen, ok.refLen]);
    // TER: 1 edit over a reference of 4 words is 25
    expect(terFromStatistics({ numEdits: 1, refLength: 4 })).toEqual({ score: 25, numEdits: 1, refLength: 4 });
  });

  it("every metric's statistics width is a function of its options", () => {
    expect(bleuStatisticsWidth()).toBe(10); // [sysLen, refLen, 4 counts, 4 totals]
    expect(bleuStatisticsWidth({ maxNgramOrder: 2 })).toBe(6);
    expect(chrfStatisticsWidth()).toBe(18); // 3 × 6 character orders
    expect(chrfStatisticsWidth({ wordOrder: 2 })).toBe(24); // chrF++: 3 × (6 + 2)
    expect(terStatisticsWidth()).toBe(2); // [numEdits, refLength]
    expect(terStatisticsWidth({ normalized: true })).toBe(2);
    // the widths are the row widths of the batch functions
    expect(bleuStatisticsBatch(["a b"], [["a b"]], { maxNgramOrder: 2 }).length).toBe(6);
    expect(chrfStatisticsBatch(["a b"], [["a b"]], { wordOrder: 2 }).length).toBe(24);
    expect(terStatisticsBatch(["a b"], [["a b"]]).length).toBe(2);
  });

  it("a width of bad options is the options' error", () => {
    invalid(() => bleuStatisticsWidth({ maxNgramOrder: 0 }), "options.maxNgramOrder");
    invalid(() => chrfStatisticsWidth({ charOrder: 0, wordOrder: 0 }), "options.charOrder");
    invalid(() => terStatisticsWidth({ colour: true } as never), "options.colour");
  });
});
