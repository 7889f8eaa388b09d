#!/usr/bin/env node
// Throughput of every kernel on one thread against the issue's targets, beside the JS peers and the Python
// references (sacreBLEU, rouge-score, DSPy token F1) measured in the same run, with issue 23's target 3 as
// PASS/MISS at the end. One command (about 3 minutes on a 2-core VM at the default count):
//
//   EVALKERN_BENCH_PYTHONPATH=/path/to/refs node bench/kernels.bench.mjs [--count 20000] [--pairs file.jsonl]
//     [--py-count 5000] [--no-python] [--quick] [--rounds 3]
//
// The references are not dependencies: the Python child finds `sacrebleu` and `rouge_score` on its
// PYTHONPATH (EVALKERN_BENCH_PYTHONPATH in front); one that does not import prints "reference not available".
//   deno run -A bench/kernels.bench.mjs          (same script, as-is)
//
// Input: `node ../../testdata/corpus/make-pairs.mjs --seed 9 --count N --no-edge` (generated once into
// the OS temp folder by scripts/dev/bench-pairs.mjs), or --pairs. Timing: CPU time of the process
// (`process.cpuUsage()`, user + system) for one full pass of a task over its pairs; every task runs once
// as warm-up (so V8 has tiered the WebAssembly and JS up), then 3 measured rounds interleaved task by
// task, and the median round counts. Pure-JS peers score the first 5,000 pairs (they are 10–300×
// slower; pairs/s is per pair either way); per-call APIs score the first 20,000.
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import * as k from "@evalkern/core-wasm";
import { WASM_BASE64 } from "../dist/wasm.generated.js";
import { benchArgs, loadBenchPairs } from "../../../scripts/dev/bench-pairs.mjs";
import { loadPromptfooBleu, runPythonReferences } from "./peers.mjs";

const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const { quick, pairs } = benchArgs(argv);
const count = argv.includes("--count") ? Number(argv[argv.indexOf("--count") + 1]) : 20000;
const pyCount = argv.includes("--py-count") ? Number(argv[argv.indexOf("--py-count") + 1]) : 5000;
const { file: pairsFile, rows } = loadBenchPairs({ count, pairs });
const hyps = rows.map((r) => r.hyp);
const refs = rows.map((r) => r.refs);
const ref0 = rows.map((r) => r.refs[0]);
const enc = new TextEncoder();
const sizeOf = (s) => enc.encode(s).length;
const bytesOf = (n, all) =>
  rows.slice(0, n).reduce((a, r) => a + sizeOf(r.hyp) + (all ? r.refs.reduce((b, x) => b + sizeOf(x), 0) : sizeOf(r.refs[0])), 0);

await k.ready();
const { bleu: bleuScoreJs } = require("bleu-score");
const jsRouge = await import("js-rouge");
const { distance: fastestLevenshtein } = require("fastest-levenshtein");
const promptfooBleu = loadPromptfooBleu();

const N = rows.length;
const SINGLE = Math.min(N, 20000);
const PEER = Math.min(N, 5000);
const ROUGE3 = { types: ["rouge1", "rouge2", "rougeL"] };
// the registry's default types (what `--metric rouge` and issue 23's kernels-only pass run)
const ROUGE4 = { types: ["rouge1", "rouge2", "rougeL", "rougeLsum"] };

// [key, metric, implementation, pairs, all refs?, fn]
const tasks = [
  ["bleu", "BLEU 13a, all refs", "evalkern `sentenceBleuBatch`", N, true, () => k.sentenceBleuBatch(hyps, refs)],
  [
    "bleuCall",
    "BLEU 13a, all refs, per call",
    "evalkern `sentenceBleu`",
    SINGLE,
    true,
    () => {
      for (let i = 0; i < SINGLE; i++) k.sentenceBleu(hyps[i], refs[i]);
    },
  ],
  ["bleuIntl", "BLEU intl, all refs", "evalkern `sentenceBleuBatch`", N, true, () => k.sentenceBleuBatch(hyps, refs, { tokenize: "intl" })],
  ["bleuZh", "BLEU zh, all refs", "evalkern `sentenceBleuBatch`", N, true, () => k.sentenceBleuBatch(hyps, refs, { tokenize: "zh" })],
  [
    "promptfooBleu",
    "BLEU (lowercase whitespace words, not sacreBLEU's), ref0",
    promptfooBleu.name ?? "promptfoo calculateBleuScore",
    PEER,
    false,
    promptfooBleu.fn
      ? () => {
          for (let i = 0; i < PEER; i++) promptfooBleu.fn(hyps[i], [ref0[i]]);
        }
      : undefined,
  ],
  [
    "bleuScore",
    "BLEU (not sacreBLEU's), ref0",
    "bleu-score 1.0.4 `bleu(ref0, hyp, 4)`",
    PEER,
    false,
    () => {
      for (let i = 0; i < PEER; i++) bleuScoreJs(ref0[i], hyps[i], 4);
    },
  ],
  ["chrf", "chrF, all refs", "evalkern `sentenceChrfBatch`", N, true, () => k.sentenceChrfBatch(hyps, refs)],
  [
    "chrfCall",
    "chrF, all refs, per call",
    "evalkern `sentenceChrf`",
    SINGLE,
    true,
    () => {
      for (let i = 0; i < SINGLE; i++) k.sentenceChrf(hyps[i], refs[i]);
    },
  ],
  [
    "chrfpp",
    "chrF++, all refs",
    "evalkern `sentenceChrfBatch` (wordOrder 2)",
    N,
    true,
    () => k.sentenceChrfBatch(hyps, refs, { wordOrder: 2 }),
  ],
  ["rouge", "ROUGE-1/2/L, all refs (score_multi)", "evalkern `rougeBatch`", N, true, () => k.rougeBatch(hyps, refs, ROUGE3)],
  [
    "rougeCall",
    "ROUGE-1/2/L, all refs, per call",
    "evalkern `rougeScore`",
    SINGLE,
    true,
    () => {
      for (let i = 0; i < SINGLE; i++) k.rougeScore(hyps[i], refs[i], ROUGE3);
    },
  ],
  ["rouge4", "ROUGE-1/2/L/Lsum, all refs (score_multi)", "evalkern `rougeBatch`", N, true, () => k.rougeBatch(hyps, refs, ROUGE4)],
  ["rouge0", "ROUGE-1/2/L, ref0", "evalkern `rougeBatch`", N, false, () => k.rougeBatch(hyps, ref0, ROUGE3)],
  [
    "rougeStem",
    "ROUGE-1/2/L, ref0, stemmer",
    "evalkern `rougeBatch`",
    N,
    false,
    () => k.rougeBatch(hyps, ref0, { ...ROUGE3, useStemmer: true }),
  ],
  [
    "jsRouge",
    "ROUGE-1/2/L (not rouge-score's), ref0",
    "js-rouge 3.2.3 `n(1)+n(2)+l` (what promptfoo's rouge-n/l call)",
    PEER,
    false,
    () => {
      for (let i = 0; i < PEER; i++) {
        // js-rouge throws on blank input and on texts shorter than n; those pairs still cost the attempt
        try {
          jsRouge.n(hyps[i], ref0[i], { n: 1 });
          jsRouge.n(hyps[i], ref0[i], { n: 2 });
          jsRouge.l(hyps[i], ref0[i]);
        } catch {}
      }
    },
  ],
  ["f1", "DSPy token F1, all refs", "evalkern `tokenF1Batch`", N, true, () => k.tokenF1Batch(hyps, refs)],
  ["normalize", "DSPy normalize_text, hyps", "evalkern `normalizeTextBatch`", N, null, () => k.normalizeTextBatch(hyps)],
  ["lev", "Levenshtein, hyp vs ref0", "evalkern `levenshteinBatch`", N, false, () => k.levenshteinBatch(hyps, ref0)],
  [
    "fastestLev",
    "Levenshtein (UTF-16 units), hyp vs ref0",
    "fastest-levenshtein 1.0.16 `distance`",
    N,
    false,
    () => {
      for (let i = 0; i < N; i++) fastestLevenshtein(hyps[i], ref0[i]);
    },
  ],
  ["ter", "TER, all refs", "evalkern `terStatisticsBatch`", N, true, () => k.terStatisticsBatch(hyps, refs)],
  [
    "terCall",
    "TER, all refs, per call",
    "evalkern `sentenceTer`",
    SINGLE,
    true,
    () => {
      for (let i = 0; i < SINGLE; i++) k.sentenceTer(hyps[i], refs[i]);
    },
  ],
].filter((t) => t[5] !== undefined);

const cpuSeconds =
  typeof process !== "undefined" && typeof process.cpuUsage === "function"
    ? () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1e6;
      }
    : () => performance.now() / 1e3;
const clock = typeof process !== "undefined" && typeof process.cpuUsage === "function" ? "CPU time" : "wall time";

const roundsArg = argv.includes("--rounds") ? Number(argv[argv.indexOf("--rounds") + 1]) : 3;
if (!Number.isSafeInteger(roundsArg) || roundsArg < 1) throw new Error("--rounds must be a positive integer");
const rounds = quick ? 1 : roundsArg;
const times = tasks.map(() => []);
for (let r = -1; r < rounds; r++) {
  for (let t = 0; t < tasks.length; t++) {
    const t0 = cpuSeconds();
    tasks[t][5]();
    const dt = cpuSeconds() - t0;
    if (r >= 0) times[t].push(dt);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rate = {};
const mbs = {};
tasks.forEach(([key, , , pairs, all], t) => {
  const s = median(times[t]);
  rate[key] = pairs / s;
  const bytes = all === null ? hyps.slice(0, pairs).reduce((a, h) => a + sizeOf(h), 0) : bytesOf(pairs, all);
  mbs[key] = bytes / s / 1e6;
});

const CHECK = Math.min(500, N);
const py = argv.includes("--no-python")
  ? { reason: "reference not available: --no-python" }
  : runPythonReferences(pairsFile, Math.min(pyCount, N), { check: CHECK, rougeTypes: ROUGE4.types });
const pyRate = (name) => (py.reason || !py.rates[name] ? undefined : py.rates[name]);

// ------------------------------------------------------------------------------- the table
const fmt = (x) => Math.round(x).toLocaleString("en-US");
const x = (a, b) => `${(a / b).toFixed(1)}×`;
const met = (ok) => (ok ? "met" : "**missed**");
const perCall = (call, batch) => {
  const ratio = rate[batch] / rate[call]; // time per pair, per call over batch
  return { text: `${ratio.toFixed(2)}× batch time/pair`, ok: ratio <= 1.3 };
};
const lines = [];
const row = (metric, impl, key, target = "", status = "", vs = "") =>
  lines.push(
    `| ${metric} | ${impl} | ${key in rate ? fmt(rate[key]) : key} ` +
      `| ${key in mbs ? mbs[key].toFixed(1) : ""} | ${target} | ${status} | ${vs} |`,
  );
const byKey = Object.fromEntries(tasks.map((t) => [t[0], t]));
const task = (key, target, ok, vs = "") => row(byKey[key][1], byKey[key][2], key, target, ok === undefined ? "" : met(ok), vs);
const peer = (key, against) => byKey[key] && row(byKey[key][1], byKey[key][2], key, "", "", `evalkern ${x(rate[against], rate[key])}`);
const pyRow = (metric, impl, value, against) =>
  lines.push(`| ${metric} | ${impl} | ${fmt(value)} | | | | evalkern ${x(rate[against], value)} |`);
const pyName = (m) => `sacreBLEU ${py.sacrebleu} \`${m}.sentence_score\` (Python ${py.python}, CPU time, same run)`;

task("bleu", "≥ 300,000", rate.bleu >= 300000);
const bc = perCall("bleuCall", "bleu");
task("bleuCall", "≤ 1.3× batch time/pair", bc.ok, bc.text);
task("bleuIntl", "within 20 % of 13a", rate.bleuIntl >= 0.8 * rate.bleu, `${x(rate.bleuIntl, rate.bleu)} 13a`);
task("bleuZh", "within 20 % of 13a", rate.bleuZh >= 0.8 * rate.bleu, `${x(rate.bleuZh, rate.bleu)} 13a`);
if (pyRate("bleu")) pyRow("BLEU 13a, all refs", pyName("BLEU(effective_order=True)"), py.rates.bleu, "bleu");
peer("promptfooBleu", "bleu");
peer("bleuScore", "bleu");
task("chrf", "≥ 200,000", rate.chrf >= 200000);
const cc = perCall("chrfCall", "chrf");
task("chrfCall", "≤ 1.3× batch time/pair", cc.ok, cc.text);
task("chrfpp", "≥ 150,000", rate.chrfpp >= 150000);
if (pyRate("chrf")) {
  pyRow("chrF, all refs", pyName("CHRF()"), py.rates.chrf, "chrf");
  pyRow("chrF++, all refs", pyName("CHRF(word_order=2)"), py.rates["chrf++"], "chrfpp");
}
task("rouge", "≥ 400,000", rate.rouge >= 400000);
const rc = perCall("rougeCall", "rouge");
task("rougeCall", "≤ 1.3× batch time/pair", rc.ok, rc.text);
task("rouge4");
if (pyRate("rouge")) {
  const name = `rouge-score \`RougeScorer([rouge1, rouge2, rougeL, rougeLsum]).score_multi\` (Python ${py.python}, CPU time, same run)`;
  pyRow("ROUGE-1/2/L/Lsum, all refs (score_multi)", name, py.rates.rouge, "rouge4");
}
task("rouge0");
task("rougeStem");
peer("jsRouge", "rouge0");
task("f1", "≥ 500,000", rate.f1 >= 500000);
if (pyRate("f1")) pyRow("DSPy token F1, all refs", `DSPy \`F1\` (bench/dspy-f1.py transcription, Python ${py.python})`, py.rates.f1, "f1");
task("normalize");
task("lev", "≥ 5× fastest-levenshtein", rate.lev >= 5 * rate.fastestLev, `${x(rate.lev, rate.fastestLev)} fastest-levenshtein`);
peer("fastestLev", "lev");
task("ter", "≥ 40,000", rate.ter >= 40000);
task("terCall", "", undefined, `${perCall("terCall", "ter").text}`);
if (pyRate("ter")) pyRow("TER, all refs", pyName("TER()"), py.rates.ter, "ter");

const wasm = Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0));
const gz = gzipSync(wasm, { level: 9 }).length;
const runtime =
  typeof Deno !== "undefined" ? `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})` : `Node ${process.version} (V8 ${process.versions.v8})`;
console.log(`\n${N} pairs (${(bytesOf(N, true) / 1e6).toFixed(1)} MB of UTF-8 with all references) from ${pairsFile}`);
console.log(`${runtime}, one thread, ${clock}, median of ${rounds} interleaved round(s) after a warm-up; wasm ${k.kernelSignature()}\n`);
console.log("| metric | implementation | pairs/s | MB/s | target | status | ratio |");
console.log("|---|---|---:|---:|---|---|---|");
for (const l of lines) console.log(l);
console.log(
  `| module size | \`evalkern.wasm\` | ${wasm.length.toLocaleString("en-US")} B raw, ` +
    `${gz.toLocaleString("en-US")} B gzip -9 | ` +
    `| ≤ 150 KB gzip | ${met(gz <= 150 * 1024)} | |`,
);
// ------------------------------------------------------------------ issue 23, target 3
// Each reference's scores of the first CHECK pairs against ours: the timings compare the same computation.
const ours = {
  bleu: () => k.sentenceBleuBatch(hyps.slice(0, CHECK), refs.slice(0, CHECK)),
  chrf: () => k.sentenceChrfBatch(hyps.slice(0, CHECK), refs.slice(0, CHECK)),
  rouge: () => {
    const v = k.rougeBatch(hyps.slice(0, CHECK), refs.slice(0, CHECK), ROUGE4);
    const T = ROUGE4.types.length;
    return Array.from({ length: CHECK * T }, (_, j) => v[j * 3 + 2]); // fmeasure of each type, item-major
  },
  f1: () => k.tokenF1Batch(hyps.slice(0, CHECK), refs.slice(0, CHECK)),
};
const agreement = (name) => {
  const theirs = py.values?.[name];
  if (!theirs) return "";
  const mine = ours[name]();
  const flat = theirs.flat();
  const stride = mine.length / flat.length;
  const same = flat.filter((v, i) => v === mine[i * stride]).length;
  return `${same}/${flat.length} of its first-${CHECK} scores equal ours`;
};
const targets = [
  ["sentence BLEU vs sacreBLEU `BLEU(effective_order=True)`", "bleu", "bleu", 35],
  ["sentence chrF vs sacreBLEU `CHRF()`", "chrf", "chrf", 60],
  ["ROUGE-1/2/L/Lsum (score_multi, no stemmer) vs rouge-score", "rouge4", "rouge", 35],
];
console.log("\nIssue 23, target 3 (kernels against the Python references, same run, CPU time, one metric object reused):\n");
console.log("| kernel | evalkern pairs/s | reference pairs/s | ratio | target | status | same computation |");
console.log("|---|---:|---:|---:|---|---|---|");
for (const [label, key, ref, want] of targets) {
  const theirs = pyRate(ref);
  if (!theirs) {
    console.log(`| ${label} | ${fmt(rate[key])} | ${py.reason ?? py.missing?.[ref] ?? "reference not available"} | | ≥ ${want}× | n/a | |`);
    continue;
  }
  const ratio = rate[key] / theirs;
  console.log(
    `| ${label} | ${fmt(rate[key])} | ${fmt(theirs)} | ${ratio.toFixed(1)}× | ≥ ${want}× | ${ratio >= want ? "PASS" : "MISS"} | ` +
      `${agreement(ref)} |`,
  );
}
const f1Ref = pyRate("f1") ? `${fmt(pyRate("f1"))} (DSPy transcription)` : (py.reason ?? py.missing?.f1);
console.log(
  `| DSPy token F1 (all refs) | ${fmt(rate.f1)} | ${f1Ref} | ${pyRate("f1") ? `${(rate.f1 / pyRate("f1")).toFixed(1)}×` : ""} ` +
    `| ≥ 500,000 pairs/s | ${rate.f1 >= 500000 ? "PASS" : "MISS"} | ${agreement("f1")} |`,
);
if (py.reason) console.log(`\nPython references: ${py.reason}`);
else {
  const byWhy = new Map();
  for (const [name, why] of Object.entries(py.missing ?? {})) byWhy.set(why, [...(byWhy.get(why) ?? []), name]);
  for (const [why, names] of byWhy) console.log(`\n${names.join(", ")}: ${why}`);
  console.log(
    `\nPython references: the first ${Math.min(pyCount, N).toLocaleString("en-US")} of the same pairs, ` +
      "one pass each after one warm-up call, " +
      `CPU time (\`time.process_time()\`) in a child process of this run (PYTHONPATH from EVALKERN_BENCH_PYTHONPATH).`,
  );
}
if (promptfooBleu.reason) console.log(`promptfoo BLEU: ${promptfooBleu.reason}`);
