// Plain-text input the way sacreBLEU users bring it: `evalkern sacrebleu REF... -i HYP` and
// `evalkern score --hyp/--ref`, end to end on real files. Expected values come from sacreBLEU 2.6.0:
// the golden corpus scores and signatures (testdata/golden/corpus.json, single_ref: refs[0] of every pair),
// the golden per-line values (sacrebleu.jsonl), and sacreBLEU's own format strings applied to them
// (`Score.format`, `print_single_results`), or BLEU computed by hand where noted.
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readGoldenJsonl, readGoldenText } from "../../../testdata/index.mjs";
import { runCli, tempDir } from "./support/cli.js";

interface Pair {
  readonly hyp: string;
  readonly refs: readonly string[];
}
const corpus = JSON.parse(readGoldenText("corpus.json") as string) as {
  single_ref: Record<"bleu_13a" | "chrf" | "chrfpp", { score: number; signature: string }>;
};

// the golden pairs as sacreBLEU's plain-text files. 59 hypotheses hold line breaks, which a text file
// cannot carry; they become spaces, which changes no score: BLEU's 13a tokenizer turns "\n" into a space
// (only "-\n" would differ, and no pair has it, checked below) and chrF drops all whitespace.
let dir = "";
let hyp = "";
let ref = "";
beforeAll(() => {
  const pairs = readGoldenJsonl("pairs.jsonl") as Pair[];
  expect(pairs.filter((p) => /-[\r\n]|<skipped>/.test(p.hyp + p.refs[0]))).toEqual([]);
  dir = tempDir();
  hyp = join(dir, "hyp.txt");
  ref = join(dir, "ref.txt");
  writeFileSync(hyp, pairs.map((p) => p.hyp.replace(/[\r\n]/g, " ")).join("\n") + "\n");
  writeFileSync(ref, pairs.map((p) => p.refs[0]!.replace(/[\r\n]/g, " ")).join("\n") + "\n");
});

// sacreBLEU's lines for corpus.json's single_ref values (python3: Score.format and print_single_results)
const BLEU_LINE_1 =
  "BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 64.5 76.1/67.5/62.4/58.3 (BP = 0.981 ratio = 0.982 " +
  "hyp_len = 51076 ref_len = 52030)";
const TEXT_W2 = [
  "  BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 64.54 76.1/67.5/62.4/58.3 (BP = 0.981 ratio = 0.982 " +
    "hyp_len = 51076 ref_len = 52030)",
  "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 73.61",
].join("\n");
const BLEU_JSON_1 = `{
 "name": "BLEU",
 "score": 64.5,
 "signature": "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0",
 "verbose_score": "76.1/67.5/62.4/58.3 (BP = 0.981 ratio = 0.982 hyp_len = 51076 ref_len = 52030)",
 "nrefs": "1",
 "case": "mixed",
 "eff": "no",
 "tok": "13a",
 "smooth": "exp",
 "version": "2.6.0"
}`;

describe("evalkern sacrebleu on the golden pairs as text files", () => {
  it("prints sacreBLEU's JSON by default: BLEU's score, signature and verbose line", async () => {
    const r = await runCli(["sacrebleu", ref, "-i", hyp]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${BLEU_JSON_1}\n`);
  });

  it("-m bleu chrf -f text -w 2: the aligned text lines with sacreBLEU's signatures", async () => {
    const r = await runCli(["sacrebleu", ref, "-i", hyp, "-m", "bleu", "chrf", "-f", "text", "-w", "2"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${TEXT_W2}\n`);
    expect(corpus.single_ref.bleu_13a.signature).toBe("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0");
    expect(corpus.single_ref.chrf.signature).toBe("nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0");
  });

  it("-b with 20 decimals gives the golden corpus scores exactly (BLEU, chrF, chrF++ via -cw 2)", async () => {
    const r = await runCli(["sacrebleu", ref, "-i", hyp, "-m", "bleu", "chrf", "-b", "-w", "20", "-f", "text"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n").map(Number)).toEqual([corpus.single_ref.bleu_13a.score, corpus.single_ref.chrf.score]);
    const pp = await runCli(["sacrebleu", ref, "-i", hyp, "-m", "chrf", "-cw", "2", "-f", "text"]);
    expect(pp.stdout).toBe(`chrF2++|${corpus.single_ref.chrfpp.signature} = 72.7\n`);
    const b = await runCli(["sacrebleu", ref, "-i", hyp, "-m", "chrf", "-cw", "2", "-b", "-w", "20"]);
    expect(Number(b.stdout)).toBe(corpus.single_ref.chrfpp.score);
  });

  it("reads the hypotheses from stdin with -i - and with no -i", async () => {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(hyp, "utf8");
    for (const args of [
      ["sacrebleu", ref, "-i", "-", "-f", "text"],
      ["sacrebleu", ref, "-f", "text"],
    ]) {
      const r = await runCli(args, { stdin: text });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${BLEU_LINE_1}\n`);
    }
  });

  it("SACREBLEU_FORMAT overrides --format, as in sacreBLEU", async () => {
    const r = await runCli(["sacrebleu", ref, "-i", hyp], { env: { SACREBLEU_FORMAT: "text" } });
    expect(r.stdout).toBe(`${BLEU_LINE_1}\n`);
  });
});

describe("evalkern sacrebleu flags", () => {
  const write = (name: string, text: string): string => {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  };

  it("line counts that differ are an error naming both counts (exit 3), in sacrebleu and score --hyp/--ref", async () => {
    const h = write("hyp.txt", "a\nb\nc\nd\n");
    const r1 = write("ref.txt", "a\nb\n");
    const s = await runCli(["sacrebleu", r1, "-i", h]);
    expect(s.code).toBe(3);
    expect(s.stderr).toContain(`${h} has 4 lines, ${r1} has 2 lines`);
    const d = tempDir();
    const sc = await runCli(["score", "--hyp", h, "--ref", r1, "--metric", "bleu", "--no-progress"], { cwd: d });
    expect(sc.code).toBe(3);
    expect(sc.stderr).toContain(`${h} has 4 lines, ${r1} has 2 lines`);
    expect(readdirSync(d)).toEqual([]); // no scored file left behind
  });

  it("-lc lowercases BLEU (by hand: no token matches with case, all with -lc)", async () => {
    const h = write("hyp.txt", "The Cat Sat On The Mat\n");
    const r = write("ref.txt", "the cat sat on the mat\n");
    const mixed = await runCli(["sacrebleu", r, "-i", h, "-b"]);
    expect(mixed.stdout).toBe("0.0\n");
    const lc = await runCli(["sacrebleu", r, "-i", h, "-lc", "-f", "text"]);
    // exp(mean(log(100) × 4)) = 100.00000000000004 → "100.0"
    expect(lc.stdout).toBe(
      "BLEU|nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0 = 100.0 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = " +
        "1.000 hyp_len = 6 ref_len = 6)\n",
    );
  });

  it("-s exp|floor|add-k|none and -sv: sacreBLEU's compute_bleu by hand on counts 3/4 1/3 0/2 0/1", async () => {
    // hyp "a b c d", ref "a b x d": matches 3 of 4 unigrams, 1 of 3 bigrams, none of 2 trigrams and 1 four-gram
    const h = write("hyp.txt", "a b c d\n");
    const r = write("ref.txt", "a b x d\n");
    const cases: [string[], string][] = [
      [[], "smooth:exp|version:2.6.0 = 35.3553 75.0/33.3/25.0/25.0"],
      [["-s", "floor"], "smooth:floor[0.10]|version:2.6.0 = 18.8030 75.0/33.3/5.0/10.0"],
      [["-s", "floor", "-sv", "0.5"], "smooth:floor[0.50]|version:2.6.0 = 42.0448 75.0/33.3/25.0/50.0"],
      [["-s", "add-k"], "smooth:add-k[1.00]|version:2.6.0 = 50.0000 75.0/50.0/33.3/50.0"],
      [["-s", "none"], "smooth:none|version:2.6.0 = 0.0000 75.0/33.3/0.0/0.0"],
    ];
    for (const [flags, tail] of cases) {
      const out = await runCli(["sacrebleu", r, "-i", h, "-f", "text", "-w", "4", ...flags]);
      expect(out.stdout).toBe(`BLEU|nrefs:1|case:mixed|eff:no|tok:13a|${tail} (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)\n`);
    }
  });

  it("-tok intl|zh|char|none give sacreBLEU's BLEU of a golden line with several references", async () => {
    type Golden = { n_refs: number; bleu: Record<string, { score: number; totals: number[] }> };
    const pairs = readGoldenJsonl("pairs.jsonl") as Pair[];
    const golden = readGoldenJsonl("sacrebleu.jsonl") as Golden[];
    const tokenizers = ["13a", "intl", "zh", "char", "none"];
    // a line whose every order has n-grams under every tokenizer: its one-line corpus BLEU (no effective
    // order) equals sacreBLEU's sentence BLEU (effective order) in the golden file
    const i = golden.findIndex(
      (g, k) =>
        g.n_refs >= 2 &&
        !/[\r\n]/.test(pairs[k]!.hyp + pairs[k]!.refs.join("")) &&
        tokenizers.every((t) => g.bleu[t]!.totals[3]! > 0) &&
        g.bleu.intl!.score !== g.bleu["13a"]!.score,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    const h = write("hyp.txt", `${pairs[i]!.hyp}\n`);
    const refs = pairs[i]!.refs.map((text, k) => write(`ref${k}.txt`, `${text}\n`));
    for (const t of tokenizers) {
      const r = await runCli(["sacrebleu", ...refs, "-i", h, "-tok", t, "-b", "-w", "20"]);
      expect(r.code).toBe(0);
      expect(Number(r.stdout)).toBeCloseTo(golden[i]!.bleu[t]!.score, 11);
      const sig = await runCli(["sacrebleu", ...refs, "-i", h, "-tok", t, "-f", "text"]);
      expect(sig.stdout).toContain(`BLEU|nrefs:${pairs[i]!.refs.length}|case:mixed|eff:no|tok:${t}|smooth:exp|version:2.6.0 = `);
    }
  });

  it("a sacreBLEU tokenizer evalkern does not have is a usage error naming those it has", async () => {
    const h = write("hyp.txt", "a\n");
    const r = await runCli(["sacrebleu", h, "-i", h, "-tok", "ja-mecab"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("13a, intl, zh, char, none");
  });
});

describe("evalkern score with sacreBLEU habits", () => {
  it("a plain-text file given as input is refused, naming the formats and the --hyp/--ref flags", async () => {
    const d = tempDir();
    const txt = join(d, "hyp.txt");
    writeFileSync(txt, "the cat sat\n");
    const r = await runCli(["score", txt, "--no-progress"], { cwd: d });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("is not JSONL");
    expect(r.stderr).toContain("JSONL (one JSON object per line), CSV (.csv) and TSV (.tsv)");
    expect(r.stderr).toContain("--hyp");
    expect(r.stderr).not.toContain("invalid JSON");
    // an extension that says nothing, and first bytes that are not JSON
    const noExt = join(d, "newstest2019.de");
    writeFileSync(noExt, "Ein Satz.\n");
    const r2 = await runCli(["score", noExt, "--no-progress"], { cwd: d });
    expect(r2.code).toBe(3);
    expect(r2.stderr).toContain('its first line does not start with "{"');
  });

  it("--hyp/--ref score plain-text files: the golden corpus scores, rows written as JSONL", async () => {
    const d = tempDir();
    const r = await runCli(
      ["score", "--hyp", hyp, "--ref", ref, "--metric", "bleu", "--metric", "chrf", "--no-ci", "--format", "json", "--no-progress"],
      { cwd: d },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as {
      output: string;
      rows: { records: number };
      metrics: { name: string; corpus: Record<string, number>; signature: string }[];
    };
    expect(json.rows.records).toBe(3000);
    expect(json.metrics.map((m) => m.corpus[m.name])).toEqual([corpus.single_ref.bleu_13a.score, corpus.single_ref.chrf.score]);
    expect(json.metrics[0]!.signature).toContain(`BLEU|${corpus.single_ref.bleu_13a.signature}|`);
    expect(json.output).toBe(join(d, "hyp.scored.jsonl"));
    expect(existsSync(json.output)).toBe(true);
  });

  it("--score-only prints the scores and writes no file, for --hyp/--ref and for a JSONL input", async () => {
    const d = tempDir();
    const r = await runCli(
      ["score", "--hyp", hyp, "--ref", ref, "--metric", "bleu", "--score-only", "--no-ci", "-w", "1", "--no-progress"],
      { cwd: d },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^bleu\s+64\.5\s/m); // -w 1: one decimal (64.54296… → 64.5)
    expect(readdirSync(d)).toEqual([]);
    const jsonl = join(tempDir(), "pairs.jsonl");
    writeFileSync(jsonl, `${JSON.stringify({ hyp: "a b c d", refs: ["a b x d"] })}\n`);
    const j = await runCli(["score", jsonl, "--metric", "bleu", "-b", "--no-ci", "-w", "4", "--no-progress"], { cwd: d });
    expect(j.code).toBe(0);
    expect(j.stdout).toMatch(/^bleu\s+35\.3553\s/m); // computed by hand above (exp smoothing)
    expect(readdirSync(d)).toEqual([]);
  });

  it("-w is the width (decimals), not the worker count; workers are -j/--workers", async () => {
    const d = tempDir();
    const r = await runCli(
      ["score", "--hyp", hyp, "--ref", ref, "--metric", "bleu", "-b", "--no-ci", "-w", "2", "-j", "1", "--no-progress"],
      { cwd: d },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^bleu\s+64\.54\s/m);
    const bad = await runCli(["score", "--hyp", hyp, "--ref", ref, "--workers", "0"], { cwd: d });
    expect(bad.code).toBe(2);
  });
});
