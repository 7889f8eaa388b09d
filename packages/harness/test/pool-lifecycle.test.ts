// The worker pool's thread lifecycle (issue 19.17, 19.19): threads start on demand and are never
// terminated while they boot or compile; a thread left holding the memory of a huge row is retired so the
// process's memory comes back down; the input of a bulk run must be a regular file.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError, scoreFile } from "../src/index.js";
import type { ChunkResult } from "../src/bulk/chunk.js";
import { normalizeMetrics } from "../src/bulk/metrics.js";
import { resolveFields } from "../src/bulk/records.js";
import { createPool, RECYCLE_EXTERNAL_BYTES } from "../src/node/pool.js";
import type { WorkerConfig } from "../src/node/worker.js";
import { tempDir } from "./helpers.js";

const config = (metrics: string[]): WorkerConfig => ({
  metrics: normalizeMetrics(metrics),
  fields: resolveFields(undefined),
  output: { kind: "scores", positionKey: "line" },
  keepStatistics: false,
});
const chunk = (rows: readonly object[]) => {
  const bytes = new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return { task: { type: "chunk" as const, input: { kind: "jsonl" as const, bytes, firstLine: 1 } }, transfer: [bytes.buffer] };
};
const rss = () => process.memoryUsage().rss;

beforeAll(async () => {
  await ready();
});

describe("threads start on demand", () => {
  it("one task on a pool of two starts one thread; destroy waits for it and ends it", async () => {
    const pool = createPool(2, config(["tokenF1"]));
    const { task, transfer } = chunk([{ hyp: "the cat", refs: ["the cat sat"] }]);
    const r = await pool.run<ChunkResult>(task, transfer);
    expect(r).toMatchObject({ records: 1, valid: 1 });
    await pool.destroy();
    expect(pool.stats!()).toEqual({ started: 1, retired: 0 });
  });

  it("a pool destroyed while its threads still boot waits for them: every started thread has booted", async () => {
    const pool = createPool(2, config(["tokenF1"]));
    const runs = [0, 1, 2, 3].map(() => {
      const { task, transfer } = chunk([{ hyp: "a", refs: ["a"] }]);
      return pool.run<ChunkResult>(task, transfer).catch((e: unknown) => e);
    });
    await pool.destroy(); // at once: the threads are booting now
    await Promise.all(runs);
    expect(pool.stats!().started).toBeGreaterThanOrEqual(1);
    expect(pool.stats!().started).toBeLessThanOrEqual(2);
  });
});

describe("memory after a huge row", () => {
  it("the thread that scored a 10 MB row is retired and the process's memory comes back down", async () => {
    const words = Array.from({ length: 1_500_000 }, (_, i) => `w${i % 50_000}`).join(" ");
    const pool = createPool(1, config(["bleu"]));
    try {
      const small = () => chunk([{ hyp: "the cat sat", refs: ["the cat sat on the mat"] }]);
      let s = small();
      await pool.run<ChunkResult>(s.task, s.transfer);
      expect(pool.stats!()).toEqual({ started: 1, retired: 0 }); // ordinary chunks keep their thread
      const big = chunk([{ hyp: words, refs: [words.slice(0, words.length / 2)] }]);
      const r = await pool.run<ChunkResult>(big.task, big.transfer);
      expect(r).toMatchObject({ records: 1, valid: 1 });
      const high = rss();
      // the thread reports its memory beside the result: retired as soon as the report arrives
      for (let i = 0; i < 100 && pool.stats!().retired === 0; i++) await new Promise((res) => setTimeout(res, 50));
      s = small();
      await pool.run<ChunkResult>(s.task, s.transfer); // runs on a fresh thread; the old one ends
      expect(pool.stats!().retired).toBe(1);
      let low = rss();
      for (let i = 0; i < 100 && (high - low < RECYCLE_EXTERNAL_BYTES || pool.stats!().started < 2); i++) {
        await new Promise((res) => setTimeout(res, 100));
        low = rss();
      }
      expect(high - low).toBeGreaterThanOrEqual(RECYCLE_EXTERNAL_BYTES); // the old thread's memory is gone
      expect(pool.stats!()).toEqual({ started: 2, retired: 1 });
    } finally {
      await pool.destroy();
    }
  }, 120_000);
});

describe("the input of scoreFile must be a regular file", () => {
  it("a directory is an InvalidArgumentError naming it", async () => {
    const d = tempDir();
    mkdirSync(join(d, "rows.jsonl"));
    const err = await scoreFile({ input: join(d, "rows.jsonl"), output: join(d, "o.jsonl"), metrics: ["tokenF1"] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: "INVALID_ARGUMENT", argument: "input", actual: "a directory" });
    expect((err as Error).message).toBe(`input must be a regular file: ${join(d, "rows.jsonl")} is a directory; name a file in it`);
  });

  it("a FIFO is refused at once with a typed error (not read, no hang), even with a writer waiting", async () => {
    const d = tempDir();
    const fifo = join(d, "rows.jsonl");
    const mk = spawn("mkfifo", [fifo]);
    expect(await new Promise((res) => mk.on("close", res))).toBe(0);
    // a writer that would feed the pipe: it stays blocked, since the pipe is never opened for reading
    const writer = spawn("sh", ["-c", `printf '{"hyp":"a","refs":["a"]}\\n' > "${fifo}"`]);
    try {
      const err = await scoreFile({ input: fifo, output: join(d, "o.jsonl"), metrics: ["tokenF1"] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect(err).toMatchObject({ code: "INVALID_ARGUMENT", argument: "input", actual: "a named pipe (FIFO)" });
      expect((err as Error).message).toMatch(/is a named pipe \(FIFO\); write it to a regular file first/);
    } finally {
      writer.kill("SIGKILL");
    }
  });

  it("a missing file is still the InvalidArgumentError it was", async () => {
    const d = tempDir();
    writeFileSync(join(d, "x"), "");
    await expect(scoreFile({ input: join(d, "nope.jsonl"), output: join(d, "o.jsonl"), metrics: ["tokenF1"] })).rejects.toThrow(
      /^input file not found: /,
    );
  });
});
