// The AI SDK adapter tested with the SDK's own mock language model (`ai/test`, MockLanguageModelV3 of
// ai 6): structured output through the SDK's object generation (the schema reaches the model as a JSON
// response format), a malformed reply re-asked through the ladder then a typed error, usage and cost in
// the ledger (hand-computed from the bundled Anthropic price), a cached replay with no call, retries of a
// retryable provider error, prefixed model names resolved through a provider package, and the typed
// error naming a provider package that is not installed.
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AiSdkJudge, fromAiSdk, judgeFromProviderName, parseProviderModel } from "../../src/ai-sdk/index.js";
import {
  FaithfulnessMetric,
  JudgeCache,
  JudgeConfigError,
  JudgeHttpError,
  JudgeOutputError,
  JudgeProviderPackageError,
  LLMTestCase,
  MemoryCacheStore,
  UsageLedger,
  PROVIDER_PRICES_AS_OF,
  judgeFromName,
  knownPrice,
  resolveJudge,
  zodSchema,
} from "../../src/index.js";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const Verdict = zodSchema("verdict", z.object({ verdict: z.enum(["yes", "no"]), reason: z.string() }));
const ask = [{ role: "user" as const, content: "Is Paris the capital of France?" }];

/** One reply of the mock model: `text`, with these token counts. */
function reply(text: string, input: number, output: number, cacheRead = 0): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: 0 },
      outputTokens: { total: output, text: output, reasoning: 0 },
    },
    warnings: [],
  };
}

function mock(replies: (GenerateResult | Error)[], modelId = "claude-sonnet-4-5") {
  const queue = [...replies];
  return new MockLanguageModelV3({
    provider: "anthropic.messages",
    modelId,
    doGenerate: async () => {
      const next = queue.shift();
      if (!next) throw new Error("unscripted call");
      if (next instanceof Error) throw next;
      return next;
    },
  });
}

/** An `APICallError` as the AI SDK's providers throw it (recognised by name, as the classifier reads it). */
function apiError(status: number, body: string, retryable: boolean): Error {
  return Object.assign(new Error(`HTTP ${status}`), {
    name: "AI_APICallError",
    statusCode: status,
    responseBody: body,
    responseHeaders: { "retry-after-ms": "1" },
    isRetryable: retryable,
  });
}

describe("fromAiSdk: an AI SDK language model as a judge", () => {
  it("sends the schema as the SDK's JSON response format and returns the validated object", async () => {
    const model = mock([reply('{"verdict":"yes","reason":"It is."}', 120, 30)]);
    const judge = fromAiSdk(model);
    const result = await judge.generate({ messages: ask, schema: Verdict });

    expect(result.value).toEqual({ verdict: "yes", reason: "It is." });
    expect(result.outputMode).toBe("json_schema");
    expect(result.cached).toBe(false);
    expect(judge.name).toBe("anthropic:claude-sonnet-4-5");
    const call = model.doGenerateCalls[0]!;
    expect(call.responseFormat).toEqual({ type: "json", schema: Verdict.jsonSchema, name: "verdict" });
    expect(call.temperature).toBe(0);
    expect(call.prompt).toEqual([{ role: "user", content: [{ type: "text", text: "Is Paris the capital of France?" }] }]);
  });

  it("books tokens and cost (bundled claude-sonnet-4-5 price: $3 in, $15 out, $0.30 cache hits per 1M)", async () => {
    const ledger = new UsageLedger();
    const judge = fromAiSdk(mock([reply('{"verdict":"no","reason":"r"}', 1000, 200, 400)]), { ledger });
    const result = await judge.generate({ messages: ask, schema: Verdict, metric: "faithfulness" });
    // (600 × 3 + 400 × 0.3 + 200 × 15) / 1e6 = (1800 + 120 + 3000) / 1e6
    expect(result.usage.costUsd).toBeCloseTo(0.00492, 12);
    expect(result.usage).toMatchObject({ inputTokens: 1000, outputTokens: 200, cachedInputTokens: 400, requests: 1 });
    expect(judge.reportsCost).toBe(true);
    const totals = ledger.total();
    expect(totals.calls).toBe(1);
    expect(totals.costUsd).toBeCloseTo(0.00492, 12);
    expect(ledger.forMetric("faithfulness").inputTokens).toBe(1000);
  });

  it("a model without a known price reports cost null, never 0", async () => {
    const judge = fromAiSdk(mock([reply('{"verdict":"no","reason":"r"}', 10, 5)], "my-finetune"));
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.usage.costUsd).toBeNull();
    expect(judge.reportsCost).toBe(false);
  });

  it("re-asks a reply the SDK cannot parse, with the error, and sums the usage of both replies", async () => {
    const model = mock([reply("Yes, it is.", 100, 10), reply('{"verdict":"yes","reason":"capital"}', 130, 12)]);
    const judge = fromAiSdk(model);
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.value.verdict).toBe("yes");
    expect(result.attempts).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 230, outputTokens: 22, requests: 2 });
    // (230 × 3 + 22 × 15) / 1e6
    expect(result.usage.costUsd).toBeCloseTo(0.00102, 12);
    const second = model.doGenerateCalls[1]!.prompt;
    expect(second).toHaveLength(3);
    expect(second[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Yes, it is." }] });
    expect(JSON.stringify(second[2])).toMatch(/could not be used/);
  });

  it("ends in JudgeOutputError after the re-asks, with the usage spent booked", async () => {
    const ledger = new UsageLedger();
    const judge = fromAiSdk(mock([reply('{"verdict":"maybe","reason":"?"}', 10, 2), reply("{}", 10, 2)]), { maxReasks: 1, ledger });
    const error = await judge.generate({ messages: ask, schema: Verdict }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeOutputError);
    expect((error as JudgeOutputError).failure).toBe("schema_violation");
    expect((error as JudgeOutputError).usage).toMatchObject({ inputTokens: 20, outputTokens: 4, requests: 2 });
    expect(ledger.total()).toMatchObject({ calls: 1, failedCalls: 1, inputTokens: 20 });
  });

  it("replays a cached call with no model call, cached: true and zero cost", async () => {
    const cache = new JudgeCache({ store: new MemoryCacheStore() });
    const model = mock([reply('{"verdict":"yes","reason":"r"}', 50, 5)]);
    const judge = fromAiSdk(model, { cache });
    const live = await judge.generate({ messages: ask, schema: Verdict });
    const again = await judge.generate({ messages: ask, schema: Verdict });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(again.value).toEqual(live.value);
    expect(again.cached).toBe(true);
    expect(again.usage.costUsd).toBe(0);

    // a read-only cache replays for a second judge of the same model without loading anything
    const replay = fromAiSdk(mock([]), { cache: new JudgeCache({ store: cache.store, mode: "read-only" }) });
    expect((await replay.generate({ messages: ask, schema: Verdict })).value).toEqual({ verdict: "yes", reason: "r" });
  });

  it("retries a retryable provider error (Anthropic's 529) and refuses a 401 at once", async () => {
    const overloaded = apiError(529, '{"type":"error","error":{"type":"overloaded_error"}}', true);
    const model = mock([overloaded, reply('{"verdict":"yes","reason":"r"}', 10, 1)]);
    const judge = fromAiSdk(model, { retry: { initialDelayMs: 1, maxDelayMs: 2 } });
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.usage.requests).toBe(2);

    const denied = fromAiSdk(mock([apiError(401, '{"error":{"type":"authentication_error"}}', false)]));
    const error = await denied.generate({ messages: ask }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeHttpError);
    expect((error as JudgeHttpError).status).toBe(401);
  });

  it("judges a DeepEval metric end to end", async () => {
    const model = mock([
      reply('{"truths":["Paris is the capital of France."]}', 10, 5),
      reply('{"claims":["Paris is the capital of France."]}', 10, 5),
      reply('{"verdicts":[{"verdict":"yes","reason":null}]}', 10, 5),
      reply('{"reason":"Every claim is supported."}', 10, 5),
    ]);
    const metric = new FaithfulnessMetric({ model: fromAiSdk(model) });
    const testCase = new LLMTestCase({ input: "Capital?", actualOutput: "Paris.", retrievalContext: ["Paris is the capital of France."] });
    expect(await metric.aMeasure(testCase)).toBe(1);
    expect(metric.evaluationModel).toBe("anthropic:claude-sonnet-4-5");
    // 4 calls × (10 × 3 + 5 × 15) / 1e6
    expect(metric.evaluationCost).toBeCloseTo(0.00042, 12);
  });

  it("refuses what is not a language model object", () => {
    expect(() => fromAiSdk("anthropic/claude-sonnet-4-5" as never)).toThrow(JudgeConfigError);
  });
});

describe("model names with a provider prefix", () => {
  it("parses only known provider prefixes (an Ollama tag after the colon stays part of the model)", () => {
    expect(parseProviderModel("anthropic:claude-sonnet-4-5")).toMatchObject({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(parseProviderModel("ollama:qwen3:8b")).toMatchObject({ provider: "ollama", modelId: "qwen3:8b" });
    expect(parseProviderModel("qwen2.5:7b")).toBeUndefined();
    expect(parseProviderModel("gpt-4o-mini")).toBeUndefined();
    expect(() => parseProviderModel("google:")).toThrow(JudgeConfigError);
  });

  it("builds the model from the provider package's factory with the judge options' key and base URL", async () => {
    const seen: { specifier: string; settings?: unknown; modelId?: string }[] = [];
    const importer = async (specifier: string) => ({
      createAnthropic: (settings: unknown) => (modelId: string) => {
        seen.push({ specifier, settings, modelId });
        return mock([reply('{"verdict":"yes","reason":"r"}', 10, 2)], modelId);
      },
    });
    const options = { apiKey: "k", baseURL: "http://127.0.0.1:9/v1", maxReasks: 0 };
    const judge = judgeFromProviderName("anthropic:claude-haiku-4-5", options, importer);
    expect(judge).toBeInstanceOf(AiSdkJudge);
    expect(judge!.name).toBe("anthropic:claude-haiku-4-5");
    expect(judge!.maxReasks).toBe(0);
    const result = await judge!.generate({ messages: ask, schema: Verdict });
    expect(result.value.verdict).toBe("yes");
    const settings = { apiKey: "k", baseURL: "http://127.0.0.1:9/v1" };
    expect(seen).toEqual([{ specifier: "@ai-sdk/anthropic", settings, modelId: "claude-haiku-4-5" }]);
    // claude-haiku-4-5: $1 in, $5 out per 1M → (10 + 10) / 1e6
    expect(result.usage.costUsd).toBeCloseTo(0.00002, 12);
  });

  it("a prefixed name resolves to the AI SDK judge; a missing provider package is a typed error naming it", async () => {
    const judge = resolveJudge("google:gemini-2.5-flash", "FaithfulnessMetric");
    expect(judge).toBeInstanceOf(AiSdkJudge);
    expect(judge.reportsCost).toBe(true);
    expect(judgeFromName("google:gemini-2.5-flash")).toBe(judge);
    const error = await judge.generate({ messages: ask }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeProviderPackageError);
    expect(error).toBeInstanceOf(JudgeConfigError);
    expect((error as JudgeProviderPackageError).packageName).toBe("@ai-sdk/google");
    expect((error as JudgeProviderPackageError).code).toBe("JUDGE_PROVIDER_PACKAGE");
    expect((error as Error).message).toContain("npm install @ai-sdk/google");
    // a plain name keeps meaning an OpenAI-compatible model
    expect(judgeFromName("qwen2.5:7b", { baseURL: "http://127.0.0.1:9/v1" })).not.toBeInstanceOf(AiSdkJudge);
  });
});

describe("the bundled prices of Anthropic and Google models", () => {
  it("are dated, find Anthropic's dated ids by their alias, and leave unknown models unknown", () => {
    expect(PROVIDER_PRICES_AS_OF.anthropic).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(PROVIDER_PRICES_AS_OF.google).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(knownPrice("claude-sonnet-4-5-20250929")).toEqual({ inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 });
    expect(knownPrice("claude-opus-4-1-20250805")).toEqual({ inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5 });
    expect(knownPrice("claude-haiku-4-5")).toEqual({ inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1 });
    expect(knownPrice("gemini-2.5-pro")).toEqual({ inputPerMTok: 1.25, outputPerMTok: 10 });
    expect(knownPrice("gemini-2.5-flash")).toEqual({ inputPerMTok: 0.3, outputPerMTok: 2.5 });
    expect(knownPrice("gemini-3-pro-preview")).toBeUndefined();
    expect(knownPrice("claude-sonnet-4-5-experimental")).toBeUndefined();
  });
});
