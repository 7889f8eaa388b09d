// DSPy `DPR_normalize` kernel (assembly/dpr.ts): every `DPR_normalize` and
// `DPR_normalize(normalize_text)` line of testdata/golden/dspy.jsonl, documented cases, and a sweep over
// every code point against a small pure-TS reference built on the Unicode 14.0 categories plus the
// code points Unicode 15.0 newly assigns (the `regex` module of the golden runtime has 15.0 tables).
import controlRanges from "@unicode/unicode-14.0.0/General_Category/Other/ranges.mjs";
import separatorRanges from "@unicode/unicode-14.0.0/General_Category/Separator/ranges.mjs";
import letterRanges from "@unicode/unicode-14.0.0/General_Category/Letter/ranges.mjs";
import markRanges from "@unicode/unicode-14.0.0/General_Category/Mark/ranges.mjs";
import numberRanges from "@unicode/unicode-14.0.0/General_Category/Number/ranges.mjs";
import unassignedRanges from "@unicode/unicode-14.0.0/General_Category/Unassigned/ranges.mjs";
import { beforeAll, describe, expect, it } from "vitest";
import { dprTokenize, dprTokenizeBatch } from "../src/dpr.js";
import { InvalidArgumentError } from "../src/errors.js";
import { ready } from "../src/kernel.js";
import { pythonLower, pythonNfdBatch } from "../src/normalize.js";
import { readJsonl } from "./shared.js";

interface Golden {
  id: string;
  fn: string;
  args: { text: string };
  out: string[];
}

let lines: Golden[] = [];

beforeAll(async () => {
  await ready();
  lines = (await readJsonl<Golden>("golden/dspy.jsonl")).filter(
    (l) => l.fn === "DPR_normalize" || l.fn === "DPR_normalize(normalize_text)",
  );
});

describe("DPR_normalize (dspy.jsonl)", () => {
  it("matches every golden line exactly", () => {
    for (const fn of ["DPR_normalize", "DPR_normalize(normalize_text)"]) {
      const mine = lines.filter((l) => l.fn === fn);
      expect(mine.length).toBeGreaterThan(100);
      const got = dprTokenizeBatch(
        mine.map((l) => l.args.text),
        { normalizeText: fn !== "DPR_normalize" },
      );
      const bad = mine.filter((l, i) => JSON.stringify(got[i]) !== JSON.stringify(l.out)).map((l) => l.id);
      expect(bad).toEqual([]);
      console.log(`[dpr] ${fn}: ${mine.length - bad.length}/${mine.length} lines matched`);
    }
  });

  it("documented cases (docs/spec/rule-metrics.md §1.6)", () => {
    expect(dprTokenize("C++")).toEqual(["c", "+", "+"]);
    expect(dprTokenize("👍🏽")).toEqual(["👍", "🏽"]);
    expect(dprTokenize("a\u200db")).toEqual(["a", "b"]); // ZWJ (Cf) is dropped
    expect(dprTokenize("東京は日本の首都です")).toEqual(["東京は日本の首都て\u3099す"]); // one token (NFD splits で)
    expect(dprTokenize("Zürich")).toEqual(["zu\u0308rich"]); // NFD: the mark stays in the run
    expect(dprTokenize("")).toEqual([]);
    expect(dprTokenize(" \t\n\u3000")).toEqual([]);
    expect(dprTokenize("U.S.", { normalizeText: true })).toEqual(["us"]);
    expect(dprTokenize("1,000", { normalizeText: true })).toEqual(["1000"]);
  });

  it("lowercases each token on its own (Final_Sigma sees only the token)", () => {
    // whole-string lower() would give "ασ.β": the "." is case-ignorable, so Σ is not final there
    expect(dprTokenize("ΑΣ.Β")).toEqual(["ας", ".", "β"]);
    expect(dprTokenize("ΣΑΣ")).toEqual(["σας"]);
    expect(dprTokenize("Ⓐ")).toEqual(["ⓐ"]); // a symbol with a lowercase mapping
    expect(dprTokenize("İ")).toEqual(["i\u0307"]);
  });

  it("uses the Unicode 15.0 classes of the regex module for code points new in 15.0", () => {
    expect(dprTokenize("x\u{1FA77}y")).toEqual(["x", "\u{1FA77}", "y"]); // PINK HEART, So in 15.0
    expect(dprTokenize("x\u{31350}y")).toEqual(["x\u{31350}y"]); // CJK Extension H, Lo in 15.0
    expect(dprTokenize("x\u{1FAF9}y")).toEqual(["x", "y"]); // assigned only in 15.1: unassigned here
  });

  it("turns a lone surrogate into U+FFFD (a symbol token), as every kernel does", () => {
    expect(dprTokenize("a\ud800b")).toEqual(["a", "\ufffd", "b"]);
  });

  it("rejects non-strings with a typed error", () => {
    expect(() => dprTokenize(1 as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => dprTokenizeBatch(["a", null as unknown as string])).toThrow(InvalidArgumentError);
    expect(() => dprTokenize("a", { normalizeText: 1 as unknown as boolean })).toThrow(InvalidArgumentError);
  });

  it("batch equals per item, across chunk boundaries", () => {
    const texts = Array.from({ length: 40000 }, (_, i) => `Élan ${i} — ΑΣ ${"x".repeat(i % 7)}`);
    const batch = dprTokenizeBatch(texts);
    for (let i = 0; i < texts.length; i += 997) expect(batch[i]).toEqual(dprTokenize(texts[i]!));
  });
});

// Code points Unicode 15.0 assigns that 14.0 leaves unassigned: [first, last, "run" | "single"].
const U15_NEW: [number, number, "run" | "single"][] = [
  [0x0cf3, 0x0cf3, "run"],
  [0x0ece, 0x0ece, "run"],
  [0x10efd, 0x10eff, "run"],
  [0x1123f, 0x11241, "run"],
  [0x11b00, 0x11b09, "single"],
  [0x11f00, 0x11f10, "run"],
  [0x11f12, 0x11f3a, "run"],
  [0x11f3e, 0x11f42, "run"],
  [0x11f43, 0x11f4f, "single"],
  [0x11f50, 0x11f59, "run"],
  [0x1342f, 0x1342f, "run"],
  [0x13440, 0x13455, "run"],
  [0x1b132, 0x1b132, "run"],
  [0x1b155, 0x1b155, "run"],
  [0x1d2c0, 0x1d2d3, "run"],
  [0x1df25, 0x1df2a, "run"],
  [0x1e030, 0x1e06d, "run"],
  [0x1e08f, 0x1e08f, "run"],
  [0x1e4d0, 0x1e4f9, "run"],
  [0x1f6dc, 0x1f6dc, "single"],
  [0x1f774, 0x1f776, "single"],
  [0x1f77b, 0x1f77f, "single"],
  [0x1f7d9, 0x1f7d9, "single"],
  [0x1fa75, 0x1fa77, "single"],
  [0x1fa87, 0x1fa88, "single"],
  [0x1faad, 0x1faaf, "single"],
  [0x1fabb, 0x1fabd, "single"],
  [0x1fabf, 0x1fabf, "single"],
  [0x1face, 0x1facf, "single"],
  [0x1fada, 0x1fadb, "single"],
  [0x1fae8, 0x1fae8, "single"],
  [0x1faf7, 0x1faf8, "single"],
  [0x2b739, 0x2b739, "run"],
  [0x31350, 0x323af, "run"],
];

describe("DPR classes over every code point", () => {
  it("equal a pure-TS reference on Unicode 14.0 categories + the 15.0 additions", () => {
    // 0 skip (Z, C), 1 run (L, N, M), 2 single (anything else)
    const cls = new Uint8Array(0x110000).fill(2);
    for (const ranges of [letterRanges, markRanges, numberRanges]) for (const r of ranges) cls.fill(1, r.begin, r.end);
    for (const ranges of [separatorRanges, controlRanges]) for (const r of ranges) cls.fill(0, r.begin, r.end);
    const unassigned = new Uint8Array(0x110000);
    for (const r of unassignedRanges) unassigned.fill(1, r.begin, r.end);
    for (const [a, b, k] of U15_NEW) {
      for (let c = a; c <= b; c++) expect(unassigned[c], `U+${c.toString(16)} is unassigned in 14.0`).toBe(1);
      cls.fill(k === "run" ? 1 : 2, a, b + 1);
    }
    // surrogates cannot travel as UTF-8 (they become U+FFFD); every other code point, between two "a"s
    const cps: number[] = [];
    for (let c = 0; c < 0x110000; c++) if (c < 0xd800 || c > 0xdfff) cps.push(c);
    const texts = cps.map((c) => `a${String.fromCodePoint(c)}a`);
    const nfds = pythonNfdBatch(texts);
    const got = dprTokenizeBatch(texts);
    const bad: string[] = [];
    for (let i = 0; i < cps.length; i++) {
      // reference SimpleTokenizer over the NFD text
      const tokens: string[] = [];
      let run = "";
      for (const ch of nfds[i]!) {
        const k = cls[ch.codePointAt(0)!]!;
        if (k === 1) {
          run += ch;
          continue;
        }
        if (run) tokens.push(run);
        run = "";
        if (k === 2) tokens.push(ch);
      }
      if (run) tokens.push(run);
      const want = tokens.map((t) => pythonLower(t));
      if (JSON.stringify(got[i]) !== JSON.stringify(want)) bad.push(`U+${cps[i]!.toString(16)}`);
      if (bad.length > 20) break;
    }
    expect(bad).toEqual([]);
  });
});

describe("format characters", () => {
  it("drops U+FEFF, U+2060 and other Cf code points, keeps non-ASCII punctuation as tokens", () => {
    expect(dprTokenize("\ufeffgamma\ufeff")).toEqual(["gamma"]);
    expect(dprTokenize("\u2060x\u00ad")).toEqual(["x"]);
    expect(dprTokenize("«x»")).toEqual(["«", "x", "»"]);
  });
});
