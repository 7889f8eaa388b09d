// ROUGE as Google's `rouge-score` 0.1.x computes it (`RougeScorer(types, use_stemmer)` with the default
// tokenizer, split_summaries=False): rouge1..rouge9, rougeL and rougeLsum, optionally with NLTK's Porter
// stemmer. One reference gives `score(target, prediction)`; several give `score_multi`, which keeps,
// per ROUGE type, the reference with the highest F (the first on ties).
import { InvalidArgumentError, describe } from "./errors.js";
import { kernels, memoryViews, runPairKernel } from "./kernel.js";
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

type Exports = {
  rougeBatch(
    n: number, bytes: number, strOffs: number, refStart: number,
    types: number, typeCount: number, useStemmer: number, out: number,
  ): void;
};

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
      throw new InvalidArgumentError(
        `options.types[${k}] must be one of rouge1..rouge9, rougeL, rougeLsum, got ${describe(t)}`,
        { argument: "options.types", index: k, expected: "rouge1..rouge9 | rougeL | rougeLsum", actual: describe(t) },
      );
    }
    codes[k] = code;
  }
  return { types: types.slice() as RougeType[], codes, useStemmer };
}

/** n × types × 3 f64 for already validated input. */
function run(hyps: readonly string[], refs: readonly (readonly string[])[], o: Resolved): Float64Array {
  const tc = o.codes.length;
  if (hyps.length === 0 || tc === 0) return new Float64Array(hyps.length * 3 * tc);
  const k = kernels() as unknown as Exports;
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
export function rougeScore(
  hyp: string,
  refs: string | readonly string[],
  options?: RougeOptions,
): Record<RougeType, RougeScore> {
  requireString(hyp, "hyp");
  const r = referenceList(refs, "refs", undefined, { single: true });
  const o = resolve(options);
  const row = run([hyp], [r], o);
  const out = {} as Record<RougeType, RougeScore>;
  for (let t = 0; t < o.types.length; t++) {
    out[o.types[t]!] = { precision: row[3 * t]!, recall: row[3 * t + 1]!, fmeasure: row[3 * t + 2]! };
  }
  return out;
}

/**
 * ROUGE for many pairs: n × types.length × 3 f64 (precision, recall, fmeasure), types in `options.types`
 * order. `refs[i]` is one reference string or a non-empty array of them (several = score_multi).
 */
export function rougeBatch(
  hyps: readonly string[],
  refs: readonly (string | readonly string[])[],
  options?: RougeOptions,
): Float64Array {
  const b = pairBatch(hyps, refs, { single: true });
  const o = resolve(options);
  return run(b.hyps, b.refs, o);
}
