// BYOB benchmarks against a real OpenAI-compatible HTTP server on loopback, with scripted replies.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exactMatch, multipleChoiceAcc, ready } from "@evalkern/metrics/byob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BenchmarkRunError,
  NoNetworkError,
  aggregateScores,
  benchmark,
  loadDataset,
  normalizeBenchmarkName,
  type ScorerInput,
} from "../src/index.js";
import { tempDir } from "./helpers.js";
import { ScriptedServer, json, type Seen } from "./scripted-server.js";

const chatReply = (content: string) => ({ choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });

let server: ScriptedServer;
let dir: string;
let qaPath: string;

beforeAll(async () => {
  await ready();
  server = new ScriptedServer();
  await server.start();
  dir = tempDir();
  qaPath = join(dir, "qa.jsonl");
  const rows = [
    { question: "2+2?", answer: "4", meta: { topic: "math" } },
    { question: "Capital of France?", answer: "Paris", meta: { topic: "geo" } },
    { question: "3+3?", answer: "6", meta: { topic: "math" } },
    { question: "Color of the sky?", answer: "blue", meta: { topic: "nature" } },
    { question: "1+1?", answer: "2", meta: { topic: "math" } },
    { question: "Largest ocean?", answer: "Pacific", meta: { topic: "geo" } },
  ];
  writeFileSync(qaPath, rows.map((r) => JSON.stringify(r)).join("\n") + "\n\n");
});

afterAll(() => new Promise<void>((r) => server.server.close(() => r())));

const answers: Record<string, string> = {
  "2+2?": "4",
  "Capital of France?": "Lyon",
  "3+3?": " 6 ",
  "Color of the sky?": "Blue",
  "1+1?": "two",
  "Largest ocean?": "pacific",
};

describe("BYOB chat and completions", () => {
  it("runs a chat benchmark end to end and aggregates like aggregate_scores", async () => {
    server.script((req, res) => {
      const messages = req.body.messages as { role: string; content: string }[];
      const q = /Q: (.*)\nA:/.exec(messages.at(-1)!.content)![1]!;
      json(res, chatReply(answers[q]!));
    });
    const bench = benchmark(
      {
        name: "My QA Benchmark!",
        dataset: qaPath,
        prompt: "Topic {meta.topic}. Q: {question}\nA:",
        targetField: "answer",
        systemPrompt: "Answer briefly about {meta.topic}.",
      },
      exactMatch,
    );
    expect(bench.normalizedName).toBe("my_qa_benchmark");
    const outputPath = join(dir, "out/byob_results.json");
    const predictionsPath = join(dir, "out/byob_predictions.jsonl");
    const result = await bench.run({
      baseUrl: `${server.url}/v1`,
      model: "m1",
      apiKey: "sk-test",
      parallelism: 3,
      outputPath,
      predictionsPath,
    });
    expect(result.scored).toBe(6);
    expect(result.samples.map((s) => s.scores)).toEqual([
      { correct: true },
      { correct: false },
      { correct: true },
      { correct: true },
      { correct: false },
      { correct: true },
    ]);
    expect(result.report).toEqual(aggregateScores(result.scores as never, "my_qa_benchmark"));
    expect(result.report).toEqual({
      tasks: {
        my_qa_benchmark: {
          metrics: {
            "pass@1": { scores: { correct: { value: 0.6667, stats: { count: 6, mean: 0.6667, stderr: 0.1925, stddev: 0.4714 } } } },
          },
        },
      },
    });
    const req = server.seen[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test");
    expect(req.body).toMatchObject({ model: "m1", temperature: 0, max_tokens: 4096 });
    expect((req.body.messages as unknown[])[0]).toEqual({ role: "system", content: "Answer briefly about math." });
    // the report file is BYOB's json.dump(indent=2, sort_keys=True)
    const text = readFileSync(outputPath, "utf8");
    expect(text.indexOf('"stats"')).toBeLessThan(text.indexOf('"value"'));
    expect(JSON.parse(text)).toEqual(result.report);
    const preds = readFileSync(predictionsPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(preds[1]).toMatchObject({ sample_id: 1, response: "Lyon", target: "Paris", status: "scored", scores: { correct: false } });
  });

  it("completions with a few-shot prefix sampled as BYOB does (random.Random(42).sample of the tail)", async () => {
    server.script((_req, res) => json(res, { choices: [{ text: " 4", index: 0 }] }));
    const bench = benchmark(
      { name: "fs", dataset: qaPath, prompt: "Q: {question}\nA:", targetField: "answer", endpointType: "completions", numFewshot: 2 },
      (s: ScorerInput) => ({
        len: String(s.response).length,
      }),
    );
    const result = await bench.run({ baseUrl: server.url, model: "m2", maxTokens: 16, limit: 6 });
    expect(server.seen[0]!.path).toBe("/v1/completions"); // base URL without /v1 gets it
    expect(server.seen[0]!.body).toMatchObject({ model: "m2", max_tokens: 16, temperature: 0 });
    // pool = the 6 rows; Python: random.Random(42).sample(range(6), 2) == [5, 0]
    const prefix = "Q: Largest ocean?\nA: Pacific\n\nQ: 2+2?\nA: 4\n\n";
    expect(server.seen.map((s) => s.body.prompt)).toContain(`${prefix}Q: 3+3?\nA:`);
    expect(result.samples[0]!.prompt).toBe(`${prefix}Q: 2+2?\nA:`);
    expect(result.report).toMatchObject({ tasks: { fs: { metrics: { "pass@1": { scores: { len: { value: 2 } } } } } } });
  });

  it("missing template fields skip the sample (str(KeyError)); Jinja templates and bad definitions are rejected", async () => {
    server.script((_req, res) => json(res, chatReply("x")));
    const bench = benchmark({ name: "t", dataset: [{ q: "a" }, { other: 1 }], prompt: "{{literal}} {q}" }, (s: ScorerInput) => ({
      ok: s.response === "x",
    }));
    const r = await bench.run({ baseUrl: server.url, model: "m" });
    expect(r.samples[0]!.prompt).toBe("{literal} a");
    expect(r.samples[1]).toMatchObject({ status: "skipped_missing_field", error: "'q'" });
    expect(r.scored).toBe(1);
    expect(() => benchmark({ name: "j", dataset: [], prompt: "{% for x in y %}" }, exactMatch)).toThrow(/Jinja2/);
    expect(() => benchmark({ name: "!!!", dataset: [], prompt: "x" }, exactMatch)).toThrow(/normalizes to an empty string/);
    expect(() => benchmark({ name: "l", dataset: [], prompt: "x", endpointType: "completions_logprob" }, exactMatch)).toThrow(/choices/);
    expect(() =>
      benchmark({ name: "s", dataset: [], prompt: "x" }, ((a: unknown, b: unknown, c: unknown) => ({ a, b, c })) as never),
    ).toThrow(/single ScorerInput/);
    expect(normalizeBenchmarkName("  A--b__C  ")).toBe("a_b_c");
  });
});

describe("BYOB completions_logprob", () => {
  /** Echo the prompt as word tokens with offsets; logprobs from a table; one generated token when max_tokens is 1. */
  function logprobServer(lp: (token: string, index: number) => number, top: (token: string) => string) {
    return (req: Seen, res: ServerResponse) => {
      if (req.body.max_tokens === 0)
        return json(res, { error: { message: "max_tokens must be at least 1, got 0.", type: "BadRequestError" } }, 400);
      const prompt = req.body.prompt as string;
      const tokens = prompt.match(/\s*\S+/g)!;
      const offsets: number[] = [];
      let o = 0;
      for (const t of tokens) offsets.push(o), (o += [...t].length);
      const all = [...tokens, " <gen>"];
      offsets.push(o);
      json(res, {
        choices: [
          {
            text: prompt + " <gen>",
            logprobs: {
              tokens: all,
              token_logprobs: all.map((t, i) => (i === 0 ? null : i === all.length - 1 ? -0.01 : lp(t, i))),
              text_offset: offsets,
              top_logprobs: all.map((t, i) => (i === 0 ? null : { [top(t)]: -0.1, zzz: -5 })),
            },
          },
        ],
      });
    };
  }

  it("scores each choice by summed continuation logprobs, retrying max_tokens 1 after a refusal of 0", async () => {
    const table: Record<string, number> = { " Paris": -0.5, " Lyon": -2.25, " Nice": -3, " Marseille": -1 };
    server.script(
      logprobServer(
        (t) => table[t] ?? -1.5,
        (t) => (t === " Paris" ? " Paris" : "other"),
      ),
    );
    const rows = [
      { question: "Capital of France?", choices: { label: ["A", "B", "C"], text: ["Paris", "Lyon", "Nice"] }, answer: 0 },
      { question: "Largest French port?", choices: { label: ["A", "B"], text: ["Lyon", "Marseille"] }, answer: "B" },
    ];
    // lm-eval style: the choices carry their leading space; BYOB sends prompt + choice verbatim
    const bench = benchmark(
      {
        name: "mc2",
        dataset: rows.map((r) => ({ ...r, choices: { text: r.choices.text.map((c) => ` ${c}`) } })),
        prompt: "Question: {question}\nAnswer:",
        targetField: "answer",
        endpointType: "completions_logprob",
        choicesField: "choices.text",
      },
      multipleChoiceAcc,
    );
    const r = await bench.run({ baseUrl: server.url, model: "base-lm" });
    const refused = server.seen.filter((s) => s.body.max_tokens === 0);
    expect(refused).toHaveLength(1); // refused once, then max_tokens 1 for every request
    expect(server.seen.slice(1).every((s) => s.body.max_tokens === 1 && s.body.echo === true && s.body.logprobs === 1)).toBe(true);
    expect(server.seen).toHaveLength(1 + 3 + 2);
    const m0 = r.samples[0]!.metadata as Record<string, unknown>;
    expect(m0._choices).toEqual([" Paris", " Lyon", " Nice"]);
    expect(m0._choices_logprobs).toEqual([-0.5, -2.25, -3]); // the generated " <gen>" token is not counted
    expect(m0._choices_is_greedy).toEqual([true, false, false]);
    expect(r.samples[0]!.response).toBe(" Paris");
    expect(r.samples[1]!.response).toBe(" Marseille");
    expect(r.samples.map((s) => s.scores)).toEqual([
      { acc: 1, acc_norm: 1, acc_greedy: 1 },
      { acc: 1, acc_norm: 1, acc_greedy: 0 },
    ]);
    expect(r.report).toMatchObject({
      tasks: { mc2: { metrics: { "pass@1": { scores: { acc: { value: 1 }, acc_greedy: { value: 0.5 } } } } } },
    });
  });

  it("multi-token continuations, static choices, and a context that ends inside a token", async () => {
    server.script(
      logprobServer(
        (t) => (t === " no" ? -0.25 : t === " way" ? -0.5 : -1),
        () => "x",
      ),
    );
    const bench = benchmark(
      {
        name: "static",
        dataset: [{ q: "Really?", target: "A" }],
        prompt: "{q}",
        endpointType: "completions_logprob",
        choices: [" yes", " no way"],
      },
      multipleChoiceAcc,
    );
    const r = await bench.run({ baseUrl: server.url, model: "m" });
    const m = r.samples[0]!.metadata as Record<string, number[]>;
    expect(m._choices_logprobs).toEqual([-1, -0.75]);
    expect(r.samples[0]!.response).toBe(" no way");
    expect(r.samples[0]!.scores).toEqual({ acc: 0, acc_norm: 0, acc_greedy: 0 });
  });
});

describe("BYOB endpoint failures", () => {
  it("429 with Retry-After is retried after the delay", async () => {
    let calls = 0;
    server.script((_req, res) => {
      calls++;
      if (calls === 1) return json(res, { error: { message: "slow down" } }, 429, { "retry-after": "1" });
      json(res, chatReply("4"));
    });
    const t0 = Date.now();
    const r = await benchmark({ name: "rl", dataset: [{ q: "2+2?", target: "4" }], prompt: "{q}" }, exactMatch).run({
      baseUrl: server.url,
      model: "m",
      retryBackoffMs: 1,
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(r.requests).toBe(2);
    expect(r.samples[0]!.scores).toEqual({ correct: true });
  });

  it("malformed bodies, persistent 5xx and exhausted retries skip the sample with the error; the run goes on", async () => {
    server.script((req, res) => {
      const content = (req.body.messages as { content: string }[]).at(-1)!.content;
      if (content === "garbage") return res.writeHead(200, { "content-type": "application/json" }).end("{not json");
      if (content === "shape") return json(res, { choices: [] });
      if (content === "down") return json(res, { error: "boom" }, 503);
      if (content === "bad") return json(res, { error: { message: "invalid model" } }, 400);
      json(res, chatReply("fine"));
    });
    const data = ["garbage", "ok", "shape", "down", "bad"].map((q) => ({ q, target: "fine" }));
    const r = await benchmark({ name: "f", dataset: data, prompt: "{q}" }, exactMatch).run({
      baseUrl: server.url,
      model: "m",
      maxRetries: 2,
      retryBackoffMs: 1,
    });
    expect(r.samples.map((s) => s.status)).toEqual([
      "skipped_model_error",
      "scored",
      "skipped_model_error",
      "skipped_model_error",
      "skipped_model_error",
    ]);
    expect(r.samples[0]!.error).toMatch(/malformed response body/);
    expect(r.samples[2]!.error).toMatch(/malformed chat completion body/);
    expect(r.samples[3]!.error).toMatch(/HTTP 503/);
    expect(r.samples[4]!.error).toMatch(/HTTP 400: .*invalid model/);
    // 1 + 2 retries
    expect(server.seen.filter((s) => (s.body.messages as { content: string }[]).at(-1)!.content === "down")).toHaveLength(3);
    expect(r.report).toMatchObject({ tasks: { f: { metrics: { "pass@1": { scores: { correct: { stats: { count: 1 } } } } } } } });
    // BYOB's stop rules
    await expect(
      benchmark({ name: "f", dataset: data, prompt: "{q}" }, exactMatch).run({
        baseUrl: server.url,
        model: "m",
        maxRetries: 0,
        failOnSkip: true,
      }),
    ).rejects.toThrow(/Sample 0 failed/);
  });

  it("a scorer that throws is a skipped sample, not a crash; when every sample failed the run is a failure", async () => {
    server.script((_req, res) => json(res, chatReply("x")));
    const bug = (sample: ScorerInput) => {
      if (sample.metadata?.q === "a") throw new Error("scorer bug");
      return { ok: true };
    };
    const r = await benchmark({ name: "s", dataset: [{ q: "a" }, { q: "b" }], prompt: "{q}" }, bug).run({
      baseUrl: server.url,
      model: "m",
    });
    expect(r.samples[0]).toMatchObject({ status: "skipped_scorer_error", response: "x", error: "Error: scorer bug" });
    expect(r.scored).toBe(1);
    // issue 11: all samples failed → a typed BenchmarkRunError carrying the samples, no `{}` report written
    const outputPath = join(dir, "failed/byob_results.json");
    const e = await benchmark({ name: "s", dataset: [{ q: "a" }], prompt: "{q}" }, bug)
      .run({ baseUrl: server.url, model: "m", outputPath })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BenchmarkRunError);
    expect((e as BenchmarkRunError).code).toBe("ALL_SAMPLES_FAILED");
    expect((e as BenchmarkRunError).message).toMatch(/all 1 sample\(s\) failed; sample 0: skipped_scorer_error: Error: scorer bug/);
    expect((e as BenchmarkRunError).result.samples[0]).toMatchObject({ status: "skipped_scorer_error" });
    expect((e as BenchmarkRunError).result.report).toEqual({});
    expect(existsSync(outputPath)).toBe(false);
  });
});

describe("BYOB datasets", () => {
  it("CSV datasets and eval-only mode (responseField)", async () => {
    const csv = join(dir, "qa.csv");
    writeFileSync(csv, 'question,answer,output\n"2+2, exactly?",4,4\nsky,blue,"Blue"\n');
    const r = await benchmark(
      { name: "eo", dataset: csv, prompt: "{question}", targetField: "answer", responseField: "output" },
      exactMatch,
    ).run();
    expect(r.samples.map((s) => s.scores)).toEqual([{ correct: true }, { correct: true }]);
    expect(r.samples[0]!.prompt).toBe("2+2, exactly?");
    expect(r.requests).toBe(0);
  });

  it("hf:// gives a clear no-network error when the hub is unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((res) => closed.listen(0, "127.0.0.1", res));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((res) => closed.close(() => res()));
    const err = await loadDataset("hf://org/data?split=test", { hubUrl: `http://127.0.0.1:${port}` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoNetworkError);
    expect((err as Error).message).toMatch(
      /^hf:\/\/org\/data\?split=test: no network access: could not reach the Hugging Face datasets server/,
    );
    expect((err as Error).message).toMatch(/local JSONL\/CSV file/);
  });

  it("hf:// works where a hub is reachable (datasets-server rows API, paginated)", async () => {
    const all = Array.from({ length: 230 }, (_, i) => ({ question: `q${i}`, answerKey: i % 2 ? "B" : "A" }));
    server.script((req, res) => {
      const u = new URL(req.path, server.url);
      if (u.pathname === "/splits")
        return json(res, {
          splits: [
            { dataset: "org/arc", config: "ARC-Easy", split: "test" },
            { dataset: "org/arc", config: "ARC-Easy", split: "train" },
          ],
        });
      if (u.pathname === "/rows") {
        const offset = Number(u.searchParams.get("offset"));
        const length = Number(u.searchParams.get("length"));
        expect(u.searchParams.get("config")).toBe("ARC-Easy");
        expect(u.searchParams.get("split")).toBe("test");
        return json(res, {
          rows: all.slice(offset, offset + length).map((row, k) => ({ row_idx: offset + k, row })),
          num_rows_total: all.length,
        });
      }
      res.writeHead(404).end();
    });
    const rows = await loadDataset("hf://org/arc", { hubUrl: server.url });
    expect(rows).toHaveLength(230);
    expect(rows[229]).toEqual(all[229]);
    expect(server.seen.filter((s) => s.path.startsWith("/rows"))).toHaveLength(3);
    const limited = await loadDataset("hf://org/arc/ARC-Easy/test", {
      hubUrl: server.url,
      limit: 5,
      fieldMapping: { answerKey: "target" },
    });
    expect(limited).toEqual(all.slice(0, 5).map((r) => ({ question: r.question, target: r.answerKey })));
  });
});
