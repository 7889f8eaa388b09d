// The lookup of promptfoo's model-graded assertion types by name (what `evalkern test` dispatches to):
// names without the `not-` prefix, undefined for a name no table defines.
import { describe, expect, it } from "vitest";
import { listModelGradedAssertions, modelGradedAssertion } from "../../src/index.js";

describe("modelGradedAssertion", () => {
  it("finds every listed type, and nothing for an unknown or prefixed name", () => {
    for (const name of listModelGradedAssertions()) expect(typeof modelGradedAssertion(name)).toBe("function");
    expect(new Set(listModelGradedAssertions()).size).toBe(listModelGradedAssertions().length);
    expect(modelGradedAssertion("no-such-type")).toBeUndefined();
    expect(modelGradedAssertion("not-llm-rubric")).toBeUndefined();
    expect(modelGradedAssertion(undefined as unknown as string)).toBeUndefined();
  });
});
