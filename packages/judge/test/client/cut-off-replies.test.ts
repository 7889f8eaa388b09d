// Issue 11, defect 2: under a structured-output request a cut-off reply (here `…"precision":0` with
// finish_reason "stop", which the tolerant parser could close into `precision: 0`) is never a
// measurement: it is re-asked within the budget, then a typed per-item failure, never a score of 0.
import { Example, Prediction } from "@evalkern/metrics/dsrs";
import { LLMTestCase, LLMTestCaseParams } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GEval } from "../../src/deepeval/index.js";
import { CompleteAndGrounded, JudgeOutputError, SemanticF1, extractJson } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, chatText, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const example = Example.from({ question: "What do cats eat?", response: "Cats are carnivores: they eat meat and fish." });
const pred = Prediction.from({ response: "Cats eat meat.", context: ["Cats are obligate carnivores."] });
const testCase = new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris." });

/** The reply a server sends when its output was cut inside `"precision": 0.85`. */
const CUT_SEMANTIC = '{"reasoning": "covers meat, misses fish", "recall": 0.5, "precision":0';

describe("extractJson without completion (structured output)", () => {
  it("says a reply is cut off instead of closing it; fences and prose are still dropped", () => {
    expect(extractJson(CUT_SEMANTIC)).toMatchObject({ ok: true, value: { precision: 0 }, repaired: true }); // the tolerant default
    expect(extractJson(CUT_SEMANTIC, { complete: false })).toMatchObject({ ok: false, incomplete: true });
    expect(extractJson('{"a": {"b": 1}', { complete: false })).toMatchObject({ ok: false, incomplete: true });
    expect(extractJson('{"v": [{"x": "yes"}, {"x": "no", "r": "cu', { complete: false })).toMatchObject({ ok: false, incomplete: true });
    expect(extractJson('Sure:\n```json\n{"a": [1, 2,]}\n```', { complete: false })).toEqual({
      ok: true,
      value: { a: [1, 2] },
      repaired: true,
    });
    expect(extractJson("no json", { complete: false })).toEqual({ ok: false, reason: "reply contains no JSON object" });
  });
});

describe("a cut-off structured reply is never a measurement", () => {
  it("SemanticF1 re-asks and scores the complete reply", async () => {
    server.enqueue("chat", chatText(CUT_SEMANTIC), chatJson({ reasoning: "covers meat, misses fish", recall: 0.5, precision: 0.85 }));
    const r = await new SemanticF1({ model: testJudge(server) }).forward(example, pred);
    expect(r.precision).toBe(0.85);
    expect(r.score).toBeCloseTo((2 * 0.85 * 0.5) / 1.35, 12);
    const reask = server.requestsTo("chat")[1]!.body.messages.at(-1).content as string;
    expect(reask).toMatch(/cut off/);
  });

  it("SemanticF1: cut off every time → JudgeOutputError (truncated), no score", async () => {
    server.handle("chat", () => chatText(CUT_SEMANTIC));
    const e = await new SemanticF1({ model: testJudge(server) }).forward(example, pred).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeOutputError);
    expect((e as JudgeOutputError).failure).toBe("truncated");
    expect((e as JudgeOutputError).attempts).toBe(3); // first ask + maxReasks 2
    expect(server.requestsTo("chat")).toHaveLength(3);
  });

  it("CompleteAndGrounded: a cut-off groundedness reply → typed failure, not F1 0", async () => {
    server.enqueue(
      "chat",
      chatJson({
        reasoning: "r",
        ground_truth_key_ideas: "1. meat 2. fish",
        system_response_key_ideas: "1. meat",
        discussion: "misses fish",
        completeness: 0.5,
      }),
    );
    server.handle("chat", () =>
      chatText('{"reasoning": "r", "system_response_claims": "1. meat", "discussion": "supported", "groundedness": 0'),
    );
    const e = await new CompleteAndGrounded({ model: testJudge(server, { maxReasks: 1 }) }).forward(example, pred).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeOutputError);
    expect((e as JudgeOutputError).failure).toBe("truncated");
    expect(server.requestsTo("chat")).toHaveLength(3);
  });

  it('G-Eval: a reply cut at the score (`"score": 0` of a 0–10 scale) is re-asked, then a failure with score null', async () => {
    const metric = new GEval({
      model: testJudge(server, { maxReasks: 1 }),
      name: "Correct",
      evaluationSteps: ["Is it right?"],
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
      topLogprobs: 0,
    });
    server.enqueue("chat", chatText('{"reason": "Right.", "score": 1'), chatJson({ reason: "Right.", score: 10 }));
    expect(await metric.aMeasure(testCase)).toBe(1);

    server.reset();
    server.handle("chat", () => chatText('{"reason": "Right.", "score": 0'));
    const e = await metric.aMeasure(testCase).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeOutputError);
    expect(metric.score).toBeNull();
    expect(metric.error).toMatch(/cut off/);
  });
});
