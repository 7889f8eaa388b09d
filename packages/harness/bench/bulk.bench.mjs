#!/usr/bin/env node
// Bulk scoring benchmark (not a test): 1M pairs from the corpus generator (testdata/corpus) scored with BLEU,
// chrF, ROUGE-L and token F1 by scoreFile, with 1 worker and with N workers, each run in a fresh
// process so its peak RSS (main thread + workers, one process) is its own. A 100k-row run shows that
// memory is bounded by the window, not by the file.
//
//   node bench/bulk.bench.mjs                 # 1M pairs, workers 1 and availableParallelism()
//   node bench/bulk.bench.mjs --count 200000  # smaller
//   node bench/bulk.bench.mjs --workers 1,2,4 --repeat 2
//
// Needs a build (`npx tsc -p tsconfig.build.json`). Pairs from scripts/dev/bench-pairs.mjs (made once in $TMPDIR);
// outputs in $TMPDIR/evalkern-bench.
import { spawnSync } from "node:child_process";
import { mkdirSync, statSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchPairsFile } from "../../../scripts/dev/bench-pairs.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const METRICS = ["bleu", "chrf", "rougeL", "tokenF1"];

if (args.includes("--child")) {
  // one measured run
  const { scoreFile } = await import("../dist/index.js");
  const t0 = performance.now();
  const summary = await scoreFile({
    input: opt("input"),
    output: opt("output"),
    metrics: METRICS,
    fields: { id: "id" },
    workers: Number(opt("workers")),
  });
  const wallMs = performance.now() - t0;
  process.stdout.write(
    JSON.stringify({
      wallMs,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      rows: summary.rows.scored,
      scores: Object.fromEntries(Object.entries(summary.metrics).map(([k, v]) => [k, Object.values(v.scores)[0]])),
    }) + "\n",
  );
  process.exit(0);
}

const count = Number(opt("count", "1000000"));
const workersList = (opt("workers", `1,${availableParallelism()}`) ?? "").split(",").map(Number);
const repeat = Number(opt("repeat", "1"));
const dir = join(tmpdir(), "evalkern-bench");
mkdirSync(dir, { recursive: true });

const pairs = (n) => benchPairsFile({ count: n });

function run(input, workers) {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(
    process.execPath,
    [self, "--child", "--input", input, "--output", join(dir, `out-${workers}.jsonl`), "--workers", String(workers)],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

const input = pairs(count);
const small = count > 100_000 ? pairs(100_000) : undefined;
const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(
  `# bulk scoring: ${count.toLocaleString("en")} pairs (${(statSync(input).size / 1e6).toFixed(0)} MB), metrics ${METRICS.join(", ")}`,
);
console.log(
  `# node ${process.version}, ${availableParallelism()} cores (${cpu}), load average before: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
console.log("");
console.log("| workers | rows | wall (s) | rows/s | peak RSS (MB) | speed-up |");
console.log("|---:|---:|---:|---:|---:|---:|");
let base;
for (const w of workersList) {
  let best;
  for (let k = 0; k < repeat; k++) {
    const r = run(input, w);
    if (!best || r.wallMs < best.wallMs) best = r;
  }
  base ??= best.wallMs;
  console.log(
    `| ${w} | ${best.rows.toLocaleString("en")} | ${(best.wallMs / 1000).toFixed(1)} | ` +
      `${Math.round(best.rows / (best.wallMs / 1000)).toLocaleString("en")} | ${best.maxRssMb.toFixed(0)} | ` +
      `${(base / best.wallMs).toFixed(2)}× |`,
  );
  if (w === workersList[workersList.length - 1]) console.log(`\ncorpus: ${JSON.stringify(best.scores)}`);
}
if (small) {
  const w = workersList[workersList.length - 1];
  const r = run(small, w);
  console.log(
    `\nmemory bound by the window: 100,000 rows with ${w} workers → peak RSS ${r.maxRssMb.toFixed(0)} MB ` +
      `(${(r.wallMs / 1000).toFixed(1)} s)`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
