// PlanQualityMetric, ArgumentCorrectnessMetric (docs/spec/judges.md §4.5–4.6) and the conversational agentic
// metrics TopicAdherenceMetric, ToolUseMetric, GoalAccuracyMetric (§4.7–4.9) against the scripted loopback
// server: DeepEval's formulas over scripted judgements (worked out by hand in the comments), strict mode,
// reasons, cost and the failure paths.
import { ConversationalTestCase, LLMTestCase, MissingTestCaseParamsError, Turn } from "@evalkern/metrics/deepeval";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ArgumentCorrectnessMetric,
  GoalAccuracyMetric,
  JudgeMetricConfigError,
  NO_PLAN_REASON,
  NO_QA_PAIRS_REASON,
  NO_TOOL_CALLS_REASON,
  PlanQualityMetric,
  ToolUseMetric,
  TopicAdherenceMetric,
  goalAccuracyScore,
  interactionParts,
  toolUseScore,
  topicAdherenceScore,
} from "../../src/deepeval/index.js";
import { JudgeOutputError } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// Every scripted reply reports 10 prompt and 5 completion tokens: 10 × $1/M + 5 × $2/M = $0.00002 a call.
const price = { inputPerMTok: 1, outputPerMTok: 2 };
const judge = () => testJudge(server, { price });
const schemaOf = (r: RecordedRequest): string => r.body.response_format?.json_schema?.name ?? "";
const promptOf = (r: RecordedRequest): string => r.body.messages.map((m: { content: string }) => m.content).join("\n");
const schemas = () => server.requestsTo("chat").map(schemaOf);
/** Answer each call from `fn(schema, prompt)` (the calls of `gather` may arrive in any order). */
const route = (fn: (schema: string, prompt: string) => unknown) => server.handle("chat", (r) => chatJson(fn(schemaOf(r), promptOf(r))));

const trace = {
  type: "agent",
  input: "Book a table for two at 8pm.",
  reasoning: "Plan: search restaurants, then book one.",
  children: [{ type: "tool", name: "book", input: { people: 2 } }],
};

describe("PlanQualityMetric", () => {
  const run = (withTrace = true) => new LLMTestCase({ input: "Book a table", actualOutput: "Booked.", ...(withTrace ? { trace } : {}) });

  it("task → plan → the plan's quality; the judge's score and reason, no reason call", async () => {
    server.enqueue(
      "chat",
      chatJson({ task: "Book a table for two at 8pm." }),
      chatJson({ plan: ["Search restaurants", "Book one"] }),
      chatJson({ score: 0.75, reason: "No step checks availability before booking." }),
    );
    const metric = new PlanQualityMetric({ model: judge() });
    expect(metric.requiresTrace).toBe(true);
    expect(await metric.aMeasure(run())).toBe(0.75);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("No step checks availability before booking.");
    expect(schemas()).toEqual(["task", "plan", "plan_quality"]);
    expect(promptOf(server.requestsTo("chat")[2]!)).toContain("1. Search restaurants\n2. Book one");
    expect(metric.evaluationCost).toBeCloseTo(6e-5, 15);
  });

  it("strict mode binarises; an empty plan scores 1 with the fixed reason; no trace fails before any call", async () => {
    server.enqueue("chat", chatJson({ task: "t" }), chatJson({ plan: ["a"] }), chatJson({ score: 0.75, reason: "r" }));
    const strict = new PlanQualityMetric({ model: judge(), strictMode: true });
    expect(await strict.aMeasure(run())).toBe(0);
    expect(strict.threshold).toBe(1);

    server.enqueue("chat", chatJson({ task: "t" }), chatJson({ plan: [] }));
    const noPlan = new PlanQualityMetric({ model: judge() });
    expect(await noPlan.aMeasure(run())).toBe(1);
    expect(noPlan.reason).toBe(NO_PLAN_REASON);

    server.reset();
    const untraced = new PlanQualityMetric({ model: judge() });
    await expect(untraced.aMeasure(run(false))).rejects.toBeInstanceOf(MissingTestCaseParamsError);
    expect(untraced.error).toMatch(/^'trace' cannot be None for the 'Plan Quality' metric/);
    expect(server.requestsTo("chat")).toHaveLength(0);
  });

  it("a score outside [0, 1] is re-asked, then a typed error", async () => {
    server.enqueue(
      "chat",
      chatJson({ task: "t" }),
      chatJson({ plan: ["a"] }),
      ...[1.5, 2, 7].map((score) => chatJson({ score, reason: "r" })),
    );
    const metric = new PlanQualityMetric({ model: judge() });
    await expect(metric.aMeasure(run())).rejects.toBeInstanceOf(JudgeOutputError);
    expect(metric.score).toBeNull();
    expect(server.requestsTo("chat")).toHaveLength(5);
  });
});

describe("ArgumentCorrectnessMetric", () => {
  const tools = [
    { name: "weather", inputParameters: { city: "Paris", year: 2023 } },
    { name: "movies", inputParameters: { genre: "romance" } },
    { name: "max", inputParameters: { of: "weather.daily_max" } },
  ];
  const testCase = (toolsCalled: unknown) =>
    new LLMTestCase({
      input: "Hottest day in Paris in 2023?",
      ...(toolsCalled === undefined ? {} : { toolsCalled: toolsCalled as never }),
    });

  it("scores count(verdict != no) / n over one verdict per tool call, then the reason", async () => {
    server.enqueue(
      "chat",
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "Movies do not answer a weather question." },
          { verdict: "idk", reason: null },
        ],
      }),
      chatJson({ reason: "The score is 0.67 because the movie search is irrelevant." }),
    );
    const metric = new ArgumentCorrectnessMetric({ model: judge() });
    // "yes" and "idk" count, "no" does not: 2/3
    expect(await metric.aMeasure(testCase(tools))).toBeCloseTo(2 / 3, 12);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.67 because the movie search is irrelevant.");
    const [verdicts, reason] = server.requestsTo("chat");
    expect(promptOf(verdicts!)).toContain('"genre": "romance"');
    expect(promptOf(verdicts!)).toContain("Hottest day in Paris in 2023?");
    expect(promptOf(reason!)).toContain("- Movies do not answer a weather question.");
    expect(metric.evaluationCost).toBeCloseTo(4e-5, 15);
  });

  it("no tool calls → 1 with the fixed reason and no call; strict binarises; tools_called is required", async () => {
    const none = new ArgumentCorrectnessMetric({ model: judge() });
    expect(await none.aMeasure(testCase([]))).toBe(1);
    expect(none.reason).toBe(NO_TOOL_CALLS_REASON);
    expect(server.requestsTo("chat")).toHaveLength(0);

    server.enqueue("chat", chatJson({ verdicts: [{ verdict: "yes" }, { verdict: "no", reason: "x" }, { verdict: "yes" }] }));
    const strict = new ArgumentCorrectnessMetric({ model: judge(), strictMode: true, includeReason: false });
    expect(await strict.aMeasure(testCase(tools))).toBe(0);

    const missing = new ArgumentCorrectnessMetric({ model: judge() });
    await expect(missing.aMeasure(testCase(undefined))).rejects.toBeInstanceOf(MissingTestCaseParamsError);
    expect(missing.error).toBe("'tools_called' cannot be None for the 'Argument Correctness' metric");
  });

  it("a verdict list shorter than the tool calls is re-asked until it fits", async () => {
    server.enqueue(
      "chat",
      chatJson({ verdicts: [{ verdict: "yes" }] }),
      chatJson({ verdicts: [{ verdict: "yes" }, { verdict: "yes" }, { verdict: "no", reason: "bad" }] }),
    );
    const metric = new ArgumentCorrectnessMetric({ model: judge(), includeReason: false });
    expect(await metric.aMeasure(testCase(tools))).toBeCloseTo(2 / 3, 12);
    expect(metric.scoringPath).toBe("repaired-and-re-asked");
  });
});

const museum = new ConversationalTestCase({
  turns: [
    { role: "user", content: "When do you open? And what's the best pizza in town?" },
    { role: "assistant", content: "We open at 9am. Try Luigi's for pizza." },
    { role: "user", content: "Can you write my tax return?" },
    { role: "assistant", content: "Sorry, I can only help with museum visits." },
  ],
});

describe("TopicAdherenceMetric", () => {
  it("pairs per interaction, one TP/TN/FP/FN verdict per pair, score (TP + TN) / n", async () => {
    route((schema, prompt) => {
      if (schema === "qa_pairs") {
        return prompt.includes("tax return")
          ? { qa_pairs: [{ question: "Can you write my tax return?", response: "Sorry, I can only help with museum visits." }] }
          : {
              qa_pairs: [
                { question: "When do you open?", response: "We open at 9am." },
                { question: "What's the best pizza in town?", response: "Try Luigi's for pizza." },
              ],
            };
      }
      if (schema === "topic_verdict") {
        if (prompt.includes("When do you open?")) return { verdict: "TP", reason: "Opening hours are on topic and answered." };
        if (prompt.includes("pizza")) return { verdict: "fp", reason: "Pizza is off topic, yet answered." };
        return { verdict: "TN", reason: "Taxes are off topic and declined." };
      }
      return { reason: "The score is 0.67 because the pizza question was answered." };
    });
    const metric = new TopicAdherenceMetric({ model: judge(), relevantTopics: ["museum opening hours", "exhibitions"] });
    // TP + TN = 2 of 3 pairs
    expect(await metric.aMeasure(museum)).toBeCloseTo(2 / 3, 12);
    expect(metric.success).toBe(true);
    expect(metric.verdicts.map((x) => x.verdict).sort()).toEqual(["FP", "TN", "TP"]);
    expect(metric.reason).toBe("The score is 0.67 because the pizza question was answered.");
    expect(schemas().filter((s) => s === "qa_pairs")).toHaveLength(2);
    const reason = server.requestsTo("chat").find((r) => schemaOf(r) === "reason")!;
    expect(promptOf(reason)).toContain("Off-topic questions answered anyway (FP):\n- Pizza is off topic, yet answered.");
    // 2 pair extractions + 3 verdicts + 1 reason
    expect(metric.evaluationCost).toBeCloseTo(6 * 2e-5, 15);
    expect(topicAdherenceScore([{ verdict: "FN" }, { verdict: "TN" }])).toBe(0.5);
  });

  it("no question-answer pair scores 0 with the fixed reason; strict mode binarises; topics are required", async () => {
    route(() => ({ qa_pairs: [] }));
    const empty = new TopicAdherenceMetric({ model: judge(), relevantTopics: ["art"] });
    expect(await empty.aMeasure(museum)).toBe(0);
    expect(empty.reason).toBe(NO_QA_PAIRS_REASON);
    expect(empty.success).toBe(false);

    server.reset();
    route((schema) => (schema === "qa_pairs" ? { qa_pairs: [{ question: "q", response: "r" }] } : { verdict: "FN", reason: "Refused." }));
    const strict = new TopicAdherenceMetric({ model: judge(), relevantTopics: ["art"], strictMode: true, includeReason: false });
    expect(await strict.aMeasure(museum)).toBe(0);
    expect(strict.threshold).toBe(1);
    expect(() => new TopicAdherenceMetric({ model: judge(), relevantTopics: [] })).toThrow(JudgeMetricConfigError);
  });
});

const booking = new ConversationalTestCase({
  turns: [
    { role: "user", content: "Book a table for two tonight." },
    {
      role: "assistant",
      content: "Booked Chez Nous at 8pm.",
      toolsCalled: [{ name: "book", inputParameters: { people: 2, time: "20:00" } }],
    },
    { role: "user", content: "Thanks! What's 2 + 2?" },
    { role: "assistant", content: "4." },
  ],
});

describe("ToolUseMetric", () => {
  const availableTools = [
    { name: "book", description: "Book a restaurant table" },
    { name: "search", description: "Search restaurants" },
  ];

  it("score = min(mean(selection), mean(arguments)); arguments only for interactions that called tools; two reasons", async () => {
    route((schema, prompt) => {
      if (schema === "tool_selection") {
        return prompt.includes("Book a table") ? { score: 1, reason: "book fits." } : { score: 0.5, reason: "No tool needed." };
      }
      if (schema === "tool_arguments") return { score: 0.5, reason: "No restaurant name was passed." };
      return { reason: prompt.includes("(tool selection)") ? "Selection is fine." : "Arguments miss the restaurant." };
    });
    const metric = new ToolUseMetric({ model: judge(), availableTools });
    // selection mean (1 + 0.5) / 2 = 0.75; arguments mean 0.5 / 1 = 0.5 → min 0.5
    expect(await metric.aMeasure(booking)).toBe(0.5);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("Selection is fine.\nArguments miss the restaurant.");
    expect(schemas().filter((s) => s === "tool_selection")).toHaveLength(2);
    expect(schemas().filter((s) => s === "tool_arguments")).toHaveLength(1);
    const args = server.requestsTo("chat").find((r) => schemaOf(r) === "tool_arguments")!;
    expect(promptOf(args)).toContain('"time": "20:00"');
    expect(promptOf(args)).toContain('"description": "Search restaurants"');
    // 2 selection + 1 argument + 2 reason calls
    expect(metric.evaluationCost).toBeCloseTo(5 * 2e-5, 15);
  });

  it("DeepEval's empty mean: a conversation that called no tool scores 0; strict mode binarises", async () => {
    route((schema) => (schema === "tool_selection" ? { score: 1, reason: "No tool was needed." } : { reason: "r" }));
    const noTools = new ConversationalTestCase({
      turns: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello!" },
      ],
    });
    const metric = new ToolUseMetric({ model: judge(), availableTools, includeReason: false });
    // selection mean 1, argument list empty → 0 / 1 = 0 → min 0
    expect(await metric.aMeasure(noTools)).toBe(0);
    expect(schemas()).toEqual(["tool_selection"]);
    expect(toolUseScore([0.75], [1])).toBe(0.75);

    server.reset();
    route((schema) => (schema === "tool_selection" ? { score: 0.75, reason: "r" } : { score: 1, reason: "r" }));
    const strict = new ToolUseMetric({ model: judge(), availableTools, strictMode: true, includeReason: false });
    expect(await strict.aMeasure(booking)).toBe(0);
    expect(() => new ToolUseMetric({ model: judge() } as never)).toThrow(/'availableTools'/);
    expect(() => new ToolUseMetric({ model: judge(), availableTools: [{ nam: "x" } as never] })).toThrow(JudgeMetricConfigError);
  });
});

describe("GoalAccuracyMetric", () => {
  it("score = (mean(goal) + mean(plan)) / 2 over the unit interactions, then the reason", async () => {
    route((schema, prompt) => {
      const first = prompt.includes("Book a table");
      if (schema === "goal_score") return first ? { score: 1, reason: "Booked as asked." } : { score: 0.5, reason: "Thanks ignored." };
      if (schema === "plan_score") return first ? { score: 0.5, reason: "No availability check." } : { score: 0, reason: "No plan." };
      return { reason: "The score is 0.50 because planning was weak." };
    });
    const metric = new GoalAccuracyMetric({ model: judge() });
    // goal mean (1 + 0.5) / 2 = 0.75; plan mean (0.5 + 0) / 2 = 0.25; (0.75 + 0.25) / 2 = 0.5
    expect(await metric.aMeasure(booking)).toBe(0.5);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("The score is 0.50 because planning was weak.");
    const goalCall = server.requestsTo("chat").find((r) => schemaOf(r) === "goal_score" && promptOf(r).includes("Book a table"))!;
    expect(promptOf(goalCall)).toContain("Step 1 (assistant):\nBooked Chez Nous at 8pm.\nTools called:");
    const reason = server.requestsTo("chat").find((r) => schemaOf(r) === "reason")!;
    expect(promptOf(reason)).toContain("0.50: No availability check.");
    // 2 goal + 2 plan + 1 reason
    expect(metric.evaluationCost).toBeCloseTo(5 * 2e-5, 15);
    expect(goalAccuracyScore([], [])).toBe(0);
  });

  it("strict mode binarises; a malformed judgement is a typed error; the user/assistant split follows DeepEval", async () => {
    route((schema) => (schema === "goal_score" ? { score: 1, reason: "r" } : { score: 0.9, reason: "r" }));
    const strict = new GoalAccuracyMetric({ model: judge(), strictMode: true, includeReason: false });
    // (1 + 0.9) / 2 = 0.95 < 1 → 0
    expect(await strict.aMeasure(booking)).toBe(0);

    server.reset();
    route((schema) => (schema === "goal_score" ? { score: "high", reason: "r" } : { score: 1, reason: "r" }));
    const failing = new GoalAccuracyMetric({ model: judge() });
    await expect(failing.aMeasure(booking)).rejects.toBeInstanceOf(JudgeOutputError);
    expect(failing.score).toBeNull();

    const parts = interactionParts(
      [
        { role: "user", content: "a" },
        { role: "user", content: "b" },
        { role: "assistant", content: "c", toolsCalled: [{ name: "t" }] },
      ].map((t) => new Turn(t as never)),
    );
    expect([parts.userMessages, parts.assistantMessages, parts.toolsCalled.map((t) => t.name)]).toEqual([["a", "b"], ["c"], ["t"]]);
  });
});
