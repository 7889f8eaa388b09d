// The suite model of `evalkern test`: promptfoo's defaultTest merge, tests from CSV (`__expected` cells as
// promptfoo's assertionFromString reads them) and JSONL, templates, the pass rule (AssertionsResult: weighted
// mean, test threshold, assert-set with its own threshold, not- inversion, weight 0), and SuiteErrors.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  aggregateOutcomes,
  assertionFromString,
  evaluateAssertion,
  parseSuite,
  renderTemplate,
  runSuite,
  SuiteError,
  type AssertionOutcome,
} from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "evalkern-suite-"));

describe("loading", () => {
  it("merges defaultTest as promptfoo does: vars under the test's, its assertions first, its threshold as default", () => {
    const suite = parseSuite({
      defaultTest: { vars: { lang: "en", answer: "x" }, assert: [{ type: "rougeL", value: "{{answer}}" }], threshold: 0.5 },
      tests: [
        { vars: { answer: "Paris" }, output: "Paris", assert: [{ type: "f1", value: "Paris" }] },
        { description: "own threshold", output: "y", threshold: 0.9 },
      ],
    });
    expect(suite.tests[0]).toMatchObject({
      vars: { lang: "en", answer: "Paris" },
      threshold: 0.5,
      assert: [{ type: "rougeL" }, { type: "f1" }],
      description: "#1 lang=en, answer=Paris",
    });
    expect(suite.tests[1]).toMatchObject({ threshold: 0.9, description: "own threshold", assert: [{ type: "rougeL" }] });
  });

  it("reads tests from CSV (columns are vars, __expected* assertions, __description, __threshold, __output) and JSONL", () => {
    writeFileSync(
      join(dir, "t.csv"),
      "q,__expected1,__expected2,__description,__threshold,__output\nhi,evalwire-contains:hi,not-f1(0.5):bye,first,0.25,hi there\n",
    );
    writeFileSync(join(dir, "t.jsonl"), `${JSON.stringify({ vars: { q: "a" }, output: "a", assert: [{ type: "em", value: "a" }] })}\n\n`);
    const suite = parseSuite({ tests: ["file://t.csv", "file://t.jsonl"] }, { path: join(dir, "s.yaml") });
    expect(suite.tests).toHaveLength(2);
    expect(suite.tests[0]).toMatchObject({
      description: "first",
      vars: { q: "hi" },
      output: "hi there",
      threshold: 0.25,
      assert: [
        { type: "evalwire-contains", value: "hi" },
        { type: "not-f1", value: "bye", threshold: 0.5 },
      ],
      source: "file://t.csv row 2",
    });
    expect(suite.tests[1]).toMatchObject({ vars: { q: "a" }, source: "file://t.jsonl line 1" });
  });

  it("reads __expected cells as promptfoo: lists split on commas, grade: is llm-rubric, anything else equals", () => {
    expect(assertionFromString("f1(0.7):Paris")).toEqual({ type: "f1", value: "Paris", threshold: 0.7 });
    expect(assertionFromString("grade:is polite")).toEqual({ type: "llm-rubric", value: "is polite" });
    expect(assertionFromString("Paris, France")).toEqual({ type: "equals", value: "Paris, France" });
  });

  it("refuses what it cannot run as written, naming where", () => {
    const bad = (raw: unknown, re: RegExp) => expect(() => parseSuite(raw, { path: "s.yaml" })).toThrow(re);
    bad({ tests: [{ output: "x", assert: [{ type: "bleu", valeu: 1 }] }] }, /s\.yaml tests\[0\]\.assert\[0\]: unknown key "valeu"/);
    bad({ tests: [{ output: "x", assert: [{ type: "not-roguel" }] }] }, /unknown assertion type "not-roguel" \(did you mean "rougeL"\?\)/);
    bad(
      { tests: [{ output: "x", assert: [{ type: "assert-set", assert: [{ type: "assert-set", assert: [] }] }] }] },
      /may not hold another assert-set/,
    );
    bad(
      { prompts: ["Q: {{ q }}"], providers: ["openai:chat:m"], tests: [{ vars: {} }] },
      /reads \{\{ q \}\}, which the test's vars do not have/,
    );
    bad({ prompts: ["{% if x %}"], providers: ["openai:chat:m"], tests: [{ vars: {} }] }, /Nunjucks tags/);
    bad({ providers: ["anthropic:messages:claude"], tests: [{ output: "x" }] }, /only OpenAI-compatible providers/);
    bad({ tests: [] }, /no tests/);
    expect(() => parseSuite({ tests: [] })).toThrow(SuiteError);
  });
});

describe("templates", () => {
  it("renders {{ var }}, dotted paths and | dump; a missing var is an error, not an empty string", () => {
    expect(renderTemplate("{{ q }} / {{doc.title}} / {{ tags | dump }}", { q: "hi", doc: { title: "T" }, tags: ["a", "b"] })).toBe(
      'hi / T / ["a","b"]',
    );
    expect(() => renderTemplate("{{ nope }}", {})).toThrow(/nope/);
  });
});

describe("grading", () => {
  const o = (pass: boolean, score: number, weight = 1, metric?: string): AssertionOutcome => ({
    type: "t",
    pass,
    score,
    weight,
    reason: pass ? "ok" : "bad",
    ...(metric ? { metric } : {}),
  });

  it("passes when every assertion passes; with a threshold, on the weighted mean score (promptfoo's AssertionsResult)", () => {
    expect(aggregateOutcomes([o(true, 1), o(false, 0.4)], undefined)).toMatchObject({ pass: false, score: 0.7, reason: "bad" });
    // (1·1 + 0.4·3) / 4 = 0.55
    expect(aggregateOutcomes([o(true, 1), o(false, 0.4, 3)], 0.5)).toMatchObject({ pass: true, score: 0.55 });
    expect(aggregateOutcomes([o(true, 1), o(false, 0.4, 3)], 0.6).pass).toBe(false);
    expect(aggregateOutcomes([o(true, 1, 1, "acc"), o(true, 0.5, 1, "acc")], undefined).namedScores).toEqual({ acc: 0.75 });
  });

  it("inverts pass and score with not-, and never fails on weight 0", async () => {
    const ctx = { output: "The cat sat.", vars: { ref: "the cat sat" } };
    // DSPy token F1 of "The cat sat." vs "the cat sat": articles dropped, both "cat sat" → 1
    expect(await evaluateAssertion({ type: "f1", value: "{{ref}}" }, ctx)).toMatchObject({ pass: true, score: 1, value: 1 });
    expect(await evaluateAssertion({ type: "not-f1", value: "{{ref}}" }, ctx)).toMatchObject({ pass: false, score: 0 });
    expect(await evaluateAssertion({ type: "evalwire-contains", value: "dog", weight: 0 }, ctx)).toMatchObject({ pass: true, score: 0 });
    const noJudge = await evaluateAssertion({ type: "faithfulness" }, ctx);
    expect(noJudge).toMatchObject({ pass: false, error: expect.stringMatching(/needs a judge model/) });
  });

  it("grades an assert-set with its own threshold as one assertion of its weight", async () => {
    const suite = parseSuite({
      tests: [
        {
          output: "Tokyo",
          assert: [
            { type: "evalwire-contains", value: "Tokyo" },
            {
              type: "assert-set",
              threshold: 0.5,
              weight: 2,
              assert: [
                { type: "evalwire-contains", value: "Tokyo" },
                { type: "evalwire-contains", value: "Kyoto" },
              ],
            },
          ],
        },
      ],
    });
    const r = await runSuite(suite);
    // the set: mean(1, 0) = 0.5 ≥ 0.5 passes; the test: (1·1 + 0.5·2) / 3
    expect(r.tests[0]).toMatchObject({
      status: "pass",
      assertions: [{ pass: true }, { type: "assert-set", pass: true, score: 0.5, weight: 2 }],
    });
    expect(r.tests[0]!.score).toBeCloseTo(2 / 3, 12);
    expect(r.stats).toEqual({ total: 1, passed: 1, failed: 0, errors: 0 });
  });
});
