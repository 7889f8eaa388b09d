// The error classifier of the OpenAI-compatible transport, table-tested: every failure the judge tells apart
// (statuses, Retry-After in ms, seconds and as an HTTP date, x-should-retry, capability rejections, network
// error codes, timeouts, aborts, unparsable and cut-off bodies) and what the retry layer makes of it. The
// last block sends real requests through the thin transport to the scripted server and classifies what it throws.
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JudgeAbortedError } from "../../src/errors.js";
import type { ErrorClass, TransportRequest } from "../../src/layers/transport.js";
import { classifyError } from "../../src/openai/classify.js";
import { OpenAITransport, createOpenAIClient } from "../../src/openai/transport.js";
import { chatText, errorReply, hangUp, malformed, startServer, type ScriptedServer } from "../support/server.js";

const NOW = Date.parse("2025-01-01T00:00:00Z");

function http(status: number, error: Record<string, unknown> = {}, headers: Record<string, string> = {}): unknown {
  const body = { message: `scripted ${status}`, type: "invalid_request_error", code: null, param: null, ...error };
  return OpenAI.APIError.generate(status, { error: body }, undefined, new Headers(headers));
}

const chat: TransportRequest = { endpoint: "chat", body: { model: "m", messages: [] } };
const chatLogprobs: TransportRequest = { endpoint: "chat", body: { model: "m", messages: [], logprobs: true } };
const chatSchema: TransportRequest = { endpoint: "chat", body: { model: "m", messages: [], response_format: { type: "json_schema" } } };
const echo0: TransportRequest = { endpoint: "completions", body: { model: "m", prompt: "p", echo: true, max_tokens: 0 } };
const echo1: TransportRequest = { endpoint: "completions", body: { model: "m", prompt: "p", echo: true, max_tokens: 1 } };
const text: TransportRequest = { endpoint: "completions", body: { model: "m", prompt: "p" } };

const connection = (cause: unknown): unknown => new OpenAI.APIConnectionError({ cause: cause as Error });
const coded = (code: string): Error => Object.assign(new Error(code), { code });

// [case, thrown value, request, expected class (without `http`)]
const CASES: readonly (readonly [string, unknown, TransportRequest | undefined, Omit<ErrorClass, "http">])[] = [
  [
    "429 with Retry-After in seconds",
    http(429, {}, { "retry-after": "2" }),
    chat,
    { kind: "rate-limit", retryable: true, retryAfterMs: 2000 },
  ],
  [
    "429 with fractional seconds",
    http(429, {}, { "retry-after": "0.25" }),
    chat,
    { kind: "rate-limit", retryable: true, retryAfterMs: 250 },
  ],
  ["429 with retry-after-ms", http(429, {}, { "retry-after-ms": "150" }), chat, { kind: "rate-limit", retryable: true, retryAfterMs: 150 }],
  [
    "retry-after-ms wins over retry-after",
    http(429, {}, { "retry-after-ms": "150", "retry-after": "9" }),
    chat,
    { kind: "rate-limit", retryable: true, retryAfterMs: 150 },
  ],
  [
    "429 with Retry-After as an HTTP date, 30 s ahead",
    http(429, {}, { "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }),
    chat,
    { kind: "rate-limit", retryable: true, retryAfterMs: 30_000 },
  ],
  [
    "an HTTP date in the past is 0",
    http(429, {}, { "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" }),
    chat,
    { kind: "rate-limit", retryable: true, retryAfterMs: 0 },
  ],
  ["an unparsable Retry-After is none", http(429, {}, { "retry-after": "soon" }), chat, { kind: "rate-limit", retryable: true }],
  ["a negative Retry-After is none", http(429, {}, { "retry-after": "-3" }), chat, { kind: "rate-limit", retryable: true }],
  ["429 without Retry-After", http(429), chat, { kind: "rate-limit", retryable: true }],
  ["429 with x-should-retry: false", http(429, {}, { "x-should-retry": "false" }), chat, { kind: "rate-limit", retryable: false }],
  ["429 insufficient_quota (code)", http(429, { code: "insufficient_quota" }), chat, { kind: "quota", retryable: false }],
  ["429 insufficient_quota (type)", http(429, { type: "insufficient_quota" }), chat, { kind: "quota", retryable: false }],
  ["500", http(500), chat, { kind: "server", retryable: true }],
  ["503 with Retry-After", http(503, {}, { "retry-after": "1" }), chat, { kind: "server", retryable: true, retryAfterMs: 1000 }],
  ["502 with x-should-retry: false", http(502, {}, { "x-should-retry": "false" }), chat, { kind: "server", retryable: false }],
  ["408", http(408), chat, { kind: "request-timeout", retryable: true }],
  ["409", http(409), chat, { kind: "conflict", retryable: true }],
  ["401", http(401), chat, { kind: "auth", retryable: false }],
  ["403", http(403), chat, { kind: "auth", retryable: false }],
  ["404 on chat", http(404), chat, { kind: "not-found", retryable: false }],
  ["400", http(400), chat, { kind: "bad-request", retryable: false }],
  ["400 with x-should-retry: true", http(400, {}, { "x-should-retry": "true" }), chat, { kind: "bad-request", retryable: true }],
  ["422", http(422), chat, { kind: "bad-request", retryable: false }],
  [
    "400 context_length_exceeded",
    http(400, { code: "context_length_exceeded", message: "This model's maximum context length is 4096 tokens." }),
    chat,
    { kind: "context-length", retryable: false },
  ],
  [
    "413 naming the context window",
    http(413, { message: "prompt exceeds the context window" }),
    chat,
    { kind: "context-length", retryable: false },
  ],
  [
    "400 naming logprobs, sent with logprobs",
    http(400, { message: "logprobs are not supported", param: "logprobs" }),
    chatLogprobs,
    { kind: "capability", retryable: false, capability: "logprobs", perSchema: false },
  ],
  [
    "400 naming logprobs, sent without",
    http(400, { message: "logprobs are not supported" }),
    chat,
    { kind: "bad-request", retryable: false },
  ],
  [
    "400 naming response_format",
    http(400, { message: "response_format json_schema is not supported" }),
    chatSchema,
    { kind: "capability", retryable: false, capability: "response_format", perSchema: false },
  ],
  [
    "400 rejecting this schema only",
    http(400, { message: "Invalid schema for response_format 'verdict': extra keys" }),
    chatSchema,
    { kind: "capability", retryable: false, capability: "response_format", perSchema: true },
  ],
  [
    "422 naming guided_json",
    http(422, { message: "guided_json backend unavailable" }),
    chatSchema,
    { kind: "capability", retryable: false, capability: "response_format", perSchema: false },
  ],
  [
    "a capability needs the request",
    http(400, { message: "response_format is not supported" }),
    undefined,
    { kind: "bad-request", retryable: false },
  ],
  [
    "echo with max_tokens 0 refused",
    http(400, { message: "max_tokens must be at least 1" }),
    echo0,
    { kind: "capability", retryable: false, capability: "echo", perSchema: true },
  ],
  ["echo: 404 (no completions endpoint)", http(404), echo1, { kind: "capability", retryable: false, capability: "echo", perSchema: false }],
  [
    "echo refused by name",
    http(400, { message: "echo is not supported with logprobs" }),
    echo1,
    { kind: "capability", retryable: false, capability: "echo", perSchema: false },
  ],
  ["404 on completions without echo", http(404), text, { kind: "not-found", retryable: false }],
  ["connection refused", connection(coded("ECONNREFUSED")), chat, { kind: "unreachable", retryable: false }],
  [
    "connection refused deep in the cause chain",
    connection(new TypeError("fetch failed", { cause: new AggregateError([coded("ECONNREFUSED")]) })),
    chat,
    { kind: "unreachable", retryable: false },
  ],
  ["connection reset", connection(coded("ECONNRESET")), chat, { kind: "network", retryable: true }],
  ["DNS failure", connection(coded("ENOTFOUND")), chat, { kind: "network", retryable: true }],
  ["per-attempt timeout", new OpenAI.APIConnectionTimeoutError(), chat, { kind: "timeout", retryable: true }],
  ["aborted by the SDK", new OpenAI.APIUserAbortError(), chat, { kind: "aborted", retryable: false }],
  ["aborted in the limiter", new JudgeAbortedError(), chat, { kind: "aborted", retryable: false }],
  ["a 200 whose body is not JSON", new SyntaxError("Unexpected end of JSON input"), chat, { kind: "malformed-response", retryable: true }],
  ["fetch itself failing", new TypeError("fetch failed"), chat, { kind: "unknown", retryable: true }],
  ["a thrown string", "boom", chat, { kind: "unknown", retryable: true }],
];

describe("classifyError", () => {
  it.each(CASES)("%s", (_name, error, request, expected) => {
    const { http: detail, ...rest } = classifyError(error, request, NOW);
    expect(rest).toEqual(expected);
    if (error instanceof OpenAI.APIError) expect(detail?.status).toBe(error.status);
    else expect(detail).toBeUndefined();
  });

  it("carries the error reply's code, type and param", () => {
    const cls = classifyError(http(400, { code: "unsupported_parameter", type: "invalid_request_error", param: "seed" }), chat, NOW);
    expect(cls.http).toEqual({ status: 400, code: "unsupported_parameter", type: "invalid_request_error", param: "seed" });
  });
});

describe("the thin transport's failures, classified", () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const transport = (baseURL: string, timeoutMs = 5_000): OpenAITransport =>
    new OpenAITransport(createOpenAIClient({ baseURL, apiKey: "k", apiVersion: undefined, timeoutMs }), timeoutMs);
  const failure = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => "resolved",
      (e: unknown) => e,
    );

  it("sends one request once and resolves with the parsed body", async () => {
    server.enqueue("chat", chatText("hello"), chatText("never asked"));
    const body = (await transport(server.baseURL).send(chat)) as { choices: { message: { content: string } }[] };
    expect(body.choices[0]?.message.content).toBe("hello");
    expect(server.requestsTo("chat")).toHaveLength(1);
  });

  it("a 200 cut off mid-JSON is a malformed response; a hang-up is a network failure", async () => {
    server.enqueue("chat", malformed(), hangUp());
    const cut = await failure(transport(server.baseURL).send(chat));
    expect(classifyError(cut, chat)).toEqual({ kind: "malformed-response", retryable: true });
    const dropped = await failure(transport(server.baseURL).send(chat));
    expect(classifyError(dropped, chat)).toEqual({ kind: "network", retryable: true });
  });

  it("an error reply keeps its status and Retry-After", async () => {
    server.enqueue("chat", errorReply(503, "overloaded", { type: "server_error" }, { "retry-after": "3" }));
    const cls = classifyError(await failure(transport(server.baseURL).send(chat)), chat);
    expect(cls).toMatchObject({ kind: "server", retryable: true, retryAfterMs: 3000, http: { status: 503, type: "server_error" } });
  });

  it("a closed port is unreachable, a slow reply a timeout, an abort aborted", async () => {
    const closed = await startServer();
    const closedURL = closed.baseURL;
    await closed.close();
    expect(classifyError(await failure(transport(closedURL).send(chat)), chat).kind).toBe("unreachable");
    server.enqueue("chat", hangUp(2_000));
    expect(classifyError(await failure(transport(server.baseURL, 100).send(chat)), chat).kind).toBe("timeout");
    server.enqueue("chat", hangUp(2_000));
    const controller = new AbortController();
    const pending = failure(transport(server.baseURL).send(chat, controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(classifyError(await pending, chat).kind).toBe("aborted");
  });
});
