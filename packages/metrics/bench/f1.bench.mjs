#!/usr/bin/env node
// Throughput of the DSPy answer metrics (`@evalkern/metrics/dspy`) on one thread: F1, HotPotF1 and EM,
// batch and per call, beside a plain-JS port of DSPy's f1_score measured in the same run.
//
//   pnpm bench                                  (= node bench/f1.bench.mjs; needs `pnpm build` first)
//   node bench/f1.bench.mjs [--count 100000] [--pairs file.jsonl] [--quick]
//
// Input: `node ../../testdata/corpus/make-pairs.mjs --seed 9 --count 100000 --no-edge`, generated once
// into the OS temp folder (or --pairs). Each task scores its rows once per iteration (tinybench, 2
// warm-up iterations so V8 has tiered the WASM up); the table reports pairs/s, ns/pair and MB/s (UTF-8
// bytes of hypothesis + all references).
import { cpus } from "node:os";
import { kernelSignature } from "@evalkern/core-wasm";
import { EM, EMBatch, F1, F1Batch, HotPotF1Batch, ready } from "@evalkern/metrics/dspy";
import { benchArgs, loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";
import { Bench } from "tinybench";

const { count, quick, pairs } = benchArgs();
const { file: pairsFile, rows } = loadBenchPairs({ count, pairs });
const hyps = rows.map((r) => r.hyp);
const refs = rows.map((r) => r.refs);
const enc = new TextEncoder();
const bytesAll = rows.reduce((a, r) => a + enc.encode(r.hyp).length + r.refs.reduce((b, x) => b + enc.encode(x).length, 0), 0);

await ready();

// --- plain-JS port of DSPy's normalize_text / f1_score, for comparison only (not shipped) ---------
// Uses the engine's NFD/toLowerCase and a JS emulation of Python's Unicode \b; matches DSPy on this corpus.
const PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu;
const PY_WS = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
function normalizeJs(s) {
  return s.normalize("NFD").toLowerCase().replace(PUNCT, "").replace(ARTICLES, " ").split(PY_WS).filter(Boolean);
}
function f1Js(prediction, answers) {
  const p = normalizeJs(prediction);
  let best = 0;
  for (const answer of answers) {
    const g = normalizeJs(answer);
    const counts = new Map();
    for (const t of p) counts.set(t, (counts.get(t) ?? 0) + 1);
    let same = 0;
    for (const t of g) {
      const c = counts.get(t);
      if (c) {
        counts.set(t, c - 1);
        same++;
      }
    }
    if (same === 0) continue;
    const precision = same / p.length;
    const recall = same / g.length;
    const f1 = (2 * precision * recall) / (precision + recall);
    if (f1 > best) best = f1;
  }
  return best;
}
// a quick sanity check that the comparison row computes the same thing
for (let i = 0; i < 2000; i++) {
  const a = f1Js(hyps[i], refs[i]);
  const b = F1(hyps[i], refs[i]);
  if (a !== b) throw new Error(`plain-JS comparison row disagrees with DSPy F1 on pair ${i}: ${a} vs ${b}`);
}

const SINGLE = Math.min(rows.length, 20000); // per-call rows: a slice, so an iteration stays short
const bytesSingle = bytesAll * (SINGLE / rows.length);
const tasks = [
  // [name, pairs, bytes, fn]
  ["F1Batch (all refs)", rows.length, bytesAll, () => F1Batch(hyps, refs)],
  ["HotPotF1Batch (all refs)", rows.length, bytesAll, () => HotPotF1Batch(hyps, refs)],
  ["EMBatch (all refs)", rows.length, bytesAll, () => EMBatch(hyps, refs)],
  [
    "F1 per call",
    SINGLE,
    bytesSingle,
    () => {
      for (let i = 0; i < SINGLE; i++) F1(hyps[i], refs[i]);
    },
  ],
  [
    "EM per call",
    SINGLE,
    bytesSingle,
    () => {
      for (let i = 0; i < SINGLE; i++) EM(hyps[i], refs[i]);
    },
  ],
  [
    "plain-JS DSPy f1 (engine NFD + regexes)",
    SINGLE,
    bytesSingle,
    () => {
      for (let i = 0; i < SINGLE; i++) f1Js(hyps[i], refs[i]);
    },
  ],
];

// CPU time of this process per task (user + system), beside tinybench's wall-clock figures: on a shared
// machine the wall clock also counts time the scheduler gave to other processes.
const cpuUsage = typeof process !== "undefined" && typeof process.cpuUsage === "function" ? () => process.cpuUsage() : undefined;
const cpuSeconds = tasks.map(() => ({ seconds: 0, runs: 0 }));
const bench = new Bench({ iterations: quick ? 1 : 5, warmupIterations: quick ? 1 : 2, time: 0, warmupTime: 0, throws: true });
tasks.forEach(([name, , , fn], i) =>
  bench.add(name, () => {
    const before = cpuUsage?.();
    fn();
    if (before) {
      const d = process.cpuUsage(before);
      cpuSeconds[i].seconds += (d.user + d.system) / 1e6;
      cpuSeconds[i].runs++;
    }
  }),
);
await bench.run();

const runtime =
  typeof Deno !== "undefined" ? `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})` : `Node ${process.version} (V8 ${process.versions.v8})`;
console.log(
  `\n${rows.length} pairs (${(bytesAll / 1e6).toFixed(1)} MB with all references, ` +
    `${(refs.reduce((a, r) => a + r.length, 0) / rows.length).toFixed(2)}` +
    ` refs/pair) from ${pairsFile}`,
);
console.log(`${runtime}, one thread, ${cpus()[0]?.model ?? "unknown CPU"}; ${kernelSignature()}\n`);
console.log("| implementation | pairs/s | ns/pair | MB/s | pairs per CPU-second |");
console.log("|---|---:|---:|---:|---:|");
for (let i = 0; i < tasks.length; i++) {
  const [name, pairs, bytes] = tasks[i];
  const r = bench.tasks[i].result;
  const mean = (r.latency?.mean ?? r.mean) / 1000; // seconds per iteration
  const cpu = cpuSeconds[i].runs > 0 ? Math.round((pairs * cpuSeconds[i].runs) / cpuSeconds[i].seconds).toLocaleString("en-US") : "n/a";
  console.log(
    `| ${name} | ${Math.round(pairs / mean).toLocaleString("en-US")} | ${((mean / pairs) * 1e9).toFixed(0)} ` +
      `| ${(bytes / mean / 1e6).toFixed(1)} | ${cpu} |`,
  );
}
