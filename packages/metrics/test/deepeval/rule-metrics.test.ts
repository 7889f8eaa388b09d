// DeepEval's non-LLM metrics (ExactMatch, PatternMatch, ToolPermission, AgentLoopDetection) on hand-computed
// cases. Each expectation is worked out in a comment from DeepEval's rules (deepeval/metrics/exact_match,
// pattern_match, tool_permission, agent_loop_detection); Python's own answers are noted where they matter.
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  AgentLoopDetectionMetric,
  ExactMatchMetric,
  LLMTestCase,
  MissingTestCaseParamsError,
  NO_TRACE_REASON,
  PatternMatchMetric,
  ToolPermissionMetric,
  type LLMTestCaseInit,
} from "../../src/deepeval/index.js";
import { compilePython, IGNORECASE, pyFormatFixed } from "../../src/python/index.js";

const tc = (fields: Partial<LLMTestCaseInit>) => new LLMTestCase({ input: "q", ...fields });

describe("Python re.fullmatch and f'{x:.2f}' (the two Python pieces these metrics need)", () => {
  it("fullmatch agrees with CPython 3.11 (values from python3 -c 're.fullmatch(...)')", () => {
    const cases: [string, string, number, string | null][] = [
      ["a|ab", "ab", 0, "ab"], // alternatives are retried until one covers the text
      ["\\d+", "123x", 0, null],
      ["(?i)hello", "HELLO", 0, "HELLO"],
      ["hello", "HeLLo", IGNORECASE, "HeLLo"],
      ["a$", "a\n", 0, null], // $ may match before a final newline, but fullmatch needs the very end
      ["(?x) a b # comment", "ab", 0, "ab"],
      ["(a)\\1", "aa", 0, "aa"],
      ["x*", "", 0, ""],
      ["(?=ab)a", "ab", 0, null],
      ["a.*?", "abc", 0, "abc"],
    ];
    for (const [pattern, text, flags, expected] of cases) {
      expect(compilePython(pattern, flags).fullmatch(text)?.group(0) ?? null, pattern).toBe(expected);
    }
  });

  it("formats like Python: exact ties go to even (0.125 → 0.12, where toFixed gives 0.13)", () => {
    expect(pyFormatFixed(0.125, 2)).toBe("0.12");
    expect(pyFormatFixed(0.375, 2)).toBe("0.38");
    expect(pyFormatFixed(2.675, 2)).toBe("2.67");
    expect(pyFormatFixed(-0.001, 2)).toBe("-0.00");
    expect(pyFormatFixed(2 / 3, 2)).toBe("0.67");
  });
});

describe("before the kernels are loaded", () => {
  // Runs first in this file: Python's lower() lives in the WebAssembly kernels, which aMeasure loads itself.
  it("aMeasure loads them; the sync measure() then works too", async () => {
    const metric = new ExactMatchMetric();
    expect(await metric.aMeasure(tc({ actualOutput: "Paris", expectedOutput: "Paris, France" }))).toBe(0.6666666666666666);
    expect(await new AgentLoopDetectionMetric().aMeasure(tc({ actualOutput: "a", trace: { type: "agent", name: "x" } }))).toBe(1);
  });
});

describe("ExactMatchMetric", () => {
  beforeAll(() => ready());
  it("equal after stripping: 1 with DeepEval's reason", () => {
    const metric = new ExactMatchMetric();
    expect(metric.measure(tc({ actualOutput: "  We offer a 30-day refund.\n", expectedOutput: "We offer a 30-day refund." }))).toBe(1);
    expect(metric.reason).toBe("The actual and expected outputs are exact matches.");
    expect(metric.success).toBe(true);
    expect(metric.threshold).toBe(0.5);
  });

  it("a mismatch scores the token F1: 'Paris' against 'Paris, France' → P 1, R 1/2, F1 2/3", () => {
    const metric = new ExactMatchMetric();
    expect(metric.measure(tc({ actualOutput: "Paris", expectedOutput: "Paris, France" }))).toBe(0.6666666666666666);
    expect(metric.reason).toBe("Outputs are not exact matches. Precision=1.00, Recall=0.50, F1=0.67");
    expect(metric.breakdown).toEqual({ precision: 1, recall: 0.5, f1: 0.6666666666666666 });
    expect(metric.success).toBe(true);
  });

  it("counts tokens as multisets: 'the the the dog' against 'the cat the cat' → overlap 2, P = R = F1 = 0.5", () => {
    const metric = new ExactMatchMetric();
    expect(metric.measure(tc({ actualOutput: "the the the dog", expectedOutput: "the cat the cat" }))).toBe(0.5);
  });

  it("tokens are Unicode \\w runs of the lower-cased text: different texts can score 1 by F1", () => {
    const metric = new ExactMatchMetric();
    expect(metric.measure(tc({ actualOutput: "éléphant CAFÉ!", expectedOutput: "Éléphant café" }))).toBe(1);
    expect(metric.reason).toBe("Outputs are not exact matches. Precision=1.00, Recall=1.00, F1=1.00");
  });

  it("prints Python's rounding in the reason: precision 1/8 is 0.12, F1 2/9 is 0.22", () => {
    const metric = new ExactMatchMetric();
    // expected "a" (1 token), actual 8 tokens with one overlap: P = 0.125, R = 1, F1 = 0.25 / 1.125
    expect(metric.measure(tc({ actualOutput: "a b c d e f g h", expectedOutput: "a" }))).toBe(0.2222222222222222);
    expect(metric.reason).toBe("Outputs are not exact matches. Precision=0.12, Recall=1.00, F1=0.22");
    expect(metric.success).toBe(false);
  });

  it("no word tokens on one side: 0", () => {
    const metric = new ExactMatchMetric();
    expect(metric.measure(tc({ actualOutput: "!!!", expectedOutput: "???" }))).toBe(0);
    expect(metric.reason).toBe("Outputs are not exact matches. Precision=0.00, Recall=0.00, F1=0.00");
  });

  it("computeF1: false scores a mismatch 0", () => {
    const metric = new ExactMatchMetric({ computeF1: false });
    expect(metric.measure(tc({ actualOutput: "Paris", expectedOutput: "Paris, France" }))).toBe(0);
    expect(metric.reason).toBe("Outputs differ and F1 computation was skipped.");
  });

  it("strictMode moves the threshold to 1 and, as in DeepEval, keeps the F1 score", () => {
    const metric = new ExactMatchMetric({ strictMode: true });
    expect(metric.threshold).toBe(1);
    expect(metric.measure(tc({ actualOutput: "Paris", expectedOutput: "Paris, France" }))).toBe(0.6666666666666666);
    expect(metric.success).toBe(false);
  });

  it("requires input, actualOutput and expectedOutput; bad options are refused", () => {
    expect(() => new ExactMatchMetric().measure(tc({ actualOutput: "x" }))).toThrow(MissingTestCaseParamsError);
    expect(() => new ExactMatchMetric({ computeF1: "yes" as never })).toThrow(InvalidArgumentError);
    expect(() => new ExactMatchMetric("strict" as never)).toThrow(InvalidArgumentError);
  });
});

describe("PatternMatchMetric", () => {
  it("the stripped output must match the stripped pattern in full", () => {
    const metric = new PatternMatchMetric({ pattern: "  \\d{4}-\\d{2}-\\d{2} " });
    expect(metric.pattern).toBe("\\d{4}-\\d{2}-\\d{2}");
    expect(metric.measure(tc({ actualOutput: " 2024-05-01\n" }))).toBe(1);
    expect(metric.reason).toBe("The actual output fully matches the pattern.");
    expect(metric.success).toBe(true);
    expect(metric.measure(tc({ actualOutput: "2024-05-01 or later" }))).toBe(0);
    expect(metric.reason).toBe("The actual output does not match the pattern.");
    expect(metric.success).toBe(false);
  });

  it("fullmatch, not search: 'a|ab' matches 'ab', '\\d+' does not match '123abc'", () => {
    expect(new PatternMatchMetric({ pattern: "a|ab" }).measure(tc({ actualOutput: "ab" }))).toBe(1);
    expect(new PatternMatchMetric({ pattern: "\\d+" }).measure(tc({ actualOutput: "123abc" }))).toBe(0);
  });

  it("ignoreCase is re.IGNORECASE; \\w is Unicode as in Python", () => {
    expect(new PatternMatchMetric({ pattern: "yes|no" }).measure(tc({ actualOutput: "YES" }))).toBe(0);
    expect(new PatternMatchMetric({ pattern: "yes|no", ignoreCase: true }).measure(tc({ actualOutput: "YES" }))).toBe(1);
    expect(new PatternMatchMetric({ pattern: "\\w+" }).measure(tc({ actualOutput: "héllo" }))).toBe(1);
  });

  it("threshold 1 by default; a lower one is honoured", () => {
    const metric = new PatternMatchMetric({ pattern: "x", threshold: 0 });
    expect(metric.measure(tc({ actualOutput: "y" }))).toBe(0);
    expect(metric.success).toBe(true);
    expect(new PatternMatchMetric({ pattern: "x" }).threshold).toBe(1);
  });

  it("an invalid pattern is refused at construction with Python's re.error message", () => {
    expect(() => new PatternMatchMetric({ pattern: "(" })).toThrow(/missing \), unterminated subpattern at position 0/);
    expect(() => new PatternMatchMetric({ pattern: "(" })).toThrow(InvalidArgumentError);
    expect(() => new PatternMatchMetric({ pattern: 3 as never })).toThrow(InvalidArgumentError);
    expect(() => new PatternMatchMetric(undefined as never)).toThrow(InvalidArgumentError);
  });

  it("requires actualOutput", () => {
    expect(() => new PatternMatchMetric({ pattern: "x" }).measure(tc({}))).toThrow(MissingTestCaseParamsError);
  });
});

describe("ToolPermissionMetric", () => {
  const calls = (...names: string[]) => names.map((name) => ({ name }));

  it("score = authorised calls / calls; the reason lists the unauthorised ones and the policy", () => {
    const metric = new ToolPermissionMetric({ allowedTools: ["search", "calculator"], deniedTools: ["shell"] });
    // shell is denied, browse is not allowed: 2 of 4 unauthorised
    expect(metric.measure(tc({ toolsCalled: calls("search", "shell", "browse", "search") }))).toBe(0.5);
    expect(metric.reason).toBe(
      "2 of 4 tool call(s) were unauthorized: ['shell', 'browse']. Allowed=['calculator', 'search'], Denied=['shell'].",
    );
    expect(metric.success).toBe(false);
    expect(metric.threshold).toBe(1);
  });

  it("a denylist alone allows ANY other name; a denial wins over an allow", () => {
    const denyOnly = new ToolPermissionMetric({ deniedTools: ["rm"] });
    expect(denyOnly.measure(tc({ toolsCalled: calls("ls", "rm", "cat") }))).toBe(2 / 3);
    expect(denyOnly.reason).toBe("1 of 3 tool call(s) were unauthorized: ['rm']. Allowed=ANY, Denied=['rm'].");
    const both = new ToolPermissionMetric({ allowedTools: ["shell"], deniedTools: ["shell"] });
    expect(both.measure(tc({ toolsCalled: calls("shell") }))).toBe(0);
  });

  it("no calls score 1; all permitted calls score 1", () => {
    const metric = new ToolPermissionMetric({ allowedTools: ["search"] });
    expect(metric.measure(tc({ toolsCalled: [] }))).toBe(1);
    expect(metric.reason).toBe("No tools were called, so no permission boundary could be violated.");
    expect(metric.measure(tc({ toolsCalled: calls("search", "search") }))).toBe(1);
    expect(metric.reason).toBe("All 2 tool call(s) stayed within the permitted set.");
    expect(new ToolPermissionMetric({ allowedTools: [] }).measure(tc({ toolsCalled: calls("search") }))).toBe(0);
  });

  it("strictMode turns a score below 1 into 0; includeReason: false drops the reason", () => {
    const strict = new ToolPermissionMetric({ deniedTools: ["rm"], strictMode: true });
    expect(strict.measure(tc({ toolsCalled: calls("ls", "rm") }))).toBe(0);
    const quiet = new ToolPermissionMetric({ deniedTools: ["rm"], includeReason: false, threshold: 0.5 });
    expect(quiet.measure(tc({ toolsCalled: calls("ls", "rm") }))).toBe(0.5);
    expect(quiet.reason).toBeNull();
    expect(quiet.success).toBe(true);
  });

  it("needs a policy and toolsCalled", () => {
    expect(() => new ToolPermissionMetric({})).toThrow(InvalidArgumentError);
    expect(() => new ToolPermissionMetric({ allowedTools: "search" as never })).toThrow(InvalidArgumentError);
    expect(() => new ToolPermissionMetric({ deniedTools: ["rm"] }).measure(tc({}))).toThrow(MissingTestCaseParamsError);
  });
});

describe("AgentLoopDetectionMetric", () => {
  beforeAll(() => ready());
  const search = (input: unknown = { q: "x" }) => ({ type: "tool", name: "search", input });
  const agent = (children: unknown[]) => ({ type: "agent", name: "bot", children });
  const measure = (trace: Record<string, unknown> | null, options = {}) => {
    const metric = new AgentLoopDetectionMetric(options);
    metric.measure(tc({ actualOutput: "done", trace }));
    return metric;
  };
  // 24 distinct words longer than two characters and outside the stop list
  const words = Array.from({ length: 24 }, (_, i) => `word${String.fromCharCode(97 + i)}`);

  it("a clean trace scores 1", () => {
    const metric = measure(agent([search({ q: "a" }), search({ q: "b" }), { type: "llm", name: "gpt", output: "fine" }]));
    expect(metric.score).toBe(1);
    expect(metric.reason).toBe("No loop patterns detected.");
    expect(metric.scoreBreakdown).toEqual({ tool_repetition: 1, reasoning_stagnation: 1, call_graph_cycles: 1 });
  });

  it("3 identical tool calls halve the repetition check: 0.4 × 0.5 + 0.35 + 0.25 = 0.8", () => {
    // the same call three ways: a dict, the dict with its keys in another order, and its JSON text
    const metric = measure(agent([search({ q: "x", n: 1 }), search({ n: 1, q: "x" }), search('{"q": "x", "n": 1}')]));
    expect(metric.score).toBe(0.8);
    expect(metric.reason).toBe("Tool 'search' called 3 times with identical arguments.");
    expect(metric.success).toBe(true);
  });

  it("6 identical calls zero it: 0.35 + 0.25 = 0.6", () => {
    expect(measure(agent(Array.from({ length: 6 }, () => search()))).score).toBe(0.6);
  });

  it("a span that calls itself is a cycle: 0.4 + 0.35 = 0.75, with the path in the reason", () => {
    const metric = measure(agent([{ type: "tool", name: "search", children: [agent([])] }]));
    expect(metric.score).toBe(0.75);
    expect(metric.reason).toBe("Cycle detected in execution path: agent:bot -> tool:search -> agent:bot.");
    // a direct child with its parent's label is a cycle; siblings with one label are not
    expect(measure(agent([agent([]), { type: "tool", name: "x" }])).scoreBreakdown?.call_graph_cycles).toBe(0);
    expect(
      measure(
        agent([
          { type: "tool", name: "x" },
          { type: "tool", name: "x" },
        ]),
      ).scoreBreakdown?.call_graph_cycles,
    ).toBe(1);
  });

  it("identical consecutive LLM outputs: stagnation 0, 0.4 + 0.25 = 0.65", () => {
    const text = words.join(" ");
    const metric = measure(
      agent([
        { type: "llm", name: "gpt", output: text },
        { type: "llm", name: "gpt", output: text.toUpperCase() },
      ]),
    );
    expect(metric.score).toBe(0.65);
    expect(metric.reason).toBe("Identical reasoning outputs at steps 0 and 1.");
  });

  it("high overlap: 19 shared of 21 bigrams (0.905 ≥ 0.85) scores stagnation 0.5", () => {
    // 21 words each: the second swaps the last word, so 20 bigrams each with 19 shared → 19 / 21
    const first = words.slice(0, 21).join(" ");
    const second = [...words.slice(0, 20), "zzzother"].join(" ");
    const metric = measure(
      agent([
        { type: "llm", name: "a", output: first },
        { type: "llm", name: "b", output: second },
      ]),
    );
    // (0.4 + 0.5 × 0.35 + 0.25) / 1.0 = 0.825
    expect(metric.score).toBe(0.4 + 0.5 * 0.35 + 0.25);
    expect(metric.reason).toBe("High reasoning overlap (0.90) at steps 0 and 1.");
  });

  it("outputs under 20 meaningful words (stop words and short words do not count) are not compared", () => {
    const padded = `${words.slice(0, 19).join(" ")} the and of it an ok`;
    const metric = measure(
      agent([
        { type: "llm", name: "a", output: padded },
        { type: "llm", name: "b", output: padded },
      ]),
    );
    expect(metric.score).toBe(1);
  });

  it("disabled checks leave the weighted mean of the others; none enabled scores 1", () => {
    const loop = agent(Array.from({ length: 6 }, () => search()));
    expect(measure(loop, { checkToolRepetition: false }).score).toBe(1);
    expect(measure(loop, { checkReasoningStagnation: false, checkCallGraphCycles: false }).score).toBe(0);
    expect(measure(loop, { checkToolRepetition: false, checkReasoningStagnation: false, checkCallGraphCycles: false }).score).toBe(1);
    expect(measure(agent(Array.from({ length: 4 }, () => search())), { repetitionThreshold: 2 }).score).toBe(0.6);
  });

  it("no trace: 0 with a reason; strictMode zeroes a score below 1", () => {
    const none = measure(null);
    expect(none.score).toBe(0);
    expect(none.reason).toBe(NO_TRACE_REASON);
    expect(none.success).toBe(false);
    expect(measure(agent([search(), search(), search()]), { strictMode: true }).score).toBe(0);
    expect(new AgentLoopDetectionMetric().requiresTrace).toBe(true);
  });

  it("refuses bad options and needs actualOutput", () => {
    expect(() => new AgentLoopDetectionMetric({ repetitionThreshold: 0 })).toThrow(InvalidArgumentError);
    expect(() => new AgentLoopDetectionMetric({ similarityThreshold: 2 })).toThrow(InvalidArgumentError);
    expect(() => new AgentLoopDetectionMetric().measure(tc({ trace: agent([]) }))).toThrow(MissingTestCaseParamsError);
  });
});
