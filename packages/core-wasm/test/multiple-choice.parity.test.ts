// The argmax kernel against testdata/golden/mc.jsonl: lm-evaluation-harness `acc` (raw ll),
// `acc_norm` (ll per code point, no guard) and `acc_bytes` (ll per UTF-8 byte), and NeMo BYOB's
// `acc`/`acc_norm` (ll per max(bytes, 1)) where BYOB resolved a gold index. Gold resolution itself is
// @evalkern/metrics' job; here it is done the simple lm-eval way for int/bool/str golds.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import { InvalidArgumentError, multipleChoiceArgmax, multipleChoiceArgmaxBatch } from "../src/index.js";
import { readJsonl } from "./shared.js";

interface McLine {
  id: string;
  args: { target: unknown; metadata: { _choices?: string[]; _choices_logprobs?: number[] } };
  out: Record<string, number> | { error: string };
  byob_gold_index: number | null | { error: string };
  lmeval: { gold: unknown; out: Record<string, number> | { error: string } | { skipped: string } };
}

let lines: McLine[];
beforeAll(async () => {
  await ready();
  lines = await readJsonl<McLine>("golden/mc.jsonl");
});

const usable = (l: McLine): boolean => {
  const c = l.args.metadata._choices;
  const p = l.args.metadata._choices_logprobs;
  return Array.isArray(c) && Array.isArray(p) && c.length > 0 && c.length === p.length && p.every((v) => typeof v === "number");
};

describe("multiple-choice argmax", () => {
  it("reproduces lm-eval acc / acc_norm (per char) / acc_bytes on every int, bool and str gold", () => {
    let checked = 0;
    for (const l of lines) {
      if (!usable(l) || !("acc" in l.lmeval.out)) continue;
      const choices = l.args.metadata._choices!;
      const g = l.lmeval.gold;
      let gold: number;
      if (typeof g === "boolean") gold = g ? 1 : 0;
      else if (typeof g === "number" && Number.isInteger(g)) gold = g < choices.length ? g : -100;
      else if (typeof g === "string") gold = choices.indexOf(g) >= 0 ? choices.indexOf(g) : -100;
      else continue; // multi-target lists: membership, not an argmax question
      const r = multipleChoiceArgmax(choices, l.args.metadata._choices_logprobs!);
      const out = l.lmeval.out as Record<string, number>;
      expect([r.raw === gold ? 1 : 0, r.perChar === gold ? 1 : 0, r.perByte === gold ? 1 : 0], l.id).toEqual([
        out["acc"],
        out["acc_norm"],
        out["acc_bytes"],
      ]);
      checked++;
    }
    expect(checked).toBeGreaterThan(250);
  });

  it("reproduces BYOB acc and acc_norm (per byte, at least 1) wherever BYOB resolved a gold index", () => {
    let checked = 0;
    for (const l of lines) {
      if (!usable(l) || typeof l.byob_gold_index !== "number" || !("acc" in l.out)) continue;
      const r = multipleChoiceArgmax(l.args.metadata._choices!, l.args.metadata._choices_logprobs!);
      const gold = l.byob_gold_index;
      expect([r.raw === gold ? 1 : 0, r.perByteAtLeastOne === gold ? 1 : 0], l.id).toEqual([l.out["acc"], l.out["acc_norm"]]);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("follows numpy for empty choices: ll/0 is -inf, +inf or NaN, and the first NaN wins", () => {
    expect(multipleChoiceArgmax(["", "a"], [-1, -5])).toMatchObject({ raw: 0, perChar: 1, perByte: 1, perByteAtLeastOne: 0 });
    expect(multipleChoiceArgmax(["a", ""], [-1, 0])).toMatchObject({ raw: 1, perChar: 1, perByte: 1, perByteAtLeastOne: 1 });
    expect(multipleChoiceArgmax(["a", "", "b"], [-1, 2, -0.5])).toMatchObject({ raw: 1, perChar: 1, perByte: 1 });
  });

  it("breaks ties toward the lowest index and counts code points vs UTF-8 bytes", () => {
    expect(multipleChoiceArgmax(["x", "y"], [-2, -2]).raw).toBe(0);
    // "é" is 1 code point, 2 bytes; "ab" is 2 code points, 2 bytes
    expect(multipleChoiceArgmax(["é", "ab"], [-2, -3])).toMatchObject({ raw: 0, perChar: 1, perByte: 0 });
    expect(multipleChoiceArgmax(["😀", "abc"], [-4, -3.5])).toMatchObject({ raw: 1, perChar: 1, perByte: 0 });
  });

  it("batch equals one-by-one and typed errors name the problem", () => {
    const qs = lines
      .filter(usable)
      .map((l) => ({ choices: l.args.metadata._choices!, logLikelihoods: l.args.metadata._choices_logprobs! }));
    const batch = multipleChoiceArgmaxBatch(qs);
    qs.forEach((q, i) => {
      const r = multipleChoiceArgmax(q.choices, q.logLikelihoods);
      expect([r.raw, r.perChar, r.perByte, r.perByteAtLeastOne]).toEqual(Array.from(batch.subarray(4 * i, 4 * i + 4)));
    });
    expect(() => multipleChoiceArgmax([], [])).toThrow(InvalidArgumentError);
    expect(() => multipleChoiceArgmax(["a"], [1, 2])).toThrow(/differ in length/);
    expect(() => multipleChoiceArgmax(["a", 3 as unknown as string], [1, 2])).toThrow(InvalidArgumentError);
    expect(() => multipleChoiceArgmax(["a"], ["x" as unknown as number])).toThrow(/must be a number/);
  });
});
