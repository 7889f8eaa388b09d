// dsrs LlmJudgeMetric (a real judge behind dsrs's interface) and DiffMetric's Semantic strictness.
import { DiffMetric, Example, MetricScore, ScorerBuilder } from "@evalkern/metrics/dsrs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CRITERIA, JudgeCache, JudgeOutputError, LlmJudgeMetric, semanticDiffJudge, semanticDiffMetric } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("LlmJudgeMetric", () => {
  it("keeps dsrs's interface: name, tier, criteria, cost, builders", () => {
    const metric = new LlmJudgeMetric({ model: testJudge(server) });
    expect(metric.name).toBe("llm_judge");
    expect(metric.tier).toBe("truth");
    expect(metric.criteria).toEqual(DEFAULT_CRITERIA);
    expect(metric.costEstimate).toBe(100);
    const custom = metric.withCriteria(["Tests"]).withCost(250).withName("review").withPrompt("Be strict.");
    expect([custom.name, custom.costEstimate, custom.criteria, custom.systemPrompt]).toEqual(["review", 250, ["Tests"], "Be strict."]);
    expect(metric.name).toBe("llm_judge");
  });

  it("system prompt + criteria as the system message, input and output as the user message → MetricScore", async () => {
    server.enqueue(
      "chat",
      chatJson({ reason: "handles the empty list", score: 0.75 }, { usage: { prompt_tokens: 300, completion_tokens: 30 } }),
    );
    const judge = testJudge(server, { model: "gpt-test", price: { inputPerMTok: 1, outputPerMTok: 2 } });
    const metric = new LlmJudgeMetric({ model: judge });
    const input = Example.from({ goal: "sum a list", expected: "def s(xs): return sum(xs)" });
    const score = await metric.evaluate(input, { code: "def s(xs):\n    return sum(xs)" });
    expect(score).toBeInstanceOf(MetricScore);
    expect(score.value).toBe(0.75);
    expect(score.confidence).toBe(1);
    expect(score.costMsats).toBe(100);
    expect(score.details).toBe("handles the empty list (judge gpt-test, 300 in / 30 out tokens, $0.000360)");
    const [system, user] = server.requests[0]!.body.messages;
    expect(system.role).toBe("system");
    expect(system.content).toContain("Criteria:\n- Correctness\n- Completeness\n- Code quality");
    expect(user.content).toBe(
      "Input:\n### goal\nsum a list\n\n### expected\ndef s(xs): return sum(xs)\n\nOutput:\n### code\ndef s(xs):\n    return sum(xs)",
    );
    expect(server.requests[0]!.body.response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 0, maximum: 1 });
    expect(judge.ledger.forMetric("llm_judge").calls).toBe(1);
  });

  it("with msatsPerUsd the score's cost is the actual spend (0 for a cache hit)", async () => {
    server.handle("chat", () => chatJson({ reason: "ok", score: 1 }, { usage: { prompt_tokens: 1000, completion_tokens: 100 } }));
    const judge = testJudge(server, { price: { inputPerMTok: 1, outputPerMTok: 2 }, cache: new JudgeCache() });
    const metric = new LlmJudgeMetric({ model: judge, msatsPerUsd: 1_000_000 });
    const first = await metric.evaluate({ goal: "g" }, { code: "c" });
    expect(first.costMsats).toBe(1200); // $0.0012 × 1e6 msats/$
    const again = await metric.evaluate({ goal: "g" }, { code: "c" });
    expect(again.costMsats).toBe(0);
    expect(again.value).toBe(1);
    expect(again.details).toContain("cached");
    expect(metric.costEstimate).toBe(100);
  });

  it("a score outside [0, 1] is re-asked; a judge that never complies rejects (no placeholder 0.5)", async () => {
    server.enqueue("chat", chatJson({ reason: "r", score: 7 }), chatJson({ reason: "r", score: 0.7 }));
    const metric = new LlmJudgeMetric({ model: testJudge(server) });
    expect((await metric.evaluate({ goal: "g" }, { code: "c" })).value).toBe(0.7);
    for (let i = 0; i < 3; i++) server.enqueue("chat", chatJson({ reason: "r", score: 7 }));
    await expect(metric.evaluate({ goal: "g" }, { code: "c" })).rejects.toBeInstanceOf(JudgeOutputError);
  });

  it("plugs into the dsrs Scorer as the default truth judge", async () => {
    server.handle("chat", () => chatJson({ reason: "fine", score: 0.5 }));
    const scorer = new ScorerBuilder()
      .withDefaultTruthMetrics({ judge: new LlmJudgeMetric({ model: testJudge(server) }) })
      .rollouts(1)
      .build();
    const card = await scorer.score(
      () => ({ output: "x = 1" }),
      [{ id: "t1", goal: "set x", goldFiles: [{ path: "a.py", content: "x = 1" }] }],
    );
    expect(card.perMetric.llm_judge).toBe(0.5);
    expect(card.perMetric.diff).toBe(1);
    expect(card.totalCostMsats).toBe(100);
  });
});

describe("DiffMetric Semantic strictness", () => {
  it("scores the judge's similarity with dsrs's Semantic cost (50 msats)", async () => {
    server.enqueue("chat", chatJson({ reason: "same sum, operands swapped", equivalent: true, similarity: 0.95 }));
    const diff = semanticDiffMetric({ model: testJudge(server) });
    expect(diff.strictness).toBe("Semantic");
    expect(diff.costEstimate).toBe(50);
    const score = await diff.evaluate({ expected: "return a + b" }, { output: "return b + a" });
    expect(score.value).toBe(0.95);
    expect(score.costMsats).toBe(50);
    expect(score.details).toMatch(/^Semantically equivalent \(similarity 0\.95\): same sum, operands swapped/);
    const user = server.requests[0]!.body.messages[1].content;
    expect(user).toBe("Expected:\nreturn a + b\n\nActual:\nreturn b + a");
  });

  it("binary scoring; the empty-expected path makes no call (0.5, as every strictness)", async () => {
    server.enqueue("chat", chatJson({ reason: "different", equivalent: false, similarity: 0.4 }));
    const diff = new DiffMetric({
      strictness: "Semantic",
      semanticJudge: semanticDiffJudge({ model: testJudge(server), scoring: "binary" }),
    });
    expect((await diff.evaluate({ expected: "a" }, { output: "b" })).value).toBe(0);
    const empty = await diff.evaluate({ expected: "" }, { output: "b" });
    expect(empty.value).toBe(0.5);
    expect(empty.details).toBe("No expected output to compare against");
    expect(server.requests).toHaveLength(1);
  });

  it('withStrictness("Semantic") on a DiffMetric that has the judge', async () => {
    server.enqueue("chat", chatJson({ reason: "r", equivalent: true, similarity: 1 }));
    const diff = new DiffMetric().withSemanticJudge(semanticDiffJudge({ model: testJudge(server) })).withStrictness("Semantic");
    expect((await diff.evaluate({ gold: "x" }, { answer: "y" })).value).toBe(1);
  });
});
