// NeMo Evaluator BYOB statistics (see assembly/byob.ts): the token LCS behind BYOB's `rouge_l`, and
// BYOB's own sentence BLEU (add-one smoothing, cumulative geometric means) from BLEU statistics.
import { InvalidArgumentError, describe } from "./errors.js";
import { kernels, runNumericKernel, runPairKernel, type Layout } from "./kernel.js";
import { bleuStatisticsWidth } from "./bleu.js";
import { INPUT_LIMITS, checkCells } from "./limits.js";
import { checkBleuRows, requireArray, requireString } from "./validate.js";

/**
 * Token LCS statistics over BYOB tokens (`x.lower().split()`): n × 3 f64, rows of
 * [hypothesis tokens, reference tokens, LCS length].
 * @example byobLcsStatisticsBatch(["the cat sat"], ["The cat  sat down"]) // [3, 4, 3]
 */
export function byobLcsStatisticsBatch(hyps: readonly string[], refs: readonly string[]): Float64Array {
  const h = requireArray(hyps, "hyps");
  const r = requireArray(refs, "refs");
  if (h.length !== r.length) {
    throw new InvalidArgumentError(`hyps and refs must have the same length: got ${h.length} and ${r.length}`, {
      argument: "refs",
      expected: `length ${h.length}`,
      actual: `length ${r.length}`,
    });
  }
  const refLists: string[][] = new Array(h.length);
  for (let i = 0; i < h.length; i++) {
    requireString(h[i], "hyps", i);
    refLists[i] = [requireString(r[i], "refs", i)];
  }
  for (let i = 0; i < h.length; i++) checkCells(h[i] as string, refLists[i]![0]!, INPUT_LIMITS.maxLcsCells, "BYOB LCS", "hyps", i);
  const k = kernels();
  return runPairKernel(h as readonly string[], refLists, 3, (l: Layout) => k.byobLcsBatch(l.count, l.bytes, l.strOffs, l.refStart, l.out));
}

/**
 * NeMo BYOB `bleu` (bleu_1..bleu_4) from BLEU statistics rows [sysLen, refLen, counts[4], totals[4]]
 * (`bleuStatisticsBatch(hyps, refs, { tokenize: "none", lowercase: true })` gives BYOB's tokens):
 * n × 4 f64. A pure function of the statistics; log/exp in WASM, so the last bit matches CPython on glibc.
 */
export function byobBleuScoresFromStatisticsBatch(stats: Float64Array): Float64Array {
  const width = bleuStatisticsWidth({ maxNgramOrder: 4 });
  if (!(stats instanceof Float64Array) || stats.length % width !== 0) {
    throw new InvalidArgumentError(`stats must be a Float64Array whose length is a multiple of ${width}`, {
      argument: "stats",
      expected: `Float64Array(n × ${width})`,
      actual: describe(stats),
    });
  }
  checkBleuRows(stats, 4, "stats");
  const n = stats.length / width;
  const k = kernels();
  return runNumericKernel(stats, n * 4, (inPtr, outPtr) => k.byobBleuScoreBatch(n, inPtr, outPtr));
}
