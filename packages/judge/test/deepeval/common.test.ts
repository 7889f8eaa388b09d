// What every DeepEval judge metric shares: sync measure throws the typed error, cost and token
// accounting (null-poisoning, unpriced judges, cache hits, failed calls), verbose logs, failures as
// values, abort, and the strict-mode-compatible schemas sent to the model.
import {
  ArenaTestCase,
  ConversationalTestCase,
  LLMTestCase,
  LLMTestCaseParams,
  SyncMeasureUnsupportedError,
} from "@evalkern/metrics/deepeval";
import { describe, expect, it } from "vitest";
import {
  AnswerRelevancyMetric,
  ArenaGEval,
  BiasMetric,
  BinaryJudgementNode,
  ContextualPrecisionMetric,
  ContextualRecallMetric,
  ContextualRelevancyMetric,
  ConversationCompletenessMetric,
  DAGMetric,
  DeepAcyclicGraph,
  FaithfulnessMetric,
  GEval,
  HallucinationMetric,
  JudgeMetricConfigError,
  KnowledgeRetentionMetric,
  PIILeakageMetric,
  PlanAdherenceMetric,
  RoleAdherenceMetric,
  StepEfficiencyMetric,
  SummarizationMetric,
  TaskCompletionMetric,
  ToxicityMetric,
  VerdictNode,
  tryMeasure,
} from "../../src/deepeval/index.js";
import { FakeJudge, reasonReply, reply, verdicts } from "./support.js";

const testCase = new LLMTestCase({ input: "q", actualOutput: "a. b." });

describe("every metric", () => {
  const model = new FakeJudge();
  const params = [LLMTestCaseParams.INPUT];
  const dag = new DeepAcyclicGraph([
    new BinaryJudgementNode({
      criteria: "?",
      evaluationParams: params,
      children: [new VerdictNode({ verdict: true, score: 1 }), new VerdictNode({ verdict: false, score: 0 })],
    }),
  ]);
  const singleTurn = [
    new AnswerRelevancyMetric({ model }),
    new FaithfulnessMetric({ model }),
    new HallucinationMetric({ model }),
    new ContextualPrecisionMetric({ model }),
    new ContextualRecallMetric({ model }),
    new ContextualRelevancyMetric({ model }),
    new BiasMetric({ model }),
    new ToxicityMetric({ model }),
    new PIILeakageMetric({ model }),
    new SummarizationMetric({ model }),
    new GEval({ model, name: "G", criteria: "c", evaluationParams: params }),
    new DAGMetric({ model, name: "D", dag }),
    new TaskCompletionMetric({ model }),
    new PlanAdherenceMetric({ model }),
    new StepEfficiencyMetric({ model }),
  ];
  const conversational = [
    new KnowledgeRetentionMetric({ model }),
    new ConversationCompletenessMetric({ model }),
    new RoleAdherenceMetric({ model }),
  ];

  it("has DeepEval's names, default threshold 0.5, includeReason true, and direction", () => {
    expect([...singleTurn, ...conversational].map((m) => m.name)).toEqual([
      "Answer Relevancy",
      "Faithfulness",
      "Hallucination",
      "Contextual Precision",
      "Contextual Recall",
      "Contextual Relevancy",
      "Bias",
      "Toxicity",
      "PII Leakage",
      "Summarization",
      "G [GEval]",
      "D [DAG]",
      "Task Completion",
      "Plan Adherence",
      "Step Efficiency",
      "Knowledge Retention",
      "Conversation Completeness",
      "Role Adherence",
    ]);
    for (const metric of [...singleTurn, ...conversational]) {
      expect(metric.threshold).toBe(0.5);
      expect(metric.includeReason).toBe(true);
      expect(metric.evaluationModel).toBe("fake-judge");
    }
    expect([...singleTurn, ...conversational].filter((m) => !m.higherIsBetter).map((m) => m.name)).toEqual([
      "Hallucination",
      "Bias",
      "Toxicity",
    ]);
  });

  it("measure() throws SyncMeasureUnsupportedError (judge metrics are aMeasure-only)", () => {
    for (const metric of singleTurn) expect(() => metric.measure(testCase)).toThrow(SyncMeasureUnsupportedError);
    const chat = new ConversationalTestCase({ turns: [{ role: "user", content: "hi" }], chatbotRole: "r" });
    for (const metric of conversational) expect(() => metric.measure(chat)).toThrow(SyncMeasureUnsupportedError);
    const arenaMetric = new ArenaGEval({ model, name: "A", criteria: "c", evaluationParams: params });
    const arena = new ArenaTestCase({
      contestants: [
        { name: "x", testCase: { input: "q" } },
        { name: "y", testCase: { input: "q" } },
      ],
    });
    expect(() => arenaMetric.measure(arena)).toThrow(SyncMeasureUnsupportedError);
    expect(model.calls).toHaveLength(0);
  });

  it("rejects a missing model", () => {
    expect(() => new AnswerRelevancyMetric({} as never)).toThrow(JudgeMetricConfigError);
    expect(() => new ArenaGEval({ name: "A", criteria: "c", evaluationParams: params } as never)).toThrow(JudgeMetricConfigError);
  });
});

describe("cost and tokens", () => {
  const script = () => [reply("statements", { statements: ["a"] }), verdicts("yes"), reasonReply()];

  it("sums every call's usage, the reason call included", async () => {
    const judge = new FakeJudge(script(), { usage: { inputTokens: 11, outputTokens: 3, costUsd: 0.25 } });
    const metric = new AnswerRelevancyMetric({ model: judge });
    await metric.aMeasure(testCase);
    expect(metric.evaluationCost).toBe(0.75);
    expect(metric.inputTokens).toBe(33);
    expect(metric.outputTokens).toBe(9);
    expect(metric.toMetricData()).toMatchObject({
      name: "Answer Relevancy",
      score: 1,
      evaluationCost: 0.75,
      inputTokens: 33,
      success: true,
    });
  });

  it("an unknown price poisons the cost (null) but tokens still add up; unpriced judges report null", async () => {
    const judge = new FakeJudge([
      reply("statements", { statements: ["a"] }),
      reply("verdicts", { verdicts: [{ verdict: "yes" }] }, { usage: { costUsd: null } }),
      reasonReply(),
    ]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    await metric.aMeasure(testCase);
    expect(metric.evaluationCost).toBeNull();
    expect(metric.inputTokens).toBe(300);

    const unpriced = new AnswerRelevancyMetric({ model: new FakeJudge(script(), { reportsCost: false }) });
    await unpriced.aMeasure(testCase);
    expect(unpriced.evaluationCost).toBeNull();
    expect(unpriced.inputTokens).toBe(300);
  });

  it("cache hits cost nothing", async () => {
    const judge = new FakeJudge([
      reply("statements", { statements: ["a"] }, { cached: true }),
      reply("verdicts", { verdicts: [{ verdict: "yes" }] }, { cached: true }),
      reply("reason", { reason: "r" }, { cached: true }),
    ]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    await metric.aMeasure(testCase);
    expect(metric.evaluationCost).toBe(0);
  });

  it("a failed call's reported usage still counts", async () => {
    const failure = Object.assign(new Error("output: unusable"), { usage: { inputTokens: 40, outputTokens: 7, costUsd: 0.5 } });
    const judge = new FakeJudge([reply("statements", { statements: ["a"] }), failure]);
    const metric = new AnswerRelevancyMetric({ model: judge });
    await expect(metric.aMeasure(testCase)).rejects.toBe(failure);
    expect(metric.evaluationCost).toBeCloseTo(0.501, 12);
    expect(metric.inputTokens).toBe(140);
    expect(metric.error).toBe("Error: output: unusable");
  });

  it("calls are tagged with the metric name for the judge's ledger", async () => {
    const judge = new FakeJudge(script());
    await new AnswerRelevancyMetric({ model: judge }).aMeasure(testCase);
    expect(judge.calls.map((c) => c.request.metric)).toEqual(["Answer Relevancy", "Answer Relevancy", "Answer Relevancy"]);
  });
});

describe("verbose logs, failures as values, abort", () => {
  it("verbose logs hold the intermediate artefacts; verboseMode prints them", async () => {
    const printed: string[] = [];
    const judge = new FakeJudge([reply("statements", { statements: ["Paris is big"] }), verdicts(["no", "off"]), reasonReply("because")]);
    const metric = new AnswerRelevancyMetric({
      model: judge,
      verboseMode: true,
      verbosePrinter: (name, logs) => printed.push(`${name}|${logs}`),
    });
    await metric.aMeasure(testCase);
    expect(metric.verboseLogs).toContain('Statements:\n[\n    "Paris is big"\n]');
    expect(metric.verboseLogs).toContain('"verdict": "no"');
    expect(printed[0]).toMatch(/^Answer Relevancy\|[^]*Score: 0\.0\nReason: because$/);
  });

  it("tryMeasure returns the failure as a value", async () => {
    const ok = await tryMeasure(
      new AnswerRelevancyMetric({ model: new FakeJudge([reply("statements", { statements: [] }), reasonReply("r")]) }),
      testCase,
    );
    expect(ok).toEqual({ ok: true, score: 1, success: true, reason: "r" });
    const bad = await tryMeasure(new AnswerRelevancyMetric({ model: new FakeJudge([reply("statements", { nope: 1 })]) }), testCase);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/^JudgeReplyError: the judge's 'statements' reply is unusable \(schema\)/);
  });

  it("an aborted signal stops the measurement", async () => {
    const controller = new AbortController();
    controller.abort();
    const metric = new AnswerRelevancyMetric({ model: new FakeJudge([reply("statements", { statements: [] })]) });
    await expect(metric.aMeasure(testCase, { signal: controller.signal })).rejects.toThrow();
    expect(metric.score).toBeNull();
    expect(metric.success).toBe(false);
  });

  it("the JSON Schemas sent are strict-mode compatible (all properties required, nullable reasons)", async () => {
    const judge = new FakeJudge([reply("statements", { statements: ["a"] }), verdicts("yes"), reasonReply()]);
    await new AnswerRelevancyMetric({ model: judge }).aMeasure(testCase);
    const schema = judge.calls[1]!.request.schema!;
    expect(schema.strict).toBe(true);
    expect(schema.jsonSchema).toEqual({
      type: "object",
      properties: {
        verdicts: {
          type: "array",
          items: {
            type: "object",
            properties: { verdict: { type: "string", enum: ["yes", "no", "idk"] }, reason: { type: ["string", "null"] } },
            required: ["verdict", "reason"],
            additionalProperties: false,
          },
        },
      },
      required: ["verdicts"],
      additionalProperties: false,
    });
  });
});
