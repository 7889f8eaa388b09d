// docs/spec/dsrs.md §2: FormatMetric, KeywordMetric, LengthMetric, SyntaxMetric (the dsrs scan).
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors.js";
import {
  dsrsBalanceScan,
  Example,
  FormatMetric,
  KeywordMetric,
  LengthMetric,
  Prediction,
  SyntaxMetric,
  type MetricScore,
} from "../../src/dsrs/index.js";

const NO_INPUT = {};

function expectFail(score: MetricScore, details: string): void {
  expect(score).toMatchObject({ value: 0, confidence: 1, costMsats: 0, details });
}

function expectPerfect(score: MetricScore): void {
  expect(score).toMatchObject({ value: 1, confidence: 1, costMsats: 0, details: undefined });
}

describe("proxy metrics share dsrs's shape", () => {
  it.each([
    [new FormatMetric(), "format"],
    [new KeywordMetric(), "keywords"],
    [new LengthMetric(), "length"],
    [new SyntaxMetric(), "syntax"],
  ])("%s: tier proxy, cost 0, default name", (metric, name) => {
    expect(metric.name).toBe(name);
    expect(metric.tier).toBe("proxy");
    expect(metric.costEstimate).toBe(0);
    expect((metric as { withName(n: string): { name: string } }).withName("custom").name).toBe("custom");
  });

  it("ignore the input example", async () => {
    const output = { text: "Hello world" };
    const a = await new FormatMetric().evaluate({ anything: "" }, output);
    const b = await new FormatMetric().evaluate(Example.from({ goal: 123 }), output);
    expect(a).toEqual(b);
  });

  it("read Examples, Predictions and plain objects", async () => {
    expectPerfect(await new FormatMetric().evaluate(NO_INPUT, Prediction.from({ answer: "Hello" })));
    expectPerfect(await new FormatMetric().evaluate(NO_INPUT, Example.from({ answer: "Hello" })));
    expectPerfect(await new FormatMetric().evaluate(NO_INPUT, { answer: "Hello" }));
  });

  it("reject a non-object output with a typed error", async () => {
    await expect(new FormatMetric().evaluate(NO_INPUT, "text" as never)).rejects.toThrow(InvalidArgumentError);
    await expect(new LengthMetric().evaluate(NO_INPUT, null as never)).rejects.toThrow(InvalidArgumentError);
  });

  it("validate options at construction", () => {
    expect(() => new FormatMetric({ requireValidJson: "yes" as never })).toThrow(InvalidArgumentError);
    expect(() => new KeywordMetric({ required: ["a", 1 as never] })).toThrow(InvalidArgumentError);
    expect(() => new LengthMetric({ minChars: -1 })).toThrow(InvalidArgumentError);
    expect(() => new LengthMetric({ maxChars: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => new SyntaxMetric({ field: 5 as never })).toThrow(InvalidArgumentError);
  });

  it("builders return new metrics and leave the original alone", () => {
    const base = new LengthMetric();
    const bounded = base.between(3, 5);
    expect(base).toMatchObject({ minChars: undefined, maxChars: undefined });
    expect(bounded).toMatchObject({ minChars: 3, maxChars: 5 });
  });
});

describe("FormatMetric (§2.1)", () => {
  it("new(): name format, JSON check off, non-empty check on", () => {
    const metric = new FormatMetric();
    expect(metric).toMatchObject({ name: "format", requireValidJson: false, requireNonEmpty: true });
    expect(metric.withJsonCheck().requireValidJson).toBe(true);
  });

  it("fails with no fields, or only empty/whitespace strings", async () => {
    expectFail(await new FormatMetric().evaluate(NO_INPUT, {}), "Output is empty");
    expectFail(await new FormatMetric().evaluate(NO_INPUT, { a: "", b: " \t\n" }), "Output is empty");
    expectPerfect(await new FormatMetric().evaluate(NO_INPUT, { answer: "Hello world" }));
  });

  it.each([null, false, 0, [], {}])("counts a non-string value (%j) as content", async (value) => {
    expectPerfect(await new FormatMetric().evaluate(NO_INPUT, { a: "", b: value }));
  });

  it("U+FEFF alone counts as content; U+0085 alone does not (run)", async () => {
    expectPerfect(await new FormatMetric().evaluate(NO_INPUT, { a: "\ufeff" }));
    expectFail(await new FormatMetric().evaluate(NO_INPUT, { a: "\u0085" }), "Output is empty");
    expectFail(await new FormatMetric().evaluate(NO_INPUT, { a: "\u00a0\u3000\u2028" }), "Output is empty");
  });

  it("with the JSON check: JSON-looking strings must parse", async () => {
    const metric = new FormatMetric().withJsonCheck();
    expectPerfect(await metric.evaluate(NO_INPUT, { data: '{"key": "value"}' }));
    expectFail(await metric.evaluate(NO_INPUT, { data: "{invalid json}" }), "Field 'data' contains invalid JSON");
    expectFail(await metric.evaluate(NO_INPUT, { list: "[1, 2,]" }), "Field 'list' contains invalid JSON");
    expectPerfect(await metric.evaluate(NO_INPUT, { data: "  \n[1, 2] " }));
  });

  it("checks only strings starting with { or [ after trimming, and never non-strings", async () => {
    const metric = new FormatMetric({ requireValidJson: true });
    expectPerfect(await metric.evaluate(NO_INPUT, { a: '"unterminated', b: "plain {text", c: "\ufeff{bad" }));
    expectPerfect(await metric.evaluate(NO_INPUT, { a: { not: "checked" }, b: 5 }));
  });

  it("a string starting with U+0085 or U+00A0 then {…} is checked and fails (run)", async () => {
    const metric = new FormatMetric().withJsonCheck();
    expectFail(await metric.evaluate(NO_INPUT, { x: '\u0085{"a": 1}' }), "Field 'x' contains invalid JSON");
    expectFail(await metric.evaluate(NO_INPUT, { x: '\u00a0{"a": 1}' }), "Field 'x' contains invalid JSON");
  });

  it("applies serde_json's limits (depth, f64 overflow, unpaired surrogate escapes)", async () => {
    const metric = new FormatMetric().withJsonCheck();
    expectPerfect(await metric.evaluate(NO_INPUT, { x: `${"[".repeat(127)}${"]".repeat(127)}` }));
    expectFail(await metric.evaluate(NO_INPUT, { x: `${"[".repeat(128)}${"]".repeat(128)}` }), "Field 'x' contains invalid JSON");
    expectFail(await metric.evaluate(NO_INPUT, { x: "[1e400]" }), "Field 'x' contains invalid JSON");
    expectFail(await metric.evaluate(NO_INPUT, { x: '["\\udc00"]' }), "Field 'x' contains invalid JSON");
  });

  it("the non-empty check runs first", async () => {
    expectFail(await new FormatMetric().withJsonCheck().evaluate(NO_INPUT, { a: " " }), "Output is empty");
  });

  it("requireNonEmpty: false (dsrs's derived Default has both checks off) always passes", async () => {
    expectPerfect(await new FormatMetric({ requireNonEmpty: false }).evaluate(NO_INPUT, {}));
  });

  it("field restricts both checks to one field", async () => {
    const metric = new FormatMetric({ requireValidJson: true, field: "json" });
    expectFail(await metric.evaluate(NO_INPUT, { other: "content" }), "Output is empty");
    expectPerfect(await metric.evaluate(NO_INPUT, { json: "[1]", other: "{bad" }));
    expectFail(await metric.evaluate(NO_INPUT, { json: "{bad" }), "Field 'json' contains invalid JSON");
  });
});

describe("KeywordMetric (§2.2)", () => {
  it("forbidden keywords fail first, reported as given", async () => {
    const metric = new KeywordMetric().forbid(["TODO", "FIXME"]);
    expectPerfect(await metric.evaluate(NO_INPUT, { code: "function complete() { return 42; }" }));
    expectFail(await metric.evaluate(NO_INPUT, { code: "function f() { // fixme and todo }" }), "Contains forbidden keyword: TODO");
  });

  it("an empty forbidden keyword always fails", async () => {
    expectFail(await new KeywordMetric({ forbidden: [""] }).evaluate(NO_INPUT, {}), "Contains forbidden keyword: ");
  });

  it("required: found / len as f64, missing keywords as Rust Debug", async () => {
    const metric = new KeywordMetric().require(["function", "return"]);
    expectPerfect(await metric.evaluate(NO_INPUT, { code: "function foo() { return 42; }" }));
    const half = await metric.evaluate(NO_INPUT, { code: "function foo() { }" });
    expect(half).toMatchObject({ value: 0.5, confidence: 1, details: 'Missing keywords: ["return"]' });
    const score = await new KeywordMetric({ required: ["one", "two", "three", "four"] }).evaluate(NO_INPUT, { t: "one three" });
    expect(score.details).toBe('Missing keywords: ["two", "four"]');
    const third = await new KeywordMetric({ required: ["a", "b", "zz"] }).evaluate(NO_INPUT, { t: "ab" });
    expect(third.value).toBe(0.6666666666666666);
  });

  it("duplicates count separately and the details escape like Rust", async () => {
    const score = await new KeywordMetric({ required: ["x", "x", 'q"\u200b'] }).evaluate(NO_INPUT, { t: "x" });
    expect(score.value).toBe(2 / 3);
    expect(score.details).toBe('Missing keywords: ["q\\"\\u{200b}"]');
  });

  it("is case-insensitive substring matching without word boundaries", async () => {
    expectPerfect(await new KeywordMetric({ required: ["tes"] }).evaluate(NO_INPUT, { t: "Testing" }));
    expectPerfect(await new KeywordMetric({ required: ["σας"] }).evaluate(NO_INPUT, { t: "ΣΑΣ" }));
  });

  it("require/forbid replace the list (dsrs's doc says add)", () => {
    const metric = new KeywordMetric().require(["a"]).require(["b"]).forbid(["c"]).forbid(["d"]);
    expect(metric.required).toEqual(["b"]);
    expect(metric.forbidden).toEqual(["d"]);
  });

  it('with a field: that field only (missing or non-string → "")', async () => {
    const metric = new KeywordMetric({ required: ["needle"] }).inField("body");
    expectPerfect(await metric.evaluate(NO_INPUT, { body: "a NEEDLE", title: "" }));
    expect((await metric.evaluate(NO_INPUT, { title: "needle" })).value).toBe(0);
    expect((await metric.evaluate(NO_INPUT, { body: 42 })).value).toBe(0);
  });

  it("without a field: string fields joined with one space (non-strings skipped)", async () => {
    const metric = new KeywordMetric({ required: ["hello world"] });
    expectPerfect(await metric.evaluate(NO_INPUT, { a: "hello", n: 5, b: "world" }));
    expect((await new KeywordMetric({ required: ["5"] }).evaluate(NO_INPUT, { n: 5 })).value).toBe(0);
  });

  it("no required keywords → perfect", async () => {
    expectPerfect(await new KeywordMetric().evaluate(NO_INPUT, {}));
  });
});

describe("LengthMetric (§2.3)", () => {
  it("no bounds: everything passes, even empty output", async () => {
    expectPerfect(await new LengthMetric().evaluate(NO_INPUT, {}));
  });

  it("between(10, 100) with dsrs's messages", async () => {
    const metric = new LengthMetric().between(10, 100);
    expectPerfect(await metric.evaluate(NO_INPUT, { text: "This is exactly the right length of text." }));
    expectFail(await metric.evaluate(NO_INPUT, { text: "Short" }), "Output too short: 5 < 10 chars");
    expectFail(await metric.evaluate(NO_INPUT, { text: "x".repeat(101) }), "Output too long: 101 > 100 chars");
  });

  it("bounds are inclusive", async () => {
    const metric = new LengthMetric({ minChars: 3, maxChars: 3 });
    expectPerfect(await metric.evaluate(NO_INPUT, { t: "abc" }));
  });

  it("counts UTF-8 bytes, summed over string fields, non-strings adding 0", async () => {
    const metric = new LengthMetric().max(8);
    expectPerfect(await metric.evaluate(NO_INPUT, { a: "éé", b: "😀", n: 123456789 }));
    expectFail(await metric.evaluate(NO_INPUT, { a: "éé", b: "😀x" }), "Output too long: 9 > 8 chars");
  });

  it("with a field: that field's bytes, 0 when missing or non-string", async () => {
    const metric = new LengthMetric().min(1).inField("summary");
    expectFail(await metric.evaluate(NO_INPUT, { other: "long text" }), "Output too short: 0 < 1 chars");
    expectFail(await metric.evaluate(NO_INPUT, { summary: ["x"] }), "Output too short: 0 < 1 chars");
  });

  it("checks the minimum first, and accepts min > max", async () => {
    const metric = new LengthMetric({ minChars: 10, maxChars: 5 });
    expectFail(await metric.evaluate(NO_INPUT, { t: "abc" }), "Output too short: 3 < 10 chars");
    expectFail(await metric.evaluate(NO_INPUT, { t: "x".repeat(12) }), "Output too long: 12 > 5 chars");
  });

  it("is binary by default: no partial credit near the bounds", async () => {
    const score = await new LengthMetric({ minChars: 10 }).evaluate(NO_INPUT, { t: "x".repeat(9) });
    expect(score.value).toBe(0);
  });

  it("partialCredit grades by closeness to the violated bound, with the same details", async () => {
    const metric = new LengthMetric({ minChars: 10, maxChars: 20 }).withPartialCredit();
    const short = await metric.evaluate(NO_INPUT, { t: "x".repeat(9) });
    expect(short).toMatchObject({ value: 0.9, details: "Output too short: 9 < 10 chars" });
    const long = await metric.evaluate(NO_INPUT, { t: "x".repeat(25) });
    expect(long).toMatchObject({ value: 0.8, details: "Output too long: 25 > 20 chars" });
    expect((await metric.evaluate(NO_INPUT, {})).value).toBe(0);
    expectPerfect(await metric.evaluate(NO_INPUT, { t: "x".repeat(15) }));
  });
});

describe("SyntaxMetric without a language: dsrs's scan (§2.4)", () => {
  const scan = (code: string) => new SyntaxMetric().inField("code").evaluate(NO_INPUT, { code });

  it("accepts balanced code and reports each closer by its own message", async () => {
    expectPerfect(await scan("function foo() { return { a: 1 }; }"));
    expectFail(await scan("function foo() { return { a: 1 }; "), "Unclosed brackets: ['{']");
    expectFail(await scan("(]"), "Unbalanced brackets");
    expectFail(await scan("{)"), "Unbalanced parentheses");
    expectFail(await scan("[}"), "Unbalanced braces");
    expectFail(await scan(")"), "Unbalanced parentheses");
    expectFail(await scan("a]"), "Unbalanced brackets");
  });

  it("lists the unclosed stack bottom to top", async () => {
    expectFail(await scan("([{"), "Unclosed brackets: ['(', '[', '{']");
  });

  it("stops at the first failure", async () => {
    expectFail(await scan("}) ]"), "Unbalanced braces");
  });

  it("checks an unclosed string before the stack", async () => {
    expectFail(await scan('let x = "unclosed string'), "Unclosed string");
    expectFail(await scan('( "abc'), "Unclosed string");
  });

  it("ignores brackets inside strings of all three quote kinds", async () => {
    expectPerfect(await scan("x = \")\" + '(' + `[`"));
  });

  it("looks one character back only: an escaped backslash before the quote leaves the string open (run)", async () => {
    expectFail(await scan('"a\\\\"'), "Unclosed string");
    expectPerfect(await scan('"a\\"b"'));
  });

  it("apostrophes in prose or comments open a string (run)", async () => {
    expectFail(await scan("x = 1  # it's fine"), "Unclosed string");
  });

  it("a quote opens a string even after a backslash", async () => {
    expectFail(await scan('\\"abc'), "Unclosed string");
  });

  it("with a field: missing, non-string or empty → No code found", async () => {
    const metric = new SyntaxMetric().inField("code");
    expectFail(await metric.evaluate(NO_INPUT, {}), "No code found");
    expectFail(await metric.evaluate(NO_INPUT, { code: 5 }), "No code found");
    expectFail(await metric.evaluate(NO_INPUT, { code: "" }), "No code found");
  });

  it("without a field: code, output, result, content in that order; the first string one is scanned even if empty (run)", async () => {
    const metric = new SyntaxMetric();
    expectPerfect(await metric.evaluate(NO_INPUT, { code: "", output: "(" }));
    expectFail(await metric.evaluate(NO_INPUT, { content: "(", result: "[" }), "Unclosed brackets: ['[']");
    expectFail(await metric.evaluate(NO_INPUT, { code: 5, output: "(" }), "Unclosed brackets: ['(']");
    expectPerfect(await metric.evaluate(NO_INPUT, { other: "(", content: "" }));
  });

  it("otherwise the first string field, where empty or none → No code found", async () => {
    const metric = new SyntaxMetric();
    expectFail(await metric.evaluate(NO_INPUT, { n: 1, text: "(" }), "Unclosed brackets: ['(']");
    expectFail(await metric.evaluate(NO_INPUT, { n: 1 }), "No code found");
    expectFail(await metric.evaluate(NO_INPUT, {}), "No code found");
    expectFail(await metric.evaluate(NO_INPUT, { a: "", b: "(" }), "No code found");
  });

  it("an unknown language keeps the dsrs scan bit for bit", async () => {
    const metric = new SyntaxMetric({ language: "cobol" });
    expect(metric.parserLanguage).toBeUndefined();
    expectFail(await metric.evaluate(NO_INPUT, { code: "x = 1  # it's" }), "Unclosed string");
  });

  it("checkBalancedQuotes: false treats quotes as ordinary characters", async () => {
    const metric = new SyntaxMetric({ checkBalancedQuotes: false });
    expectPerfect(await metric.evaluate(NO_INPUT, { code: "x = 1  # it's fine" }));
    expectFail(await metric.evaluate(NO_INPUT, { code: 'x = ")"' }), "Unbalanced parentheses");
  });

  it("checkBalancedBrackets: false ignores brackets but still tracks strings", async () => {
    const metric = new SyntaxMetric({ checkBalancedBrackets: false });
    expectPerfect(await metric.evaluate(NO_INPUT, { code: "(((" }));
    expectFail(await metric.evaluate(NO_INPUT, { code: "'" }), "Unclosed string");
    expectPerfect(await new SyntaxMetric({ checkBalancedBrackets: false, checkBalancedQuotes: false }).evaluate(NO_INPUT, { code: "(')" }));
  });

  it("dsrsBalanceScan scans code points (an astral character is one character)", () => {
    expect(dsrsBalanceScan("'😀'")).toBeUndefined();
    expect(dsrsBalanceScan("")).toBeUndefined();
  });
});
