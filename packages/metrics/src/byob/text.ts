// BYOB's text scorers (scorers.py): exact_match, contains, f1_token, bleu, rouge, chrf (regex_match: regex-match.ts).
// docs/spec/rule-metrics.md §2.1-2.7. Token and n-gram statistics come from core-wasm; only BYOB's own
// combination formulas are evaluated here, in the original's order of operations.
import {
  bleuStatisticsBatch,
  byobBleuScoresFromStatisticsBatch,
  byobLcsStatisticsBatch,
  chrfStatisticsBatch,
  tokenF1,
} from "@evalkern/core-wasm";
import { PythonCompatError } from "../errors.js";
import { pyTypeName } from "../python/repr.js";
import { pyLowerMany, pyStrip, pyTruthy, requireStrFor, toStr } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

/**
 * BYOB `exact_match`: `response.strip().lower() == str(target).strip().lower()`. No casefold, no
 * Unicode normalisation, no punctuation handling.
 * @example exactMatch({ response: " Yes ", target: "yes", metadata: {} }) // { correct: true }
 */
export const exactMatch = pythonName((sample: ScorerInput): { correct: boolean } => {
  checkSample(sample);
  const target = toStr(sample.target);
  const response = requireStrFor(sample.response, "strip");
  const [a, b] = pyLowerMany([pyStrip(response), pyStrip(target)]);
  return { correct: a === b };
}, "exact_match");

/**
 * BYOB `contains`: `str(target).lower().strip()` is a substring of `response.lower()`; an empty or
 * blank target is contained in anything.
 */
export const contains = pythonName((sample: ScorerInput): { correct: boolean } => {
  checkSample(sample);
  const target = toStr(sample.target);
  const response = requireStrFor(sample.response, "lower");
  const [t, r] = pyLowerMany([target, response]);
  return { correct: r!.includes(pyStrip(t!)) };
}, "contains");

/**
 * BYOB `f1_token`: token F1 over `x.lower().split()` (no punctuation handling); 0.0 for all three when
 * a side has no token or nothing is shared.
 */
export const f1Token = pythonName((sample: ScorerInput): { f1: number; precision: number; recall: number } => {
  checkSample(sample);
  const target = toStr(sample.target);
  const response = requireStrFor(sample.response, "lower");
  const r = tokenF1(response, [target], { mode: "byob" });
  return { f1: r.f1, precision: r.precision, recall: r.recall };
}, "f1_token");

/** sacreBLEU statistics over BYOB's tokens (`lower().split()`): [sysLen, refLen, counts[4], totals[4]]. */
function byobTokenStatistics(response: string, target: string): Float64Array {
  return bleuStatisticsBatch([response], [[target]], { tokenize: "none", lowercase: true, maxNgramOrder: 4 });
}

/**
 * BYOB `bleu`: sentence BLEU-1..4 over `lower().split()` tokens with add-one smoothing on every order
 * (an order with no n-gram counts as precision 1, so bleu_4 can exceed bleu_3) and the brevity penalty
 * `exp(1 - |ref|/|hyp|)`. A non-str target throws pythonType `AttributeError` (`target.lower()`).
 */
export const bleu = pythonName((sample: ScorerInput): { bleu_1: number; bleu_2: number; bleu_3: number; bleu_4: number } => {
  checkSample(sample);
  const response = requireStrFor(sample.response, "lower");
  const target = requireStrFor(sample.target, "lower");
  const s = byobBleuScoresFromStatisticsBatch(byobTokenStatistics(response, target));
  return { bleu_1: s[0]!, bleu_2: s[1]!, bleu_3: s[2]!, bleu_4: s[3]! };
}, "bleu");

/** BYOB `_f1`: 0 when P + R is 0, else 2PR/(P+R) left to right. */
const f1Of = (p: number, r: number): number => (p + r === 0 ? 0.0 : (2.0 * p * r) / (p + r));

/**
 * BYOB `rouge`: ROUGE-1/2 F over `lower().split()` n-grams (0 when a side has no n-gram) and ROUGE-L
 * F from the token LCS. Not rouge-score's ROUGE: no tokenizer regex, no stemming.
 */
export const rouge = pythonName((sample: ScorerInput): { rouge_1: number; rouge_2: number; rouge_l: number } => {
  checkSample(sample);
  const response = requireStrFor(sample.response, "lower");
  const target = requireStrFor(sample.target, "lower");
  const st = byobTokenStatistics(response, target);
  const predLen = st[0]!;
  const refLen = st[1]!;
  if (predLen === 0 || refLen === 0) return { rouge_1: 0.0, rouge_2: 0.0, rouge_l: 0.0 };
  const rougeN = (n: number): number => {
    const overlap = st[2 + n - 1]!;
    const predCount = st[6 + n - 1]!;
    const refCount = Math.max(0, refLen - n + 1);
    if (predCount === 0 || refCount === 0) return 0.0;
    return f1Of(overlap / predCount, overlap / refCount);
  };
  const lcs = byobLcsStatisticsBatch([response], [target])[2]!;
  return { rouge_1: rougeN(1), rouge_2: rougeN(2), rouge_l: f1Of(lcs / predLen, lcs / refLen) };
}, "rouge");

/** BYOB's per-order chrF term: 0 without n-grams on a side or without overlap, else F-beta with beta = 2. */
function chrfTerm(hypCount: number, refCount: number, match: number): number {
  if (hypCount === 0 || refCount === 0) return 0.0;
  const prec = match / hypCount;
  const rec = match / refCount;
  if (prec + rec === 0) return 0.0;
  return (5.0 * prec * rec) / (4.0 * prec + rec);
}

/**
 * BYOB `chrf` (0-100): the mean of per-order F2 over character 1..6-grams of the raw strings (spaces
 * count, case-sensitive) for `chrf`, plus word 1..2-grams of `split()` (punctuation attached) for
 * `chrf_pp`. Not sacreBLEU chrF, which drops whitespace and pools statistics across orders.
 */
export const chrf = pythonName((sample: ScorerInput): { chrf: number; chrf_pp: number } => {
  checkSample(sample);
  const hypValue = pyTruthy(sample.response) ? sample.response : "";
  if (typeof hypValue !== "string") {
    throw new PythonCompatError("TypeError", `object of type '${pyTypeName(hypValue)}' has no len()`);
  }
  const hyp = hypValue;
  const ref = toStr(sample.target);
  if (hyp === "" || ref === "") return { chrf: 0.0, chrf_pp: 0.0 };
  const c = chrfStatisticsBatch([hyp], [[ref]], { charOrder: 6, wordOrder: 0, whitespace: true, lowercase: false });
  const w = bleuStatisticsBatch([hyp], [[ref]], { tokenize: "none", lowercase: false, maxNgramOrder: 2 });
  const fs: number[] = [];
  for (let n = 0; n < 6; n++) fs.push(chrfTerm(c[3 * n]!, c[3 * n + 1]!, c[3 * n + 2]!));
  let sum = 0;
  for (const f of fs) sum += f;
  const chrfScore = (100.0 * sum) / fs.length;
  const refWords = w[1]!;
  for (let n = 1; n <= 2; n++) fs.push(chrfTerm(w[2 + 2 + n - 1]!, Math.max(0, refWords - n + 1), w[2 + n - 1]!));
  let sumPp = 0;
  for (const f of fs) sumPp += f;
  return { chrf: chrfScore, chrf_pp: (100.0 * sumPp) / fs.length };
}, "chrf");
