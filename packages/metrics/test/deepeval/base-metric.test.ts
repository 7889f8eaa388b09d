import { describe, expect, it } from "vitest";
import { EvalkernError, InvalidArgumentError } from "../../src/errors.js";
import {
  ArenaTestCase,
  ConcurrentMeasureError,
  ConversationalTestCase,
  InvalidEvaluationError,
  LLMTestCase,
  MetricCore,
  MissingTestCaseParamsError,
  MultiTurnParams,
  SyncMeasureUnsupportedError,
  passes,
  strictScore,
} from "../../src/deepeval/index.js";
import { ExclaimMetric, LongestAnswerArena, MetadataScoreMetric, ScriptedJudgeMetric, capturePrinter } from "./fixtures.js";

const withScore = (score: number | null) => new LLMTestCase({ input: "q", metadata: { score } });

describe("thresholds and success (higher is better)", () => {
  it("defaults to threshold 0.5 and passes at score >= threshold", () => {
    const metric = new MetadataScoreMetric();
    expect(metric.threshold).toBe(0.5);
    expect(metric.higherIsBetter).toBe(true);
    expect(metric.measure(withScore(0.5))).toBe(0.5);
    expect(metric.success).toBe(true);
    expect(metric.isSuccessful()).toBe(true);
    metric.measure(withScore(0.49));
    expect(metric.success).toBe(false);
  });

  it("takes the threshold from the options, and the default from the class traits", () => {
    expect(new MetadataScoreMetric({ threshold: 0.8 }).threshold).toBe(0.8);
    expect(new MetadataScoreMetric({}, { defaultThreshold: 0.7 }).threshold).toBe(0.7);
  });

  it("a null threshold never decides: success is null", () => {
    const metric = new MetadataScoreMetric({ threshold: null });
    metric.measure(withScore(0.9));
    expect(metric.success).toBeNull();
  });

  it("a null score (nothing decided) is not a success", () => {
    const metric = new MetadataScoreMetric();
    expect(metric.measure(withScore(null))).toBeNull();
    expect(metric.success).toBe(false);
    expect(metric.error).toBeNull();
  });

  it("rejects bad thresholds and option types", () => {
    expect(() => new MetadataScoreMetric({ threshold: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => new MetadataScoreMetric({ threshold: "0.5" as unknown as number })).toThrow(/'threshold' must be a finite number/);
    expect(() => new MetadataScoreMetric({ strictMode: 1 as unknown as boolean })).toThrow(/'strictMode' must be a boolean/);
    expect(() => new MetadataScoreMetric({ includeReason: "yes" as unknown as boolean })).toThrow(InvalidArgumentError);
  });
});

describe("strict mode", () => {
  it("higher is better: threshold 1, anything below 1 scores 0", () => {
    const metric = new MetadataScoreMetric({ strictMode: true, threshold: 0.3 });
    expect(metric.threshold).toBe(1);
    expect(metric.measure(withScore(0.99))).toBe(0);
    expect(metric.success).toBe(false);
    expect(metric.reason).toBe("The score is 0 because the metadata says so.");
    expect(metric.measure(withScore(1))).toBe(1);
    expect(metric.success).toBe(true);
  });

  it("lower is better: threshold 0, anything above 0 scores 1", () => {
    const metric = new MetadataScoreMetric({ strictMode: true }, { higherIsBetter: false });
    expect(metric.threshold).toBe(0);
    expect(metric.measure(withScore(0.01))).toBe(1);
    expect(metric.success).toBe(false);
    expect(metric.measure(withScore(0))).toBe(0);
    expect(metric.success).toBe(true);
  });

  it("a metric whose strict mode only moves the threshold (DAG) keeps its score", () => {
    const metric = new MetadataScoreMetric({ strictMode: true }, { strictBinarizes: false });
    expect(metric.measure(withScore(0.7))).toBe(0.7);
    expect(metric.threshold).toBe(1);
    expect(metric.success).toBe(false);
  });

  it("strictScore and passes are the free functions behind it", () => {
    expect(strictScore(0.5, 1, true)).toBe(0);
    expect(strictScore(1, 1, true)).toBe(1);
    expect(strictScore(0.5, 0, false)).toBe(1);
    expect(strictScore(0, 0, false)).toBe(0);
    expect(passes(0.5, 0.5, true)).toBe(true);
    expect(passes(0.5, 0.5, false)).toBe(true);
    expect(passes(0.6, 0.5, false)).toBe(false);
  });
});

describe("lower is better (bias, toxicity, hallucination)", () => {
  it("passes at score <= threshold, as DeepEval's overridden is_successful", () => {
    const metric = new MetadataScoreMetric({}, { higherIsBetter: false });
    expect(metric.higherIsBetter).toBe(false);
    metric.measure(withScore(0.5));
    expect(metric.success).toBe(true);
    metric.measure(withScore(0.2));
    expect(metric.success).toBe(true);
    metric.measure(withScore(0.51));
    expect(metric.success).toBe(false);
  });

  it("an error fails the measurement whatever the direction", () => {
    const metric = new MetadataScoreMetric({}, { higherIsBetter: false });
    expect(() => metric.measure(new LLMTestCase({ input: "q" }))).toThrow(MissingTestCaseParamsError);
    expect(metric.success).toBe(false);
    expect(metric.score).toBeNull();
  });
});

describe("lifecycle", () => {
  it("records the required-parameter message on error before throwing", () => {
    const metric = new MetadataScoreMetric();
    metric.measure(withScore(0.9));
    expect(() => metric.measure(new LLMTestCase({ input: "q" }))).toThrow("'metadata' cannot be None for the 'Metadata Score' metric");
    expect(metric.error).toBe("'metadata' cannot be None for the 'Metadata Score' metric");
    expect(metric.score).toBeNull();
    expect(metric.reason).toBeNull();
    // The next good measurement clears the error.
    metric.measure(withScore(0.9));
    expect(metric.error).toBeNull();
    expect(metric.success).toBe(true);
  });

  it("rejects a non-finite score with a typed error, and records it", () => {
    const metric = new MetadataScoreMetric();
    expect(() => metric.measure(withScore(Number.NaN))).toThrow(InvalidEvaluationError);
    expect(metric.error).toMatch(/^InvalidEvaluationError: Metadata Score: the score must be a finite number/);
    expect(metric.success).toBe(false);
  });

  it("includeReason false leaves reason null", () => {
    const metric = new MetadataScoreMetric({ includeReason: false });
    metric.measure(withScore(0.9));
    expect(metric.reason).toBeNull();
  });

  it("builds verbose logs in DeepEval's format and prints them only in verbose mode", () => {
    const quiet = capturePrinter();
    const metric = new MetadataScoreMetric({ verbosePrinter: quiet.printer });
    metric.measure(withScore(0.25));
    expect(metric.verboseLogs).toBe('Metadata:\n{"score":0.25}');
    expect(quiet.printed).toEqual([]);

    const loud = capturePrinter();
    const verbose = new MetadataScoreMetric({ verboseMode: true, verbosePrinter: loud.printer });
    verbose.measure(withScore(1));
    expect(loud.printed).toEqual([
      {
        name: "Metadata Score",
        logs: 'Metadata:\n{"score":1}\n \nScore: 1.0\nReason: The score is 1 because the metadata says so.',
      },
    ]);
  });

  it("toMetricData snapshots the last measurement", () => {
    const metric = new MetadataScoreMetric({ threshold: 0.6 });
    metric.measure(withScore(0.75));
    expect(metric.toMetricData()).toMatchObject({
      name: "Metadata Score",
      kind: "single-turn",
      score: 0.75,
      threshold: 0.6,
      success: true,
      error: null,
      strictMode: false,
      higherIsBetter: true,
      evaluationModel: null,
      evaluationCost: 0,
      skipped: false,
    });
  });

  it("is recognised across copies by a Symbol.for marker", () => {
    expect(MetricCore.isMetric(new MetadataScoreMetric())).toBe(true);
    expect(MetricCore.isMetric({ name: "x" })).toBe(false);
  });
});

describe("sync vs async measure", () => {
  it("a deterministic metric gives the same state through measure and aMeasure", async () => {
    const sync = new MetadataScoreMetric();
    const asyncMetric = new MetadataScoreMetric();
    const syncScore = sync.measure(withScore(0.4));
    const asyncScore = await asyncMetric.aMeasure(withScore(0.4));
    expect(asyncScore).toBe(syncScore);
    expect(asyncMetric.toMetricData()).toEqual(sync.toMetricData());
    expect(sync.supportsSyncMeasure).toBe(true);
  });

  it("a model metric has no synchronous measure: typed error, state untouched", () => {
    const metric = new ScriptedJudgeMetric(() => ({ verdict: 1 }));
    expect(metric.supportsSyncMeasure).toBe(false);
    const testCase = new LLMTestCase({ input: "q", actualOutput: "A. B." });
    expect(() => metric.measure(testCase)).toThrow(SyncMeasureUnsupportedError);
    expect(() => metric.measure(testCase)).toThrow(/use `await metric.aMeasure\(testCase\)`/);
    expect(metric.error).toBeNull();
  });

  it("a model metric measures through aMeasure, with the reason generated after the score", async () => {
    const metric = new ScriptedJudgeMetric((s) => ({ verdict: s === "B" ? 0 : 1 }));
    const score = await metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "A. B. C. D." }));
    expect(score).toBe(0.75);
    expect(metric.reason).toBe("The score is 0.75 because 4 statements were judged.");
    expect(metric.success).toBe(true);
    expect(metric.evaluationModel).toBe("scripted-judge");
  });

  it("a reason that needs awaiting makes measure() fail with a typed error, recorded on the metric", () => {
    class AsyncReason extends MetadataScoreMetric {
      protected override evaluateSync(testCase: LLMTestCase) {
        return { ...super.evaluateSync(testCase), reason: async () => "later" };
      }
    }
    const metric = new AsyncReason();
    expect(() => metric.measure(withScore(0.9))).toThrow(SyncMeasureUnsupportedError);
    expect(metric.error).toMatch(/^SyncMeasureUnsupportedError/);
    expect(metric.success).toBe(false);
  });

  it("asyncMode fans independent calls out; asyncMode false runs them one by one", async () => {
    const testCase = new LLMTestCase({ input: "q", actualOutput: "A. B. C. D." });
    const concurrent = new ScriptedJudgeMetric(() => ({ verdict: 1, delayMs: 5 }));
    await concurrent.aMeasure(testCase);
    expect(concurrent.maxInFlight).toBe(4);
    const sequential = new ScriptedJudgeMetric(() => ({ verdict: 1, delayMs: 5 }), { asyncMode: false });
    await sequential.aMeasure(testCase);
    expect(sequential.maxInFlight).toBe(1);
    expect(sequential.score).toBe(concurrent.score);
  });

  it("an aborted signal fails the measurement", async () => {
    const metric = new ScriptedJudgeMetric(() => ({ verdict: 1 }));
    const controller = new AbortController();
    controller.abort();
    await expect(metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "A." }), { signal: controller.signal })).rejects.toThrow();
    expect(metric.error).not.toBeNull();
    expect(metric.success).toBe(false);
  });

  it("one instance cannot measure two test cases at once; copy() can", async () => {
    const metric = new ScriptedJudgeMetric(() => ({ verdict: 1, delayMs: 5 }));
    const first = metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "A." }));
    await expect(metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "B." }))).rejects.toThrow(ConcurrentMeasureError);
    const second = metric.copy().aMeasure(new LLMTestCase({ input: "q", actualOutput: "B. C." }));
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(metric.error).toBeNull();
    expect(metric.success).toBe(true);
  });

  it("copy() keeps the configuration and drops the result", () => {
    const metric = new MetadataScoreMetric({ threshold: 0.9, strictMode: false, includeReason: false });
    metric.measure(withScore(0.95));
    const clone = metric.copy();
    expect(clone).toBeInstanceOf(MetadataScoreMetric);
    expect(clone.threshold).toBe(0.9);
    expect(clone.includeReason).toBe(false);
    expect(clone.score).toBeNull();
    expect(clone.success).toBeNull();
    expect(metric.score).toBe(0.95);
  });
});

describe("cost and token accounting", () => {
  const testCase = new LLMTestCase({ input: "q", actualOutput: "A. B." });

  it("a priced judge starts at 0 and sums every call, the reason call included", async () => {
    const metric = new ScriptedJudgeMetric(() => ({
      verdict: 1,
      usage: { costUsd: 0.002, inputTokens: 100, outputTokens: 20 },
    }));
    await metric.aMeasure(testCase);
    expect(metric.evaluationCost).toBeCloseTo(0.005, 12);
    expect(metric.inputTokens).toBe(210);
    expect(metric.outputTokens).toBe(45);
    expect(metric.reasonCalls).toBe(1);
  });

  it("one unknown price makes the cost null for the measurement; tokens still add up", async () => {
    const metric = new ScriptedJudgeMetric((s) => ({
      verdict: 1,
      usage: { costUsd: s === "A" ? null : 0.002, inputTokens: 100, outputTokens: 20 },
    }));
    await metric.aMeasure(testCase);
    expect(metric.evaluationCost).toBeNull();
    expect(metric.inputTokens).toBe(210);
    // The next measurement starts from 0 again.
    const clean = new ScriptedJudgeMetric(() => ({ verdict: 1, usage: { costUsd: 0.001 } }));
    await clean.aMeasure(testCase);
    expect(clean.evaluationCost).toBeCloseTo(0.003, 12);
  });

  it("an unpriced (user-supplied) judge reports no cost, but counts tokens", async () => {
    const metric = new ScriptedJudgeMetric(() => ({ verdict: 1, usage: { costUsd: 0.5, inputTokens: 7, outputTokens: 3 } }), {}, {}, false);
    await metric.aMeasure(testCase);
    expect(metric.evaluationCost).toBeNull();
    expect(metric.inputTokens).toBe(24);
    expect(metric.outputTokens).toBe(11);
  });

  it("skipping the reason skips its cost", async () => {
    const metric = new ScriptedJudgeMetric(() => ({ verdict: 1, usage: { costUsd: 0.002 } }), { includeReason: false });
    await metric.aMeasure(testCase);
    expect(metric.reasonCalls).toBe(0);
    expect(metric.evaluationCost).toBeCloseTo(0.004, 12);
    expect(metric.reason).toBeNull();
  });

  it("rejects negative or non-finite costs and fractional token counts", async () => {
    const negative = new ScriptedJudgeMetric(() => ({ verdict: 1, usage: { costUsd: -1 } }));
    await expect(negative.aMeasure(testCase)).rejects.toThrow(InvalidArgumentError);
    const fractional = new ScriptedJudgeMetric(() => ({ verdict: 1, usage: { costUsd: 0, inputTokens: 1.5 } }));
    await expect(fractional.aMeasure(testCase)).rejects.toThrow(/inputTokens must be an integer/);
  });

  it("a deterministic metric costs 0", () => {
    const metric = new MetadataScoreMetric();
    metric.measure(withScore(1));
    expect(metric.evaluationCost).toBe(0);
  });
});

describe("BaseConversationalMetric", () => {
  const conversation = (extra: Partial<ConstructorParameters<typeof ConversationalTestCase>[0]> = {}) =>
    new ConversationalTestCase({
      turns: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello!" },
        { role: "user", content: "Book it" },
        { role: "assistant", content: "Done." },
      ],
      ...extra,
    });

  it("scores a conversation with the shared lifecycle", async () => {
    const metric = new ExclaimMetric();
    expect(metric.kind).toBe("conversational");
    expect(metric.measure(conversation())).toBe(0.5);
    expect(metric.success).toBe(true);
    expect(await metric.aMeasure(conversation())).toBe(0.5);
    expect(metric.reason).toBe("2 assistant turns");
  });

  it("applies strict mode", () => {
    const metric = new ExclaimMetric({ strictMode: true });
    expect(metric.measure(conversation())).toBe(0);
    expect(metric.success).toBe(false);
  });

  it("checks required conversation-level params with DeepEval's messages", () => {
    const metric = new ExclaimMetric({}, [MultiTurnParams.SCENARIO]);
    expect(() => metric.measure(conversation())).toThrow(
      "'scenario' in a conversational test case cannot be empty for the 'Exclaim' metric.",
    );
    expect(metric.measure(conversation({ scenario: "booking" }))).toBe(0.5);
    const roleMetric = new ExclaimMetric({}, [], true);
    expect(() => roleMetric.measure(conversation())).toThrow(
      "'chatbot_role' in a conversational test case cannot be empty for the 'Exclaim' metric.",
    );
  });

  it("refuses a single-turn test case", () => {
    const metric = new ExclaimMetric();
    expect(() => metric.measure(new LLMTestCase({ input: "q" }) as unknown as ConversationalTestCase)).toThrow(
      "Unable to evaluate test cases that are not of type 'ConversationalTestCase' using the conversational 'Exclaim' metric.",
    );
  });
});

describe("BaseArenaMetric", () => {
  const arena = new ArenaTestCase({
    contestants: [
      { name: "short", testCase: { input: "q", actualOutput: "4" } },
      { name: "long", testCase: { input: "q", actualOutput: "The answer is 4." } },
    ],
  });

  it("returns the winner's name; success unless it failed", async () => {
    const metric = new LongestAnswerArena();
    expect(metric.kind).toBe("arena");
    expect(metric.measure(arena)).toBe("long");
    expect(metric.winner).toBe("long");
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("long wrote the most");
    expect(await metric.aMeasure(arena)).toBe("long");
    expect("threshold" in metric).toBe(false);
  });

  it("rejects a winner that is not a contestant", () => {
    const metric = new LongestAnswerArena("Alice");
    expect(() => metric.measure(arena)).toThrow(InvalidEvaluationError);
    expect(metric.success).toBe(false);
    expect(metric.winner).toBeNull();
  });

  it("checks each contestant's required params", () => {
    const incomplete = new ArenaTestCase({
      contestants: [
        { name: "a", testCase: { input: "q", actualOutput: "x" } },
        { name: "b", testCase: { input: "q" } },
      ],
    });
    const metric = new LongestAnswerArena();
    expect(() => metric.measure(incomplete)).toThrow("'actual_output' cannot be None for the 'Longest Answer' metric");
    expect(metric.error).toBe("'actual_output' cannot be None for the 'Longest Answer' metric");
  });

  it("its errors are evalkern errors", () => {
    expect(EvalkernError.isInstance(new SyncMeasureUnsupportedError("x"))).toBe(true);
  });
});
