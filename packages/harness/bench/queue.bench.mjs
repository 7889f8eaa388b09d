#!/usr/bin/env node
// Cluster benchmark (not a test): how many workers one producer can feed. It runs the commands users run,
// `evalkern score … --queue … --shared-input …` (the producer) against `evalkern worker -c 1 --shared-dir …`
// processes, on a redis-server it starts on a free loopback port (no persistence), once with bootstrap CIs
// (the default) and once with --no-ci. CPU is whole-process user + sys: the producer's from /usr/bin/time
// (its worker threads included), each worker's from /proc/<pid>/stat just before and after the run. The
// figure that matters is the producer's CPU as a share of the workers': one producer keeps about
// (workers' CPU ÷ producer CPU) worker cores busy.
//
//   node bench/queue.bench.mjs                        # 200k pairs, 2 workers, CIs and --no-ci
//   node bench/queue.bench.mjs --count 50000 --workers 1 --compare
//   node bench/queue.bench.mjs --modes ci
//   node bench/queue.bench.mjs --modes ci --perf      # and where the producer's CPU goes (producer-buckets.mjs)
//
// --compare also scores the file locally (`evalkern score` without --queue) and checks that the output
// rows, the statistics file and the summary's numbers are byte-identical. Needs a build of the workspace
// (harness and cli dist/) and redis-server. Pairs from scripts/dev/bench-pairs.mjs (made once in $TMPDIR). On a machine
// with fewer cores than workers + 1 the processes share cores: walls then measure the machine, CPU seconds
// do not.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchPairsFile } from "../../../scripts/dev/bench-pairs.mjs";
import { timeCommand } from "../../../scripts/dev/bench-time.mjs";
import { producerBuckets } from "./producer-buckets.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const BIN = opt("bin") ?? fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
const count = Number(opt("count", "200000"));
const nWorkers = Number(opt("workers", "2"));
const modes = opt("modes", "ci,no-ci").split(",");
const compare = args.includes("--compare");
// --perf: run each mode's producer once more under `perf record -e cpu-clock -g` (on-CPU samples of all its
// threads) and print its CPU by bucket; the timed run above it stays unprofiled
const perf = args.includes("--perf");
const METRIC_FLAGS = ["--metric", "bleu", "--metric", "chrf", "--metric", "rouge", "--metric", "f1"];
const TICK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** CPU seconds (user + sys, all threads) of a live process. */
function procCpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICK; // utime, stime (fields 14 and 15)
}

const input = benchPairsFile({ count });
const corpus = `node testdata/corpus/make-pairs.mjs --seed 9 --count ${count} --no-edge`;
const work = mkdtempSync(join(tmpdir(), "evalkern-queue-bench-"));
const port = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const redisArgs = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work];
const redis = spawn("redis-server", redisArgs, { stdio: "ignore" });
const queue = `redis://127.0.0.1:${port}/0`;

/** Start `evalkern worker -c 1` processes and wait until each is connected. */
async function startWorkers(n) {
  const ps = [];
  for (let i = 0; i < n; i++) {
    const p = spawn(process.execPath, [BIN, "worker", "-c", "1", "--queue", queue, "--shared-dir", dirname(input)], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    await new Promise((resolve, reject) => {
      p.stderr.on("data", (d) => {
        err += d;
        if (err.includes("worker connected")) resolve();
      });
      p.once("exit", (code) => reject(new Error(`worker exited (${code}): ${err}`)));
    });
    ps.push(p);
  }
  return ps;
}

async function stopWorkers(ps) {
  await Promise.all(
    ps.map(
      (p) =>
        new Promise((resolve) => {
          if (p.exitCode !== null) return resolve();
          p.once("exit", resolve);
          p.kill("SIGTERM");
        }),
    ),
  );
}

/** Run a command under /usr/bin/time (its output dropped): CPU seconds, wall seconds, peak RSS (MiB). */
function timed(cmd) {
  const r = timeCommand(cmd, { stdout: "ignore" });
  if (r.status !== 0) throw new Error(`${cmd.join(" ")} failed (${r.status}):\n${r.stderr}`);
  return r;
}

const summaryOf = (out) => JSON.parse(readFileSync(`${out}.evalkern/rows.jsonl.summary.json`, "utf8"));
/** What must be the same between a local and a cluster run: every number of the summary. */
const numbers = (s) => JSON.stringify({ rows: s.rows, nrefs: s.nrefs, metrics: s.metrics, partials: s.partials, sequential: s.sequential });

const results = [];
let failed = false;
try {
  const mb = (statSync(input).size / 1e6).toFixed(1);
  process.stderr.write(`${count} pairs (${mb} MB), ${nWorkers} worker(s) × 1 thread, modes ${modes.join(", ")}\n`);
  const commands = [];
  for (const mode of modes) {
    const ci = mode === "ci" ? [] : ["--no-ci"];
    const out = join(work, `cluster-${mode}.jsonl`);
    const cmd = [BIN, "score", input, "-o", out, ...METRIC_FLAGS, ...ci];
    const cluster = [...cmd, "--queue", queue, "--shared-input", input, "--job", `bench-${mode}-${Date.now()}`];
    commands.push(`evalkern ${cluster.slice(1).join(" ")}`.replaceAll(input, "pairs.jsonl").replaceAll(work, "$W"));
    const ps = await startWorkers(nWorkers);
    const w0 = ps.map((p) => procCpu(p.pid));
    const producer = timed([process.execPath, ...cluster]);
    const workers = ps.reduce((a, p, i) => a + procCpu(p.pid) - w0[i], 0);
    const summary = summaryOf(out);
    let buckets;
    if (perf) {
      // a fresh run (its own job name, the finished run's checkpoint gone) with the same workers
      const data = join(work, `perf-${mode}.data`);
      rmSync(`${out}.evalkern`, { recursive: true, force: true });
      const again = cluster.map((a) => (a.startsWith(`bench-${mode}-`) ? `${a}-perf` : a));
      const record = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "1000", "-g", "-o", data, "--"];
      const cpu = timed([...record, process.execPath, "--perf-basic-prof", ...again]).cpuS;
      buckets = { cpu, seconds: producerBuckets(data) };
    }
    await stopWorkers(ps);
    const chunks = summary.diagnostics.chunks;
    const row = { mode, chunks, producer, workers, buckets };
    if (compare) {
      const localOut = join(work, `local-${mode}.jsonl`);
      row.local = timed([process.execPath, ...cmd.slice(0, 4), localOut, ...cmd.slice(5)]);
      const same = (a, b) => readFileSync(a).equals(readFileSync(b));
      const statsOf = (o) => `${o}.evalkern/rows.jsonl.stats.f32`;
      row.identical = {
        rows: same(out, localOut),
        statistics: !existsSync(statsOf(out)) || same(statsOf(out), statsOf(localOut)),
        summary: numbers(summary) === numbers(summaryOf(localOut)),
      };
      if (!Object.values(row.identical).every(Boolean)) failed = true;
    }
    results.push(row);
  }

  const cpu = cpus()[0]?.model ?? "?";
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
  const w = process.stdout.write.bind(process.stdout);
  w(`\nnode ${process.version}, ${availableParallelism()} cores (${cpu}), load ${load}\n`);
  w(`corpus: ${corpus} (${mb} MB); ${nWorkers} × \`evalkern worker -c 1 --shared-dir <dir>\` on a loopback redis-server\n`);
  for (const c of commands) w(`producer: ${c}\n`);
  w(`\n| mode | chunks | producer CPU (s) | workers' CPU (s) | per chunk: producer / workers (ms) | producer ÷ workers |`);
  w(` workers per producer | producer wall (s) | producer RSS (MiB) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n`);
  for (const r of results) {
    const per = `${((r.producer.cpuS / r.chunks) * 1000).toFixed(1)} / ${((r.workers / r.chunks) * 1000).toFixed(1)}`;
    const ratio = `${((r.producer.cpuS / r.workers) * 100).toFixed(1)} %`;
    w(`| ${r.mode} | ${r.chunks} | ${r.producer.cpuS.toFixed(2)} | ${r.workers.toFixed(2)} | ${per} | ${ratio} |`);
    w(` ${(r.workers / r.producer.cpuS).toFixed(1)} | ${r.producer.wallS.toFixed(1)} | ${Math.round(r.producer.rssMiB)} |\n`);
  }
  for (const r of results.filter((x) => x.buckets)) {
    const { cpu, seconds } = r.buckets;
    const sampled = [...seconds.values()].reduce((a, x) => a + x, 0);
    w(`\n${r.mode}: the producer's CPU by bucket (perf cpu-clock samples; that run: ${cpu.toFixed(2)} CPU-s under perf, `);
    w(`${sampled.toFixed(2)} s sampled; rows of one thousandth of the total left out)\n| bucket | CPU (s) | share |\n|---|---:|---:|\n`);
    for (const [name, s] of [...seconds].sort((x, y) => y[1] - x[1])) {
      if (s >= sampled / 1000) w(`| ${name} | ${s.toFixed(2)} | ${((100 * s) / sampled).toFixed(1)} % |\n`);
    }
  }
  for (const r of results.filter((x) => x.identical)) {
    const ok = Object.entries(r.identical)
      .map(([k, v]) => `${k} ${v ? "identical" : "DIFFER"}`)
      .join(", ");
    w(`${r.mode}: against a local run (${r.local.cpuS.toFixed(2)} CPU-s): ${ok}\n`);
  }
} finally {
  redis.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
