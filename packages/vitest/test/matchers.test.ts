// The vitest integration: `@evalkern/vitest` extends expect with score thresholds (0–1 scale).
import { describe, expect, it } from "vitest";
import { evalScore } from "../src/index.js";

describe("@evalkern/vitest matchers", () => {
  it("toScoreAtLeast / toScoreAtMost on one output", () => {
    expect("The cat sat on the mat.").toScoreAtLeast("bleu", 0.99, { reference: "The cat sat on the mat." });
    expect("the cat sat on the mat").toScoreAtLeast("rougeL", 0.7, { reference: "the cat was sitting on the mat" });
    expect("Paris").toScoreAtLeast("f1", 1, { references: ["paris", "Paris, France"] });
    expect("Paris").toScoreAtLeast("em", 1, { references: ["The Paris"] }); // DSPy normalisation drops articles
    expect("a dog").toScoreAtMost("chrf", 0.3, { reference: "the cat sat on the mat" });
    expect("a dog").not.toScoreAtLeast("bleu", 0.5, { reference: "the cat sat on the mat" });
    expect("kitten").toScoreAtLeast("levenshtein", 0.5, { reference: "sitting" });
  });

  it("scores an array of outputs as a corpus (BLEU from summed statistics)", () => {
    const outputs = ["the cat sat on the mat", "a quick red fox"];
    const references = [["the cat sat on the mat"], ["the quick brown fox"]];
    expect(outputs).toScoreAtLeast("bleu", 0.5, { references });
    expect(outputs).toScoreAtLeast("chrf++", 0.6, { references });
    expect(evalScore(outputs, "f1", { references })).toBeCloseTo((1 + 2 / 3) / 2, 10);
  });

  it("takes custom metric functions and explains failures", () => {
    const startsRight = (h: string, refs: readonly string[]) => (refs.some((r) => h.startsWith(r.slice(0, 3))) ? 1 : 0);
    expect("Paris, of course").toScoreAtLeast(startsRight, 1, { reference: "Paris" });
    let message = "";
    try {
      expect("a dog").toScoreAtLeast("bleu", 0.7, { reference: "the cat sat on the mat" });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("expected output to score at least 0.7 on bleu, got bleu 0.0000 (0–1 scale)");
    expect(message).toContain('reference: ["the cat sat on the mat"]');
    expect(() => expect("x").toScoreAtLeast("bleu", 0.5)).toThrow("give { reference }");
    expect(() => expect("x").toScoreAtLeast("bluee" as never, 0.5, { reference: "x" })).toThrow('unknown metric "bluee"');
  });
});
