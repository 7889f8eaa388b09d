// DeepEval's MCP fields through the runner: test cases given as parsed JSON (DeepEval's snake_case names)
// carry `mcp_servers` and the MCP calls into EvaluationDataset and evaluate, and MCPUseMetric scores them
// against the judge package's scripted server on loopback.
import { MCPUseMetric, OpenAICompatibleJudge } from "@evalkern/judge";
import { ToolPermissionMetric } from "@evalkern/metrics/deepeval";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatJson, startServer, type ScriptedServer } from "../../judge/test/support/server.js";
import { EvaluationDataset, evaluate } from "../src/index.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => server.reset());

const row = JSON.stringify({
  input: "Weather in Paris?",
  actual_output: "Sunny, 24°C.",
  tools_called: [{ name: "forecast" }],
  mcp_servers: [{ server_name: "weather", transport: "stdio", available_tools: [{ name: "forecast", inputSchema: { type: "object" } }] }],
  mcp_tools_called: [{ name: "forecast", args: { city: "Paris" }, result: { content: [{ type: "text", text: "Sunny" }] } }],
});

describe("MCP test cases in the runner", () => {
  it("EvaluationDataset keeps the MCP fields of JSON test cases, and they survive JSON again", () => {
    const dataset = new EvaluationDataset({ testCases: [JSON.parse(row)] });
    const [testCase] = dataset.testCases as never as [{ mcpServers: { serverName: string }[]; mcpToolsCalled: { args: unknown }[] }];
    expect(testCase.mcpServers[0]!.serverName).toBe("weather");
    expect(testCase.mcpToolsCalled[0]!.args).toEqual({ city: "Paris" });
    const again = new EvaluationDataset({ testCases: JSON.parse(JSON.stringify(dataset.testCases)) });
    expect(JSON.stringify(again.testCases)).toBe(JSON.stringify(dataset.testCases));
  });

  it("evaluate scores JSON test cases with MCPUseMetric (min of the two scores) and a rule metric", async () => {
    server.enqueue("chat", chatJson({ score: 1, reason: "right tool" }), chatJson({ score: 0.7, reason: "city only" }));
    const judge = new OpenAICompatibleJudge({ baseURL: server.baseURL, apiKey: "k", model: "test-judge", env: {}, timeoutMs: 10_000 });
    const metrics0 = [new MCPUseMetric({ model: judge }), new ToolPermissionMetric({ allowedTools: ["forecast"] })];
    const result = await evaluate([JSON.parse(row)], metrics0);
    const metrics = result.testResults[0]!.metricsData;
    expect(metrics.map((m) => [m.name, m.score])).toEqual([
      ["MCP Use", 0.7],
      ["Tool Permission", 1],
    ]);
    expect(result.testResults[0]!.success).toBe(true);
  });
});
