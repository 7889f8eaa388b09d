// Token F1 of DSPy (`F1` / `HotPotF1` in dspy/evaluate/metrics.py) and NeMo Evaluator BYOB
// (`f1_token`), bit-exact, computed in WASM.
//
// mode "dspy": tokens = normalize_text(x).split(); the score is the max over the references of
//   f1_score (0 when no token is shared, including when both sides are empty).
// mode "byob": tokens = x.lower().split() (no punctuation handling); an empty side or no shared token
//   gives 0 for all three values. BYOB scores one target; with several references the max is taken.
// hotpot (dspy mode only): DSPy `hotpot_f1_score`: when the normalised prediction or the normalised
//   reference is "yes", "no" or "noanswer" and the two differ, the score is 0.
// precision = common/len(prediction tokens), recall = common/len(reference tokens),
// f1 = ((2*p)*r)/(p+r) in doubles. The returned precision and recall are those of the reference with the
// largest f1, the first one on ties (as Python's `max`).
import { InvalidArgumentError, describe } from "./errors.js";
import { kernels, pairCall, runPairKernel, type Layout } from "./kernel.js";
import { optionBool, optionEnum, referenceList, requireArray, requireString } from "./validate.js";

export type TokenF1Mode = "dspy" | "byob";

export interface TokenF1Options {
  /** Tokenizer: "dspy" (normalize_text, default) or "byob" (lower + split). */
  readonly mode?: TokenF1Mode;
  /** DSPy HotPotQA rule for yes/no/noanswer (default false; "dspy" mode only). */
  readonly hotpot?: boolean;
}

export interface TokenF1Result {
  readonly f1: number;
  readonly precision: number;
  readonly recall: number;
}

const MODES: readonly TokenF1Mode[] = ["dspy", "byob"];

function flagsOf(options: TokenF1Options | undefined): number {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new InvalidArgumentError(`options must be an object, got ${describe(options)}`, { argument: "options" });
  }
  const mode = optionEnum(options?.mode, "options.mode", MODES, "dspy");
  const hotpot = optionBool(options?.hotpot, "options.hotpot", false);
  if (hotpot && mode !== "dspy") {
    throw new InvalidArgumentError('options.hotpot applies to mode "dspy" only', {
      argument: "options.hotpot",
      expected: 'false with mode "byob"',
      actual: "true",
    });
  }
  return (mode === "byob" ? 1 : 0) | (hotpot ? 2 : 0);
}

function run(predictions: readonly string[], references: readonly (readonly string[])[], flags: number): Float64Array {
  const k = kernels();
  return runPairKernel(
    predictions,
    references,
    3,
    (l: Layout) => k.tokenF1Batch(l.count, l.bytes, l.strOffs, l.refStart, l.out, flags),
    0,
    ["predictions", "references"],
  );
}

/**
 * Token F1 of one prediction against its references (at least one).
 * @example tokenF1("The cat sat", ["a cat sat down"]).f1 // ≈ 0.8 (p = 1, r = 2/3)
 */
export function tokenF1(prediction: string, references: readonly string[], opts?: TokenF1Options): TokenF1Result {
  if (typeof prediction !== "string") requireString(prediction, "prediction");
  const refs = referenceList(references, "references", undefined);
  // one crossing: [f1, precision, recall] read straight from module memory
  const r = pairCall("tokenF1Sentence", prediction, refs, 3, sentenceFlags(opts), 0, 0, 0, 0, 0, F1_NAMES);
  return { f1: r[0]!, precision: r[1]!, recall: r[2]! };
}

const F1_NAMES: readonly [string, string] = ["predictions", "references"];
let lastOptions: TokenF1Options | undefined;
let lastMode: unknown;
let lastHotpot: unknown;
let lastFlags = 0;

/** `flagsOf`, reused while the options object and its fields are unchanged. */
function sentenceFlags(options: TokenF1Options | undefined): number {
  if (options === undefined) return 0;
  if (
    options === lastOptions &&
    typeof options === "object" &&
    options !== null &&
    options.mode === lastMode &&
    options.hotpot === lastHotpot
  )
    return lastFlags;
  const flags = flagsOf(options);
  lastOptions = options;
  lastMode = options.mode;
  lastHotpot = options.hotpot;
  lastFlags = flags;
  return flags;
}

/**
 * Token F1 for many items in one crossing: `references[i]` are the references of `predictions[i]`.
 * Returns n × 3 f64: rows of [f1, precision, recall].
 */
export function tokenF1Batch(
  predictions: readonly string[],
  references: readonly (readonly string[])[],
  opts?: TokenF1Options,
): Float64Array {
  const flags = flagsOf(opts);
  const p = requireArray(predictions, "predictions");
  const r = requireArray(references, "references");
  if (p.length !== r.length) {
    throw new InvalidArgumentError(
      `predictions and references must have the same length (one reference list per prediction): got ${p.length} and ${r.length}`,
      { argument: "references", expected: `length ${p.length}`, actual: `length ${r.length}` },
    );
  }
  const refs: (readonly string[])[] = new Array(p.length);
  for (let i = 0; i < p.length; i++) {
    requireString(p[i], "predictions", i);
    refs[i] = referenceList(r[i], "references", i);
  }
  return run(p as readonly string[], refs, flags);
}
