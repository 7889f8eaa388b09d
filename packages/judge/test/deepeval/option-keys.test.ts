// Every DeepEval judge metric refuses an option it does not take (DeepEval's Python constructors raise
// TypeError for an unexpected keyword): a typo such as `treshold` is an UnknownOptionError naming the
// closest key, never a silently ignored setting. A user's subclass that declares no option keys of
// its own is not checked, since it may take options its parent cannot know.
import { UnknownOptionError } from "@evalkern/metrics";
import { LLMTestCaseParams } from "@evalkern/metrics/deepeval";
import { describe, expect, it } from "vitest";
import * as judge from "@evalkern/judge";
import { AnswerRelevancyMetric, FaithfulnessMetric, GEval } from "@evalkern/judge";

const model = { name: "test-judge", generate: async () => ({ value: {}, usage: null }) } as never;

const checked = Object.entries(judge).filter(([, value]) => typeof value === "function" && Object.hasOwn(value, "optionKeys")) as Array<
  [string, new (options: object) => unknown]
>;

describe("DeepEval judge metrics refuse unknown option keys", () => {
  it("covers every judge metric class", () => {
    const names = checked.map(([name]) => name);
    for (const name of [
      "AnswerRelevancyMetric",
      "FaithfulnessMetric",
      "GEval",
      "ConversationalGEval",
      "DAGMetric",
      "BiasMetric",
      "ToxicityMetric",
      "ArenaGEval",
      "TurnRelevancyMetric",
      "SummarizationMetric",
    ]) {
      expect(names).toContain(name);
    }
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  it.each(checked)("%s: a misspelt key is UNKNOWN_OPTION with a suggestion", (name, Metric) => {
    let error: unknown;
    try {
      new Metric({ model, treshold: 0.7 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect((error as UnknownOptionError).code).toBe("UNKNOWN_OPTION");
    // ArenaGEval picks a winner: it has no threshold to suggest
    const suggestion = name === "ArenaGEval" ? "; known options: " : ' (did you mean "threshold"?)';
    expect((error as Error).message).toContain(`${name}: unknown option "treshold"${suggestion}`);
  });

  it("accepts every key a metric documents", () => {
    const metric = new FaithfulnessMetric({
      model,
      threshold: 0.7,
      strictMode: false,
      includeReason: false,
      asyncMode: false,
      verboseMode: false,
      evaluationModel: "judge",
      truthsExtractionLimit: 3,
      penalizeAmbiguousClaims: true,
    });
    expect(metric.threshold).toBe(0.7);
    const g = new GEval({
      model,
      name: "Correctness",
      criteria: "Is it correct?",
      evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
      topLogprobs: 5,
    });
    expect(g.name).toBe("Correctness [GEval]");
  });

  it("a user's subclass without its own optionKeys may take extra options", () => {
    class Strict extends AnswerRelevancyMetric {
      readonly extra: number;
      constructor(options: { model: never; extra: number }) {
        super({ model: options.model });
        this.extra = options.extra;
      }
    }
    class Passing extends AnswerRelevancyMetric {}
    expect(new Strict({ model, extra: 2 }).extra).toBe(2);
    expect(() => new Passing({ model, ...({ custom: 1 } as object) })).not.toThrow();
  });
});
