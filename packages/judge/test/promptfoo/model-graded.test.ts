// promptfoo's model-graded assertion types graded by the scripted judge. The cases are promptfoo's own
// (test/assertions/llmRubric.test.ts, classifier.test.ts; src/matchers rules for factuality, closedqa and
// select-best): inversion with clamping, thresholds, the factuality score table and its overrides.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MODEL_GRADED_ASSERTIONS, factualityScores, selectBest } from "../../src/promptfoo/index.js";
import { JudgeInputError, JudgeOutputError } from "../../src/errors.js";
import { testJudge } from "../support/judge.js";
import { chatJson, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const A = MODEL_GRADED_ASSERTIONS;
const messages = () => server.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;

describe("llm-rubric", () => {
  it("passes the judge's verdict through, and the rubric and output reach the prompt", async () => {
    server.enqueue("chat", chatJson({ reason: "test reason", pass: true, score: 1 }));
    const r = await A["llm-rubric"]({ output: "test output string", value: "test rendered value", judge: testJudge(server) });
    expect(r).toEqual({ pass: true, score: 1, reason: "test reason" });
    expect(messages()[0]!.content).toContain("test rendered value");
    expect(messages()[0]!.content).toContain("test output string");
    expect(server.requests[0]!.body.response_format.json_schema.name).toBe("rubric_verdict");
  });

  it("inverse: pass flips and the score becomes 1 - score, clamped (promptfoo's cases)", async () => {
    const judge = testJudge(server);
    const cases: Array<[boolean, number, boolean, number]> = [
      [true, 0.75, false, 0.25],
      [false, 0.25, true, 0.75],
      [true, 1, false, 0],
      [false, 0, true, 1],
      [true, 5, false, 0],
    ];
    for (const [pass, score, wantPass, wantScore] of cases) {
      server.enqueue("chat", chatJson({ reason: "r", pass, score }));
      const r = await A["llm-rubric"]({ output: "o", value: "rubric", inverse: true, judge });
      expect([r.pass, r.score]).toEqual([wantPass, wantScore]);
    }
  });

  it("a threshold also needs score >= threshold", async () => {
    server.enqueue("chat", chatJson({ reason: "", pass: true, score: 0.75 }), chatJson({ reason: "ok", pass: true, score: 0.8 }));
    const judge = testJudge(server);
    const below = await A["llm-rubric"]({ output: "o", value: "r", threshold: 0.8, judge });
    expect(below).toEqual({ pass: false, score: 0.75, reason: "Score 0.75 below threshold 0.8" });
    expect((await A["llm-rubric"]({ output: "o", value: "r", threshold: 0.8, judge })).pass).toBe(true);
  });

  it("a custom rubricPrompt (chat messages, object or JSON text) is rendered with output, rubric and vars", async () => {
    server.handle("chat", () => chatJson({ reason: "r", pass: true, score: 1 }));
    const judge = testJudge(server);
    const rubricPrompt = [
      { role: "system", content: "Grade for {{ audience }}." },
      { role: "user", content: "Output: {{output}}\nRubric: {{rubric}}" },
    ];
    await A["llm-rubric"]({ output: "hi", value: "is polite", vars: { audience: "kids" }, options: { rubricPrompt }, judge });
    expect(messages().slice(0, 2)).toEqual([
      { role: "system", content: "Grade for kids." },
      { role: "user", content: expect.stringMatching(/^Output: hi\nRubric: is polite/) },
    ]);
    const asText = { rubricPrompt: JSON.stringify(rubricPrompt) };
    await A["llm-rubric"]({ output: "hi", value: "r", options: asText, vars: { audience: "all" }, judge });
    expect(messages()[0]).toEqual({ role: "system", content: "Grade for all." });
    await A["llm-rubric"]({ output: { a: 1 }, value: "r", options: { rubricPrompt: "Plain: {{output}}" }, judge });
    expect(messages()[0]!.content).toMatch(/^Plain: \{"a":1\}/);
  });

  it("a number as value is refused with promptfoo's message", async () => {
    await expect(A["llm-rubric"]({ output: "o", value: 123, judge: testJudge(server) })).rejects.toThrow(
      '"llm-rubric" assertion type must have a string or object value',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("factuality", () => {
  it("promptfoo's table: A, B, C, E score 1 and pass; D scores 0 and fails", async () => {
    const judge = testJudge(server);
    const want: Record<string, [boolean, number]> = { A: [true, 1], B: [true, 1], C: [true, 1], D: [false, 0], E: [true, 1] };
    for (const [choice, [pass, score]] of Object.entries(want)) {
      server.enqueue("chat", chatJson({ reasons: `category ${choice}`, choice }));
      const value = "Sacramento is the capital of California";
      const r = await A.factuality({ output: "Sacramento", value, prompt: "Capital of California?", judge });
      expect(r).toEqual({ pass, score, reason: `category ${choice}`, metadata: { choice } });
    }
    expect(messages()[0]!.content).toContain("Capital of California?");
  });

  it("options.factuality overrides a category's score; a zero score fails", async () => {
    expect(factualityScores({ subset: 0, superset: 0.5 })).toEqual({ A: 0, B: 0.5, C: 1, D: 0, E: 1 });
    const judge = testJudge(server);
    server.enqueue("chat", chatJson({ reasons: "r", choice: "A" }), chatJson({ reasons: "r", choice: "B" }));
    const options = { factuality: { subset: 0, superset: 0.5 } };
    expect(await A.factuality({ output: "o", value: "e", prompt: "q", options, judge })).toMatchObject({ pass: false, score: 0 });
    expect(await A.factuality({ output: "o", value: "e", prompt: "q", options, judge })).toMatchObject({ pass: true, score: 0.5 });
  });

  it("needs a string value", async () => {
    await expect(A.factuality({ output: "o", value: { x: 1 }, judge: testJudge(server) })).rejects.toThrow(
      "factuality assertion type must have a string value",
    );
  });
});

describe("model-graded-closedqa", () => {
  it("Y passes with 1, N fails with 0; the task comes from the prompt or vars.input", async () => {
    const judge = testJudge(server);
    server.enqueue("chat", chatJson({ reasons: "it is", choice: "Y" }), chatJson({ reasons: "it is not", choice: "N" }));
    expect(await A["model-graded-closedqa"]({ output: "7", value: "is prime", prompt: "Name a prime", judge })).toEqual({
      pass: true,
      score: 1,
      reason: "The submission meets the criterion:\nit is",
      metadata: { choice: "Y" },
    });
    expect(messages()[0]!.content).toContain("Name a prime");
    const r = await A["model-graded-closedqa"]({ output: "8", value: "is prime", vars: { input: "Another prime" }, judge });
    expect([r.pass, r.score, r.reason]).toEqual([false, 0, "The submission does not meet the criterion:\nit is not"]);
    expect(messages()[0]!.content).toContain("Another prime");
  });
});

describe("select-best", () => {
  it("the chosen output passes with 1, every other fails with 0", async () => {
    server.enqueue("chat", chatJson({ reason: "funniest", index: 1 }));
    const outputs = ["a dull joke", "a great joke", "no joke"];
    const results = await selectBest({ output: outputs[0], outputs, value: "the funniest", judge: testJudge(server) });
    expect(results.map((r) => [r.pass, r.score])).toEqual([
      [false, 0],
      [true, 1],
      [false, 0],
    ]);
    expect(results[1]!.reason).toBe("Output selected as the best: the funniest");
    expect(results[0]!.reason).toBe("Output not selected: the funniest");
    for (const o of outputs) expect(messages()[0]!.content).toContain(o);
    const schema = server.requests[0]!.body.response_format.json_schema.schema;
    expect([schema.properties.index.minimum, schema.properties.index.maximum]).toEqual([0, 2]);
  });

  it("the table entry answers for ctx.output; an index out of range is never a verdict", async () => {
    const judge = testJudge(server, { maxReasks: 0 });
    server.enqueue("chat", chatJson({ reason: "r", index: 0 }));
    expect(await A["select-best"]({ output: "x", outputs: ["x", "y"], value: "c", judge })).toMatchObject({ pass: true, score: 1 });
    server.enqueue("chat", chatJson({ reason: "r", index: 5 }));
    await expect(A["select-best"]({ output: "x", outputs: ["x", "y"], value: "c", judge })).rejects.toThrow(JudgeOutputError);
  });

  it("needs at least two outputs", async () => {
    await expect(A["select-best"]({ output: "x", outputs: ["x"], value: "c", judge: testJudge(server) })).rejects.toThrow(
      "select-best assertion must have at least two outputs to compare between",
    );
  });
});

describe("classifier", () => {
  it("the expected label's score against the threshold (promptfoo: value 'safe', threshold 0.7)", async () => {
    const judge = testJudge(server);
    server.enqueue("chat", chatJson({ reasons: "harmless", choice: "safe" }), chatJson({ reasons: "harmful", choice: "unsafe" }));
    const options = { labels: ["safe", "unsafe"] };
    expect(await A.classifier({ output: "model output", value: "safe", threshold: 0.7, options, judge })).toMatchObject({
      pass: true,
      score: 1,
      reason: "Classification safe has score 1.00 >= 0.7",
    });
    expect(await A.classifier({ output: "model output", value: "safe", threshold: 0.7, options, judge })).toMatchObject({
      pass: false,
      score: 0,
      reason: "Classification safe has score 0.00 < 0.7",
    });
    expect(server.requests[0]!.body.response_format.json_schema.schema.properties.choice.enum).toEqual(["safe", "unsafe"]);
  });

  it("no expected label: the highest score, threshold 1 by default; inverse flips pass and takes 1 - score", async () => {
    server.handle("chat", () => chatJson({ reasons: "r", choice: "neutral" }));
    const judge = testJudge(server);
    const options = { labels: ["positive", "neutral", "negative"] };
    expect(await A.classifier({ output: "ok", options, judge })).toMatchObject({ pass: true, score: 1, metadata: { label: "neutral" } });
    expect(await A.classifier({ output: "ok", options, inverse: true, judge })).toMatchObject({ pass: false, score: 0 });
    // an expected label the judge did not pick scores 0, so the inverse passes
    const two = { labels: ["positive", "neutral"] };
    const inverted = await A.classifier({ output: "ok", value: "positive", inverse: true, options: two, judge });
    expect(inverted).toMatchObject({ pass: true, score: 1 });
  });

  it("refuses a non-string value and a classifier without labels", async () => {
    const judge = testJudge(server);
    await expect(A.classifier({ output: "o", value: { label: "safe" }, judge })).rejects.toThrow(
      '"classifier" assertion type must have a string value or be undefined',
    );
    await expect(A.classifier({ output: "o", judge })).rejects.toThrow(JudgeInputError);
    expect(server.requests).toHaveLength(0);
  });
});
