// A reply validated once (by the client, live or from the cache) is not run through the same schema's
// validator again when a metric validates it; anything else still is. Counted verdict schemas are built
// once per count, so zod compiles each once.
import { describe, expect, it } from "vitest";
import { standardSchema, validateWith } from "../../src/index.js";
import { verdictListSchema } from "../../src/deepeval/shared-prompts.js";

/** A Standard Schema validator that counts its calls and returns a fresh object (as zod does). */
function counting() {
  const calls = { n: 0 };
  const validator = {
    "~standard": {
      version: 1 as const,
      vendor: "test",
      validate: (value: unknown) => {
        calls.n++;
        const v = value as { n?: unknown };
        return typeof v?.n === "number" ? { value: { n: v.n } } : { issues: [{ message: "n must be a number" }] };
      },
    },
  };
  const schema = standardSchema<{ n: number }>("n", validator as Parameters<typeof standardSchema<{ n: number }>>[1], {
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
    additionalProperties: false,
  });
  return { schema, calls };
}

describe("a value validated once", () => {
  it("is the schema's own output: validating it again with that schema calls no validator", async () => {
    const { schema, calls } = counting();
    const first = await validateWith(schema, { n: 3 });
    expect(first).toEqual({ ok: true, value: { n: 3 } });
    expect(calls.n).toBe(1);
    const again = await validateWith(schema, first.ok ? first.value : undefined);
    expect(again.ok && first.ok && again.value === first.value).toBe(true);
    expect(calls.n).toBe(1);
  });

  it("an equal object built elsewhere, or the value under another schema, is validated", async () => {
    const a = counting();
    const b = counting();
    const first = await validateWith(a.schema, { n: 3 });
    await validateWith(a.schema, { n: 3 });
    expect(a.calls.n).toBe(2);
    await validateWith(b.schema, first.ok ? first.value : undefined);
    expect(b.calls.n).toBe(1);
    // a rejected value is never recorded
    expect((await validateWith(a.schema, { n: "x" })).ok).toBe(false);
    expect((await validateWith(a.schema, { n: "x" })).ok).toBe(false);
    expect(a.calls.n).toBe(4);
  });
});

describe("counted verdict schemas", () => {
  it("are one object per count, and still require exactly that many verdicts", async () => {
    const three = verdictListSchema(["yes", "no"] as const, "required", { count: 3, per: "claim" });
    expect(verdictListSchema(["yes", "no"] as const, "required", { count: 3, per: "claim" })).toBe(three);
    const two = verdictListSchema(["yes", "no"] as const, "required", { count: 2, per: "claim" });
    expect(two).not.toBe(three);
    expect(two.jsonSchema).toBe(three.jsonSchema);
    const verdicts = [
      { verdict: "Yes, it is", reason: "a" },
      { verdict: "no", reason: "b" },
    ];
    expect(await validateWith(two, { verdicts })).toEqual({
      ok: true,
      value: {
        verdicts: [
          { verdict: "yes", reason: "a" },
          { verdict: "no", reason: "b" },
        ],
      },
    });
    expect(await validateWith(three, { verdicts })).toEqual({
      ok: false,
      issues: ["verdicts: expected 3 verdicts (one per claim), got 2"],
    });
  });
});
