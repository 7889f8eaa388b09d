import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  ConversationalGolden,
  ConversationalTestCase,
  Golden,
  JsonCorrectnessMetric,
  LLMTestCase,
  ToolCall,
} from "../../src/deepeval/index.js";

describe("DeepEval snake_case fields", () => {
  it("builds the same LLMTestCase from snake_case and camelCase", () => {
    const snake = LLMTestCase.from({
      input: "q",
      actual_output: "a",
      expected_output: "e",
      retrieval_context: ["r1", { context: "r2", source: "doc" }],
      context: ["c"],
      tools_called: [{ name: "search", input_parameters: { q: 1 } }],
      expected_tools: [{ name: "search" }],
      additional_metadata: { k: 1 },
      token_cost: 0.5,
      completion_time: 2,
    });
    const camel = new LLMTestCase({
      input: "q",
      actualOutput: "a",
      expectedOutput: "e",
      retrievalContext: ["r1", { context: "r2", source: "doc" }],
      context: ["c"],
      toolsCalled: [{ name: "search", inputParameters: { q: 1 } }],
      expectedTools: [{ name: "search" }],
      metadata: { k: 1 },
      tokenCost: 0.5,
      completionTime: 2,
    });
    expect(JSON.parse(JSON.stringify(snake))).toEqual(JSON.parse(JSON.stringify(camel)));
    expect(snake.toolsCalled?.[0]?.equals(new ToolCall({ name: "search", inputParameters: { q: 1 } }))).toBe(true);
  });

  it("refuses both spellings of one field", () => {
    expect(() => new LLMTestCase({ input: "q", actual_output: "a", actualOutput: "b" } as never)).toThrow(
      /'actual_output' and 'actualOutput' are the same field/,
    );
  });

  it("maps conversational test cases and their turns", () => {
    const conversation = ConversationalTestCase.from({
      chatbot_role: "a concierge",
      expected_outcome: "booked",
      user_description: "a tourist",
      turns: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello", retrieval_context: ["x"], tools_called: [{ name: "t" }] },
      ],
    });
    expect(conversation.chatbotRole).toBe("a concierge");
    expect(conversation.expectedOutcome).toBe("booked");
    expect(conversation.userDescription).toBe("a tourist");
    expect(conversation.turns[1]?.retrievalContext).toEqual(["x"]);
    expect(conversation.turns[1]?.toolsCalled?.[0]?.name).toBe("t");
  });

  it("builds goldens and turns them into test cases", () => {
    const golden = Golden.from({ input: "2+2?", expected_output: "4", custom_column_key_values: { topic: "math" } });
    expect(golden.expectedOutput).toBe("4");
    expect(golden.customColumnKeyValues).toEqual({ topic: "math" });
    const testCase = golden.toTestCase({ actualOutput: "4" });
    expect(testCase.actualOutput).toBe("4");
    expect(testCase.expectedOutput).toBe("4");
    expect(() => Golden.from({ expected_output: "4" } as never)).toThrow(InvalidArgumentError);

    const conversational = ConversationalGolden.from({ scenario: "refund", expected_outcome: "refunded" });
    const played = conversational.toTestCase([{ role: "user", content: "refund please" }]);
    expect(played.scenario).toBe("refund");
    expect(played.expectedOutcome).toBe("refunded");
  });
});

describe("JsonCorrectnessMetric", () => {
  const expectedSchema = {
    type: "object",
    properties: { name: { type: "string" }, age: { type: "integer" } },
    required: ["name"],
  };

  it("scores 1 for valid JSON of the schema and 0 otherwise, with a reason", () => {
    const metric = new JsonCorrectnessMetric({ expectedSchema });
    expect(metric.threshold).toBe(0.5);
    expect(metric.measure(new LLMTestCase({ input: "q", actualOutput: '{"name": "Ada", "age": 36}' }))).toBe(1);
    expect(metric.success).toBe(true);

    expect(metric.measure(new LLMTestCase({ input: "q", actualOutput: '{"age": "x"}' }))).toBe(0);
    expect(metric.success).toBe(false);
    expect(metric.reason).toContain("must have required property 'name'");
    expect(metric.reason).toContain("'/age' must be integer");

    expect(metric.measure(new LLMTestCase({ input: "q", actualOutput: '{"name": ' }))).toBe(0);
    expect(metric.reason).toMatch(/not valid JSON/);
  });

  it("needs actual_output, and strict mode moves the threshold to 1", () => {
    const metric = new JsonCorrectnessMetric({ expectedSchema, strictMode: true });
    expect(metric.threshold).toBe(1);
    expect(() => metric.measure(new LLMTestCase({ input: "q" }))).toThrow(/'actual_output' cannot be None/);
    expect(() => new JsonCorrectnessMetric({ expectedSchema: 3 } as never)).toThrow(InvalidArgumentError);
  });
});
