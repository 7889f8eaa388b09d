// The NeMo BYOB kernels (assembly/byob.ts): token LCS statistics against a pure-TS reference, and BYOB's
// BLEU formula from statistics against the BYOB goldens.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bleuStatisticsBatch,
  byobBleuScoresFromStatisticsBatch,
  byobLcsStatisticsBatch,
  InvalidArgumentError,
  pythonLowerSplitJoin,
  ready,
} from "../src/index.js";
import { readJsonl } from "./shared.js";

beforeAll(async () => {
  await ready();
});

/** BYOB's `_lcs_length` (two-row DP), on BYOB tokens. */
function referenceLcs(hyp: string, ref: string): [number, number, number] {
  const tok = (s: string): string[] => {
    const j = pythonLowerSplitJoin(s);
    return j === "" ? [] : j.split(" ");
  };
  const x = tok(hyp);
  const y = tok(ref);
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const cur = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++) cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  return [x.length, y.length, prev[y.length]!];
}

describe("byobLcsStatisticsBatch", () => {
  it("examples", () => {
    expect(Array.from(byobLcsStatisticsBatch(["the cat sat", "", "a b c"], ["The cat  sat down", "x", ""]))).toEqual([
      3, 4, 3, 0, 1, 0, 3, 0, 0,
    ]);
    // tokens keep punctuation, compare after Python lower(): İ → i̇
    expect(Array.from(byobLcsStatisticsBatch(["İstanbul, yes."], ["i̇stanbul, yes"]))).toEqual([2, 2, 1]);
  });

  it("equals the DP reference (random token sequences, long ones cross 64-bit words)", () => {
    const word = fc.constantFrom("a", "b", "c", "A", "dé", "x.", "😀");
    const text = fc.tuple(fc.array(word, { maxLength: 150 }), fc.constantFrom(" ", "  ", "\t", "\u3000")).map(([w, sep]) => w.join(sep));
    fc.assert(
      fc.property(text, text, (h, r) => {
        expect(Array.from(byobLcsStatisticsBatch([h], [r]))).toEqual(referenceLcs(h, r));
      }),
      { numRuns: 300 },
    );
  });

  it("rejects wrong shapes", () => {
    expect(() => byobLcsStatisticsBatch(["a"], [])).toThrow(InvalidArgumentError);
    expect(() => byobLcsStatisticsBatch([1 as unknown as string], ["a"])).toThrow(InvalidArgumentError);
  });
});

describe("byobBleuScoresFromStatisticsBatch", () => {
  it("the spec's example: bleu_4 above bleu_3 for short hypotheses", () => {
    const stats = bleuStatisticsBatch(["a b c"], [["a b d"]], { tokenize: "none", lowercase: true });
    const s = Array.from(byobBleuScoresFromStatisticsBatch(stats));
    expect(s.map((v) => v.toFixed(4))).toEqual(["0.7500", "0.7071", "0.6300", "0.7071"]);
  });

  it("reproduces BYOB's bleu on byob.jsonl (≥ 99.8% bit-exact, all within 1e-12)", async () => {
    const lines = (
      await readJsonl<{ fn: string; args: { response: unknown; target: unknown }; out: Record<string, number> }>("golden/byob.jsonl")
    ).filter((l) => l.fn === "bleu" && typeof l.args.response === "string" && typeof l.args.target === "string");
    const hyps = lines.map((l) => l.args.response as string);
    const refs = lines.map((l) => [l.args.target as string]);
    const scores = byobBleuScoresFromStatisticsBatch(bleuStatisticsBatch(hyps, refs, { tokenize: "none", lowercase: true }));
    let exact = 0;
    lines.forEach((l, i) => {
      const exp = [l.out["bleu_1"]!, l.out["bleu_2"]!, l.out["bleu_3"]!, l.out["bleu_4"]!];
      const got = Array.from(scores.subarray(4 * i, 4 * i + 4));
      if (got.every((v, k) => Object.is(v, exp[k]))) exact++;
      got.forEach((v, k) => expect(Math.abs(v - exp[k]!)).toBeLessThanOrEqual(1e-12));
    });
    expect(exact / lines.length).toBeGreaterThan(0.998);
  });

  it("rejects malformed statistics", () => {
    expect(() => byobBleuScoresFromStatisticsBatch(new Float64Array(9))).toThrow(InvalidArgumentError);
    expect(() => byobBleuScoresFromStatisticsBatch(new Float64Array(10).fill(-1))).toThrow(InvalidArgumentError);
  });
});
