// DeepEval's MCP test-case fields (deepeval/test_case/mcp.py, llm_test_case.py, conversational_test_case.py):
// MCPServer and the three call types, on LLMTestCase, Turn and ConversationalTestCase, with validation,
// snake_case names and a JSON round trip.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  ConversationalTestCase,
  LLMTestCase,
  LLMTestCaseParams,
  MCPPromptCall,
  MCPResourceCall,
  MCPServer,
  MCPToolCall,
  MissingTestCaseParamsError,
  MultiTurnParams,
  Turn,
  checkLLMTestCaseParams,
} from "../../src/deepeval/index.js";

const forecastTool = {
  name: "forecast",
  description: "Forecast for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
};
const toolResult = { content: [{ type: "text", text: "Sunny, 24°C" }], isError: false };

describe("MCP types", () => {
  it("MCPServer takes DeepEval's fields in either spelling and keeps the listings as given", () => {
    const camel = new MCPServer({ serverName: "weather", transport: "stdio", availableTools: [forecastTool] });
    const snake = new MCPServer({ server_name: "weather", transport: "stdio", available_tools: [forecastTool] });
    expect(snake.toJSON()).toEqual(camel.toJSON());
    expect(camel.availableTools?.[0]).toEqual(forecastTool);
    expect(camel.availableResources).toBeNull();
    expect(new MCPServer({ serverName: "x" }).transport).toBeNull();
  });

  it("refuses what DeepEval refuses, naming the field", () => {
    expect(() => new MCPServer({ serverName: "w", transport: "http" as never })).toThrow(
      /'transport' must be one of "stdio", "sse", "streamable-http"/,
    );
    expect(() => new MCPServer({ serverName: "w", availableTools: forecastTool as never })).toThrow(/'availableTools' must be an array/);
    expect(() => new MCPServer({ serverName: "w", availablePrompts: ["p"] as never })).toThrow(/'availablePrompts\[0\]'/);
    expect(() => new MCPServer({ name: "w" } as never)).toThrow(/unknown field 'name'/);
    expect(() => new MCPToolCall({ name: "f", args: "city=Paris" as never, result: toolResult })).toThrow(InvalidArgumentError);
    expect(() => new MCPToolCall({ name: "f", args: {} } as never)).toThrow(/'result'/);
    expect(() => new MCPResourceCall({ uri: "not a url", result: {} })).toThrow(/'uri' must be a URL with a scheme/);
    expect(new MCPResourceCall({ uri: "file:///docs/readme.md", result: { contents: [] } }).uri).toBe("file:///docs/readme.md");
    expect(() => new MCPPromptCall({ name: 3 as never, result: {} })).toThrow(InvalidArgumentError);
  });
});

describe("MCP fields on test cases", () => {
  const fields = {
    input: "Weather in Paris?",
    actual_output: "Sunny, 24°C.",
    mcp_servers: [{ server_name: "weather", transport: "streamable-http" as const, available_tools: [forecastTool] }],
    mcp_tools_called: [{ name: "forecast", args: { city: "Paris" }, result: toolResult }],
    mcp_resources_called: [{ uri: "weather://cities/paris", result: { contents: [{ uri: "weather://cities/paris", text: "…" }] } }],
    mcp_prompts_called: [{ name: "brief", result: { messages: [] } }],
  };

  it("LLMTestCase accepts mcpServers (no longer an unknown field) and the three call lists", () => {
    const testCase = new LLMTestCase(fields);
    expect(testCase.mcpServers?.[0]).toBeInstanceOf(MCPServer);
    expect(testCase.mcpServers?.[0]?.serverName).toBe("weather");
    expect(testCase.mcpToolsCalled?.[0]?.args).toEqual({ city: "Paris" });
    expect(testCase.mcpResourcesCalled?.[0]?.uri).toBe("weather://cities/paris");
    expect(testCase.mcpPromptsCalled?.[0]?.name).toBe("brief");
    expect(new LLMTestCase({ input: "q" }).mcpServers).toBeNull();
  });

  it("round-trips through JSON (camelCase out, accepted back in) and through with()", () => {
    const testCase = new LLMTestCase(fields);
    const again = new LLMTestCase(JSON.parse(JSON.stringify(testCase)));
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(testCase)));
    expect(again.mcpToolsCalled?.[0]).toBeInstanceOf(MCPToolCall);
    expect(testCase.with({ actualOutput: "Rainy." }).mcpServers?.[0]?.availableTools).toEqual([forecastTool]);
  });

  it("a bad entry names its place in the test case", () => {
    const bad = {
      ...fields,
      mcp_tools_called: [
        { name: "forecast", args: { city: "Paris" }, result: toolResult },
        { name: "x", args: [] },
      ],
    };
    expect(() => new LLMTestCase(bad)).toThrow(/LLMTestCase: 'mcpToolsCalled\[1\]': MCPToolCall: 'args'/);
    const badServer = { input: "q", mcpServers: [{ serverName: "w", transport: "ftp" as never }] };
    expect(() => new LLMTestCase(badServer)).toThrow(/'mcpServers\[0\]'/);
  });

  it("the MCP parameters can be required (DeepEval's LLMTestCaseParams.MCP_*)", () => {
    const metric = { name: "MCP Use", error: null as string | null };
    const testCase = new LLMTestCase(fields);
    const both = [LLMTestCaseParams.MCP_SERVERS, LLMTestCaseParams.MCP_TOOLS_CALLED];
    expect(() => checkLLMTestCaseParams(testCase, both, metric)).not.toThrow();
    expect(() => checkLLMTestCaseParams(new LLMTestCase({ input: "q" }), [LLMTestCaseParams.MCP_SERVERS], metric)).toThrow(
      MissingTestCaseParamsError,
    );
    expect(metric.error).toContain("mcp_servers");
    expect(MultiTurnParams.MCP_TOOLS).toBe("mcp_tools_called");
  });

  it("turns carry the call lists and conversations the servers", () => {
    const turn = new Turn({ role: "assistant", content: "Sunny.", mcp_tools_called: fields.mcp_tools_called });
    expect(turn.mcpInteraction).toBe(true);
    expect(new Turn({ role: "user", content: "Weather?" }).mcpInteraction).toBe(false);
    const conversation = new ConversationalTestCase({
      mcp_servers: fields.mcp_servers,
      turns: [{ role: "user", content: "Weather?" }, turn],
    });
    expect(conversation.mcpServers?.[0]?.transport).toBe("streamable-http");
    const again = new ConversationalTestCase(JSON.parse(JSON.stringify(conversation)));
    expect(again.turns[1]?.mcpToolsCalled?.[0]?.result).toEqual(toolResult);
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(conversation)));
  });
});
