/**
 * `@evalkern/metrics/lmeval`: lm-evaluation-harness multiple-choice scoring (`acc`, `acc_norm`,
 * `acc_bytes`, `exact_match`) with lm-eval's exact behaviour. `await ready()` once; then synchronous.
 */
export { ready } from "@evalkern/core-wasm";
export {
  multipleChoice,
  multipleChoiceBatch,
  type LmEvalGold,
  type LmEvalGoldItem,
  type MultipleChoiceInput,
  type MultipleChoiceOptions,
  type MultipleChoiceResult,
} from "./multiple-choice.js";
export { PythonCompatError } from "../errors.js";
