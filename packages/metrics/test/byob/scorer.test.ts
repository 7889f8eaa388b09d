// `scorer()`, `anyOf`/`allOf`, `aggregateScores` and the input handling of the BYOB scorers, beyond
// what the golden files cover.
import { beforeAll, describe, expect, test } from "vitest";
import {
  aggregateScores,
  allOf,
  anyOf,
  bleu,
  chrf,
  contains,
  exactMatch,
  f1Token,
  gsm8kAnswer,
  isScorer,
  mcqLetterExtract,
  multipleChoiceAcc,
  pyFloat,
  ready,
  regexMatch,
  retrievalMetrics,
  rouge,
  scorer,
  ScorerResultError,
  type ScorerInput,
} from "../../src/byob/index.js";
import { PythonCompatError } from "../../src/errors.js";

beforeAll(async () => {
  await ready();
});

const pythonError = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof PythonCompatError) return e.pythonType;
    throw e;
  }
  return "no error";
};

describe("scorer()", () => {
  test("accepts one- and two-parameter functions and checks every result", () => {
    const s = scorer((sample: ScorerInput) => ({ correct: sample.response === "4", score: 0.5 }));
    expect(isScorer(s)).toBe(true);
    expect(s({ response: "4", target: "4", metadata: {} })).toEqual({ correct: true, score: 0.5 });
    const two = scorer((sample: ScorerInput, _config?: unknown) => ({ n: sample.response?.length ?? 0 }));
    expect(two({ response: "abc", target: "", metadata: {} })).toEqual({ n: 3 });
  });

  test("rejects zero or three-plus parameters with TypeError, as _validate_scorer_signature", () => {
    expect(pythonError(() => scorer((() => ({})) as unknown as (s: ScorerInput) => unknown))).toBe("TypeError");
    const legacy = ((response: string, target: string, metadata: object) => ({ r: response, t: target, m: metadata })) as unknown as (
      s: ScorerInput,
    ) => unknown;
    expect(pythonError(() => scorer(legacy))).toBe("TypeError");
    expect(pythonError(() => scorer("exact_match" as unknown as (s: ScorerInput) => unknown))).toBe("TypeError");
  });

  test("results must be plain objects of booleans and finite numbers", () => {
    const bad = [null, [1], "x", { a: "1" }, { a: null }, { a: NaN }, { a: Infinity }, new Map([["a", 1]])];
    for (const out of bad) {
      const s = scorer((_: ScorerInput) => out);
      expect(() => s({ response: "", target: "", metadata: {} }), JSON.stringify(out)).toThrow(ScorerResultError);
    }
    try {
      scorer(function myScorer(_: ScorerInput) {
        return { ok: "yes" };
      })({ response: "", target: "", metadata: {} });
    } catch (e) {
      expect(e).toBeInstanceOf(ScorerResultError);
      expect((e as ScorerResultError).scorer).toBe("myScorer");
      expect((e as ScorerResultError).key).toBe("ok");
    }
  });
});

describe("anyOf / allOf", () => {
  const sample: ScorerInput = { response: "The capital is Paris.", target: "paris", metadata: {} };
  test("prefix sub-keys with the Python scorer names and combine `correct`", () => {
    expect(anyOf(contains, exactMatch)(sample)).toEqual({ contains_correct: true, exact_match_correct: false, correct: true });
    expect(allOf(contains, exactMatch)(sample)).toEqual({ contains_correct: true, exact_match_correct: false, correct: false });
    expect(anyOf(exactMatch, f1Token)(sample)).toEqual({
      exact_match_correct: false,
      f1_token_f1: 0.0,
      f1_token_precision: 0.0,
      f1_token_recall: 0.0,
      correct: false,
    });
    expect(anyOf(contains, exactMatch).name).toBe("any_of(contains, exact_match)");
    const custom = scorer(function near(s: ScorerInput) {
      return { correct: (s.response ?? "").includes("Paris") };
    });
    expect(allOf(custom, contains)(sample)).toEqual({ near_correct: true, contains_correct: true, correct: true });
  });
});

describe("aggregateScores", () => {
  test("empty input, mixed types, Python sort order and rounding", () => {
    expect(aggregateScores([], "b")).toEqual({});
    const out = aggregateScores([{ "\u{1F600}": 1, "\uffff": 0, b: "text", a: null }, { "\u{1F600}": 0.5 }], "bench") as unknown as {
      tasks: { bench: { metrics: { "pass@1": { scores: Record<string, unknown> } } } };
    };
    const scores = out.tasks.bench.metrics["pass@1"].scores;
    // code-point order: U+FFFF sorts before U+1F600 (JS's UTF-16 order would put it after)
    expect(Object.keys(scores)).toEqual(["\uffff", "\u{1F600}"]);
    expect(scores["\u{1F600}"]).toEqual({ value: 0.75, stats: { count: 2, mean: 0.75, stderr: 0.1768, stddev: 0.25 } });
    expect(scores["\uffff"]).toEqual({ value: 0, stats: { count: 1, mean: 0, stderr: 0, stddev: 0 } });
  });

  test("booleans count 1/0, PyFloat and bigint are numbers", () => {
    const out = aggregateScores([{ x: true }, { x: pyFloat(0) }, { x: 2n }], "t") as unknown as {
      tasks: { t: { metrics: { "pass@1": { scores: Record<string, { value: number }> } } } };
    };
    expect(out.tasks.t.metrics["pass@1"].scores["x"]!.value).toBe(1);
  });
});

describe("scorer inputs", () => {
  test("typed errors where BYOB raises", () => {
    expect(pythonError(() => exactMatch({ response: null, target: "x", metadata: {} }))).toBe("AttributeError");
    expect(pythonError(() => bleu({ response: "x", target: 1, metadata: {} }))).toBe("AttributeError");
    expect(pythonError(() => rouge({ response: "x", target: null, metadata: {} }))).toBe("AttributeError");
    expect(pythonError(() => regexMatch({ response: "x", target: ["x"], metadata: {} }))).toBe("TypeError");
    expect(pythonError(() => regexMatch({ response: null, target: "x", metadata: {} }))).toBe("TypeError");
    expect(pythonError(() => retrievalMetrics({ response: "", target: null, metadata: null }))).toBe("AttributeError");
    expect(pythonError(() => retrievalMetrics({ response: "", target: null, metadata: { retrieved: [[1]], relevant: [[1]] } }))).toBe(
      "TypeError",
    );
    expect(pythonError(() => mcqLetterExtract({ response: "A", target: "²", metadata: {} }))).toBe("ValueError");
    expect(pythonError(() => multipleChoiceAcc({ response: "", target: "ß", metadata: { _choices: ["a"], _choices_logprobs: [0] } }))).toBe(
      "TypeError",
    );
  });

  test("an invalid pattern is just a miss in regex_match", () => {
    expect(regexMatch({ response: "a", target: "(", metadata: {} })).toEqual({ correct: false });
    expect(regexMatch({ response: "a", target: "", metadata: {} })).toEqual({ correct: true });
  });

  test("int vs float targets stringify like Python", () => {
    expect(exactMatch({ response: "1.0", target: pyFloat(1), metadata: {} })).toEqual({ correct: true });
    expect(exactMatch({ response: "1", target: pyFloat(1), metadata: {} })).toEqual({ correct: false });
    expect(gsm8kAnswer({ response: "1e20", target: pyFloat(1e20), metadata: {} })).toEqual({ correct: false, parsed: true });
    expect(gsm8kAnswer({ response: "#### 100000000000000000000", target: 1e20, metadata: {} })).toEqual({ correct: true, parsed: true });
  });

  test("missing metadata reads as {}", () => {
    expect(retrievalMetrics({ response: "", target: null })).toEqual({ precision_at_k: 0, recall_at_k: 0, mrr: 0, ndcg: 0 });
    expect(multipleChoiceAcc({ response: "", target: 0 })).toEqual({ acc: 0, acc_norm: 0, acc_greedy: 0 });
  });

  test("chrf counts spaces and case; chrf_pp adds word 1-2-grams with punctuation attached", () => {
    const r = chrf({ response: "Hello world!", target: "hello world", metadata: {} });
    expect(r.chrf).toBeGreaterThan(0);
    expect(r.chrf).toBeLessThan(100);
    expect(chrf({ response: "same text", target: "same text", metadata: {} })).toEqual({ chrf: 100, chrf_pp: 100 });
  });
});
