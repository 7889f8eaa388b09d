// The DSPy metric contract (src/contracts/dspy-metric.ts) and the dsrs Evaluator / FeedbackMetric /
// FeedbackEvaluator contracts (src/contracts/dsrs-evaluator.ts, docs/spec/dsrs.md §1.1-1.3).
import { describe, expect, it } from "vitest";
import { type DspyMetric, feedbackOf, runDspyMetric, scoreOf } from "../../src/contracts/dspy-metric.js";
import {
  DEFAULT_DISPLAY_PROGRESS,
  DEFAULT_MAX_CONCURRENCY,
  type EvaluationProgress,
  FeedbackMetric,
  MetricValueError,
  defineEvaluator,
  defineFeedbackEvaluator,
  evaluate,
  multiObjectiveMetric,
} from "../../src/contracts/dsrs-evaluator.js";
import { Example, Prediction } from "../../src/contracts/example.js";
import { InvalidArgumentError } from "../../src/errors.js";

const f32 = Math.fround;
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("scoreOf / feedbackOf", () => {
  it("reads booleans, numbers and score-bearing predictions or objects", () => {
    expect(scoreOf(true)).toBe(1);
    expect(scoreOf(false)).toBe(0);
    expect(scoreOf(0.25)).toBe(0.25);
    expect(scoreOf(-3)).toBe(-3);
    expect(scoreOf(Prediction.from({ score: 0.5, feedback: "close" }))).toBe(0.5);
    expect(scoreOf(Prediction.from({ score: true }))).toBe(1);
    expect(scoreOf({ score: 0.75, feedback: "ok" })).toBe(0.75);
    expect(feedbackOf(Prediction.from({ score: 0.5, feedback: "close" }))).toBe("close");
    expect(feedbackOf({ score: 1, feedback: "fine" })).toBe("fine");
    expect(feedbackOf(0.5)).toBeUndefined();
    expect(feedbackOf({ score: 1 })).toBeUndefined();
  });

  it("never yields NaN: anything else is a typed error", () => {
    for (const bad of [
      NaN,
      Infinity,
      -Infinity,
      "1",
      null,
      undefined,
      [1],
      {},
      { score: "1" },
      { score: NaN },
      Prediction.from({}),
      Promise.resolve(1),
    ]) {
      expect(() => scoreOf(bad), String(bad)).toThrow(InvalidArgumentError);
    }
  });
});

describe("runDspyMetric", () => {
  it("passes the five DSPy arguments and awaits async metrics", async () => {
    const seen: unknown[][] = [];
    const metric: DspyMetric = (gold, pred, trace, predName, predTrace) => {
      seen.push([gold.get("answer"), pred.get("answer"), trace, predName, predTrace]);
      return gold.get("answer") === pred.get("answer");
    };
    const gold = Example.from({ question: "q", answer: "4" }).withInputs("question");
    const pred = Prediction.from({ answer: "4" });
    expect(await runDspyMetric(metric, gold, pred, ["t"], "answerer", ["pt"])).toEqual({ score: 1, feedback: undefined });
    expect(seen).toEqual([["4", "4", ["t"], "answerer", ["pt"]]]);
    const asyncMetric: DspyMetric = async () => Prediction.from({ score: 0.5, feedback: "half" });
    expect(await runDspyMetric(asyncMetric, gold, pred)).toEqual({ score: 0.5, feedback: "half" });
    await expect(runDspyMetric((() => NaN) as DspyMetric, gold, pred)).rejects.toThrow(InvalidArgumentError);
    await expect(runDspyMetric(null as unknown as DspyMetric, gold, pred)).rejects.toThrow(InvalidArgumentError);
  });
});

describe("Evaluator (dsrs §1.1)", () => {
  const examples = [0.1, 0.2, 0.3, 0.7].map((v, i) => Example.from({ id: i, value: v }));
  const spec = {
    forward: (ex: Example) => Prediction.from({ value: ex.get("value") }),
    metric: (_ex: Example, pred: Prediction) => pred.get("value") as number,
  };

  it("has dsrs's defaults", () => {
    const ev = defineEvaluator(spec);
    expect(ev.maxConcurrency).toBe(DEFAULT_MAX_CONCURRENCY);
    expect(ev.maxConcurrency).toBe(32);
    expect(ev.displayProgress).toBe(DEFAULT_DISPLAY_PROGRESS);
    expect(ev.displayProgress).toBe(true);
    expect(ev.specificationVersion).toBe("v1");
    expect(defineEvaluator({ ...spec, maxConcurrency: 4, displayProgress: false })).toMatchObject({
      maxConcurrency: 4,
      displayProgress: false,
    });
  });

  it("returns the f32 mean, summed in input order", async () => {
    let sum = 0;
    for (const v of [0.1, 0.2, 0.3, 0.7]) sum = f32(sum + f32(v));
    const want = f32(sum / f32(4));
    const result = await defineEvaluator(spec).evaluate(examples);
    expect(result).toEqual({ ok: true, mean: want, scores: [0.1, 0.2, 0.3, 0.7].map(f32), count: 4 });
    expect(result.ok && result.mean).not.toBe((0.1 + 0.2 + 0.3 + 0.7) / 4); // f64 would differ
    expect(await evaluate(spec, examples)).toEqual(result); // the free function takes a bare spec
  });

  it("runs at most maxConcurrency calls at once, keeps input order", async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = {
      maxConcurrency: 3,
      forward: async (ex: Example) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await tick(ex.get("id") === 0 ? 30 : 5); // the first finishes last
        inFlight--;
        return Prediction.from({ value: ex.get("id") });
      },
      metric: (_ex: Example, pred: Prediction) => pred.get("value") as number,
    };
    const many = Array.from({ length: 10 }, (_, i) => Example.from({ id: i }));
    const result = await evaluate(slow, many);
    expect(peak).toBe(3);
    expect(result.ok && result.scores).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("reports progress per finished forward when displayProgress is true", async () => {
    const seen: EvaluationProgress[] = [];
    await evaluate(spec, examples, { onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3, 4]);
    expect(seen.every((p) => p.total === 4 && p.label === "Processing")).toBe(true);
    const none: EvaluationProgress[] = [];
    await evaluate({ ...spec, displayProgress: false }, examples, { onProgress: (p) => none.push(p) });
    expect(none).toEqual([]);
  });

  it("reports failing forwards instead of panicking, and scores nothing", async () => {
    let metricCalls = 0;
    const failing = {
      forward: (ex: Example) => {
        const id = ex.get("id") as number;
        if (id === 1) throw new Error("boom");
        if (id === 3) return Promise.reject(new Error("late boom"));
        return Prediction.from({ value: 1 });
      },
      metric: () => (metricCalls++, 1),
    };
    const result = await evaluate(failing, examples);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failures.map((f) => [f.index, f.stage, (f.error as Error).message])).toEqual([
      [1, "forward", "boom"],
      [3, "forward", "late boom"],
    ]);
    expect(result.count).toBe(4);
    expect(metricCalls).toBe(0);
  });

  it("reports metric failures: throws, NaN, non-numbers, values beyond f32", async () => {
    const values: unknown[] = [1, NaN, "1", 1e39];
    const result = await evaluate(
      {
        forward: (ex: Example) => Prediction.from({ i: ex.get("id") }),
        metric: (_e: Example, p: Prediction) => values[p.get("i") as number] as number,
      },
      examples,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failures.map((f) => [f.index, f.stage])).toEqual([
      [1, "metric"],
      [2, "metric"],
      [3, "metric"],
    ]);
    expect(result.failures.every((f) => f.error instanceof MetricValueError)).toBe(true);
    const thrown = await evaluate(
      {
        ...spec,
        metric: () => {
          throw new Error("bad metric");
        },
      },
      examples.slice(0, 1),
    );
    expect(!thrown.ok && thrown.failures[0]).toMatchObject({ index: 0, stage: "metric" });
  });

  it("defines the empty case (dsrs: NaN) and checks its options", async () => {
    await expect(evaluate(spec, [])).rejects.toThrow(InvalidArgumentError);
    for (const maxConcurrency of [0, -1, 1.5, NaN, "4"]) {
      expect(() => defineEvaluator({ ...spec, maxConcurrency: maxConcurrency as number })).toThrow(InvalidArgumentError);
    }
    expect(() => defineEvaluator({ ...spec, displayProgress: 1 as unknown as boolean })).toThrow(InvalidArgumentError);
    expect(() => defineEvaluator({ forward: spec.forward } as never)).toThrow(InvalidArgumentError);
    await expect(evaluate(spec, "abc" as unknown as Example[])).rejects.toThrow(InvalidArgumentError);
  });
});

describe("FeedbackMetric (dsrs §1.2)", () => {
  it("constructors", () => {
    expect(FeedbackMetric.new(0.75, "3 of 4")).toEqual({ score: 0.75, feedback: "3 of 4", metadata: {} });
    expect(FeedbackMetric.default()).toEqual({ score: 0, feedback: "", metadata: {} });
    const meta = { steps: 4 };
    const m = FeedbackMetric.withMetadata(1, "ok", meta);
    meta.steps = 5; // copied, not shared
    expect(m.metadata).toEqual({ steps: 4 });
    const m2 = FeedbackMetric.addMetadata(FeedbackMetric.addMetadata(m, "a", [1]), "steps", 9);
    expect(m2).toEqual({ score: 1, feedback: "ok", metadata: { steps: 9, a: [1] } });
    expect(m.metadata).toEqual({ steps: 4 });
    expect(Object.isFrozen(m2) && Object.isFrozen(m2.metadata)).toBe(true);
  });

  it("score is an f32, unclamped; NaN and out-of-range values throw", () => {
    expect(FeedbackMetric.new(0.1, "").score).toBe(f32(0.1));
    expect(FeedbackMetric.new(7, "").score).toBe(7);
    expect(FeedbackMetric.new(-2.5, "").score).toBe(-2.5);
    for (const bad of [NaN, Infinity, 1e39, "1"]) expect(() => FeedbackMetric.new(bad as number, "")).toThrow(InvalidArgumentError);
    expect(() => FeedbackMetric.new(1, 2 as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => FeedbackMetric.withMetadata(1, "", [] as unknown as Record<string, unknown>)).toThrow(InvalidArgumentError);
  });
});

describe("FeedbackEvaluator (dsrs §1.3)", () => {
  const ex = Example.from({ answer: "4" });
  const pred = Prediction.from({ answer: "4" });

  it("multiObjectiveMetric defaults to [feedbackMetric]", async () => {
    const fe = defineFeedbackEvaluator({
      feedbackMetric: (e, p) => FeedbackMetric.new(e.get("answer") === p.get("answer") ? 1 : 0, "exact match"),
    });
    expect(await fe.feedbackMetric(ex, pred)).toEqual({ score: 1, feedback: "exact match", metadata: {} });
    expect(await fe.multiObjectiveMetric(ex, pred)).toEqual([{ score: 1, feedback: "exact match", metadata: {} }]);
    // the free function works on a bare spec; plain objects are checked and completed
    expect(await multiObjectiveMetric({ feedbackMetric: async () => ({ score: 0.5, feedback: "x" }) as FeedbackMetric }, ex, pred)).toEqual(
      [{ score: 0.5, feedback: "x", metadata: {} }],
    );
  });

  it("an override replaces the default", async () => {
    const fe = defineFeedbackEvaluator({
      feedbackMetric: () => FeedbackMetric.new(1, "overall"),
      multiObjectiveMetric: () => [FeedbackMetric.new(1, "correct"), FeedbackMetric.new(0.2, "short")],
    });
    expect((await fe.multiObjectiveMetric(ex, pred)).map((m) => m.feedback)).toEqual(["correct", "short"]);
  });

  it("checks what user code returns", async () => {
    const bad = defineFeedbackEvaluator({ feedbackMetric: () => ({ score: NaN, feedback: "", metadata: {} }) });
    await expect(bad.feedbackMetric(ex, pred)).rejects.toThrow(InvalidArgumentError);
    const notList = defineFeedbackEvaluator({
      feedbackMetric: () => FeedbackMetric.default(),
      multiObjectiveMetric: () => FeedbackMetric.default() as unknown as FeedbackMetric[],
    });
    await expect(notList.multiObjectiveMetric(ex, pred)).rejects.toThrow(InvalidArgumentError);
    expect(() => defineFeedbackEvaluator({} as never)).toThrow(InvalidArgumentError);
  });
});
