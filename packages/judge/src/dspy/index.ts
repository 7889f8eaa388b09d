// DSPy's LLM-judge metrics: SemanticF1 and CompleteAndGrounded.
export {
  SemanticF1,
  CompleteAndGrounded,
  type SemanticF1Options,
  type CompleteAndGroundedOptions,
  type JudgeMetricPrediction,
} from "./semantic-f1.js";
export { judgeF1 } from "./f1.js";
export {
  SemanticRecallPrecision,
  DecompositionalSemanticRecallPrecision,
  AnswerCompleteness,
  AnswerGroundedness,
  DSPY_PROMPT_VERSION,
} from "./prompts.js";
