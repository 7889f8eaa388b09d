// `evalkern score --resume` on a finished run returns at once ("already done") when the input and the
// settings are those of the run, and scores again when either changed (issue 24).
import { appendFileSync, copyFileSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePairs, runCli, tempDir } from "./support/cli.js";

/** What changes when a file is rewritten or replaced. */
function identity(path: string): { mtimeMs: number; ino: number; size: number } {
  const st = statSync(path);
  return { mtimeMs: st.mtimeMs, ino: st.ino, size: st.size };
}

describe("evalkern score --resume on a finished run", () => {
  const base = ["--metric", "bleu", "--metric", "rougeL", "--workers", "1", "--resamples", "50", "--progress-interval", "1"];

  it("answers 'already done' without scoring, and scores again when the input or an option changed", async () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    copyFileSync(examplePairs, input);
    const out = join(dir, "out.jsonl");
    const stats = join(`${out}.evalkern`, "rows.jsonl.stats.f32");
    const first = await runCli(["score", input, "-o", out, ...base], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^score: /m); // a scoring run prints progress lines (non-TTY)
    expect(first.stdout).toContain("300 rows scored");
    const table = (s: string) => s.slice(s.indexOf("metric "));
    const outBefore = identity(out);
    const statsBefore = identity(stats);

    // the same command with --resume: nothing is scored, the output and statistics are not rewritten
    const again = await runCli(["score", input, "-o", out, ...base, "--resume"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("300 rows scored · already done (its input, output and settings are unchanged;");
    expect(again.stderr).toBe(""); // no progress line: no worker scored a row
    expect(identity(out)).toEqual(outBefore);
    expect(identity(stats)).toEqual(statsBefore);
    expect(table(again.stdout)).toBe(table(first.stdout)); // the same corpus scores, CIs and signatures
    expect(existsSync(join(`${out}.evalkern`, "rows.jsonl.ckpt.json"))).toBe(false);

    // the input touched (same bytes, new mtime): its bytes are hashed and found the same
    const later = new Date(Date.now() + 5_000);
    utimesSync(input, later, later);
    const touched = await runCli(["score", input, "-o", out, ...base, "--resume"], { cwd: dir });
    expect(touched.code).toBe(0);
    expect(touched.stdout).toContain("already done (its input's bytes are the ones scored;");
    expect(identity(out)).toEqual(outBefore);
    // the new mtime was recorded: the next --resume reads nothing again
    const retouched = await runCli(["score", input, "-o", out, ...base, "--resume"], { cwd: dir });
    expect(retouched.stdout).toContain("already done (its input, output and settings are unchanged;");

    // another option (a metric more): scored again
    const chrf = await runCli(["score", input, "-o", out, ...base, "--metric", "chrf", "--resume"], { cwd: dir });
    expect(chrf.code).toBe(0);
    expect(chrf.stdout).not.toContain("already done");
    expect(chrf.stderr).toMatch(/^score: /m);
    expect(chrf.stdout).toMatch(/^chrf /m);
    expect(identity(out).ino === outBefore.ino && identity(out).mtimeMs === outBefore.mtimeMs).toBe(false);

    // other CI settings (a different --seed) change the CIs: scored again
    const seeded = await runCli(["score", input, "-o", out, ...base, "--metric", "chrf", "--seed", "7", "--resume"], { cwd: dir });
    expect(seeded.stdout).not.toContain("already done");

    // the input grown by a row: scored again, with the new row
    appendFileSync(input, `${JSON.stringify({ id: "extra", hyp: "a new row", refs: ["a new row"] })}\n`);
    const grown = await runCli(["score", input, "-o", out, ...base, "--metric", "chrf", "--seed", "7", "--resume"], { cwd: dir });
    expect(grown.code).toBe(0);
    expect(grown.stdout).not.toContain("already done");
    expect(grown.stdout).toContain("301 rows scored");
  }, 120_000);

  it("an input edited in place to the same size (new mtime) is hashed and scored again", async () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    const rows = [
      { hyp: "the cat sat on the mat", refs: ["the cat sat on the mat"] },
      { hyp: "a dog", refs: ["a dog"] },
    ];
    writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const out = join(dir, "out.jsonl");
    const args = ["score", input, "-o", out, "--metric", "bleu", "--workers", "1", "--no-ci", "--no-progress"];
    expect((await runCli(args, { cwd: dir })).code).toBe(0);
    const before = statSync(input);
    // same length, other words: BLEU of "the cat sat on the hat" against its reference is no longer 100
    writeFileSync(input, readFileSync(input, "utf8").replace('the cat sat on the mat","refs', 'the cat sat on the hat","refs'));
    expect(statSync(input).size).toBe(before.size);
    const r = await runCli([...args, "--resume"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("already done");
    expect(r.stdout).toContain("2 rows scored");
    const row = JSON.parse(readFileSync(out, "utf8").split("\n")[0]!) as { bleu: { score: number } };
    expect(row.bleu.score).toBeLessThan(100);
  }, 60_000);
});
