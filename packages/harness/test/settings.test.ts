// One settings store for harness and judge: `configure`/`context` imported from @evalkern/harness are
// the judge's, so `configure({ judge })` reaches judge metrics built with no model, and a `context()`
// from either package scopes both the judge and the DSPy-style settings `Evaluate` reads.
import * as judgePackage from "@evalkern/judge";
import {
  AnswerRelevancyMetric,
  JudgeConfigError,
  LLMTestCase,
  OpenAICompatibleJudge,
  SemanticF1,
  resetJudgeDefaults,
} from "@evalkern/judge";
import { Example, Prediction } from "@evalkern/metrics/dspy";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chatJson, startServer, type ScriptedServer } from "../../judge/test/support/server.js";
import { Evaluate, configure, context, settings } from "../src/index.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  resetJudgeDefaults();
});

const judgeNamed = (model: string) =>
  new OpenAICompatibleJudge({
    baseURL: server.baseURL,
    apiKey: "test-key",
    model,
    env: {},
    retry: { initialDelayMs: 1, maxDelayMs: 5, jitter: 0 },
  });
const quiet = () => ({ stdout: { write() {}, isTTY: false }, stderr: { write() {}, isTTY: false } });

describe("configure/context: one store for harness and judge", () => {
  it("the harness exports the judge's functions themselves", () => {
    expect(configure).toBe(judgePackage.configure);
    expect(context).toBe(judgePackage.context);
    expect(settings).toBe(judgePackage.settings);
  });

  it("configure({ judge }) from the harness gives a judge metric built with no options its judge, and it scores", async () => {
    configure({ judge: judgeNamed("from-harness") });
    server.enqueue(
      "chat",
      chatJson({ statements: ["Paris is the capital.", "Cats purr.", "It is on the Seine."] }),
      chatJson({
        verdicts: [
          { verdict: "yes", reason: null },
          { verdict: "no", reason: "off topic" },
          { verdict: "idk", reason: "aside" },
        ],
      }),
      chatJson({ reason: "Mostly relevant." }),
    );
    const metric = new AnswerRelevancyMetric();
    const testCase = new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris is the capital. Cats purr. It is on the Seine." });
    const score = await metric.aMeasure(testCase);
    // yes and idk count as relevant: 2 of 3
    expect(score).toBeCloseTo(2 / 3, 15);
    expect(server.requestsTo("chat").map((r) => r.body.model)).toEqual(["from-harness", "from-harness", "from-harness"]);
  });

  it("the DSPy keys stay: configure({ maxErrors }) is the default of Evaluate, and judge keys sit beside them", async () => {
    expect(settings()).toMatchObject({ maxErrors: 10, numThreads: 8, provideTraceback: false });
    judgePackage.configure({ maxErrors: 2, judge: "gpt-4o-mini" });
    expect(settings()).toMatchObject({ maxErrors: 2, numThreads: 8, judge: "gpt-4o-mini" });
    const devset = Array.from({ length: 6 }, (_, i) => Example.from({ q: String(i) }).withInputs("q"));
    const run = new Evaluate({ devset, metric: () => true, numThreads: 1, output: quiet() }).call(() => Promise.reject(new Error("down")));
    await expect(run).rejects.toMatchObject({ maxErrors: 2 });
  });

  it("context from either package scopes both: the judge of metrics built inside, and settings() after awaits", async () => {
    configure({ judge: judgeNamed("outer") });
    const inner = judgeNamed("inner");
    const seen = await context({ judge: inner, lm: "model-a" }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { model: new SemanticF1().model, lm: settings().lm };
    });
    expect(seen).toEqual({ model: inner, lm: "model-a" });
    const viaJudge = await judgePackage.context({ judge: inner, temperature: 0.5 }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { model: new AnswerRelevancyMetric().model, temperature: settings().temperature };
    });
    expect(viaJudge).toEqual({ model: inner, temperature: 0.5 });
    expect(new SemanticF1().model.name).toBe("outer");
    expect(settings().lm).toBeUndefined();
  });

  it("contexts follow their own call tree: two concurrent runs each score with their own judge", async () => {
    server.handle("chat", (req) => chatJson({ reasoning: req.body.model, recall: 1, precision: req.body.model === "a" ? 1 : 0 }));
    const example = Example.from({ question: "Capital of France?", response: "Paris" });
    const devset = [example.withInputs("question")];
    const metric = async (e: Example, p: Prediction) => (await new SemanticF1().forward(e, p)).f1;
    const evaluate = new Evaluate({ devset, metric, numThreads: 1, output: quiet() });
    const program = async () => {
      await new Promise((r) => setTimeout(r, 5));
      return Prediction.from({ response: "Paris" });
    };
    const [a, b] = await Promise.all([
      context({ judge: judgeNamed("a") }, () => evaluate.call(program)),
      context({ judge: judgeNamed("b") }, () => evaluate.call(program)),
    ]);
    // a: recall 1, precision 1 → F1 1 (100 %); b: precision 0 → F1 0
    expect([a.score, b.score]).toEqual([100, 0]);
  });

  it("a configure() inside a context changes the keys the context does not override (DSPy)", () => {
    context({ lm: "scoped" }, () => {
      configure({ numThreads: 3, lm: "global" });
      expect(settings()).toMatchObject({ lm: "scoped", numThreads: 3 });
    });
    expect(settings()).toMatchObject({ lm: "global", numThreads: 3 });
  });

  it("free-form keys are kept, but a misspelt evalkern key is refused with the key it resembles", () => {
    expect(() => configure({ max_errors: 3 })).toThrow(JudgeConfigError);
    expect(() => configure({ max_errors: 3 })).toThrow(/did you mean 'maxErrors'/);
    expect(() => context({ jugde: "x" }, () => 1)).toThrow(/did you mean 'judge'/);
    expect(() => configure({ judge: 42 as never })).toThrow(/'judge' must be a JudgeModel or a model name/);
    configure({ lm: "m", temperature: 0 });
    expect(settings()).toMatchObject({ lm: "m", temperature: 0 });
  });
});
