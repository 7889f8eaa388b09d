/**
 * `@evalkern/metrics/byob`: NeMo Evaluator BYOB's built-in scorers (`nemo_evaluator.contrib.byob`,
 * branch main-legacy), `@scorer`, `any_of`/`all_of` and `aggregate_scores`, with the original's numbers
 * and key names. Call `await ready()` (from `@evalkern/metrics` or `@evalkern/core-wasm`) once first;
 * every scorer is then synchronous.
 */
export type { ScorerInput, ScoreDict, ScorerFn } from "./types.js";
export { scorer, isScorer, anyOf, allOf, checkScoreDict, ScorerResultError, type Scorer } from "./scorer.js";
export { exactMatch, contains, f1Token, bleu, rouge, chrf } from "./text.js";
export { regexMatch } from "./regex-match.js";
export { retrievalMetrics } from "./retrieval.js";
export { multipleChoiceAcc, resolveGoldIndex } from "./multiple-choice.js";
export { mcqLetterExtract, extractLetter, targetLetter } from "./mcq-letter.js";
export { gsm8kAnswer, normalizeNumber } from "./gsm8k.js";
export { booleanYesno } from "./boolean-yesno.js";
export { aggregateScores, type AggregateResult, type AggregatedScore } from "./aggregate.js";
export { PyFloat, pyFloat } from "../python/repr.js";
export { compilePython } from "./python-re.js";
export {
  PythonRegex,
  PythonRegexError,
  RegexBudgetExceededError,
  IGNORECASE,
  MULTILINE,
  DOTALL,
  VERBOSE,
  ASCII,
  type PythonMatch,
  type PythonRegexOptions,
} from "../python/regex.js";
export { PythonCompatError } from "../errors.js";
export { ready } from "@evalkern/core-wasm";
