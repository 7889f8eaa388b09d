// DSPy parity: every `normalize_text`, `F1`, `HotPotF1` and `EM` line of testdata/golden/dspy.jsonl, and
// NeMo BYOB `f1_token` lines of byob.jsonl, reproduced exactly (doubles compared with Object.is; the
// golden integer 0 is the number 0).
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../src/errors.js";
import { ready } from "../src/kernel.js";
import { lowersNatively, normalizeText, normalizeTextBatch, pythonLowerBatch } from "../src/normalize.js";
import { terStatisticsBatch } from "../src/ter.js";
import { tokenF1, tokenF1Batch } from "../src/token-f1.js";
import { readJsonl } from "./shared.js";

interface Golden {
  id: string;
  fn: string;
  args: Record<string, unknown>;
  out: unknown;
}

const isError = (out: unknown): out is { error: string } =>
  typeof out === "object" && out !== null && "error" in (out as Record<string, unknown>);

let dspy: Golden[] = [];
let byob: Golden[] = [];

beforeAll(async () => {
  await ready();
  dspy = await readJsonl<Golden>("golden/dspy.jsonl");
  byob = await readJsonl<Golden>("golden/byob.jsonl");
});

/** Lines of `fn` whose inputs our API can take (strings, non-empty string lists). */
function pairLines(fn: string): Golden[] {
  return dspy.filter(
    (l) =>
      l.fn === fn &&
      !isError(l.out) &&
      typeof l.args.prediction === "string" &&
      Array.isArray(l.args.answers_list) &&
      (l.args.answers_list as unknown[]).every((a) => typeof a === "string"),
  );
}

describe("normalize_text (dspy.jsonl)", () => {
  it("matches every golden line exactly", () => {
    const lines = dspy.filter((l) => l.fn === "normalize_text");
    const ok = lines.filter((l) => typeof l.args.s === "string" && !isError(l.out));
    expect(ok.length).toBeGreaterThan(3000);
    const got = normalizeTextBatch(ok.map((l) => l.args.s as string));
    const bad = ok.filter((l, i) => got[i] !== l.out).map((l) => ({ id: l.id, s: l.args.s, want: l.out }));
    expect(bad).toEqual([]);
    console.log(`[normalize.parity] normalize_text: ${ok.length}/${lines.length} lines matched`);
    // the single-string form agrees with the batch
    for (const l of ok.slice(0, 200)) expect(normalizeText(l.args.s as string)).toBe(l.out);
    // non-str inputs (TypeError in Python) are a typed error here
    for (const l of lines.filter((x) => typeof x.args.s !== "string")) {
      expect(() => normalizeText(l.args.s as string)).toThrow(InvalidArgumentError);
    }
  });

  it("documented surprises", () => {
    expect(normalizeText("año")).toBe("\u0303o");
    expect(normalizeText("thé")).toBe("\u0301");
    expect(normalizeText("à la carte")).toBe("\u0300 la carte");
    expect(normalizeText("snake_case a_an_the")).toBe("snakecase aanthe");
    expect(normalizeText("the日本 the² The the THE a an")).toBe("the日本 the²");
    expect(normalizeText("\u00a0a\u0085b\u200bc\ufeff\u001c")).toBe("b\u200bc\ufeff");
    expect(normalizeText("ΣΊΣΥΦΟΣ")).toBe("σι\u0301συφος");
    expect(normalizeText("İstanbul")).toBe("i\u0307stanbul");
    expect(normalizeText("")).toBe("");
  });

  it("rejects non-strings with a typed error", () => {
    expect(() => normalizeText(null as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => normalizeText(42 as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => normalizeTextBatch("abc" as unknown as string[])).toThrow(InvalidArgumentError);
    expect(() => normalizeTextBatch(["a", 1 as unknown as string])).toThrow(InvalidArgumentError);
  });
});

describe("F1 / HotPotF1 / EM (dspy.jsonl)", () => {
  for (const [fn, hotpot] of [
    ["F1", false],
    ["HotPotF1", true],
  ] as const) {
    it(`${fn}: every golden line, exact doubles`, () => {
      const all = dspy.filter((l) => l.fn === fn);
      const lines = pairLines(fn);
      const got = tokenF1Batch(
        lines.map((l) => l.args.prediction as string),
        lines.map((l) => l.args.answers_list as string[]),
        { hotpot },
      );
      const bad = lines.map((l, i) => ({ id: l.id, got: got[3 * i], want: l.out })).filter((x) => !Object.is(x.got, x.want));
      expect(bad).toEqual([]);
      // the error lines are empty answer lists (ValueError in Python): a typed error here
      const errors = all.filter((l) => isError(l.out));
      for (const l of errors) {
        expect(() => tokenF1(l.args.prediction as string, l.args.answers_list as string[], { hotpot })).toThrow(InvalidArgumentError);
      }
      expect(lines.length + errors.length).toBe(all.length);
      console.log(`[normalize.parity] ${fn}: ${lines.length} lines matched, ${errors.length} error lines raise`);
    });
  }

  it("EM: any normalised answer equals the normalised prediction", () => {
    const all = dspy.filter((l) => l.fn === "EM");
    const lines = pairLines("EM");
    const preds = normalizeTextBatch(lines.map((l) => l.args.prediction as string));
    const answers = lines.map((l) => normalizeTextBatch(l.args.answers_list as string[]));
    const bad = lines.filter((l, i) => answers[i]!.includes(preds[i]!) !== l.out).map((l) => l.id);
    expect(bad).toEqual([]);
    const errors = all.filter((l) => isError(l.out));
    for (const l of errors) {
      expect(() => tokenF1(l.args.prediction as string, l.args.answers_list as string[])).toThrow(InvalidArgumentError);
    }
    expect(lines.length + errors.length).toBe(all.length);
    console.log(`[normalize.parity] EM: ${lines.length} lines matched, ${errors.length} error lines raise`);
  });
});

describe("BYOB f1_token (byob.jsonl)", () => {
  it("every line with string response and target: f1, precision, recall exact", () => {
    const lines = byob.filter((l) => l.fn === "f1_token" && typeof l.args.response === "string" && typeof l.args.target === "string");
    expect(lines.length).toBeGreaterThan(3000);
    const got = tokenF1Batch(
      lines.map((l) => l.args.response as string),
      lines.map((l) => [l.args.target as string]),
      { mode: "byob" },
    );
    const bad = lines
      .map((l, i) => ({ id: l.id, got: Array.from(got.subarray(3 * i, 3 * i + 3)), out: l.out as Record<string, number> }))
      .filter((x) => !(Object.is(x.got[0], x.out.f1) && Object.is(x.got[1], x.out.precision) && Object.is(x.got[2], x.out.recall)));
    expect(bad).toEqual([]);
    // a None response (AttributeError in Python) is a typed error here
    for (const l of byob.filter((x) => x.fn === "f1_token" && x.args.response === null)) {
      expect(() => tokenF1(l.args.response as string, [String(l.args.target)], { mode: "byob" })).toThrow(InvalidArgumentError);
    }
    console.log(`[normalize.parity] f1_token: ${lines.length} lines matched`);
  });
});

describe("token F1 API", () => {
  it("returns precision and recall of the first reference reaching the max f1", () => {
    // pred tokens [cat, sat]; ref 0: [cat] -> p 0.5 r 1; ref 1: [sat] -> same f1 (tie, first kept)
    const r = tokenF1("The cat sat", ["a cat", "sat", "dog"]);
    expect(r).toEqual({ f1: (2 * 0.5 * 1) / 1.5, precision: 0.5, recall: 1 });
    const best = tokenF1("the cat sat", ["dog", "cat sat down"]);
    expect(best.precision).toBe(1);
    expect(best.recall).toBe(2 / 3);
    expect(best.f1).toBe((2 * 1 * (2 / 3)) / (1 + 2 / 3));
    expect(tokenF1("", [""])).toEqual({ f1: 0, precision: 0, recall: 0 });
    expect(tokenF1("yes.", ["yes"], { mode: "byob" }).f1).toBe(0);
    expect(tokenF1("yes.", ["yes"]).f1).toBe(1);
    expect(tokenF1("Yes", ["yes sir"], { hotpot: true }).f1).toBe(0);
    expect(tokenF1("Yes", ["yes sir"]).f1).toBe((2 * 1 * 0.5) / 1.5);
    expect(tokenF1("No Answer", ["no answer given"], { hotpot: true }).f1).toBe((2 * 1 * (2 / 3)) / (1 + 2 / 3));
    expect(tokenF1("noanswer", ["No answer"], { hotpot: true }).f1).toBe(0);
    expect(tokenF1("The noanswer!", ["noanswer"], { hotpot: true }).f1).toBe(1);
  });

  it("batch layout: n x 3", () => {
    const out = tokenF1Batch(["a b", "c"], [["b"], ["c", "d"]], { mode: "byob" });
    expect(out).toBeInstanceOf(Float64Array);
    expect(Array.from(out)).toEqual([(2 * 0.5 * 1) / 1.5, 0.5, 1, 1, 1, 1]);
    expect(tokenF1Batch([], [])).toHaveLength(0);
  });

  it("typed errors", () => {
    expect(() => tokenF1(null as unknown as string, ["x"])).toThrow(InvalidArgumentError);
    expect(() => tokenF1("x", [])).toThrow(InvalidArgumentError);
    expect(() => tokenF1("x", "x" as unknown as string[])).toThrow(InvalidArgumentError);
    expect(() => tokenF1("x", [null as unknown as string])).toThrow(InvalidArgumentError);
    expect(() => tokenF1("x", ["x"], { mode: "squad" as "dspy" })).toThrow(InvalidArgumentError);
    expect(() => tokenF1("x", ["x"], { mode: "byob", hotpot: true })).toThrow(InvalidArgumentError);
    expect(() => tokenF1Batch(["x"], [])).toThrow(InvalidArgumentError);
    expect(() => tokenF1Batch(["x", "y"], [["x"], []])).toThrow(InvalidArgumentError);
    expect(() => tokenF1Batch("x" as unknown as string[], [["x"]])).toThrow(InvalidArgumentError);
  });
});

describe("lowersNatively: the runtime's toLowerCase is Python's str.lower() (Unicode 14) there", () => {
  const blocks: [number, number][] = [
    [0x0, 0x3a2],
    [0x3a4, 0x52f],
    [0x1100, 0x11ff],
    [0x2000, 0x206f],
    [0x3000, 0x30ff],
    [0x3130, 0x318f],
    [0x4e00, 0x9fff],
    [0xac00, 0xd7a3],
    [0xff00, 0xffef],
  ];
  it("every UTF-16 unit of the native blocks lowers as the Unicode 14 kernel lowers it", () => {
    const units: string[] = [];
    for (const [from, to] of blocks) for (let c = from; c <= to; c++) units.push(String.fromCharCode(c));
    expect(units.every(lowersNatively)).toBe(true);
    const python = pythonLowerBatch(units);
    const differ = units.filter((u, i) => u.toLowerCase() !== python[i]);
    expect(differ).toEqual([]);
    // İ has a two-unit lowercase in both: "i" + combining dot above
    expect(python[0x130]).toBe("i\u0307");
  });
  it("capital sigma, lone surrogates and other blocks go to the kernel", () => {
    for (const s of ["ΟΔΟΣ", "a\ud800", "\u1e9e", "\u10a0", "\ua7c0", "\u{10400}", "\u1c89"]) expect(lowersNatively(s)).toBe(false);
    expect(lowersNatively("Отображает İSTANBUL 東京 ＡＢＣ 한국어")).toBe(true);
  });
  it("TER lowercases both ways alike: native and kernel-lowered strings give sacreBLEU's edits", () => {
    // hand-counted: "σας" (final sigma from the kernel) vs "σασ"; İ lowers to two units inside one word
    const hyps = ["ΟΔΟΣ ΣΑΣ İSTANBUL ＡＢＣ", "Привет МИР"];
    const refs = [["οδος σας i\u0307stanbul ａｂｃ"], ["привет мир"]];
    expect([...terStatisticsBatch(hyps, refs)]).toEqual([0, 4, 0, 2]);
    expect([...terStatisticsBatch(hyps, [["οδοσ σασ istanbul abc"], ["мир привет"]])]).toEqual([4, 4, 1, 2]);
  });
});
