#!/usr/bin/env node
// End-to-end benchmark of `evalkern score` (not a test): N pairs of the corpus generator
// (`testdata/corpus/make-pairs.mjs --seed 9 --count N --no-edge`) scored with --metric bleu --metric chrf --metric rouge
// --metric f1, once with its defaults (bootstrap CIs on) and once with --no-ci, each in a fresh child
// process measured by /usr/bin/time (CPU = user + sys of the process and its worker threads, wall,
// peak RSS); beside a kernels-only pass over the same rows (the four core-wasm batch kernels called
// back to back on pre-parsed rows, CPU of the kernel calls only). The ratios are the issue's targets:
// CPU ≤ 2× kernels-only with CIs, ≤ 1.5× with --no-ci.
//
//   node bench/score-cli.bench.mjs                      # 100k pairs
//   node bench/score-cli.bench.mjs --count 1000000      # the issue's size
//   node bench/score-cli.bench.mjs --workers 2 --repeat 2
//   node bench/score-cli.bench.mjs --bin /path/to/other/packages/cli/dist/bin.js
//
// Needs a build of the workspace (harness and cli dist/). Data goes to $TMPDIR/evalkern-bench (reused).
import { spawnSync } from "node:child_process";
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAKE_PAIRS } from "../../../testdata/index.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
// --bin: another checkout's CLI (e.g. to measure main beside this branch)
const BIN = opt("bin") ?? fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
const workers = opt("workers");
const METRIC_FLAGS = ["--metric", "bleu", "--metric", "chrf", "--metric", "rouge", "--metric", "f1"];

if (args.includes("--kernels")) {
  // kernels-only: the same four kernels with the CLI's default options, over pre-parsed rows
  const k = await import("@evalkern/core-wasm");
  await k.ready();
  // stream the rows in batches of 1024 (memory stays small at 1M rows); only the kernel calls are timed
  const B = 1024;
  let cpuUs = 0;
  let wallMs = 0;
  let rows = 0;
  const run = (part) => {
    const h = part.map((r) => r.hyp);
    const r = part.map((r) => r.refs);
    const t0 = process.cpuUsage();
    const w0 = performance.now();
    k.bleuStatisticsBatch(h, r, {});
    k.chrfStatisticsBatch(h, r, {});
    k.rougeBatch(h, r, { types: [...k.DEFAULT_ROUGE_TYPES], useStemmer: false });
    k.tokenF1Batch(h, r, {});
    const u = process.cpuUsage(t0);
    cpuUs += u.user + u.system;
    wallMs += performance.now() - w0;
    rows += part.length;
  };
  let part = [];
  const lines = createInterface({ input: createReadStream(opt("input")), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    part.push(JSON.parse(line));
    if (part.length === B) run(part), (part = []);
  }
  if (part.length) run(part);
  const u = { user: cpuUs, system: 0 };
  process.stdout.write(JSON.stringify({ cpuS: (u.user + u.system) / 1e6, wallS: wallMs / 1000, rows }) + "\n");
  process.exit(0);
}

if (args.includes("--ci-only")) {
  // the bootstrap alone (1000 resamples, seed 12345) over a scored run's statistics
  const { bootstrapCi } = await import("../dist/index.js");
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const ci = await bootstrapCi(opt("summary"), workers ? { workers: Number(workers) } : {});
  const u = process.cpuUsage(c0);
  process.stdout.write(
    JSON.stringify({ cpuS: (u.user + u.system) / 1e6, wallS: (performance.now() - w0) / 1000, bleu: ci.bleu?.bleu }) + "\n",
  );
  process.exit(0);
}

const count = Number(opt("count", "100000"));
const repeat = Number(opt("repeat", "1"));
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

/** Run a command under /usr/bin/time: CPU-s (user + sys, children included), wall-s, peak RSS MB. */
function timed(argv) {
  const r = spawnSync("/usr/bin/time", ["-f", "__time %e %U %S %M", ...argv], { encoding: "utf8", maxBuffer: 1 << 28 });
  const m = /__time ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(" ")} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
  return { wallS: Number(m[1]), cpuS: Number(m[2]) + Number(m[3]), peakRssMb: Number(m[4]) / 1024, stdout: r.stdout };
}

/** The corpus table of the CLI's summary (header to the first blank line after it). */
function corpusTable(stdout) {
  const lines = stdout.split("\n");
  const start = lines.findIndex((l) => /^metric\s/.test(l));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === "");
  return lines.slice(start, end < 0 ? undefined : end);
}

const out = join(dir, `score-bench-${count}.jsonl`);
const runs = [];
for (let rep = 0; rep < repeat; rep++) {
  const kernels = JSON.parse(timed([process.execPath, fileURLToPath(import.meta.url), "--kernels", "--input", input]).stdout);
  for (const ci of [true, false]) {
    rmSync(`${out}.evalkern`, { recursive: true, force: true });
    const argv = [
      process.execPath,
      BIN,
      "score",
      input,
      ...METRIC_FLAGS,
      "-o",
      out,
      "--no-progress",
      ...(ci ? [] : ["--no-ci"]),
      ...(workers ? ["--workers", workers] : []),
    ];
    const t = timed(argv);
    let bootstrapOnly;
    if (ci) {
      // the same CIs again from the run's statistics, alone: what the bootstrap costs by itself
      const side = `${out}.evalkern`;
      const summary = readdirSync(side).find((f) => f.endsWith(".summary.json"));
      if (summary)
        bootstrapOnly = JSON.parse(
          timed([
            process.execPath,
            fileURLToPath(import.meta.url),
            "--ci-only",
            "--summary",
            join(side, summary),
            ...(workers ? ["--workers", workers] : []),
          ]).stdout,
        );
    }
    runs.push({ ci, ...t, kernelsCpuS: kernels.cpuS, ratio: t.cpuS / kernels.cpuS, table: corpusTable(t.stdout), bootstrapOnly });
  }
}
rmSync(`${out}.evalkern`, { recursive: true, force: true });
rmSync(out, { force: true });

const load = loadavg()[0].toFixed(2);
console.log(
  `${BIN}\nevalkern score, ${count.toLocaleString("en-US")} pairs (seed 9, --no-edge), ` +
    `${METRIC_FLAGS.filter((x) => x !== "--metric").join(", ")}; workers ${workers ?? `default (${availableParallelism()})`}`,
);
console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load average ${load} at the end\n`);
console.log("| run | wall (s) | CPU (s) | kernels-only CPU (s) | CPU / kernels | peak RSS (MB) |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const r of runs) {
  console.log(
    `| ${r.ci ? "defaults (CIs on)" : "--no-ci"} | ${r.wallS.toFixed(1)} | ${r.cpuS.toFixed(1)} | ${r.kernelsCpuS.toFixed(1)} | ` +
      `${r.ratio.toFixed(2)}× | ${r.peakRssMb.toFixed(0)} |`,
  );
}
const withCi = runs.filter((r) => r.ci);
const noCi = runs.filter((r) => !r.ci);
if (withCi.length && noCi.length) {
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `\nbootstrap CIs cost ≈ ${(mean(withCi.map((r) => r.cpuS)) - mean(noCi.map((r) => r.cpuS))).toFixed(1)} CPU-s (CIs on − --no-ci)`,
  );
}
for (const r of withCi) {
  if (r.bootstrapOnly)
    console.log(
      `bootstrapCi alone on the run's statistics: ${r.bootstrapOnly.cpuS.toFixed(1)} CPU-s, ${r.bootstrapOnly.wallS.toFixed(1)} s ` +
        `wall (in-process CPU, workers included)`,
    );
}
console.log(`\n${withCi[0]?.table.join("\n") ?? ""}`);
