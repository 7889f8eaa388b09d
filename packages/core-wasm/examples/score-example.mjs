#!/usr/bin/env node
// The main job on bundled example data: score (hypothesis, references) pairs with BLEU, chrF, chrF++
// and ROUGE, and print a table per language plus the corpus scores and their signatures.
//
//   node examples/score-example.mjs [pairs.jsonl]      (default: the repo's examples/pairs.jsonl)
//
// Each input line is {"hyp": "...", "refs": ["...", ...], "lang"?: "..."}.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  bleuSignature,
  bleuStatisticsBatch,
  chrfSignature,
  chrfStatisticsBatch,
  bleuFromStatistics,
  chrfFromStatistics,
  kernelSignature,
  ready,
  rougeBatch,
  sumStatistics,
} from "@evalkern/core-wasm";

const here = dirname(fileURLToPath(import.meta.url));
const input = resolve(process.argv[2] ?? join(here, "..", "..", "..", "examples", "pairs.jsonl"));

const rows = [];
readFileSync(input, "utf8")
  .split("\n")
  .forEach((line, i) => {
    if (line.trim() === "") return;
    let row;
    try {
      row = JSON.parse(line);
    } catch (error) {
      console.error(`${input}:${i + 1}: not JSON (${error.message}), skipped`);
      return;
    }
    const refs = typeof row.refs === "string" ? [row.refs] : row.refs;
    if (typeof row.hyp !== "string" || !Array.isArray(refs) || refs.length === 0 || !refs.every((r) => typeof r === "string")) {
      console.error(`${input}:${i + 1}: needs "hyp" (string) and "refs" (non-empty list of strings), skipped`);
      return;
    }
    rows.push({ hyp: row.hyp, refs, lang: typeof row.lang === "string" ? row.lang : "all" });
  });
if (rows.length === 0) {
  console.error(`${input}: no usable rows`);
  process.exit(1);
}

await ready();
const started = performance.now();
const hyps = rows.map((r) => r.hyp);
const refs = rows.map((r) => r.refs);
const bleuStats = bleuStatisticsBatch(hyps, refs); // n × 10
const chrfStats = chrfStatisticsBatch(hyps, refs); // n × 18
const chrfppStats = chrfStatisticsBatch(hyps, refs, { wordOrder: 2 }); // n × 24
const rouge = rougeBatch(hyps, refs); // n × 4 types × (P, R, F)
const elapsed = performance.now() - started;

/** Corpus scores over a subset of rows: statistics are summed, never averaged. */
function corpusScores(indices) {
  const pick = (stats, width) => {
    const out = new Float64Array(indices.length * width);
    indices.forEach((i, k) => out.set(stats.subarray(i * width, (i + 1) * width), k * width));
    return out;
  };
  const sum = (stats, width) => {
    const s = new Array(width).fill(0);
    for (let k = 0; k < stats.length; k += width) for (let j = 0; j < width; j++) s[j] += stats[k + j];
    return s;
  };
  const rougeMean = [0, 0, 0, 0];
  for (const i of indices) for (let t = 0; t < 4; t++) rougeMean[t] += rouge[i * 12 + t * 3 + 2] / indices.length;
  return {
    n: indices.length,
    bleu: bleuFromStatistics(sumStatistics(pick(bleuStats, 10), 4)).score,
    chrf: chrfFromStatistics(sum(pick(chrfStats, 18), 18)).score,
    chrfpp: chrfFromStatistics(sum(pick(chrfppStats, 24), 24), { wordOrder: 2 }).score,
    rouge: rougeMean.map((v) => v * 100),
  };
}

const byLang = new Map();
rows.forEach((r, i) => {
  if (!byLang.has(r.lang)) byLang.set(r.lang, []);
  byLang.get(r.lang).push(i);
});
const table = [...byLang.keys()].sort().map((lang) => [lang, corpusScores(byLang.get(lang))]);
if (byLang.size > 1) table.push(["ALL", corpusScores(rows.map((_, i) => i))]);

const header = ["lang", "n", "BLEU", "chrF", "chrF++", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum"];
const lines = table.map(([lang, s]) => [lang, String(s.n), ...[s.bleu, s.chrf, s.chrfpp, ...s.rouge].map((v) => v.toFixed(2))]);
const widths = header.map((h, j) => Math.max(h.length, ...lines.map((l) => l[j].length)));
const fmt = (cells) => cells.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  ");
console.log(`${rows.length} pairs from ${input}\n`);
console.log(fmt(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const l of lines) console.log(l === lines[lines.length - 1] && byLang.size > 1 ? `${fmt(l)}` : fmt(l));
const nrefs = new Set(refs.map((r) => r.length)).size === 1 ? refs[0].length : "var";
console.log(`
BLEU, chrF, chrF++: corpus scores from summed statistics (sacreBLEU corpus_score); ROUGE: mean F1 × 100 (rouge-score, no stemmer).
signatures:
  BLEU    ${bleuSignature({}, nrefs)}
  chrF    ${chrfSignature({}, nrefs)}
  chrF++  ${chrfSignature({ wordOrder: 2 }, nrefs)}
  kernels ${kernelSignature()}
scored ${rows.length} pairs × 4 metrics in ${elapsed.toFixed(1)} ms`);
