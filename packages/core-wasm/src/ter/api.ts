// TER as sacreBLEU 2.6.0 computes it (`sacrebleu.metrics.TER`, `lib_ter.translation_edit_rate`, the
// `TercomTokenizer`): tercom tokenisation and normalisation, shifts searched greedily with tercom's ranking
// and limits (shift size 10, distance 50, 1000 candidates per sentence), a beam edit distance around the
// length-ratio diagonal (width 25), best reference by edits, average reference length, corpus = summed
// edits / summed average reference lengths, ×100.
//
// Everything here is integer arithmetic except the average reference length and the final division,
// which are the same IEEE operations as Python's, so results are bit-exact in every runtime. Words are
// interned to integers per segment; edit-distance rows are reused across shift candidates (sacreBLEU's
// prefix-trie cache saves work only: every row depends on the hypothesis prefix and its fixed length).
import { InputTooLargeError, InvalidArgumentError, describe } from "../errors.js";
import { INPUT_LIMITS, checkPairSizes } from "../limits.js";
import { lowersNatively, pythonLowerBatch } from "../normalize.js";
import { NULLS, pairBatch, referenceList, requireString } from "../validate.js";
import { TerEngine } from "./engine.js";
import { beginSegment, endCall, segmentString, segmentWords, vocabSize } from "./interning.js";
import { resolveTerOptions, type ResolvedTerOptions, type TerOptions } from "./tokenizer.js";

/** sacreBLEU's `TERScore`: `score` on 0–100 (lower is better), edits and the (summed average) reference length. */
export interface TerResult {
  readonly score: number;
  readonly numEdits: number;
  readonly refLength: number;
}

/** Statistics per segment: [numEdits, refLength]. */
const TER_STATISTICS_WIDTH = 2;

/** Per-item statistics width under these options: 2, [numEdits, refLength] (the options are only checked). */
export function terStatisticsWidth(options?: TerOptions): number {
  resolveTerOptions(options);
  return TER_STATISTICS_WIDTH;
}

const ENGINE = new TerEngine();

/** Segment statistics: [best edits over the references, average reference length]. */
function segment(hyp: string, refs: readonly string[], o: ResolvedTerOptions, out: Float64Array, at: number, index: number): void {
  beginSegment();
  const nh = segmentString(hyp, o, 0);
  let best = Infinity;
  let lengths = 0;
  for (const ref of refs) {
    const nr = segmentString(ref, o, nh);
    // the shift search costs about hyp words × ref words per candidate: bounded before it starts
    const cells = nh * nr;
    if (cells > INPUT_LIMITS.maxTerWordPairs) {
      throw new InputTooLargeError(
        `TER of hyps[${index}] compares ${nh} × ${nr} = ${cells} word pairs` +
          `, over its limit of ${INPUT_LIMITS.maxTerWordPairs} (INPUT_LIMITS.maxTerWordPairs)` +
          `: its time grows faster than the product of the lengths`,
        {
          argument: "hyps",
          index,
          expected: `at most ${INPUT_LIMITS.maxTerWordPairs} word pairs`,
          actual: `${cells} word pairs`,
          kind: "pair",
          limit: INPUT_LIMITS.maxTerWordPairs,
          size: cells,
          unit: "word pairs",
        },
      );
    }
    const edits = ENGINE.editRate(segmentWords, 0, nh, nh, nr, vocabSize);
    lengths += nr;
    if (edits < best) best = edits;
  }
  out[at] = best;
  out[at + 1] = lengths / refs.length;
}

/** Pairs lowercased per crossing into the kernel. */
const LOWER_CHUNK = 1024;

function statistics(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedTerOptions): Float64Array {
  checkPairSizes(hyps, refs, "hyps", "refs", false);
  const out = new Float64Array(hyps.length * TER_STATISTICS_WIDTH);
  try {
    if (o.caseSensitive) {
      for (let i = 0; i < hyps.length; i++) segment(hyps[i]!, refs[i]!, o, out, i * TER_STATISTICS_WIDTH, i);
    } else lowercasedSegments(hyps, refs, o, out);
  } finally {
    endCall();
  }
  return out;
}

function lowercasedSegments(hyps: readonly string[], refs: readonly (readonly string[])[], o: ResolvedTerOptions, out: Float64Array): void {
  // Python `str.lower()`: strings the runtime lowers alike here, the others in one crossing per chunk of pairs
  const lowered: string[] = [];
  const pending: string[] = [];
  const slots: number[] = [];
  for (let from = 0; from < hyps.length; from += LOWER_CHUNK) {
    const to = Math.min(hyps.length, from + LOWER_CHUNK);
    lowered.length = 0;
    pending.length = 0;
    slots.length = 0;
    for (let i = from; i < to; i++) {
      for (let r = -1; r < refs[i]!.length; r++) {
        const s = r < 0 ? hyps[i]! : refs[i]![r]!;
        if (!lowersNatively(s)) {
          slots.push(lowered.length);
          pending.push(s);
          lowered.push("");
        } else lowered.push(s.toLowerCase());
      }
    }
    if (pending.length > 0) {
      const done = pythonLowerBatch(pending);
      for (let k = 0; k < done.length; k++) lowered[slots[k]!] = done[k]!;
    }
    let k = 0;
    for (let i = from; i < to; i++) {
      const h = lowered[k++]!;
      const rs = refs[i]!;
      const lr = rs.length === 1 ? [lowered[k]!] : lowered.slice(k, k + rs.length);
      k += rs.length;
      segment(h, lr, o, out, i * TER_STATISTICS_WIDTH, i);
    }
  }
}

/** sacreBLEU `TER._compute_score_from_stats`. */
function score(numEdits: number, refLength: number): number {
  if (refLength > 0) return 100 * (numEdits / refLength);
  return numEdits > 0 ? 100 * 1.0 : 100 * 0.0;
}

// ------------------------------------------------------------------------------- public API

/**
 * sacreBLEU `TER().sentence_score(hyp, refs)`.
 * @example sentenceTer("the cat sat on mat", ["the cat sat on the mat"]).score // 16.666…
 */
export function sentenceTer(hyp: string, refs: readonly (string | null)[], options?: TerOptions): TerResult {
  requireString(hyp, "hyp");
  const r = referenceList(refs, "refs", undefined, NULLS);
  const o = resolveTerOptions(options);
  const s = statistics([hyp], [r], o);
  return { score: score(s[0]!, s[1]!), numEdits: s[0]!, refLength: s[1]! };
}

/** Segment statistics for many pairs: n × 2 f64, rows of [numEdits, refLength]. Sum rows for a corpus. */
export function terStatisticsBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: TerOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, NULLS);
  return statistics(b.hyps, b.refs, resolveTerOptions(options));
}

/** Sentence TER scores (0–100) for many pairs. */
export function sentenceTerBatch(
  hyps: readonly string[],
  refs: readonly (readonly (string | null)[])[],
  options?: TerOptions,
): Float64Array {
  return terScoresFromStatisticsBatch(terStatisticsBatch(hyps, refs, options));
}

/**
 * sacreBLEU `TER().corpus_score(hyps, [refs…])`: edits and average reference lengths summed in segment
 * order, then one score. `refs[i]` holds the references of `hyps[i]`; `null` (a padded stream's `None`) is dropped.
 */
export function corpusTer(hyps: readonly string[], refs: readonly (readonly (string | null)[])[], options?: TerOptions): TerResult {
  const b = pairBatch(hyps, refs, NULLS);
  const s = statistics(b.hyps, b.refs, resolveTerOptions(options));
  let edits = 0;
  let length = 0;
  for (let i = 0; i < s.length; i += 2) {
    edits += s[i]!;
    length += s[i + 1]!;
  }
  return { score: score(edits, length), numEdits: edits, refLength: length };
}

function checkStatistic(v: unknown, what: string, integer: boolean): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > Number.MAX_SAFE_INTEGER || (integer && !Number.isInteger(v))) {
    throw new InvalidArgumentError(
      `TER statistics: ${what} must be a finite non-negative ${integer ? "integer" : "number"}, got ${describe(v)}`,
      {
        argument: "statistics",
        actual: describe(v),
      },
    );
  }
  return v;
}

/**
 * The score, refused when it is not finite: a reference length is an average of word counts, so a
 * positive one so small that edits / length overflows (numEdits 1, refLength 5e-324 gave Infinity)
 * cannot come from text.
 */
function finiteScore(numEdits: number, refLength: number, index?: number): number {
  const s = score(numEdits, refLength);
  if (!Number.isFinite(s)) {
    throw new InvalidArgumentError(`TER statistics: numEdits ${numEdits} over refLength ${refLength} is no possible score`, {
      argument: index === undefined ? "statistics" : "stats",
      index,
      expected: "a refLength that is 0 or an average of word counts",
      actual: String(refLength),
    });
  }
  return s;
}

/** The score of (summed) statistics `{ numEdits, refLength }` — sacreBLEU `_compute_score_from_stats`. */
export function terFromStatistics(statistics: { readonly numEdits: number; readonly refLength: number }): TerResult {
  if (typeof statistics !== "object" || statistics === null) {
    throw new InvalidArgumentError("TER statistics must be an object { numEdits, refLength }", {
      argument: "statistics",
      actual: describe(statistics),
    });
  }
  const e = checkStatistic(statistics.numEdits, "numEdits", true);
  const l = checkStatistic(statistics.refLength, "refLength", false);
  return { score: finiteScore(e, l), numEdits: e, refLength: l };
}

/** Scores from n statistics rows (as returned by `terStatisticsBatch`, or summed rows): one f64 per row. */
export function terScoresFromStatisticsBatch(stats: Float64Array): Float64Array {
  if (!(stats instanceof Float64Array) || stats.length % TER_STATISTICS_WIDTH !== 0) {
    throw new InvalidArgumentError(`stats must be a Float64Array whose length is a multiple of ${TER_STATISTICS_WIDTH}`, {
      argument: "stats",
      expected: `Float64Array(n × ${TER_STATISTICS_WIDTH})`,
      actual: describe(stats),
    });
  }
  const out = new Float64Array(stats.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = finiteScore(checkStatistic(stats[2 * i], "numEdits", false), checkStatistic(stats[2 * i + 1], "refLength", false), 2 * i + 1);
  }
  return out;
}

/** sacreBLEU's TER signature (`nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`). */
export function terSignature(options: TerOptions | undefined, nrefs: number | "var"): string {
  const o = resolveTerOptions(options);
  return (
    `nrefs:${nrefs}|case:${o.caseSensitive ? "mixed" : "lc"}|tok:tercom|norm:${o.normalized ? "yes" : "no"}` +
    `|punct:${o.noPunct ? "no" : "yes"}|asian:${o.asianSupport ? "yes" : "no"}|version:2.6.0`
  );
}
