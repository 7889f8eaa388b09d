// BYOB scorers given odd JS values (issue 15.5): a null-prototype object (what some JSON parsers return)
// behaves exactly as the same plain object, i.e. as a Python dict (str() where the original calls
// str(), Python's exception where it calls a str method), and nothing escapes as an untyped JS error.
import { beforeAll, describe, expect, test } from "vitest";
import * as byob from "../../src/byob/index.js";
import { EvalkernError, PythonCompatError } from "../../src/errors.js";

beforeAll(async () => {
  await byob.ready();
});

const SCORERS = {
  exactMatch: byob.exactMatch,
  contains: byob.contains,
  f1Token: byob.f1Token,
  regexMatch: byob.regexMatch,
  bleu: byob.bleu,
  rouge: byob.rouge,
  chrf: byob.chrf,
  retrievalMetrics: byob.retrievalMetrics,
  multipleChoiceAcc: byob.multipleChoiceAcc,
  mcqLetterExtract: byob.mcqLetterExtract,
  gsm8kAnswer: byob.gsm8kAnswer,
  booleanYesno: byob.booleanYesno,
} as const;
const FIELDS = ["response", "target", "metadata"] as const;

function nullProto(entries: Record<string, unknown>): Record<string, unknown> {
  const o = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(entries)) o[k] = v;
  return o;
}

const base = (): Record<string, unknown> => ({
  response: "The answer is A, yes: 42",
  target: "A",
  metadata: { a: "x", retrieved: ["a", "b"], relevant: ["a"], _choices: ["a", "b"], _choices_logprobs: [-1, -2] },
});

/** The scorer's result, or the Python exception type it raised; anything untyped fails the test. */
function outcome(fn: (s: never) => unknown, sample: Record<string, unknown>): unknown {
  try {
    const r = fn(sample as never) as Record<string, unknown>;
    for (const v of Object.values(r)) if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
    return r;
  } catch (e) {
    if (!EvalkernError.isInstance(e)) throw new Error(`untyped error: ${String(e)}`);
    return { error: e instanceof PythonCompatError ? e.pythonType : (e as Error).name };
  }
}

describe("null-prototype objects behave as the same plain object (a Python dict)", () => {
  const pairs: [string, () => unknown, () => unknown][] = [
    ["empty", () => Object.create(null), () => ({})],
    ["with keys", () => nullProto({ a: 1, b: "x" }), () => ({ a: 1, b: "x" })],
    ["nested", () => nullProto({ inner: nullProto({ k: [1, nullProto({})] }) }), () => ({ inner: { k: [1, {}] } })],
    [
      "retrieval payload",
      () => nullProto({ retrieved: ["a"], relevant: ["a"], k: 1 }),
      () => ({ retrieved: ["a"], relevant: ["a"], k: 1 }),
    ],
    [
      "mc payload",
      () => nullProto({ _choices: ["a", "b"], _choices_logprobs: [-2, -1] }),
      () => ({ _choices: ["a", "b"], _choices_logprobs: [-2, -1] }),
    ],
  ];
  for (const [name, fn] of Object.entries(SCORERS)) {
    test(`${name}`, () => {
      for (const field of FIELDS) {
        for (const [label, odd, plain] of pairs) {
          const a = base();
          a[field] = odd();
          const b = base();
          b[field] = plain();
          expect(outcome(fn, a), `${name} ${field} ${label}`).toEqual(outcome(fn, b));
        }
      }
    });
  }

  test("the cases of the issue: no `v.valueOf is not a function`", () => {
    const response = Object.create(null);
    expect(byob.chrf({ response, target: "x", metadata: {} })).toEqual({ chrf: 0, chrf_pp: 0 }); // falsy → ""
    expect(byob.booleanYesno({ response, target: true, metadata: {} })).toEqual({ correct: false, parsed: false });
    expect(byob.gsm8kAnswer({ response, target: nullProto({}), metadata: {} })).toEqual({ correct: false, parsed: false });
    expect(byob.mcqLetterExtract({ response, target: "A", metadata: {} })).toEqual({ correct: false, parsed: false });
    // a non-empty dict response: Python calls a str method on it and raises
    const dict = nullProto({ text: "A" });
    expect(outcome(byob.chrf, { response: dict, target: "x", metadata: {} })).toEqual({ error: "TypeError" });
    expect(outcome(byob.booleanYesno, { response: dict, target: true, metadata: {} })).toEqual({ error: "AttributeError" });
    expect(outcome(byob.gsm8kAnswer, { response: dict, target: 1, metadata: {} })).toEqual({ error: "TypeError" });
    expect(outcome(byob.mcqLetterExtract, { response: dict, target: "A", metadata: {} })).toEqual({ error: "AttributeError" });
    // as a target, str() of a dict: "{'text': 'A'}"
    expect(byob.contains({ response: "{'text': 'a'}", target: dict, metadata: {} })).toEqual({ correct: true });
  });
});

describe("other odd JS values end in a result or a typed error", () => {
  class Point {
    x = 1;
  }
  const ODD: Record<string, () => unknown> = {
    undefined: () => undefined,
    NaN: () => NaN,
    Infinity: () => -Infinity,
    negZero: () => -0,
    bigint: () => 12345678901234567890n,
    symbol: () => Symbol("s"),
    function: () => () => 1,
    map: () => new Map([[1, 2]]),
    set: () => new Set([1]),
    date: () => new Date(0),
    instance: () => new Point(),
    bytes: () => new Uint8Array([1, 2]),
    ownValueOf: () => ({ valueOf: 3, toString: "no" }),
    arrayOfNullProto: () => [Object.create(null), 1],
  };
  for (const [name, fn] of Object.entries(SCORERS)) {
    test(`${name}`, () => {
      for (const field of FIELDS) {
        for (const make of Object.values(ODD)) {
          const s = base();
          s[field] = make();
          outcome(fn, s);
        }
      }
    });
  }
});
