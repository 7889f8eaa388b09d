// BYOB against a scripted OpenAI-compatible server on loopback: the endpoint failures of issue 11
// (in-flight refusals of max_tokens 0, a dead server, scorer output validation, 25 % 429s with Retry-After).
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { multipleChoiceAcc, ready } from "@evalkern/metrics/byob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { existsSync } from "node:fs";
import { ScorerResultError, exactMatch, scorer } from "@evalkern/metrics/byob";
import type { ModelEndpoint } from "@evalkern/metrics";
import { EndpointUnreachableError, benchmark, type ScorerInput } from "../src/index.js";
import { tempDir } from "./helpers.js";
import { ScriptedServer, echoCompletion, json } from "./scripted-server.js";

/** Echo of `prompt` as whitespace-led word tokens with code-point offsets, plus one generated token when asked. */
const echo = (prompt: string, maxTokens: number, lp: (token: string) => number) => echoCompletion(prompt, maxTokens > 0 ? 1 : 0, lp);

let server: ScriptedServer;

beforeAll(async () => {
  await ready();
  server = new ScriptedServer();
  await server.start();
});

afterAll(() => new Promise<void>((r) => server.server.close(() => r())));

describe("BYOB completions_logprob against a server that refuses max_tokens 0 (vLLM)", () => {
  it("every request in flight when the first refusal arrives retries with 1: nothing skipped, accuracy exact", async () => {
    // Question i: the model prefers " yes" (the gold answer) for i < 43 and " no" otherwise, so
    // accuracy is exactly 43/200 = 0.215 when every sample is scored.
    const rows = Array.from({ length: 200 }, (_, i) => ({ q: `Question ${i}?`, target: 0 }));
    const held: ServerResponse[] = [];
    let release: NodeJS.Timeout | undefined;
    const refuse = (res: ServerResponse) =>
      json(res, { object: "error", message: "max_tokens must be at least 1, got 0.", type: "BadRequestError", code: 400 }, 400);
    server.script((req, res) => {
      const prompt = req.body.prompt as string;
      if (req.body.max_tokens === 0) {
        // hold the refusals until all 8 workers have a request in flight, then refuse them together
        held.push(res);
        if (held.length === 8) {
          clearTimeout(release);
          for (const r of held.splice(0)) refuse(r);
        } else if (held.length === 1) {
          release = setTimeout(() => held.splice(0).forEach(refuse), 10_000);
        }
        return;
      }
      const i = Number(/Question (\d+)\?/.exec(prompt)![1]);
      const preferYes = i < 43;
      json(
        res,
        echo(prompt, req.body.max_tokens as number, (t) =>
          t === " yes" ? (preferYes ? -0.1 : -3) : t === " no" ? (preferYes ? -3 : -0.1) : -1,
        ),
      );
    });
    const bench = benchmark(
      { name: "vllm-mc", dataset: rows, prompt: "{q}\nAnswer:", endpointType: "completions_logprob", choices: [" yes", " no"] },
      multipleChoiceAcc,
    );
    const r = await bench.run({ baseUrl: server.url, model: "base", parallelism: 8 });
    const zero = server.seen.filter((s) => s.body.max_tokens === 0);
    expect(zero).toHaveLength(8); // the 8 first requests, in flight together; none after the refusal
    expect(r.samples.filter((s) => s.status !== "scored")).toEqual([]);
    expect(r.scored).toBe(200);
    expect(r.skipped).toBe(0);
    expect(server.seen).toHaveLength(8 + 400); // 8 refused + 2 choices × 200 samples with max_tokens 1
    expect(r.report).toMatchObject({
      tasks: { vllm_mc: { metrics: { "pass@1": { scores: { acc: { value: 0.215, stats: { count: 200 } } } } } } },
    });
  });
});

/** A loopback port where nothing listens (a server is started, its port noted, and closed). */
async function deadPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((res) => closed.listen(0, "127.0.0.1", res));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((res) => closed.close(() => res()));
  return port;
}

describe("BYOB against a dead server", () => {
  it("connection refused: one probe, then EndpointUnreachableError ends the run; no report written", async () => {
    const port = await deadPort();
    let fetches = 0;
    const counting: typeof fetch = (input, init) => (fetches++, fetch(input, init));
    const rows = Array.from({ length: 1000 }, (_, i) => ({ q: `q${i}`, target: "a" }));
    const outputPath = join(tempDir(), "byob_results.json");
    const t0 = Date.now();
    const e = await benchmark({ name: "dead", dataset: rows, prompt: "{q}" }, exactMatch)
      .run({ baseUrl: `http://127.0.0.1:${port}/v1`, model: "m", parallelism: 8, fetch: counting, outputPath })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EndpointUnreachableError);
    expect((e as EndpointUnreachableError).code).toBe("ENDPOINT_UNREACHABLE");
    expect((e as Error).message).toMatch(new RegExp(`cannot reach http://127.0.0.1:${port}/v1/chat/completions: connection refused`));
    // each of the 8 first requests and at most one probe each; the other 992 samples are never sent
    expect(fetches).toBeLessThanOrEqual(16);
    expect(existsSync(outputPath)).toBe(false);
    // retrying every sample 4 times would take minutes; a generous bound for a busy machine
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});

describe("BYOB scorer output", () => {
  it(
    "is validated the same way with or without scorer(): NaN, Infinity, strings and arrays are a typed per-sample error, " +
      "never null in a report",
    async () => {
      server.script((req, res) =>
        json(res, {
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: (req.body.messages as { content: string }[]).at(-1)!.content },
              finish_reason: "stop",
            },
          ],
        }),
      );
      const raw = (s: ScorerInput) => {
        const r = String(s.response);
        if (r === "nan") return { score: Number.NaN };
        if (r === "inf") return { score: Infinity };
        if (r === "str") return { score: "0.5" };
        if (r === "list") return [1] as unknown as Record<string, number>;
        return { score: 0.5, ok: true };
      };
      const rows = ["nan", "inf", "fine", "str", "list", "fine"].map((q) => ({ q }));
      for (const fn of [raw, scorer(raw)]) {
        const r = await benchmark({ name: "v", dataset: rows, prompt: "{q}" }, fn).run({ baseUrl: server.url, model: "m" });
        expect(r.samples.map((s) => s.status)).toEqual([
          "skipped_scorer_error",
          "skipped_scorer_error",
          "scored",
          "skipped_scorer_error",
          "skipped_scorer_error",
          "scored",
        ]);
        expect(r.samples[0]!.error).toMatch(/^ScorerResultError: scorer "raw": value of "score" must be finite, got NaN/);
        expect(r.samples[1]!.error).toMatch(/must be finite, got Infinity/);
        expect(r.samples[3]!.error).toMatch(/must be a boolean or a number/);
        expect(r.samples[4]!.error).toMatch(/must return an object of metric values, got an array/);
        expect(r.report).toMatchObject({
          tasks: { v: { metrics: { "pass@1": { scores: { score: { value: 0.5, stats: { count: 2 } } } } } } },
        });
        expect(JSON.stringify(r.report)).not.toContain("null");
      }
      expect(ScorerResultError.name).toBe("ScorerResultError");
    },
  );
});

describe("BYOB under rate limits", () => {
  it("25 % 429s with Retry-After and 8 in flight: every sample scored, accuracy exact", async () => {
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const limitedFor = new Map<string, number>();
    server.script((req, res) => {
      const q = (req.body.messages as { content: string }[]).at(-1)!.content;
      const n = limitedFor.get(q) ?? 0;
      // q5 is limited 6 times in a row (more than 1 + maxRetries 3 attempts); the rest 25 % of the time
      if ((q === "q5" && n < 6) || (q !== "q5" && random() < 0.25)) {
        limitedFor.set(q, n + 1);
        return json(res, { error: { message: "slow down" } }, 429, { "retry-after": "0.05" });
      }
      // answer right for q0..q42: accuracy 43/200
      json(res, {
        choices: [{ index: 0, message: { role: "assistant", content: Number(q.slice(1)) < 43 ? "yes" : "no" }, finish_reason: "stop" }],
      });
    });
    const rows = Array.from({ length: 200 }, (_, i) => ({ q: `q${i}`, target: "yes" }));
    const r = await benchmark({ name: "rl", dataset: rows, prompt: "{q}" }, exactMatch).run({
      baseUrl: server.url,
      model: "m",
      parallelism: 8,
      retryBackoffMs: 10,
    });
    expect(r.samples.filter((s) => s.status !== "scored")).toEqual([]);
    const limited = [...limitedFor.values()].reduce((a, b) => a + b, 0);
    expect(limited).toBeGreaterThan(40);
    expect(limitedFor.get("q5")).toBe(6);
    expect(r.requests).toBe(200 + limited);
    expect(r.report).toMatchObject({
      tasks: { rl: { metrics: { "pass@1": { scores: { correct: { value: 0.215, stats: { count: 200 } } } } } } },
    });
  });
});

describe("BYOB over the endpoint contract", () => {
  it("astral-plane contexts and continuations: code-point offsets, the same split as the judge's", async () => {
    const table: Record<string, number> = { " 🎉🎉": -0.5, " 😢": -2, " party": -1 };
    server.script((req, res) => {
      if (req.body.max_tokens === 0) return json(res, { error: { message: "max_tokens must be at least 1, got 0." } }, 400);
      json(
        res,
        echo(req.body.prompt as string, req.body.max_tokens as number, (t) => table[t] ?? -7),
      );
    });
    const rows = [{ q: "Mood 😀😀 after the win:", target: 0 }];
    const r = await benchmark(
      { name: "emoji", dataset: rows, prompt: "{q}", endpointType: "completions_logprob", choices: [" 🎉🎉 party", " 😢"] },
      multipleChoiceAcc,
    ).run({ baseUrl: server.url, model: "m" });
    const m = r.samples[0]!.metadata as Record<string, number[]>;
    // " 🎉🎉" + " party" after the context, not the context's last word " win:" (-7): UTF-16 lengths would shift the split
    expect(m._choices_logprobs).toEqual([-1.5, -2]);
    expect(r.samples[0]!.scores).toEqual({ acc: 1, acc_norm: 1, acc_greedy: 1 });
  });

  it("any ModelEndpoint can be injected (no HTTP of BYOB's own); usage is reported for the built-in one", async () => {
    const calls: string[] = [];
    const endpoint: ModelEndpoint = {
      baseUrl: "memory://model",
      model: "echo",
      chatCompletion: async (messages) => (
        calls.push(messages.at(-1)!.content), { text: "4", finishReason: "stop", usage: { inputTokens: 3, outputTokens: 1, requests: 1 } }
      ),
      textCompletion: async () => ({ text: "", finishReason: "stop", usage: { inputTokens: 0, outputTokens: 0, requests: 1 } }),
      scoreContinuations: async (_c, cs) => cs.map(() => ({ logprob: -1, isGreedy: true, tokenCount: 1 })),
    };
    const r = await benchmark({ name: "inj", dataset: [{ q: "2+2?", target: "4" }], prompt: "{q}" }, exactMatch).run({ endpoint });
    expect(calls).toEqual(["2+2?"]);
    expect(r.samples[0]!.scores).toEqual({ correct: true });
    expect(r.requests).toBe(1);

    server.script((_req, res) =>
      json(res, {
        choices: [{ index: 0, message: { role: "assistant", content: "4" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      }),
    );
    const h = await benchmark(
      {
        name: "usage",
        dataset: [
          { q: "a", target: "4" },
          { q: "b", target: "4" },
        ],
        prompt: "{q}",
      },
      exactMatch,
    ).run({ baseUrl: server.url, model: "m" });
    expect(h.usage).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(h.requests).toBe(2);
  });
});
