// A CLI that behaves (issue 12): unknown --by fields, one renaming syntax, progress in every phase,
// --quiet / --verbose / DEBUG=evalkern, NO_COLOR / FORCE_COLOR, one duration per run, short signatures,
// scales in the table, and a closed stdout pipe. The compiled command as a child process on real files.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { examplePairs, readJsonl, runCli, spawnCli, tempDir } from "./support/cli.js";

let dir: string;
let scored: string;
let scoreRun: Awaited<ReturnType<typeof runCli>>;
const noColor = { FORCE_COLOR: undefined, NO_COLOR: undefined, DEBUG: undefined };

beforeAll(async () => {
  dir = tempDir();
  scored = join(dir, "pairs.scored.jsonl");
  scoreRun = await runCli(["score", examplePairs, "-o", scored, "--resamples", "200", "--progress-interval", "1"], {
    cwd: dir,
    env: noColor,
  });
  expect(scoreRun.code).toBe(0);
}, 120_000);

describe("--by with a field no row has", () => {
  it("is a usage error in report and compare, naming the fields seen and the likely one", async () => {
    const report = await runCli(["report", scored, "-o", join(dir, "r.html"), "--by", "lnag"], { cwd: dir, env: noColor });
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(
      /^evalkern: --by "lnag": no row has this field \(did you mean "lang"\?\); the fields seen are: .*\bid\b.*\blang\b/m,
    );
    expect(report.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    const compare = await runCli(["compare", scored, scored, "--by", "kind", "--by", "nope", "--resamples", "50"], {
      cwd: dir,
      env: noColor,
    });
    expect(compare.code).toBe(2);
    expect(compare.stderr).toContain('--by "nope": no row has this field');
    expect(compare.stderr).toMatch(/the fields seen are: .*\blang\b/);
    expect(compare.stderr).not.toMatch(/fields seen are: .*\bbleu\b/); // the metric objects are not input fields
    // a field that exists still works
    const ok = await runCli(["report", scored, "-o", join(dir, "r.html"), "--by", "lang"], { cwd: dir, env: noColor });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
  }, 120_000);
});

describe("renaming is name= everywhere", () => {
  it("judge takes name= like score; as= still works with a deprecation warning; both at once is an error", async () => {
    const input = join(dir, "rag.jsonl");
    writeFileSync(input, `${JSON.stringify({ input: "q", actual_output: "a", retrieval_context: ["a"] })}\n`);
    const cache = join(dir, "empty-cache.jsonl");
    writeFileSync(cache, "");
    const base = ["judge", input, "--model", "m", "--cache", cache, "--replay", "--allow-failures", "--no-progress"];
    const named = await runCli([...base, "--metric", "faithfulness:name=faith", "-o", join(dir, "named.jsonl")], {
      cwd: dir,
      env: noColor,
    });
    expect(named.code).toBe(0);
    expect(named.stderr).not.toContain("deprecated");
    expect(Object.keys(readJsonl(join(dir, "named.jsonl"))[0]!)).toContain("faith");
    const old = await runCli([...base, "--metric", "faithfulness:as=faith", "-o", join(dir, "old.jsonl")], { cwd: dir, env: noColor });
    expect(old.code).toBe(0);
    expect(old.stderr).toContain("as= is deprecated, rename with name=");
    expect(Object.keys(readJsonl(join(dir, "old.jsonl"))[0]!)).toContain("faith");
    const both = await runCli([...base, "--metric", "faithfulness:as=a:name=b"], { cwd: dir, env: noColor });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give name= only");
    const help = await runCli(["judge", "--help"], { cwd: dir });
    expect(help.stdout).toContain("name=NAME");
  }, 120_000);
});

describe("progress, --quiet, --verbose, DEBUG=evalkern, colour", () => {
  it("shows the CIs phase as plain lines when stderr is not a terminal", () => {
    expect(scoreRun.stderr).toMatch(/^score: 300 rows done \(/m);
    expect(scoreRun.stderr).toMatch(/^95% CIs: \d+ resamples \([\d.]+%\), [\d.,]+ resamples\/s/m);
    expect(scoreRun.stderr).toMatch(/^95% CIs: 200 resamples done \(/m);
    expect(scoreRun.stderr).not.toContain("\r");
    expect(scoreRun.stdout).not.toContain("\x1b[");
  });

  it("--quiet leaves stderr empty and stdout the results; --verbose adds the phases; DEBUG=evalkern adds debug lines", async () => {
    const quiet = await runCli(["score", examplePairs, "-o", join(dir, "q.jsonl"), "--metric", "bleu", "--resamples", "50", "--quiet"], {
      cwd: dir,
      env: noColor,
    });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
    expect(quiet.stdout).toMatch(/^bleu\s+66\.95/m);
    const verbose = await runCli(
      ["--verbose", "score", examplePairs, "-o", join(dir, "v.jsonl"), "--metric", "bleu", "--resamples", "50"],
      { cwd: dir, env: noColor },
    );
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/^phases: scoring \d+ ms on \d+ workers?, 95% CIs \d+ ms \(50 resamples\)$/m);
    const debug = await runCli(["score", examplePairs, "-o", join(dir, "d.jsonl"), "--metric", "bleu", "--resamples", "50", "--quiet"], {
      cwd: dir,
      env: { ...noColor, DEBUG: "evalkern" },
    });
    expect(debug.code).toBe(0);
    expect(debug.stderr).toMatch(/^evalkern:debug \+\d+ms phase score: .*workers requested all of \d+ cores$/m);
    expect(debug.stderr).toMatch(/^evalkern:debug \+\d+ms phase score done; phase ci: 50 bootstrap resamples$/m);
    expect(debug.stderr).not.toMatch(/^95% CIs/m); // --quiet still silences progress
  }, 120_000);

  it("colour only with FORCE_COLOR (not on pipes), and NO_COLOR wins", async () => {
    const args = ["score", examplePairs, "-o", join(dir, "c.jsonl"), "--metric", "bleu", "--no-ci", "--quiet"];
    const forced = await runCli(args, { cwd: dir, env: { ...noColor, FORCE_COLOR: "1" } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("\x1b[1m");
    const none = await runCli(args, { cwd: dir, env: { ...noColor, FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(none.stdout).not.toContain("\x1b[");
    const norm = (t: string) => t.replace(/\x1b\[\d+m/g, "").replace(/ · [\d.]+ s · /, " · ");
    expect(norm(none.stdout)).toBe(norm(forced.stdout));
  }, 120_000);
});

describe("one duration, short signatures, scales", () => {
  it("prints the run's duration once, in the summary", () => {
    expect(scoreRun.stdout).toMatch(/^300 rows scored · \d+\.\d s · \d+ workers?$/m);
    expect(scoreRun.stderr).not.toMatch(/ in \d+:\d\d/);
    const json = runCli(["score", examplePairs, "-o", join(dir, "j.jsonl"), "--metric", "bleu", "--no-ci", "--json", "--quiet"], {
      cwd: dir,
      env: noColor,
    });
    return json.then((r) => expect((JSON.parse(r.stdout) as { timings: { totalMs: number } }).timings.totalMs).toBeGreaterThanOrEqual(0));
  }, 120_000);

  it("prints short signatures by default and the full form with --signatures full; run.json keeps the full form", async () => {
    const manifest = JSON.parse(readFileSync(join(`${scored}.evalkern`, "run.json"), "utf8")) as {
      metrics: { name: string; signature: string }[];
    };
    const fullBleu = manifest.metrics.find((m) => m.name === "bleu")!.signature;
    expect(fullBleu).toContain("harness:");
    const sigLines = scoreRun.stdout
      .slice(scoreRun.stdout.indexOf("\nsignatures\n"))
      .split("\n")
      .filter((l) => l.startsWith("  "));
    expect(sigLines.length).toBeGreaterThanOrEqual(6);
    for (const l of sigLines) expect(l.length).toBeLessThanOrEqual(160);
    expect(scoreRun.stdout).toMatch(
      /^ {2}bleu +BLEU\|nrefs:var\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:2\.6\.0\|row:sentence-eff:yes #[0-9a-f]{8}$/m,
    );
    expect(scoreRun.stdout).not.toContain("harness:");
    expect(scoreRun.stdout).toContain("--signatures full");
    const full = await runCli(
      ["score", examplePairs, "-o", join(dir, "f.jsonl"), "--metric", "bleu", "--no-ci", "--signatures", "full", "--quiet"],
      { cwd: dir, env: noColor },
    );
    expect(full.code).toBe(0);
    expect(full.stdout).toContain(`  bleu  ${fullBleu}`);
    const bad = await runCli(["score", examplePairs, "--signatures", "long"], { cwd: dir, env: noColor });
    expect(bad.code).toBe(2);
  }, 120_000);

  it("says which scale and direction each column is on, from the metric registry", async () => {
    expect(scoreRun.stdout).toMatch(/^metric\s+score\s+95% CI\s+scale$/m);
    expect(scoreRun.stdout).toMatch(/^bleu\s+66\.95\s+\S+ – \S+\s+±\S+\s+0–100 ↑$/m);
    expect(scoreRun.stdout).toMatch(/^chrf\s+\d+\.\d\d .*0–100 ↑$/m);
    expect(scoreRun.stdout).toMatch(/^rougeL\s+0\.\d{4} .*0–1 ↑$/m);
    expect(scoreRun.stdout).toMatch(/^f1\s+0\.\d{4} .*0–1 ↑$/m);
    // a lower-is-better metric of the registry (a distance) is marked ↓ and recorded so in run.json
    const out = join(dir, "lev.jsonl");
    const r = await runCli(["score", examplePairs, "-o", out, "--metric", "levenshtein", "--no-ci", "--quiet"], { cwd: dir, env: noColor });
    expect(r.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(`${out}.evalkern`, "run.json"), "utf8")) as { metrics: { higherIsBetter: boolean }[] };
    const { findMetric } = await import("@evalkern/metrics/registry");
    expect(manifest.metrics[0]!.higherIsBetter).toBe(findMetric("levenshtein")!.higherIsBetter);
    expect(r.stdout).toMatch(new RegExp(`^levenshtein\\s+\\S+\\s+–\\s+0–1 ${findMetric("levenshtein")!.higherIsBetter ? "↑" : "↓"}$`, "m"));
  }, 120_000);
});

describe("a closed stdout", () => {
  it("ends `evalkern score … | head` quietly: exit 0, no stack trace", async () => {
    const child = spawnCli(["score", examplePairs, "-o", join(dir, "pipe.jsonl"), "--metric", "bleu", "--no-ci", "--no-progress"], {
      cwd: dir,
      env: noColor,
    });
    child.stdout!.destroy(); // the reader is gone before anything is written
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|Error|at .*\.js:\d+/);
    expect(code).toBe(0);
    expect(readJsonl(join(dir, "pipe.jsonl"))).toHaveLength(300);
  }, 120_000);
});

describe("the report", () => {
  const rowIds = (html: string, section: number) =>
    [
      ...(html.split('<details class="worst')[section + 1] ?? "").matchAll(
        /<span class="row-id">([^<]*)<\/span><br><span class="muted">line (\d+)<\/span>/g,
      ),
    ].map((m) => [m[1], m[2]]);

  it("shows rows by id (or --id-field), counts ties for worst and samples them the same way every run, and has per-slice CIs", async () => {
    const html1 = join(dir, "r1.html");
    const html2 = join(dir, "r2.html");
    const a = await runCli(["report", scored, "-o", html1, "--by", "lang", "--worst", "3"], { cwd: dir, env: noColor });
    expect(a.code).toBe(0);
    const b = await runCli(["report", scored, "-o", html2, "--by", "lang", "--worst", "3"], { cwd: dir, env: noColor });
    expect(b.code).toBe(0);
    const page = readFileSync(html1, "utf8");
    // rows are named by their `id`, the line below it
    const ids = rowIds(page, 0);
    expect(ids).toHaveLength(3);
    for (const [id, line] of ids) expect(id).toBe(`p${Number(line) - 1}`);
    // em: far more than 3 rows score 0; the page says how many, and the sample is the same on every run
    const em = page.split('<details class="worst')[6]!;
    const zeroLines = readJsonl(scored).flatMap((r, i) => ((r.em as { score: number }).score === 0 ? [i + 1] : []));
    const zeros = zeroLines.length;
    expect(em).toContain(`${zeros} rows tie at the worst score, 0.000; those shown are a deterministic sample`);
    expect(rowIds(readFileSync(html2, "utf8"), 5)).toEqual(rowIds(page, 5));
    expect(rowIds(page, 5)).toHaveLength(3);
    expect(rowIds(page, 5).map(([, line]) => Number(line))).not.toEqual(zeroLines.slice(0, 3)); // a sample, not the file's first ones
    // per-slice 95% CIs under each slice score
    expect(page).toContain("the 95% bootstrap CI over the slice's rows");
    expect(page).toMatch(/<span class="muted slice-ci">\d+\.\d\d – \d+\.\d\d<\/span>/);
    // --id-field picks another field
    const byKind = await runCli(["report", scored, "-o", join(dir, "r3.html"), "--id-field", "kind", "--worst", "3", "--no-ci"], {
      cwd: dir,
      env: noColor,
    });
    expect(byKind.code).toBe(0);
    const kinds = new Set(readJsonl(examplePairs).map((r) => r.kind as string));
    for (const [id] of rowIds(readFileSync(join(dir, "r3.html"), "utf8"), 0)) expect(kinds.has(id!)).toBe(true);
    expect(readFileSync(join(dir, "r3.html"), "utf8")).not.toContain("slice-ci");
  }, 120_000);

  it("compares two systems: `report a b` with paired deltas and significance per metric and slice", async () => {
    const better = join(dir, "better.jsonl");
    writeFileSync(
      better,
      readJsonl(examplePairs)
        .map((r, i) => JSON.stringify(i % 3 === 0 ? { ...r, hyp: (r.refs as string[])[0] } : r))
        .join("\n"),
    );
    const betterScored = join(dir, "better.scored.jsonl");
    expect((await runCli(["score", better, "-o", betterScored, "--no-ci", "--quiet"], { cwd: dir, env: noColor })).code).toBe(0);
    const html = join(dir, "ab.html");
    const r = await runCli(["report", scored, betterScored, "-o", html, "--by", "lang", "--resamples", "200"], { cwd: dir, env: noColor });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("Compared with the baseline");
    expect(page).toContain("300 paired rows");
    const section = page.slice(page.indexOf('id="comparison"'), page.indexOf('id="distributions"'));
    // bleu improves clearly: a positive, significant Δ
    expect(section).toMatch(
      new RegExp(
        '<th scope="row">bleu</th><td class="num">66\\.95</td><td class="num">\\d+\\.\\d\\d</td>' +
          '<td class="num delta better significant">\\+\\d+\\.\\d\\d</td><td class="num">0\\.\\d{4}</td><td>\\*+</td>',
      ),
    );
    expect(section).toContain("by <code>lang</code>");
    const langs = new Set(readJsonl(examplePairs).map((x) => x.lang as string));
    for (const l of langs) expect(section).toContain(`rowspan="9">${l}</th>`);
    // the same references row by row, else exit 3; three files is a usage error
    const other = join(dir, "other.jsonl");
    writeFileSync(
      other,
      readJsonl(examplePairs)
        .map((x) => JSON.stringify({ ...x, refs: ["x"] }))
        .join("\n"),
    );
    expect(
      (await runCli(["score", other, "-o", join(dir, "other.scored.jsonl"), "--no-ci", "--quiet"], { cwd: dir, env: noColor })).code,
    ).toBe(0);
    const mismatch = await runCli(["report", scored, join(dir, "other.scored.jsonl"), "-o", join(dir, "x.html")], {
      cwd: dir,
      env: noColor,
    });
    expect(mismatch.code).toBe(3);
    expect(mismatch.stderr).toContain("different references");
    const three = await runCli(["report", scored, scored, scored], { cwd: dir, env: noColor });
    expect(three.code).toBe(2);
  }, 120_000);
});
