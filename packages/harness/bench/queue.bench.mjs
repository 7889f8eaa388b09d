#!/usr/bin/env node
// Distributed scoring benchmark (not a test): rows/s of `scoreFileDistributed` with 1, 2 and 4 worker
// processes (each `runWorker` with concurrency 1, i.e. one core each) against a local `scoreFile` on one
// worker thread, and the queue's overhead per chunk (BullMQ + Redis + base64 both ways), so users can
// size chunks. Starts its own redis-server on a free loopback port (no persistence).
//
//   node bench/queue.bench.mjs                       # 200k pairs, workers 1,2,4, default 512 KiB chunks
//   node bench/queue.bench.mjs --count 50000 --workers 1,2 --chunk-kib 256
//
// Needs a build (`npx tsc -p tsconfig.build.json`) and redis-server (scripts/ensure-redis.sh). Data goes
// to $TMPDIR/evalkern-bench (reused). On a machine with fewer cores than workers + 1 the workers share
// cores, and rows/s stops growing: the figures then measure the machine, not the queue.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const METRICS = ["bleu", "chrf", "rougeL", "tokenF1"];

if (args.includes("--worker")) {
  const { runWorker } = await import("../dist/node/queue/index.js");
  const w = await runWorker({ queue: opt("queue"), concurrency: 1 });
  process.stdout.write("READY\n");
  process.on("SIGTERM", () => void w.close().then(() => process.exit(0)));
} else {
  const { scoreFile } = await import("../dist/index.js");
  const { scoreFileDistributed } = await import("../dist/node/queue/index.js");
  const count = Number(opt("count", "200000"));
  const workersList = opt("workers", "1,2,4").split(",").map(Number);
  const chunkBytes = Number(opt("chunk-kib", "512")) << 10;
  const dir = join(tmpdir(), "evalkern-bench");
  mkdirSync(dir, { recursive: true });
  const input = join(dir, `pairs-seed9-${count}.jsonl`);
  if (!existsSync(input) || statSync(input).size === 0) {
    process.stderr.write(`generating ${count} pairs → ${input}\n`);
    const fd = openSync(input, "w");
    try {
      const r = spawnSync(process.execPath, ["/work/shared/corpus/make-pairs.mjs", "--seed", "9", "--count", String(count), "--no-edge"], { stdio: ["ignore", fd, "inherit"] });
      if (r.status !== 0) throw new Error("make-pairs failed");
    } finally {
      closeSync(fd);
    }
  }
  const work = mkdtempSync(join(tmpdir(), "evalkern-queue-bench-"));
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work], { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 500));
  const queue = `redis://127.0.0.1:${port}/0`;
  const self = fileURLToPath(import.meta.url);

  const startWorkers = async (n) => {
    const ps = [];
    for (let i = 0; i < n; i++) {
      const p = spawn(process.execPath, [self, "--worker", "--queue", queue], { stdio: ["ignore", "pipe", "inherit"] });
      await new Promise((resolve) => p.stdout.on("data", (d) => String(d).includes("READY") && resolve()));
      ps.push(p);
    }
    return ps;
  };
  const stopWorkers = (ps) => Promise.all(ps.map((p) => new Promise((r) => (p.once("exit", r), p.kill("SIGTERM")))));

  const results = [];
  try {
    process.stderr.write(`${count} pairs (${(statSync(input).size / 1e6).toFixed(1)} MB), chunks of ${chunkBytes >> 10} KiB, metrics ${METRICS.join(", ")}\n`);
    let t0 = performance.now();
    const local = await scoreFile({ input, output: join(work, "local.jsonl"), metrics: METRICS, workers: 1, chunkBytes });
    const localMs = performance.now() - t0;
    const chunks = local.diagnostics.chunks;
    results.push({ run: "local scoreFile, 1 worker thread", ms: localMs, rowsPerS: count / (localMs / 1000) });
    for (const n of workersList) {
      const ps = await startWorkers(n);
      t0 = performance.now();
      await scoreFileDistributed({ input, output: join(work, `dist-${n}.jsonl`), metrics: METRICS, chunkBytes, queue, job: `bench-${n}-${Date.now()}`, window: 4 * n + 4 });
      const ms = performance.now() - t0;
      await stopWorkers(ps);
      results.push({ run: `queue, ${n} worker process${n === 1 ? "" : "es"} × 1 thread`, ms, rowsPerS: count / (ms / 1000) });
    }
    const one = results[1];
    const overheadMs = one ? (one.ms - localMs) / chunks : NaN;
    // tiny chunks: scoring is nearly free, so the time per chunk is the queue's own cost
    const tinyRows = Math.min(count, 4000);
    const tiny = join(work, "tiny.jsonl");
    spawnSync("sh", ["-c", `head -n ${tinyRows} '${input}' > '${tiny}'`]);
    const ps = await startWorkers(1);
    t0 = performance.now();
    const s = await scoreFileDistributed({ input: tiny, output: join(work, "tiny-out.jsonl"), metrics: ["bleu"], chunkBytes: 1024, queue, job: `bench-tiny-${Date.now()}`, window: 8 });
    const tinyMs = performance.now() - t0;
    await stopWorkers(ps);
    const perTinyChunk = tinyMs / s.diagnostics.chunks;

    const cpu = cpus()[0]?.model ?? "?";
    process.stdout.write(`\nnode ${process.version}, ${availableParallelism()} cores (${cpu}), load ${loadavg().map((x) => x.toFixed(1)).join(" ")}\n`);
    process.stdout.write(`${"run".padEnd(44)} ${"wall".padStart(9)} ${"rows/s".padStart(10)}\n`);
    for (const r of results) process.stdout.write(`${r.run.padEnd(44)} ${(r.ms / 1000).toFixed(2).padStart(8)}s ${Math.round(r.rowsPerS).toLocaleString("en-US").padStart(10)}\n`);
    process.stdout.write(`\n${chunks} chunks of ${chunkBytes >> 10} KiB: queue overhead ${overheadMs.toFixed(1)} ms per chunk (1 worker vs local, same thread count)\n`);
    process.stdout.write(`${s.diagnostics.chunks} chunks of ~1 KiB (≈3 rows, BLEU): ${perTinyChunk.toFixed(2)} ms per chunk end to end, window 8 (the engine's cost per chunk when scoring is nearly free)\n`);
  } finally {
    redis.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}
