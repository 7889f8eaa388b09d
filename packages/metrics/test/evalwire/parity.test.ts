// Every line of golden/evalwire.jsonl, reproduced exactly: booleans and floats with Object.is,
// `_parse_expected` items by Python equality plus their Python type names, and each golden
// `{"error": T}` as a thrown PythonCompatError with pythonType T.
import { describe, expect, it } from "vitest";
import {
  makeContainsEvaluator,
  makeExactMatchEvaluator,
  makeJsonMatchEvaluator,
  makeMembershipEvaluator,
  makeNumericToleranceEvaluator,
  makeRegexEvaluator,
  makeSchemaEvaluator,
  makeTopKEvaluator,
  parseExpected,
  pyEquals,
  pyTypeName,
  PythonCompatError,
  type Evaluator,
  type PyValue,
} from "../../src/evalwire/index.js";
import { decodeTagged, goldenError, readEvalwireGoldens, type EvalwireGolden } from "./shared.js";

const goldens = readEvalwireGoldens();
const typedGoldens = readEvalwireGoldens("bigint");

const num = (value: PyValue | undefined, fallback: number): number => (value === undefined || value === null ? fallback : Number(value));

const evaluatorCache = new Map<string, Evaluator<number | boolean>>();

/** One evaluator per factory configuration, as a caller would reuse it. */
function makeEvaluator(golden: EvalwireGolden): Evaluator<number | boolean> {
  const key = `${golden.fn}:${JSON.stringify(golden.line.match(/"factory": (\{.*?\}), "args"/)?.[1] ?? "")}`;
  let evaluate = evaluatorCache.get(key);
  if (evaluate === undefined) {
    evaluate = createEvaluator(golden);
    evaluatorCache.set(key, evaluate);
  }
  return evaluate;
}

function createEvaluator(golden: EvalwireGolden): Evaluator<number | boolean> {
  const factory = golden.factory ?? {};
  switch (golden.fn) {
    case "top_k":
      return makeTopKEvaluator(num(factory.K, 20));
    case "membership":
      return makeMembershipEvaluator();
    case "exact_match":
      return makeExactMatchEvaluator();
    case "contains":
      return makeContainsEvaluator();
    case "regex":
      return makeRegexEvaluator();
    case "json_match":
      return makeJsonMatchEvaluator((factory.keys ?? null) as PyValue[] | null);
    case "schema":
      return makeSchemaEvaluator(factory.schema);
    case "numeric_tolerance":
      return makeNumericToleranceEvaluator(num(factory.atol, 1e-6), num(factory.rtol, 0));
    default:
      throw new Error(`no evaluator for ${golden.fn}`);
  }
}

type Outcome = { value: PyValue } | { error: string };

function run(fn: () => PyValue): Outcome {
  try {
    return { value: fn() };
  } catch (error) {
    if (error instanceof PythonCompatError) return { error: error.pythonType };
    return { error: `JS ${(error as Error).name}: ${(error as Error).message}` };
  }
}

function describeOutcome(outcome: Outcome): string {
  return "error" in outcome ? `raises ${outcome.error}` : `returns ${String(outcome.value)}`;
}

/** Runs `check` on each golden of `fn`; returns the mismatches as readable lines. */
function mismatches(fn: string, check: (golden: EvalwireGolden, index: number) => string | undefined): string[] {
  const found: string[] = [];
  goldens.forEach((golden, index) => {
    if (golden.fn !== fn) return;
    const problem = check(golden, index);
    if (problem !== undefined) found.push(`${golden.id}: ${problem}\n    ${golden.line.slice(0, 300)}`);
  });
  return found;
}

const EVALUATORS = ["top_k", "membership", "exact_match", "contains", "regex", "json_match", "schema", "numeric_tolerance"];

describe("evalwire parity (golden/evalwire.jsonl)", () => {
  it("covers every line", () => {
    const fns = new Set(goldens.map((golden) => golden.fn));
    expect([...fns].sort()).toEqual(["_parse_expected", ...EVALUATORS].sort());
    expect(goldens.length).toBe(2836);
  });

  it("_parse_expected: items, Python types and errors", () => {
    const found = mismatches("_parse_expected", (golden, index) => {
      const expectedError = goldenError(golden.out);
      const typed = typedGoldens[index] as EvalwireGolden;
      const outcome = run(() => parseExpected(typed.args.expected, { ints: "bigint" }));
      if (expectedError !== undefined) {
        return "error" in outcome && outcome.error === expectedError ? undefined : `expected ${expectedError}, ${describeOutcome(outcome)}`;
      }
      if ("error" in outcome) return describeOutcome(outcome);
      const items = outcome.value as PyValue[];
      const want = golden.out as { items: PyValue[]; types: string[] };
      const wantItems = want.items.map(decodeTagged);
      // Parsed with ints as bigint, so a number is always a Python float.
      const types = items.map((item) => (typeof item === "number" ? "float" : pyTypeName(item)));
      if (JSON.stringify(types) !== JSON.stringify(want.types)) return `types ${JSON.stringify(types)} != ${JSON.stringify(want.types)}`;
      if (items.length !== wantItems.length) return `${items.length} items, want ${wantItems.length}`;
      for (let i = 0; i < items.length; i++) {
        const got = items[i] as PyValue;
        const expected = wantItems[i] as PyValue;
        const same = typeof got === "number" && typeof expected === "number" ? Object.is(got, expected) : pyEquals(got, expected);
        if (!same) return `item ${i}: ${String(got)} != ${String(expected)}`;
      }
      return undefined;
    });
    expect(found, found.join("\n")).toEqual([]);
  });

  for (const fn of EVALUATORS) {
    it(`${fn}: every golden value and error`, () => {
      const total = goldens.filter((golden) => golden.fn === fn).length;
      const found = mismatches(fn, (golden) => {
        const evaluate = makeEvaluator(golden);
        const outcome = run(() => evaluate(golden.args.output, golden.args.expected));
        const expectedError = goldenError(golden.out);
        if (expectedError !== undefined) {
          return "error" in outcome && outcome.error === expectedError
            ? undefined
            : `expected ${expectedError}, ${describeOutcome(outcome)}`;
        }
        if ("error" in outcome) return `expected ${String(golden.out)}, ${describeOutcome(outcome)}`;
        if (typeof golden.out === "boolean")
          return outcome.value === golden.out ? undefined : `expected ${golden.out}, ${describeOutcome(outcome)}`;
        // Floats exactly (docs/spec/rule-metrics.md §7): top_k's exact mean and json_match's ratio.
        return typeof outcome.value === "number" && Object.is(outcome.value, Number(golden.out))
          ? undefined
          : `expected ${String(golden.out)}, ${describeOutcome(outcome)}`;
      });
      expect(total).toBeGreaterThan(0);
      expect(found, `${found.length}/${total} mismatches\n${found.slice(0, 25).join("\n")}`).toEqual([]);
    });
  }
});
