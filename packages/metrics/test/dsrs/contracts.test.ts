// docs/spec/dsrs.md §1.4-1.9: MetricTier, MetricScore, Metric, MetricSet, MetricResults.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  defineMetric,
  evaluateBatch,
  Example,
  MetricResults,
  MetricScore,
  MetricSet,
  MetricTier,
  weightedOverall,
  type Metric,
} from "../../src/dsrs/index.js";

function constant(name: string, tier: MetricTier, value: number, cost = 0): Metric {
  return defineMetric({ name, tier, costEstimate: cost, evaluate: () => MetricScore.new(value).withCost(cost) });
}

describe("MetricTier", () => {
  it("has the two serialised values", () => {
    expect(MetricTier.Proxy).toBe("proxy");
    expect(MetricTier.Truth).toBe("truth");
    expect(JSON.stringify({ tier: MetricTier.Truth })).toBe('{"tier":"truth"}');
  });
});

describe("MetricScore", () => {
  it("new(v) clamps to [0, 1] with confidence 1, no details, cost 0", () => {
    expect(MetricScore.new(1.7).value).toBe(1);
    expect(MetricScore.new(-3).value).toBe(0);
    const score = MetricScore.new(0.25);
    expect(score).toMatchObject({ value: 0.25, confidence: 1, details: undefined, costMsats: 0 });
  });

  it("perfect() and fail(reason) keep confidence 1.0", () => {
    expect(MetricScore.perfect()).toMatchObject({ value: 1, confidence: 1, details: undefined });
    expect(MetricScore.fail("nope")).toMatchObject({ value: 0, confidence: 1, details: "nope" });
    expect(MetricScore.default()).toMatchObject({ value: 0, confidence: 1, details: undefined, costMsats: 0 });
  });

  it("withConfidence clamps, withDetails and withCost set, all returning new frozen scores", () => {
    const base = MetricScore.new(0.5);
    const changed = base.withConfidence(2).withDetails("d").withCost(42);
    expect(changed).toMatchObject({ value: 0.5, confidence: 1, details: "d", costMsats: 42 });
    expect(base.withConfidence(-1).confidence).toBe(0);
    expect(base).toMatchObject({ confidence: 1, details: undefined, costMsats: 0 });
    expect(Object.isFrozen(changed)).toBe(true);
  });

  it("passes(threshold) is inclusive", () => {
    expect(MetricScore.new(0.5).passes(0.5)).toBe(true);
    expect(MetricScore.new(0.49).passes(0.5)).toBe(false);
  });

  it("rejects NaN values and confidences, and bad costs (deviation: dsrs lets NaN through)", () => {
    expect(() => MetricScore.new(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => MetricScore.new(0.5).withConfidence(Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => MetricScore.new(0.5).withCost(-1)).toThrow(InvalidArgumentError);
    expect(() => MetricScore.new(0.5).withCost(1.5)).toThrow(InvalidArgumentError);
  });

  it("leaves details out of JSON when absent", () => {
    expect(JSON.parse(JSON.stringify(MetricScore.new(0.5)))).toEqual({ value: 0.5, confidence: 1, costMsats: 0 });
    expect(JSON.parse(JSON.stringify(MetricScore.fail("x")))).toEqual({ value: 0, confidence: 1, details: "x", costMsats: 0 });
  });
});

describe("Metric.evaluateBatch", () => {
  it("evaluates sequentially in order", async () => {
    const seen: string[] = [];
    const metric = defineMetric({
      name: "echo",
      tier: "proxy",
      evaluate: async (_input, output) => {
        const value = Number((output as Record<string, unknown>).v);
        await new Promise((resolve) => setTimeout(resolve, value === 1 ? 20 : 0));
        seen.push(String(value));
        return MetricScore.new(value / 10);
      },
    });
    const scores = await metric.evaluateBatch([
      [{}, { v: 1 }],
      [{}, { v: 2 }],
      [{}, { v: 3 }],
    ]);
    expect(scores.map((s) => s.value)).toEqual([0.1, 0.2, 0.3]);
    expect(seen).toEqual(["1", "2", "3"]);
  });

  it("aborts on the first error and drops earlier results", async () => {
    let calls = 0;
    const metric = {
      name: "boom",
      tier: "truth" as const,
      costEstimate: 0,
      async evaluate(_input: unknown, output: unknown) {
        calls++;
        if ((output as { fail?: boolean }).fail) throw new Error("broken evaluation");
        return MetricScore.perfect();
      },
    };
    await expect(
      evaluateBatch(metric, [
        [{}, {}],
        [{}, { fail: true }],
        [{}, {}],
      ]),
    ).rejects.toThrow("broken evaluation");
    expect(calls).toBe(2);
  });

  it("defineMetric validates its definition", () => {
    expect(() => defineMetric({ name: "x", tier: "middle" as MetricTier, evaluate: () => MetricScore.perfect() })).toThrow(
      InvalidArgumentError,
    );
    expect(() => defineMetric({ name: "x", tier: "proxy", costEstimate: -5, evaluate: () => MetricScore.perfect() })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe("MetricSet", () => {
  it("routes by tier at insertion and yields proxies then truths, each in insertion order", () => {
    const set = new MetricSet();
    set
      .add(constant("t1", "truth", 1, 100))
      .add(constant("p1", "proxy", 1))
      .addBoxed(constant("t2", "truth", 1, 7));
    set.add(constant("p2", "proxy", 1, 3));
    expect(set.proxy.map((m) => m.name)).toEqual(["p1", "p2"]);
    expect(set.truth.map((m) => m.name)).toEqual(["t1", "t2"]);
    expect(set.all().map((m) => m.name)).toEqual(["p1", "p2", "t1", "t2"]);
    expect(set.totalCostEstimate()).toBe(110);
  });

  it("does not detect duplicate names", () => {
    const set = new MetricSet([constant("same", "proxy", 1), constant("same", "proxy", 0)]);
    expect(set.all()).toHaveLength(2);
  });

  it("rejects things that are not metrics", () => {
    expect(() => new MetricSet().add({} as Metric)).toThrow(InvalidArgumentError);
  });
});

describe("MetricResults", () => {
  it("add() sums costs; a second score with the same name replaces the first but both costs count", () => {
    const results = new MetricResults();
    results.add("a", MetricScore.new(0.2).withCost(10));
    results.add("a", MetricScore.new(0.8).withCost(5));
    expect(results.scores.get("a")?.value).toBe(0.8);
    expect(results.totalCostMsats).toBe(15);
    expect(results).toMatchObject({ overall: 0, proxyPassed: false, truthEvaluated: false });
  });

  it("computeOverall: weighted mean with default weight 1, absent weights ignored", () => {
    const results = new MetricResults();
    results.add("format", MetricScore.new(1));
    results.add("diff", MetricScore.new(0.5));
    results.computeOverall({ diff: 3, unused: 100 });
    expect(results.overall).toBe((1 * 1 + 0.5 * 3) / 4);
    results.computeOverall(new Map([["format", 0]]));
    expect(results.overall).toBe(0.5);
  });

  it("computeOverall leaves overall unchanged with no scores, and gives 0 when Σw ≤ 0", () => {
    const empty = new MetricResults();
    empty.computeOverall({ a: 2 });
    expect(empty.overall).toBe(0);
    const results = new MetricResults();
    results.add("a", MetricScore.new(1));
    results.add("b", MetricScore.new(1));
    results.computeOverall({ a: 1, b: -1 });
    expect(results.overall).toBe(0);
    results.computeOverall({ a: 0, b: 0 });
    expect(results.overall).toBe(0);
  });

  it("checkProxyThreshold ignores absent names", () => {
    const results = new MetricResults();
    results.add("a", MetricScore.new(0.4));
    results.add("b", MetricScore.new(0.9));
    expect(results.checkProxyThreshold(0.5, ["b", "missing"])).toBe(true);
    expect(results.checkProxyThreshold(0.5, ["a", "b"])).toBe(false);
    expect(results.checkProxyThreshold(0.4, ["a"])).toBe(true);
  });
});

describe("weightedOverall (MetricResults.compute_overall)", () => {
  it("takes records or maps of scores or numbers", () => {
    expect(weightedOverall({ format: 1, diff: 0.5 }, { diff: 3 })).toBe(0.625);
    expect(weightedOverall(new Map([["x", MetricScore.new(0.3)]]))).toBe(0.3);
    expect(weightedOverall({})).toBe(0);
  });

  it("rejects non-finite weights", () => {
    expect(() => weightedOverall({ a: 1 }, { a: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
  });
});

describe("metric inputs", () => {
  it("accept Examples and plain objects alike", async () => {
    const metric = defineMetric({
      name: "has_answer",
      tier: "proxy",
      evaluate: (_input, output) =>
        (output instanceof Example ? output.has("answer") : "answer" in output) ? MetricScore.perfect() : MetricScore.fail("no answer"),
    });
    expect((await metric.evaluate({}, Example.from({ answer: "4" }))).value).toBe(1);
    expect((await metric.evaluate({}, { other: 1 })).details).toBe("no answer");
  });
});
