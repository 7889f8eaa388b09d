// Parity with Google's rouge-score 0.1.x (RougeScorer(["rouge1","rouge2","rougeL","rougeLsum"],
// use_stemmer=False|True)) on every line of testdata/golden/rouge.jsonl: precision, recall and
// fmeasure of the 4 types × nostem/stem × single (score(refs[0], hyp)) / multi (score_multi(refs, hyp)),
// all compared bit for bit. Then unit tests of the tokenizer, rougeLsum, rouge3..9, score_multi's
// selection and argument errors.
import { beforeAll, describe, expect, it } from "vitest";
import { ready, kernels } from "../src/kernel.js";
import { EvalkernError, InvalidArgumentError } from "../src/errors.js";
import { rougeBatch, rougeScore, type RougeScore, type RougeType } from "../src/rouge.js";
import { readJsonl } from "./shared.js";

interface Pair {
  id: string;
  hyp: string;
  refs: string[];
}
type Scores = Record<"rouge1" | "rouge2" | "rougeL" | "rougeLsum", { precision: number; recall: number; fmeasure: number }>;
interface GoldLine {
  id: string;
  n_refs: number;
  nostem: { single: Scores; multi: Scores };
  stem: { single: Scores; multi: Scores };
}

const TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const;

let pairs: Pair[];
let gold: GoldLine[];
beforeAll(async () => {
  await ready();
  pairs = await readJsonl<Pair>("golden/pairs.jsonl");
  gold = await readJsonl<GoldLine>("golden/rouge.jsonl");
});

describe("rouge-score parity, every golden line", () => {
  for (const stem of ["nostem", "stem"] as const) {
    for (const mode of ["single", "multi"] as const) {
      it(`${stem} ${mode}: rougeBatch, 4 types × P/R/F bit for bit`, () => {
        expect(gold.length).toBe(pairs.length);
        const refs = pairs.map((p) => (mode === "single" ? p.refs[0]! : p.refs));
        const out = rougeBatch(
          pairs.map((p) => p.hyp),
          refs,
          { types: [...TYPES], useStemmer: stem === "stem" },
        );
        expect(out.length).toBe(pairs.length * 12);
        const mismatches: string[] = [];
        for (let i = 0; i < pairs.length; i++) {
          const g = gold[i]!;
          expect(g.id).toBe(pairs[i]!.id);
          TYPES.forEach((t, k) => {
            const e = g[stem][mode][t];
            const got = [out[i * 12 + k * 3]!, out[i * 12 + k * 3 + 1]!, out[i * 12 + k * 3 + 2]!];
            const want = [e.precision, e.recall, e.fmeasure];
            if (!got.every((v, j) => Object.is(v, want[j]))) mismatches.push(`${g.id} ${t}: got ${got} want ${want}`);
          });
        }
        expect(mismatches).toEqual([]);
      });

      it(`${stem} ${mode}: rougeScore per line agrees`, () => {
        const mismatches: string[] = [];
        for (let i = 0; i < pairs.length; i++) {
          const p = pairs[i]!;
          const r = rougeScore(p.hyp, mode === "single" ? [p.refs[0]!] : p.refs, { useStemmer: stem === "stem" });
          expect(Object.keys(r)).toEqual([...TYPES]);
          for (const t of TYPES) {
            const e = gold[i]![stem][mode][t];
            const s = r[t];
            if (!Object.is(s.precision, e.precision) || !Object.is(s.recall, e.recall) || !Object.is(s.fmeasure, e.fmeasure)) {
              mismatches.push(`${p.id} ${t}: got ${JSON.stringify(s)} want ${JSON.stringify(e)}`);
            }
          }
        }
        expect(mismatches).toEqual([]);
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------------
// A direct JS transcription of rouge_scorer.py over already tokenized text, used as an oracle on random
// inputs (the golden file has few multi-line texts and no long ones).

function fmeasure(p: number, r: number): number {
  return p + r > 0 ? (2 * p * r) / (p + r) : 0.0;
}
function score(p: number, r: number): RougeScore {
  return { precision: p, recall: r, fmeasure: fmeasure(p, r) };
}
function refNgrams(target: string[], pred: string[], n: number): RougeScore {
  const count = (t: string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= t.length; i++) {
      const k = t.slice(i, i + n).join(" ");
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    return m;
  };
  const tg = count(target);
  const pg = count(pred);
  let inter = 0;
  for (const [k, c] of tg) inter += Math.min(c, pg.get(k) ?? 0);
  let tc = 0;
  let pc = 0;
  for (const c of tg.values()) tc += c;
  for (const c of pg.values()) pc += c;
  return score(inter / Math.max(pc, 1), inter / Math.max(tc, 1));
}
function lcsTable(ref: string[], can: string[]): number[][] {
  const t = Array.from({ length: ref.length + 1 }, () => new Array<number>(can.length + 1).fill(0));
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      t[i]![j] = ref[i - 1] === can[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
    }
  }
  return t;
}
function refLcs(target: string[], pred: string[]): RougeScore {
  if (!target.length || !pred.length) return score(0, 0);
  const l = lcsTable(target, pred)[target.length]![pred.length]!;
  return score(l / pred.length, l / target.length);
}
function refLsum(refSents: string[][], canSents: string[][]): RougeScore {
  if (!refSents.length || !canSents.length) return score(0, 0);
  const m = refSents.reduce((a, s) => a + s.length, 0);
  const n = canSents.reduce((a, s) => a + s.length, 0);
  if (!n || !m) return score(0, 0);
  const cr = new Map<string, number>();
  const cc = new Map<string, number>();
  for (const s of refSents) for (const t of s) cr.set(t, (cr.get(t) ?? 0) + 1);
  for (const s of canSents) for (const t of s) cc.set(t, (cc.get(t) ?? 0) + 1);
  let hits = 0;
  for (const r of refSents) {
    const union = new Set<number>();
    for (const c of canSents) {
      const t = lcsTable(r, c);
      let i = r.length;
      let j = c.length;
      while (i > 0 && j > 0) {
        if (r[i - 1] === c[j - 1]) {
          union.add(i - 1);
          i--;
          j--;
        } else if (t[i]![j - 1]! > t[i - 1]![j]!) j--;
        else i--;
      }
    }
    for (const i of [...union].sort((a, b) => a - b)) {
      const tok = r[i]!;
      if ((cc.get(tok) ?? 0) > 0 && (cr.get(tok) ?? 0) > 0) {
        hits++;
        cc.set(tok, cc.get(tok)! - 1);
        cr.set(tok, cr.get(tok)! - 1);
      }
    }
  }
  return score(hits / n, hits / m);
}
/** The oracle's tokenizer, for ASCII input only: lowercase, non-[a-z0-9] runs are separators. */
const toks = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((x) => x.length > 0);
const sents = (s: string): string[][] =>
  s
    .split("\n")
    .filter((x) => x.length > 0)
    .map(toks);
function oracle(type: RougeType, target: string, pred: string): RougeScore {
  if (type === "rougeL") return refLcs(toks(target), toks(pred));
  if (type === "rougeLsum") return refLsum(sents(target), sents(pred));
  return refNgrams(toks(target), toks(pred), Number(type.slice(5)));
}
function oracleMulti(type: RougeType, targets: string[], pred: string): RougeScore {
  let best: RougeScore | undefined;
  for (const t of targets) {
    const s = oracle(type, t, pred);
    if (!best || s.fmeasure > best.fmeasure) best = s;
  }
  return best!;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALL_TYPES: RougeType[] = [
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
];

describe("tokenizer (rouge_score.tokenize)", () => {
  const same = (a: string, b: string): boolean => {
    // equal token sequences <=> rouge1 = rouge2 = rougeL = 1 in both directions and equal lengths
    const s = rougeScore(a, b, { types: ["rouge1", "rougeL"] });
    return s.rouge1.precision === 1 && s.rouge1.recall === 1 && s.rougeL.fmeasure === 1;
  };
  it("lowercases ASCII; non-ASCII letters are separators", () => {
    expect(same("Café", "caf")).toBe(true);
    expect(rougeScore("Café", "cafe").rouge1.fmeasure).toBe(0);
    expect(same("naïve résumé", "na ve r sum")).toBe(true);
    expect(same("Straße", "stra e")).toBe(true);
    expect(same("The QUICK brown", "the quick BROWN")).toBe(true);
  });
  it("İ lowercases to i + U+0307 (a separator); the Kelvin sign to k", () => {
    expect(same("İstanbul", "i stanbul")).toBe(true);
    expect(rougeScore("İstanbul", "istanbul").rouge1.fmeasure).toBe(0);
    expect(same("xİy", "xi y")).toBe(true);
    expect(same("5\u212A run", "5k run")).toBe(true);
    expect(same("\u212Aelvin", "kelvin")).toBe(true);
  });
  it("text without ASCII letters or digits has no tokens", () => {
    const s = rougeScore("東京は日本の首都です。", "東京は日本の首都です。");
    for (const t of ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const) expect(s[t]).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(same("Привет, мир! don't", "don t")).toBe(true);
  });
  it("punctuation and digits", () => {
    expect(same("U.S.A.", "u s a")).toBe(true);
    expect(same("3.14159", "3 14159")).toBe(true);
    expect(same("e-mail, co-operate", "e mail co operate")).toBe(true);
  });
  it("empty sides give 0 (rougeN: P and R over max(count, 1))", () => {
    const s = rougeScore("", "a reference", { types: ["rouge1", "rougeL", "rougeLsum"] });
    expect(s.rouge1).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(s.rougeL).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeScore("a b", "a").rouge2).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });
});

describe("rougeLsum", () => {
  it("equals rougeL when no text has a newline (every golden line without \\n)", () => {
    let checked = 0;
    for (const p of pairs) {
      if (p.hyp.includes("\n") || p.refs.some((r) => r.includes("\n"))) continue;
      for (const useStemmer of [false, true]) {
        const s = rougeScore(p.hyp, p.refs, { types: ["rougeL", "rougeLsum"], useStemmer });
        expect(s.rougeLsum, p.id).toEqual(s.rougeL);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(2900);
  });
  it("takes the union of LCS over candidate lines", () => {
    const s = rougeScore("a b\nc d", "c d a b", { types: ["rougeL", "rougeLsum"] });
    expect(s.rougeL).toEqual(score(0.5, 0.5));
    expect(s.rougeLsum).toEqual(score(1, 1));
  });
  it("backtrack ties go up (towards earlier reference tokens)", () => {
    // ref line "a b" vs candidate "b a": the LCS is "a" (ties go up), not "b"; with candidate "a" the
    // union is {a}: 1 hit. Ties going left would give {a, b}: 2 hits.
    const s = rougeScore("b a\na", "a b", { types: ["rougeLsum"] });
    expect(s.rougeLsum).toEqual(score(1 / 3, 1 / 2));
  });
  it("does not count a token more often than both texts hold it", () => {
    const s = rougeScore("a", "a\na", { types: ["rougeLsum"] });
    expect(s.rougeLsum).toEqual(score(1, 0.5));
  });
  it("splits only at \\n and drops empty lines; lines of spaces are kept but hold no token", () => {
    const a = rougeScore("x y\n\n   \nz", "x y z", { types: ["rougeLsum"] }).rougeLsum;
    expect(a).toEqual(refLsum([["x", "y", "z"]], [["x", "y"], [], ["z"]]));
    expect(a).toEqual(score(1, 1));
    const b = rougeScore("x y\r\nz", "y x\rz", { types: ["rougeLsum", "rougeL"] });
    expect(b.rougeLsum).toEqual(refLsum([["y", "x", "z"]], [["x", "y"], ["z"]]));
  });
});

describe("oracle comparison on random texts", () => {
  const VOCAB = ["a", "b", "c", "d", "e", "the", "cat", "sat", "on", "mat"];
  const text = (r: () => number, maxTokens: number, lines: boolean): string => {
    const n = Math.floor(r() * (maxTokens + 1));
    let s = "";
    for (let i = 0; i < n; i++) {
      s += VOCAB[Math.floor(r() * VOCAB.length)]!;
      const x = r();
      s += lines && x < 0.12 ? "\n" : lines && x < 0.15 ? "\n\n" : x < 0.2 ? ", " : " ";
    }
    return s;
  };
  it("all 11 types, one and several references, short and long (> 64 tokens) texts", () => {
    const r = rng(12345);
    const hyps: string[] = [];
    const refs: string[][] = [];
    for (let i = 0; i < 1500; i++) {
      const max = i % 10 === 0 ? 300 : 25;
      const lines = i % 3 === 0;
      hyps.push(text(r, max, lines));
      const k = 1 + Math.floor(r() * 3);
      refs.push(Array.from({ length: k }, () => text(r, max, lines)));
    }
    const out = rougeBatch(hyps, refs, { types: ALL_TYPES });
    const bad: string[] = [];
    for (let i = 0; i < hyps.length; i++) {
      ALL_TYPES.forEach((t, k) => {
        const e = oracleMulti(t, refs[i]!, hyps[i]!);
        const o = (i * ALL_TYPES.length + k) * 3;
        if (!Object.is(out[o], e.precision) || !Object.is(out[o + 1], e.recall) || !Object.is(out[o + 2], e.fmeasure)) {
          bad.push(`${i} ${t}: ${out[o]},${out[o + 1]},${out[o + 2]} vs ${JSON.stringify(e)}`);
        }
      });
    }
    expect(bad.slice(0, 10)).toEqual([]);
  });
});

describe("rouge3..rouge9", () => {
  it("identical texts score 1; texts shorter than n score 0", () => {
    const s = rougeScore("one two three four five six seven eight nine ten", "One two three four five six seven eight nine ten.", {
      types: ALL_TYPES,
    });
    for (const t of ALL_TYPES) expect(s[t], t).toEqual({ precision: 1, recall: 1, fmeasure: 1 });
    const short = rougeScore("a b c d", "a b c d", { types: ["rouge4", "rouge5", "rouge9"] });
    expect(short.rouge4).toEqual({ precision: 1, recall: 1, fmeasure: 1 });
    expect(short.rouge5).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(short.rouge9).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });
  it("counts n-grams as multisets", () => {
    const s = rougeScore("a b c a b c", "a b c", { types: ["rouge3"] });
    // hyp 3-grams: abc, bca, cab, abc (4); ref: abc (1); overlap min(2, 1) = 1
    expect(s.rouge3).toEqual(score(1 / 4, 1));
  });
});

describe("score_multi", () => {
  it("picks the best reference per type on its own", () => {
    const s = rougeScore("a b c d", ["a b x x", "d c b a"], { types: ["rouge1", "rougeL"] });
    expect(s.rouge1).toEqual(score(1, 1)); // second reference
    expect(s.rougeL).toEqual(score(0.5, 0.5)); // first reference
  });
  it("keeps the first reference on an F tie", () => {
    // "a b c d": P 1, R 0.5; "a": P 0.5, R 1 — the same F
    expect(rougeScore("a b", ["a b c d", "a"], { types: ["rouge1"] }).rouge1).toEqual(score(1, 0.5));
    expect(rougeScore("a b", ["a", "a b c d"], { types: ["rouge1"] }).rouge1).toEqual(score(0.5, 1));
  });
  it("one reference as a string or a one-element array is score()", () => {
    expect(rougeScore("the cat sat", "the cat")).toEqual(rougeScore("the cat sat", ["the cat"]));
  });
});

describe("API", () => {
  it("default types are rouge1, rouge2, rougeL, rougeLsum, in that order", () => {
    expect(Object.keys(rougeScore("a", "a"))).toEqual(["rouge1", "rouge2", "rougeL", "rougeLsum"]);
    const b = rougeBatch(["a b", "c"], ["a b", ["x", "c"]]);
    expect(b.length).toBe(2 * 4 * 3);
  });
  it("rougeBatch lays out n × types × (P, R, F) in the order of options.types", () => {
    const hyps = ["the cat sat on the mat", "", "a b c"];
    const refs: (string | string[])[] = ["the cat is on the mat", ["x", "y"], ["a c", "c b a"]];
    const types: RougeType[] = ["rougeLsum", "rouge3", "rouge1"];
    const out = rougeBatch(hyps, refs, { types, useStemmer: true });
    expect(out.length).toBe(3 * 3 * 3);
    hyps.forEach((h, i) => {
      const s = rougeScore(h, refs[i]!, { types, useStemmer: true });
      types.forEach((t, k) => {
        expect([out[(i * 3 + k) * 3], out[(i * 3 + k) * 3 + 1], out[(i * 3 + k) * 3 + 2]]).toEqual([
          s[t].precision,
          s[t].recall,
          s[t].fmeasure,
        ]);
      });
    });
    expect(rougeBatch([], [])).toEqual(new Float64Array(0));
  });
  it("keeps memory flat over repeated batches", () => {
    const hyps = Array.from({ length: 2000 }, (_, i) => `sentence number ${i} with a few more words running jumping`);
    const refs = hyps.map((h) => h.split(" ").reverse().join(" "));
    rougeBatch(hyps, refs, { useStemmer: true });
    const before = kernels().memory.buffer.byteLength;
    for (let k = 0; k < 20; k++) rougeBatch(hyps, refs, { useStemmer: k % 2 === 0 });
    expect(kernels().memory.buffer.byteLength).toBe(before);
  });
});

describe("argument errors", () => {
  const fails = (f: () => unknown, argument: string, index?: number): void => {
    let err: unknown;
    try {
      f();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(EvalkernError.isInstance(err)).toBe(true);
    expect((err as InvalidArgumentError).argument).toBe(argument);
    expect((err as InvalidArgumentError).index).toBe(index);
  };
  it("wrong types", () => {
    fails(() => rougeScore(42 as unknown as string, "a"), "hyp");
    fails(() => rougeScore("a", 42 as unknown as string), "refs");
    fails(() => rougeScore("a", ["b", null] as unknown as string[]), "refs");
    fails(() => rougeBatch("a" as unknown as string[], ["b"]), "hyps");
    fails(() => rougeBatch(["a"], "b" as unknown as string[]), "refs");
    fails(() => rougeBatch(["a", 1] as unknown as string[], ["b", "c"]), "hyps", 1);
    fails(() => rougeBatch(["a", "b"], ["b", [1]] as unknown as string[][]), "refs", 1);
    fails(() => rougeScore("a", "b", "x" as unknown as object), "options");
    fails(() => rougeScore("a", "b", { useStemmer: 1 as unknown as boolean }), "options.useStemmer");
    fails(() => rougeScore("a", "b", { types: "rouge1" as unknown as RougeType[] }), "options.types");
  });
  it("unknown ROUGE types", () => {
    for (const t of ["rouge0", "rouge10", "rougeX", "rougeLSum", "rougel", "ROUGE1", "", "toString"]) {
      fails(() => rougeScore("a", "b", { types: [t as RougeType] }), "options.types", 0);
    }
    fails(() => rougeBatch(["a"], ["b"], { types: ["rouge1", "rougeW" as RougeType] }), "options.types", 1);
  });
  it("an empty reference list", () => {
    fails(() => rougeScore("a", []), "refs");
    fails(() => rougeBatch(["a", "b"], ["x", []]), "refs", 1);
  });
  it("hyps/refs length mismatch", () => {
    fails(() => rougeBatch(["a", "b"], ["x"]), "refs");
  });
});
