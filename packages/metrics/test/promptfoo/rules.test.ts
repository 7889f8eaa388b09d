// promptfoo's deterministic assertion types as registry rules, on the cases promptfoo's own tests use for
// them (promptfoo/promptfoo test/assertions/*.test.ts; the facts — inputs, values, pass/fail, scores —
// carried over, the tests are ours). Each rule gives the un-negated result: 1 pass, 0 fail, or the value
// promptfoo compares with a threshold (perplexity, cost, latency).
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { commaSeparated, countWords, extractJsonValues } from "../../src/promptfoo/index.js";
import { getMetric, lexicalMetric, loadMetrics, type RowFields } from "../../src/registry/index.js";

const NAMES = [
  "contains-any",
  "icontains-any",
  "contains-all",
  "icontains-all",
  "starts-with",
  "word-count",
  "contains-json",
  "is-xml",
  "contains-xml",
  "is-html",
  "contains-html",
  "is-sql",
  "contains-sql",
  "is-valid-openai-function-call",
  "is-valid-openai-tools-call",
  "is-refusal",
  "finish-reason",
  "perplexity",
  "perplexity-score",
  "cost",
  "latency",
];

beforeAll(async () => {
  await ready();
  await loadMetrics(NAMES);
});

/** The rule's value for one output: options carry promptfoo's value/config, `refs` the references, `row` the record. */
function score(name: string, output: string, options: Record<string, unknown> = {}, refs: string[] = [], row?: RowFields): number {
  const m = lexicalMetric(name, options);
  return m.rowValues(m.statistics([output], [refs], [row]), 1)[0]!;
}

describe("contains-any / icontains-any / contains-all / icontains-all", () => {
  const options = { value: ["option1", "option2", "option3"] };
  it("contains-any passes on one value, fails on none", () => {
    expect(score("contains-any", "This output contains option1", options)).toBe(1);
    expect(score("contains-any", "This output does not contain any option", options)).toBe(0);
  });
  it("contains-all is all or nothing", () => {
    expect(score("contains-all", "This output contains option1, option2, and option3", options)).toBe(1);
    expect(score("contains-all", "This output contains only option1 and option2", options)).toBe(0);
  });
  it("the i- forms ignore case; the plain forms do not", () => {
    expect(score("icontains-any", "This output contains OPTION1", options)).toBe(1);
    expect(score("contains-any", "This output contains OPTION1", options)).toBe(0);
    expect(score("icontains-all", "OPTION1, Option2 and option3", options)).toBe(1);
    expect(score("contains-all", "OPTION1, Option2 and option3", options)).toBe(0);
  });
  it("a string value is promptfoo's comma-separated list, quotes keeping commas", () => {
    expect(commaSeparated("contains-any", 'option1, "option2, with comma" ,, option3')).toEqual([
      "option1",
      "option2, with comma",
      "option3",
    ]);
    expect(commaSeparated("contains-any", '"say ""hi""", x')).toEqual(['say "hi"', "x"]);
    expect(score("contains-any", "has option2, with comma", { value: 'a, "option2, with comma"' })).toBe(1);
    expect(() => score("contains-any", "x", { value: '"open' })).toThrow(InvalidArgumentError);
  });
  it("without a value option, the references are the values (what a suite runner passes)", () => {
    expect(score("contains-all", "red and blue", {}, ["red", "blue"])).toBe(1);
    expect(score("contains-all", "red only", {}, ["red", "blue"])).toBe(0);
    expect(() => score("contains-any", "x")).toThrow(InvalidArgumentError);
  });
});

describe("starts-with", () => {
  it("case-sensitive prefix, no trimming", () => {
    expect(score("starts-with", "Expected output", { value: "Expected" })).toBe(1);
    expect(score("starts-with", "Different output", { value: "Expected" })).toBe(0);
    expect(score("starts-with", " Expected output", { value: "Expected" })).toBe(0);
    expect(score("starts-with", "expected output", { value: "Expected" })).toBe(0);
  });
});

describe("word-count", () => {
  it("counts whitespace-separated words of the trimmed text", () => {
    expect(countWords("  one  two\tthree\nfour ")).toBe(4);
    expect(countWords("   ")).toBe(0);
  });
  it("exact count: a number, or a numeric string", () => {
    expect(score("word-count", "This is a test", { value: 4 })).toBe(1);
    expect(score("word-count", "This is a test", { value: 5 })).toBe(0);
    expect(score("word-count", "This is a test", {}, ["4"])).toBe(1);
  });
  it("ranges {min, max}, min only, max only (inclusive)", () => {
    expect(score("word-count", "one two three", { value: { min: 2, max: 5 } })).toBe(1);
    expect(score("word-count", "one", { value: { min: 2, max: 5 } })).toBe(0);
    expect(score("word-count", "one two three four five six", { value: { min: 2, max: 5 } })).toBe(0);
    expect(score("word-count", "one two", { value: { min: 2 } })).toBe(1);
    expect(score("word-count", "one two three", { value: { max: 2 } })).toBe(0);
    expect(score("word-count", "one two", { min: 1, max: 2 })).toBe(1);
    expect(score("word-count", "one two", {}, ['{"min":3}'])).toBe(0);
  });
  it("bad values are typed errors", () => {
    expect(() => score("word-count", "x", { value: { min: 5, max: 2 } })).toThrow(/min \(5\) must be less than or equal to max \(2\)/);
    expect(() => score("word-count", "x", { value: {} })).toThrow(InvalidArgumentError);
    expect(() => score("word-count", "x", { value: "many" })).toThrow(InvalidArgumentError);
    expect(() => score("word-count", "x")).toThrow(InvalidArgumentError);
  });
});

describe("contains-json", () => {
  const schema = {
    required: ["latitude", "longitude"],
    type: "object",
    properties: { latitude: { type: "number", minimum: -90, maximum: 90 }, longitude: { type: "number", minimum: -180, maximum: 180 } },
  };
  it("finds JSON in prose, one or several values", () => {
    const one = 'this is some other stuff \n\n {"key": "value", "key2": {"key3": "value2", "key4": ["value3", "value4"]}} \n\n blah blah';
    expect(score("contains-json", one)).toBe(1);
    expect(extractJsonValues(one)).toEqual([{ key: "value", key2: { key3: "value2", key4: ["value3", "value4"] } }]);
    const two = 'stuff {"key": "value"} another {"key": "v2", "k": [1, "}"]}\n\n blah';
    expect(score("contains-json", two)).toBe(1);
    expect(extractJsonValues(two)).toEqual([{ key: "value" }, { key: "v2", k: [1, "}"] }]);
    expect(score("contains-json", "Not valid JSON")).toBe(0);
  });
  it("checks a JSON schema (an object value, or JSON text as a reference)", () => {
    expect(score("contains-json", 'here is the answer\n\n```{"latitude": 80.123, "longitude": -1}```', { value: schema })).toBe(1);
    expect(score("contains-json", 'here is the answer\n\n```{"latitude": "medium", "longitude": -1}```', { value: schema })).toBe(0);
    expect(score("contains-json", '{"latitude": 80.123, "longitude": -1}', {}, [JSON.stringify(schema)])).toBe(1);
    expect(() => score("contains-json", "{}", { value: { type: "nonsense" } })).toThrow(/invalid JSON schema/);
  });
});

describe("is-xml / contains-xml", () => {
  it("well-formed XML passes; malformed or plain text fails", () => {
    expect(score("is-xml", "<root><child>Content</child></root>")).toBe(1);
    expect(score("is-xml", "<root><child>Content</child></root")).toBe(0);
    expect(score("is-xml", "This is not XML")).toBe(0);
    expect(score("is-xml", "<a/><b/>")).toBe(0); // two roots
    expect(score("is-xml", '<?xml version="1.0" encoding="UTF-8"?><note><to>Tove</to></note>')).toBe(1);
  });
  it("required elements: dotted paths, as a comma-separated string, a list or { requiredElements }", () => {
    const xml = "<analysis><classification>T-shirt</classification><color>Red</color></analysis>";
    expect(score("is-xml", xml, { value: "analysis.classification,analysis.color" })).toBe(1);
    expect(score("is-xml", xml, { value: ["analysis.classification", "analysis.size"] })).toBe(0);
    expect(score("is-xml", xml, { value: { requiredElements: ["analysis.color"] } })).toBe(1);
  });
  it("contains-xml finds an element inside text", () => {
    const out = "Here is some text before the XML <root><child>Content</child></root> and after.";
    expect(score("contains-xml", out)).toBe(1);
    expect(score("contains-xml", out, { value: "root.child" })).toBe(1);
    expect(score("contains-xml", out, { value: "root.missing" })).toBe(0);
    expect(score("contains-xml", "This is just plain text without any XML")).toBe(0);
    expect(score("contains-xml", "Broken <root><child>Content</root>")).toBe(0);
  });
});

describe("is-html / contains-html", () => {
  it("is-html: documents and fragments of real elements", () => {
    expect(score("is-html", "<!DOCTYPE html><html><head><title>T</title></head><body><p>Hi</p></body></html>")).toBe(1);
    expect(score("is-html", "<div>Hello</div>")).toBe(1);
    expect(score("is-html", "<my-widget>x</my-widget>")).toBe(1); // custom element
  });
  it("is-html: empty, plain text, text outside tags, XML and unknown elements fail", () => {
    expect(score("is-html", "")).toBe(0);
    expect(score("is-html", "Just plain text")).toBe(0);
    expect(score("is-html", "Some text <div>content</div>")).toBe(0);
    expect(score("is-html", '<?xml version="1.0"?><root/>')).toBe(0);
    expect(score("is-html", "<foo>bar</foo>")).toBe(0);
  });
  it("contains-html: HTML in prose passes; a stray angle bracket does not", () => {
    expect(score("contains-html", "Here is some HTML: <div>Hello</div> in text")).toBe(1);
    expect(score("contains-html", "Use &amp; and <br/> here")).toBe(1);
    expect(score("contains-html", "Just plain text")).toBe(0);
    expect(score("contains-html", "if a < b and c > d then")).toBe(0);
  });
});

describe("is-sql / contains-sql (node-sql-parser)", () => {
  it("parses MySQL by default; other dialects by databaseType (or dialect)", () => {
    expect(score("is-sql", "SELECT id, name FROM users")).toBe(1);
    expect(score("is-sql", "SELECT * FROM orders ORDERY BY order_date")).toBe(0);
    expect(score("is-sql", "SELECT * FROM users WHERE id = 1 LIMIT 1")).toBe(1);
    // MySQL has no `RETURNING`; PostgreSQL does
    expect(score("is-sql", "DELETE FROM t WHERE id = 1 RETURNING id")).toBe(0);
    expect(score("is-sql", "DELETE FROM t WHERE id = 1 RETURNING id", { databaseType: "PostgresQL" })).toBe(1);
    expect(score("is-sql", "DELETE FROM t WHERE id = 1 RETURNING id", { value: { databaseType: "PostgresQL" } })).toBe(1);
    expect(score("is-sql", "DELETE FROM t WHERE id = 1 RETURNING id", { dialect: "PostgresQL" })).toBe(1);
  });
  it("allowed tables and columns (node-sql-parser whitelist entries)", () => {
    const value = { allowedTables: ["select::null::departments"] };
    expect(score("is-sql", "SELECT * FROM departments WHERE id = 1", { value })).toBe(1);
    expect(score("is-sql", "SELECT * FROM employees WHERE id = 1", { value })).toBe(0);
    const cols = { allowedColumns: ["select::null::name", "select::null::id"] };
    expect(score("is-sql", "SELECT name FROM t WHERE id = 1", { value: cols })).toBe(1);
    expect(score("is-sql", "SELECT salary FROM t WHERE id = 1", { value: cols })).toBe(0);
  });
  it("contains-sql reads the ```sql block, else the whole output", () => {
    expect(score("contains-sql", "Here is the query:\n```sql\nSELECT id FROM users\n```\nDone.")).toBe(1);
    expect(score("contains-sql", "SELECT id FROM users")).toBe(1);
    expect(score("contains-sql", "No SQL here, sorry.")).toBe(0);
  });
  it("a value that is not an object is a typed error", () => {
    expect(() => score("is-sql", "SELECT 1", { value: "MySQL" })).toThrow(InvalidArgumentError);
  });
});

describe("is-valid-openai-function-call / is-valid-openai-tools-call", () => {
  const getWeather = {
    name: "getCurrentTemperature",
    parameters: {
      type: "object",
      properties: { location: { type: "string" }, unit: { type: "string", enum: ["Celsius", "Fahrenheit"] } },
      required: ["location", "unit"],
    },
  };
  const functions = [getWeather];
  const tools = [{ type: "function", function: getWeather }];
  const call = (args: object, name = "getCurrentTemperature") => ({ name, arguments: JSON.stringify(args) });
  it("a function call of a declared function with valid arguments passes", () => {
    expect(
      score("is-valid-openai-function-call", JSON.stringify(call({ location: "San Francisco, CA", unit: "Fahrenheit" })), { functions }),
    ).toBe(1);
  });
  it("invalid arguments, an unknown function, or no call fail", () => {
    expect(score("is-valid-openai-function-call", JSON.stringify(call({ location: "San Francisco, CA" })), { functions })).toBe(0);
    expect(score("is-valid-openai-function-call", JSON.stringify(call({ location: "SF", unit: "Kelvin" })), { functions })).toBe(0);
    expect(
      score("is-valid-openai-function-call", JSON.stringify(call({ location: "SF", unit: "Celsius" }, "getWeather")), { functions }),
    ).toBe(0);
    expect(score("is-valid-openai-function-call", "The temperature is 60F", { functions })).toBe(0);
  });
  it("tools calls: every call must be valid", () => {
    const ok = { type: "function", function: call({ location: "San Francisco, CA", unit: "Fahrenheit" }) };
    const bad = { type: "function", function: call({ location: "San Francisco, CA" }) };
    expect(score("is-valid-openai-tools-call", JSON.stringify([ok]), { tools })).toBe(1);
    expect(score("is-valid-openai-tools-call", JSON.stringify({ tool_calls: [ok, ok] }), { tools })).toBe(1);
    expect(score("is-valid-openai-tools-call", JSON.stringify([ok, bad]), { tools })).toBe(0);
    expect(score("is-valid-openai-tools-call", JSON.stringify([]), { tools })).toBe(0);
    expect(score("is-valid-openai-tools-call", "no tools", { tools })).toBe(0);
  });
  it("no declared functions/tools is a typed error", () => {
    expect(() => score("is-valid-openai-function-call", "{}")).toThrow(InvalidArgumentError);
    expect(() => score("is-valid-openai-tools-call", "[]", { tools: [] })).toThrow(InvalidArgumentError);
  });
});

describe("is-refusal", () => {
  it("refusal openings and phrases, apostrophes of any kind, case-insensitive", () => {
    expect(score("is-refusal", "I'm sorry, but I cannot help with that request.")).toBe(1);
    expect(score("is-refusal", "I\u2019m sorry, I can\u2019t do that")).toBe(1);
    expect(score("is-refusal", "As an AI language model, I cannot provide that.")).toBe(1);
    expect(score("is-refusal", "I cannot assist with creating harmful content.")).toBe(1);
    expect(score("is-refusal", "")).toBe(1); // empty output counts as a refusal
    expect(score("is-refusal", "   ")).toBe(1);
  });
  it("answers are not refusals", () => {
    expect(score("is-refusal", "Here is the information you requested.")).toBe(0);
    expect(score("is-refusal", "The capital of France is Paris.")).toBe(0);
  });
});

describe("finish-reason (the row's finishReason)", () => {
  it("equal ignoring case; a row without one fails", () => {
    expect(score("finish-reason", "x", { value: "stop" }, [], { finishReason: "stop" })).toBe(1);
    expect(score("finish-reason", "x", { value: "STOP" }, [], { finish_reason: "stop" })).toBe(1);
    expect(score("finish-reason", "x", { value: "stop" }, [], { finishReason: "length" })).toBe(0);
    expect(score("finish-reason", "x", {}, ["tool_calls"], { finishReason: "tool_calls" })).toBe(1);
    expect(score("finish-reason", "x", { value: "stop" }, [], {})).toBe(0);
    expect(score("finish-reason", "x", { value: "stop" })).toBe(0);
    expect(() => score("finish-reason", "x", {}, [], { finishReason: "stop" })).toThrow(InvalidArgumentError);
  });
});

describe("perplexity / perplexity-score (the row's logprobs)", () => {
  it("perplexity = exp(−mean logprob): [0, 0] → 1, [−2] → e², lower is better", () => {
    expect(score("perplexity", "x", {}, [], { logprobs: [0, 0] })).toBe(1);
    expect(score("perplexity", "x", {}, [], { logprobs: [-2] })).toBeCloseTo(Math.exp(2), 12);
    expect(score("perplexity", "x", {}, [], { logprobs: [-Math.log(5)] })).toBeCloseTo(5, 12);
    expect(getMetric("perplexity").higherIsBetter).toBe(false);
    expect(lexicalMetric("perplexity").higherIsBetter).toBe(false);
  });
  it("perplexity-score = 1 / (1 + perplexity): [−2] → 0.1192, [0, 0] → 0.5", () => {
    expect(score("perplexity-score", "x", {}, [], { logprobs: [-2] })).toBeCloseTo(0.1192, 4);
    expect(score("perplexity-score", "x", {}, [], { logprobs: [0, 0] })).toBe(0.5);
  });
  it("reads the judge client's token logprobs, OpenAI's content list, and JSON text", () => {
    const tokens = [
      { token: "a", logprob: -1 },
      { token: "b", logprob: -3 },
    ];
    expect(score("perplexity", "x", {}, [], { logprobs: tokens })).toBeCloseTo(Math.exp(2), 12);
    expect(score("perplexity", "x", {}, [], { logprobs: { content: tokens } })).toBeCloseTo(Math.exp(2), 12);
    expect(score("perplexity", "x", {}, [], { logProbs: "[-1, -3]" })).toBeCloseTo(Math.exp(2), 12);
  });
  it("no logprobs is an error, not a made-up score", () => {
    expect(() => score("perplexity", "x")).toThrow(/logprobs/);
    expect(() => score("perplexity-score", "x", {}, [], { logprobs: [] })).toThrow(/logprobs/);
    expect(() => score("perplexity", "x", {}, [], { logprobs: [-1, "a"] })).toThrow(InvalidArgumentError);
  });
});

describe("cost / latency (the row's record)", () => {
  it("the value is the row's cost / latencyMs, lower is better", () => {
    expect(score("cost", "x", {}, [], { cost: 0.0015 })).toBe(0.0015);
    expect(score("cost", "x", {}, [], { cost: "0.002" })).toBe(0.002); // a CSV cell
    expect(score("latency", "x", {}, [], { latencyMs: 1500 })).toBe(1500);
    expect(score("latency", "x", {}, [], { latency_ms: 20 })).toBe(20);
    expect(getMetric("cost").higherIsBetter).toBe(false);
    expect(getMetric("latency").higherIsBetter).toBe(false);
  });
  it("a row without it (promptfoo: a provider without cost, a cached result) is an error", () => {
    expect(() => score("cost", "x", {}, [], {})).toThrow(/cost/);
    expect(() => score("latency", "x")).toThrow(/latencyMs/);
    expect(() => score("cost", "x", {}, [], { cost: "cheap" })).toThrow(InvalidArgumentError);
  });
});

describe("registry", () => {
  it("every type is a registry rule under promptfoo's name, family promptfoo", () => {
    for (const n of NAMES) expect(getMetric(n)).toMatchObject({ name: n, family: "promptfoo" });
  });
});
