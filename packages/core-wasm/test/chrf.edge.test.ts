// chrF / chrF++ against a direct TypeScript port of sacreBLEU 2.6.0's CHRF (Counter n-grams, per-reference
// statistics, `_compute_f_score`, best reference by strictly higher F), bit for bit, on the inputs the
// golden files cover thinly: empty and whitespace-only texts, repeated n-grams (min of the two counts),
// hypotheses at the kernel's 64/128-symbol and 1024-symbol path boundaries and far beyond them, astral
// code points, lowercase, whitespace, word orders 1–3, char orders above 6, beta and epsilon smoothing.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import { chrfStatisticsBatch, sentenceChrf, sentenceChrfBatch, type ChrfOptions } from "../src/index.js";

beforeAll(async () => {
  await ready();
});

// Python str.split() whitespace
const PY_WS = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
const PUNCT = new Set([..."!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]);

const cps = (s: string): string[] => Array.from(s);
function pySplit(s: string): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  for (const c of cps(s)) {
    if (PY_WS.has(c.codePointAt(0)!)) {
      if (cur.length) out.push(cur.join(""));
      cur = [];
    } else cur.push(c);
  }
  if (cur.length) out.push(cur.join(""));
  return out;
}
function removePunctuation(s: string): string[] {
  const out: string[] = [];
  for (const w of pySplit(s)) {
    const c = cps(w);
    if (c.length > 1 && PUNCT.has(c[c.length - 1]!)) out.push(c.slice(0, -1).join(""), c[c.length - 1]!);
    else if (c.length > 1 && PUNCT.has(c[0]!)) out.push(c[0]!, c.slice(1).join(""));
    else out.push(w);
  }
  return out;
}
function counter(items: string[][], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (const seq of items) {
    for (let i = 0; i + n <= seq.length; i++) {
      const key = seq.slice(i, i + n).join("\u0000");
      m.set(key, (m.get(key) ?? 0) + 1);
    }
  }
  return m;
}
interface Opts {
  charOrder: number;
  wordOrder: number;
  beta: number;
  lowercase: boolean;
  whitespace: boolean;
  epsSmoothing: boolean;
}
function allNgrams(s: string, o: Opts): Map<string, number>[] {
  // the test texts only use characters whose JS and Python lowercase agree
  const t = o.lowercase ? s.toLowerCase() : s;
  const chars = o.whitespace ? cps(t) : cps(pySplit(t).join(""));
  const out: Map<string, number>[] = [];
  for (let n = 1; n <= o.charOrder; n++) out.push(counter([chars], n));
  const words = removePunctuation(t);
  for (let n = 1; n <= o.wordOrder; n++) out.push(counter([words], n));
  return out;
}
function fScore(stats: number[], o: Opts): number {
  const eps = 1e-16;
  let score = 0;
  let effective = 0;
  const factor = o.beta * o.beta;
  let avgPrec = 0;
  let avgRec = 0;
  const order = o.charOrder + o.wordOrder;
  for (let i = 0; i < order; i++) {
    const [nHyp, nRef, nMatch] = [stats[3 * i]!, stats[3 * i + 1]!, stats[3 * i + 2]!];
    const prec = nHyp > 0 ? nMatch / nHyp : eps;
    const rec = nRef > 0 ? nMatch / nRef : eps;
    const denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : eps;
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec;
      avgRec += rec;
      effective++;
    }
  }
  if (o.epsSmoothing) return (100 * score) / order;
  if (effective === 0) avgPrec = avgRec = 0;
  else {
    avgPrec /= effective;
    avgRec /= effective;
  }
  if (avgPrec + avgRec) {
    let s = (1 + factor) * avgPrec * avgRec;
    s /= factor * avgPrec + avgRec;
    return 100 * s;
  }
  return 0;
}
/** sacreBLEU `_compute_segment_statistics` + `sentence_score`. */
function reference(hyp: string, refs: string[], o: Opts): { score: number; stats: number[] } {
  const h = allNgrams(hyp, o);
  let best: number[] = [];
  let bestF = -1;
  for (const ref of refs) {
    const r = allNgrams(ref, o);
    const stats: number[] = [];
    for (let k = 0; k < h.length; k++) {
      let match = 0;
      let hypCount = 0;
      for (const [g, c] of h[k]!) {
        hypCount += c;
        if (r[k]!.has(g)) match += Math.min(c, r[k]!.get(g)!);
      }
      let refCount = 0;
      for (const c of r[k]!.values()) refCount += c;
      stats.push(r[k]!.size ? hypCount : 0, refCount, match);
    }
    const f = fScore(stats, o);
    if (f > bestF) {
      bestF = f;
      best = stats;
    }
  }
  return { score: fScore(best, o), stats: best };
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
// small alphabets, so n-grams repeat (the min of the two counts matters), with ASCII, BMP and astral code
// points, Python whitespace beyond ASCII, and ASCII punctuation at word edges
const ALPHABETS = [
  ["a", "b", " ", "a", "b", "c"],
  ["a", "b", "c", "d", " ", ",", ".", "A", "B", "é", "Ж", "ж", "😀", "𝒜", "\u3000", "\t", "-"],
  ["x", "y", "z", "\u00a0", " ", "日", "本", "語", "😀", "!", "(", "Ω", "ω"],
  ["the", " cat", " sat", " on", " mat", ".", " The", ",", "  "],
];
function text(r: () => number, alphabet: string[], len: number): string {
  let s = "";
  for (let i = 0; i < len; i++) s += alphabet[Math.floor(r() * alphabet.length)]!;
  return s;
}
// word boundaries of the one- to four-word matchers (64, 128, 192, 256 symbols) and of the long path
const LENGTHS = [0, 1, 2, 5, 20, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193, 200, 255, 256, 257, 500, 1023, 1024, 1025, 1100, 3000];

function check(hyps: string[], refs: string[][], options: Opts): void {
  const got = sentenceChrfBatch(hyps, refs, options);
  const stats = chrfStatisticsBatch(hyps, refs, options);
  const w = 3 * (options.charOrder + options.wordOrder);
  for (let i = 0; i < hyps.length; i++) {
    const want = reference(hyps[i]!, refs[i]!, options);
    const gotStats = Array.from(stats.subarray(i * w, (i + 1) * w));
    if (!Object.is(got[i], want.score) || gotStats.some((x, j) => x !== want.stats[j])) {
      expect({ hyp: hyps[i], refs: refs[i], options, score: got[i], stats: gotStats }).toEqual({
        hyp: hyps[i],
        refs: refs[i],
        options,
        score: want.score,
        stats: want.stats,
      });
    }
  }
}

const opts = (o: Partial<Opts>): Opts => ({
  charOrder: 6,
  wordOrder: 0,
  beta: 2,
  lowercase: false,
  whitespace: false,
  epsSmoothing: false,
  ...o,
});

describe("chrF edge cases against a port of sacreBLEU's CHRF", () => {
  it("empty and whitespace-only hypotheses and references, every option", () => {
    const texts = ["", " ", "  \t\n ", "\u3000\u00a0", "a", "a b", "ab", ".", "a.", ".a", "😀", " 😀 😀 "];
    const hyps: string[] = [];
    const refs: string[][] = [];
    for (const h of texts)
      for (const r of texts) {
        hyps.push(h);
        refs.push([r]);
      }
    for (const o of [
      opts({}),
      opts({ wordOrder: 2 }),
      opts({ wordOrder: 1, whitespace: true }),
      opts({ lowercase: true, wordOrder: 2 }),
      opts({ epsSmoothing: true }),
      opts({ charOrder: 0, wordOrder: 2 }),
      opts({ charOrder: 1 }),
    ])
      check(hyps, refs, o);
  });

  it("random texts at the 64/128/1024-symbol boundaries and beyond, with several references", () => {
    const r = rng(20261125);
    for (const [k, o] of [
      opts({}),
      opts({ wordOrder: 2 }),
      opts({ wordOrder: 1 }),
      opts({ lowercase: true }),
      opts({ lowercase: true, wordOrder: 2 }),
      opts({ whitespace: true }),
      opts({ whitespace: true, wordOrder: 2 }),
      opts({ beta: 1 }),
      opts({ beta: 3, wordOrder: 3 }),
      opts({ charOrder: 8 }),
      opts({ charOrder: 3, wordOrder: 2 }),
      opts({ epsSmoothing: true, wordOrder: 2 }),
    ].entries()) {
      const hyps: string[] = [];
      const refs: string[][] = [];
      for (const len of LENGTHS) {
        const alphabet = ALPHABETS[(len + k) % ALPHABETS.length]!;
        const hyp = text(r, alphabet, len);
        hyps.push(hyp);
        const nrefs = 1 + Math.floor(r() * 3);
        const rs: string[] = [];
        for (let j = 0; j < nrefs; j++) {
          // a reference near the hypothesis (shared n-grams, some repeated), or an unrelated one
          const cut = Math.floor(r() * (hyp.length + 1));
          rs.push(
            r() < 0.7
              ? hyp.slice(cut) + text(r, alphabet, Math.floor(r() * 40)) + hyp.slice(0, cut)
              : text(r, alphabet, Math.floor(r() * 300)),
          );
        }
        refs.push(rs);
      }
      check(hyps, refs, o);
    }
  });

  it("the best reference is the first with the strictly highest F, in batches and per call", () => {
    const hyp = "the cat sat on the mat";
    const refs = ["a dog", "the cat sat on a mat", "the cat sat on a mat", "the cat sat on the mat", "the cat sat on the mat"];
    check([hyp, hyp], [refs, [...refs].reverse()], opts({ wordOrder: 2 }));
    const one = sentenceChrf(hyp, refs, { wordOrder: 2 });
    expect(one.score).toBe(100);
    expect(one.stats).toEqual(reference(hyp, refs, opts({ wordOrder: 2 })).stats);
  });

  it("a long hypothesis against a multi-megabyte reference that repeats it (memory per order, not per position)", () => {
    const r = rng(99);
    for (const len of [150, 600, 1000, 1500]) {
      const hyp = text(r, ALPHABETS[1]!, len);
      const reps = Math.ceil((2 * 2 ** 20) / (hyp.length + 1));
      const ref = Array.from({ length: reps }, () => hyp).join(" ");
      const chars = cps(pySplit(hyp).join("")).length;
      const words = removePunctuation(hyp).length;
      const stats = chrfStatisticsBatch([hyp], [[ref]], { wordOrder: 2 });
      const want: number[] = [];
      // every hypothesis n-gram occurs in the reference at least as often: all of them match
      for (let n = 1; n <= 6; n++) want.push(Math.max(chars - n + 1, 0), reps * chars - n + 1, Math.max(chars - n + 1, 0));
      for (let n = 1; n <= 2; n++) want.push(Math.max(words - n + 1, 0), reps * words - n + 1, Math.max(words - n + 1, 0));
      expect(Array.from(stats)).toEqual(want);
    }
  });

  it("a batch mixing short and long hypotheses (both kernel paths in one call)", () => {
    const r = rng(7);
    const hyps: string[] = [];
    const refs: string[][] = [];
    for (let i = 0; i < 60; i++) {
      const len = i % 7 === 0 ? 1500 + Math.floor(r() * 500) : Math.floor(r() * 150);
      const alphabet = ALPHABETS[i % ALPHABETS.length]!;
      const hyp = text(r, alphabet, len);
      hyps.push(hyp);
      refs.push([text(r, alphabet, Math.floor(r() * 200)) + hyp.slice(0, 100), hyp]);
    }
    for (const o of [opts({}), opts({ wordOrder: 2 }), opts({ lowercase: true, wordOrder: 2 })]) check(hyps, refs, o as ChrfOptions & Opts);
  });
});
