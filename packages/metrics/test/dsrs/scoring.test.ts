// docs/spec/dsrs.md §4: AggregationMethod, ScoringConfig, ScorerBuilder and the Scorer flow.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  aggregate,
  AggregationMethod,
  defineMetric,
  type DiffMetric,
  Example,
  FormatMetric,
  LengthMetric,
  MetricScore,
  Scorer,
  ScorerBuilder,
  ScoringConfig,
  SyntaxMetric,
  taskToExample,
  type EvalTask,
  type Metric,
  type MetricInput,
  type MetricTier,
} from "../../src/dsrs/index.js";

describe("aggregate (§4.1)", () => {
  it("returns 0 for an empty list, for every method", () => {
    for (const method of ["median", "mean", "min", "max", { trimmedMean: 10 }] as const) expect(aggregate([], method)).toBe(0);
  });

  it("median: middle element, or the mean of the two middle ones; input order does not matter", () => {
    expect(aggregate([0.9, 0.1, 0.5], "median")).toBe(0.5);
    expect(aggregate([0.1, 0.9, 0.5, 0.7], "median")).toBe(0.6);
    expect(aggregate([3, 1], "median")).toBe(2);
    expect(aggregate([0.4])).toBe(0.4);
  });

  it("mean, min, max", () => {
    expect(aggregate([0.1, 0.2, 0.3], "mean")).toBe((0.1 + 0.2 + 0.3) / 3);
    expect(aggregate([0.3, 0.1, 0.2], "min")).toBe(0.1);
    expect(aggregate([0.3, 0.1, 0.2], "max")).toBe(0.3);
  });

  it("trimmedMean takes a percentage: the dsrs examples", () => {
    // n = 10, p = 10 → k = 1: drop the lowest and the highest.
    expect(aggregate([100, 2, 3, 4, 5, 6, 7, 8, 9, -50], { trimmedMean: 10 })).toBe((2 + 3 + 4 + 5 + 6 + 7 + 8 + 9) / 8);
    // n = 9, p = 10 → k = 0: the plain mean.
    expect(aggregate([1, 2, 3, 4, 5, 6, 7, 8, 90], { trimmedMean: 10 })).toBe(126 / 9);
    // n = 4, p = 50 → k = 2, 2k ≥ n → the median.
    expect(aggregate([1, 2, 3, 10], { trimmedMean: 50 })).toBe(2.5);
    // n = 3, p = 33.4 → k = 1 → the middle element.
    expect(aggregate([5, 1, 3], { trimmedMean: 33.4 })).toBe(3);
    expect(aggregate([5, 1, 3], AggregationMethod.TrimmedMean(100))).toBe(3);
  });

  it("sums the kept values in sorted order", () => {
    const values = [0.3, 0.1, 0.7, 0.2, 0.9, 0.4, 0.6, 0.5, 0.8, 0.0];
    const sorted = [...values].sort((a, b) => a - b).slice(1, 9);
    let sum = 0;
    for (const v of sorted) sum += v;
    expect(aggregate(values, { trimmedMean: 10 })).toBe(sum / 8);
  });

  it("names the variants as dsrs does", () => {
    expect([AggregationMethod.Median, AggregationMethod.Mean, AggregationMethod.Min, AggregationMethod.Max]).toEqual([
      "median",
      "mean",
      "min",
      "max",
    ]);
    expect(AggregationMethod.TrimmedMean(10)).toEqual({ trimmedMean: 10 });
  });

  it("rejects unknown methods, NaN scores and negative or non-finite percentages", () => {
    expect(() => aggregate([1], "mode" as never)).toThrow(InvalidArgumentError);
    expect(() => aggregate([1, Number.NaN], "mean")).toThrow(InvalidArgumentError);
    expect(() => aggregate([1], { trimmedMean: -5 })).toThrow(InvalidArgumentError);
    expect(() => aggregate([1], { trimmedMean: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
    expect(() => AggregationMethod.TrimmedMean(Number.NaN)).toThrow(InvalidArgumentError);
  });
});

interface Probe extends Metric {
  readonly calls: Array<{ input: MetricInput; output: MetricInput }>;
}

function probe(
  name: string,
  tier: MetricTier,
  value: number | ((output: MetricInput) => number),
  { estimate = 0, cost = estimate, log }: { estimate?: number; cost?: number; log?: string[] } = {},
): Probe {
  const calls: Array<{ input: MetricInput; output: MetricInput }> = [];
  const metric = defineMetric({
    name,
    tier,
    costEstimate: estimate,
    evaluate: (input, output) => {
      calls.push({ input, output });
      log?.push(name);
      return MetricScore.new(typeof value === "function" ? value(output) : value).withCost(cost);
    },
  });
  return { ...metric, calls };
}

const task = (id: string, extra: Partial<EvalTask> = {}): EvalTask => ({ id, goal: `goal ${id}`, ...extra });
const answer =
  (text = "an answer") =>
  () => ({ answer: text });

describe("ScoringConfig (§4.2)", () => {
  it("has dsrs's defaults", () => {
    const config = new ScoringConfig();
    expect(config).toMatchObject({ rollouts: 3, aggregation: "median", proxyThreshold: 0.5, maxBudgetMsats: undefined });
    expect(config.metrics.all()).toEqual([]);
    expect(config.weights.size).toBe(0);
  });

  it("withRollouts stores max(n, 1); the options object accepts 0", () => {
    expect(new ScoringConfig().withRollouts(0).rollouts).toBe(1);
    expect(new ScoringConfig().withRollouts(5).rollouts).toBe(5);
    expect(new ScoringConfig({ rollouts: 0 }).rollouts).toBe(0);
  });

  it("withProxyThreshold clamps to [0, 1]", () => {
    expect(new ScoringConfig().withProxyThreshold(1.5).proxyThreshold).toBe(1);
    expect(new ScoringConfig().withProxyThreshold(-1).proxyThreshold).toBe(0);
  });

  it("routes metrics by tier, sets weights and a budget, immutably", () => {
    const base = new ScoringConfig();
    const config = base
      .withMetric(probe("t", "truth", 1))
      .withBoxedMetric(probe("p", "proxy", 1))
      .withWeight("t", 2)
      .withMaxBudget(1000)
      .withAggregation({ trimmedMean: 20 });
    expect(config.metrics.all().map((m) => m.name)).toEqual(["p", "t"]);
    expect(config.weights.get("t")).toBe(2);
    expect(config.maxBudgetMsats).toBe(1000);
    expect(config.aggregation).toEqual({ trimmedMean: 20 });
    expect(base.metrics.all()).toEqual([]);
  });

  it("validates options", () => {
    expect(() => new ScoringConfig({ rollouts: -1 })).toThrow(InvalidArgumentError);
    expect(() => new ScoringConfig({ weights: { a: Number.NaN } })).toThrow(InvalidArgumentError);
    expect(() => new ScoringConfig({ maxBudgetMsats: -1 })).toThrow(InvalidArgumentError);
    expect(() => new ScoringConfig({ aggregation: "avg" as never })).toThrow(InvalidArgumentError);
  });
});

describe("ScorerBuilder (§4.3)", () => {
  it("withDefaultProxyMetrics adds Format (non-empty), Length(min 10) and Syntax", () => {
    const proxy = new ScorerBuilder().withDefaultProxyMetrics().toConfig().metrics.proxy;
    expect(proxy.map((m) => m.name)).toEqual(["format", "length", "syntax"]);
    expect(proxy[0]).toBeInstanceOf(FormatMetric);
    expect(proxy[1]).toBeInstanceOf(LengthMetric);
    expect((proxy[1] as LengthMetric).minChars).toBe(10);
    expect(proxy[2]).toBeInstanceOf(SyntaxMetric);
  });

  it("withDefaultTruthMetrics adds the given judge, then DiffMetric (NormalizedWhitespace)", () => {
    const plain = new ScorerBuilder().withDefaultTruthMetrics().toConfig().metrics;
    expect(plain.truth.map((m) => m.name)).toEqual(["diff"]);
    expect((plain.truth[0] as DiffMetric).strictness).toBe("NormalizedWhitespace");
    const judge = probe("llm_judge", "truth", 0.5, { estimate: 100 });
    const withJudge = new ScorerBuilder().withDefaultProxyMetrics().withDefaultTruthMetrics({ judge }).toConfig().metrics;
    expect(withJudge.truth.map((m) => m.name)).toEqual(["llm_judge", "diff"]);
    expect(withJudge.totalCostEstimate()).toBe(100);
  });

  it("rollouts(n) is max(n, 1); proxyThreshold is not clamped", () => {
    const config = new ScorerBuilder().rollouts(0).proxyThreshold(1.5).maxBudget(10).aggregation("max").toConfig();
    expect(config).toMatchObject({ rollouts: 1, proxyThreshold: 1.5, maxBudgetMsats: 10, aggregation: "max" });
  });

  it("builds a Scorer", () => {
    expect(new ScorerBuilder().metric(probe("m", "proxy", 1)).build()).toBeInstanceOf(Scorer);
  });
});

describe("task → input example", () => {
  it("has goal and repo_source, plus repo_ref, focus_files, expected_commands and the first gold file when present", () => {
    expect(taskToExample(task("a")).toDict()).toEqual({ goal: "goal a", repo_source: "" });
    const full = taskToExample({
      id: "b",
      goal: "fix it",
      repo: { source: "/repo", refSpec: "main", focusFiles: ["src/a.rs"] },
      expected: { passCommands: ["cargo test"] },
      goldFiles: [
        { path: "src/a.rs", content: "fn a() {}" },
        { path: "src/b.rs", content: "ignored" },
      ],
    });
    expect(full.toDict()).toEqual({
      goal: "fix it",
      repo_source: "/repo",
      repo_ref: "main",
      focus_files: ["src/a.rs"],
      expected_commands: ["cargo test"],
      expected: "fn a() {}",
    });
  });

  it("leaves out empty focus files, empty pass commands and empty gold lists", () => {
    const ex = taskToExample({ id: "c", goal: "g", repo: { source: "s", focusFiles: [] }, expected: { passCommands: [] }, goldFiles: [] });
    expect(ex.toDict()).toEqual({ goal: "g", repo_source: "s" });
  });
});

describe("Scorer flow (§4.5)", () => {
  it("runs sequentially: tasks, rollouts, then metrics in MetricSet order", async () => {
    const log: string[] = [];
    const scorer = new Scorer({
      rollouts: 2,
      metrics: [probe("t1", "truth", 1, { log }), probe("p1", "proxy", 1, { log }), probe("p2", "proxy", 1, { log })],
    });
    await scorer.score(
      (input) => {
        log.push(`forward ${String(input.get("goal"))}`);
        return { answer: "x" };
      },
      [task("a"), task("b")],
    );
    const one = (goal: string) => [`forward ${goal}`, "p1", "p2", "t1"];
    expect(log).toEqual([...one("goal a"), ...one("goal a"), ...one("goal b"), ...one("goal b")]);
  });

  it("gives every metric the task input and a fresh Example of the prediction", async () => {
    const metric = probe("p", "proxy", 1);
    await new Scorer({ rollouts: 1, metrics: [metric] }).score({ forward: () => Example.from({ answer: "4" }) }, [
      task("a", { goldFiles: [{ path: "x", content: "gold" }] }),
    ]);
    const [call] = metric.calls;
    expect(call).toBeDefined();
    expect((call!.input as Example).get("expected")).toBe("gold");
    expect(call!.output).toBeInstanceOf(Example);
    expect((call!.output as Example).toDict()).toEqual({ answer: "4" });
  });

  it("runs truth metrics only when every proxy passes (value >= threshold), and gating does not zero the score", async () => {
    const truth = probe("truth", "truth", 1);
    const scorer = new Scorer({ rollouts: 1, metrics: [probe("p_ok", "proxy", 0.9), probe("p_low", "proxy", 0.2), truth] });
    const card = await scorer.score(answer(), [task("a")]);
    const t = card.perTask.a;
    expect(truth.calls).toHaveLength(0);
    expect(t).toMatchObject({ proxyPassed: false, truthEvaluated: false });
    expect(t?.score).toBeCloseTo((0.9 + 0.2) / 2, 15);
    expect(t?.metrics).toEqual({ p_ok: 0.9, p_low: 0.2 });
  });

  it("every proxy runs even after one fails (no early exit)", async () => {
    const later = probe("later", "proxy", 1);
    await new Scorer({ rollouts: 1, metrics: [probe("first", "proxy", 0), later] }).score(answer(), [task("a")]);
    expect(later.calls).toHaveLength(1);
  });

  it("the threshold is inclusive and configurable", async () => {
    const truth = probe("truth", "truth", 1);
    await new Scorer({ rollouts: 1, proxyThreshold: 0.5, metrics: [probe("p", "proxy", 0.5), truth] }).score(answer(), [task("a")]);
    expect(truth.calls).toHaveLength(1);
    const strict = probe("truth", "truth", 1);
    await new ScorerBuilder()
      .rollouts(1)
      .proxyThreshold(1.5)
      .metric(probe("p", "proxy", 1))
      .metric(strict)
      .build()
      .score(answer(), [task("a")]);
    expect(strict.calls).toHaveLength(0);
  });

  it("truthEvaluated is set once proxies pass, even with no truth metric", async () => {
    const card = await new Scorer({ rollouts: 1, metrics: [probe("p", "proxy", 1)] }).score(answer(), [task("a")]);
    expect(card.perTask.a).toMatchObject({ truthEvaluated: true, proxyPassed: true });
  });

  it("the rollout score is the weighted mean of all scores recorded in it (default weight 1)", async () => {
    const scorer = new Scorer({
      rollouts: 1,
      weights: { t: 3 },
      metrics: [probe("p", "proxy", 1), probe("t", "truth", 0.5)],
    });
    const card = await scorer.score(answer(), [task("a")]);
    expect(card.perTask.a?.score).toBe((1 + 0.5 * 3) / 4);
    expect(card.overallScore).toBe(0.625);
  });

  it("a failing forward scores 0.0, records no metric values, keeps proxyPassed and counts as completed", async () => {
    let call = 0;
    const proxy = probe("p", "proxy", (output) => ((output as Example).get("answer") === "good" ? 1 : 0));
    const scorer = new Scorer({ rollouts: 3, aggregation: "mean", metrics: [proxy] });
    const failure = new Error("model down");
    const card = await scorer.score(() => {
      call++;
      if (call === 2) throw failure;
      return { answer: "good" };
    }, [task("a")]);
    const t = card.perTask.a;
    expect(t).toMatchObject({ rolloutsCompleted: 3, proxyPassed: true, truthEvaluated: true, rolloutsFailed: 1 });
    expect(t?.score).toBe(2 / 3);
    expect(t?.metrics).toEqual({ p: 1 });
    expect(proxy.calls).toHaveLength(2);
    expect(t?.rolloutErrors).toEqual([{ rollout: 1, error: failure }]);
  });

  it("every rollout failing: score 0, no metrics, proxyPassed true, truthEvaluated false", async () => {
    const card = await new Scorer({ metrics: [probe("p", "proxy", 1)] }).score(async () => {
      throw new Error("no");
    }, [task("a")]);
    expect(card.perTask.a).toMatchObject({
      score: 0,
      metrics: {},
      rolloutsCompleted: 3,
      proxyPassed: true,
      truthEvaluated: false,
      rolloutsFailed: 3,
    });
    expect(card.perMetric).toEqual({});
    expect(card.overallScore).toBe(0);
  });

  it("rollouts = 0: task score 0, rolloutsCompleted 0, truthEvaluated false, proxyPassed true", async () => {
    let calls = 0;
    const card = await new Scorer({ rollouts: 0, metrics: [probe("p", "proxy", 1)] }).score(() => {
      calls++;
      return {};
    }, [task("a")]);
    expect(card.perTask.a).toMatchObject({ score: 0, rolloutsCompleted: 0, truthEvaluated: false, proxyPassed: true, costMsats: 0 });
    expect(calls).toBe(0);
    expect(card.tasksEvaluated).toBe(1);
  });

  it("proxyPassed is the AND over successful rollouts", async () => {
    let n = 0;
    const proxy = probe("p", "proxy", (output) => Number((output as Example).get("v")));
    const card = await new Scorer({ rollouts: 3, metrics: [proxy] }).score(() => ({ v: ++n === 2 ? 0 : 1 }), [task("a")]);
    expect(card.perTask.a?.proxyPassed).toBe(false);
    expect(card.perTask.a?.truthEvaluated).toBe(true);
  });

  it("aggregates per metric over the rollouts where it ran, then over tasks (a second aggregation)", async () => {
    const values: Record<string, number[]> = { a: [0.1, 0.2, 0.9], b: [0.5, 0.5, 0.5], c: [1, 0, 0] };
    const counters: Record<string, number> = {};
    const proxy = probe("m", "proxy", (output) => {
      const id = String((output as Example).get("id"));
      counters[id] = (counters[id] ?? 0) + 1;
      return values[id]?.[(counters[id] as number) - 1] as number;
    });
    const card = await new Scorer({ rollouts: 3, proxyThreshold: 0, metrics: [proxy] }).score(
      (input) => ({ id: String(input.get("goal")).slice(5) }),
      [task("a"), task("b"), task("c")],
    );
    expect(card.perTask.a?.metrics.m).toBe(0.2);
    expect(card.perTask.b?.metrics.m).toBe(0.5);
    expect(card.perTask.c?.metrics.m).toBe(0);
    expect(card.perMetric.m).toBe(0.2);
    expect(card.overallScore).toBe(0.2);
    expect(card.tasksEvaluated).toBe(3);
  });

  it("a duplicate task id overwrites perTask but both count as evaluated", async () => {
    let n = 0;
    const card = await new Scorer({
      rollouts: 1,
      aggregation: "mean",
      metrics: [probe("p", "proxy", (o) => Number((o as Example).get("v")))],
    }).score(() => ({ v: ++n === 1 ? 1 : 0.5 }), [task("same"), task("same")]);
    expect(card.tasksEvaluated).toBe(2);
    expect(card.perTask.same?.score).toBe(0.5);
    expect(card.overallScore).toBe(0.75);
  });

  it("stores ids such as __proto__ as ordinary keys", async () => {
    const card = await new Scorer({ rollouts: 1, metrics: [probe("p", "proxy", 1)] }).score(answer(), [task("__proto__")]);
    expect(Object.keys(card.perTask)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(card.perTask)).toBe(Object.prototype);
  });

  it("a metric error aborts the whole score call", async () => {
    const broken = defineMetric({
      name: "broken",
      tier: "proxy",
      evaluate: () => {
        throw new Error("evaluation broke");
      },
    });
    await expect(new Scorer({ metrics: [broken] }).score(answer(), [task("a")])).rejects.toThrow("evaluation broke");
  });

  it("rejects duplicate metric names", () => {
    expect(() => new Scorer({ metrics: [probe("same", "proxy", 1), probe("same", "truth", 1)] })).toThrow(InvalidArgumentError);
    expect(() => new ScorerBuilder().withDefaultProxyMetrics().withDefaultProxyMetrics().build()).toThrow(/duplicate metric name "format"/);
  });

  it("reports totals and a wall-clock duration", async () => {
    const card = await new Scorer({
      rollouts: 2,
      metrics: [probe("p", "proxy", 1, { cost: 3 }), probe("t", "truth", 1, { cost: 4 })],
    }).score(answer(), [task("a"), task("b")]);
    expect(card.totalCostMsats).toBe(2 * 2 * 7);
    expect(card.perTask.a?.costMsats).toBe(14);
    expect(Number.isInteger(card.totalDurationMs)).toBe(true);
    expect(card.tasksSkipped).toBe(0);
  });

  it("a rollout with no recorded scores scores 0.0", async () => {
    const card = await new Scorer({ rollouts: 2 }).score(answer(), [task("a")]);
    expect(card.perTask.a).toMatchObject({ score: 0, metrics: {}, rolloutsCompleted: 2, proxyPassed: true, truthEvaluated: true });
  });

  it("with no tasks: overall 0, nothing evaluated", async () => {
    const card = await new Scorer().score(answer(), []);
    expect(card).toMatchObject({ overallScore: 0, perMetric: {}, perTask: {}, totalCostMsats: 0, tasksEvaluated: 0, tasksSkipped: 0 });
  });

  it("validates its arguments", async () => {
    await expect(new Scorer().score({} as never, [])).rejects.toThrow(InvalidArgumentError);
    await expect(new Scorer().score(answer(), [{ id: 1 } as never])).rejects.toThrow(InvalidArgumentError);
    await expect(new Scorer().scoreWithBudget(answer(), [], -1)).rejects.toThrow(InvalidArgumentError);
  });
});

describe("budget (§4.5)", () => {
  it(
    "skips a task whose estimated cost (one rollout, all metrics) " + "exceeds the remaining budget, without calling the predictor",
    async () => {
      let calls = 0;
      const scorer = new Scorer({
        rollouts: 3,
        metrics: [probe("p", "proxy", 1, { estimate: 10 }), probe("t", "truth", 1, { estimate: 20 })],
      });
      const card = await scorer.scoreWithBudget(() => (calls++, { a: "x" }), [task("a"), task("b")], 29);
      expect(card).toMatchObject({ tasksSkipped: 2, tasksEvaluated: 0, overallScore: 0 });
      expect(calls).toBe(0);
    },
  );

  it("the gate ignores rollouts and gating, so a task can overspend; remaining never goes below 0", async () => {
    const scorer = new Scorer({
      rollouts: 3,
      metrics: [probe("p", "proxy", 1, { estimate: 10 }), probe("t", "truth", 1, { estimate: 20 })],
    });
    // Budget 30: task a passes the gate (estimate 30), spends 10 + 20 in rollout 1, then only proxies
    // (10 each, never budget-checked) while the truth metric is skipped; task b is then skipped.
    const card = await scorer.scoreWithBudget(answer(), [task("a"), task("b")], 30);
    expect(card.perTask.a?.costMsats).toBe(50);
    expect(card.perTask.a?.metrics).toEqual({ p: 1, t: 1 });
    expect(card).toMatchObject({ tasksEvaluated: 1, tasksSkipped: 1, totalCostMsats: 50 });
  });

  it("a truth metric that does not fit is skipped silently and leaves no term in the mean", async () => {
    // Budget 100 passes the gate (estimates 0 + 0 + 100); the cheap truth metric then spends 1, so the
    // judge (estimate 100) no longer fits in the remaining 99.
    const judge = probe("judge", "truth", 0, { estimate: 100 });
    const spendy = new Scorer({ rollouts: 1, metrics: [probe("p", "proxy", 1), probe("cheap", "truth", 0.5, { cost: 1 }), judge] });
    const card = await spendy.scoreWithBudget(answer(), [task("a")], 100);
    expect(judge.calls).toHaveLength(0);
    expect(card.perTask.a?.score).toBe(0.75);
    expect(card.perTask.a?.metrics).toEqual({ p: 1, cheap: 0.5 });
    expect(card.perTask.a?.truthEvaluated).toBe(true);
    // With a free cheap metric the judge fits and adds its term.
    const free = new Scorer({ rollouts: 1, metrics: [probe("p", "proxy", 1), probe("cheap", "truth", 0.5), judge] });
    const fits = await free.scoreWithBudget(answer(), [task("a")], 100);
    expect(fits.perTask.a?.metrics).toEqual({ p: 1, cheap: 0.5, judge: 0 });
    expect(fits.perTask.a?.score).toBe(0.5);
  });

  it("once the budget is too low every later task is skipped", async () => {
    const scorer = new Scorer({ rollouts: 1, metrics: [probe("p", "proxy", 1, { estimate: 5, cost: 5 })] });
    const card = await scorer.scoreWithBudget(answer(), [task("a"), task("b"), task("c"), task("d")], 12);
    expect(card).toMatchObject({ tasksEvaluated: 2, tasksSkipped: 2, totalCostMsats: 10 });
  });

  it("the config's maxBudgetMsats overrides the argument, even when larger", async () => {
    const metrics = [probe("p", "proxy", 1, { estimate: 5, cost: 5 })];
    const larger = await new Scorer({ rollouts: 1, metrics, maxBudgetMsats: 100 }).scoreWithBudget(answer(), [task("a"), task("b")], 0);
    expect(larger.tasksEvaluated).toBe(2);
    const smaller = await new Scorer({ rollouts: 1, metrics, maxBudgetMsats: 4 }).score(answer(), [task("a")]);
    expect(smaller.tasksSkipped).toBe(1);
  });

  it("actual cost may exceed the estimate", async () => {
    const card = await new Scorer({ rollouts: 1, metrics: [probe("p", "proxy", 1, { estimate: 0, cost: 70 })] }).scoreWithBudget(
      answer(),
      [task("a"), task("b")],
      50,
    );
    // Both pass the gate (estimate 0 ≤ remaining), even though task a alone spent more than the budget.
    expect(card).toMatchObject({ tasksEvaluated: 2, totalCostMsats: 140 });
  });
});

describe("the default scorer end to end", () => {
  it("scores a predictor with the default proxy and truth metrics", async () => {
    const scorer = new ScorerBuilder().withDefaultProxyMetrics().withDefaultTruthMetrics().rollouts(1).build();
    const tasks: EvalTask[] = [
      { id: "good", goal: "write add", goldFiles: [{ path: "add.js", content: "function add(a, b) { return a + b; }" }] },
      { id: "short", goal: "write add", goldFiles: [{ path: "add.js", content: "function add(a, b) { return a + b; }" }] },
    ];
    const card = await scorer.score(() => ({ output: "function add(a, b) {\n  return a + b;\n}" }), tasks.slice(0, 1));
    expect(card.perTask.good).toMatchObject({ score: 1, proxyPassed: true, truthEvaluated: true });
    expect(card.perMetric).toEqual({ format: 1, length: 1, syntax: 1, diff: 1 });
    const short = await scorer.score(() => ({ output: "x(" }), tasks.slice(1));
    expect(short.perTask.short).toMatchObject({ proxyPassed: false, truthEvaluated: false });
    expect(short.perTask.short?.metrics).toEqual({ format: 1, length: 0, syntax: 0 });
    expect(short.perTask.short?.score).toBeCloseTo(1 / 3, 15);
  });
});
