// DeepEval metrics end to end: the real OpenAICompatibleJudge over HTTP against the scripted loopback
// server — structured-output requests, cost from a price table, G-Eval logprob weighting from the
// server's top_logprobs, a schema-violating judge, cache replay and the shared concurrency limit.
import { LLMTestCase, LLMTestCaseParams } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AnswerRelevancyMetric,
  BinaryJudgementNode,
  ContextualRelevancyMetric,
  DAGMetric,
  DeepAcyclicGraph,
  FaithfulnessMetric,
  GEval,
  TaskNode,
  VerdictNode,
} from "../../src/deepeval/index.js";
import { JudgeCache, JudgeOutputError } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, chatText, startServer, textLogprobs, unsupported, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const price = { inputPerMTok: 1, outputPerMTok: 2 };
const testCase = new LLMTestCase({
  input: "What is the capital of France?",
  actualOutput: "Paris is the capital. I like trains.",
  retrievalContext: ["Paris is the capital of France.", "Trains are popular."],
});

describe("DeepEval metrics over HTTP", () => {
  it("AnswerRelevancy: three structured calls, the score, and the cost from the price table", async () => {
    server.enqueue(
      "chat",
      chatJson({ statements: ["Paris is the capital.", "I like trains."] }),
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "Trains are off-topic." },
        ],
      }),
      chatJson({ reason: "The score is 0.50 because half the answer is about trains." }),
    );
    const metric = new AnswerRelevancyMetric({ model: testJudge(server, { price }) });
    expect(await metric.aMeasure(testCase)).toBe(0.5);
    expect(metric.reason).toBe("The score is 0.50 because half the answer is about trains.");
    expect(metric.evaluationModel).toBe("test-judge");
    const bodies = server.requestsTo("chat").map((r) => r.body);
    expect(bodies.map((b) => b.response_format.json_schema.name)).toEqual(["statements", "verdicts", "reason"]);
    expect(bodies.every((b) => b.response_format.type === "json_schema" && b.response_format.json_schema.strict === true)).toBe(true);
    expect(bodies[0].messages).toEqual([{ role: "user", content: expect.stringContaining("Paris is the capital. I like trains.") }]);
    // 3 calls × (10 prompt tokens × $1/M + 5 completion tokens × $2/M)
    expect(metric.evaluationCost).toBeCloseTo(3 * (10e-6 + 10e-6), 15);
    expect(metric.inputTokens).toBe(30);
    expect(metric.outputTokens).toBe(15);
    expect(server.pending()).toBe(0);
  });

  it("GEval: logprob-weighted score from the server's top_logprobs", async () => {
    const content = '{"reason":"Close but verbose; 7 words too many.","score":7}';
    let sevens = 0;
    // Only the second "7" (the score, not the one in the reason) gets alternatives.
    const logprobs = textLogprobs(content, (token) =>
      token === "7" && ++sevens === 2 ? { "7": Math.log(0.5), "8": Math.log(0.25), "6": Math.log(0.25) } : undefined,
    );
    server.enqueue("chat", chatText(content, { logprobs }));
    const metric = new GEval({
      model: testJudge(server),
      name: "Concision",
      evaluationSteps: ["Is the answer concise?"],
      evaluationParams: [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT],
    });
    // The last "7" token carries {7: .5, 8: .25, 6: .25} → 7.0; the "7" inside the reason has no alternatives.
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.7, 12);
    expect(metric.scoring).toBe("logprob-weighted");
    const body = server.requestsTo("chat")[0]!.body;
    expect(body.logprobs).toBe(true);
    expect(body.top_logprobs).toBe(20);

    server.reset();
    const skewed = '{"reason":"Fine.","score":8}';
    server.enqueue(
      "chat",
      chatText(skewed, {
        logprobs: textLogprobs(skewed, (t) => (t === "8" ? { "8": Math.log(0.6), "9": Math.log(0.3), "2": Math.log(0.1) } : undefined)),
      }),
    );
    expect(await metric.aMeasure(testCase)).toBeCloseTo((8 * 0.6 + 9 * 0.3 + 2 * 0.1) / 10, 12); // 0.77
  });

  it("GEval: a server that rejects logprobs falls back to the raw score", async () => {
    server.enqueue("chat", unsupported("logprobs"), chatJson({ reason: "ok", score: 6 }));
    const metric = new GEval({
      model: testJudge(server),
      name: "C",
      evaluationSteps: ["s"],
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
    });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.6, 12);
    expect(metric.scoring).toBe("raw");
    expect(server.requestsTo("chat")[1]!.body.logprobs).toBeUndefined();
  });

  it("a judge that keeps violating the schema: typed error, score null, spent tokens counted", async () => {
    server.enqueue(
      "chat",
      chatJson({ statements: ["a", "b"] }),
      chatJson({
        verdicts: [
          { verdict: "maybe", reason: null },
          { verdict: "yes", reason: null },
        ],
      }),
      chatJson({
        verdicts: [
          { verdict: "perhaps", reason: null },
          { verdict: "yes", reason: null },
        ],
      }),
      chatText('{"verdicts": [{"verdict": "unclear"}'),
    );
    const metric = new AnswerRelevancyMetric({ model: testJudge(server, { price }) });
    const failure = await metric.aMeasure(testCase).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(JudgeOutputError);
    expect(metric.score).toBeNull();
    expect(metric.success).toBe(false);
    expect(metric.error).toMatch(/^JudgeOutputError: /);
    expect(server.requestsTo("chat")).toHaveLength(4);
    expect(metric.inputTokens).toBeGreaterThanOrEqual(40);
  });

  it("cache replay: the same measurement again makes no request and gives the same score at zero cost", async () => {
    server.enqueue(
      "chat",
      chatJson({ truths: ["Paris is the capital of France."] }),
      chatJson({ claims: ["Paris is the capital.", "The speaker likes trains."] }),
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "idk", reason: "Not in the context." },
        ],
      }),
      chatJson({ reason: "The score is 1.00 because nothing is contradicted." }),
    );
    const judge = testJudge(server, { price, cache: new JudgeCache() });
    const first = new FaithfulnessMetric({ model: judge });
    expect(await first.aMeasure(testCase)).toBe(1);
    expect(first.evaluationCost).toBeGreaterThan(0);
    const requests = server.requests.length;
    const again = new FaithfulnessMetric({ model: judge });
    expect(await again.aMeasure(testCase)).toBe(1);
    expect(again.reason).toBe(first.reason);
    expect(again.evaluationCost).toBe(0);
    expect(server.requests.length).toBe(requests);
  });

  it("per-node calls share the judge's concurrency limit", async () => {
    server.handle("chat", (request) => {
      const prompt: string = request.body.messages[0].content;
      if (request.body.response_format?.json_schema?.name === "reason") return chatJson({ reason: "r" }, { delayMs: 5 });
      return chatJson({ verdicts: [{ statement: prompt.length > 0 ? "s" : "", verdict: "yes", reason: null }] }, { delayMs: 30 });
    });
    const many = testCase.with({ retrievalContext: ["n1", "n2", "n3", "n4", "n5", "n6"] });
    const metric = new ContextualRelevancyMetric({ model: testJudge(server, { maxConcurrency: 2 }) });
    expect(await metric.aMeasure(many)).toBe(1);
    expect(server.requestsTo("chat")).toHaveLength(7);
    expect(server.maxInFlight).toBe(2);
  });

  it("DAG over HTTP: task → judgement → leaf, then the reason", async () => {
    server.enqueue(
      "chat",
      chatJson({ output: ["Paris"] }),
      chatJson({ verdict: true, reason: "A city is named." }),
      chatJson({ reason: "The score is 0.8 because a city is named." }),
    );
    const dag = new DeepAcyclicGraph([
      new TaskNode({
        instructions: "List the cities mentioned.",
        outputLabel: "Cities",
        evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
        children: [
          new BinaryJudgementNode({
            criteria: "Is at least one city listed?",
            children: [new VerdictNode({ verdict: true, score: 8 }), new VerdictNode({ verdict: false, score: 0 })],
          }),
        ],
      }),
    ]);
    const metric = new DAGMetric({ model: testJudge(server), name: "Cities", dag });
    expect(await metric.aMeasure(testCase)).toBe(0.8);
    expect(metric.reason).toBe("The score is 0.8 because a city is named.");
    expect(server.requestsTo("chat").map((r) => r.body.response_format.json_schema.name)).toEqual([
      "task_output",
      "binary_verdict",
      "reason",
    ]);
    expect(server.requestsTo("chat")[1]!.body.messages[0].content).toContain('Cities:\n["Paris"]');
  });
});
