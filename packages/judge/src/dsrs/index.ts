// dsrs: the real LlmJudgeMetric and the judge-backed Semantic strictness of DiffMetric.
export {
  LlmJudgeMetric,
  LlmJudgeVerdict,
  DEFAULT_CRITERIA,
  DEFAULT_JUDGE_PROMPT,
  LLM_JUDGE_COST_MSATS,
  DSRS_PROMPT_VERSION,
  type LlmJudgeMetricOptions,
} from "./llm-judge-metric.js";
export { semanticDiffJudge, semanticDiffMetric, SemanticEquivalence, type SemanticDiffOptions } from "./semantic-diff.js";
