/**
 * `@evalkern/judge/promptfoo`: promptfoo's model-graded assertion types graded by the judge, as tables a
 * suite runner looks up by type name (see each file's header for the context and result types).
 */
export {
  MODEL_GRADED_ASSERTIONS,
  factualityScores,
  selectBest,
  type FactualityScores,
  type ModelGradedAssertion,
  type ModelGradedAssertionType,
  type ModelGradedContext,
  type ModelGradedOptions,
  type ModelGradedResult,
} from "./model-graded.js";
