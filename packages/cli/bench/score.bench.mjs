#!/usr/bin/env node
// The main job of `evalkern score`, measured as a user meets it (a benchmark, not a test): N pairs of the
// corpus generator (`testdata/corpus/make-pairs.mjs --seed 9 --count N --no-edge`) scored with
// `--metric bleu --metric chrf --metric rouge --metric f1`, with CIs (the default) and with `--no-ci`, each
// in a fresh child process measured by `/usr/bin/time` (CPU = user + sys of the process and its worker
// threads, wall, peak RSS). The denominator is the four batch kernels alone: the rows read and parsed
// beforehand (untimed), then on one thread, per 10,000-row batch, `bleuStatisticsBatch`,
// `chrfStatisticsBatch`, `rougeBatch` (rouge1, rouge2, rougeL, rougeLsum) and `tokenF1Batch`, with
// `process.cpuUsage()` around the loop. The targets (issue 23): CPU ≤ 2.0× kernels with CIs, ≤ 1.5× with
// `--no-ci`, wall ≤ 15 s at 1M rows on 2 cores, peak RSS ≤ 512 MiB.
//
//   node bench/score.bench.mjs                                  # 1,000,000 pairs
//   node bench/score.bench.mjs --count 200000                   # while working on a shared machine
//   node bench/score.bench.mjs --bin /other/checkout/packages/cli/dist/bin.js   # two builds in one run
//   node bench/score.bench.mjs --workers 2 --report             # also time `evalkern report` on the output
//
// Needs the workspace built (cli and its dependencies' dist/). The corpus is made once into $TMPDIR by
// scripts/dev/bench-pairs.mjs (as the other benchmarks' corpus), or given with --pairs file.
import { closeSync, mkdirSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchPairsFile, loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";
import { timeCommand } from "../../../scripts/dev/bench-time.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const BATCH = 10_000;
const ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"];
const TARGETS = { ci: 2.0, noCi: 1.5, wallS: 15, rssMiB: 512 };

if (args.includes("--kernels")) {
  // the denominator, in a child of its own: parse everything first (untimed), then time the kernel loop
  const k = await import("@evalkern/core-wasm");
  await k.ready();
  const { rows } = loadBenchPairs({ pairs: opt("input") });
  const batches = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    batches.push([part.map((r) => r.hyp), part.map((r) => r.refs)]);
  }
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  for (const [h, r] of batches) {
    k.bleuStatisticsBatch(h, r);
    k.chrfStatisticsBatch(h, r);
    k.rougeBatch(h, r, { types: ROUGE_TYPES });
    k.tokenF1Batch(h, r);
  }
  const u = process.cpuUsage(c0);
  process.stdout.write(
    `${JSON.stringify({ cpuS: (u.user + u.system) / 1e6, wallS: (performance.now() - w0) / 1000, rows: rows.length })}\n`,
  );
  process.exit(0);
}

const count = Number(opt("count", "1000000"));
const workers = opt("workers");
const bins = [fileURLToPath(new URL("../dist/bin.js", import.meta.url)), ...(opt("bin") ? [opt("bin")] : [])];
const METRIC_FLAGS = ["--metric", "bleu", "--metric", "chrf", "--metric", "rouge", "--metric", "f1"];
const dir = join(tmpdir(), "evalkern-bench");
mkdirSync(dir, { recursive: true });

const input = benchPairsFile({ count, pairs: opt("pairs") });

/** Run a command under /usr/bin/time: CPU-s (user + sys, threads and children included), wall-s, peak RSS MiB. */
function timed(argv) {
  const r = timeCommand(argv);
  if (r.status !== 0) throw new Error(`${argv.join(" ")} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
  return r;
}

const kernels = JSON.parse(timed([process.execPath, fileURLToPath(import.meta.url), "--kernels", "--input", input]).stdout);
const out = join(dir, `score-bench-${process.pid}.jsonl`);
const clean = () => {
  rmSync(`${out}.evalkern`, { recursive: true, force: true });
  rmSync(out, { force: true });
};
// what a run costs whatever its size (starting Node and the workers, loading modules, compiling): the same
// command on the corpus's first 1,000 rows. (CPU − that) / kernels is the ratio a much larger run tends to.
const head = join(dir, `head1000-${process.pid}.jsonl`);
writeFileSync(head, firstLines(input, 1000));

/** The first `n` lines of a file (read in blocks: the corpus may be large). */
function firstLines(path, n) {
  const fd = openSync(path, "r");
  try {
    const block = Buffer.alloc(1 << 20);
    const parts = [];
    for (let pos = 0, lines = 0; ; ) {
      const got = readSync(fd, block, 0, block.length, pos);
      if (got === 0) break;
      let cut = -1;
      for (let i = 0; i < got && lines < n; i++) if (block[i] === 10 && ++lines === n) cut = i + 1;
      parts.push(Buffer.from(block.subarray(0, cut < 0 ? got : cut)));
      if (cut >= 0) break;
      pos += got;
    }
    return Buffer.concat(parts);
  } finally {
    closeSync(fd);
  }
}
const runs = [];
let lastCommand = "";
try {
  for (const bin of bins) {
    for (const ci of [true, false]) {
      const argvOf = (file) => {
        const argv = [process.execPath, bin, "score", file, ...METRIC_FLAGS, "-o", out, "--no-progress"];
        if (!ci) argv.push("--no-ci");
        if (workers) argv.push("--workers", workers);
        return argv;
      };
      clean();
      const fixed = timed(argvOf(head)).cpuS;
      clean();
      lastCommand = argvOf(input).slice(1).join(" ");
      runs.push({ bin, ci, fixedCpuS: fixed, ...timed(argvOf(input)) });
    }
    if (args.includes("--report")) {
      const r = timed([process.execPath, bin, "report", out, "-o", join(dir, `report-${process.pid}.html`)]);
      runs.push({ bin, report: true, ...r });
      rmSync(join(dir, `report-${process.pid}.html`), { force: true });
    }
  }
} finally {
  clean();
  rmSync(head, { force: true });
}

const mark = (ok) => (ok ? "PASS" : "MISS");
console.log(`command: node ${lastCommand.replace(out, "out.jsonl")}${bins.length > 1 ? " (per build)" : ""}`);
console.log(
  `corpus: ${opt("pairs") ?? `${count.toLocaleString("en-US")} pairs, make-pairs.mjs --seed 9 --count ${count} --no-edge`} ` +
    `(${(statSync(input).size / 1e6).toFixed(1)} MB); kernels-only: ${kernels.rows.toLocaleString("en-US")} rows in ` +
    `${BATCH.toLocaleString("en-US")}-row batches, bleu + chrf + rouge (${ROUGE_TYPES.join(", ")}) + token F1, one thread`,
);
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
const threads = workers ?? `default (${availableParallelism()})`;
console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, workers ${threads}, load average ${load}\n`);
console.log(
  "| build | run | wall (s) | CPU (s) | kernels CPU (s) | CPU / kernels | fixed CPU (s, 1k rows) | (CPU − fixed) / kernels " +
    "| peak RSS (MiB) | targets |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
for (const r of runs) {
  const build = bins.length > 1 ? r.bin : "this";
  if (r.report) {
    console.log(`| ${build} | report | ${r.wallS.toFixed(1)} | ${r.cpuS.toFixed(1)} | | | | | ${r.rssMiB.toFixed(0)} | |`);
    continue;
  }
  const ratio = r.cpuS / kernels.cpuS;
  const limit = r.ci ? TARGETS.ci : TARGETS.noCi;
  // the wall target is for 1M rows: scaled to the corpus size
  const wallLimit = (TARGETS.wallS * count) / 1e6;
  const verdict = [
    `ratio ≤ ${limit}× ${mark(ratio <= limit)}`,
    `wall ≤ ${wallLimit.toFixed(1)} s ${mark(r.wallS <= wallLimit)}`,
    `RSS ≤ ${TARGETS.rssMiB} MiB ${mark(r.rssMiB <= TARGETS.rssMiB)}`,
  ].join(", ");
  console.log(
    `| ${build} | ${r.ci ? "CIs (default)" : "--no-ci"} | ${r.wallS.toFixed(1)} | ${r.cpuS.toFixed(1)} | ${kernels.cpuS.toFixed(1)} | ` +
      `${ratio.toFixed(2)}× | ${r.fixedCpuS.toFixed(2)} | ${((r.cpuS - r.fixedCpuS) / kernels.cpuS).toFixed(2)}× | ` +
      `${r.rssMiB.toFixed(0)} | ${verdict} |`,
  );
}
const table = runs.find((r) => r.ci)?.stdout ?? "";
console.log(`\n${table.trimEnd()}`);
