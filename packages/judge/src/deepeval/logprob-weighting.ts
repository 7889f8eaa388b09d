// G-Eval's probability-weighted score (docs/spec/judges.md §3.1, DeepEval `calculate_weighted_summed_score`,
// Python behaviour: the LAST generated token that spells the score carries the distribution).
import type { TokenLogprob } from "../model.js";

/** Candidates below 1% probability are ignored. */
export const MIN_LOGPROB = Math.log(0.01);

const DIGITS = /^[0-9]+$/;

/** How a G-Eval score was obtained. */
export type GEvalScoring =
  /** Σ value·p / Σ p over the score token's top logprobs. */
  | "logprob-weighted"
  /** The judge's integer as is: no logprobs, no token spelling the score, or no usable candidate. */
  | "raw"
  /** Strict mode: the judge's 0/1, never weighted. */
  | "strict";

export interface WeightedScore {
  readonly score: number;
  readonly scoring: "logprob-weighted" | "raw";
  /** Why the raw score was kept (when `scoring` is "raw"). */
  readonly fallback?: "no-logprobs" | "no-score-token" | "no-candidates";
}

/**
 * The expected score under the judge's token distribution.
 *
 * Details: find the last generated token whose text (trimmed) equals `String(rawScore)`; from its
 * `topLogprobs` drop candidates with `logprob < ln(0.01)` and candidates that are not all decimal
 * digits (after trimming, so `" 7"` counts as 7); sum `p = exp(logprob)` per integer value; return
 * `Σ value·p / Σ p`. Without logprobs, without a matching token (a non-integer score, or a multi-digit
 * score split over tokens) or without surviving candidates, the raw score is returned and the reason
 * recorded in `fallback`.
 *
 * @example
 * logprobWeightedScore(7, [{ token: "7", logprob: -0.2, topLogprobs: [
 *   { token: "7", logprob: Math.log(0.6) }, { token: "8", logprob: Math.log(0.3) }, { token: "6", logprob: Math.log(0.1) } ] }]);
 * // { score: 7.2, scoring: "logprob-weighted" }
 */
export function logprobWeightedScore(rawScore: number, tokens: readonly TokenLogprob[] | undefined | null): WeightedScore {
  if (!tokens || tokens.length === 0) return { score: rawScore, scoring: "raw", fallback: "no-logprobs" };
  const target = String(rawScore);
  let scoreToken: TokenLogprob | undefined;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token && token.token.trim() === target) {
      scoreToken = token;
      break;
    }
  }
  if (!scoreToken) return { score: rawScore, scoring: "raw", fallback: "no-score-token" };
  let weighted = 0;
  let total = 0;
  for (const candidate of scoreToken.topLogprobs ?? []) {
    if (!(candidate.logprob >= MIN_LOGPROB)) continue;
    const text = candidate.token.trim();
    if (!DIGITS.test(text)) continue;
    const p = Math.exp(candidate.logprob);
    weighted += Number.parseInt(text, 10) * p;
    total += p;
  }
  if (total === 0) return { score: rawScore, scoring: "raw", fallback: "no-candidates" };
  return { score: weighted / total, scoring: "logprob-weighted" };
}
