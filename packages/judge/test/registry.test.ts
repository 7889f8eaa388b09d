// @evalkern/judge/registry: the one list of judge metrics named by strings — names and aliases,
// did-you-mean, option schemas checked like the rule-metric registry's, and metrics created from it
// measuring row-shaped cases against the scripted loopback server.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JudgeMetricConfigError } from "../src/index.js";
import {
  MetricOptionError,
  UnknownMetricError,
  UnknownOptionError,
  checkJudgeMetricOptions,
  createJudgeMetric,
  findJudgeMetric,
  getJudgeMetric,
  listJudgeMetrics,
  type JudgeCase,
} from "../src/registry/index.js";
import { testJudge } from "./support/judge.js";
import { chatJson, startServer, type ScriptedServer } from "./support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const CASE: JudgeCase = {
  input: "Capital of France?",
  actualOutput: "Paris is the capital. I like cats.",
  expectedOutput: "Paris",
  context: null,
  retrievalContext: ["Paris is the capital of France."],
};

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("names", () => {
  it("lists the judge metrics in help order, each with a description, option help and direction", () => {
    expect(listJudgeMetrics().map((m) => m.name)).toEqual([
      "faithfulness",
      "answer-relevancy",
      "contextual-precision",
      "contextual-recall",
      "contextual-relevancy",
      "hallucination",
      "bias",
      "toxicity",
      "pii-leakage",
      "non-advice",
      "misuse",
      "role-violation",
      "summarization",
      "g-eval",
      "semantic-f1",
    ]);
    for (const m of listJudgeMetrics()) {
      expect(m.description.length, m.name).toBeGreaterThan(10);
      for (const [key, schema] of Object.entries(m.options)) expect(schema.help.length, `${m.name}.${key}`).toBeGreaterThan(0);
    }
    expect(
      listJudgeMetrics()
        .filter((m) => !m.higherIsBetter)
        .map((m) => m.name),
    ).toEqual(["hallucination", "bias", "toxicity", "misuse"]);
  });

  it("resolves the class name as an alias", () => {
    expect(findJudgeMetric("AnswerRelevancyMetric")?.name).toBe("answer-relevancy");
    expect(getJudgeMetric("SemanticF1").family).toBe("dspy");
    expect(findJudgeMetric("bleu")).toBeUndefined();
  });

  it("an unknown name is an UnknownMetricError with the closest name", () => {
    const error = thrown(() => getJudgeMetric("faithfullness"));
    expect(error).toBeInstanceOf(UnknownMetricError);
    expect(error).toMatchObject({ code: "UNKNOWN_METRIC", metric: "faithfullness", suggestion: "faithfulness" });
    expect((error as Error).message).toMatch(/did you mean "faithfulness"\?.*known judge metrics: faithfulness, answer-relevancy/);
    // snake_case and an alias typo point at the canonical name
    expect(thrown(() => getJudgeMetric("answer_relevancy"))).toMatchObject({ suggestion: "answer-relevancy" });
    expect(thrown(() => getJudgeMetric("GEvl"))).toMatchObject({ suggestion: "g-eval" });
  });
});

describe("options", () => {
  it("an unknown key is an UnknownOptionError naming the closest key", () => {
    const error = thrown(() => checkJudgeMetricOptions("faithfulness", { treshold: 0.5 }));
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toMatchObject({ code: "UNKNOWN_OPTION", key: "treshold", suggestion: "threshold" });
  });

  it("a wrong type or value is a MetricOptionError", () => {
    expect(thrown(() => checkJudgeMetricOptions("faithfulness", { threshold: "high" }))).toBeInstanceOf(MetricOptionError);
    expect(thrown(() => checkJudgeMetricOptions("summarization", { n: 2.5 }))).toMatchObject({ code: "INVALID_OPTION", key: "n" });
    expect(thrown(() => checkJudgeMetricOptions("g-eval", { evaluationParams: ["input", "outptu"] }))).toMatchObject({
      code: "INVALID_OPTION",
      key: "evaluationParams",
    });
  });

  it("a lone string for a list option becomes a one-item list", () => {
    expect(checkJudgeMetricOptions("g-eval", { evaluationSteps: "Compare with the expected output.", criteria: "x" })).toEqual({
      evaluationSteps: ["Compare with the expected output."],
      criteria: "x",
    });
  });
});

describe("createJudgeMetric", () => {
  it("answer-relevancy measures a row-shaped case: 1 relevant statement of 2 is 0.5", async () => {
    server.enqueue(
      "chat",
      chatJson({ statements: ["Paris is the capital.", "I like cats."] }),
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "cats" },
        ],
      }),
      chatJson({ reason: "Half of it is about cats." }),
    );
    const metric = await createJudgeMetric("answer-relevancy", testJudge(server), { threshold: 0.6 });
    expect(metric.threshold).toBe(0.6);
    const result = await metric.measure(CASE);
    expect(result).toEqual({ score: 0.5, success: false, reason: "Half of it is about cats.", scoringPath: "structured" });
    expect(server.pending()).toBe(0);
  });

  it("semantic-f1 measures DSPy's way: recall 1, precision 0.5 → F1 2/3", async () => {
    server.enqueue("chat", chatJson({ reasoning: "r", recall: 1, precision: 0.5 }));
    const metric = await createJudgeMetric("SemanticF1", testJudge(server));
    expect(metric.threshold).toBe(0.66);
    const result = await metric.measure(CASE);
    expect(result.score).toBeCloseTo(2 / 3, 15);
    expect(result.success).toBe(true);
    const prompt: string = server
      .requestsTo("chat")[0]!
      .body.messages.map((m: { content: string }) => m.content)
      .join("\n");
    expect(prompt).toContain("Capital of France?");
    expect(prompt).toContain("Paris is the capital. I like cats.");
  });

  it("the safety metrics with a required option: misuse measures a row (lower is better), non-advice needs adviceTypes", async () => {
    server.enqueue(
      "chat",
      chatJson({ misuses: ["I like cats."] }),
      chatJson({ verdicts: [{ verdict: "yes", reason: "Cats are not geography." }] }),
      chatJson({ reason: "The score is 1.00 because the answer talks about cats." }),
    );
    const misuse = await createJudgeMetric("MisuseMetric", testJudge(server), { domain: "geography" });
    // 1 misuse of 1 → 1; lower is better: 1 > 0.5 fails
    expect(await misuse.measure(CASE)).toEqual({
      score: 1,
      success: false,
      reason: "The score is 1.00 because the answer talks about cats.",
      scoringPath: "structured",
    });
    expect(checkJudgeMetricOptions("non-advice", { adviceTypes: "financial" })).toEqual({ adviceTypes: ["financial"] });
    await expect(createJudgeMetric("non-advice", testJudge(server))).rejects.toThrow(/'adviceTypes'/);
    await expect(createJudgeMetric("role-violation", testJudge(server), { role: 3 })).rejects.toBeInstanceOf(MetricOptionError);
  });

  it("a value the metric refuses (g-eval without criteria) fails at creation, before any call", async () => {
    await expect(createJudgeMetric("g-eval", testJudge(server))).rejects.toBeInstanceOf(JudgeMetricConfigError);
    await expect(createJudgeMetric("g-eval", testJudge(server), { treshold: 1 })).rejects.toBeInstanceOf(UnknownOptionError);
    expect(server.requests).toHaveLength(0);
  });

  it("is a subpath export of the package, and imports no metric class or client until a metric is created", () => {
    type Manifest = { exports: Record<string, Record<string, string>> };
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Manifest;
    expect(pkg.exports["./registry"]).toEqual({
      types: "./dist/registry/index.d.ts",
      import: "./dist/registry/index.js",
      require: "./esm-only.cjs",
      default: "./dist/registry/index.js",
    });
    const source = readFileSync(new URL("../src/registry/registry.ts", import.meta.url), "utf8");
    const staticImports = [...source.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gm)].map((m) => m[1]);
    expect(staticImports).toEqual(["@evalkern/metrics/registry"]);
  });
});
