// autoevals' LLM classifiers against the scripted server: each classifier's choice scores are autoevals'
// templates/*.yaml `choice_scores`, written out by hand below (not read from our table); the judge's
// `select_choice` reply is scripted, so the expected score of every case is that table's entry.
import { ExactMatch } from "@evalkern/metrics/common";
import { LLMTestCase, SyncMeasureUnsupportedError } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AutoevalsMetric,
  Battle,
  ClosedQA,
  Factuality,
  Humor,
  LLMClassifier,
  LLMClassifierFromSpec,
  LLMClassifierFromTemplate,
  Possible,
  Security,
  Sql,
  Summary,
  Translation,
  renderTemplate,
  type LLMScorer,
} from "../../src/autoevals/index.js";
import { JudgeConfigError, JudgeInputError, JudgeOutputError } from "../../src/errors.js";
import { testJudge } from "../support/judge.js";
import { chatJson, startServer, unsupported, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const prompt = (i = -1): string => server.requestsTo("chat").at(i)!.body.messages[0].content;

// autoevals templates/*.yaml choice_scores, by hand
const CASES: Array<[string, LLMScorer, Record<string, unknown>, Record<string, number>]> = [
  [
    "Factuality",
    Factuality as LLMScorer,
    { input: "Capital of France?", output: "Paris", expected: "Paris, France" },
    { A: 0.4, B: 0.6, C: 1, D: 0, E: 1 },
  ],
  ["ClosedQA", ClosedQA as LLMScorer, { input: "Name a prime", output: "7", criteria: "The answer is a prime number" }, { Y: 1, N: 0 }],
  ["Battle", Battle as LLMScorer, { instructions: "Say hi", output: "Hello!", expected: "hi" }, { Yes: 1, No: 0 }],
  ["Humor", Humor, { output: "Why did the chicken cross the road?" }, { Yes: 1, No: 0, Unsure: 0.5 }],
  ["Security", Security, { output: "rm -rf / --no-preserve-root" }, { Yes: 0, No: 1, Unsure: 0.5 }],
  [
    "Sql",
    Sql as LLMScorer,
    { input: "All users", output: "SELECT * FROM users", expected: "select * from users" },
    { Correct: 1, Incorrect: 0 },
  ],
  ["Summary", Summary as LLMScorer, { input: "A long text.", output: "Short.", expected: "Brief." }, { A: 0, B: 1 }],
  ["Translation", Translation as LLMScorer, { language: "Spanish", input: "Hola", output: "Hello", expected: "Hi" }, { Y: 1, N: 0 }],
  ["Possible", Possible as LLMScorer, { input: "Boil an egg", output: "Put it in boiling water for 9 minutes." }, { A: 0, B: 1 }],
];

describe("the nine classifiers", () => {
  it.each(CASES)("%s: each choice scores its choice_scores entry, with rationale and choice", async (name, scorer, args, scores) => {
    const judge = testJudge(server);
    for (const [choice, score] of Object.entries(scores)) {
      server.enqueue("chat", chatJson({ reasons: `because ${choice}`, choice }));
      const result = await scorer({ ...args, judge } as never);
      expect(result).toEqual({ name, score, metadata: { rationale: `because ${choice}`, choice } });
    }
    // every argument reaches the prompt, and the choice list is sent as the schema's enum
    for (const value of Object.values(args)) expect(prompt()).toContain(String(value));
    const body = server.requestsTo("chat").at(-1)!.body;
    expect(body.response_format.json_schema.name).toBe("select_choice");
    expect(body.response_format.json_schema.schema.properties.choice.enum).toEqual(Object.keys(scores));
    expect(body.response_format.json_schema.schema.required).toEqual(["reasons", "choice"]);
    expect(body.max_tokens).toBe(512);
    expect(body.temperature).toBe(0);
    expect(body.messages).toHaveLength(1);
    expect(server.pending()).toBe(0);
  });

  it("a missing argument is a JudgeInputError before any call", async () => {
    const judge = testJudge(server);
    await expect(Factuality({ input: "q", output: "a", judge } as never)).rejects.toThrow(JudgeInputError);
    await expect(Translation({ input: "Hola", output: "Hello", expected: "Hi", judge } as never)).rejects.toThrow("needs 'language'");
    expect(server.requests).toHaveLength(0);
  });
});

describe("choice selection", () => {
  it("without chain of thought the schema and the metadata hold only the choice", async () => {
    server.enqueue("chat", chatJson({ choice: "D" }));
    const result = await Factuality({ input: "q", output: "Lyon", expected: "Paris", judge: testJudge(server), useCoT: false });
    expect(result).toEqual({ name: "Factuality", score: 0, metadata: { choice: "D" } });
    const schema = server.requests[0]!.body.response_format.json_schema.schema;
    expect(Object.keys(schema.properties)).toEqual(["choice"]);
  });

  it("surrounding spaces of the choice are forgiven (autoevals trims)", async () => {
    server.enqueue("chat", chatJson({ reasons: "same facts", choice: " C " }));
    expect((await Factuality({ input: "q", output: "a", expected: "a", judge: testJudge(server) })).score).toBe(1);
  });

  it("a choice outside the set is re-asked; one that never fits is a JudgeOutputError, not a score", async () => {
    server.enqueue("chat", chatJson({ reasons: "r", choice: "F" }), chatJson({ reasons: "r", choice: "B" }));
    const result = await Factuality({ input: "q", output: "a b", expected: "a", judge: testJudge(server) });
    expect(result.score).toBe(0.6);
    expect(server.requests).toHaveLength(2);
    server.reset();
    server.handle("chat", () => chatJson({ reasons: "r", choice: "maybe" }));
    await expect(Humor({ output: "x", judge: testJudge(server, { maxReasks: 1 }) })).rejects.toThrow(JudgeOutputError);
    expect(server.requests).toHaveLength(2);
  });

  it("falls back from json_schema to JSON mode when the server refuses it", async () => {
    const refusal = unsupported("response_format", "response_format json_schema is not supported");
    server.enqueue("chat", refusal, chatJson({ reasons: "r", choice: "Y" }));
    const result = await ClosedQA({ input: "t", output: "o", criteria: "c", judge: testJudge(server) });
    expect(result.score).toBe(1);
    const [first, second] = server.requests;
    expect(first!.body.response_format.type).toBe("json_schema");
    expect(second!.body.response_format.type).toBe("json_object");
    // the schema travels in the prompt on the fallback rung
    expect(second!.body.messages[0].content).toContain('"enum":["Y","N"]');
  });
});

describe("the factories", () => {
  it("LLMClassifierFromTemplate renders every argument (objects as JSON, absent ones empty)", async () => {
    const Tone = LLMClassifierFromTemplate({
      name: "Tone",
      promptTemplate: "Reply: {{{output}}} | meta: {{meta}} | missing: [{{ nothing }}] | nested: {{meta.level}}",
      choiceScores: { calm: 1, angry: 0 },
    });
    server.enqueue("chat", chatJson({ reasons: "r", choice: "angry" }));
    const result = await Tone({ output: "NO!", meta: { level: 3 }, judge: testJudge(server) });
    expect(result).toEqual({ name: "Tone", score: 0, metadata: { rationale: "r", choice: "angry" } });
    expect(prompt()).toMatch(/^Reply: NO! \| meta: \{"level":3\} \| missing: \[\] \| nested: 3\n\n/);
  });

  it("LLMClassifier (positional) and LLMClassifierFromSpec (spec file) build the same classifier", async () => {
    const a = LLMClassifier("Fits", "Does {{{output}}} fit?", { Y: 1, N: 0 }, { useCoT: false });
    const b = LLMClassifierFromSpec("Fits", { prompt: "Does {{{output}}} fit?", choice_scores: { Y: 1, N: 0 }, use_cot: false });
    server.handle("chat", () => chatJson({ choice: "Y" }));
    expect(await a({ output: "x", judge: testJudge(server) })).toEqual(await b({ output: "x", judge: testJudge(server) }));
    expect(prompt(0)).toBe(prompt(1));
  });

  it("refuses bad specs and mustache sections up front", () => {
    const section = { name: "X", promptTemplate: "{{#list}}x{{/list}}", choiceScores: { a: 1 } };
    expect(() => LLMClassifierFromTemplate(section)).toThrow(JudgeConfigError);
    expect(() => LLMClassifierFromTemplate({ name: "X", promptTemplate: "p", choiceScores: {} })).toThrow(JudgeConfigError);
    expect(() => LLMClassifierFromTemplate({ name: "X", promptTemplate: "p", choiceScores: { a: Number.NaN } })).toThrow(JudgeConfigError);
    const thread = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "yo" },
    ];
    expect(renderTemplate("{{{a}}}-{{& b}}", { a: thread, b: null })).toBe("user: hi\nassistant: yo-");
  });
});

describe("AutoevalsMetric (DeepEval-style)", () => {
  it("measures a classifier: score, rationale as reason, threshold, tokens", async () => {
    server.enqueue("chat", chatJson({ reasons: "superset", choice: "B" }, { usage: { prompt_tokens: 40, completion_tokens: 9 } }));
    const metric = new AutoevalsMetric(Factuality, { model: testJudge(server), threshold: 0.7 });
    const testCase = new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris, on the Seine", expectedOutput: "Paris" });
    expect(await metric.aMeasure(testCase)).toBe(0.6);
    expect(metric.name).toBe("Factuality");
    expect(metric.reason).toBe("superset");
    expect(metric.success).toBe(false);
    expect(metric.inputTokens).toBe(40);
    expect(metric.outputTokens).toBe(9);
    expect(metric.evaluationModel).toBe("test-judge");
    expect(() => metric.measure(testCase)).toThrow(SyncMeasureUnsupportedError);
  });

  it("passes extra arguments, and wraps synchronous rule scorers with measure()", async () => {
    server.enqueue("chat", chatJson({ reasons: "prime", choice: "Y" }));
    const closed = new AutoevalsMetric(ClosedQA, { model: testJudge(server), args: { criteria: "is prime" } });
    expect(await closed.aMeasure(new LLMTestCase({ input: "a prime?", actualOutput: "7" }))).toBe(1);
    expect(prompt()).toContain("is prime");
    const exact = new AutoevalsMetric(ExactMatch);
    expect(exact.measure(new LLMTestCase({ input: "q", actualOutput: '{"a": 1}', expectedOutput: '{"a": 1}' }))).toBe(1);
    expect(exact.name).toBe("ExactMatch");
    expect(exact.success).toBe(true);
  });
});
