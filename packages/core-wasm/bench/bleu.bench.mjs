#!/usr/bin/env node
// BLEU throughput on one thread in CPU time (process.cpuUsage), batch and per-call API, seed-9 corpus,
// all references; medians of interleaved rounds. With `--base DIR` (a copy of an earlier dist/) both
// builds are measured in the same run, round by round, so machine load affects them alike.
//
//   node bench/bleu.bench.mjs [--count 20000] [--rounds 3] [--base /tmp/old-dist]
import { loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const { rows } = loadBenchPairs({ count: Number(opt("count", "20000")), pairs: opt("pairs", undefined) });
const rounds = Number(opt("rounds", "3"));
const only = opt("only", undefined);
const hyps = rows.map((r) => r.hyp);
const refs = rows.map((r) => r.refs);
const n = rows.length;

const builds = [["this", new URL("../dist/index.js", import.meta.url).href]];
if (opt("base", undefined)) builds.unshift(["base", pathToFileURL(resolve(opt("base", undefined), "index.js")).href]);
const mods = [];
for (const [name, url] of builds) {
  const k = await import(url);
  await k.ready();
  mods.push([name, k]);
}

const tasks = (k) =>
  [
    ["sentenceBleuBatch 13a", () => k.sentenceBleuBatch(hyps, refs)],
    ["sentenceBleuBatch intl", () => k.sentenceBleuBatch(hyps, refs, { tokenize: "intl" })],
    ["sentenceBleuBatch zh", () => k.sentenceBleuBatch(hyps, refs, { tokenize: "zh" })],
    [
      "sentenceBleu per call 13a",
      () => {
        for (let i = 0; i < n; i++) k.sentenceBleu(hyps[i], refs[i]);
      },
    ],
    ["sentenceChrfBatch", () => k.sentenceChrfBatch(hyps, refs)],
    [
      "sentenceChrf per call",
      () => {
        for (let i = 0; i < n; i++) k.sentenceChrf(hyps[i], refs[i]);
      },
    ],
  ].filter(([name]) => !only || name.includes(only));

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const times = new Map();
for (const [, k] of mods) for (const [, fn] of tasks(k)) fn(); // warm-up (tier-up)
for (let r = 0; r < rounds; r++) {
  for (const [name, k] of mods) {
    for (const [task, fn] of tasks(k)) {
      const t0 = cpu();
      fn();
      const dt = cpu() - t0;
      const key = `${task} [${name}]`;
      if (!times.has(key)) times.set(key, []);
      times.get(key).push(dt);
    }
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`${n} pairs, ${rounds} rounds, median CPU time; Node ${process.version}`);
console.log("| task | build | pairs/s | µs/pair |");
console.log("|---|---|---:|---:|");
for (const [key, ts] of times) {
  const m = median(ts);
  const [, task, build] = /^(.*) \[(.*)\]$/.exec(key);
  console.log(`| ${task} | ${build} | ${Math.round(n / m).toLocaleString("en-US")} | ${((m / n) * 1e6).toFixed(2)} |`);
}
