// DeepEval/DSPy entry points: a model given by name (built from the environment), the default judge
// of configure/context, the bundled price table, G-Eval's DeepEval rubric form and bounded score schema.
// Everything runs against the scripted loopback server.
import { LLMTestCase, LLMTestCaseParams } from "@evalkern/metrics/deepeval";
import { Example, Prediction } from "@evalkern/metrics/dspy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AnswerRelevancyMetric,
  BUNDLED_PRICES,
  CompleteAndGrounded,
  GEval,
  JudgeMetricConfigError,
  OpenAICompatibleJudge,
  PRICES_AS_OF,
  SemanticF1,
  configure,
  context,
  judgeFromModelName,
  LlmJudgeMetric,
  makeLlmJudgeEvaluator,
  semanticDiffJudge,
  zodSchema,
  knownPrice,
  resetJudgeDefaults,
  resetModelPrices,
  setModelPrices,
} from "../../src/index.js";
import { chatJson, chatText, startServer, textLogprobs, type ScriptedServer } from "../support/server.js";
import { testJudge } from "../support/judge.js";

let server: ScriptedServer;
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.reset();
  resetJudgeDefaults();
  resetModelPrices();
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "EVALKERN_JUDGE_API_KEY", "EVALKERN_JUDGE_BASE_URL", "EVALKERN_JUDGE_MODEL"]) {
    if (savedEnv[key] === undefined) delete process.env[key];
    else process.env[key] = savedEnv[key];
  }
});

function useOpenAIEnv(): void {
  delete process.env.EVALKERN_JUDGE_API_KEY;
  delete process.env.EVALKERN_JUDGE_BASE_URL;
  process.env.OPENAI_API_KEY = "sk-from-env";
  process.env.OPENAI_BASE_URL = server.baseURL;
}

const relevancyReplies = () => [
  chatJson({ statements: ["Paris is the capital."] }, { usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } }),
  chatJson({ verdicts: [{ verdict: "yes", reason: null }] }, { usage: { prompt_tokens: 0, completion_tokens: 1_000_000 } }),
  chatJson({ reason: "The score is 1.00 because it answers." }, { usage: { prompt_tokens: 0, completion_tokens: 0 } }),
];

describe("a model given by name", () => {
  it("builds the OpenAI-compatible judge from OPENAI_API_KEY / OPENAI_BASE_URL and prices it from the bundled table", async () => {
    useOpenAIEnv();
    server.enqueue("chat", ...relevancyReplies());
    const metric = new AnswerRelevancyMetric({ model: "gpt-4o-mini" });
    expect(metric.model).toBeInstanceOf(OpenAICompatibleJudge);
    expect(metric.evaluationModel).toBe("gpt-4o-mini");
    const score = await metric.aMeasure(new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris is the capital." }));
    expect(score).toBe(1);
    // 1M input tokens at $0.15 + 1M output tokens at $0.60
    expect(metric.evaluationCost).toBeCloseTo(0.75, 12);
    const request = server.requestsTo("chat")[0]!;
    expect(request.headers.authorization).toBe("Bearer sk-from-env");
    expect(request.body.model).toBe("gpt-4o-mini");
  });

  it("EVALKERN_JUDGE_* win over OPENAI_*; one judge per name, shared by the metrics", () => {
    useOpenAIEnv();
    process.env.EVALKERN_JUDGE_BASE_URL = "http://127.0.0.1:9/v1";
    const a = judgeFromModelName("gpt-4o-mini");
    expect(a.baseURL).toBe("http://127.0.0.1:9/v1");
    expect(judgeFromModelName("gpt-4o-mini")).toBe(a);
  });

  it("an unknown model's cost is unknown (null), never 0", async () => {
    useOpenAIEnv();
    server.enqueue("chat", ...relevancyReplies());
    const metric = new AnswerRelevancyMetric({ model: "my-local-model" });
    await metric.aMeasure(new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris is the capital." }));
    expect(metric.score).toBe(1);
    expect(metric.evaluationCost).toBeNull();
    expect(metric.inputTokens).toBe(1_000_000);
  });

  it("the dsrs and evalwire judges take a model name too, and the configured default", () => {
    useOpenAIEnv();
    expect(new LlmJudgeMetric({ model: "gpt-4o-mini" }).model.name).toBe("gpt-4o-mini");
    expect(() => new LlmJudgeMetric({})).toThrow(/configure\(\{ judge \}\)/);
    configure({ judge: testJudge(server, { model: "configured" }) });
    expect(new LlmJudgeMetric({}).model.name).toBe("configured");
    expect(typeof semanticDiffJudge({ model: "gpt-4o-mini" })).toBe("function");
    expect(typeof makeLlmJudgeEvaluator("gpt-4o-mini", "{output}", zodSchema("v", z.object({ score: z.boolean() })))).toBe("function");
  });

  it("without any judge, names the ways to give one", () => {
    expect(() => new AnswerRelevancyMetric({})).toThrow(JudgeMetricConfigError);
    expect(() => new AnswerRelevancyMetric({})).toThrow(/configure\(\{ judge \}\)/);
    expect(() => new AnswerRelevancyMetric({ model: 42 as never })).toThrow(JudgeMetricConfigError);
  });
});

describe("the bundled price table", () => {
  it("is dated, prices dated snapshots, and never prices a look-alike by prefix", () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(BUNDLED_PRICES["gpt-4o-mini"]).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 });
    expect(knownPrice("gpt-4o-2024-08-06")).toBe(BUNDLED_PRICES["gpt-4o"]);
    expect(knownPrice("gpt-4.5-preview")).toBeUndefined();
    expect(knownPrice("llama3")).toBeUndefined();
  });

  it("can be extended and overridden; a judge's own prices win", () => {
    setModelPrices({ llama3: { inputPerMTok: 1, outputPerMTok: 2 }, "gpt-4o-mini": { inputPerMTok: 9, outputPerMTok: 9 } });
    expect(knownPrice("llama3")).toEqual({ inputPerMTok: 1, outputPerMTok: 2 });
    expect(testJudge(server, { model: "gpt-4o-mini" }).price).toEqual({ inputPerMTok: 9, outputPerMTok: 9 });
    expect(testJudge(server, { model: "gpt-4o-mini", prices: { "gpt-4o": { inputPerMTok: 5, outputPerMTok: 5 } } }).price).toEqual({
      inputPerMTok: 5,
      outputPerMTok: 5,
    });
    expect(testJudge(server, { model: "gpt-4o-mini", bundledPrices: false }).reportsCost).toBe(false);
    setModelPrices({}, { bundled: false, replace: true });
    expect(knownPrice("gpt-4o")).toBeUndefined();
    expect(() => setModelPrices({ x: { inputPerMTok: -1, outputPerMTok: 0 } })).toThrow(/non-negative/);
  });
});

describe("DSPy judges fall back to the configured default judge", () => {
  const example = Example.from({ question: "Capital of France?", response: "Paris" });
  const prediction = Prediction.from({ response: "Paris" });

  it("configure({ judge }) is used by a metric built without a model", async () => {
    server.enqueue("chat", chatJson({ reasoning: "same", recall: 1, precision: 0.5 }));
    configure({ judge: testJudge(server, { model: "configured" }) });
    const result = await new SemanticF1().forward(example, prediction);
    expect(result.f1).toBeCloseTo(2 / 3, 12);
    expect(server.requestsTo("chat")[0]!.body.model).toBe("configured");
  });

  it("context({ judge }, fn) wins inside fn, for metrics built there, and ends with fn's promise", async () => {
    configure({ judge: testJudge(server, { model: "outer" }) });
    server.enqueue(
      "chat",
      chatJson({
        reasoning: "r",
        ground_truth_key_ideas: "1. Paris",
        system_response_key_ideas: "1. Paris",
        discussion: "all there",
        completeness: 1,
      }),
      chatJson({ reasoning: "r", system_response_claims: "1. Paris", discussion: "grounded", groundedness: 1 }),
    );
    const inner = testJudge(server, { model: "inner" });
    const pending = context({ judge: inner }, async () => {
      const metric = new CompleteAndGrounded();
      expect(metric.model).toBe(inner);
      return metric.forward(example, Prediction.from({ response: "Paris", context: "Paris is the capital." }));
    });
    expect((await pending).f1).toBe(1);
    expect(server.requestsTo("chat").map((r) => r.body.model)).toEqual(["inner", "inner"]);
    expect(new SemanticF1().model.name).toBe("outer");
  });

  it("a metric built before any judge is configured looks the default up when it first runs", async () => {
    const metric = new SemanticF1();
    server.enqueue("chat", chatJson({ reasoning: "r", recall: 1, precision: 1 }));
    configure({ judge: testJudge(server, { model: "late" }) });
    expect((await metric.forward(example, prediction)).f1).toBe(1);
  });

  it("no judge anywhere is a clear configuration error", async () => {
    await expect(new SemanticF1().forward(example, prediction)).rejects.toThrow(/configure\(\{ judge \}\)/);
  });

  it("a default judge given by name is built from the environment", () => {
    useOpenAIEnv();
    configure({ judge: "gpt-4o-mini" });
    expect(new SemanticF1().model.name).toBe("gpt-4o-mini");
  });
});

describe("G-Eval: DeepEval's rubric form and a bounded score schema", () => {
  it("accepts { score: [lo, hi], expected_outcome } and agrees with the camelCase form", () => {
    const deepeval = new GEval({
      model: testJudge(server),
      name: "Correctness",
      criteria: "Is it correct?",
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
      rubric: [
        { score: [0, 2], expected_outcome: "Wrong." },
        { score: [3, 6], expected_outcome: "Partly right." },
        { score: [7, 9], expected_outcome: "Right." },
      ],
    });
    const ours = new GEval({
      model: testJudge(server),
      name: "Correctness",
      criteria: "Is it correct?",
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
      rubric: [
        { scoreRange: [0, 2], expectedOutcome: "Wrong." },
        { scoreRange: [3, 6], expectedOutcome: "Partly right." },
        { scoreRange: [7, 9], expectedOutcome: "Right." },
      ],
    });
    expect(deepeval.rubric).toEqual(ours.rubric);
    expect(deepeval.scoreRange).toEqual([0, 9]);
    expect(
      () =>
        new GEval({
          model: testJudge(server),
          name: "x",
          criteria: "c",
          evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
          rubric: [{ score: [0, 2], scoreRange: [0, 2], expected_outcome: "both" } as never],
        }),
    ).toThrow(JudgeMetricConfigError);
  });

  it("sends a score schema bounded to the rubric scale, and re-asks a reply outside it", async () => {
    const metric = new GEval({
      model: testJudge(server, { capabilities: { supportsLogprobs: false } }),
      name: "Correctness",
      evaluationSteps: ["Check the answer."],
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
      rubric: [
        { score: [0, 1], expected_outcome: "Wrong." },
        { score: [2, 4], expected_outcome: "Right." },
      ],
    });
    server.enqueue("chat", chatJson({ reason: "r", score: 7.5 }), chatJson({ reason: "Correct.", score: 4 }));
    const score = await metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "a" }));
    expect(score).toBe(1);
    const [first, second] = server.requestsTo("chat");
    const schema = first!.body.response_format.json_schema.schema;
    expect(schema.properties.score).toMatchObject({ type: "integer", minimum: 0, maximum: 4 });
    expect(second).toBeDefined();
  });

  it("an in-range integer reply with logprobs is weighted, not the raw-score fallback", async () => {
    const metric = new GEval({
      model: testJudge(server),
      name: "Correctness",
      evaluationSteps: ["Check the answer."],
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
    });
    const content = '{"reason":"ok","score":8}';
    server.enqueue(
      "chat",
      chatJson(JSON.parse(content), {
        logprobs: textLogprobs(content, (t) => (t === "8" ? { "8": Math.log(0.5), "9": Math.log(0.5) } : undefined)),
      }),
    );
    const score = await metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "a" }));
    expect(metric.scoring).toBe("logprob-weighted");
    expect(score).toBeCloseTo(0.85, 12);
  });
});

describe("every judge measurement reports its scoring path", () => {
  const testCase = new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris is the capital." });

  it("structured when every first reply was valid", async () => {
    server.enqueue("chat", ...relevancyReplies());
    const metric = new AnswerRelevancyMetric({ model: testJudge(server) });
    expect(metric.scoringPath).toBeNull();
    await metric.aMeasure(testCase);
    expect(metric.scoringPath).toBe("structured");
    expect(metric.judgeCalls.map((c) => [c.schema, c.attempts, c.outputMode])).toEqual([
      ["statements", 1, "json_schema"],
      [expect.stringMatching(/^verdict/), 1, "json_schema"],
      ["reason", 1, "json_schema"],
    ]);
  });

  it("repaired-and-re-asked when a cut-off reply was asked again (the score never comes from the repaired one)", async () => {
    server.enqueue("chat", chatText('{"statements": ["Paris is the capital."]', { finishReason: "length" }), ...relevancyReplies());
    const metric = new AnswerRelevancyMetric({ model: testJudge(server) });
    expect(await metric.aMeasure(testCase)).toBe(1);
    expect(metric.scoringPath).toBe("repaired-and-re-asked");
    expect(metric.judgeCalls[0]!.attempts).toBe(2);
    await metric.aMeasure(testCase).catch(() => undefined); // the next measurement starts afresh
    expect(metric.judgeCalls.length).toBeLessThan(3);
  });

  it("a copy books its calls and tokens into itself, never into the metric it was copied from", async () => {
    server.enqueue("chat", ...relevancyReplies());
    const metric = new AnswerRelevancyMetric({ model: testJudge(server) });
    await metric.aMeasure(testCase);
    const copy = metric.copy();
    expect(copy.judgeCalls).toEqual([]);
    expect(metric.judgeCalls).toHaveLength(3);
    // The copy's measurement: one statement call only (tokens 7 in, 0 out), then a failed verdict call.
    server.enqueue("chat", chatJson({ statements: ["x"] }, { usage: { prompt_tokens: 7, completion_tokens: 0 } }), chatText("not json"));
    await copy.aMeasure(testCase).catch(() => undefined);
    expect(copy.judgeCalls[0]!.schema).toBe("statements");
    expect(copy.inputTokens).toBeGreaterThanOrEqual(7);
    expect(metric.judgeCalls).toHaveLength(3);
    expect([metric.inputTokens, metric.outputTokens]).toEqual([1_000_000, 1_000_000]);
  });

  it("G-Eval: logprob-weighted or raw-score", async () => {
    const make = (judge: OpenAICompatibleJudge) =>
      new GEval({ model: judge, name: "C", evaluationSteps: ["Check."], evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT] });
    const content = '{"reason":"ok","score":8}';
    server.enqueue("chat", chatJson(JSON.parse(content), { logprobs: textLogprobs(content, (t) => (t === "8" ? { "8": 0 } : undefined)) }));
    const weighted = make(testJudge(server));
    await weighted.aMeasure(testCase);
    expect(weighted.scoringPath).toBe("logprob-weighted");
    server.enqueue("chat", chatJson({ reason: "ok", score: 8 }));
    const raw = make(testJudge(server, { capabilities: { supportsLogprobs: false } }));
    await raw.aMeasure(testCase);
    expect(raw.scoringPath).toBe("raw-score");
  });

  it("DSPy judges put it on the prediction", async () => {
    server.enqueue(
      "chat",
      chatText('{"reasoning": "r", "recall": 1', { finishReason: "length" }),
      chatJson({ reasoning: "r", recall: 1, precision: 1 }),
    );
    const result = await new SemanticF1({ model: testJudge(server) }).forward(
      Example.from({ question: "q", response: "Paris" }),
      Prediction.from({ response: "Paris" }),
    );
    expect(result.scoringPath).toBe("repaired-and-re-asked");
    expect(result.f1).toBe(1);
  });
});
