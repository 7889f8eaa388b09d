// The layers of the judge client used on their own, as a second provider would: the structured-output
// ladder over a provider's `complete` function (no HTTP), and cache and ledger as wrappers around any call.
// The last block checks, through OpenAICompatibleJudge, the two places where the continuation path now
// follows the chat path: a failure shared by identical concurrent calls is booked once, and a read-only
// cache never sends a request for a stored entry it cannot use.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { CacheMissError, JudgeCache, JudgeHttpError, MemoryCacheStore, UsageLedger, cacheKey, zodSchema } from "../../src/index.js";
import type { CallState } from "../../src/layers/call.js";
import { throughCache, type CacheSpec } from "../../src/layers/cache.js";
import { StructuredLadder, type CompleteOptions, type LadderReply } from "../../src/layers/ladder.js";
import { booked } from "../../src/layers/ledger.js";
import { CapabilityRejection } from "../../src/layers/transport.js";
import type { JudgeMessage, JudgeUsage } from "../../src/model.js";
import { ZERO_USAGE } from "../../src/usage.js";
import { testJudge } from "../support/judge.js";
import { errorReply, startServer, type ScriptedServer } from "../support/server.js";

const Verdict = zodSchema("verdict", z.object({ verdict: z.enum(["yes", "no"]) }));
const ask: JudgeMessage[] = [{ role: "user", content: "Is Paris in France?" }];

function usage(inputTokens: number, outputTokens: number): JudgeUsage {
  return { ...ZERO_USAGE, inputTokens, outputTokens, costUsd: (inputTokens + outputTokens) / 1e6 };
}

function reply(text: string, u: JudgeUsage): LadderReply {
  return { hasChoice: true, text, finishReason: "stop", refusal: null, model: "other-provider", systemFingerprint: null, usage: u };
}

/** A provider's `complete` that plays `script` in order, recording what it was asked. */
function scripted(script: ((state: CallState) => LadderReply)[]) {
  const seen: { messages: readonly JudgeMessage[]; options: CompleteOptions }[] = [];
  const complete = async (messages: readonly JudgeMessage[], options: CompleteOptions): Promise<LadderReply> => {
    seen.push({ messages, options });
    options.state.requests++;
    const next = script.shift();
    if (!next) throw new Error("unscripted");
    return next(options.state);
  };
  return { complete, seen };
}

describe("the structured-output ladder over another provider's complete()", () => {
  it("steps down on a refused rung, re-asks with feedback, and sums the usage of every reply", async () => {
    const refused = new JudgeHttpError("HTTP 400", { status: 400, code: null, type: null, param: "response_format", attempts: 1 });
    const { complete, seen } = scripted([
      () => {
        throw new CapabilityRejection("response_format", false, new Error("400"), refused);
      },
      () => reply("The answer is yes.", usage(10, 2)),
      () => reply('{"verdict": "yes"}', usage(12, 3)),
    ]);
    const caps = { supportsJsonSchema: undefined, supportsJsonObject: undefined, supportsLogprobs: undefined };
    const ladder = new StructuredLadder(complete, caps, { maxReasks: 2, reaskWithFeedback: true });
    const result = await ladder.generate({ messages: ask, schema: Verdict }, ask);

    expect(result.value).toEqual({ verdict: "yes" });
    expect(seen.map((s) => s.options.mode)).toEqual(["json_schema", "json_object", "json_object"]);
    expect(seen[0]?.messages).toEqual(ask); // the native rung needs no instruction
    expect(seen[1]?.messages[0]?.content).toMatch(/^Is Paris in France\?\n\nReply with a single JSON object/);
    expect(seen[2]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(seen[2]?.messages[1]?.content).toBe("The answer is yes.");
    expect(seen[2]?.messages[2]?.content).toMatch(/^Your previous reply could not be used: reply contains no JSON object\./);
    expect(result).toMatchObject({ outputMode: "json_object", attempts: 2, model: "other-provider" });
    expect(result.fallbacks).toEqual(["json_schema->json_object"]);
    expect(result.usage).toMatchObject({ inputTokens: 22, outputTokens: 5, requests: 3 });
    expect(result.usage.costUsd).toBeCloseTo(27e-6, 15);
    expect(caps.supportsJsonSchema).toBe(false);
    expect(ladder.initialMode(Verdict)).toBe("json_object");
  });

  it("throws the typed error of a rejection it cannot step down from", async () => {
    const final = new JudgeHttpError("HTTP 400", { status: 400, code: null, type: null, param: "logprobs", attempts: 1 });
    const { complete } = scripted([
      () => {
        throw new CapabilityRejection("logprobs", false, new Error("400"), final);
      },
    ]);
    const caps = { supportsJsonSchema: undefined, supportsJsonObject: undefined, supportsLogprobs: undefined };
    const ladder = new StructuredLadder(complete, caps, { maxReasks: 2, reaskWithFeedback: true });
    // logprobs were not asked for, so there is nothing to drop
    await expect(ladder.generate({ messages: ask }, ask)).rejects.toBe(final);
  });
});

describe("cache and ledger as wrappers around any call", () => {
  type Result = { readonly value: string; readonly usage: JudgeUsage; readonly cached: boolean };
  const spec: CacheSpec<Result> = {
    keyParts: { call: "one" },
    replay: async (entry) => ({ value: entry.data as string, usage: { ...ZERO_USAGE }, cached: true }),
    entry: (r) => ({ version: 1, endpoint: "chat", model: "m", data: r.value, inputTokens: 7, outputTokens: 1, createdAt: "t" }),
  };
  const tag = { metric: "m1", model: "m", endpoint: "chat" } as const;

  it("identical concurrent calls make one live call; the follower and a later hit are cached at zero cost", async () => {
    const cache = new JudgeCache();
    const ledger = new UsageLedger();
    let live = 0;
    const call = () => {
      live++;
      return new Promise<Result>((resolve) => setTimeout(() => resolve({ value: "v", usage: usage(7, 1), cached: false }), 10));
    };
    const wrapped = () => booked(ledger, tag, () => throughCache(cache, spec, call));
    const both = await Promise.all([wrapped(), wrapped()]);
    const later = await wrapped();
    expect(live).toBe(1);
    // which of the two leads depends on which key digest resolves first
    expect(both.map((r) => r.cached).sort()).toEqual([false, true]);
    expect(later).toEqual({ value: "v", usage: ZERO_USAGE, cached: true });
    expect(ledger.total()).toMatchObject({ calls: 3, cachedCalls: 2, inputTokens: 7, outputTokens: 1 });
  });

  it("a failure shared by identical concurrent calls is booked once", async () => {
    const cache = new JudgeCache();
    const ledger = new UsageLedger();
    const detail = { status: 401, code: null, type: null, param: null, attempts: 1 };
    const failure = new JudgeHttpError("HTTP 401", detail, { usage: { ...usage(0, 0), requests: 1 } });
    const call = () => new Promise<Result>((_, reject) => setTimeout(() => reject(failure), 10));
    const wrapped = () => booked(ledger, tag, () => throughCache(cache, spec, call));
    const outcomes = await Promise.allSettled([wrapped(), wrapped()]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(ledger.total()).toMatchObject({ calls: 1, failedCalls: 1, requests: 1 });
  });
});

describe("continuation scores through cache and ledger, as chat calls", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("two identical continuations that fail make one request and one failed call in the ledger", async () => {
    server.enqueue("completions", errorReply(401, "bad key", { type: "authentication_error" }));
    const judge = testJudge(server, { cache: new JudgeCache() });
    await expect(judge.scoreContinuations("The cat", [" sat", " sat"])).rejects.toBeInstanceOf(JudgeHttpError);
    expect(server.requestsTo("completions")).toHaveLength(1);
    expect(judge.ledger.total()).toMatchObject({ calls: 1, failedCalls: 1, requests: 1 });
  });

  it("a read-only cache whose stored score is unusable throws CacheMissError and sends nothing", async () => {
    const store = new MemoryCacheStore();
    const parts = { spanRule: "lm-eval", namespace: null, model: "test-judge", context: "The cat", continuation: " sat" };
    const key = await cacheKey({ v: 2, endpoint: "completions", ...parts });
    const stale = { logprob: "torn" };
    await store.set(key, { version: 1, endpoint: "completions", model: "m", data: stale, inputTokens: 0, outputTokens: 0, createdAt: "t" });
    const judge = testJudge(server, { cache: new JudgeCache({ store, mode: "read-only" }) });
    await expect(judge.scoreContinuations("The cat", [" sat"])).rejects.toBeInstanceOf(CacheMissError);
    expect(server.requests).toHaveLength(0);
  });
});
