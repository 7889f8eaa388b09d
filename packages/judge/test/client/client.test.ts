// OpenAICompatibleJudge against the scripted loopback server: structured-output ladder, re-asks, typed
// errors, retries (429 + Retry-After, 5xx, malformed bodies, hang-ups), timeouts, concurrency, cost,
// Azure/env configuration, logprobs and echo log-likelihoods.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ConcurrencyLimiter,
  JudgeConfigError,
  JudgeError,
  JudgeHttpError,
  JudgeOutputError,
  JudgeRateLimitError,
  JudgeTimeoutError,
  JudgeTransportError,
  OpenAICompatibleJudge,
  UsageLedger,
  UnsupportedCapabilityError,
  withMetricTag,
  tryGenerate,
  zodSchema,
  JudgeAbortedError,
} from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import {
  chatJson,
  chatText,
  completion,
  errorReply,
  hangUp,
  malformed,
  quotaExhausted,
  rateLimited,
  serverError,
  slow,
  startServer,
  textLogprobs,
  unsupported,
  type ScriptedServer,
} from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const Verdict = zodSchema("verdict", z.object({ reason: z.string(), verdict: z.enum(["yes", "no", "idk"]) }));
const ask = [{ role: "user" as const, content: "Is the sky blue?" }];

describe("structured output", () => {
  it("sends response_format json_schema (strict when the schema allows) and validates the reply", async () => {
    server.enqueue("chat", chatJson({ reason: "it is", verdict: "yes" }));
    const judge = testJudge(server);
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.value).toEqual({ reason: "it is", verdict: "yes" });
    expect(result.outputMode).toBe("json_schema");
    expect(result.cached).toBe(false);
    const body = server.requests[0]!.body;
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema.name).toBe("verdict");
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.additionalProperties).toBe(false);
    expect(body.temperature).toBe(0);
    expect(body.messages).toEqual(ask);
  });

  it("makes nullable optional fields required for strict mode; open maps stay non-strict", () => {
    const a = zodSchema("a", z.object({ verdict: z.string(), reason: z.string().nullable().optional() }));
    expect(a.strict).toBe(true);
    expect(a.jsonSchema.required).toEqual(["verdict", "reason"]);
    const b = zodSchema("b", z.object({ data: z.record(z.string(), z.string()) }));
    expect(b.strict).toBe(false);
    const c = zodSchema("c", z.object({ reason: z.string().optional() }));
    expect(c.strict).toBe(false);
  });

  it("falls back to json_object when json_schema is rejected, and remembers it", async () => {
    server.enqueue("chat", unsupported("response_format", "response_format of type json_schema is not supported by this model"));
    server.enqueue("chat", chatJson({ reason: "r", verdict: "no" }), chatJson({ reason: "r2", verdict: "yes" }));
    const judge = testJudge(server);
    const first = await judge.generate({ messages: ask, schema: Verdict });
    expect(first.value.verdict).toBe("no");
    expect(first.outputMode).toBe("json_object");
    expect(first.fallbacks).toEqual(["json_schema->json_object"]);
    const second = await judge.generate({ messages: ask, schema: Verdict });
    expect(second.fallbacks).toEqual([]);
    const bodies = server.requests.map((r) => r.body);
    expect(bodies.map((b) => b.response_format.type)).toEqual(["json_schema", "json_object", "json_object"]);
    // json_object needs the prompt itself to ask for JSON: the schema is appended to the last user message.
    expect(bodies[1].messages.at(-1).content).toContain("JSON Schema");
    expect(judge.capabilities.supportsJsonSchema).toBe(false);
  });

  it("falls back to plain text and extracts JSON tolerantly (fences, prose, trailing commas)", async () => {
    server.enqueue(
      "chat",
      unsupported("response_format", "json_schema not supported"),
      unsupported("response_format", "response_format json_object not supported"),
      chatText('Sure, here you go:\n```json\n{"reason": "ok", "verdict": "idk",}\n```'),
    );
    const judge = testJudge(server);
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.value).toEqual({ reason: "ok", verdict: "idk" });
    expect(result.outputMode).toBe("text");
    expect(result.fallbacks).toEqual(["json_schema->json_object", "json_object->text"]);
    expect(server.requests[2]!.body.response_format).toBeUndefined();
  });

  it("re-asks after malformed JSON, with the error appended, and sums usage of both replies", async () => {
    server.enqueue(
      "chat",
      chatText('{"reason": "unterminated', { usage: { prompt_tokens: 100, completion_tokens: 10 } }),
      chatJson({ reason: "fixed", verdict: "yes" }, { usage: { prompt_tokens: 120, completion_tokens: 8 } }),
    );
    const judge = testJudge(server, { price: { inputPerMTok: 1, outputPerMTok: 2 } });
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.value.reason).toBe("fixed");
    expect(result.attempts).toBe(2);
    expect(result.usage.inputTokens).toBe(220);
    expect(result.usage.outputTokens).toBe(18);
    expect(result.usage.costUsd).toBeCloseTo((220 * 1 + 18 * 2) / 1e6, 15);
    expect(result.usage.requests).toBe(2);
    const reask = server.requests[1]!.body.messages;
    expect(reask).toHaveLength(3);
    expect(reask[1]).toEqual({ role: "assistant", content: '{"reason": "unterminated' });
    expect(reask[2].content).toMatch(/could not be used/);
  });

  it("retries schema violations a bounded number of times, then throws a typed JudgeOutputError", async () => {
    for (let i = 0; i < 3; i++) server.enqueue("chat", chatJson({ reason: "x", verdict: "maybe" }));
    const judge = testJudge(server, { maxReasks: 2 });
    const error = await judge.generate({ messages: ask, schema: Verdict }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JudgeOutputError);
    const e = error as JudgeOutputError;
    expect(e.kind).toBe("output");
    expect(e.failure).toBe("schema_violation");
    expect(e.attempts).toBe(3);
    expect(e.issues[0]).toMatch(/^verdict: /);
    expect(e.usage?.inputTokens).toBe(30);
    expect(e.toErrorString()).toMatch(/^output: /);
    expect(server.requests).toHaveLength(3);
    expect(judge.ledger.total()).toMatchObject({ calls: 1, failedCalls: 1, requests: 3, inputTokens: 30 });
  });

  it("reports truncation (finish_reason = length) as such", async () => {
    for (let i = 0; i < 2; i++) server.enqueue("chat", chatText('{"reason": "long', { finishReason: "length" }));
    const judge = testJudge(server, { maxReasks: 1 });
    const e = (await judge.generate({ messages: ask, schema: Verdict }).catch((x: unknown) => x)) as JudgeOutputError;
    expect(e.failure).toBe("truncated");
  });

  it("accepts any Standard Schema validator through tryGenerate without throwing", async () => {
    server.enqueue("chat", chatText("not json at all"), chatText("still not"), chatText("nope"));
    const outcome = await tryGenerate(testJudge(server), { messages: ask, schema: Verdict });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(JudgeError.isInstance(outcome.error) && outcome.error.kind).toBe("output");
  });

  it("returns the text when no schema is given", async () => {
    server.enqueue("chat", chatText("plain words"));
    const result = await testJudge(server).generate({ messages: ask });
    expect(result.value).toBe("plain words");
    expect(server.requests[0]!.body.response_format).toBeUndefined();
  });
});

describe("transport retries", () => {
  it("honours Retry-After on 429 (measured between the two requests at the server)", async () => {
    server.enqueue("chat", rateLimited(1), chatJson({ reason: "r", verdict: "yes" }));
    const judge = testJudge(server);
    const result = await judge.generate({ messages: ask, schema: Verdict });
    expect(result.value.verdict).toBe("yes");
    const [first, second] = server.requests;
    const waited = second!.receivedAt - first!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(2500);
    expect(result.usage.requests).toBe(2);
  });

  it("honours retry-after-ms", async () => {
    server.enqueue("chat", rateLimited(0.3, { ms: true }), chatText("ok"));
    await testJudge(server).generate({ messages: ask });
    const waited = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(300);
  });

  it("gives up with JudgeRateLimitError when 429s persist, and never retries insufficient_quota", async () => {
    for (let i = 0; i < 3; i++) server.enqueue("chat", rateLimited(0.01));
    // budgetMs 0: a fixed count (by default Retry-After retries go on within a time budget, issue 11)
    const judge = testJudge(server, { retry: { maxAttempts: 3, budgetMs: 0 } });
    const e = (await judge.generate({ messages: ask }).catch((x: unknown) => x)) as JudgeRateLimitError;
    expect(e).toBeInstanceOf(JudgeRateLimitError);
    expect(e.kind).toBe("rate_limit");
    expect(e.attempts).toBe(3);
    expect(e.retryAfterMs).toBe(10);

    server.reset();
    server.enqueue("chat", quotaExhausted(), chatText("never sent"));
    const q = (await judge.generate({ messages: ask }).catch((x: unknown) => x)) as JudgeRateLimitError;
    expect(q).toBeInstanceOf(JudgeRateLimitError);
    expect(q.apiCode).toBe("insufficient_quota");
    expect(q.code).toBe("JUDGE_RATE_LIMIT");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses to wait longer than maxRetryAfterMs", async () => {
    server.enqueue("chat", rateLimited(3600));
    const judge = testJudge(server, { retry: { maxRetryAfterMs: 1000 } });
    const started = performance.now();
    const e = await judge.generate({ messages: ask }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeRateLimitError);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("retries 5xx, malformed bodies and dropped connections with exponential backoff", async () => {
    server.enqueue("chat", serverError(503), malformed(), hangUp(), chatText("finally"));
    const judge = testJudge(server, { retry: { maxAttempts: 4, initialDelayMs: 20, maxDelayMs: 1000, jitter: 0 } });
    const result = await judge.generate({ messages: ask });
    expect(result.value).toBe("finally");
    expect(result.usage.requests).toBe(4);
    const gaps = server.requests.slice(1).map((r, i) => r.receivedAt - server.requests[i]!.receivedAt);
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[1]).toBeGreaterThanOrEqual(39);
    expect(gaps[2]).toBeGreaterThanOrEqual(79);
  });

  it("ends with typed errors: HTTP (5xx exhausted), transport (malformed body), no retry on 401", async () => {
    for (let i = 0; i < 2; i++) server.enqueue("chat", serverError(500));
    const judge = testJudge(server, { retry: { maxAttempts: 2 } });
    const http = (await judge.generate({ messages: ask }).catch((x: unknown) => x)) as JudgeHttpError;
    expect(http).toBeInstanceOf(JudgeHttpError);
    expect(http.status).toBe(500);
    expect(http.attempts).toBe(2);

    server.reset();
    server.enqueue("chat", malformed(), malformed());
    const bad = (await judge.generate({ messages: ask }).catch((x: unknown) => x)) as JudgeTransportError;
    expect(bad).toBeInstanceOf(JudgeTransportError);
    expect(bad.kind).toBe("malformed_response");

    server.reset();
    server.enqueue("chat", errorReply(401, "bad key", { code: "invalid_api_key" }), chatText("x"));
    const auth = (await judge.generate({ messages: ask }).catch((x: unknown) => x)) as JudgeHttpError;
    expect(auth.status).toBe(401);
    expect(server.requests).toHaveLength(1);
  });
});

describe("timeouts and aborts", () => {
  it("times out a slow attempt, retries, and succeeds", async () => {
    server.enqueue("chat", slow(1_000, chatText("late")), chatText("on time"));
    const judge = testJudge(server, { timeoutMs: 150 });
    const started = performance.now();
    const result = await judge.generate({ messages: ask });
    expect(result.value).toBe("on time");
    expect(performance.now() - started).toBeLessThan(900);
  });

  it("throws JudgeTimeoutError when every attempt times out", async () => {
    for (let i = 0; i < 2; i++) server.enqueue("chat", slow(2_000, chatText("late")));
    const judge = testJudge(server, { timeoutMs: 100, retry: { maxAttempts: 2 } });
    const e = (await judge.generate({ messages: ask }).catch((x: unknown) => x)) as JudgeTimeoutError;
    expect(e).toBeInstanceOf(JudgeTimeoutError);
    expect(e.kind).toBe("timeout");
    expect(e.attempts).toBe(2);
    expect(e.timeoutMs).toBe(100);
  });

  it("stops on the caller's AbortSignal", async () => {
    server.enqueue("chat", slow(2_000, chatText("late")));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await testJudge(server)
      .generate({ messages: ask, signal: controller.signal })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeAbortedError);
  });
});

describe("concurrency", () => {
  it("never has more requests in flight than the limit (counted at the server)", async () => {
    server.handle("chat", () => slow(40, chatText("ok")));
    const judge = testJudge(server, { maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => judge.generate({ messages: [{ role: "user", content: `q${i}` }] })));
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight).toBe(3);
    expect(judge.limiter.peakRunning).toBe(3);
  });

  it("one limiter shared by two judges (two metrics of a run) bounds them together", async () => {
    server.handle("chat", () => slow(40, chatText("ok")));
    const limiter = new ConcurrencyLimiter(2);
    const a = testJudge(server, { limiter, model: "a" });
    const b = testJudge(server, { limiter, model: "b" });
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).generate({ messages: [{ role: "user", content: `q${i}` }] })));
    expect(server.maxInFlight).toBe(2);
  });
});

describe("usage and cost", () => {
  it("prices each call from the table (prefix match, cached prompt tokens) and totals per metric and per run", async () => {
    server.enqueue(
      "chat",
      chatText("a", { usage: { prompt_tokens: 1000, completion_tokens: 100 }, model: "gpt-test-2026-01-01" }),
      chatText("b", { usage: { prompt_tokens: 2000, completion_tokens: 200, cached_tokens: 1000 } }),
      chatText("c", { usage: { prompt_tokens: 500, completion_tokens: 50 } }),
    );
    const judge = testJudge(server, {
      model: "gpt-test",
      prices: { "gpt-test": { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 } },
    });
    const faith = withMetricTag(judge, "faithfulness");
    const bias = withMetricTag(judge, "bias");
    const r1 = await faith.generate({ messages: [{ role: "user", content: "1" }] });
    const r2 = await faith.generate({ messages: [{ role: "user", content: "2" }] });
    const r3 = await bias.generate({ messages: [{ role: "user", content: "3" }] });
    expect(r1.usage.costUsd).toBeCloseTo((1000 * 2 + 100 * 8) / 1e6, 15);
    expect(r2.usage.costUsd).toBeCloseTo((1000 * 2 + 1000 * 0.5 + 200 * 8) / 1e6, 15);
    expect(r3.usage.costUsd).toBeCloseTo((500 * 2 + 50 * 8) / 1e6, 15);
    const f = judge.ledger.forMetric("faithfulness");
    expect(f.calls).toBe(2);
    expect(f.inputTokens).toBe(3000);
    expect(f.costUsd).toBeCloseTo(0.0028 + 0.0041, 12);
    expect(judge.ledger.forMetric("bias").costUsd).toBeCloseTo(0.0014, 12);
    const total = judge.ledger.total();
    expect(total).toMatchObject({ calls: 3, requests: 3, inputTokens: 3500, outputTokens: 350, cachedInputTokens: 1000 });
    expect(total.costUsd).toBeCloseTo(0.0028 + 0.0041 + 0.0014, 12);
    expect([...judge.ledger.byMetric().keys()].sort()).toEqual(["bias", "faithfulness"]);
    expect(judge.reportsCost).toBe(true);
  });

  it("reports tokens with a null cost when the price is unknown, and totals stay null", async () => {
    server.enqueue("chat", chatText("a", { usage: { prompt_tokens: 7, completion_tokens: 3 } }));
    const judge = testJudge(server);
    const r = await judge.generate({ messages: ask });
    expect(r.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, costUsd: null });
    expect(judge.ledger.total()).toMatchObject({ costUsd: null, unpricedCalls: 1, inputTokens: 7 });
    expect(judge.reportsCost).toBe(false);
  });

  it("shares one ledger between judges", async () => {
    server.handle("chat", () => chatText("x", { usage: { prompt_tokens: 1, completion_tokens: 1 } }));
    const ledger = new UsageLedger();
    await testJudge(server, { ledger, model: "a" }).generate({ messages: ask });
    await testJudge(server, { ledger, model: "b" }).generate({ messages: ask });
    expect(ledger.total().calls).toBe(2);
    expect(ledger.calls.map((c) => c.model)).toEqual(["a", "b"]);
  });
});

describe("logprobs", () => {
  it("requests logprobs with top_logprobs capped by the model maximum and returns them", async () => {
    const content = '{"reason":"fine","score":7}';
    server.enqueue(
      "chat",
      chatText(content, { logprobs: textLogprobs(content, (t) => (t === "7" ? { "7": -0.2, "8": -1.9 } : undefined)) }),
    );
    const judge = testJudge(server, { capabilities: { maxTopLogprobs: 5 } });
    const result = await judge.generate({ messages: ask, logprobs: true, topLogprobs: 20 });
    expect(server.requests[0]!.body).toMatchObject({ logprobs: true, top_logprobs: 5 });
    const seven = result.logprobs!.find((t) => t.token === "7")!;
    expect(seven.topLogprobs).toEqual([
      { token: "7", logprob: -0.2 },
      { token: "8", logprob: -1.9 },
    ]);
  });

  it("drops logprobs when the model rejects them (capability absent) and remembers it", async () => {
    server.enqueue("chat", unsupported("logprobs", "logprobs is not supported with this model"), chatText("x"), chatText("y"));
    const judge = testJudge(server);
    const r = await judge.generate({ messages: ask, logprobs: true });
    expect(r.logprobs).toBeUndefined();
    expect(r.fallbacks).toEqual(["logprobs-dropped"]);
    expect(judge.supportsLogprobs).toBe(false);
    await judge.generate({ messages: ask, logprobs: true });
    expect(server.requests[2]!.body.logprobs).toBeUndefined();
  });
});

describe("configuration", () => {
  it("reads EVALKERN_JUDGE_BASE_URL / _API_KEY / _MODEL, options win", async () => {
    server.handle("chat", () => chatText("ok"));
    const env = { EVALKERN_JUDGE_BASE_URL: server.baseURL, EVALKERN_JUDGE_API_KEY: "env-key", EVALKERN_JUDGE_MODEL: "env-model" };
    const judge = new OpenAICompatibleJudge({ env });
    await judge.generate({ messages: ask });
    expect(server.requests[0]!.body.model).toBe("env-model");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer env-key");
    const other = new OpenAICompatibleJudge({ env, model: "opt-model" });
    await other.generate({ messages: ask });
    expect(server.requests[1]!.body.model).toBe("opt-model");
    expect(() => new OpenAICompatibleJudge({ env: {} })).toThrow(JudgeConfigError);
    expect(() => new OpenAICompatibleJudge({ env: { EVALKERN_JUDGE_MODEL: "m" } })).toThrow(/API key/);
  });

  it("talks to local servers without a key (no Authorization header)", async () => {
    server.handle("chat", () => chatText("ok"));
    await new OpenAICompatibleJudge({ baseURL: server.baseURL, model: "llama", env: {} }).generate({ messages: ask });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("Azure-style: deployment path, api-version query, api-key header", async () => {
    server.handle("chat", () => chatText("ok"));
    const judge = new OpenAICompatibleJudge({
      baseURL: `${server.url}/openai`,
      apiKey: "azure-key",
      model: "gpt-4o",
      azure: { apiVersion: "2024-10-21", deployment: "my-deploy" },
      env: {},
    });
    await judge.generate({ messages: ask });
    const req = server.requests[0]!;
    expect(req.path).toBe("/openai/deployments/my-deploy/chat/completions");
    expect(req.query.get("api-version")).toBe("2024-10-21");
    expect(req.headers["api-key"]).toBe("azure-key");
    expect(req.headers.authorization).toBeUndefined();
  });

  it("gateways: api-key header and extra headers", async () => {
    server.handle("chat", () => chatText("ok"));
    await testJudge(server, { apiKeyHeader: "api-key", apiKey: "gw", headers: { "x-tenant": "t1" } }).generate({ messages: ask });
    const h = server.requests[0]!.headers;
    expect(h["api-key"]).toBe("gw");
    expect(h["x-tenant"]).toBe("t1");
    expect(h.authorization).toBeUndefined();
  });

  it("omits temperature for models that reject it and uses max_completion_tokens when asked", async () => {
    server.handle("chat", () => chatText("ok"));
    await testJudge(server, {
      capabilities: { supportsTemperature: false },
      maxTokens: 64,
      maxTokensParam: "max_completion_tokens",
      seed: 7,
    }).generate({ messages: ask });
    const body = server.requests[0]!.body;
    expect(body.temperature).toBeUndefined();
    expect(body.max_completion_tokens).toBe(64);
    expect(body.seed).toBe(7);
  });
});

describe("log-likelihood of continuations (/v1/completions, echo)", () => {
  it("sums continuation token logprobs after the context boundary and flags greedy continuations", async () => {
    // context "The cat" (7 chars) + continuation " sat": tokens The| cat| sat
    server.enqueue(
      "completions",
      completion({
        tokens: [
          { token: "The", logprob: null },
          { token: " cat", logprob: -2 },
          { token: " sat", logprob: -1.5, top: { " sat": -1.5, " ran": -2 } },
        ],
      }),
      completion({
        tokens: [
          { token: "The", logprob: null },
          { token: " cat", logprob: -2 },
          { token: " ran", logprob: -2, top: { " sat": -1.5, " ran": -2 } },
        ],
      }),
    );
    const judge = testJudge(server);
    const scores = await judge.scoreContinuations("The cat ", ["sat", "ran"]);
    expect(scores).toEqual([
      { logprob: -1.5, isGreedy: true, tokenCount: 1 },
      { logprob: -2, isGreedy: false, tokenCount: 1 },
    ]);
    const body = server.requestsTo("completions")[0]!.body;
    // The context's trailing space moved to the continuation.
    expect(body).toMatchObject({ prompt: "The cat sat", echo: true, max_tokens: 0, temperature: 0 });
  });

  it("retries with max_tokens 1 when 0 is rejected (vLLM) and drops the generated token", async () => {
    server.enqueue(
      "completions",
      errorReply(400, "max_tokens must be at least 1, got 0.", { param: "max_tokens" }),
      completion({
        tokens: [
          { token: "A", logprob: null },
          { token: " b", logprob: -0.5 },
          { token: " c", logprob: -0.25 },
          { token: "!", logprob: -3 },
        ],
      }),
    );
    const judge = testJudge(server);
    const [ll] = await judge.loglikelihood("A", [" b c"]);
    expect(ll).toBe(-0.75);
    expect(server.requestsTo("completions")[1]!.body.max_tokens).toBe(1);
  });

  it("reports servers without echo as an UnsupportedCapabilityError", async () => {
    server.enqueue("completions", errorReply(404, "Not found"));
    const e = await testJudge(server)
      .scoreContinuations("ctx", ["x"])
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnsupportedCapabilityError);
  });
});
