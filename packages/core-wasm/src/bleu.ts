// BLEU as sacreBLEU 2.6.0 computes it: `sentence_bleu`, `corpus_bleu` (`BLEU().corpus_score`) and
// `BLEU.compute_bleu` (score from sufficient statistics). Statistics come from the WASM kernel; the
// score is a pure function of them (computed in WASM too, so log/exp are the same in every runtime).
import { InvalidArgumentError, describe } from "./errors.js";
import { kernels, pairCall, runNumericKernel, runPairKernel, type Layout } from "./kernel.js";
import {
  MAX_STATISTIC,
  NULLS,
  checkBleuRows,
  optionBool,
  optionEnum,
  optionInt,
  optionNumber,
  pairBatch,
  referenceList,
  requireString,
} from "./validate.js";

export type BleuTokenizer = "13a" | "intl" | "zh" | "char" | "none";
export type BleuSmoothMethod = "exp" | "floor" | "add-k" | "none";

export interface BleuOptions {
  /** sacreBLEU tokenizer (default "13a"). */
  readonly tokenize?: BleuTokenizer;
  /** Python `str.lower()` before tokenizing (default false). */
  readonly lowercase?: boolean;
  /** Smoothing (default "exp"). */
  readonly smoothMethod?: BleuSmoothMethod;
  /** For "floor" (default 0.1) and "add-k" (default 1); ignored by "exp" and "none". */
  readonly smoothValue?: number;
  /** Highest n-gram order (default 4). */
  readonly maxNgramOrder?: number;
  /** Average only over orders that have hypothesis n-grams (sentence default true, corpus default false). */
  readonly effectiveOrder?: boolean;
}

/** sacreBLEU's `BLEUScore` fields. `score` and `precisions` are on 0–100. */
export interface BleuResult {
  readonly score: number;
  readonly precisions: number[];
  readonly bp: number;
  readonly sysLen: number;
  readonly refLen: number;
  readonly counts: number[];
  readonly totals: number[];
}

/** The sufficient statistics of BLEU (sums over segments for a corpus). */
export interface BleuStatistics {
  readonly counts: readonly number[];
  readonly totals: readonly number[];
  readonly sysLen: number;
  readonly refLen: number;
}

const TOKENIZERS: readonly BleuTokenizer[] = ["13a", "intl", "zh", "char", "none"];
const SMOOTHERS: readonly BleuSmoothMethod[] = ["none", "floor", "add-k", "exp"]; // kernel codes 0..3
const SMOOTH_DEFAULTS: Record<BleuSmoothMethod, number> = { none: 0, floor: 0.1, "add-k": 1, exp: 0 };

/** Options resolved and validated once. */
export interface ResolvedBleuOptions {
  readonly tokenize: BleuTokenizer;
  readonly lowercase: boolean;
  readonly smoothMethod: BleuSmoothMethod;
  readonly smoothValue: number;
  readonly maxNgramOrder: number;
  readonly effectiveOrder: boolean;
}

export function resolveBleuOptions(options: BleuOptions | undefined, sentence: boolean): ResolvedBleuOptions {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new InvalidArgumentError(`options must be an object, got ${describe(options)}`, { argument: "options" });
  }
  const o = options ?? {};
  const smoothMethod = optionEnum(o.smoothMethod, "options.smoothMethod", SMOOTHERS, "exp");
  const smoothValue = optionNumber(o.smoothValue, "options.smoothValue", SMOOTH_DEFAULTS[smoothMethod]);
  // a negative value makes add-k divide by zero or take the log of a negative; a floor above 1 gives
  // precisions above 100%: both are impossible scores (NaN, BLEU > 100), so they are refused
  const maxSmooth = smoothMethod === "floor" ? 1 : MAX_STATISTIC;
  if (smoothValue < 0 || smoothValue > maxSmooth) {
    throw new InvalidArgumentError(
      `options.smoothValue must be from 0 to ${smoothMethod === "floor" ? '1 for "floor"' : "2^53"}, got ${smoothValue}`,
      {
        argument: "options.smoothValue",
        expected: `0..${maxSmooth}`,
        actual: String(smoothValue),
      },
    );
  }
  return {
    tokenize: optionEnum(o.tokenize, "options.tokenize", TOKENIZERS, "13a"),
    lowercase: optionBool(o.lowercase, "options.lowercase", false),
    smoothMethod,
    smoothValue,
    maxNgramOrder: optionInt(o.maxNgramOrder, "options.maxNgramOrder", 4, 1, 32),
    effectiveOrder: optionBool(o.effectiveOrder, "options.effectiveOrder", sentence),
  };
}

/** Per-item statistics width under these options: [sysLen, refLen, counts[N], totals[N]], N = `maxNgramOrder`. */
export function bleuStatisticsWidth(options?: BleuOptions): number {
  return widthOf(resolveBleuOptions(options, false).maxNgramOrder);
}

const widthOf = (maxNgramOrder: number): number => 2 + 2 * maxNgramOrder;

function statistics(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedBleuOptions): Float64Array {
  const k = kernels();
  const tok = TOKENIZERS.indexOf(o.tokenize);
  return runPairKernel(hyps, refs, widthOf(o.maxNgramOrder), (l: Layout) =>
    k.bleuStatsBatch(l.count, l.bytes, l.strOffs, l.refStart, tok, o.lowercase ? 1 : 0, o.maxNgramOrder, l.out),
  );
}

/** `compute_bleu` over n rows of statistics → n rows of [score, bp, precisions[N], counts[N], totals[N]]. */
function scoreRows(stats: Float64Array, n: number, o: ResolvedBleuOptions): Float64Array {
  const k = kernels();
  const N = o.maxNgramOrder;
  return runNumericKernel(stats, n * (2 + 3 * N), (inPtr, outPtr) =>
    k.bleuScoreBatch(n, inPtr, N, SMOOTHERS.indexOf(o.smoothMethod), o.smoothValue, o.effectiveOrder ? 1 : 0, outPtr),
  );
}

function resultAt(scores: Float64Array, stats: Float64Array, i: number, N: number): BleuResult {
  const s = i * (2 + 3 * N);
  const t = i * (2 + 2 * N);
  return {
    score: scores[s]!,
    bp: scores[s + 1]!,
    precisions: Array.from(scores.subarray(s + 2, s + 2 + N)),
    counts: Array.from(scores.subarray(s + 2 + N, s + 2 + 2 * N)),
    totals: Array.from(scores.subarray(s + 2 + 2 * N, s + 2 + 3 * N)),
    sysLen: stats[t]!,
    refLen: stats[t + 1]!,
  };
}

/**
 * sacreBLEU `sentence_bleu(hyp, refs, ...)`: effective order on by default. A `null` reference (Python's
 * `None`) is dropped, as sacreBLEU drops it for the segment; an empty string is an empty reference.
 * @example sentenceBleu("the cat sat", ["the cat sat down"]).score
 */
export function sentenceBleu(hyp: string, refs: readonly (string | null)[], options?: BleuOptions): BleuResult {
  if (typeof hyp !== "string") requireString(hyp, "hyp");
  const r = referenceList(refs, "refs", undefined, NULLS);
  const p = sentencePlan(options);
  const N = p.o.maxNgramOrder;
  // one crossing: statistics and compute_bleu's row, read straight from module memory
  const f64 = pairCall("bleuSentence", hyp, r, 4 + 5 * N, p.tok, p.lc, N, p.smooth, p.o.smoothValue, p.eff);
  const s = 2 + 2 * N;
  const precisions = new Array<number>(N);
  const counts = new Array<number>(N);
  const totals = new Array<number>(N);
  for (let k = 0; k < N; k++) {
    precisions[k] = f64[s + 2 + k]!;
    counts[k] = f64[s + 2 + N + k]!;
    totals[k] = f64[s + 2 + 2 * N + k]!;
  }
  return { score: f64[s]!, bp: f64[s + 1]!, precisions, counts, totals, sysLen: f64[0]!, refLen: f64[1]! };
}

/** Sentence options resolved once, with their kernel codes: reused while the options object and its fields are unchanged. */
interface SentencePlan {
  readonly o: ResolvedBleuOptions;
  readonly tok: number;
  readonly lc: number;
  readonly smooth: number;
  readonly eff: number;
}
const planOf = (o: ResolvedBleuOptions): SentencePlan => ({
  o,
  tok: TOKENIZERS.indexOf(o.tokenize),
  lc: o.lowercase ? 1 : 0,
  smooth: SMOOTHERS.indexOf(o.smoothMethod),
  eff: o.effectiveOrder ? 1 : 0,
});
let defaultPlan: SentencePlan | undefined;
let lastOptions: BleuOptions | undefined;
let lastFields: unknown[] = [];
let lastPlan: SentencePlan | undefined;

function sentencePlan(options: BleuOptions | undefined): SentencePlan {
  if (options === undefined) return (defaultPlan ??= planOf(resolveBleuOptions(undefined, true)));
  if (typeof options === "object" && options !== null) {
    const f = lastFields;
    if (
      options === lastOptions &&
      options.tokenize === f[0] &&
      options.lowercase === f[1] &&
      options.smoothMethod === f[2] &&
      options.smoothValue === f[3] &&
      options.maxNgramOrder === f[4] &&
      options.effectiveOrder === f[5]
    ) {
      return lastPlan!;
    }
    const plan = planOf(resolveBleuOptions(options, true));
    lastOptions = options;
    lastFields = [
      options.tokenize,
      options.lowercase,
      options.smoothMethod,
      options.smoothValue,
      options.maxNgramOrder,
      options.effectiveOrder,
    ];
    lastPlan = plan;
    return plan;
  }
  return planOf(resolveBleuOptions(options, true));
}

/**
 * Sentence statistics for many pairs in one crossing: n × (2 + 2N) f64, rows of
 * [sysLen, refLen, counts[N], totals[N]]. Sum rows for corpus statistics. `null` references are dropped.
 */
export function bleuStatisticsBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: BleuOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, NULLS);
  return statistics(b.hyps, b.refs, resolveBleuOptions(options, true));
}

/** Sentence BLEU scores (0–100) for many pairs: one f64 per pair. `null` references are dropped. */
export function sentenceBleuBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: BleuOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, NULLS);
  const p = sentencePlan(options);
  const k = kernels();
  const o = p.o;
  // one pass in the kernel: statistics and score per item, only the scores come back
  return runPairKernel(b.hyps, b.refs, 1, (l: Layout) =>
    k.bleuSentenceBatch(l.count, l.bytes, l.strOffs, l.refStart, p.tok, p.lc, o.maxNgramOrder, p.smooth, o.smoothValue, p.eff, l.out),
  );
}

/** The score column of `compute_bleu` over n statistics rows. */
function scoresOf(stats: Float64Array, n: number, o: ResolvedBleuOptions): Float64Array {
  const rows = scoreRows(stats, n, o);
  const w = 2 + 3 * o.maxNgramOrder;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = rows[i * w]!;
  return out;
}

/** Scores from many statistics rows (as returned by `bleuStatisticsBatch`): one f64 per row. */
export function bleuScoresFromStatisticsBatch(stats: Float64Array, options?: BleuOptions): Float64Array {
  const o = resolveBleuOptions(options, true);
  const width = widthOf(o.maxNgramOrder);
  if (!(stats instanceof Float64Array) || stats.length % width !== 0) {
    throw new InvalidArgumentError(`stats must be a Float64Array whose length is a multiple of ${width}`, {
      argument: "stats",
      expected: `Float64Array(n × ${width})`,
      actual: describe(stats),
    });
  }
  checkBleuRows(stats, o.maxNgramOrder, "stats");
  return scoresOf(stats, stats.length / width, o);
}

/**
 * sacreBLEU `corpus_bleu` / `BLEU().corpus_score`: statistics summed over segments, then one score.
 * `refs[i]` holds the references of `hyps[i]` (any count); `null` marks an absent reference (sacreBLEU's
 * `None` in a padded reference stream) and is dropped. Effective order is off by default.
 */
export function corpusBleu(hyps: readonly string[], refs: readonly (readonly (string | null)[])[], options?: BleuOptions): BleuResult {
  const b = pairBatch(hyps, refs, NULLS);
  const o = resolveBleuOptions(options, false);
  const stats = statistics(b.hyps, b.refs, o);
  return scoreStatistics(sumStatistics(stats, o.maxNgramOrder), o);
}

/** Column sums of n × (2 + 2N) statistics rows. */
export function sumStatistics(stats: Float64Array, maxNgramOrder: number): BleuStatistics {
  const N = optionInt(maxNgramOrder, "maxNgramOrder", 4, 1, 32);
  const w = widthOf(N);
  if (!(stats instanceof Float64Array) || stats.length % w !== 0) {
    throw new InvalidArgumentError(`stats must be a Float64Array whose length is a multiple of ${w}`, {
      argument: "stats",
      expected: `Float64Array(n × ${w})`,
      actual: describe(stats),
    });
  }
  checkBleuRows(stats, N, "stats");
  const sum = new Float64Array(w);
  for (let i = 0; i < stats.length; i += w) for (let j = 0; j < w; j++) sum[j]! += stats[i + j]!;
  for (let j = 0; j < w; j++) {
    if (sum[j]! > MAX_STATISTIC) {
      throw new InvalidArgumentError(`the summed statistic at column ${j} exceeds 2^53 (${sum[j]}): it would no longer be exact`, {
        argument: "stats",
        index: j,
        expected: "column sums of at most 2^53",
        actual: String(sum[j]),
      });
    }
  }
  return {
    sysLen: sum[0]!,
    refLen: sum[1]!,
    counts: Array.from(sum.subarray(2, 2 + N)),
    totals: Array.from(sum.subarray(2 + N)),
  };
}

/**
 * sacreBLEU `BLEU.compute_bleu(correct, total, sys_len, ref_len, ...)`: the score as a pure function of
 * the statistics. Effective order defaults to false here, as in `compute_bleu`.
 */
export function bleuFromStatistics(statistics: BleuStatistics, options?: BleuOptions): BleuResult {
  return scoreStatistics(statistics, resolveBleuOptions(options, false));
}

function scoreStatistics(statistics: BleuStatistics, o: ResolvedBleuOptions): BleuResult {
  const N = o.maxNgramOrder;
  const s = statistics as Partial<BleuStatistics> | null;
  const bad = (what: string): never => {
    throw new InvalidArgumentError(`statistics.${what}`, { argument: `statistics`, actual: describe(statistics) });
  };
  if (typeof s !== "object" || s === null) bad("must be an object { counts, totals, sysLen, refLen }");
  if (!Array.isArray(s!.counts) || s!.counts.length !== N) bad(`counts must be an array of ${N} numbers`);
  if (!Array.isArray(s!.totals) || s!.totals.length !== N) bad(`totals must be an array of ${N} numbers`);
  const row = new Float64Array(2 + 2 * N);
  const nums = [s!.sysLen, s!.refLen, ...s!.counts!, ...s!.totals!];
  const names = ["sysLen", "refLen", ...s!.counts!.map((_, k) => `counts[${k}]`), ...s!.totals!.map((_, k) => `totals[${k}]`)];
  for (let j = 0; j < nums.length; j++) {
    const v = nums[j];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_STATISTIC) {
      bad(`${names[j]} must be an integer count from 0 to 2^53, got ${describe(v)}`);
    }
    row[j] = v as number;
  }
  for (let k = 0; k < N; k++) {
    if (row[2 + k]! > row[2 + N + k]!)
      bad(`counts[${k}] (${row[2 + k]}) must not exceed totals[${k}] (${row[2 + N + k]}): more matches than n-grams`);
  }
  return resultAt(scoreRows(row, 1, o), row, 0, N);
}

/** sacreBLEU's BLEU signature (`nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`), plus our implementation tag. */
export function bleuSignature(options: BleuOptions | undefined, nrefs: number | "var", sentence = false): string {
  const o = resolveBleuOptions(options, sentence);
  const smooth =
    o.smoothMethod === "floor" || o.smoothMethod === "add-k" ? `${o.smoothMethod}[${o.smoothValue.toFixed(2)}]` : o.smoothMethod;
  return (
    `nrefs:${nrefs}|case:${o.lowercase ? "lc" : "mixed"}|eff:${o.effectiveOrder ? "yes" : "no"}` +
    `|tok:${o.tokenize}|smooth:${smooth}|version:2.6.0`
  );
}
