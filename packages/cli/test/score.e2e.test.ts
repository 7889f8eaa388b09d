// `evalkern score` end to end: the compiled command as a child process on real files in temp dirs.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePairs, readJsonl, runCli, spawnCli, tempDir } from "./support/cli.js";

const examples = readJsonl(examplePairs);

describe("evalkern score on the bundled example", () => {
  it("works with no flags: default metrics, table with CIs and signatures, rows keep their fields", async () => {
    const dir = tempDir();
    const r = await runCli(["score", examplePairs], { cwd: dir });
    expect(r.stderr).not.toMatch(/evalkern: /);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("300 rows scored");
    for (const name of ["bleu", "chrf", "chrf++", "rouge1", "rouge2", "rougeL", "rougeLsum", "f1", "em"])
      expect(r.stdout).toMatch(new RegExp(`^${name.replace("+", "\\+")}\\s+\\d`, "m"));
    expect(r.stdout).toMatch(/95% CI/);
    expect(r.stdout).toMatch(/^bleu\s+66\.95\s+\d+\.\d\d – \d+\.\d\d\s+±\d/m); // corpus BLEU of the example
    expect(r.stdout).toContain("signatures");
    expect(r.stdout).toMatch(/BLEU\|nrefs:var\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:2\.6\.0/);
    // non-TTY stderr: a plain final progress line, no carriage returns
    expect(r.stderr).toMatch(/score: 300 rows done \([\d.,]+ rows\/s\)/);
    expect(r.stderr).not.toContain("\r");

    const out = join(dir, "pairs.scored.jsonl");
    const rows = readJsonl(out);
    expect(rows).toHaveLength(300);
    rows.forEach((row, i) => {
      for (const [k, v] of Object.entries(examples[i]!)) expect(row[k]).toEqual(v);
      expect(Object.keys(row.bleu as object)).toEqual(["score"]);
      expect(Object.keys(row.rouge as object)).toEqual(["score", "rouge1", "rouge2", "rougeL", "rougeLsum"]);
      expect((row.rouge as Record<string, number>).score).toBe((row.rouge as Record<string, number>).rougeL);
      expect(typeof (row.chrf as { score: number }).score).toBe("number");
      expect([0, 1]).toContain((row.em as { score: number }).score);
    });
    expect((rows[0]!.bleu as { score: number }).score).toBeCloseTo(100, 9);
    expect(existsSync(join(dir, "pairs.scored.jsonl.evalkern", "run.json"))).toBe(true);
  });

  it("parses metric options name:key=value (chrF++ word order, ROUGE stemmer, BLEU tokenizer) and --json", async () => {
    const dir = tempDir();
    const out = join(dir, "out.jsonl");
    const r = await runCli(
      [
        "score",
        examplePairs,
        "--metric",
        "bleu:tokenize=intl",
        "--metric",
        "chrf:wordOrder=2",
        "--metric",
        "rouge:useStemmer=true:types=rouge1,rougeL",
        "--metric",
        "f1:mode=byob",
        "-o",
        out,
        "--json",
        "--no-progress",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const json = JSON.parse(r.stdout) as { metrics: { name: string; signature: string; corpus: Record<string, number> }[] };
    const sig = Object.fromEntries(json.metrics.map((m) => [m.name, m.signature]));
    expect(sig.bleu).toContain("tok:intl");
    expect(sig.chrf).toMatch(/^chrF2\+\+\|.*nw:2/);
    expect(sig.rouge).toContain("types:rouge1,rougeL|stemmer:porter");
    expect(sig.f1).toContain("mode:nemo-byob");
    const row = readJsonl(out)[2]!;
    expect(Object.keys(row.rouge as object)).toEqual(["score", "rouge1", "rougeL"]);
  });

  it("runs the other rule metrics of @evalkern/metrics that apply to (hyp, refs)", async () => {
    const dir = tempDir();
    const input = join(dir, "qa.jsonl");
    writeFileSync(
      input,
      [
        { q: "capital of France", hyp: "Paris", refs: ["Paris", "Paris, France"] },
        { q: "2+2", hyp: "4", refs: ["4"] },
        { q: "yes?", hyp: "The answer is 5", refs: ["5"] },
      ]
        .map((o) => JSON.stringify(o))
        .join("\n"),
    );
    const metrics = [
      "answer-exact-match",
      "answer-passage-match",
      "byob-exact-match",
      "byob-f1",
      "byob-contains",
      "evalwire-exact-match",
      "evalwire-contains",
      "levenshtein",
      "hotpot-f1",
      "byob-bleu",
    ];
    const r = await runCli(
      ["score", input, ...metrics.flatMap((m) => ["--metric", m]), "-o", join(dir, "out.jsonl"), "--no-ci", "--allow-bad-rows"],
      { cwd: dir },
    );
    expect(r.stderr).not.toMatch(/evalkern: /);
    expect(r.code).toBe(0);
    const rows = readJsonl(join(dir, "out.jsonl"));
    expect(rows[0]!["answer-exact-match"]).toEqual({ score: 1 });
    expect(rows[2]!["answer-exact-match"]).toEqual({ score: 0 });
    expect(rows[2]!["answer-passage-match"]).toEqual({ score: 1 });
    expect((rows[0]!["byob-f1"] as Record<string, number>).f1).toBe(1);
    expect(Object.keys(rows[0]!["byob-f1"] as object)).toEqual(["score", "f1", "precision", "recall"]);
    expect(rows[2]!["evalwire-contains"]).toEqual({ score: 1 });
    expect(r.stdout).toMatch(/^byob-f1\.precision\s/m);
  });

  it("reads and writes CSV with --hyp-field and several --refs-field columns", async () => {
    const dir = tempDir();
    const input = join(dir, "data.csv");
    writeFileSync(
      input,
      'id,output,ref1,ref2,lang\n1,the cat sat on the mat,the cat sat on the mat,,en\n2,"hello, world",hello world,"hello, ' +
        'world!",en\n3,der Hund,die Katze,,de\n',
    );
    const out = join(dir, "out.csv");
    const r = await runCli(
      [
        "score",
        input,
        "--hyp-field",
        "output",
        "--refs-field",
        "ref1,ref2",
        "--metric",
        "bleu",
        "--metric",
        "rouge:types=rouge1",
        "-o",
        out,
        "--no-progress",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe("id,output,ref1,ref2,lang,bleu,rouge.score,rouge.rouge1,_error");
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^2,"hello, world",hello world,"hello, world!",en,100(\.\d+)?,1,1,$/);
    expect(lines[3]).toMatch(/^3,der Hund,die Katze,,de,0,0,0,$/);
  });

  it("--shard i/n scores a deterministic slice and `evalkern merge` gives the single run's corpus scores exactly", async () => {
    const dir = tempDir();
    const whole = await runCli(
      ["score", examplePairs, "-o", join(dir, "all.jsonl"), "--json", "--no-progress", "--metric", "bleu", "--metric", "chrf"],
      { cwd: dir },
    );
    expect(whole.code).toBe(0);
    const s1 = await runCli(["score", examplePairs, "--shard", "1/2", "--json", "--no-progress", "--metric", "bleu", "--metric", "chrf"], {
      cwd: dir,
    });
    const s2 = await runCli(["score", examplePairs, "--shard", "2/2", "--json", "--no-progress", "--metric", "bleu", "--metric", "chrf"], {
      cwd: dir,
    });
    expect(s1.code).toBe(0);
    expect(s2.code).toBe(0);
    const a = readJsonl(join(dir, "pairs.scored.shard-1-of-2.jsonl"));
    const b = readJsonl(join(dir, "pairs.scored.shard-2-of-2.jsonl"));
    expect(a.length + b.length).toBe(300);
    expect(a.length).toBeGreaterThan(50);
    const merged = await runCli(
      [
        "merge",
        join(dir, "pairs.scored.shard-2-of-2.jsonl"),
        join(dir, "pairs.scored.shard-1-of-2.jsonl"),
        "-o",
        join(dir, "merged.jsonl"),
        "--json",
      ],
      { cwd: dir },
    );
    expect(merged.stderr).toBe("");
    expect(merged.code).toBe(0);
    const corpus = (t: string) =>
      (JSON.parse(t) as { metrics: { name: string; corpus: Record<string, number> }[] }).metrics.map((m) => [m.name, m.corpus]);
    expect(corpus(merged.stdout)).toEqual(corpus(whole.stdout));
    expect(readFileSync(join(dir, "merged.jsonl"), "utf8")).toBe(readFileSync(join(dir, "all.jsonl"), "utf8"));
  });

  it("a scored file and its sidecar are self-describing: report and compare work on a moved copy", async () => {
    const dir = tempDir();
    const out = join(dir, "first", "out.jsonl");
    mkdirSync(join(dir, "first"));
    const r = await runCli(
      ["score", examplePairs, "--metric", "bleu", "--metric", "rouge", "-o", out, "--no-progress", "--resamples", "50"],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "first", "out.jsonl.evalkern", "rows.jsonl"))).toBe(false); // the rows are written once, into out.jsonl
    renameSync(join(dir, "first"), join(dir, "moved"));
    const moved = join(dir, "moved", "out.jsonl");
    const report = await runCli(["report", moved, "-o", join(dir, "r.html")], { cwd: dir });
    expect(report.stderr).toBe("");
    expect(report.code).toBe(0);
    expect(readFileSync(join(dir, "r.html"), "utf8")).toContain("rougeL");
    const compare = await runCli(["compare", moved, moved, "--json", "--resamples", "50"], { cwd: dir });
    expect(compare.stderr).toBe("");
    expect(compare.code).toBe(0);
    expect((JSON.parse(compare.stdout) as { baseline: string }).baseline).toBe(moved);
  });

  it("--resume after SIGKILL continues from the checkpoint: the output equals an uninterrupted run's", async () => {
    const dir = tempDir();
    const big = join(dir, "big.jsonl");
    const lines = readFileSync(examplePairs, "utf8").trimEnd().split("\n");
    const rows: string[] = [];
    for (let k = 0; k < 300; k++) for (const l of lines) rows.push(l.replace(/"id":"p(\d+)"/, (_, n: string) => `"id":"p${n}-${k}"`));
    writeFileSync(big, `${rows.join("\n")}\n`); // 90,000 rows
    const args = [
      "score",
      big,
      "--metric",
      "bleu",
      "--metric",
      "rougeL",
      "--workers",
      "1",
      "--no-ci",
      "--checkpoint-interval",
      "100",
      "--progress-interval",
      "200",
    ];

    const out = join(dir, "out.jsonl");
    const child = spawnCli([...args, "-o", out], { cwd: dir });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const ckpt = join(dir, "out.jsonl.evalkern", "rows.jsonl.ckpt.json");
    const started = Date.now();
    // kill once a checkpoint exists and a progress line was printed (no timer races: a busy machine only waits longer)
    const progressLine = /score: [\d,]+ rows \([\d.]+%\), [\d.,]+ rows\/s, elapsed \d+:\d\d(, ETA \d+:\d\d)?\n/;
    while (!(existsSync(ckpt) && progressLine.test(stderr)) && child.exitCode === null && Date.now() - started < 120_000)
      await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    await new Promise((r) => child.on("close", r));
    expect(existsSync(ckpt)).toBe(true);
    expect(existsSync(out)).toBe(false); // the joined output is written only at the end
    const checkpoint = JSON.parse(readFileSync(ckpt, "utf8")) as { records: number; complete: boolean };
    expect(checkpoint.complete).toBe(false);
    expect(checkpoint.records).toBeGreaterThan(0);
    expect(checkpoint.records).toBeLessThan(90_000);
    // the plain progress lines of a non-terminal
    expect(stderr).toMatch(progressLine);

    const resumed = await runCli([...args, "-o", out, "--resume"], { cwd: dir });
    expect(resumed.stderr).toContain("resumed from a checkpoint");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("90,000 rows scored");
    expect(resumed.stdout).toContain("resumed");

    const fresh = join(dir, "fresh.jsonl");
    const full = await runCli([...args, "-o", fresh], { cwd: dir });
    expect(full.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(fresh, "utf8"));
    const table = (t: string) => t.slice(t.indexOf("metric"));
    expect(table(resumed.stdout)).toBe(table(full.stdout));
  });
});

describe("evalkern score: bad flags, missing files, malformed input", () => {
  const cases: [string, string[], number, RegExp][] = [
    ["unknown metric", ["--metric", "blue"], 2, /unknown metric "blue" \(did you mean "bleu"\?\)/],
    ["unknown option key", ["--metric", "chrf:wordorder=2"], 2, /chrf has no option "wordorder"; its options are charOrder, wordOrder/],
    ["bad option value", ["--metric", "chrf:wordOrder=-1"], 2, /--metric chrf:wordOrder=-1.*wordOrder/],
    ["malformed option", ["--metric", "bleu:tokenize"], 2, /expected key=value after "bleu:"/],
    ["same metric twice", ["--metric", "bleu", "--metric", "bleu:tokenize=intl"], 2, /rename one with name=/],
    ["unknown flag", ["--frobnicate"], 2, /unknown option '--frobnicate'/],
    ["bad --workers", ["--workers", "0"], 2, /--workers must be a positive integer/],
    ["bad --shard", ["--shard", "3/2"], 2, /shards are numbered 1\.\.n/],
    ["malformed --shard", ["--shard", "half"], 2, /expected i\/n/],
  ];
  for (const [what, flags, code, message] of cases) {
    it(`${what} → exit ${code}`, async () => {
      const dir = tempDir();
      const r = await runCli(["score", examplePairs, "--no-progress", ...flags], { cwd: dir });
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/^evalkern: /m);
    });
  }

  it("a missing input file → exit 3", async () => {
    const r = await runCli(["score", "/nonexistent/pairs.jsonl"], { cwd: tempDir() });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe("evalkern: input file not found: /nonexistent/pairs.jsonl\n");
  });

  it("no subcommand prints help and exits 2; --help on every command exits 0", async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain("Usage: evalkern");
    for (const cmd of ["score", "compare", "run", "judge", "report", "merge"]) {
      const r = await runCli([cmd, "--help"]);
      expect(r.code, cmd).toBe(0);
      expect(r.stdout, cmd).toContain(`Usage: evalkern ${cmd}`);
    }
    const score = await runCli(["score", "--help"]);
    expect(score.stdout).toContain("chrf++");
    expect(score.stdout).toContain("wordOrder=");
    expect(score.stdout).toContain("evalwire-exact-match");
    const judge = await runCli(["judge", "--help"]);
    expect(judge.stdout).toContain("faithfulness");
  });

  it("malformed rows are reported with line numbers, kept in the output with _error, and exit 3 (0 with --allow-bad-rows)", async () => {
    const dir = tempDir();
    const input = join(dir, "bad.jsonl");
    writeFileSync(
      input,
      [
        JSON.stringify({ hyp: "a cat", refs: ["a cat"] }),
        "{not json",
        JSON.stringify({ hyp: 42, refs: ["x"] }),
        "",
        JSON.stringify({ refs: ["x"] }),
        JSON.stringify([1, 2]),
        JSON.stringify({ hyp: "the dog", refs: "the dog" }),
      ].join("\n"),
    );
    const out = join(dir, "out.jsonl");
    const r = await runCli(["score", input, "--metric", "bleu", "-o", out, "--no-ci"], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("4 of 6 rows could not be scored");
    expect(r.stderr).toMatch(/bad\.jsonl:2: invalid JSON/);
    expect(r.stderr).toMatch(/bad\.jsonl:3: field "hyp" must be a string, got number/);
    expect(r.stderr).toMatch(/bad\.jsonl:5: missing field "hyp"/);
    expect(r.stderr).toContain("--allow-bad-rows");
    const rows = readJsonl(out);
    expect(rows).toHaveLength(6);
    expect(rows[0]!.bleu).toEqual({ score: expect.any(Number) });
    expect(rows[1]).toEqual({
      _line: 2,
      _input: "{not json",
      _error: { line: 2, code: "invalid_json", message: expect.stringContaining("invalid JSON") },
    });
    expect(rows[2]).toMatchObject({ hyp: 42, _error: { line: 3, code: "wrong_type" } });
    expect(rows[4]).toMatchObject({ _line: 6, _input: [1, 2], _error: { code: "not_object" } });
    expect((rows[5]!.bleu as { score: number }).score).toBeCloseTo(100, 6);

    const ok = await runCli(["score", input, "--metric", "bleu", "-o", out, "--no-ci", "--allow-bad-rows"], { cwd: dir });
    expect(ok.code).toBe(0);
  });

  it("a wrong --hyp-field names the fields the rows do have (exit 3)", async () => {
    const r = await runCli(["score", examplePairs, "--hyp-field", "prediction", "--no-progress", "--no-ci"], { cwd: tempDir() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("no row could be scored");
    expect(r.stderr).toContain('missing field "prediction"');
    expect(r.stderr).toContain("The first row's fields are: id, lang, kind, hyp, refs");
  });

  it("a CSV record with the wrong number of fields is a bad row", async () => {
    const dir = tempDir();
    const input = join(dir, "bad.csv");
    writeFileSync(input, "hyp,refs\nthe cat,the cat\nonly one field\n");
    const r = await runCli(["score", input, "--metric", "bleu", "-o", join(dir, "o.jsonl"), "--no-ci", "--no-progress"], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bad\.csv:3: expected 2 fields \(the header's\), got 1/);
  });
});
