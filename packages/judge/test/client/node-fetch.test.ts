// `nodeFetch` (@evalkern/judge/node): the keep-alive fetch over node:http that `evalkern judge` hands its
// judge. Every fault the judge handles with the runtime's fetch reads the same through it: 429 with
// Retry-After, a body cut off mid-way, a dead server, a timeout, an abort. Real servers on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  JudgeAbortedError,
  JudgeConfigError,
  JudgeTimeoutError,
  JudgeTransportError,
  JudgeUnreachableError,
  OpenAICompatibleJudge,
  zodSchema,
} from "../../src/index.js";
import { nodeFetch } from "../../src/node.js";
import { testJudge } from "../support/judge.js";
import { chatJson, chatText, rateLimited, slow, startServer, type ScriptedServer } from "../support/server.js";

const Verdict = zodSchema("verdict", z.object({ verdict: z.enum(["yes", "no"]) }));
const ask = [{ role: "user" as const, content: "Is the sky blue?" }];

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** A bare server for what the scripted one cannot do (count sockets, cut a body, gzip it). */
async function bareServer(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  let connections = 0;
  let n = 0;
  const http: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handle(req, res, n++));
  });
  http.on("connection", () => connections++);
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const port = (http.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}

const completion = (content: string) =>
  JSON.stringify({
    id: "c",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 2 },
  });

function judgeAt(baseURL: string, fetch = nodeFetch({ maxSockets: 4 })) {
  return new OpenAICompatibleJudge({ baseURL, apiKey: "k", model: "m", env: {}, fetch, retry: { initialDelayMs: 1, jitter: 0 } });
}

describe("nodeFetch", () => {
  it("answers structured calls, and sequential calls share one kept-alive socket", async () => {
    const bare = await bareServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(completion('{"verdict": "yes"}'));
    });
    try {
      const judge = judgeAt(bare.baseURL);
      for (let i = 0; i < 5; i++) expect((await judge.generate({ messages: ask, schema: Verdict })).value).toEqual({ verdict: "yes" });
      expect(bare.connections()).toBe(1);
      expect(judge.ledger.total()).toMatchObject({ calls: 5, requests: 5, inputTokens: 15, outputTokens: 10 });
    } finally {
      await bare.close();
    }
  });

  it("sends the headers and body the client builds (key, JSON body) and reads a gzip-encoded reply", async () => {
    let seen: { auth?: string; type?: string } = {};
    const bare = await bareServer((req, res) => {
      seen = { auth: req.headers.authorization, type: req.headers["content-type"] };
      res.setHeader("content-type", "application/json");
      res.setHeader("content-encoding", "gzip");
      res.end(gzipSync(completion('{"verdict": "no"}')));
    });
    try {
      expect((await judgeAt(bare.baseURL).generate({ messages: ask, schema: Verdict })).value).toEqual({ verdict: "no" });
      expect(seen).toEqual({ auth: "Bearer k", type: "application/json" });
    } finally {
      await bare.close();
    }
  });

  it("a body cut off mid-way is a network failure, retried; never a shorter reply", async () => {
    const full = completion('{"verdict": "yes"}');
    const bare = await bareServer((_req, res, n) => {
      res.setHeader("content-type", "application/json");
      res.setHeader("content-length", String(Buffer.byteLength(full)));
      if (n === 0) {
        res.write(full.slice(0, 40));
        setTimeout(() => res.socket?.destroy(), 10);
      } else res.end(full);
    });
    try {
      const judge = judgeAt(bare.baseURL);
      expect((await judge.generate({ messages: ask, schema: Verdict })).value).toEqual({ verdict: "yes" });
      expect(judge.ledger.total().requests).toBe(2);
    } finally {
      await bare.close();
    }
  });

  it("every body cut off: a typed transport error after the attempts, no score", async () => {
    const bare = await bareServer((_req, res) => {
      res.setHeader("content-length", "500");
      res.write('{"id": "c", "choices": [');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    try {
      const judge = new OpenAICompatibleJudge({
        baseURL: bare.baseURL,
        model: "m",
        env: {},
        fetch: nodeFetch(),
        retry: { maxAttempts: 3, initialDelayMs: 1, jitter: 0 },
      });
      const e = await judge.generate({ messages: ask, schema: Verdict }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(JudgeTransportError);
      expect((e as JudgeTransportError).attempts).toBe(3);
    } finally {
      await bare.close();
    }
  });

  it("429 with Retry-After waits and retries, as with the runtime's fetch", async () => {
    server.enqueue("chat", rateLimited(0.2), chatJson({ verdict: "yes" }));
    const judge = testJudge(server, { fetch: nodeFetch() });
    const started = performance.now();
    expect((await judge.generate({ messages: ask, schema: Verdict })).value).toEqual({ verdict: "yes" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(server.requestsTo("chat")).toHaveLength(2);
    expect(judge.ledger.total().requests).toBe(2);
  });

  it("a dead server: one probe, then JudgeUnreachableError", async () => {
    const bare = await bareServer(() => {});
    const baseURL = bare.baseURL;
    await bare.close();
    let fetches = 0;
    const inner = nodeFetch();
    const counting: typeof fetch = (input, init) => (fetches++, inner(input, init));
    const e = await judgeAt(baseURL, counting)
      .generate({ messages: ask })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JudgeUnreachableError);
    expect((e as Error).message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: connection refused/);
    expect(fetches).toBe(2);
  });

  it("times out per attempt (JudgeTimeoutError) and stops on the caller's abort (JudgeAbortedError)", async () => {
    for (let i = 0; i < 2; i++) server.enqueue("chat", slow(2_000, chatText("late")));
    const timedOut = await testJudge(server, { fetch: nodeFetch(), timeoutMs: 100, retry: { maxAttempts: 2 } })
      .generate({ messages: ask })
      .catch((x: unknown) => x);
    expect(timedOut).toBeInstanceOf(JudgeTimeoutError);
    expect((timedOut as JudgeTimeoutError).attempts).toBe(2);

    server.reset();
    server.enqueue("chat", slow(2_000, chatText("late")));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await testJudge(server, { fetch: nodeFetch() })
      .generate({ messages: ask, signal: controller.signal })
      .catch((x: unknown) => x);
    expect(aborted).toBeInstanceOf(JudgeAbortedError);
  });

  it("HTTPS goes to the runtime's fetch (its proxy, dispatcher and TLS settings apply), plain HTTP does not", async () => {
    const seen: string[] = [];
    const original = globalThis.fetch;
    vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
      seen.push(String(input));
      return original(input, init);
    });
    try {
      server.enqueue("chat", chatText("plain"));
      const f = nodeFetch();
      expect((await testJudge(server, { fetch: f }).generate({ messages: ask })).value).toBe("plain");
      expect(seen).toEqual([]);
      // a refused TLS port: the runtime's fetch is asked, and its failure reads as a dead server
      const bare = await bareServer(() => {});
      const port = new URL(bare.baseURL).port;
      await bare.close();
      const e = await judgeAt(`https://127.0.0.1:${port}/v1`, f)
        .generate({ messages: ask })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(JudgeUnreachableError);
      expect(seen).toEqual([`https://127.0.0.1:${port}/v1/chat/completions`, `https://127.0.0.1:${port}/v1/chat/completions`]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("refuses a socket count that is not a positive integer", () => {
    expect(() => nodeFetch({ maxSockets: 0 })).toThrow(JudgeConfigError);
    expect(() => nodeFetch({ maxSockets: 1.5 })).toThrow(JudgeConfigError);
  });
});
