// Multiple-choice argmax as lm-evaluation-harness and NeMo BYOB compute it.
import { InvalidArgumentError, describe } from "./errors.js";
import { chunks, kernels, layout, memoryViews } from "./kernel.js";
import { checkItems } from "./limits.js";
import { requireArray, requireString } from "./validate.js";

/** Index of the chosen answer under each normalisation (first index on ties, as numpy's argmax). */
export interface MultipleChoiceArgmax {
  /** argmax of the log-likelihoods (lm-eval `acc`). */
  readonly raw: number;
  /** argmax of ll / code points of the choice (lm-eval `acc_norm`; no guard: ll/0 is ±inf or NaN, and the first NaN wins). */
  readonly perChar: number;
  /** argmax of ll / UTF-8 bytes of the choice (lm-eval `acc_bytes`; no guard). */
  readonly perByte: number;
  /** argmax of ll / max(UTF-8 bytes, 1) (NeMo BYOB `acc_norm`). */
  readonly perByteAtLeastOne: number;
}

export interface MultipleChoiceQuestion {
  /** The choice strings, without lm-eval's target delimiter. */
  readonly choices: readonly string[];
  /** Summed log-likelihood of each choice's continuation. */
  readonly logLikelihoods: readonly number[];
}

function check(q: MultipleChoiceQuestion, index: number | undefined): void {
  const at = index === undefined ? "" : `[${index}]`;
  if (typeof q !== "object" || q === null) {
    throw new InvalidArgumentError(`question${at} must be { choices, logLikelihoods }, got ${describe(q)}`, {
      argument: "questions",
      index,
    });
  }
  requireArray(q.choices, `choices${at}`);
  requireArray(q.logLikelihoods, `logLikelihoods${at}`);
  if (q.choices.length === 0)
    throw new InvalidArgumentError(`choices${at} is empty (numpy's argmax of nothing raises)`, { argument: "choices", index });
  if (q.choices.length !== q.logLikelihoods.length) {
    throw new InvalidArgumentError(
      `choices${at} and logLikelihoods${at} differ in length (${q.choices.length} vs ${q.logLikelihoods.length})`,
      {
        argument: "logLikelihoods",
        index,
      },
    );
  }
  q.choices.forEach((c, j) => requireString(c, `choices${at}`, j));
  q.logLikelihoods.forEach((v, j) => {
    if (typeof v !== "number")
      throw new InvalidArgumentError(`logLikelihoods${at}[${j}] must be a number, got ${describe(v)}`, {
        argument: "logLikelihoods",
        index,
      });
  });
}

/** Argmax indices for many questions in one crossing: q × 4 f64 (raw, perChar, perByte, perByteAtLeastOne). */
export function multipleChoiceArgmaxBatch(questions: readonly MultipleChoiceQuestion[]): Float64Array {
  requireArray(questions, "questions");
  questions.forEach((q, i) => check(q, i));
  checkItems(
    questions.length,
    () => "",
    (i) => questions[i]!.choices,
    "choices",
    "choices",
    false,
  );
  const out = new Float64Array(questions.length * 4);
  const k = kernels();
  // one "item" per choice string; the question → choice ranges and the lls go in the extra area
  chunks(
    questions.length,
    (i) => questions[i]!.choices.reduce((a, c) => a + c.length, 0),
    (from, to) => {
      const flat: string[] = [];
      const starts = [0];
      for (let i = from; i < to; i++) {
        for (const c of questions[i]!.choices) flat.push(c);
        starts.push(flat.length);
      }
      const q = to - from;
      // extra: lls (one per choice) + choiceStart (u32, q+1, packed two per f64)
      const l = layout(0, flat.length, (j) => flat[j]!, undefined, 0, flat.length + Math.ceil((q + 1) / 2) + 4 * q);
      const { f64, u32 } = memoryViews();
      let p = l.extra >>> 3;
      for (let i = from; i < to; i++) for (const v of questions[i]!.logLikelihoods) f64[p++] = v;
      const startsPtr = p << 3;
      u32.set(starts, startsPtr >>> 2);
      const outPtr = (startsPtr + 4 * (q + 1) + 7) & ~7;
      k.mcArgmaxBatch(q, l.bytes, l.strOffs, startsPtr, l.extra, outPtr);
      out.set(memoryViews().f64.subarray(outPtr >>> 3, (outPtr >>> 3) + 4 * q), from * 4);
    },
  );
  return out;
}

/** Argmax indices for one question. */
export function multipleChoiceArgmax(choices: readonly string[], logLikelihoods: readonly number[]): MultipleChoiceArgmax {
  const q = { choices, logLikelihoods };
  check(q, undefined);
  const r = multipleChoiceArgmaxBatch([q]);
  return { raw: r[0]!, perChar: r[1]!, perByte: r[2]!, perByteAtLeastOne: r[3]! };
}
