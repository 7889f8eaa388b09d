// pairScore: one pair's headline score on a registry metric, on its own scale and on 0–1.
import { describe, expect, it } from "vitest";
import { loadMetrics, pairScore, ready, UnknownMetricError } from "../../src/registry/index.js";

describe("pairScore", () => {
  it("scores one pair: ROUGE-L F of an LCS of 4 in 6 and 6 tokens, DSPy token F1, a rule metric, BLEU on 0–100", async () => {
    await ready();
    await loadMetrics(["evalwire-contains"]);
    expect(pairScore("rougeL", "Tokyo is the capital of Japan.", ["The capital of Japan is Tokyo."]).score).toBeCloseTo(4 / 6, 12);
    // articles and punctuation dropped: "cat sat" against "cat sat"
    expect(pairScore("f1", "The cat sat.", ["the cat sat"]).score).toBe(1);
    expect(pairScore("evalwire-contains", "a red fox", ["fox"])).toMatchObject({ value: 1, score: 1 });
    const bleu = pairScore("bleu", "the cat sat on the mat", ["the cat sat on the mat"]);
    // sacreBLEU's own float for a perfect match is 100.00000000000004 (exp of summed logs)
    expect(bleu.value).toBeCloseTo(100, 10);
    expect(bleu.score).toBeCloseTo(1, 12);
    expect(() => pairScore("roguel", "a", ["a"])).toThrow(UnknownMetricError);
  });
});
