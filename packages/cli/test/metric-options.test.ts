import { describe, expect, it } from "vitest";
import { parseMetricArgument } from "../src/metric-options.js";
import { resolveMetric } from "../src/metric-registry.js";

describe("--metric name:key=value", () => {
  it("reads names, typed values, lists and both separators", () => {
    expect(parseMetricArgument("bleu")).toEqual({ raw: "bleu", name: "bleu", options: {} });
    expect(parseMetricArgument("chrf:wordOrder=2").options).toEqual({ wordOrder: 2 });
    expect(parseMetricArgument("rouge:useStemmer=true").options).toEqual({ useStemmer: true });
    expect(parseMetricArgument("chrf:wordOrder=2,beta=3").options).toEqual({ wordOrder: 2, beta: 3 });
    expect(parseMetricArgument("rouge:types=rouge1,rougeL:useStemmer=true").options).toEqual({
      types: ["rouge1", "rougeL"],
      useStemmer: true,
    });
    expect(parseMetricArgument('rouge:types=["rouge1","rouge2"]').options).toEqual({ types: ["rouge1", "rouge2"] });
    expect(parseMetricArgument("bleu:tokenize=13a:name=bleu13a").options).toEqual({ tokenize: "13a", name: "bleu13a" });
    expect(parseMetricArgument('g-eval:criteria="Is it correct, and polite?"').options).toEqual({ criteria: "Is it correct, and polite?" });
  });

  it("rejects malformed arguments and unknown names or keys", () => {
    expect(() => parseMetricArgument(":x=1")).toThrow("the metric name is missing");
    expect(() => parseMetricArgument("bleu:tokenize")).toThrow('expected key=value after "bleu:"');
    expect(() => parseMetricArgument("bleu:a=1:a=2")).toThrow('option "a" is given twice');
    expect(() => resolveMetric(parseMetricArgument("rogue"))).toThrow('did you mean "rouge"');
    expect(() => resolveMetric(parseMetricArgument("em:x=1"))).toThrow("it takes no options");
  });

  it("maps names to bulk-scoring specs", () => {
    expect(resolveMetric(parseMetricArgument("chrf++")).spec).toEqual({ metric: "chrf", name: "chrf++", options: { wordOrder: 2 } });
    expect(resolveMetric(parseMetricArgument("rougeL:useStemmer=true")).spec).toEqual({
      metric: "rouge",
      name: "rougeL",
      options: { useStemmer: true, types: ["rougeL"] },
    });
    expect(resolveMetric(parseMetricArgument("f1:mode=byob:name=nemo_f1")).spec).toEqual({
      metric: "tokenF1",
      name: "nemo_f1",
      options: { mode: "byob" },
    });
    const byob = resolveMetric(parseMetricArgument("byob-f1")).spec as unknown as { module: string; call: string; columns: string[] };
    expect(byob).toMatchObject({ module: "@evalkern/metrics/byob", call: "byob", columns: ["f1", "precision", "recall"] });
  });
});
