// autoevals ExactMatch (js/value.ts) and ValidJSON (js/json.ts): expected values follow autoevals' rules
// worked by hand — JSON normalisation only when a side is an object, array or null; ValidJSON without a
// schema only for objects and arrays; with one (ajv, draft-07) for whatever the schema accepts.
import { beforeAll, describe, expect, it } from "vitest";
import { ExactMatch, ValidJSON, normalizeValue, ready } from "../../src/common/index.js";
import { InvalidArgumentError } from "../../src/errors.js";
import { lexicalMetric, loadMetrics, metricSpec } from "../../src/registry/index.js";

beforeAll(async () => {
  await ready();
  await loadMetrics(["autoevals-exact-match", "valid-json"]);
});

describe("ExactMatch", () => {
  it("compares scalars by their string form", () => {
    expect(ExactMatch({ output: "Paris", expected: "Paris" })).toEqual({ name: "ExactMatch", score: 1, metadata: {} });
    expect(ExactMatch({ output: "Paris", expected: "paris" }).score).toBe(0);
    expect(ExactMatch({ output: 1, expected: "1" }).score).toBe(1);
    expect(ExactMatch({ output: true, expected: "true" }).score).toBe(1);
    // two strings are never parsed: spacing counts
    expect(ExactMatch({ output: '{"a":1}', expected: '{"a": 1}' }).score).toBe(0);
  });

  it("normalises through JSON when a side is an object, an array or null", () => {
    expect(ExactMatch({ output: '{"a": [1, 2]}', expected: { a: [1, 2] } }).score).toBe(1);
    expect(ExactMatch({ output: { a: 1, b: 2 }, expected: { b: 2, a: 1 } }).score).toBe(0); // key order counts
    expect(ExactMatch({ output: [1, 2], expected: "[1,2]" }).score).toBe(1);
    expect(ExactMatch({ output: [1, 2], expected: "not json" }).score).toBe(0);
    // absent is null, and null needs JSON: the string "null" parses to null
    expect(ExactMatch({ output: "null" }).score).toBe(1);
    expect(ExactMatch({ output: undefined, expected: null }).score).toBe(1);
    expect(ExactMatch({ output: "", expected: null }).score).toBe(0);
    expect(normalizeValue(" [1, 2 ] ", true)).toBe("[1,2]");
    expect(normalizeValue(" [1, 2 ] ", false)).toBe(" [1, 2 ] ");
  });

  it("refuses values JSON cannot hold", () => {
    expect(() => ExactMatch({ output: 1n, expected: 1 })).toThrow(InvalidArgumentError);
    expect(() => ExactMatch({ output: () => 1, expected: 1 })).toThrow(InvalidArgumentError);
  });
});

describe("ValidJSON", () => {
  it("without a schema: objects and arrays only", () => {
    expect(ValidJSON({ output: '{"a": 1}' })).toEqual({ name: "ValidJSON", score: 1, metadata: {} });
    expect(ValidJSON({ output: "[1, 2]" }).score).toBe(1);
    for (const text of ["42", '"str"', "true", "null", "{a: 1}", "", '{"a": 1']) expect(ValidJSON({ output: text }).score, text).toBe(0);
  });

  it("with a schema: whatever the schema accepts", () => {
    const schema = { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name"] };
    expect(ValidJSON({ output: '{"name": "Ada", "age": 36}', schema })).toEqual({ name: "ValidJSON", score: 1, metadata: { schema } });
    expect(ValidJSON({ output: '{"age": 36}', schema }).score).toBe(0);
    expect(ValidJSON({ output: '{"name": "Ada", "age": 36.5}', schema }).score).toBe(0);
    expect(ValidJSON({ output: "42", schema: { type: "integer" } }).score).toBe(1);
    expect(ValidJSON({ output: "not json", schema: { type: "string" } }).score).toBe(0);
  });

  it("a schema ajv cannot compile is a typed error, not a 0", () => {
    expect(() => ValidJSON({ output: "{}", schema: { type: "no-such-type" } })).toThrow(InvalidArgumentError);
    expect(() => ValidJSON({ output: "{}", schema: "object" })).toThrow(InvalidArgumentError);
  });
});

describe("registry pair rules", () => {
  it("autoevals-exact-match: 1 when any reference is the same text", () => {
    const m = lexicalMetric("autoevals-exact-match");
    const hyps = ["Paris", "paris", "42"];
    const refs = [["Lyon", "Paris"], ["Paris"], ["42.0"]];
    expect(Array.from(m.rowValues(m.statistics(hyps, refs), 3))).toEqual([1, 0, 0]);
    const spec = metricSpec("autoevals-exact-match");
    expect(spec).toMatchObject({ module: "@evalkern/metrics/registry/rules", export: "autoevalsExactMatch" });
  });

  it("valid-json: the hypothesis alone, with an optional schema as JSON text", () => {
    const plain = lexicalMetric("valid-json");
    const hyps = ['{"a": 1}', "42", "oops"];
    const refs = [[""], [""], [""]];
    expect(Array.from(plain.rowValues(plain.statistics(hyps, refs), 3))).toEqual([1, 0, 0]);
    const typed = lexicalMetric("valid-json", { schema: '{"type": "integer"}' });
    expect(Array.from(typed.rowValues(typed.statistics(hyps, refs), 3))).toEqual([0, 1, 0]);
  });
});
