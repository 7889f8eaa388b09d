// sacreBLEU 2.6.0 drops a `None` reference of a segment (`Metric._cache_references`: "Remove undefined
// references"), in `sentence_score` as in `corpus_score`; its own tests call `sentence_score("h1", ["r1",
// None])` valid. So a `null` beside the references of a golden line must give sacreBLEU's values for the
// references alone (testdata/golden: sacrebleu.jsonl, ter.jsonl), for sentence BLEU, chrF and TER, per call
// and in batches. An empty string is not dropped: it is an empty reference (golden line e2).
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import {
  InvalidArgumentError,
  bleuStatisticsBatch,
  chrfStatisticsBatch,
  sentenceBleu,
  sentenceBleuBatch,
  sentenceChrf,
  sentenceChrfBatch,
  sentenceTer,
  sentenceTerBatch,
  terStatisticsBatch,
} from "../src/index.js";
import { readJsonl } from "./shared.js";

interface Pair {
  id: string;
  hyp: string;
  refs: string[];
}
interface GoldBleu {
  score: number;
  bp: number;
  sys_len: number;
  ref_len: number;
  counts: number[];
  totals: number[];
}
interface GoldLine {
  id: string;
  bleu: Record<string, GoldBleu>;
  chrf: { score: number; stats: number[] };
}
interface GoldTer {
  score: number;
  num_edits: number;
  ref_length: number;
}

const REL = 2e-15; // BLEU's exp/log: see sacrebleu.parity.test.ts
const close = (a: number, b: number): boolean => Object.is(a, b) || Math.abs(a - b) <= REL * Math.abs(b);

let pairs: Pair[];
let gold: GoldLine[];
let ter: { ter: Record<string, GoldTer> }[];
/** Each line's references with a `null` after the first (the second reference missing) and one in front. */
let second: (string | null)[][];
let front: (string | null)[][];
beforeAll(async () => {
  await ready();
  pairs = await readJsonl<Pair>("golden/pairs.jsonl");
  gold = await readJsonl<GoldLine>("golden/sacrebleu.jsonl");
  ter = (await readJsonl<{ ter: Record<string, GoldTer> }>("golden/ter.jsonl")).slice(0, pairs.length);
  second = pairs.map((p) => [p.refs[0]!, null, ...p.refs.slice(1)]);
  front = pairs.map((p) => [null, ...p.refs]);
});

describe("a null reference is dropped for its segment, as sacreBLEU drops None", () => {
  it("sacreBLEU's own case: sentence_score('h1', ['r1', None]) is the score against 'r1'", () => {
    // "h1" vs "r1": one hypothesis token, no match; effective order 1, so 0 with bp 1 (lengths 1 and 1)
    const expected = { score: 0, bp: 1, precisions: [0, 0, 0, 0], counts: [0, 0, 0, 0], totals: [1, 0, 0, 0], sysLen: 1, refLen: 1 };
    expect(sentenceBleu("h1", ["r1", null])).toEqual(expected);
  });

  it("sentence BLEU, per call and in batches, equals sacreBLEU's values for the references alone on every golden line", () => {
    const hyps = pairs.map((p) => p.hyp);
    const stats = bleuStatisticsBatch(hyps, second);
    const scores = sentenceBleuBatch(hyps, front);
    for (let i = 0; i < pairs.length; i++) {
      const g = gold[i]!.bleu["13a"]!;
      const where = pairs[i]!.id;
      for (const refs of [second[i]!, front[i]!]) {
        const r = sentenceBleu(pairs[i]!.hyp, refs);
        expect([r.sysLen, r.refLen, r.counts, r.totals], where).toEqual([g.sys_len, g.ref_len, g.counts, g.totals]);
        expect(close(r.score, g.score) && close(r.bp, g.bp), where).toBe(true);
      }
      expect(Array.from(stats.subarray(i * 10, i * 10 + 10)), where).toEqual([g.sys_len, g.ref_len, ...g.counts, ...g.totals]);
      expect(close(scores[i]!, g.score), where).toBe(true);
    }
  });

  it("sentence chrF and TER: the same rule (TER averages the lengths of the references that remain)", () => {
    const hyps = pairs.map((p) => p.hyp);
    const chrfBatch = sentenceChrfBatch(hyps, second);
    const chrfStats = chrfStatisticsBatch(hyps, front);
    const terBatch = sentenceTerBatch(hyps, front);
    const terStats = terStatisticsBatch(hyps, second);
    for (let i = 0; i < pairs.length; i++) {
      const where = pairs[i]!.id;
      expect(sentenceChrf(pairs[i]!.hyp, second[i]!), where).toEqual(gold[i]!.chrf);
      expect(chrfBatch[i], where).toBe(gold[i]!.chrf.score);
      expect(Array.from(chrfStats.subarray(i * 18, i * 18 + 18)), where).toEqual(gold[i]!.chrf.stats);
      const t = ter[i]!.ter.default!;
      expect(sentenceTer(pairs[i]!.hyp, front[i]!), where).toEqual({ score: t.score, numEdits: t.num_edits, refLength: t.ref_length });
      expect([terBatch[i], terStats[2 * i], terStats[2 * i + 1]], where).toEqual([t.score, t.num_edits, t.ref_length]);
    }
  });

  it("an empty string stays a reference: golden line e2 ('a hypothesis' vs ''), and the closest length beside another", () => {
    const e2 = pairs.findIndex((p) => p.id === "e2");
    expect(pairs[e2]!.refs).toEqual([""]);
    const g = gold[e2]!.bleu["13a"]!;
    const r = sentenceBleu(pairs[e2]!.hyp, ["", null]);
    expect([r.score, r.bp, r.sysLen, r.refLen, r.counts, r.totals]).toEqual([g.score, g.bp, g.sys_len, g.ref_len, g.counts, g.totals]);
    // "a" against "a b c" (3 tokens) and "" (0): the closest reference length to 1 is 0, so bp is 1
    expect(sentenceBleu("a", ["a b c", "", null])).toMatchObject({ bp: 1, sysLen: 1, refLen: 0, counts: [1, 0, 0, 0] });
  });

  it("a segment whose references are all null has none: InvalidArgumentError", () => {
    expect(() => sentenceBleu("a", [null])).toThrow(InvalidArgumentError);
    expect(() => sentenceBleuBatch(["a"], [[null, null]])).toThrow(/has no reference/);
    expect(() => sentenceTer("a", [null])).toThrow(InvalidArgumentError);
  });
});
