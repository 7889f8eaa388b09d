// `@evalkern/cli/vitest` stays a working entry point: it re-exports @evalkern/vitest and its import
// extends expect (the matchers themselves are tested in packages/vitest).
import { describe, expect, it } from "vitest";
import * as matchers from "@evalkern/vitest";
import * as compat from "../src/vitest.js";

describe("@evalkern/cli/vitest (compatibility re-export of @evalkern/vitest)", () => {
  it("exports the same functions", () => {
    expect(compat.evalScore).toBe(matchers.evalScore);
    expect(compat.evalkernMatchers).toBe(matchers.evalkernMatchers);
  });

  it("extends expect on import", () => {
    expect("Paris").toScoreAtLeast("f1", 1, { references: ["paris"] });
    expect("a dog").toScoreAtMost("bleu", 0.2, { reference: "the cat sat on the mat" });
  });
});
