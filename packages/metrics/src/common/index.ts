/**
 * `@evalkern/metrics/common`: what users of the TS evaluation libraries (autoevals, promptfoo, evalite)
 * reach for — Levenshtein distance and similarity over code points, and autoevals-style `JSONDiff`,
 * `NumericDiff`, `ListContains`, `ExactMatch` and `ValidJSON` returning `Score { name, score, metadata }`. `await ready()` once.
 */
export { ready } from "@evalkern/core-wasm";
export type { Score, Scorer, ScorerArgs } from "./score.js";
export {
  levenshtein,
  levenshteinSimilarity,
  levenshteinBatch,
  levenshteinSimilarityBatch,
  Levenshtein,
} from "./levenshtein.js";
export { numericDiff, NumericDiff } from "./numeric-diff.js";
export { JSONDiff, type JSONDiffArgs } from "./json-diff.js";
export { ListContains, type ListContainsArgs, type ListContainsPair } from "./list-contains.js";
export { ExactMatch, normalizeValue, type ExactMatchArgs } from "./exact-match.js";
export { ValidJSON, validJson, compileJsonSchema, type ValidJSONArgs } from "./valid-json.js";
