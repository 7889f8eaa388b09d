// The endpoint contract of @evalkern/metrics (`ModelEndpoint`) as OpenAICompatibleJudge implements it:
// chat and text completions, continuation log-likelihoods with code-point offsets beyond the BMP, and a
// dead server failing fast.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { codePointLength, continuationTokens, type ModelEndpoint } from "@evalkern/metrics";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JudgeUnreachableError, OpenAICompatibleJudge } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatText, completion, jsonReply, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("continuation offsets (one place, code points)", () => {
  it("counts code points as Python's len does", () => {
    expect(codePointLength("a😀b")).toBe(3);
    expect("a😀b".length).toBe(4);
    expect(codePointLength("\ud83d")).toBe(1); // a lone surrogate is one
    expect(codePointLength("")).toBe(0);
  });

  it("finds the continuation's tokens after an astral-plane context, drops generated tokens, takes a merged token", () => {
    // "Mood 😀😀 today:" + " great 🎉": offsets as the server counts them (code points)
    const offsets = [0, 4, 7, 14, 20];
    expect(continuationTokens("Mood 😀😀 today:", " great 🎉", offsets)).toEqual({ start: 3, end: 5 });
    // generated tokens start at or past the prompt's end (22 code points): none, one or two, never dropped by count
    expect(continuationTokens("Mood 😀😀 today:", " great 🎉", [...offsets, 22])).toEqual({ start: 3, end: 5 });
    expect(continuationTokens("Mood 😀😀 today:", " great 🎉", [...offsets, 22, 23])).toEqual({ start: 3, end: 5 });
    // the tokenizer merged "x" of the context with the continuation: "ab|xyz" for "abx" + "yz"
    expect(continuationTokens("abx", "yz", [0, 2])).toEqual({ start: 1, end: 2 });
    expect(continuationTokens("abc", "d", [0])).toBeUndefined();
  });

  it("BYOB's rule: the last prompt token when none starts at or past the context, the first token allowed", () => {
    // "Answer: " + "Paris" echoed as "Answer:| Paris" (+ a generated token at 13): " Paris" starts inside the context
    expect(continuationTokens("Answer: ", "Paris", [0, 7, 13], { spanRule: "byob" })).toEqual({ start: 1, end: 2 });
    // an empty continuation: lm-eval has no tokens; BYOB takes the last prompt token
    expect(continuationTokens("Q: x", "", [0, 2, 4])).toBeUndefined();
    expect(continuationTokens("Q: x", "", [0, 2, 4], { spanRule: "byob" })).toEqual({ start: 1, end: 2 });
    // an empty context: BYOB starts at the first token (its missing logprob stays out of the sum)
    expect(continuationTokens("", "Paris", [0], { spanRule: "byob" })).toEqual({ start: 0, end: 1 });
    expect(continuationTokens("", "Paris", [5], { spanRule: "byob" })).toBeUndefined();
  });
});

describe("OpenAICompatibleJudge as a ModelEndpoint", () => {
  it("scores an emoji continuation after an emoji context (code-point text_offset)", async () => {
    server.enqueue(
      "completions",
      completion({
        tokens: [
          { token: "Mood", logprob: null },
          { token: " 😀😀", logprob: -4 },
          { token: " today:", logprob: -5 },
          { token: " great", logprob: -1, top: { " great": -1, " bad": -2 } },
          { token: " 🎉", logprob: -2, top: { " 🎉": -2 } },
        ],
      }),
    );
    const endpoint: ModelEndpoint = testJudge(server);
    const [score] = await endpoint.scoreContinuations("Mood 😀😀 today:", [" great 🎉"]);
    expect(score).toEqual({ logprob: -3, isGreedy: true, tokenCount: 2 });
    expect(server.requestsTo("completions")[0]!.body.prompt).toBe("Mood 😀😀 today: great 🎉");
  });

  it("a vLLM-style top-level error body (no `error` wrapper) still reads as a max_tokens 0 refusal", async () => {
    server.enqueue(
      "completions",
      jsonReply(
        { object: "error", message: "max_tokens must be at least 1, got 0.", type: "BadRequestError", param: null, code: 400 },
        400,
      ),
      completion({
        tokens: [
          { token: "Hi", logprob: null },
          { token: " there", logprob: -0.5 },
          { token: "!", logprob: -9 },
        ],
      }),
    );
    const [score] = await testJudge(server).scoreContinuations("Hi", [" there"]);
    expect(score).toEqual({ logprob: -0.5, isGreedy: true, tokenCount: 1 });
    expect(server.requestsTo("completions").map((r) => r.body.max_tokens)).toEqual([0, 1]);
  });

  it("chatCompletion and textCompletion: the contract's option names, usage and requests", async () => {
    server.enqueue("chat", chatText("Paris", { usage: { prompt_tokens: 7, completion_tokens: 1 } }));
    server.enqueue(
      "completions",
      jsonReply({
        id: "c",
        object: "text_completion",
        model: "m",
        choices: [{ index: 0, text: " 4", finish_reason: "stop" }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      }),
    );
    const endpoint: ModelEndpoint = new OpenAICompatibleJudge({ baseUrl: server.baseURL, model: "m", env: {} });
    expect(endpoint.baseUrl).toBe(server.baseURL);
    const chat = await endpoint.chatCompletion(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Capital of France?" },
      ],
      { maxTokens: 16, temperature: 0.5, topP: 0.9 },
    );
    expect(chat).toEqual({ text: "Paris", finishReason: "stop", usage: { inputTokens: 7, outputTokens: 1, requests: 1 } });
    expect(server.requestsTo("chat")[0]!.body).toMatchObject({ model: "m", max_tokens: 16, temperature: 0.5, top_p: 0.9 });
    const text = await endpoint.textCompletion("2+2=", { maxTokens: 4 });
    expect(text).toEqual({ text: " 4", finishReason: "stop", usage: { inputTokens: 3, outputTokens: 1, requests: 1 } });
    expect(server.requestsTo("completions")[0]!.body).toMatchObject({ model: "m", prompt: "2+2=", max_tokens: 4, temperature: 0 });
    expect(server.requestsTo("completions")[0]!.body.echo).toBeUndefined();
  });

  it("connection refused: one probe, then JudgeUnreachableError (no further retries)", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    let fetches = 0;
    const judge = new OpenAICompatibleJudge({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: "m",
      env: {},
      retry: { maxAttempts: 6, initialDelayMs: 5 },
      fetch: (input, init) => (fetches++, fetch(input, init)),
    });
    const e = await judge.chatCompletion([{ role: "user", content: "hi" }]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeUnreachableError);
    expect((e as JudgeUnreachableError).code).toBe("ENDPOINT_UNREACHABLE");
    expect((e as Error).message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: connection refused/);
    expect(fetches).toBe(2);
  });
});
