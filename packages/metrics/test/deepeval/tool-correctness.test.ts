// ToolCorrectnessMetric on hand-computed cases. Expected numbers are worked out in the comments from
// DeepEval's formulas (deepeval/metrics/tool_correctness/tool_correctness.py).
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  InvalidEvaluationError,
  LLMTestCase,
  MissingTestCaseParamsError,
  NO_AVAILABLE_TOOLS_REASON,
  SyncMeasureUnsupportedError,
  ToolCall,
  ToolCallParams,
  ToolCorrectnessMetric,
  compareInputParameters,
  scoreToolCalling,
  type ToolCallInit,
  type ToolCorrectnessOptions,
  type ToolSelectionRequest,
  type ToolSelectionResult,
} from "../../src/deepeval/index.js";
import { capturePrinter } from "./fixtures.js";

const tool = (name: string, rest: Omit<ToolCallInit, "name"> = {}): ToolCallInit => ({ name, ...rest });
const names = (...list: string[]) => list.map((name) => tool(name));

function testCase(expectedTools: ToolCallInit[] | null, toolsCalled: ToolCallInit[] | null, extra = {}) {
  return new LLMTestCase({ input: "Plan my trip", expectedTools, toolsCalled, ...extra });
}

/** Measure both ways and check they agree; return the metric measured synchronously. */
async function measureBoth(options: ToolCorrectnessOptions, tc: LLMTestCase): Promise<ToolCorrectnessMetric> {
  const sync = new ToolCorrectnessMetric(options);
  sync.measure(tc);
  const asyncMetric = new ToolCorrectnessMetric(options);
  await asyncMetric.aMeasure(tc);
  expect(asyncMetric.toMetricData()).toEqual(sync.toMetricData());
  return sync;
}

const wrap = (callingReason: string) =>
  `[\n\t Tool Calling Reason: ${callingReason}\n\t Tool Selection Reason: ${NO_AVAILABLE_TOOLS_REASON}\n]\n`;

describe("default mode (unordered, recall over expected tools)", () => {
  it("half of the expected tools called: 1/2", async () => {
    const metric = await measureBoth({}, testCase(names("a", "b"), names("a")));
    expect(metric.score).toBe(0.5);
    expect(metric.success).toBe(true); // 0.5 >= 0.5
    expect(metric.reason).toBe(
      wrap(
        "Incomplete tool usage: missing tools [ToolCall(\n    name=\"b\"\n)]; expected ['a', 'b'], called ['a']. See more details above.",
      ),
    );
  });

  it("extra calls are not penalised", async () => {
    const metric = await measureBoth({}, testCase(names("a"), names("c", "a", "b")));
    expect(metric.score).toBe(1);
    expect(metric.reason).toBe(wrap("All expected tools ['a'] were called (order not considered)."));
  });

  it("a call matches one expected tool; identical calls count once (DeepEval's set of matched calls)", () => {
    // Expected [s, s], called [s, s] with identical calls: the second expected tool finds both calls
    // "already matched" (they are equal), so 1/2.
    expect(scoreToolCalling(names("s", "s"), names("s", "s")).score).toBe(0.5);
    // Distinct inputs make the calls unequal: 2/2.
    const distinct = [tool("s", { inputParameters: { q: 1 } }), tool("s", { inputParameters: { q: 2 } })];
    expect(scoreToolCalling(names("s", "s"), distinct).score).toBe(1);
    // Expected twice, called once: 1/2.
    expect(scoreToolCalling(names("s", "s"), names("s")).score).toBe(0.5);
  });

  it("matches on type as well as name", () => {
    expect(scoreToolCalling([tool("a", { type: "MCP" })], names("a")).score).toBe(0);
    expect(scoreToolCalling([tool("a", { type: "MCP" })], [tool("a", { type: "MCP" })]).score).toBe(1);
  });

  it("input parameters: each shared key with equal values adds 1/|all keys|", () => {
    // keys {query, city, units}: query equal (1/3), city differs, units only on one side -> 1/3.
    const expected = [tool("search", { inputParameters: { query: "weather", city: "Paris" } })];
    const called = [tool("search", { inputParameters: { query: "weather", city: "London", units: "C" } })];
    const params = { evaluationParams: [ToolCallParams.INPUT_PARAMETERS] };
    expect(scoreToolCalling(expected, called, params).score).toBe(1 / 3);
    // Without INPUT_PARAMETERS only names count.
    expect(scoreToolCalling(expected, called).score).toBe(1);
  });

  it("input parameters: nested dicts score recursively", () => {
    // keys {filter, q}: q equal -> 1/2; filter: keys {a, b}, a equal -> 1/2, divided by 2 -> 1/4. Total 3/4.
    expect(compareInputParameters({ filter: { a: 1, b: 2 }, q: "x" }, { filter: { a: 1, b: 3 }, q: "x" })).toBe(0.75);
    // Equal dicts (Python ==, key order and 1 == 1.0 ignored) score 1; exact mode gives 0 for any difference.
    expect(compareInputParameters({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1.0 })).toBe(1);
    expect(compareInputParameters({ a: 1, b: 2 }, { a: 1, b: 3 }, true)).toBe(0);
    // null is treated as {} (DeepEval crashes on it).
    expect(compareInputParameters(null, {})).toBe(1);
    expect(compareInputParameters(null, { a: 1 })).toBe(0);
  });

  it("input parameters: the best-weighted unmatched call wins", () => {
    // Expected search{q:x, n:1}; calls search{q:y, n:1} (1/2) and search{q:x, n:1} (1): best 1.
    const expected = [tool("search", { inputParameters: { q: "x", n: 1 } })];
    const called = [tool("search", { inputParameters: { q: "y", n: 1 } }), tool("search", { inputParameters: { q: "x", n: 1 } })];
    expect(scoreToolCalling(expected, called, { evaluationParams: ["input_parameters"] }).score).toBe(1);
  });

  it("output: a different output zeroes the match", async () => {
    const tc = testCase([tool("weather", { output: "sunny" })], [tool("weather", { output: "rainy" })]);
    const metric = await measureBoth({ evaluationParams: [ToolCallParams.OUTPUT] }, tc);
    expect(metric.score).toBe(0);
    expect(metric.success).toBe(false);
    expect(
      scoreToolCalling([tool("w", { output: { t: 1 } })], [tool("w", { output: { t: 1.0 } })], { evaluationParams: ["output"] }).score,
    ).toBe(1);
  });

  it("the 'missing' list uses full ToolCall equality, whatever the evaluation params", () => {
    // Names match (score 1 without params), so the reason is the success text.
    const expected = [tool("a", { inputParameters: { x: 1 } })];
    expect(scoreToolCalling(expected, names("a")).reason).toBe("All expected tools ['a'] were called (order not considered).");
    // With params the score drops to 0 and the unequal expected call is listed with its inputs.
    expect(scoreToolCalling(expected, names("a"), { evaluationParams: ["input_parameters"] }).reason).toBe(
      'Incomplete tool usage: missing tools [ToolCall(\n    name="a",\n    input_parameters={\n        "x": 1\n    }\n)]' +
        "; expected ['a'], called ['a']. See more details above.",
    );
  });
});

describe("ordering (weighted LCS)", () => {
  it("[a, b, c] vs [b, a, c]: LCS a, c -> 2/3", async () => {
    const metric = await measureBoth({ shouldConsiderOrdering: true }, testCase(names("a", "b", "c"), names("b", "a", "c")));
    expect(metric.score).toBe(2 / 3);
    expect(metric.success).toBe(true);
    expect(metric.reason).toBe(
      wrap("Incorrect tool usage: out-of-order tools ['b']; expected ['a', 'b', 'c'], called ['b', 'a', 'c']. See more details above."),
    );
  });

  it("reports missing and out-of-order tools together", () => {
    // Expected [a, b, c], called [c, a]: LCS is one tool -> 1/3; b missing; b and one of a/c out of order.
    const result = scoreToolCalling(names("a", "b", "c"), names("c", "a"), { shouldConsiderOrdering: true });
    expect(result.score).toBe(1 / 3);
    expect(result.reason).toBe(
      "Incorrect tool usage: missing tools ['b'] and out-of-order tools ['b', 'c']" +
        "; expected ['a', 'b', 'c'], called ['c', 'a']. See more details above.",
    );
  });

  it("weights each matched pair by its input-parameter similarity", () => {
    // search: keys {q, n}, q equal -> 0.5; fetch: both null -> 1. LCS weight 1.5 over 2 expected -> 0.75.
    // Nothing is missing or out of order, so DeepEval's reason has an empty issue list.
    const expected = [tool("search", { inputParameters: { q: "a", n: 1 } }), tool("fetch")];
    const called = [tool("search", { inputParameters: { q: "a", n: 2 } }), tool("fetch")];
    const result = scoreToolCalling(expected, called, {
      shouldConsiderOrdering: true,
      evaluationParams: [ToolCallParams.INPUT_PARAMETERS],
    });
    expect(result.score).toBe(0.75);
    expect(result.reason).toBe("Incorrect tool usage: ; expected ['search', 'fetch'], called ['search', 'fetch']. See more details above.");
  });

  it("correct order scores 1 with DeepEval's text", () => {
    const result = scoreToolCalling(names("a", "b"), names("a", "x", "b"), { shouldConsiderOrdering: true });
    expect(result).toEqual({
      score: 1,
      reason: "Correct ordering: all expected tools ['a', 'b'] were called in the correct order.",
    });
  });
});

describe("exact match", () => {
  const exact = { shouldExactMatch: true };

  it("same tools in the same order: 1, else 0", async () => {
    const same = await measureBoth(exact, testCase(names("a", "b"), names("a", "b")));
    expect(same.score).toBe(1);
    expect(same.reason).toBe(wrap("Exact match: expected ['a', 'b'], called ['a', 'b']. See details above."));
    const swapped = await measureBoth(exact, testCase(names("a", "b"), names("b", "a")));
    expect(swapped.score).toBe(0);
    expect(swapped.reason).toBe(wrap("Not an exact match: expected ['a', 'b'], called ['b', 'a']. See details above."));
    expect(scoreToolCalling(names("a"), names("a", "a"), exact).score).toBe(0);
  });

  it("compares selected fields whole: any input difference is a miss", () => {
    const expected = [tool("a", { inputParameters: { x: 1, y: 2 } })];
    const called = [tool("a", { inputParameters: { x: 1, y: 3 } })];
    expect(scoreToolCalling(expected, called, { ...exact, evaluationParams: ["input_parameters"] }).score).toBe(0);
    expect(scoreToolCalling(expected, called, exact).score).toBe(1);
  });

  it("takes precedence over ordering", () => {
    expect(scoreToolCalling(names("a", "b"), names("a", "x", "b"), { ...exact, shouldConsiderOrdering: true }).score).toBe(0);
  });
});

describe("empty expected tools", () => {
  for (const [label, options] of [
    ["default", {}],
    ["ordering", { shouldConsiderOrdering: true }],
    ["exact", { shouldExactMatch: true }],
  ] as const) {
    it(`${label}: nothing expected and nothing called scores 1; anything called scores 0`, () => {
      expect(scoreToolCalling([], [], options).score).toBe(1);
      expect(scoreToolCalling([], names("a"), options).score).toBe(0);
    });
  }

  it("keeps DeepEval's texts for the empty cases", () => {
    expect(scoreToolCalling([], []).reason).toBe("All expected tools [] were called (order not considered).");
    expect(scoreToolCalling([], names("a")).reason).toBe(
      "Incomplete tool usage: missing tools []; expected [], called ['a']. See more details above.",
    );
    expect(scoreToolCalling([], [], { shouldConsiderOrdering: true }).reason).toBe(
      "Correct ordering: all expected tools [] were called in the correct order.",
    );
  });

  it("an empty expected list is present, not missing", async () => {
    const metric = await measureBoth({}, testCase([], []));
    expect(metric.score).toBe(1);
  });
});

describe("the metric", () => {
  it("requires input, tools_called and expected_tools, with DeepEval's message", () => {
    const metric = new ToolCorrectnessMetric();
    expect(() => metric.measure(testCase(names("a"), null))).toThrow(MissingTestCaseParamsError);
    expect(metric.error).toBe("'tools_called' cannot be None for the 'Tool Correctness' metric");
    expect(() => metric.measure(testCase(null, null))).toThrow(
      "'tools_called' and 'expected_tools' cannot be None for the 'Tool Correctness' metric",
    );
  });

  it("strict mode: threshold 1, anything short of perfect scores 0", async () => {
    const half = await measureBoth({ strictMode: true, threshold: 0.2 }, testCase(names("a", "b"), names("a")));
    expect(half.threshold).toBe(1);
    expect(half.score).toBe(0);
    expect(half.success).toBe(false);
    const perfect = await measureBoth({ strictMode: true }, testCase(names("a", "b"), names("b", "a")));
    expect(perfect.score).toBe(1);
    expect(perfect.success).toBe(true);
  });

  it("threshold decides success", async () => {
    const metric = await measureBoth(
      { threshold: 0.7, shouldConsiderOrdering: true },
      testCase(names("a", "b", "c"), names("b", "a", "c")),
    );
    expect(metric.score).toBe(2 / 3);
    expect(metric.success).toBe(false);
  });

  it("includeReason false leaves the reason null", async () => {
    const metric = await measureBoth({ includeReason: false }, testCase(names("a"), names("a")));
    expect(metric.reason).toBeNull();
    expect(metric.score).toBe(1);
  });

  it("costs nothing without a judge", async () => {
    const metric = await measureBoth({}, testCase(names("a"), names("a")));
    expect(metric.evaluationCost).toBe(0);
    expect(metric.name).toBe("Tool Correctness");
  });

  it("writes DeepEval's verbose logs", () => {
    const { printed, printer } = capturePrinter();
    const metric = new ToolCorrectnessMetric({ verboseMode: true, verbosePrinter: printer });
    metric.measure(testCase(names("a", "b"), names("a")));
    expect(metric.verboseLogs).toBe(
      [
        'Expected Tools:\n[\n    ToolCall(\n        name="a"\n    ),\n    ToolCall(\n        name="b"\n    )\n]',
        'Tools Called:\n[\n    ToolCall(\n        name="a"\n    )\n]',
        "Available Tools: []",
        "Tool Selection Score: 1.0",
        `Tool Selection Reason: ${NO_AVAILABLE_TOOLS_REASON}`,
      ].join(" \n \n"),
    );
    expect(printed).toHaveLength(1);
    expect(printed[0]?.name).toBe("Tool Correctness");
    expect(printed[0]?.logs.endsWith(`\n \nFinal Score: 0.5\nFinal Reason: ${metric.reason}`)).toBe(true);
  });

  it("validates its options", () => {
    expect(() => new ToolCorrectnessMetric({ evaluationParams: ["inputParameters" as never] })).toThrow(InvalidArgumentError);
    expect(() => new ToolCorrectnessMetric({ evaluationParams: "output" as never })).toThrow(/'evaluationParams' must be an array/);
    expect(() => new ToolCorrectnessMetric({ shouldExactMatch: 1 as never })).toThrow(/'shouldExactMatch' must be a boolean/);
    expect(() => new ToolCorrectnessMetric({ availableTools: [{ name: 3 } as never] })).toThrow(InvalidArgumentError);
  });
});

describe("available tools (tool selection by a judge)", () => {
  const available = [tool("flights", { description: "Search flights" }), tool("hotels", { description: "Book hotels" })];

  function judge(result: ToolSelectionResult) {
    const requests: ToolSelectionRequest[] = [];
    const fn = async (request: ToolSelectionRequest) => {
      requests.push(request);
      return result;
    };
    return { requests, fn };
  }

  it("needs a judge", () => {
    expect(() => new ToolCorrectnessMetric({ availableTools: available })).toThrow(/'availableTools' needs a 'toolSelectionJudge'/);
    // An empty list is "not given" (DeepEval's truthiness test).
    expect(new ToolCorrectnessMetric({ availableTools: [] }).usesToolSelection).toBe(false);
  });

  it("score = min(tool calling, tool selection); the judge's usage is accounted", async () => {
    const { requests, fn } = judge({
      score: 0.25,
      reason: "Hotels were not needed.",
      usage: { costUsd: 0.0004, inputTokens: 120, outputTokens: 30 },
    });
    const metric = new ToolCorrectnessMetric({ availableTools: available, toolSelectionJudge: fn, evaluationModel: "judge-1" });
    const score = await metric.aMeasure(testCase(names("flights"), names("flights", "hotels")));
    expect(score).toBe(0.25);
    expect(metric.success).toBe(false);
    expect(metric.reason).toBe(
      "[\n\t Tool Calling Reason: All expected tools ['flights'] were called (order not considered).\n" +
        "\t Tool Selection Reason: Hotels were not needed.\n]\n",
    );
    expect(metric.evaluationCost).toBe(0.0004);
    expect(metric.inputTokens).toBe(120);
    expect(metric.evaluationModel).toBe("judge-1");
    expect(requests).toHaveLength(1);
    expect(requests[0]?.userInput).toBe("Plan my trip");
    expect(requests[0]?.availableTools.map((t) => t.name)).toEqual(["flights", "hotels"]);
    expect(requests[0]?.availableToolsText).toContain('"description": "Search flights"');
    expect(requests[0]?.toolsCalledText.startsWith('[\n  {\n      "name": "flights"')).toBe(true);
  });

  it("the selection cannot raise a poor tool-calling score", async () => {
    const { fn } = judge({ score: 1, reason: "Good picks." });
    const metric = new ToolCorrectnessMetric({ availableTools: available, toolSelectionJudge: fn });
    expect(await metric.aMeasure(testCase(names("flights", "hotels"), names("flights")))).toBe(0.5);
    // No usage reported: the cost is unknown.
    expect(metric.evaluationCost).toBeNull();
  });

  it("skips the judge for multimodal test cases", async () => {
    const { requests, fn } = judge({ score: 0, reason: "never" });
    const metric = new ToolCorrectnessMetric({ availableTools: available, toolSelectionJudge: fn });
    expect(await metric.aMeasure(testCase(names("flights"), names("flights"), { multimodal: true }))).toBe(1);
    expect(requests).toHaveLength(0);
  });

  it("has no synchronous measure", () => {
    const metric = new ToolCorrectnessMetric({ availableTools: available, toolSelectionJudge: judge({ score: 1, reason: "" }).fn });
    expect(metric.supportsSyncMeasure).toBe(false);
    expect(() => metric.measure(testCase(names("flights"), names("flights")))).toThrow(SyncMeasureUnsupportedError);
  });

  it("rejects a selection score outside [0, 1]", async () => {
    const metric = new ToolCorrectnessMetric({ availableTools: available, toolSelectionJudge: judge({ score: 1.5, reason: "?" }).fn });
    await expect(metric.aMeasure(testCase(names("flights"), names("flights")))).rejects.toThrow(InvalidEvaluationError);
    expect(metric.success).toBe(false);
    expect(metric.score).toBeNull();
  });

  it("strict mode applies to the combined score", async () => {
    const { fn } = judge({ score: 0.75, reason: "Mostly right." });
    const metric = new ToolCorrectnessMetric({ availableTools: available, toolSelectionJudge: fn, strictMode: true });
    expect(await metric.aMeasure(testCase(names("flights"), names("flights")))).toBe(0);
  });

  it("a subclass can supply the judge call instead (the judge package's extension point)", async () => {
    class JudgedToolCorrectness extends ToolCorrectnessMetric {
      protected override async scoreToolSelection(request: ToolSelectionRequest): Promise<ToolSelectionResult> {
        return { score: request.toolsCalled.length === 1 ? 1 : 0.5, reason: "judged", usage: { costUsd: 0.01 } };
      }
    }
    const metric = new JudgedToolCorrectness({ availableTools: available });
    expect(await metric.aMeasure(testCase(names("flights"), names("flights", "hotels")))).toBe(0.5);
    expect(metric.evaluationCost).toBe(0.01);
  });
});

describe("ToolCall inputs", () => {
  it("accepts ToolCall instances and plain fields alike", () => {
    const a = scoreToolCalling([new ToolCall({ name: "a" })], [{ name: "a" }]);
    expect(a.score).toBe(1);
  });
});
