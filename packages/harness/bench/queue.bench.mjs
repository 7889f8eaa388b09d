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
import { MAKE_PAIRS } from "../../../testdata/index.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const METRICS = ["bleu", "chrf", "rougeL", "tokenF1"];

if (args.includes("--worker")) {
  const { runWorker } = await import("../dist/node/queue/index.js");
  const w = await runWorker({ queue: opt("queue"), concurrency: 1 });
  const cpu0 = process.cpuUsage();
  process.stdout.write("READY\n");
  process.on(
    "SIGTERM",
    () =>
      void w.close().then(() => {
        const c = process.cpuUsage(cpu0); // this process and its worker thread
        process.stdout.write(`CPU ${JSON.stringify({ ms: (c.user + c.system) / 1000, chunks: w.scored() })}\n`);
        process.exit(0);
      }),
  );
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
      const r = spawnSync(process.execPath, [MAKE_PAIRS, "--seed", "9", "--count", String(count), "--no-edge"], {
        stdio: ["ignore", fd, "inherit"],
      });
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
  const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work], {
    stdio: "ignore",
  });
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
  /** Stop the workers; their CPU ms and chunks, summed. */
  const stopWorkers = async (ps) => {
    const outs = await Promise.all(
      ps.map(
        (p) =>
          new Promise((resolve) => {
            let out = "";
            p.stdout.on("data", (d) => (out += d));
            p.once("exit", () => resolve(out));
            p.kill("SIGTERM");
          }),
      ),
    );
    let ms = 0;
    let chunks = 0;
    for (const o of outs) {
      const m = /CPU (\{.*\})/.exec(o);
      if (m) {
        const c = JSON.parse(m[1]);
        ms += c.ms;
        chunks += c.chunks;
      }
    }
    return { ms, chunks };
  };
  const cpuMs = (c) => (c.user + c.system) / 1000;

  const results = [];
  try {
    process.stderr.write(
      `${count} pairs (${(statSync(input).size / 1e6).toFixed(1)} MB), chunks of ${chunkBytes >> 10} KiB, metrics ${METRICS.join(", ")}\n`,
    );
    let t0 = performance.now();
    let c0 = process.cpuUsage();
    const local = await scoreFile({ input, output: join(work, "local.jsonl"), metrics: METRICS, workers: 1, chunkBytes });
    const localMs = performance.now() - t0;
    const localCpu = cpuMs(process.cpuUsage(c0));
    const chunks = local.diagnostics.chunks;
    results.push({
      run: "local scoreFile, 1 worker thread",
      ms: localMs,
      rowsPerS: count / (localMs / 1000),
      cpu: `${(localCpu / 1000).toFixed(1)} s (one process)`,
    });
    const cpuRuns = [];
    for (const n of workersList) {
      const ps = await startWorkers(n);
      t0 = performance.now();
      c0 = process.cpuUsage();
      await scoreFileDistributed({
        input,
        output: join(work, `dist-${n}.jsonl`),
        metrics: METRICS,
        chunkBytes,
        queue,
        job: `bench-${n}-${Date.now()}`,
        window: 4 * n + 4,
      });
      const ms = performance.now() - t0;
      const producerCpu = cpuMs(process.cpuUsage(c0));
      const w = await stopWorkers(ps);
      cpuRuns.push({ producerCpu, workerCpu: w.ms });
      results.push({
        run: `queue, ${n} worker process${n === 1 ? "" : "es"} × 1 thread`,
        ms,
        rowsPerS: count / (ms / 1000),
        cpu: `producer ${(producerCpu / 1000).toFixed(1)} s, workers ${(w.ms / 1000).toFixed(1)} s`,
      });
    }
    const one = results[1];
    const overheadMs = one ? (one.ms - localMs) / chunks : NaN;
    // CPU per chunk by role, averaged over the queue runs: less sensitive to a busy machine than wall time
    const avg = (f) => cpuRuns.reduce((a, r) => a + f(r), 0) / Math.max(1, cpuRuns.length);
    const workerCpuPerChunk = avg((r) => r.workerCpu) / chunks;
    const producerCpuPerChunk = avg((r) => r.producerCpu) / chunks;
    const localCpuPerChunk = localCpu / chunks;
    // tiny chunks: scoring is nearly free, so the time per chunk is the queue's own cost
    const tinyRows = Math.min(count, 4000);
    const tiny = join(work, "tiny.jsonl");
    spawnSync("sh", ["-c", `head -n ${tinyRows} '${input}' > '${tiny}'`]);
    const ps = await startWorkers(1);
    t0 = performance.now();
    const s = await scoreFileDistributed({
      input: tiny,
      output: join(work, "tiny-out.jsonl"),
      metrics: ["bleu"],
      chunkBytes: 1024,
      queue,
      job: `bench-tiny-${Date.now()}`,
      window: 8,
    });
    const tinyMs = performance.now() - t0;
    await stopWorkers(ps);
    const perTinyChunk = tinyMs / s.diagnostics.chunks;

    const cpu = cpus()[0]?.model ?? "?";
    process.stdout.write(
      `\nnode ${process.version}, ${availableParallelism()} cores (${cpu}), load ${loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}\n`,
    );
    process.stdout.write(`| run | wall (s) | rows/s | CPU |\n|---|---:|---:|---|\n`);
    for (const r of results)
      process.stdout.write(`| ${r.run} | ${(r.ms / 1000).toFixed(2)} | ${Math.round(r.rowsPerS).toLocaleString("en-US")} | ${r.cpu} |\n`);
    process.stdout.write(`\n${chunks} chunks of ${chunkBytes >> 10} KiB (${Math.round(count / chunks)} rows each):\n`);
    process.stdout.write(`- wall overhead per chunk, 1 worker vs local (same thread count): ${overheadMs.toFixed(1)} ms\n`);
    process.stdout.write(
      `- CPU per chunk: local run ${localCpuPerChunk.toFixed(1)} ms (reading, scoring, writing); queue workers ` +
        `${workerCpuPerChunk.toFixed(1)} ms (scoring + decode/encode + BullMQ); queue producer ` +
        `${producerCpuPerChunk.toFixed(1)} ms (reading, encoding, Redis, decoding, writing)\n`,
    );
    process.stdout.write(
      `- ${s.diagnostics.chunks} chunks of ~1 KiB (≈3 rows, BLEU), 1 worker, window 8: ${perTinyChunk.toFixed(2)} ms per chunk ` +
        `end to end (the engine's cost per chunk when scoring is nearly free)\n`,
    );
  } finally {
    redis.kill("SIGKILL");
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}
