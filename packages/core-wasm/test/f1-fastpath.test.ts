// DSPy token F1 reads most non-ASCII code points straight from the UTF-8 (assembly/f1.ts, `nfdLowerOne`):
// its tokens must stay those of normalize_text(x).split(), which `normalizeTextBatch` computes on the
// general path (NFD, lower(), punctuation, the article pass). Random strings over the code points where
// the two could part: articles beside marks and non-word characters, decompositions (Latin, kana,
// Hangul, Greek with several marks), final sigma, U+0130, Unicode whitespace, lone surrogates.
import { beforeAll, describe, expect, it } from "vitest";
import * as k from "../src/index.js";

beforeAll(async () => {
  await k.ready();
});

function f1Of(pred: string[], refs: string[][]): [number, number, number] {
  let best = -1;
  let bp = 0;
  let br = 0;
  for (const rt of refs) {
    const c = new Map<string, number>();
    for (const t of pred) c.set(t, (c.get(t) ?? 0) + 1);
    let common = 0;
    for (const t of rt) {
      const v = c.get(t) ?? 0;
      if (v > 0) {
        common++;
        c.set(t, v - 1);
      }
    }
    let f = 0;
    let p = 0;
    let r = 0;
    if (common > 0) {
      p = common / pred.length;
      r = common / rt.length;
      f = (2 * p * r) / (p + r);
    }
    if (f > best) [best, bp, br] = [f, p, r];
  }
  return [best, bp, br];
}

const POOL = [
  ..."aAnNtThHeE  \t\n.,-'_!",
  "the",
  "The",
  "an",
  "An",
  "a",
  "A",
  "ΣΑΣ",
  "σ",
  "ς",
  "Σ",
  "İ",
  "ı",
  "ß",
  "é",
  "e\u0301",
  "ñ",
  "Ё",
  "ё",
  "й",
  "и\u0306",
  "Ä",
  "ǅ",
  "Ⅷ",
  "٣",
  "²",
  "½",
  "가",
  "각",
  "힣",
  "ᄀ",
  "ᅡ",
  "ᆨ",
  "が",
  "か",
  "\u3099",
  "ガ",
  "漢",
  "字",
  "。",
  "、",
  "，",
  "𠀀",
  "𝐀",
  "😀",
  "\u0301",
  "\u0308",
  "\u0316",
  "\u0345",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\u0085",
  "\u200b",
  "\u2000",
  "\u1680",
  "\u2028",
  "\u202f",
  "\u205f",
  "\u001c",
  "the\u3000",
  "\u00a0a",
  "«",
  "»",
  "—",
  "’",
  "\u00ad",
  "ﬁ",
  "Ω",
  "K",
  "Å",
  "ὒ",
  "ᾼ",
  "ᾂ",
  "\ufffd",
  "\u037e",
  "\u1fef",
  "ό",
  "\u1e9e",
  "\u0bcd",
  "\u0915",
  "\u093f",
  "\u0e01",
  "\u0e31",
  "ǈ",
  "Ǉ",
  "Ａ",
  "ａ",
  "１",
  "ـ",
  "ا",
  "ﻻ",
  "á",
  "à",
  "\u0f73",
  "\ud800",
  "\udc00",
];

describe("DSPy token F1 on the UTF-8 fast path", () => {
  it("matches normalize_text(x).split() tokens on 30,000 random pairs", () => {
    let seed = 12345;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    const gen = () => {
      let s = "";
      const n = Math.floor(rnd() * 12);
      for (let i = 0; i < n; i++) s += POOL[Math.floor(rnd() * POOL.length)];
      return s;
    };
    const hyps: string[] = [];
    const refs: string[][] = [];
    for (let i = 0; i < 30000; i++) {
      hyps.push(gen());
      const rr: string[] = [];
      const nr = 1 + Math.floor(rnd() * 3);
      for (let j = 0; j < nr; j++) rr.push(rnd() < 0.3 ? hyps[i]! : gen());
      refs.push(rr);
    }
    const toks = (s: string) => (s === "" ? [] : s.split(" "));
    const got = k.tokenF1Batch(hyps, refs);
    const nh = k.normalizeTextBatch(hyps);
    const bad: string[] = [];
    for (let i = 0; i < hyps.length; i++) {
      const want = f1Of(toks(nh[i]!), k.normalizeTextBatch(refs[i]!).map(toks));
      const row = [got[3 * i]!, got[3 * i + 1]!, got[3 * i + 2]!];
      if (!want.every((x, j) => Object.is(x, row[j]))) bad.push(JSON.stringify([hyps[i], refs[i], want, row]));
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

describe("DSPy token F1 on CJK Unified Ideographs (read without the NFD/lower() tables)", () => {
  it("matches normalize_text(x).split() for every code point U+4E00..U+9FFF beside articles", () => {
    const hyps: string[] = [];
    const refs: string[][] = [];
    for (let cp = 0x4e00; cp <= 0x9fff; cp++) {
      const ch = String.fromCodePoint(cp);
      // were one of them not \w (or changed by NFD or lower()), "a" and "the" beside it would be articles
      hyps.push(`a${ch} the${ch}。 ${ch}a ${ch}`);
      refs.push([`${ch} a${ch}。the${ch}`, `${ch}`]);
    }
    const got = k.tokenF1Batch(hyps, refs);
    const toks = (s: string) => (s === "" ? [] : s.split(" "));
    const nh = k.normalizeTextBatch(hyps);
    const bad: string[] = [];
    for (let i = 0; i < hyps.length; i++) {
      const want = f1Of(toks(nh[i]!), k.normalizeTextBatch(refs[i]!).map(toks));
      const row = [got[3 * i]!, got[3 * i + 1]!, got[3 * i + 2]!];
      if (!want.every((x, j) => Object.is(x, row[j]))) bad.push(JSON.stringify([hyps[i], want, row]));
    }
    expect(bad.slice(0, 5)).toEqual([]);
    // by hand: the hypothesis tokens are a漢, the漢。, 漢a, 漢 and the reference's 漢, a漢。the漢: one shared
    const one = k.tokenF1Batch(["a漢 the漢。 漢a 漢"], [["漢 a漢。the漢"]]);
    expect([one[0], one[1], one[2]]).toEqual([(2 * 0.25 * 0.5) / 0.75, 0.25, 0.5]);
  });
});

describe("DSPy token F1's table of the prediction's tokens", () => {
  it("gives the same values in the persistent table and in scratch (predictions over 1,024 distinct tokens), mixed in one batch", () => {
    const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `w${from + i}`);
    const long = [...words(0, 3000), ...words(0, 5)].join(" ");
    const hyps = ["w1 w2 w3", long, "w2 w2 w9", long, "w1"];
    const refs = [["w1 w3 w5", "w2"], [words(2990, 20).join(" "), "w0 w0 w1"], ["w2 w9 w9", "w2 w2 w9"], ["w4 w4 w4 w4"], ["x", "w1"]];
    const got = k.tokenF1Batch(hyps, refs);
    const toks = (s: string) => s.split(" ");
    for (let i = 0; i < hyps.length; i++) {
      const want = f1Of(toks(hyps[i]!), refs[i]!.map(toks));
      expect([got[3 * i], got[3 * i + 1], got[3 * i + 2]]).toEqual(want);
    }
    // w4 occurs twice in the long prediction: two of the reference's four count
    expect(got[3 * 3 + 2]).toBe(0.5);
  });
});

describe("token equality at every length (the SIMD/u64/u32 comparison of assembly/text.ts cpsEqual)", () => {
  it("tells apart tokens of 1..40 code points that differ only at one position, and matches equal ones", async () => {
    await k.ready();
    const hyps: string[] = [];
    const refs: string[][] = [];
    const want: number[] = [];
    for (let len = 1; len <= 40; len++) {
      const base = Array.from({ length: len }, (_, j) => String.fromCharCode(98 + (j % 24))).join("");
      hyps.push(`${base} é${base}`);
      refs.push([`${base} é${base}`]);
      want.push(1);
      for (let j = 0; j < len; j++) {
        const other = `${base.slice(0, j)}z${base.slice(j + 1)}`;
        // one of the two tokens differs: common 1 of 2, so precision = recall = f1 = 0.5
        hyps.push(`${base} é${base}`);
        refs.push([`${base} é${other}`]);
        want.push(0.5);
      }
    }
    const f1 = Array.from(k.tokenF1Batch(hyps, refs)).filter((_, j) => j % 3 === 0); // rows of f1, precision, recall
    expect(f1).toEqual(want);
  });
});
