// Agentic metrics (docs/spec/judges.md §4.2–4.4) and conversational metrics (§5.1–5.3).
import { ConversationalTestCase, LLMTestCase, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { describe, expect, it } from "vitest";
import {
  ConversationCompletenessMetric,
  JudgeReplyError,
  KnowledgeRetentionMetric,
  NO_PLAN_REASON,
  PlanAdherenceMetric,
  RoleAdherenceMetric,
  StepEfficiencyMetric,
  TaskCompletionMetric,
  roleAdherenceScore,
} from "../../src/deepeval/index.js";
import { FakeJudge, reasonReply, reply } from "./support.js";

const trace = {
  name: "agent",
  input: "Book a table for 2 at 8pm",
  children: [{ type: "tool", name: "search", input: { q: "restaurants" } }],
};
const agentRun = (withTrace = true) =>
  new LLMTestCase({
    input: "Book a table for 2 at 8pm",
    actualOutput: "Booked Chez Nous for 2 at 8pm.",
    toolsCalled: [{ name: "book", inputParameters: { people: 2 } }],
    ...(withTrace ? { trace } : {}),
  });

describe("TaskCompletionMetric", () => {
  it("task & outcome, then a [0, 1] verdict whose reason is the metric's (2 calls)", async () => {
    const judge = new FakeJudge([
      reply("task_outcome", { task: "Book a table", outcome: "The agent booked a table for 2 at 8pm." }),
      reply("task_completion_verdict", { verdict: 0.8, reason: "Booked, but no confirmation number." }),
    ]);
    const metric = new TaskCompletionMetric({ model: judge });
    expect(metric.requiresTrace).toBe(true);
    expect(await metric.aMeasure(agentRun(false))).toBe(0.8);
    expect(metric.reason).toBe("Booked, but no confirmation number.");
    expect(judge.schemas).toEqual(["task_outcome", "task_completion_verdict"]);
    // Without a trace: input, tools called and output.
    expect(judge.calls[0]!.prompt).toContain('"name": "book"');
    expect(judge.calls[0]!.prompt).toContain("Booked Chez Nous");
    expect(judge.calls[1]!.prompt).toContain("Task:\nBook a table");
  });

  it("uses the trace when present; the task option replaces the extracted task; strict binarises", async () => {
    const judge = new FakeJudge([
      reply("task_outcome", { task: "extracted", outcome: "did it" }),
      reply("task_completion_verdict", { verdict: 0.9, reason: null }),
    ]);
    const metric = new TaskCompletionMetric({ model: judge, task: "Book for two", strictMode: true });
    expect(await metric.aMeasure(agentRun(true))).toBe(0);
    expect(judge.calls[0]!.prompt).toContain('"type": "tool"');
    expect(judge.calls[1]!.prompt).toContain("Task:\nBook for two");
    expect(judge.calls[1]!.prompt).not.toContain("extracted");
    expect(metric.reason).toBeNull();
  });

  it("a verdict outside [0, 1] is a schema error", async () => {
    const judge = new FakeJudge([
      reply("task_outcome", { task: "t", outcome: "o" }),
      reply("task_completion_verdict", { verdict: 1.5, reason: "?" }),
    ]);
    await expect(new TaskCompletionMetric({ model: judge }).aMeasure(agentRun())).rejects.toThrow(JudgeReplyError);
  });
});

describe("PlanAdherenceMetric", () => {
  it("no plan in the trace → 1 with the fixed reason and no adherence call", async () => {
    const judge = new FakeJudge([reply("task", { task: "Book a table" }), reply("plan", { plan: [] })]);
    const metric = new PlanAdherenceMetric({ model: judge });
    expect(await metric.aMeasure(agentRun())).toBe(1);
    expect(metric.reason).toBe(NO_PLAN_REASON);
    expect(judge.schemas).toEqual(["task", "plan"]);
  });

  it("a plan → the adherence score and reason (3 calls)", async () => {
    const judge = new FakeJudge([
      reply("task", { task: "Book a table" }),
      reply("plan", { plan: ["search", "book", "confirm"] }),
      reply("score_reason", { score: 0.75, reason: "Skipped the confirmation." }),
    ]);
    const metric = new PlanAdherenceMetric({ model: judge });
    expect(await metric.aMeasure(agentRun())).toBe(0.75);
    expect(metric.reason).toBe("Skipped the confirmation.");
    expect(judge.calls[2]!.prompt).toContain("1. search\n2. book\n3. confirm");
    expect(judge.calls[2]!.prompt).toContain("0.75 — minor deviations");
  });

  it("needs a trace: MissingTestCaseParamsError recorded on the metric, no call", async () => {
    const judge = new FakeJudge();
    const metric = new PlanAdherenceMetric({ model: judge });
    await expect(metric.aMeasure(agentRun(false))).rejects.toBeInstanceOf(MissingTestCaseParamsError);
    expect(metric.error).toMatch(/^'trace' cannot be None for the 'Plan Adherence' metric/);
    expect(judge.calls).toHaveLength(0);
  });
});

describe("StepEfficiencyMetric", () => {
  it("task, then the efficiency score (2 calls); strict binarises", async () => {
    const judge = new FakeJudge([reply("task", { task: "Book" }), reply("score_reason", { score: 0.5, reason: "Searched twice." })]);
    const metric = new StepEfficiencyMetric({ model: judge });
    expect(await metric.aMeasure(agentRun())).toBe(0.5);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("Searched twice.");
    expect(judge.schemas).toEqual(["task", "score_reason"]);
    judge.push(reply("task", { task: "Book" }), reply("score_reason", { score: 0.5, reason: "x" }));
    expect(await new StepEfficiencyMetric({ model: judge, strictMode: true }).aMeasure(agentRun())).toBe(0);
  });
});

const conversation = (turns: { role: "user" | "assistant"; content: string }[], extra: { chatbotRole?: string } = {}) =>
  new ConversationalTestCase({ turns, ...extra });

describe("KnowledgeRetentionMetric", () => {
  const turns = [
    { role: "assistant" as const, content: "Hello! How can I help?" },
    { role: "user" as const, content: "I'm Alice, flying from Paris." },
    { role: "assistant" as const, content: "Hi Alice, where to?" },
    { role: "user" as const, content: "I need a hotel too." },
    { role: "assistant" as const, content: "Sure. Which city are you flying from?" },
  ];

  it("knowledge per user turn, a verdict per assistant turn with prior knowledge, count(no) / n", async () => {
    const judge = new FakeJudge([
      reply("knowledge", {
        data: [
          { key: "name", value: "Alice" },
          { key: "departure city", value: "Paris" },
        ],
      }),
      reply("knowledge", { data: [] }),
      reply("knowledge_retention_verdict", { verdict: "no", reason: null }),
      reply("knowledge_retention_verdict", { verdict: "yes", reason: "Asked again for the departure city (Paris)." }),
      reasonReply(),
    ]);
    const metric = new KnowledgeRetentionMetric({ model: judge });
    expect(await metric.aMeasure(conversation(turns))).toBe(0.5);
    // The greeting (before any user fact) gets no verdict.
    expect(judge.schemas).toEqual(["knowledge", "knowledge", "knowledge_retention_verdict", "knowledge_retention_verdict", "reason"]);
    expect(judge.calls[1]!.prompt).toContain("Last user message:\nI need a hotel too.");
    expect(judge.calls[1]!.prompt).toContain("I'm Alice, flying from Paris.");
    expect(judge.calls[3]!.prompt).toContain('"departure city": "Paris"');
    expect(judge.calls[4]!.prompt).toContain("Asked again for the departure city");
  });

  it("accepts DeepEval's map-shaped knowledge; no facts at all → no verdicts → 1", async () => {
    const judge = new FakeJudge([reply("knowledge", { data: null }), reply("knowledge", { data: {} }), reasonReply()]);
    expect(await new KnowledgeRetentionMetric({ model: judge }).aMeasure(conversation(turns))).toBe(1);
    expect(judge.schemas).toEqual(["knowledge", "knowledge", "reason"]);

    const mapJudge = new FakeJudge([
      reply("knowledge", { data: { name: "Alice", trips: ["Paris", "Rome"] } }),
      reply("knowledge", { data: {} }),
      reply("knowledge_retention_verdict", { verdict: "No" }),
      reply("knowledge_retention_verdict", { verdict: "no" }),
    ]);
    expect(await new KnowledgeRetentionMetric({ model: mapJudge, includeReason: false }).aMeasure(conversation(turns))).toBe(1);
    expect(mapJudge.calls[2]!.prompt).toContain('"trips": [');
  });

  it("strict mode: 0 below 1", async () => {
    const judge = new FakeJudge([
      reply("knowledge", { data: [{ key: "name", value: "Alice" }] }),
      reply("knowledge", { data: [] }),
      reply("knowledge_retention_verdict", { verdict: "yes", reason: "forgot" }),
      reply("knowledge_retention_verdict", { verdict: "no" }),
    ]);
    expect(await new KnowledgeRetentionMetric({ model: judge, strictMode: true, includeReason: false }).aMeasure(conversation(turns))).toBe(
      0,
    );
  });
});

describe("ConversationCompletenessMetric", () => {
  const chat = conversation([
    { role: "user", content: "Book a flight and a hotel, and tell me the weather." },
    { role: "assistant", content: "Flight booked. The weather is sunny." },
  ]);

  it("intentions, one verdict per intention, count(!=no) / n (1 + #intentions + 1 calls)", async () => {
    const judge = new FakeJudge([
      reply("intentions", { intentions: ["book a flight", "book a hotel", "know the weather"] }),
      reply("intention_verdict", { verdict: "yes" }),
      reply("intention_verdict", { verdict: "no", reason: "No hotel was booked: 'Flight booked.'" }),
      reply("intention_verdict", { verdict: "yes", reason: null }),
      reasonReply(),
    ]);
    const metric = new ConversationCompletenessMetric({ model: judge });
    expect(await metric.aMeasure(chat)).toBeCloseTo(2 / 3, 12);
    expect(judge.calls[2]!.prompt).toContain("Intention:\nbook a hotel");
    // The reason call gets the unformatted score, the intentions and the "no" reasons.
    expect(judge.calls[4]!.prompt).toContain(`Score: ${2 / 3}`);
    expect(judge.calls[4]!.prompt).toContain("- book a flight");
    expect(judge.calls[4]!.prompt).toContain("No hotel was booked");
  });

  it("no intentions → 1 (2 calls)", async () => {
    const judge = new FakeJudge([reply("intentions", { intentions: [] }), reasonReply()]);
    expect(await new ConversationCompletenessMetric({ model: judge }).aMeasure(chat)).toBe(1);
    expect(judge.schemas).toEqual(["intentions", "reason"]);
  });
});

describe("RoleAdherenceMetric", () => {
  const turns = [
    { role: "user" as const, content: "Hi pirate!" },
    { role: "assistant" as const, content: "Arr, ahoy matey!" },
    { role: "user" as const, content: "What's 2+2?" },
    { role: "assistant" as const, content: "As an AI language model, the answer is 4." },
    { role: "assistant" as const, content: "Arr, four doubloons!" },
  ];

  it("(A − breaches) / A over assistant turns; repeated indices count once", async () => {
    const judge = new FakeJudge([
      reply("out_of_character", {
        verdicts: [
          { index: 3, reason: "Dropped the persona." },
          { index: 3, reason: "again" },
        ],
      }),
      reasonReply(),
    ]);
    const metric = new RoleAdherenceMetric({ model: judge });
    expect(await metric.aMeasure(conversation(turns, { chatbotRole: "a pirate" }))).toBeCloseTo(2 / 3, 12);
    expect(judge.calls[0]!.prompt).toContain("a pirate");
    expect(judge.calls[1]!.prompt).toContain("As an AI language model, the answer is 4. (turn #4): Dropped the persona.");
    expect(metric.verboseLogs).toContain("(turn #4)");
  });

  it("an index that is not an assistant turn violates the schema", async () => {
    const judge = new FakeJudge([reply("out_of_character", { verdicts: [{ index: 0, reason: "user" }] })]);
    const failure = await new RoleAdherenceMetric({ model: judge })
      .aMeasure(conversation(turns, { chatbotRole: "a pirate" }))
      .catch((e: unknown) => e);
    expect((failure as JudgeReplyError).issues[0]).toContain("turn 0 is not an assistant turn");
  });

  it("needs chatbotRole; strict binarises; no assistant turns → 1", async () => {
    const metric = new RoleAdherenceMetric({ model: new FakeJudge() });
    await expect(metric.aMeasure(conversation(turns))).rejects.toThrow(
      "'chatbot_role' in a conversational test case cannot be empty for the 'Role Adherence' metric.",
    );
    const judge = new FakeJudge([reply("out_of_character", { verdicts: [{ index: 1, reason: "x" }] }), reasonReply()]);
    expect(await new RoleAdherenceMetric({ model: judge, strictMode: true }).aMeasure(conversation(turns, { chatbotRole: "p" }))).toBe(0);
    expect(roleAdherenceScore(0, 0)).toBe(1);
    expect(roleAdherenceScore(2, 5)).toBe(0);
    const onlyUser = new FakeJudge([reply("out_of_character", { verdicts: [] }), reasonReply()]);
    expect(
      await new RoleAdherenceMetric({ model: onlyUser }).aMeasure(conversation([{ role: "user", content: "hi" }], { chatbotRole: "p" })),
    ).toBe(1);
  });
});
