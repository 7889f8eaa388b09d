// docs/spec/dsrs.md §3.2: DiffMetric (Exact, NormalizedWhitespace, the empty-expected rule, Semantic via a judge).
import { describe, expect, it } from "vitest";
import { EvalkernError, InvalidArgumentError } from "../../src/errors.js";
import { charSetSimilarity, DiffMetric, Example, JudgeRequiredError, MetricScore, normalizeWhitespace } from "../../src/dsrs/index.js";

describe("DiffMetric defaults", () => {
  it("new(): name diff, NormalizedWhitespace, cost 0, tier truth", () => {
    const metric = new DiffMetric();
    expect(metric).toMatchObject({ name: "diff", strictness: "NormalizedWhitespace", costEstimate: 0, tier: "truth" });
    expect(metric.withName("d2").name).toBe("d2");
  });

  it("withStrictness(Semantic) sets the cost to 50, and a later strictness keeps it", () => {
    const judge = () => 1;
    const semantic = new DiffMetric().withSemanticJudge(judge).withStrictness("Semantic");
    expect(semantic.costEstimate).toBe(50);
    expect(semantic.withStrictness("Exact").costEstimate).toBe(50);
    expect(new DiffMetric({ strictness: "Semantic", semanticJudge: judge }).costEstimate).toBe(50);
  });

  it("rejects unknown strictness values", () => {
    expect(() => new DiffMetric({ strictness: "Fuzzy" as never })).toThrow(InvalidArgumentError);
  });
});

describe("expected and actual text", () => {
  const exact = new DiffMetric({ strictness: "Exact" });

  it("expected comes from input.expected, else input.gold", async () => {
    expect((await exact.evaluate({ expected: "x" }, { output: "x" })).value).toBe(1);
    expect((await exact.evaluate({ gold: "x" }, { output: "x" })).value).toBe(1);
    expect((await exact.evaluate(Example.from({ gold: "x" }), Example.from({ output: "x" }))).value).toBe(1);
  });

  it('falls back to gold only when expected is absent: {expected: 5, gold: "x"} gives ""', async () => {
    const score = await exact.evaluate({ expected: 5, gold: "x" }, { output: "x" });
    expect(score).toMatchObject({ value: 0.5, details: "No expected output to compare against" });
    const nullExpected = await exact.evaluate({ expected: null, gold: "x" }, { output: "x" });
    expect(nullExpected.value).toBe(0.5);
  });

  it('actual is the first existing of output, result, answer; a non-string gives "" with no further fallback', async () => {
    expect((await exact.evaluate({ expected: "r" }, { result: "r", answer: "a" })).value).toBe(1);
    expect((await exact.evaluate({ expected: "a" }, { answer: "a" })).value).toBe(1);
    expect((await exact.evaluate({ expected: "a" }, { output: 7, answer: "a" })).details).toBe("Exact match failed");
    expect((await exact.evaluate({ expected: "a" }, {})).details).toBe("Exact match failed");
  });

  it("never reads a field named code", async () => {
    expect((await exact.evaluate({ expected: "x" }, { code: "x" })).value).toBe(0);
  });

  it("field chooses the output field explicitly", async () => {
    const metric = new DiffMetric({ strictness: "Exact", field: "code" });
    expect((await metric.evaluate({ expected: "x" }, { code: "x", output: "y" })).value).toBe(1);
    expect((await metric.inField("other").evaluate({ expected: "x" }, { code: "x" })).value).toBe(0);
  });

  it.each(["Exact", "NormalizedWhitespace"] as const)("%s: empty expected → 0.5 with details, cost 0", async (strictness) => {
    const score = await new DiffMetric({ strictness }).evaluate({}, { output: "anything" });
    expect(score).toEqual(MetricScore.new(0.5).withDetails("No expected output to compare against"));
  });

  it("a whitespace-only expected text is not empty", async () => {
    const score = await exact.evaluate({ expected: " " }, { output: "" });
    expect(score.details).toBe("Exact match failed");
  });
});

describe("Exact", () => {
  it("compares code points", async () => {
    const metric = new DiffMetric({ strictness: "Exact" });
    expect(await metric.evaluate({ expected: "a b" }, { output: "a b" })).toEqual(MetricScore.perfect());
    expect(await metric.evaluate({ expected: "a b" }, { output: "a  b" })).toEqual(MetricScore.fail("Exact match failed"));
    expect((await metric.evaluate({ expected: "é" }, { output: "e\u0301" })).value).toBe(0);
  });
});

describe("NormalizedWhitespace", () => {
  const metric = new DiffMetric();

  it("trims and collapses Unicode whitespace runs; equal → perfect with no details", async () => {
    expect(normalizeWhitespace("  a \u0085\t b\u3000")).toBe("a b");
    expect(await metric.evaluate({ expected: "fn  main()\n{ }" }, { output: " fn main() { }\u00a0" })).toEqual(MetricScore.perfect());
  });

  it("otherwise scores the Jaccard similarity of the character sets, with one-decimal details", async () => {
    const score = await metric.evaluate({ expected: "abc" }, { output: "abd" });
    expect(score).toMatchObject({ value: 0.5, confidence: 1, costMsats: 0, details: "Normalized comparison: 50.0% similar" });
    const third = await metric.evaluate({ expected: "ab" }, { output: "bc cd" });
    // {a, b} vs {b, c, " ", d}: 1 / 5
    expect(third).toMatchObject({ value: 0.2, details: "Normalized comparison: 20.0% similar" });
  });

  it("rounds ties to even: 6.25 % prints as 6.2 (run)", async () => {
    // A character-set similarity of 1/16 = 0.0625 → 6.25 %.
    const expected = "abcdefghijklmnop";
    const score = await metric.evaluate({ expected }, { output: "a" });
    expect(score.value).toBe(0.0625);
    expect(score.details).toBe("Normalized comparison: 6.2% similar");
  });

  it("n.75 % rounds up, 1/3 prints 33.3", async () => {
    // 3/4 → 75.0; 3/8 = 0.375 → 37.5; 7/8 → 87.5; 11/16 = 0.6875 → 68.75 → 68.8.
    const expected = "abcdefghijklmnop";
    const score = await metric.evaluate({ expected }, { output: "abcdefghijk" });
    expect(score.value).toBe(0.6875);
    expect(score.details).toBe("Normalized comparison: 68.8% similar");
    const third = await metric.evaluate({ expected: "abc" }, { output: "a" });
    expect(third.details).toBe("Normalized comparison: 33.3% similar");
  });

  it('different texts can score 1.0 and then keep the details ("aaab" vs "ab")', async () => {
    const score = await metric.evaluate({ expected: "aaab" }, { output: "ab" });
    expect(score).toMatchObject({ value: 1, details: "Normalized comparison: 100.0% similar" });
  });

  it("an empty actual text scores 0.0", async () => {
    const score = await metric.evaluate({ expected: "abc" }, { output: "   " });
    expect(score).toMatchObject({ value: 0, details: "Normalized comparison: 0.0% similar" });
  });

  it("charSetSimilarity counts code points, with the space between words as a character", () => {
    expect(charSetSimilarity("a", "a")).toBe(1);
    expect(charSetSimilarity("", "a")).toBe(0);
    expect(charSetSimilarity("😀a", "😀b")).toBe(1 / 3);
    expect(charSetSimilarity("a b", "ab")).toBe(2 / 3);
  });
});

describe("Semantic", () => {
  it("without a judge: a typed error at construction that points to @evalkern/judge", () => {
    let error: unknown;
    try {
      new DiffMetric({ strictness: "Semantic" });
    } catch (caught) {
      error = caught;
    }
    expect(JudgeRequiredError.isInstance(error)).toBe(true);
    expect(EvalkernError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("@evalkern/judge");
    expect(() => new DiffMetric().withStrictness("Semantic")).toThrow(JudgeRequiredError);
  });

  it("with a judge: numbers become scores with the metric's cost, scores pass through", async () => {
    const seen: unknown[] = [];
    const metric = new DiffMetric({
      strictness: "Semantic",
      semanticJudge: ({ expected, actual }) => {
        seen.push([expected, actual]);
        return 0.8;
      },
    });
    expect(await metric.evaluate({ expected: "two" }, { answer: "2" })).toEqual(MetricScore.new(0.8).withCost(50));
    expect(seen).toEqual([["two", "2"]]);
    const custom = new DiffMetric({
      strictness: "Semantic",
      semanticJudge: async () => MetricScore.new(0.3).withConfidence(0.6).withCost(7),
    });
    expect(await custom.evaluate({ expected: "a" }, { output: "b" })).toMatchObject({ value: 0.3, confidence: 0.6, costMsats: 7 });
  });

  it("the empty-expected rule comes first, at cost 0, and the judge is not called", async () => {
    let calls = 0;
    const metric = new DiffMetric({ strictness: "Semantic", semanticJudge: () => ++calls });
    const score = await metric.evaluate({}, { output: "x" });
    expect(score).toMatchObject({ value: 0.5, costMsats: 0, details: "No expected output to compare against" });
    expect(calls).toBe(0);
  });
});
