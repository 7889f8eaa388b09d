// `embed` and `moderate` on the OpenAI-compatible judge: batched `/v1/embeddings`, per-text caching,
// `/v1/moderations`, usage and cost in the ledger, replay from the cache with the server down, and
// replies that cannot be used.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CacheMissError, FileCacheStore, JudgeCache, JudgeOutputError, withMetricTag } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { embeddings, moderation, startServer, vectorsFor, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startServer();
  dir = await mkdtemp(join(tmpdir(), "evalkern-embed-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

const TABLE = { a: [1, 0], b: [0, 1], c: [0.6, 0.8] };

describe("embed", () => {
  it("sends distinct texts in batches, in order, as floats, and returns one vector per input", async () => {
    server.handle("embeddings", vectorsFor(TABLE));
    const judge = testJudge(server, { embeddingBatchSize: 2 });
    const result = await judge.embed({ input: ["a", "b", "a", "c"] });
    expect(result.embeddings).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
      [0.6, 0.8],
    ]);
    expect(result.model).toBe("text-embedding-3-small");
    const bodies = server.requestsTo("embeddings").map((r) => r.body);
    expect(bodies).toEqual([
      { model: "text-embedding-3-small", input: ["a", "b"], encoding_format: "float" },
      { model: "text-embedding-3-small", input: ["c"], encoding_format: "float" },
    ]);
  });

  it("books tokens and the embedding model's price (not the chat model's) in the ledger", async () => {
    server.handle("embeddings", vectorsFor(TABLE, 5));
    const judge = testJudge(server, { model: "gpt-4o-mini" });
    const result = await judge.embed({ input: ["a", "b", "c"], model: "text-embedding-3-large", metric: "sim" });
    // 15 prompt tokens at $0.13 per million tokens
    expect(result.usage.inputTokens).toBe(15);
    expect(result.usage.costUsd).toBeCloseTo((15 * 0.13) / 1e6, 15);
    expect(judge.ledger.calls).toHaveLength(1);
    expect(judge.ledger.calls[0]).toMatchObject({ endpoint: "embeddings", model: "text-embedding-3-large", metric: "sim", ok: true });
    expect(judge.ledger.forMetric("sim").costUsd).toBeCloseTo((15 * 0.13) / 1e6, 15);
  });

  it("an unknown embedding model has an unknown cost, never 0", async () => {
    server.handle("embeddings", vectorsFor(TABLE));
    const judge = testJudge(server, { embeddingModel: "nomic-embed-text" });
    expect((await judge.embed({ input: ["a"] })).usage.costUsd).toBeNull();
  });

  it("caches each text: a later call that shares texts sends only the new ones", async () => {
    server.handle("embeddings", vectorsFor(TABLE));
    const judge = testJudge(server, { cache: new JudgeCache() });
    await judge.embed({ input: ["a", "b"] });
    const again = await judge.embed({ input: ["b", "a"] });
    expect(again).toMatchObject({
      embeddings: [
        [0, 1],
        [1, 0],
      ],
      cached: true,
    });
    expect(again.usage).toMatchObject({ inputTokens: 0, costUsd: 0, requests: 0 });
    await judge.embed({ input: ["a", "c"] });
    expect(server.requestsTo("embeddings").map((r) => r.body.input)).toEqual([["a", "b"], ["c"]]);
    // dimensions are part of the key
    server.handle("embeddings", () => embeddings([[1]]));
    await judge.embed({ input: ["a"], dimensions: 1 });
    expect(server.requestsTo("embeddings").at(-1)!.body).toMatchObject({ input: ["a"], dimensions: 1 });
  });

  it("replays from a file cache with the server down; a text not in the cache is a CacheMissError", async () => {
    const path = join(dir, "embed.jsonl");
    const local = await startServer();
    local.handle("embeddings", vectorsFor(TABLE));
    const recorded = testJudge(local, { cache: new JudgeCache({ store: new FileCacheStore({ path }) }) });
    await recorded.embed({ input: ["a", "c"] });
    await local.close();
    const replay = testJudge(local, { cache: new JudgeCache({ store: new FileCacheStore({ path }), mode: "read-only" }) });
    expect((await replay.embed({ input: ["c", "a"] })).embeddings).toEqual([
      [0.6, 0.8],
      [1, 0],
    ]);
    await expect(replay.embed({ input: ["b"] })).rejects.toBeInstanceOf(CacheMissError);
  });

  it("a reply with too few vectors, or vectors of unequal length, is a JudgeOutputError", async () => {
    const judge = testJudge(server);
    server.enqueue("embeddings", embeddings([[1, 0]]));
    await expect(judge.embed({ input: ["a", "b"] })).rejects.toBeInstanceOf(JudgeOutputError);
    server.enqueue("embeddings", embeddings([[1, 0], [1]]));
    await expect(judge.embed({ input: ["a", "b"] })).rejects.toThrow(/unequal length/);
    expect(judge.ledger.total().failedCalls).toBe(2);
  });

  it("withMetricTag books embed calls under the tag", async () => {
    server.handle("embeddings", vectorsFor(TABLE));
    const judge = testJudge(server);
    await withMetricTag(judge, "tagged").embed!({ input: ["a"] });
    expect(judge.ledger.calls[0]!.metric).toBe("tagged");
  });
});

describe("moderate", () => {
  it("reads flagged, categories and scores per input; OpenAI's moderation model costs 0", async () => {
    server.enqueue(
      "moderations",
      moderation({ flagged: true, scores: { violence: 0.91, hate: 0.02 } }, { flagged: false, scores: { violence: 0.1 } }),
    );
    const judge = testJudge(server);
    const result = await judge.moderate({ input: ["x", "y"] });
    expect(result.results).toEqual([
      { flagged: true, categories: { violence: true, hate: false }, categoryScores: { violence: 0.91, hate: 0.02 } },
      { flagged: false, categories: { violence: false }, categoryScores: { violence: 0.1 } },
    ]);
    expect(result.model).toBe("omni-moderation-latest");
    expect(result.usage.costUsd).toBe(0);
    // no model configured: none is sent (the server's default)
    expect(server.requestsTo("moderations")[0]!.body).toEqual({ input: ["x", "y"] });
    expect(judge.ledger.calls[0]).toMatchObject({ endpoint: "moderations", ok: true });
  });

  it("replays from the cache with the server down", async () => {
    const store = new FileCacheStore({ path: join(dir, "moderation.jsonl") });
    const local = await startServer();
    local.enqueue("moderations", moderation({ flagged: false, scores: { violence: 0.3 } }));
    await testJudge(local, { cache: new JudgeCache({ store }) }).moderate({ input: "hello" });
    await local.close();
    const replay = testJudge(local, { cache: new JudgeCache({ store, mode: "read-only" }) });
    const again = await replay.moderate({ input: "hello" });
    expect(again).toMatchObject({ cached: true, results: [{ flagged: false, categoryScores: { violence: 0.3 } }] });
    await expect(replay.moderate({ input: "other" })).rejects.toBeInstanceOf(CacheMissError);
  });

  it("a result without category_scores is a JudgeOutputError", async () => {
    server.enqueue("moderations", { kind: "json", body: { results: [{ flagged: false, categories: {} }] } });
    await expect(testJudge(server).moderate({ input: "x" })).rejects.toBeInstanceOf(JudgeOutputError);
  });
});
