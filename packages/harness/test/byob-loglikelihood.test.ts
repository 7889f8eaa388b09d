// BYOB completions_logprob by BYOB's own span rule (`_parse_loglikelihood_response`) against a scripted
// vLLM-like server on loopback that refuses `max_tokens: 0` and then returns zero, one or two generated tokens
// (issue 19, items 1–3): a system prompt, a prompt ending in a space, and an empty choice. Every expected sum
// below is written out from the scripted token logprobs.
import { multipleChoiceAcc, ready } from "@evalkern/metrics/byob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchmark } from "../src/index.js";
import { ScriptedServer, echoCompletion, json } from "./scripted-server.js";

/** The scripted model's logprob of each prompt token (the first token has none; others -1). */
const LP: Readonly<Record<string, number>> = {
  " Paris": -0.5,
  " Rome": -1.25,
  " Bern": -2,
  " New": -1.625,
  " York": -0.875,
  " City": -0.5,
  " ": -3,
  "\nAnswer:": -4,
};

let server: ScriptedServer;

beforeAll(async () => {
  await ready();
  server = new ScriptedServer();
  await server.start();
  // vLLM refuses max_tokens 0; under 1, the row's `(g=N)` says how many tokens the server generates
  server.script((req, res) => {
    if (req.body.max_tokens === 0) {
      return json(res, { object: "error", message: "max_tokens must be at least 1, got 0.", type: "BadRequestError", code: 400 }, 400);
    }
    const prompt = req.body.prompt as string;
    json(
      res,
      echoCompletion(prompt, Number(/\(g=(\d)\)/.exec(prompt)![1]), (t) => LP[t] ?? -1),
    );
  });
});

afterAll(() => new Promise<void>((r) => server.server.close(() => r())));

const rows = [0, 1, 2].map((g) => ({ q: `capital? (g=${g})`, target: 0 }));

describe("BYOB log-likelihoods whatever the server generates under max_tokens 1 (0, 1 or 2 tokens)", () => {
  it("a system prompt and single-token static choices: each choice its own logprob, an empty choice the last prompt token", async () => {
    const bench = benchmark(
      {
        name: "sys-mc",
        dataset: rows,
        prompt: "Question: {q}\nAnswer:",
        systemPrompt: "Be terse 😀.",
        endpointType: "completions_logprob",
        choices: [" Paris", " Rome", " Bern", ""],
      },
      multipleChoiceAcc,
    );
    const r = await bench.run({ baseUrl: server.url, model: "base", parallelism: 1 });
    expect(r.skipped).toBe(0);
    expect(r.scored).toBe(3);
    const sent = server.seen.filter((s) => s.body.max_tokens === 1).map((s) => s.body.prompt);
    expect(sent).toContain("Be terse 😀.\nQuestion: capital? (g=0)\nAnswer: Paris");
    for (const s of r.samples) {
      // " Paris", " Rome", " Bern"; the empty choice: no token starts at or past the context, so the last
      // prompt token "\nAnswer:" (BYOB's fallback)
      expect((s.metadata as Record<string, unknown>)._choices_logprobs).toEqual([-0.5, -1.25, -2, -4]);
      expect(s.response).toBe(" Paris");
      expect(s.scores).toEqual({ acc: 1, acc_norm: 1, acc_greedy: 1 });
    }
  });

  it("a prompt ending in a space: no move of the space; the span starts at the first token at or past the context", async () => {
    const bench = benchmark(
      {
        name: "space-mc",
        dataset: rows,
        prompt: "Question: {q}\nAnswer: ",
        endpointType: "completions_logprob",
        choices: ["New York City", "Paris", ""],
      },
      multipleChoiceAcc,
    );
    const r = await bench.run({ baseUrl: server.url, model: "base", parallelism: 2 });
    expect(r.skipped).toBe(0);
    for (const s of r.samples) {
      // " New" starts inside the context (its space), so " York" + " City"; " Paris" and the trailing " "
      // start inside it too, so each is the last prompt token
      expect((s.metadata as Record<string, unknown>)._choices_logprobs).toEqual([-0.875 + -0.5, -0.5, -3]);
      expect(s.response).toBe("Paris");
    }
  });
});
