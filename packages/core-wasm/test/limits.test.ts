// Issue 15.3: every kernel entry point has a documented input-size limit (INPUT_LIMITS) with a typed
// error past it, huge strings never reach a 32-bit overflow ("memory access out of bounds"), and the
// module gives memory back after an oversized input. Memory use of this file stays well under 1.5 GB:
// the big strings are one-byte-per-char JS strings shared between calls.
import { beforeAll, describe, expect, it } from "vitest";
import { guarded, kernels, ready, MEMORY_RESET_BYTES } from "../src/kernel.js";
import * as k from "../src/index.js";
import { EvalkernError, INPUT_LIMITS, InputTooLargeError, KernelAbortError, utf8Length } from "../src/index.js";

beforeAll(async () => {
  await ready();
});

const MiB = 2 ** 20;

/** The error `f` throws, checked to be an InputTooLargeError with a stable code. */
function tooLarge(f: () => unknown, kind?: string): InputTooLargeError {
  let caught: unknown;
  try {
    f();
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected an InputTooLargeError").toBeInstanceOf(InputTooLargeError);
  const e = caught as InputTooLargeError;
  expect(EvalkernError.isInstance(e)).toBe(true);
  expect(e.code).toBe("INPUT_TOO_LARGE");
  expect(e.name).toBe("InputTooLargeError");
  expect(e.size).toBeGreaterThan(e.limit);
  if (kind) expect(e.kind).toBe(kind);
  expect(e.message).toMatch(/INPUT_LIMITS|512 MiB/);
  return e;
}

describe("INPUT_LIMITS", () => {
  it("are the documented figures", () => {
    expect(INPUT_LIMITS).toEqual({
      maxStringBytes: 16 * MiB,
      maxItemBytes: 32 * MiB,
      maxBatchBytes: 256 * MiB,
      maxLevenshteinCells: 2 ** 31,
      maxLcsCells: 2 ** 36,
      maxLcsSumCells: 2 ** 31,
      maxTerWordPairs: 2 ** 24,
      maxMemoryBytes: 1024 * MiB,
    });
    expect(Object.isFrozen(INPUT_LIMITS)).toBe(true);
  });

  it("utf8Length counts what TextEncoder writes", () => {
    const enc = new TextEncoder();
    for (const s of ["", "abc", "é", "東京", "😀", "a\uD800b", "\uDC00", "\uD800\uD800\uDC00", "\0"]) {
      expect(utf8Length(s), JSON.stringify(s)).toBe(enc.encode(s).length);
    }
  });
});

describe("a 100 MB string gets the typed error in every kernel, quickly", () => {
  // 100 M UTF-16 units; one 100 MB flat string shared by every call below
  const huge = "x ".repeat(50_000_000);
  const entryPoints: [string, () => unknown][] = [
    ["sentenceBleu hyp", () => k.sentenceBleu(huge, ["a"])],
    ["sentenceBleu ref", () => k.sentenceBleu("a", [huge])],
    ["corpusBleu", () => k.corpusBleu(["a", huge], [["a"], ["b"]])],
    ["bleuStatisticsBatch", () => k.bleuStatisticsBatch([huge], [["a"]])],
    ["sentenceBleuBatch", () => k.sentenceBleuBatch(["a"], [["b", huge]])],
    ["sentenceChrf", () => k.sentenceChrf(huge, ["a"])],
    ["corpusChrf", () => k.corpusChrf(["a"], [[huge]])],
    ["chrfStatisticsBatch", () => k.chrfStatisticsBatch([huge], [["a"]], { wordOrder: 2 })],
    ["sentenceChrfBatch", () => k.sentenceChrfBatch([huge], [["a"]])],
    ["rougeScore", () => k.rougeScore(huge, "a", { types: ["rouge1"] })],
    ["rougeBatch", () => k.rougeBatch(["a"], [huge], { types: ["rouge2"] })],
    ["normalizeText", () => k.normalizeText(huge)],
    ["normalizeTextBatch", () => k.normalizeTextBatch(["a", huge])],
    ["pythonNfd", () => k.pythonNfd(huge)],
    ["pythonLower", () => k.pythonLower(huge)],
    ["pythonNfdBatch", () => k.pythonNfdBatch([huge])],
    ["pythonLowerBatch", () => k.pythonLowerBatch([huge])],
    ["pythonLowerSplitJoin", () => k.pythonLowerSplitJoin(huge)],
    ["tokenF1", () => k.tokenF1(huge, ["a"])],
    ["tokenF1Batch", () => k.tokenF1Batch(["a"], [[huge]], { mode: "byob" })],
    ["multipleChoiceArgmax", () => k.multipleChoiceArgmax(["a", huge], [0, 1])],
    ["multipleChoiceArgmaxBatch", () => k.multipleChoiceArgmaxBatch([{ choices: [huge], logLikelihoods: [0] }])],
    ["dprTokenize", () => k.dprTokenize(huge)],
    ["dprTokenizeBatch", () => k.dprTokenizeBatch([huge], { normalizeText: true })],
    ["levenshteinDistance", () => k.levenshteinDistance(huge, "a")],
    ["levenshteinBatch", () => k.levenshteinBatch(["a"], [huge])],
    ["byobLcsStatisticsBatch", () => k.byobLcsStatisticsBatch([huge], ["a"])],
    ["sentenceTer", () => k.sentenceTer(huge, ["a"])],
    ["corpusTer", () => k.corpusTer(["a"], [[huge]])],
    ["terStatisticsBatch", () => k.terStatisticsBatch([huge], [["a"]])],
    ["sentenceTerBatch", () => k.sentenceTerBatch(["a"], [[huge]])],
  ];
  for (const [name, f] of entryPoints) {
    it(name, () => {
      const e = tooLarge(f, "string");
      expect(e.limit).toBe(INPUT_LIMITS.maxStringBytes);
      expect(e.size).toBeGreaterThanOrEqual(100_000_000);
      expect(e.unit).toBe("bytes");
      expect(e.message).toContain("16.0 MiB");
    });
  }

  it("a 200M-character row under chrF and BLEU is refused at once, not scored for minutes", () => {
    const row = huge + huge; // 200 M code units (a rope: never flattened, never copied)
    expect(row.length).toBe(200_000_000);
    const started = performance.now();
    tooLarge(() => k.sentenceChrf(row, ["a reference"]), "string");
    tooLarge(() => k.sentenceBleu("a hypothesis", [row]), "string");
    tooLarge(() => k.chrfStatisticsBatch([row], [[row]]), "string");
    // generous: this takes microseconds (only the length is read)
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("the limits, at their edges", () => {
  it("per string, in UTF-8 bytes: 16 MiB of ASCII is scored, one byte more is not", () => {
    const max = "a".repeat(INPUT_LIMITS.maxStringBytes);
    expect(k.pythonLower(max).length).toBe(max.length);
    const e = tooLarge(() => k.pythonLower(max + "b"), "string");
    expect(e.size).toBe(INPUT_LIMITS.maxStringBytes + 1);
    expect(e.argument).toBe("text");
  });

  it("counts UTF-8 bytes exactly: 6 M CJK characters are 18 MB", () => {
    const cjk = "東".repeat(6_000_000);
    const e = tooLarge(() => k.normalizeTextBatch(["a", cjk]), "string");
    expect(e.size).toBe(18_000_000);
    expect(e.argument).toBe("texts");
    expect(e.index).toBe(1);
  });

  it("per item: a hypothesis with its references", () => {
    const ten = "w ".repeat(5 * MiB); // 10 MiB
    const e = tooLarge(() => k.sentenceBleuBatch(["a", ten], [["a"], [ten, ten, ten]]), "item");
    expect(e.limit).toBe(INPUT_LIMITS.maxItemBytes);
    expect(e.size).toBe(40 * MiB);
    expect(e.index).toBe(1);
  });

  it("per batch: all strings of one call", () => {
    const one = "w ".repeat(MiB / 2); // 1 MiB
    const e = tooLarge(() => k.normalizeTextBatch(new Array<string>(257).fill(one)), "batch");
    expect(e.limit).toBe(INPUT_LIMITS.maxBatchBytes);
    expect(e.size).toBe(257 * MiB);
  });

  it("quadratic kernels: the product of the two lengths", () => {
    const a = "ab".repeat(50_000); // 100k units: 1e10 cells > 2^31
    const e = tooLarge(() => k.levenshteinDistance(a, a), "pair");
    expect(e.limit).toBe(2 ** 31);
    expect(e.size).toBe(1e10);
    expect(e.unit).toBe("cells");
    const b = "x ".repeat(150_000); // 300k units: 9e10 cells > 2^36
    tooLarge(() => k.rougeScore(b, b, { types: ["rougeL"] }), "pair");
    tooLarge(() => k.byobLcsStatisticsBatch([b], [b]), "pair");
    const c = "x\n".repeat(25_000); // 50k units: 2.5e9 > 2^31 for rougeLsum only
    tooLarge(() => k.rougeScore(c, c, { types: ["rougeLsum"] }), "pair");
    expect(k.rougeScore(c, c, { types: ["rougeL"] }).rougeL.fmeasure).toBe(1);
    // prose is measured by its tokens and lines, not its characters: 60 KB against 60 KB is scored
    const prose = ("The quick brown fox jumps over the lazy dog again and again. ".repeat(4) + "\n").repeat(240);
    expect(prose.length * prose.length).toBeGreaterThan(INPUT_LIMITS.maxLcsSumCells);
    expect(k.rougeScore(prose, prose, { types: ["rougeLsum"] }).rougeLsum.fmeasure).toBe(1);
    expect(k.rougeScore(b, "x", { types: ["rouge1"] }).rouge1.precision).toBeCloseTo(1 / 150_000, 12);
    // TER counts its own words: 5,000 × 5,000 > 2^24, refused before the shift search starts
    const w = "word ".repeat(5000);
    const t = tooLarge(() => k.sentenceTer(w, [w]), "pair");
    expect(t.size).toBe(25_000_000);
    expect(t.unit).toBe("word pairs");
  });

  it("a kernel table past 512 MiB is refused inside the module (no 32-bit wrap-around)", () => {
    // 150k distinct tokens against a one-word reference: few cells, but ROUGE-L's match masks would
    // be 150k × 150k/64 × 8 bytes (2.8 GB, which wrapped to a small size in 32 bits before)
    const words: string[] = [];
    for (let i = 0; i < 150_000; i++) words.push(`w${i.toString(36)}`);
    const hyp = words.join(" ");
    const e = tooLarge(() => k.rougeScore(hyp, "w0", { types: ["rouge1", "rougeL"] }), "table");
    expect(e.code).toBe("INPUT_TOO_LARGE");
    // the module is fresh again and scores normally
    expect(k.rougeScore("the cat", "the cat", { types: ["rougeL"] }).rougeL.fmeasure).toBe(1);
    expect(kernels().memory.buffer.byteLength).toBeLessThanOrEqual(MEMORY_RESET_BYTES);
  });
});

describe("memory is given back", () => {
  it("after one 10 MB pair the memory returns to its baseline", () => {
    const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
    const parts: string[] = [];
    let x = 12345;
    for (let i = 0; i < 1_800_000; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      parts.push(words[(x >>> 16) % words.length]!);
    }
    const hyp = parts.join(" ");
    const ref = parts.slice(1).join(" ") + " omega";
    expect(hyp.length).toBeGreaterThan(10_000_000);
    k.sentenceBleu("a b c", ["a b c"]);
    const baseline = kernels().memory.buffer.byteLength;
    expect(baseline).toBeLessThan(8 * MiB);
    for (const score of [
      () => k.sentenceBleu(hyp, [ref]).score,
      () => k.sentenceChrf(hyp, [ref]).score,
      () => k.tokenF1(hyp, [ref]).f1,
      () => k.rougeScore(hyp, ref, { types: ["rouge1", "rouge2"] }).rouge2.fmeasure,
    ]) {
      const memory = kernels().memory;
      const value = score();
      expect(value).toBeGreaterThan(0.9);
      // the call grew the memory far past the threshold, and the module let it go afterwards
      expect(memory.buffer.byteLength).toBeGreaterThan(MEMORY_RESET_BYTES);
      expect(kernels().memory).not.toBe(memory);
      expect(kernels().memory.buffer.byteLength).toBeLessThanOrEqual(baseline);
    }
    // and the fresh module scores exactly as before
    expect(k.sentenceBleu("The cat sat on the mat.", ["The cat is on the mat."]).score).toBe(
      k.sentenceBleu("The cat sat on the mat.", ["The cat is on the mat."]).score,
    );
    expect(k.sentenceBleu("a b c", ["a b c"]).score).toBe(100.00000000000004);
  }, 300_000);

  it("an oversized input leaves the memory flat too", () => {
    const before = kernels().memory.buffer.byteLength;
    for (let i = 0; i < 3; i++) tooLarge(() => k.sentenceChrf("y ".repeat(10 * MiB), ["a"]), "string");
    expect(kernels().memory.buffer.byteLength).toBeLessThanOrEqual(Math.max(before, 8 * MiB));
  });

  it("a trap becomes a KernelAbortError and a fresh module", () => {
    const memory = kernels().memory;
    let caught: unknown;
    try {
      guarded(() => {
        throw new WebAssembly.RuntimeError("memory access out of bounds");
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(KernelAbortError);
    expect((caught as KernelAbortError).code).toBe("KERNEL_ABORT");
    expect(kernels().memory).not.toBe(memory);
    // the module's own refusal of a region past its memory limit is typed as well
    tooLarge(() => guarded(() => kernels().reserve(1.5 * 2 ** 30)), "memory");
    expect(k.sentenceChrf("abc", ["abc"]).score).toBe(100);
  });
});
