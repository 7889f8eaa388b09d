// Behaviour of the evalwire evaluators beyond the golden lines: input forms, typed errors, the
// regex guard, schema dialects and big ints. Python outcomes were checked against evalwire 0.6.0
// on CPython 3.11 with jsonschema 4.26.
import { describe, expect, it } from "vitest";
import { EvalkernError, InvalidArgumentError } from "../../src/errors.js";
import {
  PyBytes,
  PyDict,
  PySet,
  PyTuple,
  PythonCompatError,
  PythonRegexError,
  RegexBudgetExceededError,
  makeContainsEvaluator,
  makeExactMatchEvaluator,
  makeJsonMatchEvaluator,
  makeMembershipEvaluator,
  makeNumericToleranceEvaluator,
  makeRegexEvaluator,
  makeSchemaEvaluator,
  makeTopKEvaluator,
  parseExpected,
} from "../../src/evalwire/index.js";

const pythonType = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof PythonCompatError ? error.pythonType : `JS ${(error as Error).name}`;
  }
};

describe("parseExpected", () => {
  it("reads the three shapes of expected_output", () => {
    expect(parseExpected({})).toEqual([]);
    expect(parseExpected({ expected_output: ["a", 1] })).toEqual(["a", 1]);
    expect(parseExpected({ expected_output: "('a', 'b')" })).toEqual(["a", "b"]);
    expect(parseExpected({ expected_output: "x|y" })).toEqual(["x|y"]);
    expect(parseExpected({ expected_output: "{'a','b'}" })).toEqual([new PySet(["a", "b"])]);
    expect(parseExpected({ expected_output: '{"a": true}' })).toEqual(['{"a": true}']);
    expect(parseExpected({ expected_output: null })).toEqual([null]);
    expect(parseExpected({ expected_output: undefined })).toEqual([]);
    expect(parseExpected(new Map([["expected_output", "[1]"]]))).toEqual([1]);
    expect(parseExpected(new PyDict([["expected_output", "[1]"]]))).toEqual([1]);
  });

  it("keeps Python's int/float apart on request", () => {
    expect(parseExpected({ expected_output: "[1, 1.0, 2**1]" })).toEqual(["[1, 1.0, 2**1]"]);
    expect(parseExpected({ expected_output: "[1, 1.0]" }, { ints: "bigint" })).toEqual([1n, 1]);
  });

  it("raises what _parse_expected raises", () => {
    expect(pythonType(() => parseExpected(null))).toBe("AttributeError");
    expect(pythonType(() => parseExpected(["expected_output"]))).toBe("AttributeError");
    expect(pythonType(() => parseExpected("a"))).toBe("AttributeError");
    expect(pythonType(() => parseExpected({ expected_output: "{[1]: 2}" }))).toBe("TypeError");
    expect(pythonType(() => parseExpected({ expected_output: "[{}, {{}}]" }))).toBe("TypeError");
  });
});

describe("evaluators", () => {
  it("carry the Python function names", () => {
    expect(
      [
        makeTopKEvaluator(),
        makeMembershipEvaluator(),
        makeExactMatchEvaluator(),
        makeContainsEvaluator(),
        makeRegexEvaluator(),
        makeJsonMatchEvaluator(),
        makeSchemaEvaluator({}),
        makeNumericToleranceEvaluator(),
      ].map((fn) => fn.name),
    ).toEqual(["top_k", "is_in", "exact_match", "contains", "regex_match", "json_match", "schema_valid", "numeric_close"]);
  });

  it("top_k follows list.index, str.index and Python slicing", () => {
    const topK = makeTopKEvaluator(20);
    expect(topK(["a", "b"], { expected_output: ["b", "b", "z"] })).toBe(0.6333333333333333);
    expect(topK(new PyTuple(["x", 1]), { expected_output: "[True]" })).toBe(0.95);
    expect(topK("cab", { expected_output: "['ab']" })).toBe(0.95);
    expect(topK("😀ab", { expected_output: "['a']" })).toBe(0.95);
    // output[:-1] drops "c"; "b" scores 1 - 1/(-1) = 2.
    expect(makeTopKEvaluator(-1)(["a", "b", "c"], { expected_output: ["c", "b"] })).toBe(1);
    expect(makeTopKEvaluator(0)([], { expected_output: ["a"] })).toBe(0);
    expect(pythonType(() => makeTopKEvaluator(0)("abc", { expected_output: "['']" }))).toBe("ZeroDivisionError");
    expect(pythonType(() => makeTopKEvaluator(2.5)(["a"], { expected_output: ["a"] }))).toBe("TypeError");
    expect(pythonType(() => topK({ a: 1 }, { expected_output: ["a"] }))).toBe("TypeError");
    expect(pythonType(() => topK(5, { expected_output: ["a"] }))).toBe("TypeError");
    expect(pythonType(() => topK("abc", { expected_output: "[1]" }))).toBe("TypeError");
    expect(topK(new PyBytes(Uint8Array.from([1, 2])), { expected_output: "[2, 300]" })).toBe(0.475);
  });

  it("membership and exact_match use Python equality", () => {
    const isIn = makeMembershipEvaluator();
    expect(isIn(1, { expected_output: "[1, 2]" })).toBe(true);
    expect(isIn("1", { expected_output: "[1, 2]" })).toBe(false);
    expect(isIn(true, { expected_output: "[1.0]" })).toBe(true);
    expect(isIn(NaN, { expected_output: [NaN] })).toBe(false);
    expect(isIn(undefined, { expected_output: [null] })).toBe(false);
    const exact = makeExactMatchEvaluator();
    expect(exact(["a"], { expected_output: "[['a']]" })).toBe(true);
    expect(exact(new PyTuple(["a"]), { expected_output: "[['a']]" })).toBe(false);
    expect(exact(null, { expected_output: "None" })).toBe(false);
  });

  it("contains follows Python's `in` for every output type", () => {
    const contains = makeContainsEvaluator();
    expect(contains(["a", "b"], { expected_output: "['b']" })).toBe(true);
    expect(contains({ k: 1 }, { expected_output: "k" })).toBe(true);
    expect(contains(new PySet([1]), { expected_output: "[True]" })).toBe(true);
    expect(pythonType(() => contains({ k: 1 }, { expected_output: "[[1]]" }))).toBe("TypeError");
    expect(pythonType(() => contains(42, { expected_output: "4" }))).toBe("TypeError");
    expect(pythonType(() => contains(new PyBytes(Uint8Array.from([1])), { expected_output: "[300]" }))).toBe("ValueError");
  });

  it("regex raises re.error and TypeError in Python's order", () => {
    const regex = makeRegexEvaluator();
    expect(regex("a\nb", { expected_output: ["a$"] })).toBe(false);
    expect(regex("ab\n", { expected_output: ["b$"] })).toBe(true);
    expect(regex("écat", { expected_output: ["\\bcat"] })).toBe(false);
    expect(regex("straße", { expected_output: ["(?i)STRASSE"] })).toBe(false);
    expect(regex("x", { expected_output: "0" })).toBe(false);
    const reError = (() => {
      try {
        regex(5, { expected_output: "(" });
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(reError).toBeInstanceOf(PythonRegexError);
    expect((reError as PythonCompatError).pythonType).toBe("re.error");
    expect(pythonType(() => regex(5, { expected_output: "a" }))).toBe("TypeError");
    expect(pythonType(() => regex("a", { expected_output: "42" }))).toBe("TypeError");
    expect(pythonType(() => regex("a", { expected_output: "b'a'" }))).toBe("TypeError");
  });

  it("regex cannot hang a run", () => {
    const regex = makeRegexEvaluator();
    const started = Date.now();
    expect(regex("a".repeat(100_000), { expected_output: ["(a+)+b"] })).toBe(false);
    let thrown: unknown;
    try {
      regex("a".repeat(40) + "c", { expected_output: ["(a*)*\\1b"] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RegexBudgetExceededError);
    expect(EvalkernError.isInstance(thrown)).toBe(true);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("json_match compares exact ints, null against missing keys, and counts duplicate keys", () => {
    expect(makeJsonMatchEvaluator()('{"a": 12345678901234567890}', { expected_output: ['{"a": 12345678901234567891}'] })).toBe(0);
    expect(makeJsonMatchEvaluator()("{}", { expected_output: ['{"a": null}'] })).toBe(1);
    expect(makeJsonMatchEvaluator(["a", "a", "b"])('{"a": true}', { expected_output: ['{"a": 1, "b": 2}'] })).toBe(2 / 3);
    expect(makeJsonMatchEvaluator()('{"a": [NaN]}', { expected_output: ['{"a": [NaN]}'] })).toBe(1);
    expect(makeJsonMatchEvaluator()('{"a": NaN}', { expected_output: ['{"a": NaN}'] })).toBe(0);
    expect(makeJsonMatchEvaluator()(new PyBytes(new TextEncoder().encode('{"a": 1}')), { expected_output: "[b'{\"a\": 1}']" })).toBe(1);
    expect(pythonType(() => makeJsonMatchEvaluator([["a"]])("{}", { expected_output: ['{"a": 1}'] }))).toBe("TypeError");
    expect(pythonType(() => makeJsonMatchEvaluator()("{}", { expected_output: ["1".repeat(5000)] }))).toBe("ValueError");
    expect(() => makeJsonMatchEvaluator("a" as never)).toThrow(InvalidArgumentError);
  });

  it("numeric_tolerance follows float() and raises OverflowError as Python does", () => {
    const close = makeNumericToleranceEvaluator();
    expect(close("\u3000١٦\u00a0", { expected_output: "0x10" })).toBe(true);
    expect(close("inf", { expected_output: "1e400" })).toBe(false);
    expect(close(true, { expected_output: "1" })).toBe(true);
    expect(close([1], { expected_output: "1" })).toBe(false);
    expect(pythonType(() => close("1", { expected_output: "1" + "0".repeat(400) }))).toBe("OverflowError");
    expect(() => makeNumericToleranceEvaluator("1" as never)).toThrow(InvalidArgumentError);
  });
});

describe("makeSchemaEvaluator", () => {
  it("applies python-jsonschema's keyword rules", () => {
    const valid = makeSchemaEvaluator({ type: "integer", multipleOf: 3, maximum: 10 });
    expect(valid("9", {})).toBe(true);
    expect(valid("9.0", {})).toBe(true);
    expect(valid("12", {})).toBe(false);
    expect(valid("true", {})).toBe(false);
    expect(valid("Infinity", {})).toBe(false);
    expect(makeSchemaEvaluator({ type: "number", minimum: 1 })("NaN", {})).toBe(true);
    // Exact int arithmetic: the digit sums are 91 and 90 (the doubles of both are equal).
    expect(makeSchemaEvaluator({ multipleOf: 3 })("12345678901234567891", {})).toBe(false);
    expect(makeSchemaEvaluator({ multipleOf: 3 })("12345678901234567890", {})).toBe(true);
    expect(makeSchemaEvaluator({ multipleOf: 7 })("12345678901234567891", {})).toBe(false);
    expect(makeSchemaEvaluator({ const: 12345678901234567891n })("12345678901234567890", {})).toBe(false);
    expect(makeSchemaEvaluator({ enum: [[1], { a: 1 }] })("[true]", {})).toBe(false);
    expect(makeSchemaEvaluator({ enum: [[1], { a: 1 }] })('{"a": 1.0}', {})).toBe(true);
    expect(makeSchemaEvaluator({ type: "string", pattern: "^\\d+$" })('"१२"', {})).toBe(true);
    expect(makeSchemaEvaluator({ type: "string", format: "email" })('"nope"', {})).toBe(true);
    expect(makeSchemaEvaluator({ $ref: "#/definitions/a", type: "string", definitions: { a: { type: "integer" } } })("1", {})).toBe(true);
  });

  it("raises where jsonschema raises, lazily", () => {
    const cents = makeSchemaEvaluator({ multipleOf: 0.01 });
    expect(pythonType(() => cents("NaN", {}))).toBe("ValueError");
    expect(pythonType(() => cents("Infinity", {}))).toBe("OverflowError");
    // 1e308 / 0.01 overflows; jsonschema 4.26 then decides with exact fractions.
    expect(cents("1e308", {})).toBe(false);
    expect(cents("1e300", {})).toBe(true);
    const badPattern = makeSchemaEvaluator({ pattern: "(" });
    expect(badPattern("1", {})).toBe(true);
    expect(pythonType(() => badPattern('"a"', {}))).toBe("re.error");
    expect(pythonType(() => makeSchemaEvaluator({ type: "float" })("1", {}))).toBe("jsonschema.exceptions.UnknownType");
    expect(makeSchemaEvaluator({ type: "float" })(null, {})).toBe(false);
  });

  it("reads draft 7 by default and 2020-12 when the schema declares it", () => {
    const tuple = { $schema: "https://json-schema.org/draft/2020-12/schema", prefixItems: [{ type: "integer" }], items: false };
    expect(makeSchemaEvaluator(tuple)("[1]", {})).toBe(true);
    expect(makeSchemaEvaluator(tuple)("[1, 2]", {})).toBe(false);
    expect(makeSchemaEvaluator(tuple)('["a"]', {})).toBe(false);
    // evalwire's Draft7Validator ignores prefixItems and reads `items: false` as "no items".
    expect(makeSchemaEvaluator(tuple, { dialect: "draft-07" })("[1]", {})).toBe(false);
    expect(makeSchemaEvaluator(tuple, { dialect: "draft-07" })("[]", {})).toBe(true);
  });

  it("rejects what cannot be a schema at the factory", () => {
    expect(() => makeSchemaEvaluator([] as never)).toThrow(InvalidArgumentError);
    expect(() => makeSchemaEvaluator({ $ref: "https://example.com/missing.json" })).toThrow(InvalidArgumentError);
    expect(() => makeSchemaEvaluator({}, { dialect: "draft-04" as never })).toThrow(InvalidArgumentError);
    expect(makeSchemaEvaluator(true)("[]", {})).toBe(true);
    expect(makeSchemaEvaluator(false)("[]", {})).toBe(false);
  });
});
