// `evalkern compare` end to end: two systems on the bundled references, paired bootstrap per metric and
// per slice, from scored outputs and from raw input files.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { examplePairs, readJsonl, runCli, tempDir } from "./support/cli.js";

let dir: string;
let better: string;

beforeAll(() => {
  dir = tempDir();
  // system B: every third hypothesis replaced by its reference (clearly better)
  better = join(dir, "better.jsonl");
  writeFileSync(
    better,
    readJsonl(examplePairs)
      .map((r, i) => JSON.stringify(i % 3 === 0 ? { ...r, hyp: (r.refs as string[])[0] } : r))
      .join("\n"),
  );
});

describe("evalkern compare", () => {
  it("paired significance per metric and per slice on two scored outputs", async () => {
    const flags = ["--metric", "bleu", "--metric", "chrf", "--no-progress"];
    const a = await runCli(["score", examplePairs, "-o", join(dir, "a.jsonl"), ...flags], { cwd: dir });
    const b = await runCli(["score", better, "-o", join(dir, "b.jsonl"), ...flags], { cwd: dir });
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const r = await runCli(["compare", join(dir, "a.jsonl"), join(dir, "b.jsonl"), "--by", "lang", "--resamples", "300"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("300 paired rows · paired bootstrap (sacreBLEU paired-bs), 300 resamples, seed 12345");
    expect(r.stdout).toMatch(/^bleu\s+66\.95 ±\d+\.\d\d\s+\d+\.\d\d ±\d+\.\d\d\s+\+\d+\.\d\d\s+0\.0033\s+\*\*$/m);
    expect(r.stdout).toMatch(/^by lang$/m);
    expect(r.stdout).toMatch(/^en\s+144\s+bleu\s/m);

    const json = await runCli(["compare", join(dir, "a.jsonl"), join(dir, "b.jsonl"), "--by", "lang", "--resamples", "300", "--json"], {
      cwd: dir,
    });
    const res = JSON.parse(json.stdout) as {
      metrics: Record<string, Record<string, { difference: number; pValue: number; baseline: { score: number } }>>;
      slices: {
        field: string;
        value: string;
        rows: number;
        result: Record<string, Record<string, { difference: number; pValue: number; baseline: { score: number } }>>;
      }[];
    };
    expect(res.metrics.bleu!.bleu!.difference).toBeGreaterThan(5);
    expect(res.metrics.bleu!.bleu!.pValue).toBeLessThan(0.05);
    const langs = res.slices.filter((s) => s.field === "lang");
    expect(langs.reduce((n, s) => n + s.rows, 0)).toBe(300);
    // a slice's corpus BLEU is computed from its own summed statistics, not a mean of sentence scores
    const en = langs.find((s) => s.value === "en")!;
    expect(en.result.bleu!.bleu!.baseline.score).toBeGreaterThan(0);
    expect(en.result.bleu!.bleu!.pValue).toBeGreaterThan(0);
    expect(en.result.bleu!.bleu!.pValue).toBeLessThanOrEqual(1);
  });

  it("scores raw input files first, and rejects different references or metrics", async () => {
    const r = await runCli(["compare", examplePairs, better, "--metric", "chrf", "--resamples", "200"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^chrf\s+74\.93 ±/m);
    // what is scored first is said, with the scoring's progress (plain lines: stderr is a pipe)
    expect(r.stderr).toContain(`baseline ${examplePairs} is not a scored output: scoring it first`);
    expect(r.stderr).toContain(`system ${better} is not a scored output: scoring it first`);
    expect(r.stderr).toMatch(/^score: 300 rows done/m);
    const quiet = await runCli(["--quiet", "compare", examplePairs, better, "--metric", "chrf", "--resamples", "200"], { cwd: dir });
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toBe(r.stdout);
    // a bad row of a raw input is reported, not swallowed
    const broken = join(dir, "broken.jsonl");
    writeFileSync(broken, readFileSync(better, "utf8").replace(/\n/, "\n{not json\n"));
    const withBad = await runCli(["compare", examplePairs, broken, "--metric", "chrf", "--resamples", "50", "--no-progress"], { cwd: dir });
    expect(withBad.stderr).toContain("1 of 301 rows could not be scored (invalid_json: 1)");
    expect(withBad.stderr).toContain(`${broken}:2: invalid JSON`);
    expect(withBad.stderr).toContain("different numbers of rows (300 vs 301)");
    expect(withBad.code).toBe(3);

    const other = join(dir, "other-refs.jsonl");
    writeFileSync(
      other,
      readJsonl(examplePairs)
        .map((x, i) => JSON.stringify(i === 7 ? { ...x, refs: ["something else"] } : x))
        .join("\n"),
    );
    const diff = await runCli(["compare", examplePairs, other, "--metric", "bleu"], { cwd: dir });
    expect(diff.code).toBe(3);
    expect(diff.stderr).toContain("row 8 has different references");

    const c = await runCli(["score", better, "-o", join(dir, "c.jsonl"), "--metric", "bleu", "--no-progress", "--no-ci"], { cwd: dir });
    expect(c.code).toBe(0);
    const mismatch = await runCli(["compare", join(dir, "a.jsonl"), join(dir, "c.jsonl")], { cwd: dir });
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain("different metrics");

    const missing = await runCli(["compare", join(dir, "nope.jsonl"), join(dir, "a.jsonl")], { cwd: dir });
    expect(missing.code).toBe(3);
  });

  it("a baseline and several systems: each system gets its own test against the baseline (sacreBLEU -i base sys1 sys2)", async () => {
    const flags = ["--metric", "bleu", "--metric", "chrf", "--no-progress"];
    const out = (name: string) => join(dir, `n-${name}.jsonl`);
    for (const [name, input] of [
      ["a", examplePairs],
      ["b", better],
      ["same", examplePairs],
    ] as const) {
      expect((await runCli(["score", input, "-o", out(name), ...flags], { cwd: dir })).code).toBe(0);
    }
    const common = ["--by", "lang", "--resamples", "300"];
    const several = await runCli(["compare", out("a"), out("b"), out("same"), ...common, "--json"], { cwd: dir });
    expect(several.stderr).toBe("");
    expect(several.code).toBe(0);
    type Score = { difference: number; pValue: number; baseline: { score: number }; system: { score: number } };
    type Test = { system: string; rows: number; metrics: Record<string, Record<string, Score>>; signatures: unknown; slices: unknown[] };
    const res = JSON.parse(several.stdout) as { baseline: string; systems: Test[] };
    expect(res.baseline).toBe(out("a"));
    expect(res.systems.map((t) => t.system)).toEqual([out("b"), out("same")]);
    // each system's test is the two-system compare of (baseline, system): same seed, same resampled rows
    for (const [k, name] of ["b", "same"].entries()) {
      const two = JSON.parse((await runCli(["compare", out("a"), out(name), ...common, "--json"], { cwd: dir })).stdout) as Test;
      const { metrics, signatures, slices } = two;
      const expected = { system: two.system, test: "paired-bs", resamples: 300, seed: 12345, rows: 300, metrics, signatures, slices };
      expect(res.systems[k]).toEqual(expected);
    }
    // by hand: the better system is never beaten by a resample, p = (0 + 1)/(300 + 1); the baseline's own
    // hypotheses again give Δ = 0, and a zero difference is never "more extreme", so p = 1/301 as well
    // (sacreBLEU counts |Δ*| − mean|Δ*| > |Δ| strictly, so that a system against itself is not called chance)
    expect(res.systems[0]!.metrics.bleu!.bleu!.pValue).toBe(1 / 301);
    for (const m of ["bleu", "chrf"]) {
      const same = res.systems[1]!.metrics[m]![m]!;
      expect(same.difference).toBe(0);
      expect(same.system.score).toBe(same.baseline.score);
      expect(same.pValue).toBe(1 / 301);
    }

    const text = await runCli(["compare", out("a"), out("b"), out("same"), ...common], { cwd: dir });
    expect(text.code).toBe(0);
    const head = `evalkern compare · baseline ${out("a")} vs 2 systems: ${out("b")}, ${out("same")}\n`;
    const test = "paired bootstrap (sacreBLEU paired-bs), 300 resamples, seed 12345";
    expect(text.stdout).toContain(`${head}300 paired rows · ${test}; each system against the baseline\n`);
    const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(text.stdout).toMatch(new RegExp(`^bleu\\s+baseline: ${esc(out("a"))}\\s+66\\.95 ±\\d+\\.\\d\\d$`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^\\s+${esc(out("b"))}\\s+79\\.91 ±\\d+\\.\\d\\d\\s+\\+12\\.96\\s+0\\.0033\\s+\\*\\*$`, "m"));
    expect(text.stdout).toMatch(new RegExp(`^\\s+${esc(out("same"))}\\s+66\\.95 ±\\d+\\.\\d\\d\\s+\\+0\\.00\\s+0\\.0033\\s+\\*\\*$`, "m"));
    expect(text.stdout).toMatch(/^by lang$/m);
    expect(text.stdout).toMatch(/^en\s+bleu\s+baseline: /m);

    // a system that does not pair with the baseline is named
    const c = await runCli(["score", better, "-o", out("bleu-only"), "--metric", "bleu", "--no-progress", "--no-ci"], { cwd: dir });
    expect(c.code).toBe(0);
    const mismatch = await runCli(["compare", out("a"), out("b"), out("bleu-only")], { cwd: dir });
    expect(mismatch.code).toBe(2);
    const named = `${out("bleu-only")} (system 2) and the baseline ${out("a")}: the two runs used different metrics`;
    expect(mismatch.stderr).toContain(named);
  }, 120_000);
});
