// The matchers read the @evalkern/metrics registry: the same numbers as the kernels' per-call functions,
// every registry name and alias, and the registry's typed option errors.
import { corpusBleu, corpusChrf, rougeScore, sentenceBleu, sentenceChrf, tokenF1 } from "@evalkern/core-wasm";
import { EM } from "@evalkern/metrics/dspy";
import { levenshteinSimilarity } from "@evalkern/metrics/common";
import {
  BUILTIN_METRIC_NAMES,
  MetricNotLoadedError,
  UnknownMetricError,
  UnknownOptionError,
  loadMetrics,
} from "@evalkern/metrics/registry";
import { describe, expect, it } from "vitest";
import { evalScore, type MatcherMetric } from "../src/index.js";

const PAIRS: [string, string[]][] = [
  ["the cat sat on the mat", ["the cat sat on a mat", "a cat was on the mat"]],
  ["Paris", ["paris, France", "The Paris"]],
  ["running runners ran", ["the runner runs"]],
  ["", ["x"]],
];

describe("matchers over the registry", () => {
  it("sentence scores equal the per-call kernels (0–1 scale)", () => {
    for (const [h, refs] of PAIRS) {
      expect(evalScore(h, "bleu", { references: refs })).toBe(sentenceBleu(h, refs).score / 100);
      expect(evalScore(h, "chrf", { references: refs, options: { beta: 3 } })).toBe(sentenceChrf(h, refs, { beta: 3 }).score / 100);
      expect(evalScore(h, "chrf++", { references: refs })).toBe(sentenceChrf(h, refs, { wordOrder: 2 }).score / 100);
      for (const t of ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const) {
        const want = (rougeScore(h, refs, { types: [t], useStemmer: true }) as unknown as Record<string, { fmeasure: number }>)[t]!
          .fmeasure;
        expect(evalScore(h, t, { references: refs, options: { useStemmer: true } })).toBe(want);
      }
      expect(evalScore(h, "rouge", { references: refs })).toBe(
        (rougeScore(h, refs, { types: ["rougeL"] }) as unknown as Record<string, { fmeasure: number }>).rougeL!.fmeasure,
      );
      expect(evalScore(h, "f1", { references: refs, options: { mode: "byob" } })).toBe(tokenF1(h, refs, { mode: "byob" }).f1);
      expect(evalScore(h, "tokenF1", { references: refs })).toBe(tokenF1(h, refs).f1);
      expect(evalScore(h, "em", { references: refs })).toBe(EM(h, refs) ? 1 : 0);
      expect(evalScore(h, "levenshtein", { references: refs })).toBe(Math.max(...refs.map((r) => levenshteinSimilarity(h, r))));
    }
  });

  it("corpus BLEU / chrF from summed statistics", () => {
    const hyps = PAIRS.map((p) => p[0]);
    const refs = PAIRS.map((p) => p[1]);
    expect(evalScore(hyps, "bleu", { references: refs })).toBe(corpusBleu(hyps, refs).score / 100);
    expect(evalScore(hyps, "chrf++", { references: refs })).toBe(corpusChrf(hyps, refs, { wordOrder: 2 }).score / 100);
  });

  it("typed errors for unknown metrics and misspelled options; rule metrics after loadMetrics", async () => {
    expect(() => evalScore("x", "rogueL", { reference: "x" })).toThrow(UnknownMetricError);
    expect(() => evalScore("x", "bleu", { reference: "x", options: { tokenise: "intl" } })).toThrow(UnknownOptionError);
    expect(() => evalScore("x", "bleu", { reference: "x", options: { tokenise: "intl" } })).toThrow('did you mean "tokenize"');
    expect(() => evalScore("Paris", "byob-f1", { reference: "paris" })).toThrow(MetricNotLoadedError);
    await loadMetrics(["byob-f1", "evalwire-contains"]);
    expect(evalScore("Paris", "byob-f1", { reference: "paris" })).toBe(1);
    expect(evalScore(["a b", "c"], "evalwire-contains", { references: ["a", "d"] })).toBe(0.5);
  });
});

describe("MatcherMetric", () => {
  it("derives from the registry's BUILTIN_METRIC_NAMES (TER and the aliases included)", () => {
    // each line fails to compile when the union lacks the name
    const named: Extract<MatcherMetric, "ter" | "tokenF1" | "hotpot-f1">[] = ["ter", "tokenF1", "hotpot-f1"];
    expect(named.filter((n) => (BUILTIN_METRIC_NAMES as readonly MatcherMetric[]).includes(n))).toEqual(named);
  });
});
