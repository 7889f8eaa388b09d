// PromptAlignmentMetric, TurnRelevancyMetric and ConversationalGEval against the scripted loopback
// server: DeepEval's scoring formulas, the calls they make, and typed failures.
import { ConversationalTestCase, LLMTestCase, MultiTurnParams, Turn } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ConversationalGEval,
  JudgeMetricConfigError,
  PromptAlignmentMetric,
  TurnRelevancyMetric,
  slidingWindows,
  unitInteractions,
} from "../../src/index.js";
import { chatJson, startServer, textLogprobs, type RecordedRequest, type ScriptedServer } from "../support/server.js";
import { testJudge } from "../support/judge.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => server.reset());

const schemaOf = (r: RecordedRequest): string => r.body.response_format?.json_schema?.name ?? "";
const promptOf = (r: RecordedRequest): string => r.body.messages.map((m: { content: string }) => m.content).join("\n");

describe("PromptAlignmentMetric", () => {
  const testCase = new LLMTestCase({ input: "Say hello to Ada.", actualOutput: "HELLO ADA! How are you today, my friend?" });

  it("scores count(yes)/n over one verdict per instruction, then asks for the reason", async () => {
    server.enqueue(
      "chat",
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "It shouts: 'HELLO ADA!'" },
          { verdict: "yes", reason: null },
        ],
      }),
      chatJson({ reason: "The score is 0.67 because the reply shouts." }),
    );
    const metric = new PromptAlignmentMetric({
      model: testJudge(server),
      promptInstructions: ["Greet the user by name.", "Never use all caps.", "Use at most two sentences."],
    });
    expect(await metric.aMeasure(testCase)).toBeCloseTo(2 / 3, 12);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.67 because the reply shouts.");
    const [verdictCall, reasonCall] = server.requestsTo("chat");
    expect(promptOf(verdictCall!)).toContain("2. Never use all caps.");
    expect(promptOf(reasonCall!)).toContain("It shouts: 'HELLO ADA!'");
    expect(metric.scoringPath).toBe("structured");
  });

  it("re-asks a verdict list of the wrong length; strict mode binarises", async () => {
    server.enqueue(
      "chat",
      chatJson({ verdicts: [{ verdict: "yes", reason: null }] }),
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "caps" },
        ],
      }),
    );
    const metric = new PromptAlignmentMetric({
      model: testJudge(server),
      promptInstructions: ["a", "b"],
      strictMode: true,
      includeReason: false,
    });
    expect(await metric.aMeasure(testCase)).toBe(0);
    expect(metric.threshold).toBe(1);
    expect(metric.scoringPath).toBe("repaired-and-re-asked");
    expect(server.requestsTo("chat")).toHaveLength(2);
  });

  it("needs instructions, input and actual output", async () => {
    expect(() => new PromptAlignmentMetric({ model: testJudge(server), promptInstructions: [] })).toThrow(JudgeMetricConfigError);
    const metric = new PromptAlignmentMetric({ model: testJudge(server), promptInstructions: ["a"] });
    await expect(metric.aMeasure(new LLMTestCase({ input: "q" }))).rejects.toThrow(
      /'actual_output' cannot be None for the 'Prompt Alignment' metric/,
    );
  });
});

describe("TurnRelevancyMetric", () => {
  const turns = [
    { role: "user", content: "Hi, I need a table for two." },
    { role: "assistant", content: "Sure, for which evening?" },
    { role: "user", content: "Friday." },
    { role: "user", content: "At 8pm." },
    { role: "assistant", content: "Our chef loves penguins." },
    { role: "user", content: "So is it booked?" },
    { role: "assistant", content: "Yes: Friday 8pm, two people." },
  ] as const;

  it("groups turns into unit interactions and slides a window over them (DeepEval's rules)", () => {
    const units = unitInteractions(turns.map((t) => new Turn(t)));
    expect(units.map((u) => u.map((t) => t.content))).toEqual([
      ["Hi, I need a table for two.", "Sure, for which evening?"],
      ["Friday.", "At 8pm.", "Our chef loves penguins."],
      ["So is it booked?", "Yes: Friday 8pm, two people."],
    ]);
    expect(unitInteractions([new Turn({ role: "user", content: "alone" })])).toEqual([]);
    expect(unitInteractions([new Turn({ role: "assistant", content: "a" }), new Turn({ role: "user", content: "u" })])).toEqual([]);
    expect(slidingWindows([1, 2, 3, 4], 2)).toEqual([[1], [1, 2], [2, 3], [3, 4]]);
  });

  it("one verdict per interaction over its window; score count(yes)/n; the reason names the message", async () => {
    server.handle("chat", (request) => {
      if (schemaOf(request) === "reason") return chatJson({ reason: "The score is 0.67 because message 2 talks about penguins." });
      const window = JSON.parse(promptOf(request).split("Conversation:\n")[1]!.split("\n\nReply with")[0]!) as { content: string }[];
      const last = window[window.length - 1]!.content;
      return chatJson(
        last.includes("penguins")
          ? { verdict: "No, off-topic", reason: "'Our chef loves penguins.' ignores the booking." }
          : { verdict: "yes", reason: null },
      );
    });
    const metric = new TurnRelevancyMetric({ model: testJudge(server), windowSize: 2 });
    const score = await metric.aMeasure(new ConversationalTestCase({ turns: [...turns] }));
    expect(score).toBeCloseTo(2 / 3, 12);
    expect(metric.verdicts.map((v) => v.verdict)).toEqual(["yes", "no", "yes"]);
    const verdictCalls = server.requestsTo("chat").filter((r) => schemaOf(r) !== "reason");
    expect(verdictCalls).toHaveLength(3);
    // the third window holds interactions 2 and 3 only (windowSize 2)
    const third = verdictCalls.map(promptOf).find((p) => p.includes("Yes: Friday 8pm"))!;
    expect(third).toContain("Our chef loves penguins.");
    expect(third).not.toContain("Hi, I need a table");
    const reasonCall = server.requestsTo("chat").find((r) => schemaOf(r) === "reason")!;
    expect(promptOf(reasonCall)).toContain("Message 2: 'Our chef loves penguins.' ignores the booking.");
    expect(() => new TurnRelevancyMetric({ model: testJudge(server), windowSize: 0 })).toThrow(JudgeMetricConfigError);
  });
});

describe("ConversationalGEval", () => {
  const conversation = new ConversationalTestCase({
    scenario: "A customer wants a refund.",
    expected_outcome: "The refund is issued.",
    turns: [
      { role: "user", content: "I want my money back." },
      { role: "assistant", content: "Done: the refund is on its way." },
    ],
  });

  it("generates steps from the criteria, shows the conversation, weights the score by logprobs and normalises it", async () => {
    server.enqueue("chat", chatJson({ steps: ["Check the outcome.", "Check the tone."] }));
    const content = '{"reason":"Refund issued politely.","score":8}';
    server.enqueue(
      "chat",
      chatJson(JSON.parse(content), {
        logprobs: textLogprobs(content, (t) => (t === "8" ? { "8": Math.log(0.5), "10": Math.log(0.5) } : undefined)),
      }),
    );
    const metric = new ConversationalGEval({
      model: testJudge(server),
      name: "Resolution",
      criteria: "Does the assistant reach the expected outcome?",
      evaluationParams: [MultiTurnParams.CONTENT, MultiTurnParams.EXPECTED_OUTCOME],
    });
    expect(metric.name).toBe("Resolution [Conversational GEval]");
    expect(await metric.aMeasure(conversation)).toBeCloseTo(0.9, 12);
    expect(metric.scoringPath).toBe("logprob-weighted");
    expect(metric.reason).toBe("Refund issued politely.");
    const scoreCall = server.requestsTo("chat")[1]!;
    expect(promptOf(scoreCall)).toContain("Expected Outcome:\nThe refund is issued.");
    expect(promptOf(scoreCall)).toContain('"content": "Done: the refund is on its way."');
    expect(scoreCall.body.response_format.json_schema.schema.properties.score).toMatchObject({ minimum: 0, maximum: 10 });
  });

  it("takes DeepEval's rubric form, requires the conversation-level params it shows, and has a strict mode", async () => {
    server.enqueue("chat", chatJson({ reason: "r", score: 3 }));
    const metric = new ConversationalGEval({
      model: testJudge(server, { capabilities: { supportsLogprobs: false } }),
      name: "R",
      evaluationSteps: ["Check."],
      rubric: [
        { score: [0, 1], expected_outcome: "No." },
        { score: [2, 4], expected_outcome: "Yes." },
      ],
    });
    expect(await metric.aMeasure(conversation)).toBeCloseTo(0.75, 12);
    expect(metric.scoringPath).toBe("raw-score");

    const needsScenario = new ConversationalGEval({
      model: testJudge(server),
      name: "S",
      evaluationSteps: ["x"],
      evaluationParams: ["scenario"],
    });
    await expect(needsScenario.aMeasure(new ConversationalTestCase({ turns: [{ role: "user", content: "hi" }] }))).rejects.toThrow(
      /'scenario'/,
    );

    server.enqueue("chat", chatJson({ reason: "r", score: 1 }));
    const strict = new ConversationalGEval({ model: testJudge(server), name: "S", evaluationSteps: ["x"], strictMode: true });
    expect(await strict.aMeasure(conversation)).toBe(1);
    expect(strict.threshold).toBe(1);
  });
});
