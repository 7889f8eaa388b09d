// Continuation log-likelihoods against a scripted vLLM-like server that refuses `max_tokens: 0` and then
// returns zero, one or two generated tokens after the echoed prompt (issue 19, items 1–3): generated tokens
// are found by their `text_offset`, never dropped by count; lm-eval's rule (the default) moves the context's
// trailing spaces, BYOB's (`spanRule: "byob"`) does not and falls back to the last prompt token.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testJudge } from "../support/judge.js";
import { completion, errorReply, startServer, type ScriptedServer } from "../support/server.js";

/** The scripted model's logprob of each prompt token (the first token has none; others -1). */
const LP: Readonly<Record<string, number>> = {
  " Paris": -0.5,
  " Rome": -1.25,
  " Bern": -2,
  " New": -1.625,
  " York": -0.875,
  " City": -0.5,
  " ": -3,
  "\nAnswer:": -0.25,
  "\nA:": -0.375,
};
/** Generated tokens, each with a logprob that must never enter a sum. */
const GENERATED = [
  { token: "\n", logprob: -0.0625 },
  { token: " The", logprob: -0.03125 },
];

/** Whitespace-led word tokens (trailing whitespace is a token of its own), then `generated` generated tokens. */
function echo(prompt: string, generated: number) {
  const words = prompt.match(/\s*\S+|\s+$/g) ?? [];
  return completion({
    tokens: [...words.map((token, i) => ({ token, logprob: i === 0 ? null : (LP[token] ?? -1) })), ...GENERATED.slice(0, generated)],
  });
}

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** vLLM: `max_tokens: 0` is refused; under 1 the server returns `generated` generated tokens. */
function script(generated: number): void {
  server.handle("completions", (req) =>
    req.body.max_tokens === 0
      ? errorReply(400, "max_tokens must be at least 1, got 0.", { param: "max_tokens" })
      : echo(req.body.prompt, generated),
  );
}

const SYSTEM_CONTEXT = "Be terse 😀.\nQuestion: capital of France?\nAnswer:";
const SPACE_CONTEXT = "Question: biggest US city?\nAnswer: ";

describe.each([0, 1, 2])("a server returning %i generated token(s) under max_tokens 1", (generated) => {
  it("lm-eval's rule: each choice sums its own tokens after a system prompt (single tokens do not tie)", async () => {
    script(generated);
    const scores = await testJudge(server).scoreContinuations(SYSTEM_CONTEXT, [" Paris", " Rome", " Bern"]);
    expect(scores).toEqual([
      { logprob: -0.5, isGreedy: true, tokenCount: 1 },
      { logprob: -1.25, isGreedy: true, tokenCount: 1 },
      { logprob: -2, isGreedy: true, tokenCount: 1 },
    ]);
    // refused with 0 (those in flight), then each choice once with 1
    expect(server.requestsTo("completions").filter((r) => r.body.max_tokens === 1)).toHaveLength(3);
  });

  it("lm-eval's rule: the trailing space moves to the continuation; an empty choice scores the space", async () => {
    script(generated);
    const scores = await testJudge(server).scoreContinuations(SPACE_CONTEXT, ["New York City", "Paris", ""]);
    // " New" + " York" + " City"; " Paris"; the moved " " alone
    expect(scores.map((s) => s.logprob)).toEqual([-1.625 + -0.875 + -0.5, -0.5, -3]);
    expect(scores.map((s) => s.tokenCount)).toEqual([3, 1, 1]);
    const prompts = server
      .requestsTo("completions")
      .filter((r) => r.body.max_tokens === 1)
      .map((r) => r.body.prompt);
    expect(prompts.sort()).toEqual([SPACE_CONTEXT, `${SPACE_CONTEXT}New York City`, `${SPACE_CONTEXT}Paris`]);
  });

  it("BYOB's rule: no move; the first token at or past the context, else the last prompt token", async () => {
    script(generated);
    const judge = testJudge(server);
    const sys = await judge.scoreContinuations(SYSTEM_CONTEXT, [" Paris", " Rome", " Bern"], undefined, { spanRule: "byob" });
    expect(sys.map((s) => s.logprob)).toEqual([-0.5, -1.25, -2]);
    const space = await judge.scoreContinuations(SPACE_CONTEXT, ["New York City", "Paris", ""], undefined, { spanRule: "byob" });
    // " New" starts before the context's end (the space is its first character): " York" + " City";
    // " Paris" and " " start before it too, so the last prompt token is the continuation
    expect(space.map((s) => s.logprob)).toEqual([-0.875 + -0.5, -0.5, -3]);
    expect(space.map((s) => s.tokenCount)).toEqual([2, 1, 1]);
    const [empty] = await judge.scoreContinuations("Q: x\nA:", [""], undefined, { spanRule: "byob" });
    expect(empty).toEqual({ logprob: -0.375, isGreedy: true, tokenCount: 1 }); // the last prompt token, "\nA:"
  });
});

describe("empty continuations", () => {
  it("lm-eval's rule: empty after a context without trailing space is the sum of no tokens, 0, with no request", async () => {
    script(1);
    const scores = await testJudge(server).scoreContinuations("Q: x\nA:", ["", " Paris"]);
    expect(scores).toEqual([
      { logprob: 0, isGreedy: true, tokenCount: 0 },
      { logprob: -0.5, isGreedy: true, tokenCount: 1 },
    ]);
    expect(server.requestsTo("completions").map((r) => r.body.prompt)).toEqual(["Q: x\nA: Paris", "Q: x\nA: Paris"]);
  });

  it("a span rule other than lm-eval or byob is a JudgeInputError", async () => {
    const e = await testJudge(server)
      .scoreContinuations("Q:", [" a"], undefined, { spanRule: "nemo" as "byob" })
      .catch((x: unknown) => x);
    expect((e as Error).name).toBe("JudgeInputError");
    expect(server.requests).toHaveLength(0);
  });
});
