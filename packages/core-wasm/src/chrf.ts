// chrF and chrF++ as sacreBLEU 2.6.0 computes them (`sentence_chrf`, `corpus_chrf`, `CHRF`).
import { InvalidArgumentError, describe } from "./errors.js";
import { kernels, pairCall, runNumericKernel, runPairKernel, type Layout } from "./kernel.js";
import { NULLS, checkChrfRows, optionBool, optionInt, optionNumber, pairBatch, referenceList, requireString } from "./validate.js";

export interface ChrfOptions {
  /** Character n-gram order (default 6). */
  readonly charOrder?: number;
  /** Word n-gram order (default 0; 2 = chrF++). */
  readonly wordOrder?: number;
  /** Recall weight (default 2). */
  readonly beta?: number;
  /** Python `str.lower()` first (default false). */
  readonly lowercase?: boolean;
  /** Keep whitespace inside character n-grams (default false). */
  readonly whitespace?: boolean;
  /** chrF++.py-style epsilon smoothing instead of effective order (default false). */
  readonly epsSmoothing?: boolean;
}

export interface ChrfResult {
  /** 0–100. */
  readonly score: number;
  /** [hyp, ref, match] per char order 1..charOrder, then per word order 1..wordOrder. */
  readonly stats: number[];
}

export interface ResolvedChrfOptions {
  readonly charOrder: number;
  readonly wordOrder: number;
  readonly beta: number;
  readonly lowercase: boolean;
  readonly whitespace: boolean;
  readonly epsSmoothing: boolean;
}

export function resolveChrfOptions(options: ChrfOptions | undefined): ResolvedChrfOptions {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new InvalidArgumentError(`options must be an object, got ${describe(options)}`, { argument: "options" });
  }
  const o = options ?? {};
  const charOrder = optionInt(o.charOrder, "options.charOrder", 6, 0, 32);
  const wordOrder = optionInt(o.wordOrder, "options.wordOrder", 0, 0, 32);
  if (charOrder + wordOrder === 0) {
    throw new InvalidArgumentError("chrF needs at least one n-gram order: charOrder + wordOrder must be ≥ 1", {
      argument: "options.charOrder",
    });
  }
  const beta = optionNumber(o.beta, "options.beta", 2);
  // beta² must stay finite (a beta of 1e155 made every score NaN)
  if (beta < 0 || beta > 1e6) {
    throw new InvalidArgumentError(`options.beta must be from 0 to 1e6, got ${beta}`, {
      argument: "options.beta",
      expected: "0..1e6",
      actual: String(beta),
    });
  }
  return {
    charOrder,
    wordOrder,
    beta,
    lowercase: optionBool(o.lowercase, "options.lowercase", false),
    whitespace: optionBool(o.whitespace, "options.whitespace", false),
    epsSmoothing: optionBool(o.epsSmoothing, "options.epsSmoothing", false),
  };
}

/** Per-item statistics width under these options: 3 × (charOrder + wordOrder). */
export function chrfStatisticsWidth(options?: ChrfOptions): number {
  return widthOf(resolveChrfOptions(options));
}

const widthOf = (o: ResolvedChrfOptions): number => 3 * (o.charOrder + o.wordOrder);

/** n × (1 + width): [score, stats...] per item. */
function rows(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedChrfOptions): Float64Array {
  const k = kernels();
  return runPairKernel(hyps, refs, 1 + widthOf(o), (l: Layout) =>
    k.chrfBatch(
      l.count,
      l.bytes,
      l.strOffs,
      l.refStart,
      o.charOrder,
      o.wordOrder,
      o.beta,
      o.lowercase ? 1 : 0,
      o.whitespace ? 1 : 0,
      o.epsSmoothing ? 1 : 0,
      l.out,
    ),
  );
}

function scoreRows(stats: Float64Array, n: number, o: ResolvedChrfOptions): Float64Array {
  const k = kernels();
  return runNumericKernel(stats, n, (inPtr, outPtr) =>
    k.chrfScoreBatch(n, inPtr, o.charOrder + o.wordOrder, o.beta, o.epsSmoothing ? 1 : 0, outPtr),
  );
}

/**
 * sacreBLEU `sentence_chrf(hyp, refs, ...)`. With several references, the first with the strictly
 * highest sentence score keeps its statistics.
 */
export function sentenceChrf(hyp: string, refs: readonly (string | null)[], options?: ChrfOptions): ChrfResult {
  if (typeof hyp !== "string") requireString(hyp, "hyp");
  const r = referenceList(refs, "refs", undefined, NULLS);
  const p = sentencePlan(options);
  const o = p.o;
  // one crossing: [score, stats] read straight from module memory
  const f64 = pairCall("chrfSentence", hyp, r, 1 + p.width, o.charOrder, o.wordOrder, o.beta, p.lc, p.ws, p.eps);
  const stats = new Array<number>(p.width);
  for (let j = 0; j < p.width; j++) stats[j] = f64[1 + j]!;
  return { score: f64[0]!, stats };
}

/** Sentence options resolved once, with their kernel codes: reused while the options object and its fields are unchanged. */
interface SentencePlan {
  readonly o: ResolvedChrfOptions;
  readonly width: number;
  readonly lc: number;
  readonly ws: number;
  readonly eps: number;
}
const planOf = (o: ResolvedChrfOptions): SentencePlan => ({
  o,
  width: widthOf(o),
  lc: o.lowercase ? 1 : 0,
  ws: o.whitespace ? 1 : 0,
  eps: o.epsSmoothing ? 1 : 0,
});
let defaultPlan: SentencePlan | undefined;
let lastOptions: ChrfOptions | undefined;
let lastFields: unknown[] = [];
let lastPlan: SentencePlan | undefined;

function sentencePlan(options: ChrfOptions | undefined): SentencePlan {
  if (options === undefined) return (defaultPlan ??= planOf(resolveChrfOptions(undefined)));
  if (typeof options === "object" && options !== null) {
    const f = lastFields;
    if (
      options === lastOptions &&
      options.charOrder === f[0] &&
      options.wordOrder === f[1] &&
      options.beta === f[2] &&
      options.lowercase === f[3] &&
      options.whitespace === f[4] &&
      options.epsSmoothing === f[5]
    ) {
      return lastPlan!;
    }
    const plan = planOf(resolveChrfOptions(options));
    lastOptions = options;
    lastFields = [options.charOrder, options.wordOrder, options.beta, options.lowercase, options.whitespace, options.epsSmoothing];
    lastPlan = plan;
    return plan;
  }
  return planOf(resolveChrfOptions(options));
}

/** Sentence statistics for many pairs: n × 3(C+W) f64 (the statistics of the reference chosen per item). */
export function chrfStatisticsBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: ChrfOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, NULLS);
  const o = resolveChrfOptions(options);
  const w = widthOf(o);
  const all = rows(b.hyps, b.refs, o);
  const out = new Float64Array(b.hyps.length * w);
  for (let i = 0; i < b.hyps.length; i++) out.set(all.subarray(i * (w + 1) + 1, (i + 1) * (w + 1)), i * w);
  return out;
}

/** Sentence chrF scores (0–100) for many pairs: one f64 per pair. */
export function sentenceChrfBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: ChrfOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, NULLS);
  const o = resolveChrfOptions(options);
  const k = kernels();
  // only the scores come out of the kernel
  return runPairKernel(b.hyps, b.refs, 1, (l: Layout) =>
    k.chrfScoresBatch(
      l.count,
      l.bytes,
      l.strOffs,
      l.refStart,
      o.charOrder,
      o.wordOrder,
      o.beta,
      o.lowercase ? 1 : 0,
      o.whitespace ? 1 : 0,
      o.epsSmoothing ? 1 : 0,
      l.out,
    ),
  );
}

/**
 * sacreBLEU `corpus_chrf` / `CHRF().corpus_score`: per-segment statistics (best reference each) summed,
 * then one score. `null` references are dropped, as sacreBLEU drops `None`.
 */
export function corpusChrf(hyps: readonly string[], refs: readonly (readonly (string | null)[])[], options?: ChrfOptions): ChrfResult {
  const b = pairBatch(hyps, refs, NULLS);
  const o = resolveChrfOptions(options);
  const w = widthOf(o);
  const all = rows(b.hyps, b.refs, o);
  const sum = new Float64Array(w);
  for (let i = 0; i < b.hyps.length; i++) for (let j = 0; j < w; j++) sum[j]! += all[i * (w + 1) + 1 + j]!;
  return { score: scoreRows(sum, 1, o)[0]!, stats: Array.from(sum) };
}

/**
 * sacreBLEU `CHRF._compute_f_score(stats)`: the score (0–100) as a pure function of (summed) statistics,
 * with those statistics, as `corpusChrf` returns them.
 */
export function chrfFromStatistics(stats: readonly number[] | Float64Array, options?: ChrfOptions): ChrfResult {
  const o = resolveChrfOptions(options);
  const w = widthOf(o);
  if ((!Array.isArray(stats) && !(stats instanceof Float64Array)) || stats.length !== w) {
    throw new InvalidArgumentError(`stats must hold ${w} numbers (3 per order), got ${describe(stats)}`, {
      argument: "stats",
      expected: `${w} numbers`,
      actual: describe(stats),
    });
  }
  checkChrfRows(stats as ArrayLike<number>, "stats");
  const row = Float64Array.from(stats as ArrayLike<number>);
  return { score: scoreRows(row, 1, o)[0]!, stats: Array.from(row) };
}

/** Scores from many statistics rows (n × 3(C+W)): one f64 per row. */
export function chrfScoresFromStatisticsBatch(stats: Float64Array, options?: ChrfOptions): Float64Array {
  const o = resolveChrfOptions(options);
  const w = widthOf(o);
  if (!(stats instanceof Float64Array) || stats.length % w !== 0) {
    throw new InvalidArgumentError(`stats must be a Float64Array whose length is a multiple of ${w}`, { argument: "stats" });
  }
  checkChrfRows(stats, "stats");
  return scoreRows(stats, stats.length / w, o);
}

/** sacreBLEU's chrF signature (`nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`). */
export function chrfSignature(options: ChrfOptions | undefined, nrefs: number | "var"): string {
  const o = resolveChrfOptions(options);
  return (
    `nrefs:${nrefs}|case:${o.lowercase ? "lc" : "mixed"}|eff:${o.epsSmoothing ? "no" : "yes"}` +
    `|nc:${o.charOrder}|nw:${o.wordOrder}|space:${o.whitespace ? "yes" : "no"}|version:2.6.0`
  );
}
