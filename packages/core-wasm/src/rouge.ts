// ROUGE as Google's `rouge-score` 0.1.x computes it (`RougeScorer(types, use_stemmer)` with the default
// tokenizer, split_summaries=False): rouge1..rouge9, rougeL and rougeLsum, optionally with NLTK's Porter
// stemmer. One reference gives `score(target, prediction)`; several give `score_multi`, which keeps,
// per ROUGE type, the reference with the highest F (the first on ties).
import { InputTooLargeError, InvalidArgumentError, describe } from "./errors.js";
import { kernels, memoryViews, pairCall, runPairKernel } from "./kernel.js";
import { INPUT_LIMITS, checkCells } from "./limits.js";
import { optionBool, pairBatch, referenceList, requireString } from "./validate.js";

export type RougeType =
  | "rouge1"
  | "rouge2"
  | "rouge3"
  | "rouge4"
  | "rouge5"
  | "rouge6"
  | "rouge7"
  | "rouge8"
  | "rouge9"
  | "rougeL"
  | "rougeLsum";

export interface RougeOptions {
  /** ROUGE types to compute, in output order (default rouge1, rouge2, rougeL, rougeLsum). */
  readonly types?: readonly RougeType[];
  /** NLTK Porter stemming of tokens longer than 3 chars, as `use_stemmer=True` (default false). */
  readonly useStemmer?: boolean;
}

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** The types computed when `options.types` is not given. */
export const DEFAULT_ROUGE_TYPES: readonly RougeType[] = Object.freeze(["rouge1", "rouge2", "rougeL", "rougeLsum"] as const);

// Kernel type codes: 1..9 = rougeN, 10 = rougeL, 11 = rougeLsum (see assembly/rouge.ts).
const CODES: Readonly<Record<string, number>> = Object.freeze({
  rouge1: 1,
  rouge2: 2,
  rouge3: 3,
  rouge4: 4,
  rouge5: 5,
  rouge6: 6,
  rouge7: 7,
  rouge8: 8,
  rouge9: 9,
  rougeL: 10,
  rougeLsum: 11,
});

interface Resolved {
  readonly types: readonly RougeType[];
  readonly codes: readonly number[];
  readonly useStemmer: boolean;
}

function resolve(options: RougeOptions | undefined): Resolved {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new InvalidArgumentError(`options must be an object, got ${describe(options)}`, {
      argument: "options",
      expected: "object",
      actual: describe(options),
    });
  }
  const o = options ?? {};
  const useStemmer = optionBool(o.useStemmer, "options.useStemmer", false);
  if (o.types === undefined) return { types: DEFAULT_ROUGE_TYPES, codes: [1, 2, 10, 11], useStemmer };
  if (!Array.isArray(o.types)) {
    throw new InvalidArgumentError(`options.types must be an array of ROUGE types, got ${describe(o.types)}`, {
      argument: "options.types",
      expected: "RougeType[]",
      actual: describe(o.types),
    });
  }
  const types = o.types as readonly unknown[];
  const codes: number[] = new Array(types.length);
  for (let k = 0; k < types.length; k++) {
    const t = types[k];
    const code = typeof t === "string" && Object.prototype.hasOwnProperty.call(CODES, t) ? CODES[t] : undefined;
    if (code === undefined) {
      throw new InvalidArgumentError(`options.types[${k}] must be one of rouge1..rouge9, rougeL, rougeLsum, got ${describe(t)}`, {
        argument: "options.types",
        index: k,
        expected: "rouge1..rouge9 | rougeL | rougeLsum",
        actual: describe(t),
      });
    }
    codes[k] = code;
  }
  return { types: types.slice() as RougeType[], codes, useStemmer };
}

/**
 * ROUGE-Lsum's work: one DP table per (reference line, hypothesis line) pair, so about
 * tokens(hyp) × tokens(ref) cells plus a fixed cost per line pair. Counted exactly (one pass over both
 * strings) only when the length product could exceed `maxLcsSumCells`.
 */
function checkLsum(h: string, r: string, index: number): void {
  const limit = INPUT_LIMITS.maxLcsSumCells;
  if (h.length * r.length <= limit) return;
  const a = lsumShape(h);
  const b = lsumShape(r);
  const cost = a.tokens * b.tokens + LINE_PAIR_COST * a.lines * b.lines;
  if (cost > limit) {
    throw new InputTooLargeError(
      `rougeLsum of hyps[${index}] needs ${a.tokens} × ${b.tokens} token cells plus ${a.lines} × ${b.lines} line pairs ` +
        `(cost ${cost}), over its limit of ${limit} ` +
        `(INPUT_LIMITS.maxLcsSumCells): its time grows with the product of the lengths`,
      {
        argument: "hyps",
        index,
        expected: `cost at most ${limit}`,
        actual: `cost ${cost}`,
        kind: "pair",
        limit,
        size: cost,
        unit: "cells",
      },
    );
  }
}

/** One line pair of ROUGE-Lsum costs about as much as this many DP cells (measured). */
const LINE_PAIR_COST = 64;

/** Tokens (runs of ASCII letters and digits, an upper bound of rouge-score's) and lines with a token. */
function lsumShape(s: string): { tokens: number; lines: number } {
  let tokens = 0;
  let lines = 0;
  let inToken = false;
  let lineHasToken = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20; // folds ASCII upper case onto lower case
    const word = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x130 || c === 0x212a;
    if (word && !inToken) {
      tokens++;
      lineHasToken = true;
    } else if (s.charCodeAt(i) === 0x0a) {
      if (lineHasToken) lines++;
      lineHasToken = false;
    }
    inToken = word;
  }
  if (lineHasToken) lines++;
  return { tokens, lines };
}

/** n × types × 3 f64 for already validated input. */
function run(hyps: readonly string[], refs: readonly (readonly string[])[], o: Resolved): Float64Array {
  const tc = o.codes.length;
  if (hyps.length === 0 || tc === 0) return new Float64Array(hyps.length * 3 * tc);
  const lsum = o.codes.includes(11);
  if (lsum || o.codes.includes(10)) {
    // ROUGE-L's LCS and ROUGE-Lsum's tables take time in the product of the two lengths
    for (let i = 0; i < hyps.length; i++) {
      for (const r of refs[i]!) {
        checkCells(hyps[i]!, r, INPUT_LIMITS.maxLcsCells, "rougeL", "hyps", i);
        if (lsum) checkLsum(hyps[i]!, r, i);
      }
    }
  }
  const k = kernels();
  const stem = o.useStemmer ? 1 : 0;
  return runPairKernel(
    hyps,
    refs,
    3 * tc,
    (l) => {
      // the type codes go in the layout's extra region, as u32
      const { u32 } = memoryViews();
      for (let t = 0; t < tc; t++) u32[(l.extra >>> 2) + t] = o.codes[t]!;
      k.rougeBatch(l.count, l.bytes, l.strOffs, l.refStart, l.extra, tc, stem, l.out);
    },
    (tc + 1) >> 1,
  );
}

/**
 * rouge-score `RougeScorer(types, use_stemmer).score(target=refs, prediction=hyp)` for one reference,
 * `score_multi(targets=refs, prediction=hyp)` for several.
 */
export function rougeScore(hyp: string, refs: string | readonly string[], options?: RougeOptions): Record<RougeType, RougeScore> {
  if (typeof hyp !== "string") requireString(hyp, "hyp");
  const r = typeof refs === "string" ? [refs] : referenceList(refs, "refs", undefined, SINGLE);
  const p = sentencePlan(options);
  const o = p.o;
  const tc = o.codes.length;
  const out = {} as Record<RougeType, RougeScore>;
  if (tc === 0) return out;
  if (tc > 32) {
    const row = run([hyp], [r], o);
    for (let t = 0; t < tc; t++) out[o.types[t]!] = { precision: row[3 * t]!, recall: row[3 * t + 1]!, fmeasure: row[3 * t + 2]! };
    return out;
  }
  if (p.lcs) {
    // ROUGE-L's LCS and ROUGE-Lsum's tables take time in the product of the two lengths (as `run`)
    for (let j = 0; j < r.length; j++) {
      checkCells(hyp, r[j]!, INPUT_LIMITS.maxLcsCells, "rougeL", "hyps", 0);
      if (p.lsum) checkLsum(hyp, r[j]!, 0);
    }
  }
  // one crossing: the type codes go as arguments, the rows are read straight from module memory
  const f64 = pairCall("rougeSentence", hyp, r, 3 * tc, p.c0, p.c1, p.c2, p.c3, tc, p.stem);
  // a copy of the plan's template (its keys in output order): adding the keys one by one to `{}` costs
  // ~1 µs per call once other code has given the empty object's map too many transitions
  const res = { ...p.template };
  for (let t = 0; t < tc; t++) res[o.types[t]!] = { precision: f64[3 * t]!, recall: f64[3 * t + 1]!, fmeasure: f64[3 * t + 2]! };
  return res;
}

const SINGLE = Object.freeze({ single: true });
const EMPTY: RougeScore = Object.freeze({ precision: 0, recall: 0, fmeasure: 0 });

/** Per-call options resolved once, with the type codes packed for `rougeSentence` (4 bits each, 8 per number). */
interface SentencePlan {
  readonly o: Resolved;
  readonly c0: number;
  readonly c1: number;
  readonly c2: number;
  readonly c3: number;
  readonly stem: number;
  readonly lcs: boolean;
  readonly lsum: boolean;
  /** The result's keys in output order (values replaced per call). */
  readonly template: Record<RougeType, RougeScore>;
}
function planOf(o: Resolved): SentencePlan {
  const c = [0, 0, 0, 0];
  for (let t = 0; t < o.codes.length && t < 32; t++) c[t >> 3]! |= o.codes[t]! << (4 * (t & 7));
  const lsum = o.codes.includes(11);
  const template = {} as Record<RougeType, RougeScore>;
  for (const t of o.types) template[t] = EMPTY;
  return { o, c0: c[0]!, c1: c[1]!, c2: c[2]!, c3: c[3]!, stem: o.useStemmer ? 1 : 0, lcs: lsum || o.codes.includes(10), lsum, template };
}
let defaultPlan: SentencePlan | undefined;
let lastOptions: RougeOptions | undefined;
let lastTypes: readonly unknown[] | undefined;
let lastStem: unknown;
let lastPlan: SentencePlan | undefined;

/** The plan of `options`, reused while the options object, its `types` array (element by element) and `useStemmer` are unchanged. */
function sentencePlan(options: RougeOptions | undefined): SentencePlan {
  if (options === undefined) return (defaultPlan ??= planOf(resolve(undefined)));
  if (typeof options === "object" && options !== null && options === lastOptions && options.useStemmer === lastStem) {
    const types = options.types as readonly unknown[] | undefined;
    const plan = lastPlan!;
    if (
      types === undefined ? lastTypes === undefined : types === lastTypes && Array.isArray(types) && types.length === plan.o.types.length
    ) {
      let same = true;
      if (types !== undefined) for (let t = 0; t < types.length && same; t++) same = types[t] === plan.o.types[t];
      if (same) return plan;
    }
  }
  const plan = planOf(resolve(options));
  if (typeof options === "object" && options !== null) {
    lastOptions = options;
    lastTypes = options.types as readonly unknown[] | undefined;
    lastStem = options.useStemmer;
    lastPlan = plan;
  }
  return plan;
}

/**
 * ROUGE for many pairs: n × types.length × 3 f64 (precision, recall, fmeasure), types in `options.types`
 * order. `refs[i]` is one reference string or a non-empty array of them (several = score_multi).
 */
export function rougeBatch(hyps: readonly string[], refs: readonly (string | readonly string[])[], options?: RougeOptions): Float64Array {
  const b = pairBatch(hyps, refs, { single: true });
  const o = resolve(options);
  return run(b.hyps, b.refs, o);
}
