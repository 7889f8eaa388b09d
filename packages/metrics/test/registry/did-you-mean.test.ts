// One did-you-mean for every package (metrics' registry, option keys, the CLI, the judge registry and
// settings): the two sets of rules its callers had before, now parameters of one function.
import { describe, expect, it } from "vitest";
import { didYouMean, NAME_NEARNESS, OPTION_KEY_NEARNESS } from "../../src/options.js";
import { didYouMean as fromRegistry } from "../../src/registry/index.js";
import { rejectUnknownOptions } from "../../src/index.js";

describe("didYouMean", () => {
  it("names: case, '-' and '_' are ignored, two edits at most, the first of equally close wins", () => {
    expect(didYouMean("rogue", ["bleu", "rouge", "chrf"])).toBe("rouge");
    expect(didYouMean("HOTPOT_F1", ["f1", "hotpot-f1"])).toBe("hotpot-f1");
    expect(didYouMean("ax", ["ab", "ac"])).toBe("ab");
    expect(didYouMean("blue", ["bleu"])).toBe("bleu"); // a swap is two edits
    expect(didYouMean("brevity", ["bleu", "chrf"])).toBeUndefined();
    expect(fromRegistry).toBe(didYouMean);
    expect(didYouMean("rogue", ["rouge"], NAME_NEARNESS)).toBe("rouge");
  });

  it("option keys: case only, edits up to a third of the key's length (two at most)", () => {
    expect(didYouMean("Tokenize", ["tokenize"], OPTION_KEY_NEARNESS)).toBe("tokenize");
    expect(didYouMean("tokenise", ["tokenize"], OPTION_KEY_NEARNESS)).toBe("tokenize"); // 1 edit, 8 letters
    expect(didYouMean("ax", ["ab"], OPTION_KEY_NEARNESS)).toBeUndefined(); // a 2-letter key allows 0 edits
    expect(didYouMean("AB", ["ab"], OPTION_KEY_NEARNESS)).toBe("ab");
    expect(didYouMean("use_stemmer", ["useStemmer"], OPTION_KEY_NEARNESS)).toBe("useStemmer"); // '_' is one edit here
    expect(didYouMean("tok", ["tokenize"], OPTION_KEY_NEARNESS)).toBeUndefined(); // 5 edits
  });

  it("rejectUnknownOptions suggests with the option-key rules", () => {
    expect(() => rejectUnknownOptions({ comands: [] }, ["commands"], "SandboxMetric")).toThrow(/commands/);
    expect(() => rejectUnknownOptions({ nme: 1 }, ["name"], "M")).toThrow(expect.objectContaining({ suggestion: "name" }));
  });
});
