// DSPy parity: every line of testdata/golden/dspy.jsonl reproduced exactly — booleans and numbers with
// Object.is (the golden integer 0 is the number 0), token lists element by element, and where DSPy
// raised, a PythonCompatError carrying the same Python exception type.
import { beforeAll, describe, expect, it } from "vitest";
import { Example, Prediction } from "../../src/contracts/example.js";
import {
  EM,
  EMBatch,
  F1,
  F1Batch,
  HotPotF1,
  HotPotF1Batch,
  answerExactMatch,
  answerPassageMatch,
  dprNormalize,
  normalizeText,
  ready,
} from "../../src/dspy/index.js";
import { PythonCompatError } from "../../src/errors.js";
import { type GoldenLine, isGoldenError, readJsonl } from "../golden.js";

let lines: GoldenLine[] = [];

beforeAll(async () => {
  await ready();
  lines = readJsonl<GoldenLine>("golden/dspy.jsonl");
});

/** Runs `call` and returns its value, or `{ error: pythonType }` when it threw a PythonCompatError. */
function outcome(call: () => unknown): unknown {
  try {
    return call();
  } catch (error) {
    if (error instanceof PythonCompatError) return { error: error.pythonType };
    throw error;
  }
}

function same(got: unknown, want: unknown): boolean {
  if (isGoldenError(want)) return isGoldenError(got) && got.error === want.error;
  if (typeof want === "number" || typeof want === "boolean") return Object.is(got, want);
  return JSON.stringify(got) === JSON.stringify(want);
}

/** Checks every line of `fn`, printing "matched/total"; returns the mismatches (expected to be none). */
function check(fn: string, call: (line: GoldenLine, i: number) => unknown, min: number): void {
  const mine = lines.filter((l) => l.fn === fn);
  expect(mine.length).toBeGreaterThanOrEqual(min);
  const bad: { id: string; got: unknown; want: unknown }[] = [];
  mine.forEach((l, i) => {
    const got = outcome(() => call(l, i));
    if (!same(got, l.out)) bad.push({ id: l.id, got, want: l.out });
  });
  console.log(`[dspy.parity] ${fn}: ${mine.length - bad.length}/${mine.length} lines matched`);
  expect(bad.slice(0, 10)).toEqual([]);
}

/** A Python tuple as a JS value: anything that is not an array is "not a list" for DSPy. */
const tuple = (items: unknown[]) => Object.freeze({ $py: "tuple", items });

/** The golden `example_answer`, as the Python type the line names. */
function exampleAnswer(args: Record<string, unknown>): unknown {
  return args.example_answer_python_type === "tuple" ? tuple(args.example_answer as unknown[]) : args.example_answer;
}

describe("dspy.jsonl", () => {
  it("normalize_text", () => {
    check("normalize_text", (l) => normalizeText(l.args.s as string), 3000);
  });

  it("EM", () => {
    check("EM", (l) => EM(l.args.prediction as string, l.args.answers_list as string[]), 3000);
  });

  it("F1", () => {
    check("F1", (l) => F1(l.args.prediction as string, l.args.answers_list as string[]), 3000);
  });

  it("HotPotF1", () => {
    check("HotPotF1", (l) => HotPotF1(l.args.prediction as string, l.args.answers_list as string[]), 3000);
  });

  it("answer_exact_match (plain objects, Example/Prediction alternately)", () => {
    check(
      "answer_exact_match",
      (l, i) => {
        const answer = exampleAnswer(l.args);
        const example = i % 2 ? { answer } : Example.from({ answer, question: "q" }).withInputs("question");
        const pred = i % 2 ? { answer: l.args.pred_answer } : Prediction.from({ answer: l.args.pred_answer });
        return answerExactMatch(example, pred, undefined, l.args.frac as number);
      },
      6000,
    );
  });

  it("answer_passage_match", () => {
    check(
      "answer_passage_match",
      (l, i) =>
        answerPassageMatch(
          i % 2 ? { answer: l.args.example_answer } : Example.from({ answer: l.args.example_answer }),
          i % 2 ? { context: l.args.pred_context } : Prediction.from({ context: l.args.pred_context }),
        ),
      150,
    );
  });

  it("DPR_normalize and DPR_normalize(normalize_text)", () => {
    check("DPR_normalize", (l) => dprNormalize(l.args.text as string), 100);
    check("DPR_normalize(normalize_text)", (l) => dprNormalize(l.args.text as string, { normalizeText: true }), 100);
  });

  it("the batch forms agree with the per-item ones on every EM/F1/HotPotF1 line", () => {
    for (const [fn, batch] of [
      ["EM", EMBatch],
      ["F1", F1Batch],
      ["HotPotF1", HotPotF1Batch],
    ] as const) {
      const ok = lines.filter((l) => l.fn === fn && !isGoldenError(l.out));
      const got = batch(
        ok.map((l) => l.args.prediction as string),
        ok.map((l) => l.args.answers_list as string[]),
      );
      const bad = ok.filter((l, i) => (fn === "EM" ? got[i] !== (l.out ? 1 : 0) : !Object.is(got[i], l.out)));
      expect(bad.map((l) => l.id)).toEqual([]);
    }
  });
});

describe("documented behaviour (docs/spec/rule-metrics.md §1, §6)", () => {
  it("accents after NFD let articles glue off", () => {
    expect(normalizeText("año")).toBe("\u0303o");
    expect(normalizeText("thé")).toBe("\u0301");
    expect(normalizeText("snake_case")).toBe("snakecase");
  });

  it("keeps a leading U+FEFF (not Python whitespace; a default TextDecoder would drop it)", () => {
    expect(normalizeText("\ufeffgamma")).toBe("\ufeffgamma");
    expect(EM("\ufeffx", ["x"])).toBe(false);
    expect(F1("\ufeffx", ["x"])).toBe(0);
  });

  it("F1 and HotPotF1 give 0 for no overlap and for two empty sides; EM of two empties is true", () => {
    expect(F1("", [""])).toBe(0);
    expect(HotPotF1("", [""])).toBe(0);
    expect(EM("", [""])).toBe(true);
    expect(EM(" ", ["   "])).toBe(true);
    expect(HotPotF1("yes", ["no"])).toBe(0);
    expect(HotPotF1("No Answer", ["no answer"])).toBe(1);
  });

  it("raises as DSPy does", () => {
    const err = (call: () => unknown) => outcome(call);
    expect(err(() => EM("x", []))).toEqual({ error: "ValueError" });
    expect(err(() => F1("x", "x" as unknown as string[]))).toEqual({ error: "ValueError" });
    expect(err(() => F1(1 as unknown as string, ["x"]))).toEqual({ error: "TypeError" });
    expect(err(() => EM("x", ["x", 2 as unknown as string]))).toEqual({ error: "TypeError" });
    expect(err(() => normalizeText(null as unknown as string))).toEqual({ error: "TypeError" });
    expect(err(() => answerExactMatch({}, { answer: "x" }))).toEqual({ error: "AttributeError" });
    expect(err(() => answerExactMatch({ answer: "x" }, {}))).toEqual({ error: "AttributeError" });
    expect(err(() => answerExactMatch({ answer: 3 }, {}))).toEqual({ error: "ValueError" }); // type checked first
    expect(err(() => answerExactMatch({ answer: "x" }, { answer: "x" }, undefined, "1" as unknown as number))).toEqual({
      error: "TypeError",
    });
    expect(err(() => answerPassageMatch({ answer: "x" }, { context: null }))).toEqual({ error: "TypeError" });
    expect(err(() => answerPassageMatch({ answer: "x" }, { context: 5 }))).toEqual({ error: "TypeError" });
  });

  it("answer_passage_match: empty answers match anything, str context is per character, first match wins", () => {
    expect(answerPassageMatch({ answer: "the" }, { context: [""] })).toBe(true);
    expect(answerPassageMatch({ answer: "" }, { context: [] })).toBe(false);
    expect(answerPassageMatch({ answer: "e" }, { context: "The Eiffel Tower" })).toBe(true);
    expect(answerPassageMatch({ answer: "Eiffel Tower" }, { context: "The Eiffel Tower" })).toBe(false);
    expect(answerPassageMatch({ answer: "東京" }, { context: ["東京は日本の首都です"] })).toBe(false);
    expect(answerPassageMatch({ answer: "東京" }, { context: ["東京 は 日本"] })).toBe(true);
    expect(answerPassageMatch({ answer: "U.S." }, { context: ["the US army"] })).toBe(true);
    expect(answerPassageMatch({ answer: "cat" }, { context: ["concatenate"] })).toBe(false);
    // Python's any() stops at the first match: a bad passage after it is never looked at
    expect(answerPassageMatch({ answer: "abc" }, { context: ["abc", null] })).toBe(true);
    expect(outcome(() => answerPassageMatch({ answer: "abc" }, { context: [null, "abc"] }))).toEqual({ error: "TypeError" });
    // non-str answers raise only once there is a passage to test
    expect(answerPassageMatch({ answer: [1] }, { context: [] })).toBe(false);
    expect(outcome(() => answerPassageMatch({ answer: [1] }, { context: ["x"] }))).toEqual({ error: "TypeError" });
    // any iterable context is iterated, as Python's `for` would
    expect(answerPassageMatch({ answer: "b" }, { context: new Set(["a", "b"]) })).toBe(true);
  });

  it("answer_exact_match frac boundaries", () => {
    expect(answerExactMatch({ answer: [""] }, { answer: "" })).toBe(true);
    expect(answerExactMatch({ answer: [""] }, { answer: "" }, undefined, 0.8)).toBe(false);
    expect(answerExactMatch({ answer: "a b c" }, { answer: "x" }, undefined, 0)).toBe(true);
    expect(answerExactMatch({ answer: "Paris" }, { answer: "paris." }, undefined, 1.5)).toBe(true);
  });
});
