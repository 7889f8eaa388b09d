// MCPUseMetric, MultiTurnMCPUseMetric and MCPTaskCompletionMetric against the scripted loopback server:
// DeepEval's formulas over the scripted scores (deepeval/metrics/mcp_use_metric, deepeval/metrics/mcp),
// strict mode, reasons, cost, missing fields and malformed replies.
import { ConversationalTestCase, LLMTestCase, MissingTestCaseParamsError } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { JudgeOutputError, MCPTaskCompletionMetric, MCPUseMetric, MultiTurnMCPUseMetric, mcpTasks } from "../../src/index.js";
import { chatJson, startServer, type RecordedRequest, type ScriptedServer } from "../support/server.js";
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
// 10 prompt + 5 completion tokens per reply at $1 per million tokens each
const CALL_COST = 15 / 1_000_000;
const priced = () => testJudge(server, { price: { inputPerMTok: 1, outputPerMTok: 1 } });

const forecast = {
  name: "forecast",
  description: "Weather forecast for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
};
const servers = [{ serverName: "weather", transport: "stdio" as const, availableTools: [forecast] }];
const called = {
  name: "forecast",
  args: { city: "Paris" },
  result: { content: [{ type: "text", text: "Sunny" }], structuredContent: { result: "Sunny, 24°C" } },
};

describe("MCPUseMetric", () => {
  const testCase = new LLMTestCase({
    input: "Weather in Paris?",
    actualOutput: "Sunny, 24°C.",
    mcpServers: servers,
    mcpToolsCalled: [called],
  });

  it("score = min(primitive usage, argument correctness); the reason holds both; cost of two calls", async () => {
    server.enqueue(
      "chat",
      chatJson({ score: 0.9, reason: "The forecast tool was the right one." }),
      chatJson({ score: 0.6, reason: "The city was right but no unit was asked for." }),
    );
    const metric = new MCPUseMetric({ model: priced() });
    expect(await metric.aMeasure(testCase)).toBe(0.6);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe("[\n\tThe forecast tool was the right one.\n\tThe city was right but no unit was asked for.\n]\n");
    expect(metric.scoreBreakdown).toEqual({ "Primitive Usage": 0.9, "Argument Correctness": 0.6 });
    const requests = server.requestsTo("chat");
    expect(requests.map(schemaOf).sort()).toEqual(["mcp_args_score", "mcp_primitives_score"]);
    expect(promptOf(requests[0]!)).toContain('"name": "forecast"');
    expect(promptOf(requests[0]!)).toContain('"city": "Paris"');
    expect(metric.evaluationCost).toBeCloseTo(2 * CALL_COST, 15);
  });

  it("strict mode: threshold 1 and a score below it becomes 0", async () => {
    server.enqueue("chat", chatJson({ score: 1, reason: "a" }), chatJson({ score: 0.95, reason: "b" }));
    const metric = new MCPUseMetric({ model: testJudge(server), strictMode: true });
    expect(await metric.aMeasure(testCase)).toBe(0);
    expect(metric.threshold).toBe(1);
    expect(metric.success).toBe(false);
  });

  it("needs mcpServers (DeepEval's required param); a score outside [0, 1] is re-asked, then a typed error", async () => {
    const metric = new MCPUseMetric({ model: testJudge(server) });
    await expect(metric.aMeasure(new LLMTestCase({ input: "q", actualOutput: "a" }))).rejects.toThrow(MissingTestCaseParamsError);
    expect(metric.error).toMatch(/'mcp_servers' cannot be None for the 'MCP Use' metric/);
    expect(server.requestsTo("chat")).toHaveLength(0);

    server.handle("chat", () => chatJson({ score: 7, reason: "out of range" }));
    await expect(new MCPUseMetric({ model: testJudge(server) }).aMeasure(testCase)).rejects.toThrow(JudgeOutputError);
    expect(server.requestsTo("chat").length).toBeGreaterThan(2);
  });
});

const turns = [
  { role: "user" as const, content: "Weather in Paris?" },
  { role: "assistant" as const, content: "Checking.", mcpToolsCalled: [called] },
  { role: "assistant" as const, content: "Sunny, 24°C." },
  { role: "user" as const, content: "And Rome?" },
  { role: "assistant" as const, content: "Rome: rain." },
  { role: "user" as const, content: "Thanks" },
  { role: "assistant" as const, content: "Bye" },
  { role: "assistant" as const, content: "Anything else?" },
];
const chat = (extra: { mcpServers?: typeof servers | [] } = { mcpServers: servers }) => new ConversationalTestCase({ turns, ...extra });

describe("MCP tasks (DeepEval's _get_tasks)", () => {
  it("unit interactions of more than two turns; the first user turns are the task; MCP turns become tool steps", () => {
    const tasks = mcpTasks(chat().turns);
    // [user, assistant(mcp), assistant] and [user, assistant, assistant]; [user, assistant] is too short
    expect(tasks).toHaveLength(2);
    expect(tasks[0]!.task).toBe("Weather in Paris?\n");
    expect(tasks[0]!.stepsTaken[0]).toContain('tool "forecast"');
    expect(tasks[0]!.stepsTaken[0]).toContain("Sunny, 24°C");
    expect(tasks[0]!.stepsTaken[1]).toBe("Agent's response to user: \nSunny, 24°C.");
    expect(tasks[1]!.task).toBe("Thanks\n");
  });
});

describe("MCPTaskCompletionMetric", () => {
  it("score = mean of the task scores, then one reason call; cost of every call", async () => {
    server.enqueue(
      "chat",
      chatJson({ score: 1, reason: "Answered with the forecast." }),
      chatJson({ score: 0.5, reason: "Said goodbye twice." }),
      chatJson({ reason: "The score is 0.75 because one task was handled clumsily." }),
    );
    const metric = new MCPTaskCompletionMetric({ model: priced() });
    expect(await metric.aMeasure(chat())).toBe(0.75);
    expect(metric.reason).toBe("The score is 0.75 because one task was handled clumsily.");
    const requests = server.requestsTo("chat");
    expect(requests.map(schemaOf)).toEqual(["mcp_task_score", "mcp_task_score", "reason"]);
    expect(promptOf(requests[2]!)).toContain("Said goodbye twice.");
    expect(metric.evaluationCost).toBeCloseTo(3 * CALL_COST, 15);
  });

  it("a conversation without a task scores 0 (DeepEval's divisor of 1); includeReason: false makes no reason call", async () => {
    const short = new ConversationalTestCase({
      mcpServers: servers,
      turns: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
      ],
    });
    const metric = new MCPTaskCompletionMetric({ model: testJudge(server), includeReason: false });
    expect(await metric.aMeasure(short)).toBe(0);
    expect(metric.success).toBe(false);
    expect(server.requestsTo("chat")).toHaveLength(0);
  });

  it("empty or missing mcpServers: DeepEval's message naming the class, no call", async () => {
    for (const testCase of [chat({}), chat({ mcpServers: [] })]) {
      const metric = new MCPTaskCompletionMetric({ model: testJudge(server) });
      await expect(metric.aMeasure(testCase)).rejects.toThrow(MissingTestCaseParamsError);
      expect(metric.error).toBe("'mcp_servers' in a conversational test case cannot be empty for the 'MCPTaskCompletionMetric' metric.");
    }
    expect(server.requestsTo("chat")).toHaveLength(0);
  });
});

describe("MultiTurnMCPUseMetric", () => {
  it("score = min(mean primitive score, mean argument score) over the tasks; strict mode binarises", async () => {
    server.handle("chat", (request) => {
      const prompt = promptOf(request);
      if (schemaOf(request) === "reason") return chatJson({ reason: "The score is 0.5 because arguments were off." });
      const first = prompt.includes("Weather in Paris?");
      // primitives: 1 and 0.8 (mean 0.9); arguments: 0.6 and 0.4 (mean 0.5)
      if (schemaOf(request) === "mcp_primitives_score") return chatJson({ score: first ? 1 : 0.8, reason: "p" });
      return chatJson({ score: first ? 0.6 : 0.4, reason: "a" });
    });
    const metric = new MultiTurnMCPUseMetric({ model: testJudge(server) });
    expect(await metric.aMeasure(chat())).toBe(0.5);
    expect(metric.reason).toBe("The score is 0.5 because arguments were off.");
    expect(server.requestsTo("chat").map(schemaOf).sort()).toEqual([
      "mcp_args_score",
      "mcp_args_score",
      "mcp_primitives_score",
      "mcp_primitives_score",
      "reason",
    ]);
    const strict = new MultiTurnMCPUseMetric({ model: testJudge(server), strictMode: true });
    expect(await strict.aMeasure(chat())).toBe(0);
  });

  it("a malformed score is re-asked once, then accepted", async () => {
    server.enqueue(
      "chat",
      chatJson({ score: "high", reason: "p" }),
      chatJson({ score: 1, reason: "p" }),
      chatJson({ score: 1, reason: "p" }),
      chatJson({ score: 1, reason: "a" }),
      chatJson({ score: 1, reason: "a" }),
    );
    const metric = new MultiTurnMCPUseMetric({ model: testJudge(server), includeReason: false, asyncMode: false });
    expect(await metric.aMeasure(chat())).toBe(1);
    expect(server.requestsTo("chat")).toHaveLength(5);
    expect(metric.scoringPath).toBe("repaired-and-re-asked");
  });
});
