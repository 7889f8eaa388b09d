#!/usr/bin/env node
// Where the CPU of `evalkern score` goes besides the kernels (a profile, not a test): the command of
// bench/score.bench.mjs run once under `/usr/bin/time` (its CPU: user + sys of the process and its worker
// threads) and once with `--cpu-prof` (V8's profiles of the main thread and every worker). Each sample is
// put in the bucket of the deepest frame of its stack that names one (JSON parse, UTF-8 decode, output
// rows, transfers, file writes, bootstrap …), and the buckets are scaled to the measured CPU: the profiler
// samples wall time, so on a loaded machine a thread waiting for a core inflates what it was doing, and
// only the buckets' shares are kept.
//
//   node bench/score-profile.mjs --count 200000 [--no-ci] [--workers 2] [--bin other/packages/cli/dist/bin.js]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchPairsFile } from "../../../scripts/dev/bench-pairs.mjs";
import { timeCommand } from "../../../scripts/dev/bench-time.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const bin = opt("bin") ?? fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const input = benchPairsFile({ count: Number(opt("count", "200000")), pairs: opt("pairs") });

/** Bucket of a function name (the deepest frame that matches one wins). */
const RULES = [
  [/^(layout|writeUtf8)$/, "string encoding into WASM"],
  [/^(bleuScoresFromStatisticsBatch|chrfScoresFromStatisticsBatch|rowValues|runNumericKernel)$/, "row values (scores from statistics)"],
  [
    /^(bleuStatisticsBatch|chrfStatisticsBatch|rougeBatch|tokenF1Batch|runPairKernel|runShared|sameBatch|chunks)$/,
    "kernels (WASM + JS wrappers)",
  ],
  [/^(decodeChunk|decode|decodeUTF8)$/, "UTF-8 decode"],
  [/^(jsonlRecords|csvRecords|parseCsv)$/, "JSON parse, record split"],
  [/^(extractPairs|extractPair)$/, "field extraction"],
  [
    /^(jsonRows|csvRows|rowFields|errorRow|outputRows|scoreLines|spliceObject|spliceObjectBytes|ascii|bytes|byte|text|room|encode)$/,
    "output rows",
  ],
  [/^(statisticsRows|sumPairs|sequentialValues|fsumAdd)$/, "statistics rows, exact sums (worker)"],
  [/^(scoreRecords|scoreChunk)$/, "worker: rest of scoreChunk"],
  [/^(postMessage|transferable|move|onMessage|postTask|processResponse|memoryUsage)$/, "thread messaging, transfers"],
  [
    /^(append|absorb|commitChunk|writeCheckpoint|writeAt|writeSync|fsync|writeBuffer)$/,
    "commit: output + statistics writes, tally, checkpoints",
  ],
  [/^(update|digest|copy)$/, "hashing (input, output, statistics)"],
  [/^(push|readBlocks)$/, "reading, cutting"],
  [/bootstrap|resample/i, "bootstrap CIs"],
];
const WAIT = "(idle, waiting)";

function buckets(dir) {
  const out = new Map();
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".cpuprofile"))) {
    const p = JSON.parse(readFileSync(join(dir, f), "utf8"));
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const stack = (id) => {
      const frames = [];
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) frames.push(nodes.get(cur).callFrame);
      return frames;
    };
    const bucketOf = (id) => {
      const frames = stack(id);
      const leaf = frames[0];
      if (["(idle)", "(program)", "atomicsWaitLoop"].includes(leaf.functionName)) return WAIT;
      if (leaf.functionName === "(garbage collector)") return "GC";
      for (const fr of frames) {
        if (fr.functionName === "atomicsWaitLoop") return WAIT;
        if (leaf.url.startsWith("wasm") && /bootstrap|resample/i.test(fr.functionName)) return "bootstrap CIs";
        for (const [re, name] of RULES) if (re.test(fr.functionName)) return name;
      }
      if (leaf.url.startsWith("wasm")) return "kernels (WASM + JS wrappers)";
      return frames.some((fr) => /node:internal\/(modules|bootstrap|main)/.test(fr.url)) ? "startup (module loading, compiling)" : "other";
    };
    const cache = new Map();
    p.samples.forEach((id, i) => {
      if (!cache.has(id)) cache.set(id, bucketOf(id));
      const b = cache.get(id);
      out.set(b, (out.get(b) ?? 0) + (p.timeDeltas[i] ?? 0));
    });
  }
  out.delete(WAIT);
  return out;
}

const argv = [bin, "score", input, ..."bleu chrf rouge f1".split(" ").flatMap((m) => ["--metric", m]), "--no-progress"];
if (args.includes("--no-ci")) argv.push("--no-ci");
if (opt("workers")) argv.push("--workers", opt("workers"));
const dir = mkdtempSync(join(tmpdir(), "evalkern-profile-"));
try {
  const run = (pre) => {
    rmSync(join(dir, "out.jsonl.evalkern"), { recursive: true, force: true });
    const r = timeCommand([process.execPath, ...pre, ...argv, "-o", join(dir, "out.jsonl")]);
    if (r.status !== 0) throw new Error(`${argv.join(" ")} failed (${r.status}):\n${r.stderr.slice(-2000)}`);
    return r.cpuS;
  };
  const cpuS = run([]);
  run(["--cpu-prof", `--cpu-prof-dir=${join(dir, "prof")}`]);
  const b = buckets(join(dir, "prof"));
  const sampled = [...b.values()].reduce((a, x) => a + x, 0);
  console.log(`node ${argv.join(" ")} -o out.jsonl\nCPU ${cpuS.toFixed(2)} s (user + sys, /usr/bin/time), split by the profile's shares\n`);
  console.log("| bucket | CPU (s) | share |\n|---|---:|---:|");
  for (const [name, us] of [...b].sort((x, y) => y[1] - x[1])) {
    console.log(`| ${name} | ${((cpuS * us) / sampled).toFixed(2)} | ${((100 * us) / sampled).toFixed(1)} % |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
