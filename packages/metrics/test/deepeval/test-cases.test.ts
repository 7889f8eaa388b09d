import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  ArenaTestCase,
  ConversationalTestCase,
  LLMTestCase,
  ToolCall,
  ToolCallType,
  Turn,
  pyEquals,
  pyFloatRepr,
  pyRepr,
  retrievalContextText,
} from "../../src/deepeval/index.js";

/** The InvalidArgumentError thrown by `build`, for inspecting its context. */
function invalid(build: () => unknown): InvalidArgumentError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error("expected an InvalidArgumentError");
}

describe("LLMTestCase", () => {
  it("keeps the given fields and sets absent ones to null", () => {
    const testCase = new LLMTestCase({ input: "q", actualOutput: "a", tags: ["x"] });
    expect(testCase.input).toBe("q");
    expect(testCase.actualOutput).toBe("a");
    expect(testCase.expectedOutput).toBeNull();
    expect(testCase.context).toBeNull();
    expect(testCase.retrievalContext).toBeNull();
    expect(testCase.toolsCalled).toBeNull();
    expect(testCase.tokenCost).toBeNull();
    expect(testCase.multimodal).toBe(false);
    expect(testCase.tags).toEqual(["x"]);
  });

  it("builds ToolCalls from plain fields and keeps ToolCall instances", () => {
    const call = new ToolCall({ name: "a" });
    const testCase = new LLMTestCase({ input: "q", toolsCalled: [call, { name: "b", inputParameters: { x: 1 } }] });
    expect(testCase.toolsCalled?.[0]).toBe(call);
    expect(testCase.toolsCalled?.[1]).toBeInstanceOf(ToolCall);
    expect(testCase.toolsCalled?.[1]?.inputParameters).toEqual({ x: 1 });
  });

  it("accepts structured retrieval entries and renders them as DeepEval serialises them", () => {
    const testCase = new LLMTestCase({ input: "q", retrievalContext: ["plain", { context: "text", source: "doc.pdf" }] });
    expect(testCase.retrievalContext?.map(retrievalContextText)).toEqual(["plain", "doc.pdf: text"]);
  });

  it("accepts additionalMetadata as DeepEval's alias of metadata, but not both", () => {
    const testCase = new LLMTestCase({ input: "q", additionalMetadata: { k: 1 } });
    expect(testCase.metadata).toEqual({ k: 1 });
    expect(testCase.additionalMetadata).toEqual({ k: 1 });
    expect(() => new LLMTestCase({ input: "q", metadata: {}, additionalMetadata: {} })).toThrow(/not both/);
  });

  it("is frozen and offers a modified copy", () => {
    const testCase = new LLMTestCase({ input: "q" });
    expect(Reflect.set(testCase, "input", "other")).toBe(false);
    const changed = testCase.with({ actualOutput: "a" });
    expect(changed.actualOutput).toBe("a");
    expect(testCase.actualOutput).toBeNull();
  });

  it("rejects wrong shapes with typed errors naming the field", () => {
    expect(invalid(() => new LLMTestCase({} as never)).argument).toBe("input");
    expect(invalid(() => new LLMTestCase({ input: 3 } as never)).message).toBe("LLMTestCase: 'input' must be a string, got number 3");
    const context = invalid(() => new LLMTestCase({ input: "q", context: ["a", 2] } as never));
    expect(context.argument).toBe("context");
    expect(context.index).toBe(1);
    expect(invalid(() => new LLMTestCase({ input: "q", context: "a" } as never)).expected).toBe("an array of strings or null");
    expect(invalid(() => new LLMTestCase({ input: "q", retrievalContext: [{ context: "x" }] } as never)).argument).toBe("retrievalContext");
    expect(invalid(() => new LLMTestCase({ input: "q", tokenCost: Number.NaN })).argument).toBe("tokenCost");
    expect(invalid(() => new LLMTestCase({ input: "q", multimodal: "no" } as never)).argument).toBe("multimodal");
    expect(invalid(() => new LLMTestCase({ input: "q", metadata: [] } as never)).argument).toBe("metadata");
    expect(invalid(() => new LLMTestCase(null as never)).argument).toBe("init");
  });

  it("names the bad tool call inside a list", () => {
    const error = invalid(() => new LLMTestCase({ input: "q", toolsCalled: [{ name: "a" }, { name: 7 }] } as never));
    expect(error.argument).toBe("toolsCalled[1].name");
    expect(error.index).toBe(1);
    expect(error.message).toBe("LLMTestCase: 'toolsCalled[1]': ToolCall: 'name' must be a string, got number 7");
    expect(invalid(() => new LLMTestCase({ input: "q", expectedTools: "a" } as never)).argument).toBe("expectedTools");
    expect(invalid(() => new LLMTestCase({ input: "q", expectedTools: ["a"] } as never)).argument).toBe("expectedTools");
  });

  it("rejects unknown fields (a misspelt snake_case name is still unknown)", () => {
    const error = invalid(() => new LLMTestCase({ input: "q", actual_outptu: "a" } as never));
    expect(error.argument).toBe("actualOutptu");
    expect(error.message).toMatch(/^LLMTestCase: unknown field 'actualOutptu'/);
  });
});

describe("ToolCall", () => {
  it("defaults type to FUNCTION and absent fields to null", () => {
    const call = new ToolCall({ name: "search" });
    expect(call.type).toBe(ToolCallType.FUNCTION);
    expect(call.description).toBeNull();
    expect(call.output).toBeNull();
    expect(call.inputParameters).toBeNull();
  });

  it("equality uses name, input parameters and output only (DeepEval __eq__)", () => {
    const base = new ToolCall({ name: "s", inputParameters: { q: "x", n: 1 }, output: [1, 2] });
    const same = new ToolCall({
      name: "s",
      type: "MCP",
      description: "other",
      reasoning: "why",
      inputParameters: { n: 1.0, q: "x" },
      output: [1, 2],
    });
    expect(base.equals(same)).toBe(true);
    expect(base.hashKey()).toBe(same.hashKey());
    expect(base.equals(new ToolCall({ name: "s", inputParameters: { q: "x", n: 2 }, output: [1, 2] }))).toBe(false);
    expect(base.equals(new ToolCall({ name: "S", inputParameters: { q: "x", n: 1 }, output: [1, 2] }))).toBe(false);
    expect(base.equals(new ToolCall({ name: "s", inputParameters: { q: "x", n: 1 }, output: [2, 1] }))).toBe(false);
    expect(base.equals({ name: "s", inputParameters: { q: "x", n: 1 }, output: [1, 2] })).toBe(false);
  });

  it("compares values as Python does: True == 1, None == missing", () => {
    expect(new ToolCall({ name: "a", output: true }).equals(new ToolCall({ name: "a", output: 1 }))).toBe(true);
    expect(new ToolCall({ name: "a", output: null }).equals(new ToolCall({ name: "a" }))).toBe(true);
    expect(new ToolCall({ name: "a", inputParameters: null }).equals(new ToolCall({ name: "a", inputParameters: {} }))).toBe(false);
    expect(pyEquals({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toBe(true);
    expect(pyEquals(Number.NaN, Number.NaN)).toBe(false);
    expect(pyEquals("1", 1)).toBe(false);
  });

  it("accepts input_parameters as DeepEval's alias", () => {
    expect(new ToolCall({ name: "a", input_parameters: { x: 1 } }).inputParameters).toEqual({ x: 1 });
    expect(() => new ToolCall({ name: "a", inputParameters: {}, input_parameters: {} })).toThrow(InvalidArgumentError);
  });

  it("rejects wrong shapes", () => {
    expect(invalid(() => new ToolCall({ name: "a", type: "function" } as never)).argument).toBe("type");
    expect(invalid(() => new ToolCall({ name: "a", inputParameters: [1] } as never)).argument).toBe("inputParameters");
    expect(invalid(() => new ToolCall({ name: "a", description: 3 } as never)).argument).toBe("description");
  });

  it("prints as DeepEval's repr", () => {
    const call = new ToolCall({
      name: "search",
      description: "Web search",
      inputParameters: { query: "x", n: 2 },
      output: "it's",
    });
    expect(String(call)).toBe(
      [
        "ToolCall(",
        '    name="search",',
        '    description="Web search",',
        "    input_parameters={",
        '        "query": "x",',
        '        "n": 2',
        "    },",
        '    output="it\'s"',
        ")",
      ].join("\n"),
    );
    expect(String(new ToolCall({ name: "a", output: { ok: true } }))).toBe(
      'ToolCall(\n    name="a",\n    output={\n        "ok": true\n    }\n)',
    );
  });
});

describe("Python repr helpers", () => {
  it("reprs strings, lists and floats as CPython", () => {
    expect(pyRepr(["a", "b'c", 'd"e', "x'y\"z"])).toBe(`['a', "b'c", 'd"e', 'x\\'y"z']`);
    expect(pyRepr([null, true, 3, 0.5, { k: "v" }])).toBe("[None, True, 3, 0.5, {'k': 'v'}]");
    expect(pyRepr("tab\tnew\nline\u0001")).toBe("'tab\\tnew\\nline\\x01'");
    expect(pyFloatRepr(1)).toBe("1.0");
    expect(pyFloatRepr(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(pyFloatRepr(1e-5)).toBe("1e-05");
    expect(pyFloatRepr(1.5e16)).toBe("1.5e+16");
    expect(pyFloatRepr(0.0001)).toBe("0.0001");
  });
});

describe("ConversationalTestCase and Turn", () => {
  it("builds turns from plain fields", () => {
    const conversation = new ConversationalTestCase({
      turns: [
        { role: "user", content: "Hi", metadata: { lang: "en" } },
        new Turn({ role: "assistant", content: "Hello", toolsCalled: [{ name: "greet" }] }),
      ],
      chatbotRole: "concierge",
      expectedOutcome: "a booking",
    });
    expect(conversation.turns).toHaveLength(2);
    expect(conversation.turns[0]).toBeInstanceOf(Turn);
    expect(conversation.turns[1]?.toolsCalled?.[0]?.name).toBe("greet");
    expect(conversation.scenario).toBeNull();
    expect(conversation.chatbotRole).toBe("concierge");
  });

  it("rejects empty turns (DeepEval raises TypeError)", () => {
    expect(invalid(() => new ConversationalTestCase({ turns: [] })).message).toBe("ConversationalTestCase: 'turns' must not be empty");
    expect(invalid(() => new ConversationalTestCase({} as never)).argument).toBe("turns");
  });

  it("names the bad turn", () => {
    const role = invalid(
      () =>
        new ConversationalTestCase({
          turns: [
            { role: "user", content: "a" },
            { role: "bot", content: "b" },
          ],
        } as never),
    );
    expect(role.argument).toBe("turns[1].role");
    expect(role.index).toBe(1);
    expect(invalid(() => new ConversationalTestCase({ turns: ["hi"] } as never)).index).toBe(0);
    expect(invalid(() => new Turn({ role: "user", content: null } as never)).argument).toBe("content");
  });
});

describe("ArenaTestCase", () => {
  const contestant = (name: string, input = "q", expectedOutput?: string) => ({
    name,
    testCase: { input, actualOutput: `${name} says`, ...(expectedOutput ? { expectedOutput } : {}) },
  });

  it("builds contestants' test cases", () => {
    const arena = new ArenaTestCase({ contestants: [contestant("a"), { ...contestant("b"), hyperparameters: { t: 0.2 } }] });
    expect(arena.contestants[0]?.testCase).toBeInstanceOf(LLMTestCase);
    expect(arena.contestants[1]?.hyperparameters).toEqual({ t: 0.2 });
  });

  it("rejects duplicate names and differing input or expected output, with DeepEval's messages", () => {
    expect(() => new ArenaTestCase({ contestants: [contestant("a"), contestant("a")] })).toThrow("All contestant names must be unique.");
    expect(() => new ArenaTestCase({ contestants: [contestant("a"), contestant("b", "other")] })).toThrow(
      "All contestants must have the same 'input'.",
    );
    expect(() => new ArenaTestCase({ contestants: [contestant("a", "q", "x"), contestant("b", "q", "y")] })).toThrow(
      "All contestants must have the same 'expected_output'.",
    );
    expect(() => new ArenaTestCase({ contestants: [] })).toThrow(InvalidArgumentError);
  });
});
