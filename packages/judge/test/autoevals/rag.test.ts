// autoevals' EmbeddingSimilarity and Moderation and the RAGAS scorers (autoevals' ports) against a scripted
// server: verdicts, vectors and moderation results scripted, every expected score computed by hand from
// autoevals' formulas (js/string.ts, js/moderation.ts, js/ragas.ts, js/list.ts), the DeepEval-style
// metric classes, and replay from the cache with the server down.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LLMTestCase } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AnswerCorrectness,
  AnswerRelevancy,
  AnswerSimilarity,
  ContextEntityRecall,
  ContextPrecision,
  ContextRecall,
  ContextRelevancy,
  EmbeddingSimilarity,
  EmbeddingSimilarityMetric,
  Faithfulness,
  Moderation,
  ModerationMetric,
  RagasFaithfulnessMetric,
} from "../../src/autoevals/index.js";
import { FileCacheStore, JudgeCache, JudgeInputError, UnsupportedCapabilityError } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, moderation, startServer, vectorsFor, type RecordedRequest, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), "evalkern-autoevals-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const prompt = (r: RecordedRequest): string => r.body.messages.at(-1).content as string;

describe("EmbeddingSimilarity and AnswerSimilarity", () => {
  it("rescale the cosine from [expectedMin, 1] to [0, 1] (0.7 by default, 0 for AnswerSimilarity)", async () => {
    server.handle("embeddings", vectorsFor({ "a cat": [1, 0], "a kitten": [0.8, 0.6], "a car": [-1, 0] }));
    const client = testJudge(server);
    // cos = 0.8 → (0.8 − 0.7) / 0.3
    const s = await EmbeddingSimilarity({ output: "a cat", expected: "a kitten", client });
    expect(s.name).toBe("EmbeddingSimilarity");
    expect(s.score).toBeCloseTo(1 / 3, 12);
    expect((await EmbeddingSimilarity({ output: "a cat", expected: "a kitten", expectedMin: 0.5, client })).score).toBeCloseTo(0.6, 12);
    expect((await AnswerSimilarity({ output: "a cat", expected: "a kitten", client })).score).toBeCloseTo(0.8, 12);
    // a negative cosine scores 0, never below
    expect((await AnswerSimilarity({ output: "a cat", expected: "a car", client })).score).toBe(0);
    // autoevals' default embedding model when the judge names none; both texts in one request
    expect(server.requestsTo("embeddings")[0]!.body).toMatchObject({ model: "text-embedding-ada-002", input: ["a cat", "a kitten"] });
  });

  it("prefixes both texts, and uses the judge's embedding model when it has one", async () => {
    server.handle("embeddings", vectorsFor({ "q: a": [1, 0], "q: b": [1, 0] }));
    const client = testJudge(server, { embeddingModel: "nomic-embed-text" });
    expect((await EmbeddingSimilarity({ output: "a", expected: "b", prefix: "q: ", client })).score).toBe(1);
    expect(server.requestsTo("embeddings")[0]!.body.model).toBe("nomic-embed-text");
  });

  it("needs expected, and a judge that can embed", async () => {
    const client = testJudge(server);
    await expect(EmbeddingSimilarity({ output: "a", client })).rejects.toBeInstanceOf(JudgeInputError);
    const chatOnly = { name: "chat-only", supportsLogprobs: false, generate: client.generate.bind(client) };
    await expect(EmbeddingSimilarity({ output: "a", expected: "b", client: chatOnly })).rejects.toBeInstanceOf(UnsupportedCapabilityError);
  });
});

describe("Moderation", () => {
  it("without a threshold follows flagged; with one, fails when any category score is above it", async () => {
    server.handle("moderations", () => moderation({ flagged: false, scores: { violence: 0.4, hate: 0.1 } }));
    const client = testJudge(server);
    const plain = await Moderation({ output: "hello", client });
    expect(plain).toMatchObject({ name: "Moderation", score: 1, metadata: { category_scores: { violence: 0.4, hate: 0.1 } } });
    expect((await Moderation({ output: "hello", threshold: 0.3, client })).score).toBe(0);
    // strictly above: a score equal to the threshold passes
    expect((await Moderation({ output: "hello", threshold: 0.4, client })).score).toBe(1);
    server.handle("moderations", () => moderation({ flagged: true, scores: { violence: 0.9 } }));
    expect((await Moderation({ output: "bad", client })).score).toBe(0);
  });
});

describe("RAGAS scorers", () => {
  it("AnswerCorrectness: (0.75 · F1 + 0.25 · similarity), F1 = tp / (tp + (fp + fn) / 2)", async () => {
    server.handle("chat", () => chatJson({ TP: ["s1"], FP: ["s2"], FN: ["s3", "s4"] }));
    server.handle("embeddings", vectorsFor({ answer: [1, 0], truth: [0.8, 0.6] }));
    const client = testJudge(server);
    const result = await AnswerCorrectness({ input: "q", output: "answer", expected: "truth", client });
    // F1 = 1 / (1 + 1.5) = 0.4; similarity 0.8; (0.75 · 0.4 + 0.25 · 0.8) / 1 = 0.5
    expect(result.metadata.factualityScore).toBeCloseTo(0.4, 12);
    expect(result.metadata.answerSimilarityScore).toBeCloseTo(0.8, 12);
    expect(result.score).toBeCloseTo(0.5, 12);
    // weights: factuality only skips the embeddings
    server.reset();
    server.handle("chat", () => chatJson({ TP: ["s1"], FP: ["s2"], FN: ["s3", "s4"] }));
    const f1Only = await AnswerCorrectness({
      input: "q",
      output: "answer",
      expected: "truth",
      client,
      answerSimilarityWeight: 0,
      factualityWeight: 2,
    });
    expect(f1Only.score).toBeCloseTo(0.4, 12);
    expect(server.requestsTo("embeddings")).toHaveLength(0);
    await expect(
      AnswerCorrectness({ input: "q", output: "a", expected: "t", client, factualityWeight: 0, answerSimilarityWeight: 0 }),
    ).rejects.toThrow(/At least one weight/);
  });

  it("ContextEntityRecall: entities paired by EmbeddingSimilarity, summed over the expected entities", async () => {
    server.handle("chat", (r) =>
      chatJson({ entities: prompt(r).includes("Paris is in France") ? ["Paris", "France"] : ["Paris", "Europe", "Frankreich"] }),
    );
    const f = Math.sqrt(1 - 0.81);
    server.handle("embeddings", vectorsFor({ Paris: [1, 0, 0], France: [0, 1, 0], Europe: [0, 0, 1], Frankreich: [0, 0.9, f] }));
    const client = testJudge(server);
    const result = await ContextEntityRecall({ expected: "Paris is in France", context: ["Paris, Europe.", "Frankreich."], client });
    // Paris–Paris cos 1 → 1; Frankreich–France cos 0.9 → (0.9 − 0.7) / 0.3 = 2/3; (1 + 2/3) / 2 expected entities
    expect(result.score).toBeCloseTo(5 / 6, 12);
    expect(result.metadata.expectedEntities).toEqual(["Paris", "France"]);
  });

  it("ContextRelevancy: characters of the selected sentences over the characters of the context", async () => {
    const context = "Paris is the capital of France. It has many cafés.";
    server.handle("chat", () => chatJson({ sentences: [{ sentence: "Paris is the capital of France.", reasons: ["names the capital"] }] }));
    const result = await ContextRelevancy({ input: "Capital of France?", context, client: testJudge(server) });
    expect(result.score).toBeCloseTo("Paris is the capital of France.".length / context.length, 12);
  });

  it("ContextRecall: attributed statements over statements; none is no score, not 0", async () => {
    const st = (attributed: number) => ({ statement: "s", attributed, reason: "r" });
    server.enqueue("chat", chatJson({ statements: [st(1), st(0), st(1), st(1)] }), chatJson({ statements: [] }));
    const client = testJudge(server);
    expect((await ContextRecall({ input: "q", expected: "e", context: "c", client })).score).toBe(0.75);
    const none = await ContextRecall({ input: "q", expected: "e", context: "c", client });
    expect(none.score).toBeNull();
    expect(none.metadata.error).toMatch(/no statements/);
  });

  it("ContextPrecision: the judge's 0/1 verdict on the joined context", async () => {
    server.enqueue("chat", chatJson({ reason: "useful", verdict: 1 }));
    const client = testJudge(server);
    expect((await ContextPrecision({ input: "q", expected: "e", context: ["c1", "c2"], client })).score).toBe(1);
    expect(prompt(server.requestsTo("chat")[0]!)).toContain("c1\nc2");
  });

  it("Faithfulness: supported statements over statements", async () => {
    const v = (verdict: number) => ({ statement: "s", verdict, reason: "r" });
    server.enqueue("chat", chatJson({ statements: ["s1", "s2", "s3"] }), chatJson({ faithfulness: [v(1), v(0), v(1)] }));
    const result = await Faithfulness({ input: "q", output: "o", context: "c", client: testJudge(server) });
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.metadata.statements).toEqual(["s1", "s2", "s3"]);
  });

  it("AnswerRelevancy: mean EmbeddingSimilarity of 3 generated questions to the input; 0 when noncommittal", async () => {
    const questions = ["q1", "q2", "q3"];
    let n = 0;
    server.handle("chat", () => chatJson({ question: questions[n++ % 3], noncommittal: 0 }));
    server.handle("embeddings", vectorsFor({ input: [1, 0], q1: [1, 0], q2: [0.8, 0.6], q3: [0.6, 0.8] }));
    const client = testJudge(server, { cache: new JudgeCache() });
    const result = await AnswerRelevancy({ input: "input", output: "o", context: "c", client });
    // cosines 1, 0.8, 0.6 → rescaled 1, 1/3, 0 → mean 4/9; three generations despite the cache (sample index)
    expect(result.score).toBeCloseTo(4 / 9, 12);
    expect(server.requestsTo("chat")).toHaveLength(3);
    server.handle("chat", () => chatJson({ question: "q1", noncommittal: 1 }));
    expect((await AnswerRelevancy({ input: "input", output: "I don't know", context: "c", client })).score).toBe(0);
  });
});

describe("as DeepEval-style metrics", () => {
  it("RagasFaithfulnessMetric measures a test case and accrues the judge's cost", async () => {
    const v = (verdict: number) => ({ statement: "s", verdict, reason: "r" });
    server.enqueue(
      "chat",
      chatJson({ statements: ["s1", "s2", "s3"] }, { usage: { prompt_tokens: 100, completion_tokens: 10 } }),
      chatJson({ faithfulness: [v(1), v(0), v(1)] }, { usage: { prompt_tokens: 100, completion_tokens: 10 } }),
    );
    const metric = new RagasFaithfulnessMetric({ model: testJudge(server, { model: "gpt-4o-mini" }) });
    const score = await metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "o", retrievalContext: ["c"] }));
    expect(score).toBeCloseTo(2 / 3, 12);
    expect(metric.success).toBe(true);
    // gpt-4o-mini: 200 input tokens at $0.15/M + 20 output at $0.60/M
    expect(metric.evaluationCost).toBeCloseTo((200 * 0.15 + 20 * 0.6) / 1e6, 15);
  });

  it("EmbeddingSimilarityMetric and ModerationMetric", async () => {
    server.handle("embeddings", vectorsFor({ "a cat": [1, 0], "a kitten": [0.8, 0.6] }));
    server.handle("moderations", () => moderation({ flagged: true, scores: { violence: 0.9 } }));
    const judge = testJudge(server);
    const similarity = new EmbeddingSimilarityMetric({ model: judge, threshold: 0.3 });
    expect(await similarity.aMeasure(new LLMTestCase({ input: "i", actualOutput: "a cat", expectedOutput: "a kitten" }))).toBeCloseTo(
      1 / 3,
      12,
    );
    expect(similarity.success).toBe(true);
    const mod = new ModerationMetric({ model: judge });
    expect(await mod.aMeasure(new LLMTestCase({ input: "i", actualOutput: "bad" }))).toBe(0);
    expect(mod.success).toBe(false);
  });
});

describe("replay", () => {
  it("AnswerCorrectness and Moderation replay from a file cache with the server down", async () => {
    const path = join(dir, "rag.jsonl");
    const local = await startServer();
    local.handle("chat", () => chatJson({ TP: ["s1"], FP: ["s2"], FN: ["s3", "s4"] }));
    local.handle("embeddings", vectorsFor({ answer: [1, 0], truth: [0.8, 0.6] }));
    local.handle("moderations", () => moderation({ flagged: false, scores: { violence: 0.2 } }));
    const live = testJudge(local, { cache: new JudgeCache({ store: new FileCacheStore({ path }) }) });
    const args = { input: "q", output: "answer", expected: "truth" };
    expect((await AnswerCorrectness({ ...args, client: live })).score).toBeCloseTo(0.5, 12);
    expect((await Moderation({ output: "answer", client: live })).score).toBe(1);
    await local.close();
    const replay = testJudge(local, { cache: new JudgeCache({ store: new FileCacheStore({ path }), mode: "read-only" }) });
    expect((await AnswerCorrectness({ ...args, client: replay })).score).toBeCloseTo(0.5, 12);
    expect((await Moderation({ output: "answer", client: replay })).score).toBe(1);
    expect(replay.ledger.total()).toMatchObject({ requests: 0, cachedCalls: 3 });
  });
});
