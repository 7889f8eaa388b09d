// What bulk scoring does when things go wrong: file-system failures end with a typed error (never a
// hang), resume is bound to the content it covers, stale files and locks of dead runs are cleaned up,
// oversized and never-ending rows become bad rows, odd bytes follow one rule.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ready } from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  checkpointPath,
  FileSystemError,
  makeDirectory,
  OutputLockedError,
  ResumeMismatchError,
  RunAbortedError,
  scoreFile,
} from "../src/index.js";
import { writeAt } from "../src/node/files.js";
import { makePairs, tempDir } from "./helpers.js";

const child = fileURLToPath(new URL("./fixtures/score-child.mjs", import.meta.url));

let dir: string;
let small: string;

beforeAll(async () => {
  await ready();
  dir = tempDir();
  small = join(dir, "small.jsonl");
  writeFileSync(small, `${JSON.stringify({ hyp: "the cat sat", refs: ["the cat sat"] })}\n`);
});

describe("file-system failures end the run with a typed error", () => {
  it("an output under /proc fails at once with FileSystemError (no endless mkdir)", async () => {
    const started = Date.now();
    const err = await scoreFile({ input: small, output: "/proc/evalkern-x.jsonl", metrics: ["tokenF1"], workers: 1 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FileSystemError);
    expect(err).toMatchObject({ code: "FILE_SYSTEM", osCode: "ENOENT" });
    expect((err as Error).message).toMatch(/^cannot .* \/proc\/evalkern-x\.jsonl\S*: no such file or directory \(ENOENT\)/);
    expect(Date.now() - started).toBeLessThan(20_000); // generous: it takes milliseconds
  });

  it("a write that fails (ENOSPC on /dev/full) is a FileSystemError naming the file", () => {
    const fd = openSync("/dev/full", "w");
    try {
      let err: unknown;
      try {
        writeAt(fd, new Uint8Array(1 << 16), 0, "/dev/full");
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FileSystemError);
      expect(err).toMatchObject({ osCode: "ENOSPC", path: "/dev/full", operation: "write" });
      expect((err as Error).message).toBe("cannot write /dev/full: no space left on the device (ENOSPC)");
    } finally {
      closeSync(fd);
    }
  });

  it("makeDirectory: bounded under /proc, ENOTDIR through a file, creates missing parents", () => {
    expect(() => makeDirectory("/proc/evalkern-a/b/c")).toThrow(FileSystemError);
    expect(() => makeDirectory("/proc/evalkern-a/b/c")).toThrow(
      /cannot create directory \/proc\/evalkern-a: .*ENOENT.*does not accept new entries/,
    );
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    let err: unknown;
    try {
      makeDirectory(join(file, "sub", "dir"));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ name: "FileSystemError", osCode: "ENOTDIR" });
    makeDirectory(join(dir, "x", "y", "z"));
    makeDirectory(join(dir, "x", "y", "z")); // exists: fine
  });
});

const STAMP = 1_700_000_000; // whole seconds: restored exactly (as `touch -r` / `cp -p` / `rsync -t` do)

/** Replace line `n` (1-based) of a JSONL file by a same-length variant and restore the mtime. */
function editInPlace(path: string, n: number): void {
  const st = statSync(path);
  expect(st.mtimeMs).toBe(STAMP * 1000);
  const lines = readFileSync(path, "utf8").split("\n");
  const row = JSON.parse(lines[n - 1]!) as { hyp: string };
  const before = lines[n - 1]!;
  // swap two ASCII letters of the hypothesis: same bytes count, different text
  const i = row.hyp.search(/[a-z]/);
  row.hyp = row.hyp.slice(0, i) + (row.hyp[i] === "x" ? "y" : "x") + row.hyp.slice(i + 1);
  lines[n - 1] = JSON.stringify(row);
  expect(Buffer.byteLength(lines[n - 1]!)).toBe(Buffer.byteLength(before));
  writeFileSync(path, lines.join("\n"));
  utimesSync(path, STAMP, STAMP);
  expect(statSync(path).size).toBe(st.size);
  expect(statSync(path).mtimeMs).toBe(st.mtimeMs);
}

describe("resume is bound to the content it covers", () => {
  it("an in-place edit of a scored row with the mtime restored is refused (complete checkpoint)", async () => {
    const d = tempDir();
    const input = makePairs(d, 7, 400, true);
    utimesSync(input, STAMP, STAMP);
    const output = join(d, "out.jsonl");
    await scoreFile({ input, output, metrics: ["bleu"], workers: 1 });
    editInPlace(input, 1);
    const err = await scoreFile({ input, output, metrics: ["bleu"], workers: 1, resume: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResumeMismatchError);
    expect((err as Error).message).toMatch(/changed since the checkpoint/);
  });

  it(
    "a run stopped through its signal checkpoints what it wrote; resume equals a clean run; an edit before the offset is " +
      "refused, after it accepted",
    async () => {
      const d = tempDir();
      const input = makePairs(d, 8, 6000, true);
      utimesSync(input, STAMP, STAMP);
      const base = {
        input,
        metrics: ["bleu", "tokenF1"] as const,
        fields: { id: "id" },
        workers: 1,
        chunkBytes: 8 << 10,
        keepStatistics: true,
      };
      const clean = await scoreFile({ ...base, output: join(d, "clean.jsonl") });

      const output = join(d, "stopped.jsonl");
      const controller = new AbortController();
      const err = await scoreFile({
        ...base,
        output,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.records >= 1000) controller.abort("test");
        },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RunAbortedError);
      const ck = JSON.parse(readFileSync(checkpointPath(output), "utf8")) as {
        complete: boolean;
        records: number;
        nextLine: number;
        outputBytes: number;
      };
      expect(ck.complete).toBe(false);
      expect(ck.records).toBeGreaterThanOrEqual(1000);
      expect(ck.records).toBeLessThan(6000);
      expect(statSync(output).size).toBe(ck.outputBytes); // everything written is checkpointed
      expect(existsSync(`${output}.lock`)).toBe(false); // released

      const resumed = await scoreFile({ ...base, output, resume: true });
      expect(resumed.resumed).toBe(true);
      expect(readFileSync(output, "utf8")).toBe(readFileSync(join(d, "clean.jsonl"), "utf8"));
      expect(resumed.metrics).toEqual(clean.metrics);

      // stop again, then edit a row before the offset (same size, same mtime): refused
      const out2 = join(d, "stopped2.jsonl");
      const c2 = new AbortController();
      await expect(
        scoreFile({ ...base, output: out2, signal: c2.signal, onProgress: (p) => p.records >= 1000 && c2.abort() }),
      ).rejects.toThrow(RunAbortedError);
      const ck2 = JSON.parse(readFileSync(checkpointPath(out2), "utf8")) as { nextLine: number };
      editInPlace(input, ck2.nextLine + 10); // after the offset: fine
      const ok = await scoreFile({ ...base, output: join(d, "stopped2.jsonl"), resume: true, signal: new AbortController().signal });
      expect(ok.resumed).toBe(true);
      // and before it: the next resume of a stopped run is refused
      const out3 = join(d, "stopped3.jsonl");
      const c3 = new AbortController();
      await expect(
        scoreFile({ ...base, output: out3, signal: c3.signal, onProgress: (p) => p.records >= 1000 && c3.abort() }),
      ).rejects.toThrow(RunAbortedError);
      editInPlace(input, 2);
      await expect(scoreFile({ ...base, output: out3, resume: true })).rejects.toThrow(/changed since the checkpoint/);
    },
  );
});

describe("one run per output", () => {
  it("a live holder makes a second run fail at once; a dead holder's lock is taken over", async () => {
    const d = tempDir();
    const output = join(d, "locked.jsonl");
    // a live process holds the lock
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      writeFileSync(`${output}.lock`, `${holder.pid}\n`);
      const err = await scoreFile({ input: small, output, metrics: ["tokenF1"], workers: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutputLockedError);
      expect((err as Error).message).toContain(`another run (pid ${holder.pid}) holds ${output}`);
      expect(existsSync(output)).toBe(false); // nothing was touched
    } finally {
      holder.kill("SIGKILL");
    }
    // a process that is gone left its lock: taken over, then released
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    writeFileSync(`${output}.lock`, `${dead}\n`);
    const summary = await scoreFile({ input: small, output, metrics: ["tokenF1"], workers: 1 });
    expect(summary.rows.scored).toBe(1);
    expect(existsSync(`${output}.lock`)).toBe(false);
  });

  it("two processes on one output: the second fails at once naming the first's pid", async () => {
    const d = tempDir();
    const input = makePairs(d, 9, 3000, true);
    const output = join(d, "twice.jsonl");
    // paced (20 ms after each chunk), so it is surely still running, holding the lock, when it is frozen below
    const options = { input, output, metrics: ["bleu"], workers: 1, chunkBytes: 4 << 10, paceMs: 20 };
    const first = spawn(process.execPath, [child, JSON.stringify(options)], {
      stdio: "ignore",
    });
    const exited = new Promise((r) => first.on("exit", r));
    try {
      // freeze the first run once it holds the lock, so that it surely still holds it below
      for (let i = 0; i < 6000 && !existsSync(`${output}.lock`); i++) await new Promise((r) => setTimeout(r, 5));
      first.kill("SIGSTOP");
      expect(readFileSync(`${output}.lock`, "utf8")).toBe(`${first.pid}\n`);
      const err = await scoreFile({ input, output, metrics: ["bleu"], workers: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutputLockedError);
      expect(err).toMatchObject({ pid: first.pid, path: output });
      expect((err as Error).message).toContain(`another run (pid ${first.pid}) holds ${output}`);
    } finally {
      first.kill("SIGKILL");
      await exited;
    }
    // the killed run left its lock behind: the next run takes it over and resumes
    expect(existsSync(`${output}.lock`)).toBe(true);
    const resumed = await scoreFile({ input, output, metrics: ["bleu"], workers: 1, resume: true });
    expect(resumed.rows.records).toBe(3000);
    expect(existsSync(`${output}.lock`)).toBe(false);
  });
});

describe("oversized rows are refused unread, as bad rows", () => {
  it.each([
    ["jsonl", 1 << 20],
    ["jsonl", 512],
    ["csv", 1 << 20],
    ["csv", 512],
  ] as const)(
    "%s (chunkBytes %i): rows over maxRowBytes are row_too_large with their line; the rest is scored",
    async (format, chunkBytes) => {
      const d = tempDir();
      const big = "x ".repeat(3 << 20); // 6 MiB: longer than a read block, so it is skipped while streaming
      const mid = "y ".repeat(300 << 10); // 600 KiB: over the limit but within one read
      const rows = [
        { hyp: "the cat sat", refs: ["the cat sat"] },
        { hyp: big, refs: ["x"] },
        { hyp: "a dog", refs: ["a dog barked"] },
        { hyp: mid, refs: ["y"] },
        { hyp: "the end", refs: ["the end"] },
      ];
      let input: string;
      if (format === "jsonl") {
        input = join(d, "in.jsonl");
        writeFileSync(input, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
      } else {
        // quoted fields with newlines inside the huge records: line numbers must still come out right
        input = join(d, "in.csv");
        const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
        const withBreaks = (s: string) => (s.length > 1000 ? `${s.slice(0, 10)}\n\n${s.slice(10)}` : s);
        writeFileSync(input, ["hyp,ref", ...rows.map((r) => `${q(withBreaks(r.hyp))},${q(r.refs[0]!)}`)].join("\n") + "\n");
      }
      const output = join(d, "out.jsonl");
      const summary = await scoreFile({
        input,
        output,
        metrics: ["tokenF1"],
        fields: format === "csv" ? { hypothesis: "hyp", references: "ref" } : undefined,
        workers: 1,
        chunkBytes,
        maxRowBytes: 256 << 10,
      });
      const out = readFileSync(output, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const lines = format === "jsonl" ? [1, 2, 3, 4, 5] : [2, 3, 6, 7, 10];
      expect(out.map((r) => r.line)).toEqual(lines);
      expect(out[1]).toMatchObject({ line: lines[1], error: { code: "row_too_large" } });
      expect(out[3]).toMatchObject({ line: lines[3], error: { code: "row_too_large" } });
      expect((out[1]!.error as { message: string }).message).toMatch(/the row is \d+ bytes, over maxRowBytes \(262144\)/);
      expect([out[0]!.tokenF1, out[2]!.tokenF1, out[4]!.tokenF1]).toEqual([1, expect.any(Number), 1]);
      expect(summary.rows).toMatchObject({ records: 5, scored: 3, bad: 2, badByCode: { row_too_large: 2 } });
      // the skipped bytes are part of the content hash: resume accepts the unchanged input
      const again = await scoreFile({
        input,
        output,
        metrics: ["tokenF1"],
        fields: format === "csv" ? { hypothesis: "hyp", references: "ref" } : undefined,
        workers: 1,
        chunkBytes,
        maxRowBytes: 256 << 10,
        resume: true,
      });
      expect(again.rows).toEqual(summary.rows);
    },
  );

  it("rejects a maxRowBytes over 256 MiB", async () => {
    await expect(scoreFile({ input: small, output: join(dir, "m.jsonl"), metrics: ["tokenF1"], maxRowBytes: 2 ** 30 })).rejects.toThrow(
      /maxRowBytes/,
    );
  });
});

describe("a per-row time budget", () => {
  it("a metric that never returns on one row: that row is row_timeout, the others are scored, the run goes on", async () => {
    const d = tempDir();
    const metricFile = join(d, "stuck-metric.mjs");
    writeFileSync(metricFile, `export function stuck(hyp) { if (hyp === "loop forever") for (;;) {} return hyp.length; }\n`);
    const input = join(d, "in.jsonl");
    const hyps = ["one", "two", "loop forever", "four", "five", "", "seven"];
    writeFileSync(input, hyps.map((h) => (h ? JSON.stringify({ hyp: h, refs: ["r"] }) : "")).join("\n") + "\n");
    const output = join(d, "out.jsonl");
    const summary = await scoreFile({
      input,
      output,
      metrics: [{ metric: "module", name: "len", module: new URL(`file://${metricFile}`).href, export: "stuck" }],
      workers: 1,
      rowTimeoutMs: 2000,
    });
    const out = readFileSync(output, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 7]);
    expect(out[2]).toMatchObject({ line: 3, error: { code: "row_timeout" } });
    expect((out[2]!.error as { message: string }).message).toMatch(/time budget of 2000 ms per row/);
    expect(out.filter((r) => !r.error).map((r) => r.len)).toEqual([3, 3, 4, 4, 5]);
    expect(summary.rows).toMatchObject({ records: 6, scored: 5, bad: 1, blank: 1, badByCode: { row_timeout: 1 } });
    expect(summary.metrics.len!.scores.len).toBe((3 + 3 + 4 + 4 + 5) / 5);
  });
});

describe("odd bytes follow one rule whatever the chunking", () => {
  const enc = (s: string) => Buffer.from(s, "utf8");
  const row = (hyp: string) => enc(JSON.stringify({ hyp, refs: ["the cat sat"] }));
  const nl = Buffer.from("\n");

  it.each([1 << 20, 8])(
    "invalid UTF-8 is counted with its lines and scored with U+FFFD; strictUtf8 makes such rows bad rows (chunkBytes %i)",
    async (chunkBytes) => {
      const d = tempDir();
      const input = join(d, "bytes.jsonl");
      const bad1 = Buffer.concat([enc('{"hyp":"the cat '), Buffer.from([0xff, 0xfe]), enc('","refs":["the cat sat"]}')]);
      const bad2 = Buffer.concat([enc('{"hyp":"caf'), Buffer.from([0xe9]), enc('","refs":["the cat sat"]}')]); // Latin-1 é
      writeFileSync(input, Buffer.concat([row("the cat sat"), nl, bad1, nl, row("a cat"), nl, bad2, nl, row("sat"), nl]));
      const lenient = await scoreFile({ input, output: join(d, "lenient.jsonl"), metrics: ["tokenF1"], workers: 1, chunkBytes });
      expect(lenient.rows.invalidUtf8).toEqual({ count: 2, lines: [2, 4] });
      expect(lenient.rows).toMatchObject({ records: 5, scored: 5, bad: 0 });
      const strict = await scoreFile({
        input,
        output: join(d, "strict.jsonl"),
        metrics: ["tokenF1"],
        workers: 1,
        chunkBytes,
        strictUtf8: true,
      });
      expect(strict.rows).toMatchObject({
        records: 5,
        scored: 3,
        bad: 2,
        badByCode: { invalid_utf8: 2 },
        invalidUtf8: { count: 2, lines: [2, 4] },
      });
      const out = readFileSync(join(d, "strict.jsonl"), "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(out[1]).toMatchObject({ line: 2, error: { code: "invalid_utf8" } });
      expect(out[3]).toMatchObject({ line: 4, error: { code: "invalid_utf8" } });
    },
  );

  it("CSV: invalid UTF-8 on the second line of a quoted multi-line record reports the record's line", async () => {
    const d = tempDir();
    const input = join(d, "bytes.csv");
    writeFileSync(input, Buffer.concat([enc('hyp,ref\n"two\nlines ok",x\n"first\nsecond '), Buffer.from([0xc3]), enc('",y\nlast,last\n')]));
    const s = await scoreFile({
      input,
      output: join(d, "out.jsonl"),
      metrics: ["tokenF1"],
      fields: { hypothesis: "hyp", references: "ref" },
      workers: 1,
      strictUtf8: true,
    });
    expect(s.rows.invalidUtf8).toEqual({ count: 1, lines: [4] });
    expect(s.rows).toMatchObject({ records: 3, scored: 2, badByCode: { invalid_utf8: 1 } });
  });

  it(
    "a BOM at the start of a later line is the same character whatever the chunk boundaries (not JSON, as in Python); the " +
      "file's BOM is skipped",
    async () => {
      const d = tempDir();
      const input = join(d, "bom.jsonl");
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      writeFileSync(input, Buffer.concat([bom, row("the cat sat"), nl, row("a cat"), nl, bom, row("sat"), nl, row("cat"), nl]));
      const results = [];
      for (const chunkBytes of [1 << 20, 1, 40, 80]) {
        const s = await scoreFile({ input, output: join(d, `out-${chunkBytes}.jsonl`), metrics: ["tokenF1"], workers: 1, chunkBytes });
        expect(s.rows).toMatchObject({ records: 4, scored: 3, bad: 1, badByCode: { invalid_json: 1 } });
        expect(s.rows.badSamples[0]).toMatchObject({ line: 3, code: "invalid_json" });
        expect(s.rows.badSamples[0]!.message).toMatch(/byte order mark/);
        results.push(readFileSync(join(d, `out-${chunkBytes}.jsonl`), "utf8"));
      }
      expect(new Set(results).size).toBe(1);
    },
  );
});

describe("workers are capped at the cores", () => {
  it("workers: 1e9 runs on the available cores and says so", async () => {
    const { availableParallelism } = await import("node:os");
    const s = await scoreFile({ input: small, output: join(dir, "many.jsonl"), metrics: ["tokenF1"], workers: 1e9 });
    expect(s.workers).toBe(availableParallelism());
    expect(s.diagnostics.workersRequested).toBe(1e9);
    expect(s.rows.scored).toBe(1);
  });
});
