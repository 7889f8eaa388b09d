#!/usr/bin/env node
// chrF / chrF++ throughput on one thread, in CPU time (process.cpuUsage), medians of interleaved rounds.
//
//   node bench/chrf.bench.mjs [--count 20000] [--pairs file.jsonl] [--rounds 5] [--baseline path/to/dist/index.js]
//
// With --baseline (another build of this package, e.g. a copy of main's dist/), both builds run in the same
// process, interleaved round by round, and their sentence scores and statistics must agree bit for bit
// (chrF, chrF++, lowercase, whitespace) before anything is timed.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as k from "@evalkern/core-wasm";
import { benchArgs, loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";

const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const { pairs } = benchArgs();
const count = Number(opt("count", "20000"));
const rounds = Number(opt("rounds", "5"));
const baselinePath = opt("baseline", undefined);
const { file, rows } = loadBenchPairs({ count, pairs });
const hyps = rows.map((r) => r.hyp);
const refs = rows.map((r) => r.refs);

const builds = [["this build", k]];
if (baselinePath) builds.unshift(["baseline", await import(pathToFileURL(resolve(baselinePath)).href)]);
for (const [, m] of builds) await m.ready();

const configs = [
  ["chrF", {}],
  ["chrF++", { wordOrder: 2 }],
];
if (baselinePath) {
  const [, base] = builds[0];
  for (const o of [
    {},
    { wordOrder: 2 },
    { lowercase: true },
    { wordOrder: 2, lowercase: true },
    { whitespace: true },
    { wordOrder: 1, beta: 1 },
  ]) {
    const a = base.chrfStatisticsBatch(hyps, refs, o);
    const b = k.chrfStatisticsBatch(hyps, refs, o);
    const sa = base.sentenceChrfBatch(hyps, refs, o);
    const sb = k.sentenceChrfBatch(hyps, refs, o);
    let bad = a.length !== b.length || sa.length !== sb.length ? 1 : 0;
    for (let i = 0; i < a.length && !bad; i++) if (!Object.is(a[i], b[i])) bad = i + 1;
    for (let i = 0; i < sa.length && !bad; i++) if (!Object.is(sa[i], sb[i])) bad = i + 1;
    if (bad) {
      console.error(`MISMATCH with the baseline for ${JSON.stringify(o)} at ${bad - 1}`);
      process.exit(1);
    }
  }
  console.log(`baseline and this build agree bit for bit on ${rows.length} pairs (6 option sets)`);
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const times = new Map();
for (const [, o] of configs) for (const [, m] of builds) m.sentenceChrfBatch(hyps, refs, o); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [cname, o] of configs) {
    for (const [bname, m] of builds) {
      const t0 = cpu();
      m.sentenceChrfBatch(hyps, refs, o);
      const t = cpu() - t0;
      const key = `${cname}\0${bname}`;
      if (!times.has(key)) times.set(key, []);
      times.get(key).push(t);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${rows.length} pairs, all references, from ${file}; ${rounds} interleaved rounds, CPU time, Node ${process.version}\n`);
console.log("| metric | build | pairs/s (median) | µs/pair (median) | pairs/s (best round) |");
console.log("|---|---|---:|---:|---:|");
for (const [cname] of configs) {
  for (const [bname] of builds) {
    const ts = times.get(`${cname}\0${bname}`);
    const t = median(ts);
    const best = Math.min(...ts);
    const fmt = (x) => Math.round(x).toLocaleString("en-US");
    console.log(`| ${cname} | ${bname} | ${fmt(rows.length / t)} | ${((t / rows.length) * 1e6).toFixed(2)} | ${fmt(rows.length / best)} |`);
  }
}
