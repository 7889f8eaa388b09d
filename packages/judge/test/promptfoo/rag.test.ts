// promptfoo's similar (cosine, dot, euclidean), answer-relevance, context-faithfulness, context-recall,
// context-relevance and moderation assertion types over a scripted server, with the cases and pass rules of
// promptfoo's own tests (threshold defaults, `not-` semantics, euclidean's 1 / (1 + d) score).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RAG_ASSERTIONS } from "../../src/autoevals/index.js";
import { JudgeInputError } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, moderation, startServer, vectorsFor, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const grade = (type: string, input: Parameters<(typeof RAG_ASSERTIONS)[string]["grade"]>[0]) =>
  RAG_ASSERTIONS[type]!.grade(input, testJudge(server));

describe("similar", () => {
  beforeEach(() => server.handle("embeddings", vectorsFor({ out: [1, 0], near: [0.8, 0.6], far: [0, 1], half: [0.5, 0.5], ones: [1, 1] })));

  it("cosine: passes at or above the threshold (default 0.75), score = similarity; not-similar inverts", async () => {
    expect(RAG_ASSERTIONS.similar!.defaultThreshold).toBe(0.75);
    const pass = await grade("similar", { output: "out", value: "near" });
    expect(pass).toMatchObject({ pass: true, reason: "Similarity 0.80 is greater than or equal to threshold 0.75" });
    expect(pass.score).toBeCloseTo(0.8, 12);
    const inverse = await grade("similar", { output: "out", value: "near", inverse: true });
    expect(inverse.pass).toBe(false);
    expect(inverse.score).toBeCloseTo(0.2, 12);
    expect((await grade("similar", { output: "out", value: "near", threshold: 0.9 })).pass).toBe(false);
    // promptfoo's default embedding model when the judge names none
    expect(server.requestsTo("embeddings")[0]!.body.model).toBe("text-embedding-3-large");
  });

  it("a list passes on any value, else reports the best score; not-similar needs every value far", async () => {
    const any = await grade("similar", { output: "out", value: ["far", "near"] });
    expect(any.pass).toBe(true);
    const none = await grade("similar", { output: "out", value: ["far", "near"], threshold: 0.95 });
    expect(none).toMatchObject({ pass: false, reason: "None of the provided values met the similarity threshold" });
    expect(none.score).toBeCloseTo(0.8, 12);
    const notAny = await grade("similar", { output: "out", value: ["far", "near"], inverse: true });
    expect(notAny.pass).toBe(false);
  });

  it("dot product and euclidean distance (score 1 / (1 + d), pass when d <= threshold)", async () => {
    const dot = await grade("similar:dot", { output: "half", value: "ones", threshold: 0.9 });
    expect(dot.pass).toBe(true);
    expect(dot.score).toBeCloseTo(1, 12);
    const d = Math.SQRT2;
    const close = await RAG_ASSERTIONS["similar:euclidean"]!.grade({ output: "out", value: "far", threshold: 1.5 }, testJudge(server));
    expect(close.pass).toBe(true);
    expect(close.score).toBeCloseTo(1 / (1 + d), 12);
    const tooFar = await grade("similar:euclidean", { output: "out", value: "far", threshold: 1 });
    expect(tooFar).toMatchObject({ pass: false, reason: "Distance 1.41 is greater than threshold 1" });
    await expect(grade("similar", { output: "out", value: [] })).rejects.toBeInstanceOf(JudgeInputError);
    await expect(grade("similar", { type: "similar:manhattan", output: "out", value: "far" })).rejects.toThrow(/Unknown similarity metric/);
  });
});

describe("RAG assertions", () => {
  it("answer-relevance: mean cosine of three generated questions with the query (default threshold 0.7)", async () => {
    const questions = ["q1", "q2", "q3"];
    let n = 0;
    server.handle("chat", () => chatJson({ question: questions[n++ % 3], noncommittal: 0 }));
    server.handle("embeddings", vectorsFor({ query: [1, 0], q1: [1, 0], q2: [0.8, 0.6], q3: [0.6, 0.8] }));
    const result = await grade("answer-relevance", { output: "o", vars: { query: "query" } });
    // (1 + 0.8 + 0.6) / 3 = 0.8
    expect(result.score).toBeCloseTo(0.8, 12);
    expect(result).toMatchObject({ pass: true, reason: "Relevance 0.80 is >= 0.7" });
  });

  it("context-faithfulness: supported statements over statements (promptfoo's 0.67 >= 0.5 case)", async () => {
    const v = (verdict: number) => ({ statement: "s", verdict, reason: "r" });
    server.enqueue(
      "chat",
      chatJson({ statements: ["Statement 1", "Statement 2", "Statement 3"] }),
      chatJson({ faithfulness: [v(1), v(0), v(1)] }),
    );
    const result = await grade("context-faithfulness", { output: "o", vars: { query: "q", context: "c" }, threshold: 0.5 });
    expect(result).toMatchObject({ pass: true, reason: "Faithfulness 0.67 is >= 0.5" });
    expect(result.score).toBeCloseTo(2 / 3, 12);
    await expect(grade("context-faithfulness", { output: "o", vars: { context: "c" } })).rejects.toThrow(/"query" variable/);
  });

  it("context-recall: attributed statements of the value over its statements", async () => {
    const st = (attributed: number) => ({ statement: "s", attributed, reason: "r" });
    server.enqueue("chat", chatJson({ statements: [st(1), st(0)] }));
    const result = await grade("context-recall", { output: "o", value: "Paris is the capital", vars: { context: "c" }, threshold: 0.9 });
    expect(result).toMatchObject({ pass: false, score: 0.5, reason: "Recall 0.50 is < 0.9" });
  });

  it("context-relevance: relevant sentences over the context's sentences (default threshold 0.5)", async () => {
    server.enqueue("chat", chatJson({ sentences: [{ sentence: "Paris is the capital.", reasons: ["r"] }] }));
    const context = "Paris is the capital. It is large. It is old. It has a river.";
    const result = await grade("context-relevance", { output: "o", vars: { query: "capital?", context } });
    expect(result).toMatchObject({ pass: false, score: 0.25, reason: "Context relevance 0.25 is < 0.5" });
  });

  it("not- flips pass and scores 1 − score", async () => {
    const st = (attributed: number) => ({ statement: "s", attributed, reason: "r" });
    server.enqueue("chat", chatJson({ statements: [st(1), st(1), st(1), st(0)] }));
    const result = await grade("context-recall", { output: "o", value: "v", vars: { context: "c" }, threshold: 0.5, inverse: true });
    expect(result.pass).toBe(false);
    expect(result.score).toBeCloseTo(0.25, 12);
  });
});

describe("moderation", () => {
  it("fails on the flagged categories (or only the listed ones); no output passes", async () => {
    server.handle("moderations", () => moderation({ flagged: true, scores: { violence: 0.9, hate: 0.1 } }));
    expect(RAG_ASSERTIONS.moderation!.defaultThreshold).toBeNull();
    expect(await grade("moderation", { output: "bad" })).toMatchObject({
      pass: false,
      score: 0,
      reason: "Moderation flags detected: violence",
    });
    expect(await grade("moderation", { output: "bad", value: ["hate"] })).toMatchObject({
      pass: true,
      score: 1,
      reason: "No relevant moderation flags detected",
    });
    expect(await grade("moderation", { output: "" })).toMatchObject({ pass: true, reason: "No output to moderate" });
    server.handle("moderations", () => moderation({ flagged: false, scores: { violence: 0.1 } }));
    expect(await grade("moderation", { output: "fine" })).toMatchObject({ pass: true, reason: "No moderation flags detected" });
  });
});
