// Reading delimited text as its writer meant it: TSV has no quoting unless asked for (a `"` is text,
// as `paste` writes it), and a CSV header that repeats a name keeps every cell and never lets a field
// silently read the last column of that name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AmbiguousColumnError, mergeShards, scoreFile, type ScoreFileOptions, type ScoreSummary } from "../src/index.js";
import { checkCsvHeader, csvKeys, parseCsv, resolveFields } from "../src/bulk/records.js";
import { readJsonl, tempDir } from "./helpers.js";

let dir: string;
/** Exact match of `hyp` against `ref` on one worker, the settings most cases here share. */
const em = {
  metrics: ["evalwire-exact-match"],
  fields: { hypothesis: "hyp", references: "ref" },
  workers: 1,
} satisfies Partial<ScoreFileOptions>;
beforeAll(() => {
  dir = tempDir();
});

describe("TSV: no quoting unless asked for", () => {
  // as `paste hyps.txt refs.txt` writes it: the quotes are the speaker's
  const lines = [
    '"Hi," she said.\t"Hi," she said.',
    '"unclosed start\t"unclosed start',
    "plain\tplain",
    'a "quoted" word\ta "quoted" word',
  ];
  const tsv = `hyp\tref\n${lines.join("\n")}\n`;

  it("reads a quote as a literal character and ends every record at its newline", async () => {
    const input = join(dir, "paste.tsv");
    writeFileSync(input, tsv);
    const output = join(dir, "paste.out.jsonl");
    const summary = await scoreFile({ input, output, ...em, outputRows: "rows" });
    expect(summary.rows).toMatchObject({ records: 4, scored: 4, bad: 0 });
    const rows = readJsonl(readFileSync(output, "utf8"));
    expect(rows.map((r) => r.hyp)).toEqual(['"Hi," she said.', '"unclosed start', "plain", 'a "quoted" word']);
    expect(rows.map((r) => (r["evalwire-exact-match"] as { score: number }).score)).toEqual([1, 1, 1, 1]);
  });

  it("writes TSV rows back byte for byte (no quotes added)", async () => {
    const input = join(dir, "bytes.tsv");
    writeFileSync(input, tsv);
    const output = join(dir, "bytes.out.tsv");
    await scoreFile({ input, output, ...em, outputRows: "rows" });
    const out = readFileSync(output, "utf8").split("\n");
    expect(out[0]).toBe("hyp\tref\tevalwire-exact-match\t_error");
    lines.forEach((l, i) => expect(out[i + 1]).toBe(`${l}\t1\t`));
  });

  it("quote: true reads TSV written with CSV quoting", async () => {
    const input = join(dir, "quoted.tsv");
    writeFileSync(input, 'hyp\tref\n"a\tb"\t"a\tb"\n"two\nlines"\t"two\nlines"\n');
    const output = join(dir, "quoted.out.jsonl");
    const summary = await scoreFile({ input, output, quote: true, ...em, outputRows: "rows" });
    expect(summary.rows).toMatchObject({ records: 2, scored: 2 });
    expect(readJsonl(readFileSync(output, "utf8")).map((r) => r.hyp)).toEqual(["a\tb", "two\nlines"]);
  });

  it("shards of a TSV with stray quotes cut at lines and merge into the single-run result", async () => {
    const input = join(dir, "shards.tsv");
    const rows = Array.from({ length: 600 }, (_, i) => (i % 7 === 0 ? `"open ${i}\tthe open ${i}` : `row ${i} "x\trow ${i} "x`));
    writeFileSync(input, `hyp\tref\n${rows.join("\n")}\n`);
    const fields = { hypothesis: "hyp", references: "ref" };
    const settings = { metrics: ["bleu"], fields, chunkBytes: 512 } as const;
    const whole = await scoreFile({ input, output: join(dir, "shards.whole.jsonl"), ...settings, workers: 2 });
    expect(whole.rows).toMatchObject({ records: 600, scored: 600 });
    const parts: ScoreSummary[] = [];
    for (let index = 0; index < 3; index++) {
      const output = join(dir, `shards.${index}.jsonl`);
      parts.push(await scoreFile({ input, output, ...settings, workers: 1, shard: { index, count: 3 } }));
    }
    const merged = await mergeShards(parts, { output: join(dir, "shards.merged.jsonl") });
    expect(readFileSync(join(dir, "shards.merged.jsonl"), "utf8")).toBe(readFileSync(join(dir, "shards.whole.jsonl"), "utf8"));
    expect(merged.metrics).toEqual(whole.metrics);
  });

  it("parseCsv: a tab delimiter does not quote unless told", () => {
    expect(parseCsv('"a\tb"\n', "\t", 1)).toEqual([{ line: 1, fields: ['"a', 'b"'] }]);
    expect(parseCsv('"a\tb"\n', "\t", 1, true)).toEqual([{ line: 1, fields: ["a\tb"] }]);
    expect(parseCsv('"a,b"\n', ",", 1)).toEqual([{ line: 1, fields: ["a,b"] }]);
  });
});

describe("CSV: a header that repeats a name", () => {
  const csv = "a,hyp,hyp,ref\n1,the cat,a dog,the cat\n2,x y,the dog,the dog\n";

  it("refuses a field on a repeated name, naming the column and its positions", async () => {
    const input = join(dir, "dup.csv");
    writeFileSync(input, csv);
    const error = await scoreFile({ input, output: join(dir, "dup.out.jsonl"), ...em }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AmbiguousColumnError);
    const e = error as AmbiguousColumnError;
    expect(e.code).toBe("AMBIGUOUS_COLUMN");
    expect(e.column).toBe("hyp");
    expect(e.positions).toEqual([2, 3]);
    expect(e.message).toContain('"hyp#1", "hyp#2"');
  });

  it("name#n picks the n-th column of the name; CSV and JSONL output keep every cell", async () => {
    const input = join(dir, "pick.csv");
    writeFileSync(input, csv);
    const fields = (n: number) => ({ hypothesis: `hyp#${n}`, references: "ref" });
    const first = await scoreFile({ input, output: join(dir, "pick1.out.csv"), ...em, fields: fields(1), outputRows: "rows" });
    const second = await scoreFile({ input, output: join(dir, "pick2.out.jsonl"), ...em, fields: fields(2), outputRows: "rows" });
    // row 1: hyp#1 "the cat" = ref; row 2: hyp#2 "the dog" = ref
    expect(first.metrics["evalwire-exact-match"]!.scores["evalwire-exact-match"]).toBe(0.5);
    expect(second.metrics["evalwire-exact-match"]!.scores["evalwire-exact-match"]).toBe(0.5);
    expect(readFileSync(join(dir, "pick1.out.csv"), "utf8")).toBe(
      "a,hyp,hyp,ref,evalwire-exact-match,_error\n1,the cat,a dog,the cat,1,\n2,x y,the dog,the dog,0,\n",
    );
    const rows = readJsonl(readFileSync(join(dir, "pick2.out.jsonl"), "utf8"));
    expect(rows[0]).toMatchObject({ a: "1", "hyp#1": "the cat", "hyp#2": "a dog", ref: "the cat" });
  });

  it("a repeated name no field uses is fine, and both cells are kept", async () => {
    const input = join(dir, "unused.csv");
    writeFileSync(input, "x,hyp,x,ref\nleft,the cat,right,the cat\n");
    await scoreFile({ input, output: join(dir, "unused.out.csv"), ...em, outputRows: "rows" });
    const expected = "x,hyp,x,ref,evalwire-exact-match,_error\nleft,the cat,right,the cat,1,\n";
    expect(readFileSync(join(dir, "unused.out.csv"), "utf8")).toBe(expected);
  });

  it("csvKeys and checkCsvHeader: name#n keys, and a key that is also another column's name", () => {
    expect(csvKeys(["a", "hyp", "hyp", "ref", "a"])).toEqual(["a#1", "hyp#1", "hyp#2", "ref", "a#2"]);
    const fields = resolveFields({ hypothesis: "hyp#1", references: "ref" });
    expect(() => checkCsvHeader(["hyp", "hyp", "ref"], fields)).not.toThrow();
    expect(() => checkCsvHeader(["hyp", "hyp", "hyp#1", "ref"], fields)).toThrow(AmbiguousColumnError);
    const onRef = resolveFields({ hypothesis: "hyp", references: ["ref"] });
    expect(() => checkCsvHeader(["hyp", "ref", "ref"], onRef)).toThrow(/2 columns named "ref" \(columns 2, 3\)/);
  });
});
