// DSPy's judge-side `f1_score(precision, recall)` (dspy/evaluate/auto_evaluation.py; docs/spec/judges.md §7.2).

function clampUnit(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

/**
 * Harmonic mean of precision and recall after clamping both to [0, 1]; `p + r == 0 → 0`.
 *
 * Gotchas: not the token-level SQuAD F1 of `@evalkern/metrics/dspy` (`F1`), which compares strings.
 *
 * @example
 * judgeF1(0.8, 0.5); // 0.6153846153846154
 * judgeF1(1.4, -1);  // 0 (clamped to 1 and 0)
 */
export function judgeF1(precision: number, recall: number): number {
  const p = clampUnit(precision);
  const r = clampUnit(recall);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}
