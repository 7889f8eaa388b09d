// Crash safety: a real child process running scoreFile is SIGKILLed mid-run (twice); resuming must
// produce exactly the output of an uninterrupted run: no row lost, none written twice.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkpointPath, scoreFile, statisticsPath } from "../src/index.js";
import { parseCsv } from "../src/bulk/records.js";
import { makePairs, readJsonl, tempDir } from "./helpers.js";

const child = fileURLToPath(new URL("./fixtures/score-child.mjs", import.meta.url));

interface Ckpt {
  nextLine: number;
  outputBytes: number;
  complete: boolean;
}

/**
 * Start the child; SIGKILL it once a checkpoint past `afterLine` exists and more rows than that
 * checkpoint covers are already in the output file; resolve with the checkpoint left behind.
 */
function runAndKill(
  options: object,
  afterLine: number,
): Promise<{ killed: boolean; checkpoint: Ckpt | undefined; outputBytesAtKill: number }> {
  const output = (options as { output: string }).output;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, JSON.stringify(options)], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr.on("data", (d) => (stderr += d));
    let killed = false;
    let outputBytesAtKill = 0;
    const timer = setInterval(() => {
      if (killed) return;
      try {
        const ck = JSON.parse(readFileSync(checkpointPath(output), "utf8")) as Ckpt;
        const size = existsSync(output) ? statSync(output).size : 0;
        if (!ck.complete && ck.nextLine > afterLine && size > ck.outputBytes) {
          killed = true;
          proc.kill("SIGKILL");
          outputBytesAtKill = size;
        }
      } catch {
        // no checkpoint yet (or being replaced)
      }
    }, 5);
    proc.on("exit", (code, signal) => {
      clearInterval(timer);
      if (!killed && code !== 0) return reject(new Error(`child failed (${code} ${signal}): ${stderr}`));
      let checkpoint: Ckpt | undefined;
      try {
        checkpoint = JSON.parse(readFileSync(checkpointPath(output), "utf8")) as Ckpt;
      } catch {
        checkpoint = undefined;
      }
      resolve({ killed: signal === "SIGKILL", checkpoint, outputBytesAtKill });
    });
  });
}

describe("kill -9 and resume", () => {
  it.each([
    ["score lines", {}],
    ["output rows (CSV, with its header)", { outputRows: "rows", outputFormat: "csv" }],
  ] as const)("loses no row and writes none twice: %s", async (_what, mode) => {
    const dir = tempDir();
    const input = makePairs(dir, 5, 12_000, true);
    const base = {
      input,
      metrics: ["bleu", "tokenF1"],
      fields: { id: "id" },
      workers: 1,
      chunkBytes: 16 << 10,
      checkpointIntervalMs: 150,
      keepStatistics: true,
      ...mode,
    };
    const output = join(dir, "killed.jsonl");

    // first run: killed after some rows are durable
    // each run waits 20 ms after every committed chunk (about 110 chunks), so it is still running when the
    // kill condition holds, whatever the machine's speed
    const first = await runAndKill({ ...base, output, paceMs: 20 }, 1_500);
    expect(first.killed).toBe(true);
    expect(first.checkpoint?.complete).toBe(false);
    // second run resumes and is killed again further on
    const second = await runAndKill({ ...base, output, resume: true, paceMs: 20 }, first.checkpoint!.nextLine + 1_500);
    expect(second.killed).toBe(true);
    expect(second.checkpoint!.nextLine).toBeGreaterThan(first.checkpoint!.nextLine);
    // rows written after the last checkpoint were on disk when the process died: resume must drop them
    const unCheckpointed = [first, second].some((k) => k.outputBytesAtKill > k.checkpoint!.outputBytes);
    expect(unCheckpointed).toBe(true);
    const resumed = await scoreFile({ ...base, metrics: ["bleu", "tokenF1"], output, resume: true });
    expect(resumed.resumed).toBe(true);

    const clean = await scoreFile({ ...base, metrics: ["bleu", "tokenF1"], output: join(dir, "clean.jsonl") });
    const got = readFileSync(output, "utf8");
    const want = readFileSync(join(dir, "clean.jsonl"), "utf8");
    if (!("outputRows" in mode)) {
      const rows = readJsonl(got);
      expect(rows).toHaveLength(12_000);
      expect(new Set(rows.map((r) => r.line)).size).toBe(12_000);
    } else expect(parseCsv(got, ",", 1)).toHaveLength(12_000 + 1); // the header and every row
    expect(got).toBe(want); // byte-identical, in order
    expect(readFileSync(statisticsPath(output))).toEqual(readFileSync(statisticsPath(join(dir, "clean.jsonl"))));
    expect(resumed.metrics).toEqual(clean.metrics);
    expect(resumed.rows).toEqual(clean.rows);
  });
});
