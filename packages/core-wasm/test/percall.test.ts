// The per-call entry points (one crossing each, persistent arenas, options resolved once) give exactly
// what the batch entry points give for the same pair, in any order of calls and options: every golden
// pair under several option sets, plus texts that take the kernels' other paths (hypotheses past 64 and
// past 1,024 symbols, non-ASCII, lowercase that lengthens a text) interleaved so that state a call
// leaves behind would show.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import {
  chrfStatisticsBatch,
  rougeBatch,
  rougeScore,
  sentenceChrf,
  sentenceChrfBatch,
  tokenF1,
  tokenF1Batch,
  type ChrfOptions,
  type RougeOptions,
  type RougeType,
  type TokenF1Options,
} from "../src/index.js";
import { readJsonl } from "./shared.js";

interface Pair {
  id: string;
  hyp: string;
  refs: string[];
}

let pairs: Pair[];
beforeAll(async () => {
  await ready();
  const golden = await readJsonl<Pair>("golden/pairs.jsonl");
  const words = "the cat sat on a mat Über straße İstanbul ΣΊΣΥΦΟΣ 東京 😀 don't stop, now!".split(" ");
  const text = (seed: number, n: number): string => {
    let s = seed;
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      out.push(words[s % words.length]!);
    }
    return out.join(seed % 3 === 0 ? "\n" : " ");
  };
  const extra: Pair[] = [];
  for (const n of [3, 12, 40, 200, 400, 900]) {
    extra.push({ id: `gen${n}`, hyp: text(n, n), refs: [text(n + 1, n), text(n + 2, Math.max(1, n >> 1)), ""] });
  }
  extra.push({ id: "dup", hyp: "ab ".repeat(700), refs: ["ab ".repeat(650), "ba ".repeat(700)] });
  // interleave short and long items so that a long one runs between short ones and after them
  pairs = [];
  for (let i = 0; i < golden.length; i++) {
    pairs.push(golden[i]!);
    if (i % 97 === 0) pairs.push(extra[(i / 97) % extra.length]!);
  }
  pairs.push(...extra);
});

const CHRF_OPTIONS: ChrfOptions[] = [
  {},
  { wordOrder: 2 },
  { lowercase: true },
  { whitespace: true },
  { epsSmoothing: true, beta: 3 },
  { charOrder: 8, wordOrder: 1, lowercase: true },
  { charOrder: 2 },
];

describe("sentenceChrf per call = sentenceChrfBatch / chrfStatisticsBatch, bit for bit", () => {
  for (const options of CHRF_OPTIONS) {
    it(JSON.stringify(options), () => {
      const hyps = pairs.map((p) => p.hyp);
      const refs = pairs.map((p) => p.refs);
      const scores = sentenceChrfBatch(hyps, refs, options);
      const stats = chrfStatisticsBatch(hyps, refs, options);
      const w = stats.length / pairs.length;
      for (let i = 0; i < pairs.length; i++) {
        const r = sentenceChrf(pairs[i]!.hyp, pairs[i]!.refs, options);
        expect(r, pairs[i]!.id).toEqual({ score: scores[i], stats: Array.from(stats.subarray(i * w, (i + 1) * w)) });
      }
    });
  }

  it("alternating option objects and a changed options object are resolved afresh", () => {
    const p = pairs[1]!;
    const o: { wordOrder?: number; lowercase?: boolean } = {};
    const plain = sentenceChrf(p.hyp, p.refs, o);
    o.wordOrder = 2;
    expect(sentenceChrf(p.hyp, p.refs, o)).toEqual(sentenceChrf(p.hyp, p.refs, { wordOrder: 2 }));
    o.wordOrder = undefined;
    expect(sentenceChrf(p.hyp, p.refs, o)).toEqual(plain);
    expect(sentenceChrf(p.hyp, p.refs, o).stats).toHaveLength(18);
    expect(() => sentenceChrf(p.hyp, p.refs, { ...o, beta: -1 })).toThrow(/options.beta/);
  });
});

const ROUGE_OPTIONS: RougeOptions[] = [
  {},
  { types: ["rouge1", "rouge2", "rougeL"] },
  { types: ["rougeLsum", "rouge3", "rouge1", "rouge9"], useStemmer: true },
  { types: ["rougeL", "rougeL", "rouge2"] },
  {
    types: [
      "rouge1",
      "rouge2",
      "rouge3",
      "rouge4",
      "rouge5",
      "rouge6",
      "rouge7",
      "rouge8",
      "rouge9",
      "rougeL",
      "rougeLsum",
      "rouge1",
      "rouge2",
      "rougeL",
      "rougeLsum",
      "rouge4",
    ],
  },
  { types: [] },
  // more than the 32 types one crossing takes: the batch path
  { types: Array.from({ length: 33 }, (_, k) => (["rouge1", "rouge2", "rougeL", "rougeLsum", "rouge4"] as const)[k % 5]!) },
];

describe("rougeScore per call = rougeBatch, bit for bit", () => {
  for (const options of ROUGE_OPTIONS) {
    it(JSON.stringify(options), () => {
      const hyps = pairs.map((p) => p.hyp);
      const refs = pairs.map((p) => p.refs);
      const types = (options.types ?? ["rouge1", "rouge2", "rougeL", "rougeLsum"]) as RougeType[];
      const rows = rougeBatch(hyps, refs, options);
      const tc = types.length;
      for (let i = 0; i < pairs.length; i++) {
        const r = rougeScore(pairs[i]!.hyp, pairs[i]!.refs, options);
        const want: Record<string, { precision: number; recall: number; fmeasure: number }> = {};
        for (let t = 0; t < tc; t++) {
          const o = (i * tc + t) * 3;
          want[types[t]!] = { precision: rows[o]!, recall: rows[o + 1]!, fmeasure: rows[o + 2]! };
        }
        expect(r, pairs[i]!.id).toEqual(want);
      }
      // one reference as a plain string
      const one = rougeScore(pairs[0]!.hyp, pairs[0]!.refs[0]!, options);
      expect(one).toEqual(rougeScore(pairs[0]!.hyp, [pairs[0]!.refs[0]!], options));
    });
  }

  it("a changed options object is resolved afresh", () => {
    const p = pairs[1]!;
    const o: { types?: RougeType[]; useStemmer?: boolean } = { types: ["rouge1"] };
    expect(Object.keys(rougeScore(p.hyp, p.refs, o))).toEqual(["rouge1"]);
    o.types = ["rougeL", "rouge2"];
    expect(Object.keys(rougeScore(p.hyp, p.refs, o))).toEqual(["rougeL", "rouge2"]);
    o.types.push("rouge3");
    expect(Object.keys(rougeScore(p.hyp, p.refs, o))).toEqual(["rougeL", "rouge2", "rouge3"]);
    o.useStemmer = true;
    expect(rougeScore(p.hyp, p.refs, o)).toEqual(rougeScore(p.hyp, p.refs, { types: ["rougeL", "rouge2", "rouge3"], useStemmer: true }));
    expect(() => rougeScore(p.hyp, p.refs, { types: ["rouge10" as RougeType] })).toThrow(/options.types\[0\]/);
  });

  it("each call returns fresh objects (a caller may change them)", () => {
    const p = pairs[2]!;
    const a = rougeScore(p.hyp, p.refs, ROUGE_OPTIONS[1]);
    const want = structuredClone(a);
    (a as Record<string, unknown>)["extra"] = 1;
    a.rouge1.precision = -1;
    delete (a as Partial<typeof a>).rouge2;
    expect(rougeScore(p.hyp, p.refs, ROUGE_OPTIONS[1])).toEqual(want);
    expect(Object.keys(rougeScore(p.hyp, p.refs, ROUGE_OPTIONS[1]))).toEqual(["rouge1", "rouge2", "rougeL"]);
  });
});

describe("tokenF1 per call = tokenF1Batch, bit for bit", () => {
  const F1_OPTIONS: (TokenF1Options | undefined)[] = [undefined, { mode: "byob" }, { hotpot: true }, { mode: "dspy" }];
  for (const options of F1_OPTIONS) {
    it(JSON.stringify(options) ?? "default", () => {
      const rows = tokenF1Batch(
        pairs.map((p) => p.hyp),
        pairs.map((p) => p.refs),
        options,
      );
      for (let i = 0; i < pairs.length; i++) {
        expect(tokenF1(pairs[i]!.hyp, pairs[i]!.refs, options), pairs[i]!.id).toEqual({
          f1: rows[3 * i],
          precision: rows[3 * i + 1],
          recall: rows[3 * i + 2],
        });
      }
      expect(tokenF1("yes", ["no"], options).f1).toBe(options?.hotpot ? 0 : tokenF1Batch(["yes"], [["no"]], options)[0]);
    });
  }

  it("a changed options object is resolved afresh", () => {
    const o: { mode?: "dspy" | "byob"; hotpot?: boolean } = { mode: "byob" };
    expect(tokenF1("The cat.", ["the cat"], o).f1).toBe(0.5);
    o.mode = "dspy";
    expect(tokenF1("The cat.", ["the cat"], o).f1).toBe(1);
    o.hotpot = true;
    expect(tokenF1("yes", ["no yes"], o).f1).toBe(0);
    o.mode = "byob";
    expect(() => tokenF1("yes", ["no"], o)).toThrow(/options.hotpot/);
  });
});
