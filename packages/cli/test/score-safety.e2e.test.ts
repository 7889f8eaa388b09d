// `evalkern score` when things go wrong: unwritable outputs, signals, concurrent runs, stale files.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";

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
