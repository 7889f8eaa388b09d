// Parity with sacreBLEU 2.6.0 TER on every line of testdata/golden/ter.jsonl: six option sets, per line
// (`TER(**options).sentence_score(hyp, refs)`) and for the corpus (`corpus_score`, with its signature).
// Edits, reference lengths and scores are compared bit for bit.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "../src/kernel.js";
import {
  InvalidArgumentError,
  corpusTer,
  sentenceTer,
  sentenceTerBatch,
  terFromStatistics,
  terScoresFromStatisticsBatch,
  terSignature,
  terStatisticsBatch,
  terTokenize,
  type TerOptions,
} from "../src/index.js";
import { readJsonl } from "./shared.js";

interface Pair {
  id: string;
  hyp: string;
  refs: string[];
}
interface GoldTer {
  score: number;
  num_edits: number;
  ref_length: number;
}
interface GoldLine {
  id: string;
  ter: Record<string, GoldTer>;
}
interface GoldCorpus {
  id: "corpus";
  ter_corpus: Record<string, GoldTer & { signature: string }>;
  variants: Record<string, Record<string, boolean>>;
}

const toOptions = (v: Record<string, boolean>): TerOptions => ({
  ...(v.normalized !== undefined ? { normalized: v.normalized } : {}),
  ...(v.no_punct !== undefined ? { noPunct: v.no_punct } : {}),
  ...(v.asian_support !== undefined ? { asianSupport: v.asian_support } : {}),
  ...(v.case_sensitive !== undefined ? { caseSensitive: v.case_sensitive } : {}),
});

let pairs: Pair[];
let gold: GoldLine[];
let corpus: GoldCorpus;
beforeAll(async () => {
  await ready();
  pairs = await readJsonl<Pair>("golden/pairs.jsonl");
  const lines = await readJsonl<GoldLine | GoldCorpus>("golden/ter.jsonl");
  corpus = lines.pop() as GoldCorpus;
  gold = lines as GoldLine[];
});

describe("sentence TER, 6 option sets × every line", () => {
  it("matches sacreBLEU bit for bit", () => {
    expect(corpus.id).toBe("corpus");
    expect(gold.length).toBe(pairs.length);
    const wrong: string[] = [];
    for (const [variant, raw] of Object.entries(corpus.variants)) {
      const options = toOptions(raw);
      const batch = terStatisticsBatch(
        pairs.map((p) => p.hyp),
        pairs.map((p) => p.refs),
        options,
      );
      pairs.forEach((p, i) => {
        const g = gold[i]!.ter[variant]!;
        expect(gold[i]!.id).toBe(p.id);
        const r = sentenceTer(p.hyp, p.refs, options);
        if (!Object.is(r.score, g.score) || r.numEdits !== g.num_edits || !Object.is(r.refLength, g.ref_length)) {
          wrong.push(`${p.id} ${variant}: ${JSON.stringify(r)} vs ${JSON.stringify(g)}`);
        }
        expect(batch[2 * i]).toBe(r.numEdits);
        expect(batch[2 * i + 1]).toBe(r.refLength);
      });
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });
});

describe("corpus TER", () => {
  it("matches corpus_score and its signature for every option set", () => {
    for (const [variant, raw] of Object.entries(corpus.variants)) {
      const options = toOptions(raw);
      const g = corpus.ter_corpus[variant]!;
      const r = corpusTer(
        pairs.map((p) => p.hyp),
        pairs.map((p) => p.refs),
        options,
      );
      expect(r.numEdits).toBe(g.num_edits);
      expect(r.refLength).toBe(g.ref_length);
      expect(r.score).toBe(g.score);
      expect(terSignature(options, "var")).toBe(g.signature);
      expect(terFromStatistics({ numEdits: r.numEdits, refLength: r.refLength }).score).toBe(g.score);
    }
  });
});

describe("TER API", () => {
  it("scores from statistics; batch equals per call; empty cases as sacreBLEU", () => {
    const stats = terStatisticsBatch(["the cat sat on mat", ""], [["the cat sat on the mat"], ["a b"]]);
    expect(Array.from(stats)).toEqual([1, 6, 2, 2]);
    expect(Array.from(terScoresFromStatisticsBatch(stats))).toEqual([100 * (1 / 6), 100]);
    expect(Array.from(sentenceTerBatch(["a b"], [[""]]))).toEqual([100]);
    expect(sentenceTer("", [""]).score).toBe(0);
    expect(terTokenize("Hello, World's  end.", { normalized: true })).toEqual(["hello", ",", "world", "'s", "end", "."]);
  });

  it("typed errors for bad options and impossible statistics", () => {
    expect(() => sentenceTer("a", ["a"], { normalize: true } as never)).toThrow(InvalidArgumentError);
    expect(() => sentenceTer("a", ["a"], { noPunct: "yes" } as never)).toThrow(InvalidArgumentError);
    expect(() => terFromStatistics({ numEdits: -1, refLength: 2 })).toThrow(InvalidArgumentError);
    expect(() => terFromStatistics({ numEdits: 1.5, refLength: 2 })).toThrow(InvalidArgumentError);
    expect(() => terFromStatistics({ numEdits: 1, refLength: Infinity })).toThrow(InvalidArgumentError);
    expect(() => terScoresFromStatisticsBatch(new Float64Array([1, NaN]))).toThrow(InvalidArgumentError);
    expect(() => sentenceTer("a", [])).toThrow(InvalidArgumentError);
  });
});
