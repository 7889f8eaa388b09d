// G-Eval (docs/spec/judges.md §3.1): logprob weighting from given top_logprobs (Python's last-token rule),
// steps generation, rubric, normalisation, strict mode; and ArenaGEval (§6.1).
import { ArenaTestCase, LLMTestCase, LLMTestCaseParams, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { describe, expect, it } from "vitest";
import {
  ArenaGEval,
  GEval,
  JudgeMetricConfigError,
  JudgeReplyError,
  logprobWeightedScore,
  normalizeGEvalScore,
  resolveDummyWinner,
  unmaskReason,
} from "../../src/deepeval/index.js";
import type { TokenLogprob } from "../../src/model.js";
import { FakeJudge, reply, scoreLogprobs } from "./support.js";

const P = Math.log;

describe("logprobWeightedScore", () => {
  it("Σ value·p / Σ p over the score token's digit candidates", () => {
    const tokens = scoreLogprobs(['{"', "reason", '":"', "ok", '","', "score", '":', "7", "}"], { 7: { "7": 0.6, "8": 0.3, "6": 0.1 } });
    const result = logprobWeightedScore(7, tokens);
    expect(result.scoring).toBe("logprob-weighted");
    expect(result.score).toBeCloseTo(7 * 0.6 + 8 * 0.3 + 6 * 0.1, 12); // 7.2
  });

  it("uses the LAST token spelling the score (DeepEval Python, not the TS port's first)", () => {
    const tokens: TokenLogprob[] = [
      { token: "7", logprob: 0, topLogprobs: [{ token: "7", logprob: 0 }] }, // "7 apples" inside the reason
      { token: " apples", logprob: 0, topLogprobs: [] },
      {
        token: "7",
        logprob: P(0.5),
        topLogprobs: [
          { token: "7", logprob: P(0.5) },
          { token: "9", logprob: P(0.5) },
        ],
      },
    ];
    expect(logprobWeightedScore(7, tokens).score).toBe(8);
  });

  it("drops candidates under 1% and non-digit tokens; trims spaces; sums same-value tokens", () => {
    const tokens: TokenLogprob[] = [
      {
        token: " 4",
        logprob: P(0.4),
        topLogprobs: [
          { token: " 4", logprob: P(0.4) },
          { token: "4", logprob: P(0.2) }, // same value as " 4": p summed into 4
          { token: "5", logprob: P(0.2) },
          { token: "9", logprob: P(0.009) }, // below 1%: dropped
          { token: "four", logprob: P(0.15) }, // not digits: dropped
          { token: "4.", logprob: P(0.05) }, // not all digits: dropped
        ],
      },
    ];
    const result = logprobWeightedScore(4, tokens);
    expect(result.score).toBeCloseTo((4 * 0.6 + 5 * 0.2) / 0.8, 12); // 4.25
  });

  it("exactly ln(0.01) is kept (the filter is logprob < ln 0.01)", () => {
    const tokens: TokenLogprob[] = [
      {
        token: "2",
        logprob: 0,
        topLogprobs: [
          { token: "2", logprob: Math.log(0.01) },
          { token: "4", logprob: Math.log(0.01) },
        ],
      },
    ];
    expect(logprobWeightedScore(2, tokens).score).toBeCloseTo(3, 12);
  });

  it("falls back to the raw score, saying why", () => {
    expect(logprobWeightedScore(6, undefined)).toEqual({ score: 6, scoring: "raw", fallback: "no-logprobs" });
    // "10" split into "1" and "0": no single token spells the score.
    const split: TokenLogprob[] = [
      { token: "1", logprob: 0, topLogprobs: [{ token: "1", logprob: 0 }] },
      { token: "0", logprob: 0, topLogprobs: [{ token: "0", logprob: 0 }] },
    ];
    expect(logprobWeightedScore(10, split)).toEqual({ score: 10, scoring: "raw", fallback: "no-score-token" });
    expect(logprobWeightedScore(7.5, scoreLogprobs(["7", ".", "5"], {}))).toMatchObject({ scoring: "raw", fallback: "no-score-token" });
    // A token spelling "7.5" matches, but no candidate is all digits.
    expect(logprobWeightedScore(7.5, scoreLogprobs(["7.5"], {}))).toMatchObject({ scoring: "raw", fallback: "no-candidates" });
    const noDigits: TokenLogprob[] = [{ token: "3", logprob: 0, topLogprobs: [{ token: "three", logprob: 0 }] }];
    expect(logprobWeightedScore(3, noDigits)).toEqual({ score: 3, scoring: "raw", fallback: "no-candidates" });
  });
});

describe("GEval", () => {
  const testCase = new LLMTestCase({ input: "2+2?", actualOutput: "4", expectedOutput: "4" });
  const params = [LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.EXPECTED_OUTPUT];
  const steps = reply("steps", { steps: ["Compare the numbers.", "Penalise extra text."] });
  const scored = (score: number, logprobs?: TokenLogprob[]) =>
    reply("reason_score", { reason: "Matches the expected answer.", score }, logprobs ? { logprobs } : {});

  it("criteria → steps call, then a logprob-weighted score call (2 calls), normalised to [0, 1]", async () => {
    const logprobs = scoreLogprobs(['{"reason":"Matches.","score":', "7", "}"], { 1: { "7": 0.6, "8": 0.3, "6": 0.1 } });
    const judge = new FakeJudge([steps, scored(7, logprobs)], { supportsLogprobs: true });
    const metric = new GEval({ model: judge, name: "Correctness", criteria: "Is the answer right?", evaluationParams: params });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.72, 12);
    expect(metric.name).toBe("Correctness [GEval]");
    expect(metric.scoring).toBe("logprob-weighted");
    expect(metric.judgeScore).toBe(7);
    expect(metric.weightedJudgeScore).toBeCloseTo(7.2, 12);
    expect(metric.reason).toBe("Matches the expected answer.");
    expect(judge.schemas).toEqual(["steps", "reason_score"]);
    const scoreCall = judge.calls[1]!;
    expect(scoreCall.request.logprobs).toBe(true);
    expect(scoreCall.request.topLogprobs).toBe(20);
    expect(scoreCall.prompt).toContain("1. Compare the numbers.\n2. Penalise extra text.");
    expect(scoreCall.prompt).toContain("Actual Output:\n4\n");
    expect(scoreCall.prompt).toContain("Actual Output and Expected Output");
    expect(scoreCall.prompt).toContain("integer score from 0 to 10");
    expect(metric.verboseLogs).toContain("logprob-weighted (judge score 7, weighted 7.2");
  });

  it("generates steps once per instance (copies share them)", async () => {
    const judge = new FakeJudge([steps, scored(8), scored(6), scored(5)]);
    const metric = new GEval({ model: judge, name: "C", criteria: "right?", evaluationParams: params });
    expect(await metric.aMeasure(testCase)).toBe(0.8);
    expect(await metric.aMeasure(testCase)).toBe(0.6);
    expect(await metric.copy().aMeasure(testCase)).toBe(0.5);
    expect(judge.schemas).toEqual(["steps", "reason_score", "reason_score", "reason_score"]);
  });

  it("given evaluation steps: one call; without logprob support the raw score is used", async () => {
    const judge = new FakeJudge([scored(9)], { supportsLogprobs: false });
    const metric = new GEval({ model: judge, name: "C", evaluationSteps: ["Check it."], evaluationParams: params, topLogprobs: 5 });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.9, 12);
    expect(metric.scoring).toBe("raw");
    expect(metric.weightedJudgeScore).toBeNull();
    expect(judge.calls[0]!.request.logprobs).toBeUndefined();
  });

  it("a rubric sets the scale: [0,2] and [3,5] → range 0..5", async () => {
    const judge = new FakeJudge([scored(4)]);
    const metric = new GEval({
      model: judge,
      name: "C",
      evaluationSteps: ["Check it."],
      evaluationParams: params,
      rubric: [
        { scoreRange: [3, 5], expectedOutcome: "Mostly right." },
        { scoreRange: [0, 2], expectedOutcome: "Wrong." },
      ],
    });
    expect(metric.scoreRange).toEqual([0, 5]);
    expect(await metric.aMeasure(testCase)).toBeCloseTo(0.8, 12);
    expect(judge.calls[0]!.prompt).toContain("0-2: Wrong.\n3-5: Mostly right.");
    expect(judge.calls[0]!.prompt).toContain("integer score from 0 to 5");
  });

  it("rejects overlapping rubric ranges, a one-value scale, and missing criteria", () => {
    const base = { model: new FakeJudge(), name: "C", evaluationParams: params, evaluationSteps: ["s"] };
    expect(
      () =>
        new GEval({
          ...base,
          rubric: [
            { scoreRange: [0, 2], expectedOutcome: "a" },
            { scoreRange: [2, 5], expectedOutcome: "b" },
          ],
        }),
    ).toThrow(/overlap/);
    expect(() => new GEval({ ...base, rubric: [{ scoreRange: [5, 5], expectedOutcome: "a" }] })).toThrow(/at least two scores/);
    expect(() => new GEval({ ...base, rubric: [{ scoreRange: [0, 11], expectedOutcome: "a" }] })).toThrow(JudgeMetricConfigError);
    expect(() => new GEval({ model: new FakeJudge(), name: "C", evaluationParams: params })).toThrow(
      /either 'criteria' or 'evaluationSteps'/,
    );
    expect(() => new GEval({ ...base, criteria: "   " })).toThrow(/non-blank/);
    expect(() => new GEval({ ...base, evaluationParams: [] })).toThrow(/non-empty/);
    expect(() => new GEval({ ...base, topLogprobs: 21 })).toThrow(/0\.\.20/);
  });

  it("normalisation clamps to [0, 1]; a judge score outside the scale violates the bounded schema (no score from it)", async () => {
    expect(normalizeGEvalScore(12, [0, 10])).toBe(1);
    expect(normalizeGEvalScore(-1, [0, 10])).toBe(0);
    const judge = new FakeJudge([scored(12)]);
    const metric = new GEval({ model: judge, name: "C", evaluationSteps: ["s"], evaluationParams: params });
    await expect(metric.aMeasure(testCase)).rejects.toBeInstanceOf(JudgeReplyError);
    expect(metric.score).toBeNull();
    expect(metric.success).toBe(false);
  });

  it("strict mode: a 0/1 prompt without rubric or logprobs, threshold 1, score used as is", async () => {
    const judge = new FakeJudge([scored(1), scored(0)], { supportsLogprobs: true });
    const metric = new GEval({
      model: judge,
      name: "C",
      evaluationSteps: ["s"],
      evaluationParams: params,
      strictMode: true,
      rubric: [
        { scoreRange: [0, 4], expectedOutcome: "bad" },
        { scoreRange: [5, 10], expectedOutcome: "good" },
      ],
    });
    expect(metric.threshold).toBe(1);
    expect(await metric.aMeasure(testCase)).toBe(1);
    expect(metric.success).toBe(true);
    expect(metric.scoring).toBe("strict");
    expect(judge.calls[0]!.request.logprobs).toBeUndefined();
    expect(judge.calls[0]!.prompt).toContain("score of 1 if the test case fully meets every step, otherwise 0");
    expect(judge.calls[0]!.prompt).not.toContain("bad");
    expect(await metric.aMeasure(testCase)).toBe(0);
    expect(metric.success).toBe(false);
  });

  it("strict mode: a score other than 0 or 1 violates the schema", async () => {
    const judge = new FakeJudge([scored(0.5)]);
    const metric = new GEval({ model: judge, name: "C", evaluationSteps: ["s"], evaluationParams: params, strictMode: true });
    await expect(metric.aMeasure(testCase)).rejects.toThrow(JudgeReplyError);
    expect(metric.score).toBeNull();
    expect(metric.scoring).toBeNull();
  });

  it("a non-numeric score violates the schema (no made-up score)", async () => {
    const judge = new FakeJudge([reply("reason_score", { reason: "good", score: "seven" })]);
    const metric = new GEval({ model: judge, name: "C", evaluationSteps: ["s"], evaluationParams: params });
    await expect(metric.aMeasure(testCase)).rejects.toThrow(/score/);
    expect(metric.error).toMatch(/^JudgeReplyError/);
  });

  it("evaluation params are the required fields", async () => {
    const metric = new GEval({ model: new FakeJudge(), name: "C", evaluationSteps: ["s"], evaluationParams: params });
    await expect(metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "a" }))).rejects.toBeInstanceOf(MissingTestCaseParamsError);
    expect(metric.error).toBe("'expected_output' cannot be None for the 'C [GEval]' metric");
  });
});

describe("ArenaGEval", () => {
  const arena = () =>
    new ArenaTestCase({
      contestants: [
        { name: "gpt", testCase: { input: "Say hi politely", actualOutput: "Hello! How can I help?" } },
        { name: "llama", testCase: { input: "Say hi politely", actualOutput: "hi" } },
        { name: "mistral", testCase: { input: "Say hi politely", actualOutput: "Go away." } },
      ],
    });
  const params = [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  /** A judge that picks the contestant whose answer contains `best`, answering with its dummy name. */
  const picking = (best: string, wrap = (name: string) => `$${name}$`) =>
    new FakeJudge([], {
      handler: (request, prompt) => {
        if (request.schema?.name === "steps") return reply("steps", { steps: ["Judge politeness."] });
        const shown = JSON.parse(prompt.slice(prompt.indexOf("{\n"), prompt.lastIndexOf("}") + 1).split("\n\nReply with")[0]!) as {
          contestants: { name: string; actual_output: string }[];
        };
        const winner = shown.contestants.find((c) => c.actual_output.includes(best))!.name;
        const others = shown.contestants.filter((c) => c.name !== winner).map((c) => `$${c.name}$`);
        return reply("winner", { winner: wrap(winner), reason: `$${winner}$ is polite, unlike ${others.join(" and ")}.` });
      },
    });

  it("masks names, picks the winner, and un-masks the reason (steps given: 1 call)", async () => {
    const judge = picking("How can I help");
    const metric = new ArenaGEval({ model: judge, name: "Politeness", evaluationSteps: ["Judge politeness."], evaluationParams: params });
    expect(await metric.aMeasure(arena())).toBe("gpt");
    expect(metric.winner).toBe("gpt");
    expect(metric.success).toBe(true);
    expect(metric.name).toBe("Politeness [Arena GEval]");
    expect(judge.schemas).toEqual(["winner"]);
    const prompt = judge.calls[0]!.prompt;
    for (const real of ["gpt", "llama", "mistral"]) expect(prompt).not.toContain(`"${real}"`);
    expect(prompt).toContain('"input": "Say hi politely"');
    expect(metric.reason).toMatch(/^gpt is polite, unlike (llama and mistral|mistral and llama)\.$/);
  });

  it("criteria only: steps are generated first (2 calls); the winner may come without $…$ and in other case", async () => {
    const judge = picking("Go away", (name) => name.toUpperCase());
    const metric = new ArenaGEval({ model: judge, name: "Rudeness", criteria: "Which is rudest?", evaluationParams: params });
    expect(await metric.aMeasure(arena())).toBe("mistral");
    expect(judge.schemas).toEqual(["steps", "winner"]);
  });

  it("an unknown winner is a JudgeReplyError, never a guessed winner", async () => {
    const judge = new FakeJudge([reply("winner", { winner: "Zed", reason: "?" })]);
    const metric = new ArenaGEval({ model: judge, name: "P", evaluationSteps: ["s"], evaluationParams: params });
    const failure = await metric.aMeasure(arena()).catch((e: unknown) => e);
    expect(JudgeReplyError.isInstance(failure)).toBe(true);
    expect((failure as JudgeReplyError).problem).toBe("unknown-reference");
    expect(metric.winner).toBeNull();
    expect(metric.success).toBe(false);
  });

  it("a seeded random source makes masking and order reproducible", async () => {
    const seeded = () => {
      let s = 42;
      return () => ((s = (s * 16807) % 2147483647) - 1) / 2147483646;
    };
    const prompts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const judge = picking("hi");
      await new ArenaGEval({ model: judge, name: "P", evaluationSteps: ["s"], evaluationParams: params, random: seeded() }).aMeasure(
        arena(),
      );
      prompts.push(judge.calls[0]!.prompt);
    }
    expect(prompts[0]).toBe(prompts[1]);
  });

  it("resolveDummyWinner and unmaskReason", () => {
    expect(resolveDummyWinner("$bob$", ["Alice", "Bob"])).toBe("Bob");
    expect(() => resolveDummyWinner("Carol", ["Alice", "Bob"])).toThrow(JudgeReplyError);
    expect(
      unmaskReason(
        "$Alice$ beats Bob.",
        new Map([
          ["Alice", "gpt"],
          ["Bob", "llama"],
        ]),
      ),
    ).toBe("gpt beats llama.");
  });
});
