// `evalkern score` on inputs that used to be misread: TSV quotes, repeated CSV header names, and damaged
// checkpoints on --resume (each refused with exit 3 naming the column or the file).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";

const base = ["--metric", "evalwire-exact-match", "--workers", "1", "--no-ci", "--no-progress"];

describe("evalkern score: TSV", () => {
  it("reads a quote in TSV as text and writes the rows back byte for byte", async () => {
    const dir = tempDir();
    const lines = ['"Hi," she said.\t"Hi," she said.', '"unclosed\t"unclosed', "plain\tplain"];
    const input = join(dir, "paste.tsv");
    writeFileSync(input, `hyp\tref\n${lines.join("\n")}\n`);
    const out = join(dir, "out.tsv");
    const r = await runCli(["score", input, "-o", out, "--refs-field", "ref", ...base, "--json"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { rows: unknown }).rows).toEqual({ records: 3, scored: 3, bad: 0 });
    expect(readFileSync(out, "utf8")).toBe(`hyp\tref\tevalwire-exact-match\t_error\n${lines.map((l) => `${l}\t1\t`).join("\n")}\n`);
    const manifest = JSON.parse(readFileSync(join(`${out}.evalkern`, "run.json"), "utf8")) as { outputQuote?: boolean };
    expect(manifest.outputQuote).toBe(false);
  });

  it("--tsv-quotes reads TSV written with CSV quoting", async () => {
    const dir = tempDir();
    const input = join(dir, "quoted.tsv");
    writeFileSync(input, 'hyp\tref\n"a\tb"\t"a\tb"\n');
    const out = join(dir, "out.jsonl");
    const r = await runCli(["score", input, "-o", out, "--refs-field", "ref", "--tsv-quotes", ...base], { cwd: dir });
    expect(r.code).toBe(0);
    expect((JSON.parse(readFileSync(out, "utf8")) as { hyp: string }).hyp).toBe("a\tb");
  });
});

describe("evalkern score: a CSV header that repeats a name", () => {
  const csv = "a,hyp,hyp,ref\n1,the cat,a dog,the cat\n";

  it("refuses a field on the repeated name with exit 3 naming the column", async () => {
    const dir = tempDir();
    const input = join(dir, "dup.csv");
    writeFileSync(input, csv);
    const r = await runCli(["score", input, "-o", join(dir, "out.csv"), "--refs-field", "ref", ...base], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/2 columns named "hyp" \(columns 2, 3\): pick one as "hyp#1", "hyp#2"/);
  });

  it("--hyp-field hyp#2 picks the second; the output keeps both cells", async () => {
    const dir = tempDir();
    const input = join(dir, "dup.csv");
    writeFileSync(input, csv);
    const out = join(dir, "out.csv");
    const r = await runCli(["score", input, "-o", out, "--hyp-field", "hyp#2", "--refs-field", "ref", ...base], { cwd: dir });
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("a,hyp,hyp,ref,evalwire-exact-match,_error\n1,the cat,a dog,the cat,0,\n");
  });
});

describe("evalkern score --resume: a damaged checkpoint", () => {
  it("a truncated checkpoint is refused with exit 3, naming the file", async () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    writeFileSync(input, `${JSON.stringify({ hyp: "the cat", refs: ["the cat"] })}\n`);
    const out = join(dir, "out.jsonl");
    const ckpt = join(`${out}.evalkern`, "rows.jsonl.ckpt.json");
    mkdirSync(`${out}.evalkern`);
    writeFileSync(ckpt, '{"version":3,"job":"0123456789abcdef","nextOffset":0,"contentHash":"e3b0c44298fc1c149afbf4c8996fb9242');
    const r = await runCli(["score", input, "-o", out, "--resume", ...base], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot resume: ${ckpt} is damaged`);
  });
});
