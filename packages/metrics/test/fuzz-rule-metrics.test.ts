// Fuzz test of the public pair-callable rule metrics (issue 15, "Done when"): over 100,000 generated
// inputs in all (split across the properties below), every call either returns a value whose numbers
// are all finite or throws one of the package's typed errors (EvalkernError subclasses:
// PythonCompatError with the Python exception's name, InvalidArgumentError, RegexBudgetExceededError, ...).
// Inputs mix realistic shapes (texts with digits, letters, answer phrases, Python literals, metric
// payloads) with hostile ones (wrong types, null-prototype objects, NaN, bigints, lone surrogates).
import fc from "fast-check";
import { beforeAll, describe, test } from "vitest";
import * as byob from "../src/byob/index.js";
import * as common from "../src/common/index.js";
import * as dspy from "../src/dspy/index.js";
import * as evalwire from "../src/evalwire/index.js";
import * as lmeval from "../src/lmeval/index.js";
import { EvalkernError } from "../src/errors.js";
import { pyFloat } from "../src/python/repr.js";

beforeAll(async () => {
  await byob.ready();
});

// --- checking one call ---------------------------------------------------------------------------------

/**
 * Every number reachable in `v` is finite (booleans, strings and null are fine). Inputs echoed back
 * (ListContains' `metadata.pairs[].output/expected`) are not results and are skipped.
 */
function assertFinite(v: unknown, where: string, depth = 0): void {
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`${where}: non-finite result ${v}`);
    return;
  }
  if (depth > 6 || v === null || typeof v !== "object") return;
  if (ArrayBuffer.isView(v)) {
    for (const x of Array.from(v as unknown as ArrayLike<number>)) assertFinite(x, where, depth + 1);
    return;
  }
  for (const [k, x] of Object.entries(v)) if (k !== "output" && k !== "expected") assertFinite(x, where, depth + 1);
}

/** Runs one metric call: a finite result or a typed error; anything else is reported with its input. */
function check(where: string, call: () => unknown): void {
  let out: unknown;
  try {
    out = call();
  } catch (e) {
    if (!EvalkernError.isInstance(e))
      throw new Error(`${where}: untyped ${(e as Error)?.constructor?.name}: ${String((e as Error)?.message ?? e)}`);
    const code = (e as { code?: unknown }).code;
    if (code !== undefined && typeof code !== "string") throw new Error(`${where}: error code ${String(code)} is not a string`);
    return;
  }
  assertFinite(out, where);
}

// --- generators ----------------------------------------------------------------------------------------

const PIECES = [
  "a",
  "the",
  "an",
  "A",
  "B",
  "c",
  "J",
  "I",
  "x",
  "yes",
  "no",
  "Yes",
  "true",
  "False",
  "nope",
  "correct",
  "yesterday",
  "0",
  "1",
  "7",
  "42",
  "-",
  ",",
  ".",
  "3.50",
  "1,000",
  "#### ",
  "\\boxed{",
  "}",
  "{",
  "(",
  ")",
  "[",
  "]",
  "'",
  '"',
  ":",
  "\\",
  " ",
  "  ",
  "\n",
  "\t",
  "\u00a0",
  "\u2028",
  "\u001c",
  "\u3000",
  "\ufeff",
  "answer is ",
  "option (",
  "The answer is (",
  "é",
  "e\u0301",
  "İ",
  "ı",
  "ß",
  "Σ",
  "ς",
  "\u212a",
  "٣",
  "²",
  "①",
  "日本",
  "東京",
  "😀",
  "👍🏽",
  "\u200d",
  "\ud835",
  "\udc00",
  "\\d+",
  "\\w",
  "\\b",
  ".*",
  "(a|b)",
  "a{2}",
  "[a-z]",
  "(?i)",
  "\\1",
  "(?=x)",
  "^",
  "$",
  "*",
  "+",
  "?",
  "NaN",
  "Infinity",
  "inf",
  "1e400",
  "0x10",
  "1_000",
  "None",
  "True",
  "null",
  '{"a": 1}',
  "['a', 1]",
  "(1, 2)",
  "{1, 2}",
  "b'x'",
];
const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((a) => a.join("")) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
);

function nullProto(o: Record<string, unknown>): Record<string, unknown> {
  const n = Object.create(null) as Record<string, unknown>;
  Object.assign(n, o);
  return n;
}

const number: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -3, max: 12 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 0.5, 1.5, 1e20, 1e-7, 1e308, -1e308, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.double({ noNaN: true }).map((x) => pyFloat(x)),
);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 4, arbitrary: text },
    { weight: 2, arbitrary: number },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(text, tie("value"), { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(text, tie("value"), { maxKeys: 3 }).map(nullProto) },
  ),
}));

const textList = fc.array(text, { maxLength: 4 });
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: value });

/** BYOB metadata: usually a payload one of the scorers reads, sometimes anything. */
const metadata: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      retrieved: maybe(fc.array(fc.oneof(text, fc.integer({ min: 0, max: 3 })), { maxLength: 6 })),
      relevant: maybe(fc.array(fc.oneof(text, fc.integer({ min: 0, max: 3 })), { maxLength: 4 })),
      k: maybe(fc.integer({ min: -3, max: 8 })),
      _choices: maybe(textList),
      _choices_logprobs: maybe(fc.array(number, { maxLength: 4 })),
      _choices_is_greedy: maybe(fc.array(fc.boolean(), { maxLength: 4 })),
      a: maybe(text),
      b: maybe(text),
    },
    { requiredKeys: [] },
  ),
  value,
);

const BYOB = [
  byob.exactMatch,
  byob.contains,
  byob.f1Token,
  byob.regexMatch,
  byob.bleu,
  byob.rouge,
  byob.chrf,
  byob.retrievalMetrics,
  byob.multipleChoiceAcc,
  byob.mcqLetterExtract,
  byob.gsm8kAnswer,
  byob.booleanYesno,
];
const anyOfAll = byob.anyOf(...BYOB);

// A property's runs; the sum over all properties is ≥ 100,000 generated inputs.
// About 50 s in all on a busy 2-core machine; the per-test timeout leaves room for a much slower one.
const TIMEOUT = 300_000;
const RUNS = { byob: 20_000, dspy: 25_000, evalwire: 20_000, common: 20_000, lmeval: 15_000 };

describe(`fuzz: ${Object.values(RUNS).reduce((a, b) => a + b, 0)} generated inputs, 0 untyped errors, 0 non-finite results`, () => {
  test(
    `BYOB scorers (${RUNS.byob} samples × ${BYOB.length} scorers)`,
    () => {
      fc.assert(
        fc.property(maybe(text), maybe(fc.oneof(text, number)), metadata, fc.nat(7), (response, target, md, pick) => {
          const sample = pick % 2 === 0 ? { response, target, metadata: md } : nullProto({ response, target, metadata: md });
          for (const fn of BYOB) check(fn.name, () => fn(sample as never));
          if (pick === 0) check("anyOf", () => anyOfAll(sample as never));
        }),
        { numRuns: RUNS.byob },
      );
      check("aggregateScores", () => byob.aggregateScores([{ a: 1, b: true }, { a: 0.5 }], "x"));
    },
    TIMEOUT,
  );

  test(
    `DSPy answer metrics (${RUNS.dspy} samples)`,
    () => {
      fc.assert(
        fc.property(
          maybe(text),
          maybe(textList),
          maybe(fc.oneof(text, textList)),
          fc.oneof(fc.double({ min: -1, max: 2 }), value),
          (pred, answers, context, frac) => {
            check("EM", () => dspy.EM(pred as never, answers as never));
            check("F1", () => dspy.F1(pred as never, answers as never));
            check("HotPotF1", () => dspy.HotPotF1(pred as never, answers as never));
            check("normalizeText", () => dspy.normalizeText(pred as never));
            check("dprNormalize", () => dspy.dprNormalize(pred as never));
            const example = { answer: Array.isArray(answers) && answers.length === 1 ? answers[0] : answers };
            check("answerExactMatch", () => dspy.answerExactMatch(example as never, { answer: pred } as never, undefined, frac as never));
            check("answerPassageMatch", () => dspy.answerPassageMatch(example as never, { context } as never));
          },
        ),
        { numRuns: RUNS.dspy },
      );
    },
    TIMEOUT,
  );

  test(
    `evalwire evaluators (${RUNS.evalwire} samples)`,
    () => {
      const schemas: unknown[] = [
        { type: "object", properties: { a: { type: "integer", minimum: 0 }, b: { type: "string", pattern: "^\\d+$" } }, required: ["a"] },
        { type: "array", items: { type: "number", multipleOf: 0.01 }, uniqueItems: true },
        { enum: [1, "a", null, true] },
        { anyOf: [{ type: "string", maxLength: 3 }, { type: "number" }] },
      ];
      const fixed = [
        evalwire.makeMembershipEvaluator(),
        evalwire.makeExactMatchEvaluator(),
        evalwire.makeContainsEvaluator(),
        evalwire.makeRegexEvaluator(),
        evalwire.makeJsonMatchEvaluator(),
        evalwire.makeJsonMatchEvaluator(["a", "missing"]),
        evalwire.makeNumericToleranceEvaluator(),
        evalwire.makeNumericToleranceEvaluator(1e-6, 0.01),
        ...schemas.map((s) => evalwire.makeSchemaEvaluator(s)),
      ];
      const expected = fc.oneof(
        { weight: 3, arbitrary: fc.record({ expected_output: fc.oneof(text, textList, value) }, { requiredKeys: [] }) },
        { weight: 1, arbitrary: value },
      );
      const output = fc.oneof(text, value, textList);
      fc.assert(
        fc.property(output, expected, fc.oneof(fc.integer({ min: -2, max: 25 }), value), (out, exp, K) => {
          for (const ev of fixed) check(ev.name, () => ev(out, exp));
          check("top_k", () => evalwire.makeTopKEvaluator(K as never)(out, exp));
        }),
        { numRuns: RUNS.evalwire },
      );
    },
    TIMEOUT,
  );

  test(
    `common scorers: levenshtein, numericDiff, JSONDiff, ListContains (${RUNS.common} samples)`,
    () => {
      fc.assert(
        fc.property(maybe(text), maybe(text), maybe(number), maybe(number), value, value, (a, b, x, y, u, v) => {
          check("levenshtein", () => common.levenshtein(a as never, b as never));
          check("levenshteinSimilarity", () => common.levenshteinSimilarity(a as never, b as never));
          check("Levenshtein", () => common.Levenshtein({ output: a, expected: b }));
          check("numericDiff", () => common.numericDiff(x as never, y as never));
          check("NumericDiff", () => common.NumericDiff({ output: x as never, expected: y as never }));
          check("JSONDiff", () => common.JSONDiff({ output: u, expected: v }));
          check("ListContains", () => common.ListContains({ output: u as never, expected: v as never }));
        }),
        { numRuns: RUNS.common },
      );
    },
    TIMEOUT,
  );

  test(
    `lm-eval multiple choice (${RUNS.lmeval} samples)`,
    () => {
      const gold = fc.oneof(number, text, fc.array(fc.oneof(fc.integer({ min: -3, max: 5 }), text), { maxLength: 3 }), value);
      fc.assert(
        fc.property(
          gold,
          maybe(textList),
          maybe(fc.array(number, { maxLength: 4 })),
          maybe(fc.array(fc.boolean(), { maxLength: 4 })),
          fc.boolean(),
          (g, choices, logprobs, isGreedy, floats) => {
            const input = { gold: g, choices, logprobs, isGreedy };
            check("multipleChoice", () => lmeval.multipleChoice(input as never, { numbers: floats ? "float" : "index" }));
          },
        ),
        { numRuns: RUNS.lmeval },
      );
    },
    TIMEOUT,
  );
});
