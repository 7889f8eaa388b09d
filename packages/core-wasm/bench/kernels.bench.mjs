#!/usr/bin/env node
// Throughput of every kernel on one thread, beside existing JS implementations measured in the same run.
//
//   node bench/kernels.bench.mjs [--count 100000] [--pairs file.jsonl] [--quick]
//   deno run -A bench/kernels.bench.mjs          (same script, as-is)
//
// Input: `node ../../../shared/corpus/make-pairs.mjs --seed 9 --count 100000 --no-edge` (generated
// once into the OS temp folder by scripts/dev/bench-pairs.mjs), or --pairs. Each task scores the whole input once per iteration
// (tinybench, 2 warm-up iterations so V8 has tiered the WASM up), and the table reports pairs/s and
// MB/s (UTF-8 bytes of hypothesis + references), plus the relative speed within each metric family.
import { createRequire } from "node:module";
import { Bench } from "tinybench";
import * as k from "@evalkern/core-wasm";
import { benchArgs, loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";

const require = createRequire(import.meta.url);
const { count, quick, pairs } = benchArgs();
const { file: pairsFile, rows } = loadBenchPairs({ count, pairs });
const hyps = rows.map((r) => r.hyp);
const refs = rows.map((r) => r.refs);
const ref0 = rows.map((r) => r.refs[0]);
const enc = new TextEncoder();
const bytesAll = rows.reduce((a, r) => a + enc.encode(r.hyp).length + r.refs.reduce((b, x) => b + enc.encode(x).length, 0), 0);
const bytesFirst = rows.reduce((a, r) => a + enc.encode(r.hyp).length + enc.encode(r.refs[0]).length, 0);

await k.ready();
const { bleu: bleuScoreJs } = require("bleu-score");
const jsRouge = await import("js-rouge");

const SINGLE = Math.min(rows.length, 20000); // per-call API rows: a slice, so an iteration stays short
// The pure-JS peers are 20–300× slower: they score the first PEER pairs (pairs/s is per pair either way).
const PEER = Math.min(rows.length, 5000);
const peerBytesFirst = rows.slice(0, PEER).reduce((a, r) => a + enc.encode(r.hyp).length + enc.encode(r.refs[0]).length, 0);
const tasks = [
  // [family, name, pairs, bytes, fn]
  ["BLEU", "evalkern sentenceBleuBatch (13a, all refs)", rows.length, bytesAll, () => k.sentenceBleuBatch(hyps, refs)],
  ["BLEU", "evalkern sentenceBleu per call (13a, all refs)", SINGLE, bytesAll * (SINGLE / rows.length), () => {
    for (let i = 0; i < SINGLE; i++) k.sentenceBleu(hyps[i], refs[i]);
  }],
  ["BLEU", "evalkern sentenceBleuBatch (intl)", rows.length, bytesAll, () => k.sentenceBleuBatch(hyps, refs, { tokenize: "intl" })],
  ["BLEU", "evalkern sentenceBleuBatch (zh)", rows.length, bytesAll, () => k.sentenceBleuBatch(hyps, refs, { tokenize: "zh" })],
  ["BLEU", "bleu-score 1.0.4 bleu(ref0, hyp, 4)", PEER, peerBytesFirst, () => {
    for (let i = 0; i < PEER; i++) bleuScoreJs(ref0[i], hyps[i], 4);
  }],
  ["chrF", "evalkern sentenceChrfBatch (chrF)", rows.length, bytesAll, () => k.sentenceChrfBatch(hyps, refs)],
  ["chrF", "evalkern sentenceChrfBatch (chrF++)", rows.length, bytesAll, () => k.sentenceChrfBatch(hyps, refs, { wordOrder: 2 })],
  ["ROUGE", "evalkern rougeBatch (1, 2, L; all refs)", rows.length, bytesAll, () => k.rougeBatch(hyps, refs, { types: ["rouge1", "rouge2", "rougeL"] })],
  ["ROUGE", "evalkern rougeBatch (1, 2, L; ref0)", rows.length, bytesFirst, () => k.rougeBatch(hyps, ref0, { types: ["rouge1", "rouge2", "rougeL"] })],
  ["ROUGE", "evalkern rougeBatch (1, 2, L; ref0; stemmer)", rows.length, bytesFirst, () => k.rougeBatch(hyps, ref0, { types: ["rouge1", "rouge2", "rougeL"], useStemmer: true })],
  ["ROUGE", "js-rouge 3.2.3 n(1) + n(2) + l (ref0)", PEER, peerBytesFirst, () => {
    for (let i = 0; i < PEER; i++) {
      // js-rouge throws on blank input and on texts shorter than n; those pairs still cost the attempt
      try {
        jsRouge.n(hyps[i], ref0[i], { n: 1 });
        jsRouge.n(hyps[i], ref0[i], { n: 2 });
        jsRouge.l(hyps[i], ref0[i]);
      } catch {}
    }
  }],
  ["text", "evalkern normalizeTextBatch (hyps)", rows.length, rows.reduce((a, r) => a + enc.encode(r.hyp).length, 0), () => k.normalizeTextBatch(hyps)],
  ["text", "evalkern tokenF1Batch (DSPy F1, all refs)", rows.length, bytesAll, () => k.tokenF1Batch(hyps, refs)],
];

const bench = new Bench({ iterations: quick ? 1 : 3, warmupIterations: quick ? 1 : 2, time: 0, warmupTime: 0, throws: true });
for (const [, name, , , fn] of tasks) bench.add(name, fn);
await bench.run();

const runtime = typeof Deno !== "undefined" ? `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})` : `Node ${process.version} (V8 ${process.versions.v8})`;
console.log(`\n${rows.length} pairs (${(bytesAll / 1e6).toFixed(1)} MB with all references) from ${pairsFile}`);
console.log(`${runtime}, one thread; wasm ${k.kernelSignature()}\n`);
console.log("| family | implementation | pairs/s | MB/s | vs. fastest in family |");
console.log("|---|---|---:|---:|---:|");
const results = tasks.map(([family, name, pairs, bytes], i) => {
  const r = bench.tasks[i].result;
  const mean = (r.latency?.mean ?? r.mean) / 1000; // seconds per iteration
  return { family, name, pairsPerSecond: pairs / mean, mbPerSecond: bytes / mean / 1e6 };
});
for (const r of results) {
  const best = Math.max(...results.filter((x) => x.family === r.family).map((x) => x.pairsPerSecond));
  console.log(`| ${r.family} | ${r.name} | ${Math.round(r.pairsPerSecond).toLocaleString("en-US")} | ${r.mbPerSecond.toFixed(1)} | ${(r.pairsPerSecond / best).toFixed(2)} |`);
}
