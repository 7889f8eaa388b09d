#!/usr/bin/env node
// Issue 23, target 2: the CPU of a corpus BLEU + chrF + TER run against sacreBLEU's own CLI on the same lines.
//
//   EVALKERN_BENCH_PYTHONPATH=/path/to/sacrebleu-source node bench/sacrebleu.bench.mjs [--lines 100000]
//
// Writes the first N pairs of `make-pairs.mjs --seed 9 --no-edge` as hyp.txt / ref.txt (reference 0 of each
// pair) and as pairs.jsonl (the same texts), then runs each command once in a child under
// `/usr/bin/time -f '%e %U %S %M'` (wall, user, system CPU seconds, peak RSS in KiB):
//
//   python3 -m sacrebleu ref.txt -i hyp.txt -m bleu chrf ter -w 4             (sacreBLEU's CLI)
//   evalkern score pairs.jsonl --metric bleu --metric chrf --metric ter --no-ci -o out.jsonl
//   evalkern sacrebleu ref.txt -i hyp.txt -m bleu chrf ter -w 4               (our sacreBLEU-compatible command)
//
// `-w 4` only widens the printed scores so they can be compared. sacreBLEU is not a dependency: python3
// finds it on its PYTHONPATH (EVALKERN_BENCH_PYTHONPATH in front); without it the benchmark prints
// "reference not available: <why>" and still times our two commands. Texts are put on one line each the
// way both sides then read them: line breaks and the other characters Python splits lines at become
// spaces, and trailing whitespace is dropped (sacreBLEU's CLI `rstrip`s every line).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";
import { timeCommand } from "../../../scripts/dev/bench-time.mjs";

const args = process.argv.slice(2);
const lines = Number(args.includes("--lines") ? args[args.indexOf("--lines") + 1] : "100000");
if (!Number.isSafeInteger(lines) || lines < 1) throw new Error("--lines must be a positive integer");
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "dist/bin.js");
if (!existsSync(bin))
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")]);
if (!existsSync("/usr/bin/time")) throw new Error("this benchmark needs GNU time at /usr/bin/time");

const { rows } = loadBenchPairs({ count: lines });
const oneLine = (s) => s.replace(/[\r\n\v\f\x1c-\x1f\x85\u2028\u2029]/g, " ").trimEnd();
const dir = mkdtempSync(join(tmpdir(), "evalkern-sacrebleu-bench-"));
const hyps = rows.map((r) => oneLine(r.hyp));
const refs = rows.map((r) => oneLine(r.refs[0]));
writeFileSync(join(dir, "hyp.txt"), `${hyps.join("\n")}\n`);
writeFileSync(join(dir, "ref.txt"), `${refs.join("\n")}\n`);
writeFileSync(join(dir, "pairs.jsonl"), `${hyps.map((h, i) => JSON.stringify({ hyp: h, refs: [refs[i]] })).join("\n")}\n`);

const pythonEnv = () => {
  const extra = process.env.EVALKERN_BENCH_PYTHONPATH;
  if (!extra) return process.env;
  return { ...process.env, PYTHONPATH: process.env.PYTHONPATH ? `${extra}:${process.env.PYTHONPATH}` : extra };
};

/** Runs one command under /usr/bin/time; its figures and stdout, or the tail of its stderr when it failed. */
function timed(cmd, cmdArgs, env = process.env) {
  const r = timeCommand([cmd, ...cmdArgs], { cwd: dir, env });
  if (r.status !== 0) return { error: r.stderr.trim().split("\n").slice(-3).join(" / ") };
  return r;
}
/** Corpus scores from a sacreBLEU-style JSON list on stdout. */
const jsonScores = (stdout) => Object.fromEntries(JSON.parse(stdout).map((s) => [s.name.replace(/^chrF2$/, "chrF"), s.score]));

const sb = ["ref.txt", "-i", "hyp.txt", "-m", "bleu", "chrf", "ter", "-w", "4"];
const probe = spawnSync("python3", ["-c", "import sacrebleu; print(sacrebleu.__version__)"], { env: pythonEnv(), encoding: "utf8" });
const py = probe.status === 0 ? timed("python3", ["-m", "sacrebleu", ...sb], pythonEnv()) : undefined;
const pyWhy = probe.status !== 0 ? (probe.stderr || probe.error?.message || "").trim().split("\n").pop() : py?.error;
const ours = timed(process.execPath, [
  bin,
  "score",
  "pairs.jsonl",
  "--metric",
  "bleu",
  "--metric",
  "chrf",
  "--metric",
  "ter",
  "--no-ci",
  "-o",
  "out.jsonl",
]);
const oursSb = timed(process.execPath, [bin, "sacrebleu", ...sb]);
if (ours.error || oursSb.error) throw new Error(`evalkern failed: ${ours.error ?? oursSb.error}`);
const run = JSON.parse(readFileSync(join(dir, "out.jsonl.evalkern", "run.json"), "utf8"));
const scoreOf = (key) => run.metrics.find((m) => m.key === key || m.name === key)?.corpus?.[key];
const oursScores = { BLEU: scoreOf("bleu"), chrF: scoreOf("chrf"), TER: scoreOf("ter") };
const sbScores = jsonScores(oursSb.stdout);

// The kernels alone on the same texts (this process, CPU time): what the rest of a run costs beside them.
const k = await import("../../core-wasm/dist/index.js");
await k.ready();
const refLists = refs.map((r) => [r]);
const c0 = process.cpuUsage();
for (let i = 0; i < hyps.length; i += 10000) {
  const h = hyps.slice(i, i + 10000);
  const r = refLists.slice(i, i + 10000);
  k.bleuStatisticsBatch(h, r);
  k.chrfStatisticsBatch(h, r);
  k.terStatisticsBatch(h, r);
}
const c1 = process.cpuUsage(c0);
const kernelCpu = (c1.user + c1.system) / 1e6;

const fmt = (x, d = 1) => x.toFixed(d);
console.log(`\n${lines.toLocaleString("en-US")} lines (make-pairs --seed 9 --no-edge, reference 0), files in ${dir}`);
console.log(`Node ${process.version}; each command once, /usr/bin/time (CPU = user + system of the child and its threads)\n`);
console.log("| command | CPU s | wall s | peak RSS MiB | BLEU | chrF | TER |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
const line = (name, r, s) =>
  console.log(`| ${name} | ${fmt(r.cpuS, 2)} | ${fmt(r.wallS, 2)} | ${fmt(r.rssMiB, 0)} | ${s.BLEU} | ${s.chrF} | ${s.TER} |`);
const pyScores = py && !py.error ? jsonScores(py.stdout) : undefined;
if (pyScores) line(`sacreBLEU CLI (\`python3 -m sacrebleu ${sb.join(" ")}\`)`, py, pyScores);
const round4 = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 1e4) / 1e4]));
line("`evalkern score pairs.jsonl --metric bleu --metric chrf --metric ter --no-ci`", ours, round4(oursScores));
line(`\`evalkern sacrebleu ${sb.join(" ")}\``, oursSb, sbScores);
console.log(
  `\nkernels alone (bleu/chrf/terStatisticsBatch per 10,000 lines, one thread, this process): ${fmt(kernelCpu, 2)} CPU s; ` +
    `evalkern score --no-ci is ${fmt(ours.cpuS / kernelCpu, 2)}× that, evalkern sacrebleu ${fmt(oursSb.cpuS / kernelCpu, 2)}×`,
);
if (!pyScores) console.log(`sacreBLEU: reference not available: ${pyWhy || "python3 -m sacrebleu failed"}`);
else {
  const agree = (s) => ["BLEU", "chrF", "TER"].every((k) => Math.abs(s[k] - pyScores[k]) < 5e-5);
  for (const [name, r, s] of [
    ["evalkern score --no-ci", ours, round4(oursScores)],
    ["evalkern sacrebleu", oursSb, sbScores],
  ]) {
    const x = py.cpuS / r.cpuS;
    console.log(
      `${name}: ${fmt(x)}× less CPU than sacreBLEU's CLI (target ≥ 30×: ${x >= 30 ? "PASS" : "MISS"}), ` +
        `${fmt(py.rssMiB / r.rssMiB)}× less peak RSS, corpus scores ${agree(s) ? "the same (4 decimals)" : "DIFFERENT"}`,
    );
  }
}
rmSync(dir, { recursive: true, force: true });
