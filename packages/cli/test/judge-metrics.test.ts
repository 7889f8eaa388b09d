// `evalkern judge --metric` names judge metrics from @evalkern/judge/registry: the same list, its
// aliases and option schemas, with the command line's usage errors (exit 2) and did-you-mean.
import { listJudgeMetrics } from "@evalkern/judge/registry";
import { describe, expect, it } from "vitest";
import { checkJudgeMetric, judgeMetricNames, judgeMetricsHelp } from "../src/judge-metrics.js";
import { parseMetricArgument } from "../src/metric-options.js";

const check = (raw: string): unknown => {
  try {
    checkJudgeMetric(parseMetricArgument(raw));
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("evalkern judge --metric reads @evalkern/judge/registry", () => {
  it("knows exactly the registry's metrics, and its help shows the registry's option help", () => {
    expect(judgeMetricNames()).toEqual(listJudgeMetrics().map((d) => d.name));
    const help = judgeMetricsHelp();
    for (const d of listJudgeMetrics()) {
      expect(help).toContain(`  ${d.name}`);
      for (const [key, schema] of Object.entries(d.options)) expect(help).toContain(`${key}=${schema.help}`);
    }
  });

  it("accepts the registry's aliases and typed options", () => {
    expect(check("AnswerRelevancyMetric")).toBeUndefined();
    expect(check("faithfulness:threshold=0.7:penalizeAmbiguousClaims=true:name=faith")).toBeUndefined();
    expect(check('g-eval:criteria="Is it right?":evaluationParams=["input","actual_output"]')).toBeUndefined();
  });

  it("refuses unknown names, unknown keys and wrong values as usage errors with did-you-mean", () => {
    const usage = (message: RegExp) => ({ exitCode: 2, message: expect.stringMatching(message) });
    expect(check("faithfullness")).toMatchObject(usage(/unknown judge metric "faithfullness" \(did you mean "faithfulness"\?\)/));
    expect(check("bleu")).toMatchObject(usage(/rule metrics such as bleu belong to `evalkern score`/));
    expect(check("faithfulness:treshold=0.5")).toMatchObject(usage(/unknown option "treshold" \(did you mean "threshold"\?\)/));
    expect(check("summarization:n=many")).toMatchObject({ exitCode: 2, message: expect.stringMatching(/option n must be an integer/) });
    expect(check('g-eval:evaluationParams=["outptu"]')).toMatchObject({ exitCode: 2 });
  });
});
