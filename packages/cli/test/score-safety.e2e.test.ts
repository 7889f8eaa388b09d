// `evalkern score` when things go wrong: unwritable outputs, signals, concurrent runs, stale files.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePairs, runCli, spawnCli, tempDir } from "./support/cli.js";

/** The example's 300 rows, `times` times over (ids made unique). */
function bigInput(dir: string, times: number): string {
  const big = join(dir, "big.jsonl");
  const lines = readFileSync(examplePairs, "utf8").trimEnd().split("\n");
  const rows: string[] = [];
  for (let k = 0; k < times; k++) for (const l of lines) rows.push(l.replace(/"id":"p(\d+)"/, (_, n: string) => `"id":"p${n}-${k}"`));
  writeFileSync(big, `${rows.join("\n")}\n`);
  return big;
}

async function waitFor(path: string, ms = 60_000): Promise<void> {
  const started = Date.now();
  while (!existsSync(path) && Date.now() - started < ms) await new Promise((r) => setTimeout(r, 20));
  expect(existsSync(path)).toBe(true);
}

function smallInput(dir: string): string {
  const input = join(dir, "in.jsonl");
  writeFileSync(input, `${JSON.stringify({ hyp: "the cat sat", refs: ["the cat sat"] })}\n`);
  return input;
}

describe("evalkern score: file-system failures", () => {
  it("-o /proc/x.jsonl ends quickly with a clear message and a non-zero exit", async () => {
    const dir = tempDir();
    const r = await runCli(["score", smallInput(dir), "-o", "/proc/x.jsonl", "--no-progress"], { cwd: dir, timeoutMs: 30_000 });
    expect(r.signal).toBeNull(); // not killed by the timeout: it ended by itself
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^evalkern: cannot create directory \/proc\/x\.jsonl\.evalkern: no such file or directory \(ENOENT\)/m);
  });

  it("an output inside a file (ENOTDIR) is a clear error too", async () => {
    const dir = tempDir();
    const input = smallInput(dir);
    const r = await runCli(["score", input, "-o", join(input, "out.jsonl"), "--no-progress"], { cwd: dir, timeoutMs: 30_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^evalkern: cannot create directory .*in\.jsonl.*ENOTDIR/m);
  });
});

describe("evalkern score: signals, one run per output, stale files", () => {
  const args = (input: string, out: string) => [
    "score",
    input,
    "-o",
    out,
    "--metric",
    "bleu",
    "--metric",
    "rougeL",
    "--workers",
    "1",
    "--no-ci",
    "--checkpoint-interval",
    "100",
  ];

  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)("%s during scoring says what was kept and how to resume, exits %i; --resume then completes", async (signal, code) => {
    const dir = tempDir();
    const input = bigInput(dir, 300); // 90,000 rows
    const out = join(dir, "out.jsonl");
    const child = spawnCli([...args(input, out), "--no-progress"], { cwd: dir });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const closed = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    await waitFor(join(dir, "out.jsonl.evalkern", "rows.jsonl.ckpt.json"));
    child.kill(signal);
    expect(await closed).toBe(code);
    expect(stderr).toMatch(
      new RegExp(
        `^evalkern: interrupted by ${signal}; (no row was scored yet|all rows are scored|[\\d,]+ rows up to input line [\\d,]+ ` +
          `are kept) \\(checkpoint ` +
          `.*rows\\.jsonl\\.ckpt\\.json\\); run the same command with --resume to continue$`,
        "m",
      ),
    );
    expect(existsSync(`${out}.lock`)).toBe(false); // released
    expect(existsSync(out)).toBe(false);

    const resumed = await runCli([...args(input, out), "--resume", "--no-progress"], { cwd: dir });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("90,000 rows scored");
  });

  it(
    "a second run on the same output fails at once naming the first's pid; a dead run's lock and temporary file are cleaned " + "up",
    async () => {
      const dir = tempDir();
      const input = bigInput(dir, 100);
      const out = join(dir, "out.jsonl");
      const first = spawnCli([...args(input, out), "--no-progress"], { cwd: dir });
      const closed = new Promise((r) => first.on("close", r));
      try {
        await waitFor(`${out}.lock`);
        first.kill("SIGSTOP"); // frozen while holding the lock: the second run surely meets it
        const second = await runCli([...args(input, out), "--no-progress"], { cwd: dir, timeoutMs: 60_000 });
        expect(second.signal).toBeNull();
        expect(second.code).toBe(1);
        expect(second.stderr).toContain(`evalkern: another run (pid ${first.pid}) holds ${out}`);
      } finally {
        first.kill("SIGKILL");
        await closed;
      }
      // the killed run left its lock; a run killed during its final write left `<output>.tmp-<pid>`
      expect(existsSync(`${out}.lock`)).toBe(true);
      const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
      writeFileSync(`${out}.tmp-${dead}`, "half a file");
      writeFileSync(`${out}.tmp-${process.pid}`, "a live run's file"); // this test process is alive: kept
      const again = await runCli([...args(input, out), "--resume", "--no-progress"], { cwd: dir });
      expect(again.stderr).toBe("");
      expect(again.code).toBe(0);
      expect(existsSync(`${out}.tmp-${dead}`)).toBe(false);
      expect(existsSync(`${out}.tmp-${process.pid}`)).toBe(true);
      expect(existsSync(`${out}.lock`)).toBe(false);
      expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(30_000);
    },
  );
});

describe("evalkern score: oversized rows", () => {
  it("--max-row-bytes: a longer row is a bad row with its line (exit 3, 0 with --allow-bad-rows)", async () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    const rows = [
      { hyp: "the cat sat", refs: ["the cat sat"] },
      { hyp: "z ".repeat(5000), refs: ["z"] },
      { hyp: "a dog", refs: ["a dog"] },
    ];
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const out = join(dir, "out.jsonl");
    const r = await runCli(["score", input, "-o", out, "--metric", "f1", "--max-row-bytes", "1000", "--no-ci", "--no-progress"], {
      cwd: dir,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/1 of 3 rows could not be scored \(row_too_large: 1\)/);
    expect(r.stderr).toMatch(/in\.jsonl:2: the row is 10\d\d\d bytes, over maxRowBytes \(1000\)/);
    const ok = await runCli(
      ["score", input, "-o", out, "--metric", "f1", "--max-row-bytes", "1000", "--no-ci", "--no-progress", "--allow-bad-rows"],
      { cwd: dir },
    );
    expect(ok.code).toBe(0);
    // every input row has its output row, in order; the refused one carries _error, not its 10 KB text
    const lines = readFileSync(out, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ hyp: "the cat sat", f1: { score: 1 } });
    expect(lines[1]).toMatchObject({ _line: 2, _error: { line: 2, code: "row_too_large" } });
    expect(JSON.stringify(lines[1]).length).toBeLessThan(500);
    expect(lines[2]).toMatchObject({ hyp: "a dog", f1: { score: 1 } });
  });
});

describe("evalkern score: odd bytes and too many workers", () => {
  it("invalid UTF-8 is reported with line numbers (exit 0); --strict-utf8 makes such rows bad rows (exit 3)", async () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    const enc = (s: string) => Buffer.from(s, "utf8");
    writeFileSync(
      input,
      Buffer.concat([
        enc('{"hyp":"the cat sat","refs":["the cat sat"]}\n{"hyp":"caf'),
        Buffer.from([0xe9]),
        enc('","refs":["cafe"]}\n{"hyp":"a","refs":["a"]}\n'),
      ]),
    );
    const out = join(dir, "out.jsonl");
    const r = await runCli(["score", input, "-o", out, "--metric", "f1", "--no-ci", "--no-progress"], { cwd: dir });
    expect(r.code, `signal ${r.signal}; stderr:\n${r.stderr}`).toBe(0);
    expect(r.stderr).toMatch(
      /^1 row has bytes that are not UTF-8, scored with U\+FFFD in their place \(--strict-utf8 makes them bad rows\): .*in\.jsonl:2$/m,
    );
    const strict = await runCli(["score", input, "-o", out, "--metric", "f1", "--no-ci", "--no-progress", "--strict-utf8"], { cwd: dir });
    // a death by signal (seen once in CI, not reproduced) names the signal and what the CLI printed
    expect(strict.code, `signal ${strict.signal}; stderr:\n${strict.stderr}`).toBe(3);
    expect(strict.stderr).toMatch(/1 of 3 rows could not be scored \(invalid_utf8: 1\)/);
  });

  it("--workers 1000000000 is capped at the cores, with a warning", async () => {
    const dir = tempDir();
    const r = await runCli(
      [
        "score",
        smallInput(dir),
        "-o",
        join(dir, "o.jsonl"),
        "--metric",
        "f1",
        "--workers",
        "1000000000",
        "--no-ci",
        "--no-progress",
        "--json",
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^evalkern: --workers 1000000000 is more than the \d+ available cores: using \d+$/m);
  });
});

describe("evalkern score: CSV formula injection", () => {
  it("-o x.csv neutralises text cells starting with = + - @ (not numbers); --no-csv-escape writes them as they are", async () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    const rows = [
      { id: "=cmd|' /C calc'!A0", hyp: "-2+3 is five", refs: ["@SUM(A1)"], delta: -3, note: "-3.5" },
      { id: "ok", hyp: "the cat", refs: ["the cat"], delta: 1.5, note: "+x" },
    ];
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const out = join(dir, "out.csv");
    const r = await runCli(["score", input, "-o", out, "--metric", "f1", "--no-ci", "--no-progress"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(lines[0]).toBe("id,hyp,refs,delta,note,f1,_error");
    expect(lines[1]).toMatch(/^'=cmd\|' \/C calc'!A0,'-2\+3 is five,"\[""@SUM\(A1\)""\]",-3,-3\.5,0(\.\d+)?,$/);
    expect(lines[2]).toMatch(/^ok,the cat,"\[""the cat""\]",1\.5,'\+x,1,$/);
    const raw = join(dir, "raw.csv");
    const r2 = await runCli(["score", input, "-o", raw, "--metric", "f1", "--no-ci", "--no-progress", "--no-csv-escape"], { cwd: dir });
    expect(r2.code).toBe(0);
    expect(readFileSync(raw, "utf8").split("\n")[1]).toMatch(/^=cmd\|' \/C calc'!A0,-2\+3 is five,/);
  });
});
