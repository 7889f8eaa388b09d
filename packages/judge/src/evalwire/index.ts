// evalwire's LLM-as-judge evaluator.
export {
  makeLlmJudgeEvaluator,
  zeroValueFor,
  formatTemplate,
  isJudgeFailure,
  type LlmJudgeEvaluator,
  type LlmJudgeEvaluatorOptions,
  type LlmJudgeOutcome,
} from "./llm-judge.js";
