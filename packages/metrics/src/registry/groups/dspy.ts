// Rule group "dspy" (see ../rules.ts): DSPy's answer matches as functions of (hypothesis, references).
// Token F1 and normalisation run in core-wasm, so this group loads nothing beyond the kernels.
import { answerExactMatch as dspyAnswerExactMatch, answerPassageMatch as dspyAnswerPassageMatch } from "../../dspy/answer-match.js";

type Options = Readonly<Record<string, unknown>>;

/** DSPy `answer_exact_match`: EM against every reference, or token-F1 ≥ `frac` when `frac` < 1. */
export function answerExactMatch(hypothesis: string, references: readonly string[], options: Options = {}): boolean {
  const frac = options.frac === undefined ? 1.0 : Number(options.frac);
  return dspyAnswerExactMatch({ answer: [...references] }, { answer: hypothesis }, undefined, frac);
}

/** DSPy `answer_passage_match`: does any reference answer occur in the hypothesis taken as a passage? */
export function answerPassageMatch(hypothesis: string, references: readonly string[]): boolean {
  return dspyAnswerPassageMatch({ answer: [...references] }, { context: [hypothesis] });
}
