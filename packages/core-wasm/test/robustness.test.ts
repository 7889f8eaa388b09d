// Bad input gives typed errors; odd input (lone surrogates, NUL, empty and very long strings) gives
// defined, documented results; memory stays flat over a million calls.
import { beforeAll, describe, expect, it } from "vitest";
import { kernels, ready } from "../src/kernel.js";
import {
  EvalkernError,
  InvalidArgumentError,
  bleuFromStatistics,
  chrfFromStatistics,
  corpusBleu,
  corpusChrf,
  sentenceBleu,
  sentenceBleuBatch,
  sentenceChrf,
  sentenceChrfBatch,
} from "../src/index.js";

beforeAll(async () => {
  await ready();
});

const bad = (f: () => unknown, argument: string): void => {
  let caught: unknown;
  try {
    f();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidArgumentError);
  expect(EvalkernError.isInstance(caught)).toBe(true);
  expect((caught as InvalidArgumentError).name).toBe("InvalidArgumentError");
  expect((caught as InvalidArgumentError).argument).toBe(argument);
};

describe("typed errors for bad input", () => {
  it("wrong types", () => {
    bad(() => sentenceBleu(42 as unknown as string, ["a"]), "hyp");
    bad(() => sentenceBleu("a", "a" as unknown as string[]), "refs");
    bad(() => sentenceBleu("a", ["a", 1 as unknown as string]), "refs");
    bad(() => sentenceChrf("a", [null as unknown as string]), "refs");
    bad(() => sentenceBleuBatch(["a", 7 as unknown as string], [["a"], ["b"]]), "hyps");
    bad(() => corpusBleu("a" as unknown as string[], [["a"]]), "hyps");
  });
  it("empty reference lists", () => {
    bad(() => sentenceBleu("a", []), "refs");
    bad(() => sentenceChrf("a", []), "refs");
    bad(() => corpusBleu(["a", "b"], [["a"], [null]]), "refs");
    expect(() => corpusChrf(["a"], [[]])).toThrow(/no reference/);
  });
  it("mismatched hyps/refs lengths", () => {
    bad(() => corpusBleu(["a", "b"], [["a"]]), "refs");
    bad(() => sentenceChrfBatch(["a"], [["a"], ["b"]]), "refs");
    expect(() => corpusChrf(["a", "b"], [["a"]])).toThrow(/same length/);
  });
  it("options out of range", () => {
    bad(() => sentenceBleu("a", ["a"], { tokenize: "13b" as "13a" }), "options.tokenize");
    bad(() => sentenceBleu("a", ["a"], { smoothMethod: "add-one" as "exp" }), "options.smoothMethod");
    bad(() => sentenceBleu("a", ["a"], { smoothValue: Number.NaN }), "options.smoothValue");
    bad(() => sentenceBleu("a", ["a"], { maxNgramOrder: 0 }), "options.maxNgramOrder");
    bad(() => sentenceBleu("a", ["a"], { lowercase: "yes" as unknown as boolean }), "options.lowercase");
    bad(() => sentenceChrf("a", ["a"], { charOrder: 1.5 }), "options.charOrder");
    bad(() => sentenceChrf("a", ["a"], { charOrder: 0, wordOrder: 0 }), "options.charOrder");
    bad(() => sentenceChrf("a", ["a"], { beta: Number.POSITIVE_INFINITY }), "options.beta");
  });
  it("bad statistics", () => {
    bad(() => bleuFromStatistics({ counts: [1, 2, 3], totals: [1, 2, 3, 4], sysLen: 1, refLen: 1 }), "statistics");
    bad(() => bleuFromStatistics({ counts: [1, 0, 0, 0], totals: [1, 0, 0, 0], sysLen: Number.NaN, refLen: 1 }), "statistics");
    bad(() => chrfFromStatistics([1, 2, 3]), "stats");
    bad(() => chrfFromStatistics(new Array(18).fill(-1)), "stats");
  });
});

describe("odd strings have defined results", () => {
  it("a lone surrogate is scored as U+FFFD (what TextEncoder makes of it) in every runtime", () => {
    expect(sentenceChrf("a\uD800b c", ["a\uFFFDb c"])).toEqual(sentenceChrf("a\uFFFDb c", ["a\uFFFDb c"]));
    expect(sentenceBleu("x \uDC00", ["x \uFFFD"])).toEqual(sentenceBleu("x \uFFFD", ["x \uFFFD"]));
    expect(sentenceChrf("a\uD800b", ["a\uFFFDb"])).toEqual(sentenceChrf("a\uFFFDb", ["a\uFFFDb"]));
  });
  it("NUL is an ordinary code point (not whitespace, not a separator)", () => {
    expect(sentenceBleu("a\0b c", ["a\0b c"]).sysLen).toBe(2);
    expect(sentenceBleu("a\0b c", ["a b c"]).counts[0]).toBe(1);
    expect(sentenceChrf("\0\0", ["\0\0"]).stats.slice(0, 3)).toEqual([2, 2, 2]);
  });
  it("empty strings follow sacreBLEU", () => {
    expect(sentenceBleu("", [""])).toMatchObject({ score: 0, bp: 1, sysLen: 0, refLen: 0 });
    expect(sentenceBleu("", ["a b"])).toMatchObject({ score: 0, bp: 0, sysLen: 0, refLen: 2 });
    expect(sentenceChrf("", [""]).score).toBe(0);
    expect(sentenceChrf("abc", [""]).stats.slice(0, 3)).toEqual([0, 0, 0]);
  });
  it("scores a 10 MB hypothesis against a 10 MB reference", () => {
    const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
    const parts: string[] = [];
    let x = 12345;
    for (let i = 0; i < 1_800_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      parts.push(words[x % words.length]!);
    }
    const hyp = parts.join(" ");
    expect(hyp.length).toBeGreaterThan(10_000_000);
    const ref = parts.slice(1).join(" ") + " omega";
    const b = sentenceBleu(hyp, [ref]);
    expect(b.sysLen).toBe(1_800_000);
    expect(b.refLen).toBe(1_800_000);
    expect(b.score).toBeGreaterThan(99);
    expect(b.score).toBeLessThan(100);
    const c = sentenceChrf(hyp, [hyp]);
    expect(c.score).toBe(100);
  }, 120_000);
});

describe("memory", () => {
  it("stays flat across a million calls", () => {
    const memory = kernels().memory as WebAssembly.Memory;
    const pairs = [
      ["The cat sat on the mat.", ["The cat is on the mat.", "There is a cat on the mat."]],
      ["Ein Haus am See, 2019.", ["Ein Haus am See (2019)."]],
      ["東京は日本の首都です。", ["東京は日本の首都である。"]],
      ["", ["x"]],
    ] as const;
    const hyps = pairs.map((p) => p[0]);
    const refs = pairs.map((p) => [...p[1]]);
    const bigH: string[] = [];
    const bigR: string[][] = [];
    for (let i = 0; i < 10_000; i++) {
      bigH.push(hyps[i % 4]!);
      bigR.push(refs[i % 4]!);
    }
    // warm-up: the largest batch sizes the I/O region once
    sentenceBleuBatch(bigH, bigR);
    sentenceChrfBatch(bigH, bigR);
    const before = memory.buffer.byteLength;
    let calls = 0;
    // 20,000 single calls of each kernel, plus batches: 1,000,000 pair evaluations in all
    for (let i = 0; i < 20_000; i++) {
      sentenceBleu(hyps[i % 4]!, refs[i % 4]!);
      sentenceChrf(hyps[i % 4]!, refs[i % 4]!);
      calls += 2;
    }
    for (let r = 0; r < 48; r++) {
      sentenceBleuBatch(bigH, bigR);
      sentenceChrfBatch(bigH, bigR);
      calls += 20_000;
    }
    expect(calls).toBe(1_000_000);
    expect(memory.buffer.byteLength).toBe(before);
  }, 300_000);
});
