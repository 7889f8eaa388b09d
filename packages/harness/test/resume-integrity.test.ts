// Resume verifies what it reads: a checkpoint that is cut short or edited, a partial output or
// statistics file edited in place (same size), and a changed row-affecting option are refused with a
// typed error naming the file or the setting, instead of being mixed into the final results.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkpointPath, ResumeDamagedError, ResumeMismatchError, RunAbortedError, scoreFile, statisticsPath } from "../src/index.js";
import type { ScoreFileOptions } from "../src/index.js";
import { makePairs, tempDir } from "./helpers.js";

let dir: string;
let input: string;

beforeAll(() => {
  dir = tempDir();
  input = makePairs(dir, 19, 1500, true);
});

interface Ckpt {
  outputBytes: number;
  statisticsBytes: number;
  records: number;
  partials: number[][];
  complete: boolean;
}

function base(output: string): ScoreFileOptions {
  return { input, output, metrics: ["bleu"], workers: 1, chunkBytes: 4096, checkpointIntervalMs: 0, keepStatistics: true };
}

/** Score until `rows` rows are committed, then stop through the signal: a checkpoint of a partial run. */
async function stopAfter(options: ScoreFileOptions, rows: number): Promise<Ckpt> {
  const controller = new AbortController();
  await expect(
    scoreFile({ ...options, signal: controller.signal, onProgress: (p) => (p.records >= rows ? controller.abort("test") : undefined) }),
  ).rejects.toThrow(RunAbortedError);
  const ck = JSON.parse(readFileSync(checkpointPath(options.output), "utf8")) as Ckpt;
  expect(ck.complete).toBe(false);
  expect(ck.records).toBeGreaterThanOrEqual(rows);
  return ck;
}

/** Flip one byte of `path` at `at` (the size stays the same). */
function flipByte(path: string, at: number): void {
  const bytes = readFileSync(path);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(path, bytes);
}

async function damaged(options: ScoreFileOptions, path: string): Promise<ResumeDamagedError> {
  const error = await scoreFile({ ...options, resume: true }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResumeDamagedError);
  const e = error as ResumeDamagedError;
  expect(e.code).toBe("RESUME_DAMAGED");
  expect(e.path).toBe(path);
  expect(e.message).toContain(path);
  return e;
}

describe("resume verifies the files it reads", () => {
  it("an untouched checkpoint resumes (twice) to the bytes of an uninterrupted run", async () => {
    const whole = join(dir, "whole.jsonl");
    const fresh = await scoreFile(base(whole));
    const output = join(dir, "twice.jsonl");
    await stopAfter(base(output), 300);
    await stopAfter({ ...base(output), resume: true }, 800); // the second checkpoint continues the running hashes
    const resumed = await scoreFile({ ...base(output), resume: true });
    expect(resumed.resumed).toBe(true);
    expect(readFileSync(output)).toEqual(readFileSync(whole));
    expect(readFileSync(statisticsPath(output))).toEqual(readFileSync(statisticsPath(whole)));
    expect(resumed.metrics).toEqual(fresh.metrics);
  });

  it("refuses a partial output edited in place (same size), naming it", async () => {
    const output = join(dir, "edited-out.jsonl");
    const ck = await stopAfter(base(output), 300);
    flipByte(output, Math.floor(ck.outputBytes / 2));
    const e = await damaged(base(output), output);
    expect(e.message).toMatch(/modified since its checkpoint/);
  });

  it("refuses an edited statistics file, naming it", async () => {
    const output = join(dir, "edited-stats.jsonl");
    const ck = await stopAfter(base(output), 300);
    flipByte(statisticsPath(output), ck.statisticsBytes - 3);
    await damaged(base(output), statisticsPath(output));
  });

  it("refuses a checkpoint whose sums were edited, naming it", async () => {
    const output = join(dir, "edited-sum.jsonl");
    await stopAfter(base(output), 300);
    const path = checkpointPath(output);
    const text = readFileSync(path, "utf8");
    const ck = JSON.parse(text) as Ckpt;
    const sum = ck.partials[0]![0]!;
    const edited = text.replace(`"partials":[[${sum}`, `"partials":[[${sum + 1}`);
    expect(edited).not.toBe(text);
    writeFileSync(path, edited);
    await damaged(base(output), path);
  });

  it("refuses a truncated checkpoint with an error naming it (not a bare JSON error)", async () => {
    const output = join(dir, "truncated.jsonl");
    await stopAfter(base(output), 300);
    const path = checkpointPath(output);
    writeFileSync(path, readFileSync(path, "utf8").slice(0, 100));
    const e = await damaged(base(output), path);
    expect(e.message).toMatch(/damaged/);
  });

  it("a complete run's checkpoint is verified too before its statistics give CIs", async () => {
    const output = join(dir, "complete.jsonl");
    const options = { ...base(output), bootstrap: { resamples: 50 } };
    await scoreFile(options);
    flipByte(statisticsPath(output), 5);
    await damaged(options, statisticsPath(output));
  });
});

describe("resume: every option that changes rows is in the job's fingerprint", () => {
  it.each([
    ["maxRowBytes", { maxRowBytes: 200 }],
    ["rowTimeoutMs", { rowTimeoutMs: 30_000 }],
    ["strictUtf8", { strictUtf8: true }],
  ] as const)("a changed %s is refused, naming the setting", async (name, change) => {
    const output = join(dir, `changed-${name}.jsonl`);
    await stopAfter(base(output), 300);
    const error = await scoreFile({ ...base(output), ...change, resume: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResumeMismatchError);
    expect((error as Error).message).toContain(`changed: ${name}`);
    // the same settings still resume
    const resumed = await scoreFile({ ...base(output), resume: true });
    expect(resumed.resumed).toBe(true);
    expect(resumed.rows.records).toBe(1500);
  });

  it("a changed TSV quoting is refused", async () => {
    const tsv = join(dir, "quoting.tsv");
    const rows = Array.from({ length: 400 }, (_, i) => `"row ${i}" said\tthe row ${i} said`);
    writeFileSync(tsv, `hyp\tref\n${rows.join("\n")}\n`);
    const output = join(dir, "quoting.jsonl");
    const options: ScoreFileOptions = { ...base(output), input: tsv, fields: { hypothesis: "hyp", references: "ref" }, chunkBytes: 1024 };
    await stopAfter(options, 100);
    await expect(scoreFile({ ...options, quote: true, resume: true })).rejects.toThrow(/changed: quote/);
  });
});
