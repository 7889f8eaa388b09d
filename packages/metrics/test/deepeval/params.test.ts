import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  ArenaTestCase,
  ConversationalTestCase,
  LLMTestCase,
  LLMTestCaseParams,
  MissingTestCaseParamsError,
  MultiTurnParams,
  SingleTurnParams,
  TurnParams,
  checkArenaTestCaseParams,
  checkConversationalTestCaseParams,
  checkLLMTestCaseParams,
  type ParamCheckTarget,
} from "../../src/deepeval/index.js";

const target = (): ParamCheckTarget => ({ name: "Answer Relevancy", error: null });

function missing(run: () => void): MissingTestCaseParamsError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(MissingTestCaseParamsError);
    return error as MissingTestCaseParamsError;
  }
  throw new Error("expected a MissingTestCaseParamsError");
}

describe("checkLLMTestCaseParams", () => {
  const P = LLMTestCaseParams;

  it("passes when every required field is present; empty lists count as present", () => {
    const metric = target();
    const testCase = new LLMTestCase({ input: "q", actualOutput: "a", retrievalContext: [], toolsCalled: [] });
    checkLLMTestCaseParams(testCase, [P.INPUT, P.ACTUAL_OUTPUT, P.RETRIEVAL_CONTEXT, P.TOOLS_CALLED], metric);
    expect(metric.error).toBeNull();
  });

  it("lists one, two and three missing params as DeepEval does", () => {
    const testCase = new LLMTestCase({ input: "q" });
    const one = target();
    expect(missing(() => checkLLMTestCaseParams(testCase, [P.INPUT, P.ACTUAL_OUTPUT], one)).message).toBe(
      "'actual_output' cannot be None for the 'Answer Relevancy' metric",
    );
    expect(one.error).toBe("'actual_output' cannot be None for the 'Answer Relevancy' metric");

    const two = missing(() => checkLLMTestCaseParams(testCase, [P.ACTUAL_OUTPUT, P.RETRIEVAL_CONTEXT], target()));
    expect(two.message).toBe("'actual_output' and 'retrieval_context' cannot be None for the 'Answer Relevancy' metric");
    expect(two.params).toEqual(["actual_output", "retrieval_context"]);

    expect(
      missing(() => checkLLMTestCaseParams(testCase, [P.ACTUAL_OUTPUT, P.EXPECTED_OUTPUT, P.CONTEXT, P.TOOLS_CALLED], target())).message,
    ).toBe("'actual_output', 'expected_output', 'context', and 'tools_called' cannot be None for the 'Answer Relevancy' metric");
  });

  it("keeps the order of the required list", () => {
    const testCase = new LLMTestCase({ input: "q" });
    expect(missing(() => checkLLMTestCaseParams(testCase, [P.EXPECTED_TOOLS, P.TOOLS_CALLED], target())).message).toBe(
      "'expected_tools' and 'tools_called' cannot be None for the 'Answer Relevancy' metric",
    );
  });

  it("rejects an empty actual_output first, when it is required", () => {
    const testCase = new LLMTestCase({ input: "q", actualOutput: "" });
    const metric = target();
    const error = missing(() => checkLLMTestCaseParams(testCase, [P.ACTUAL_OUTPUT, P.EXPECTED_OUTPUT], metric));
    expect(error.message).toBe("'actual_output' cannot be empty for the 'Answer Relevancy' metric");
    expect(metric.error).toBe(error.message);
    // Not required: an empty actual output is fine.
    checkLLMTestCaseParams(testCase, [P.INPUT], target());
  });

  it("rejects a test case of another type (DeepEval's ValueError)", () => {
    const metric = target();
    const conversation = new ConversationalTestCase({ turns: [{ role: "user", content: "hi" }] });
    expect(() => checkLLMTestCaseParams(conversation, [P.INPUT], metric)).toThrow(InvalidArgumentError);
    expect(metric.error).toBe(
      "Unable to evaluate test cases that are not of type 'LLMTestCase' using the non-conversational 'Answer Relevancy' metric.",
    );
    expect(() => checkLLMTestCaseParams({ input: "q" }, [P.INPUT], target())).toThrow(/not of type 'LLMTestCase'/);
  });

  it("rejects unknown parameter names", () => {
    expect(() => checkLLMTestCaseParams(new LLMTestCase({ input: "q" }), ["actualOutput" as never], target())).toThrow(
      InvalidArgumentError,
    );
  });

  it("exports DeepEval's old and new enum names", () => {
    expect(SingleTurnParams).toBe(LLMTestCaseParams);
    expect(TurnParams).toBe(MultiTurnParams);
    expect(LLMTestCaseParams.RETRIEVAL_CONTEXT).toBe("retrieval_context");
  });
});

describe("checkConversationalTestCaseParams", () => {
  const conversation = (extra = {}) => new ConversationalTestCase({ turns: [{ role: "user", content: "hi" }], ...extra });

  it("checks each listed conversation-level field with its own message, in DeepEval's order", () => {
    const params = [MultiTurnParams.SCENARIO, MultiTurnParams.EXPECTED_OUTCOME, MultiTurnParams.TAGS];
    const metric = target();
    expect(missing(() => checkConversationalTestCaseParams(conversation(), params, metric)).message).toBe(
      "'expected_outcome' in a conversational test case cannot be empty for the 'Answer Relevancy' metric.",
    );
    expect(metric.error).toMatch(/^'expected_outcome'/);
    expect(missing(() => checkConversationalTestCaseParams(conversation({ expectedOutcome: "x" }), params, target())).message).toBe(
      "'scenario' in a conversational test case cannot be empty for the 'Answer Relevancy' metric.",
    );
    expect(
      missing(() => checkConversationalTestCaseParams(conversation({ expectedOutcome: "x", scenario: "s" }), params, target())).params,
    ).toEqual(["tags"]);
    checkConversationalTestCaseParams(conversation({ expectedOutcome: "x", scenario: "s", tags: [] }), params, target());
  });

  it("requires chatbot_role when the metric asks for it", () => {
    expect(missing(() => checkConversationalTestCaseParams(conversation(), [], target(), true)).message).toBe(
      "'chatbot_role' in a conversational test case cannot be empty for the 'Answer Relevancy' metric.",
    );
    checkConversationalTestCaseParams(conversation({ chatbotRole: "helper" }), [], target(), true);
  });

  it("does not check turn-level params (DeepEval leaves them to the metric)", () => {
    checkConversationalTestCaseParams(conversation(), [MultiTurnParams.ROLE, MultiTurnParams.RETRIEVAL_CONTEXT], target());
  });

  it("rejects a single-turn test case", () => {
    expect(() => checkConversationalTestCaseParams(new LLMTestCase({ input: "q" }), [], target())).toThrow(
      "Unable to evaluate test cases that are not of type 'ConversationalTestCase' using the conversational 'Answer Relevancy' metric.",
    );
  });
});

describe("checkArenaTestCaseParams", () => {
  it("checks every contestant", () => {
    const arena = new ArenaTestCase({
      contestants: [
        { name: "a", testCase: { input: "q", actualOutput: "x" } },
        { name: "b", testCase: { input: "q", actualOutput: "" } },
      ],
    });
    expect(missing(() => checkArenaTestCaseParams(arena, [LLMTestCaseParams.ACTUAL_OUTPUT], target())).message).toBe(
      "'actual_output' cannot be empty for the 'Answer Relevancy' metric",
    );
    checkArenaTestCaseParams(arena, [LLMTestCaseParams.INPUT], target());
  });

  it("rejects anything else", () => {
    expect(() => checkArenaTestCaseParams(new LLMTestCase({ input: "q" }), [], target())).toThrow(
      "Expected ArenaTestCase, got LLMTestCase",
    );
  });
});
