/**
 * The DeepEval LLM-as-judge metrics (docs/spec/judges.md §2–6) on the base classes of
 * `@evalkern/metrics/deepeval`: the RAG metrics, bias/toxicity/PII, summarization, G-Eval and
 * ArenaGEval, the DAG metric, the agentic and the conversational metrics. Every metric takes its
 * `JudgeModel` as the `model` option and is measured with `await metric.aMeasure(testCase)`.
 */
export { JudgeReplyError, JudgeMetricConfigError, type JudgeReplyProblem } from "./errors.js";
export {
  JudgeMetric,
  ConversationalJudgeMetric,
  callJudge,
  validateReply,
  tryMeasure,
  callsScoringPath,
  type ScoringPath,
  type JudgeCallRecord,
  type JudgeMetricOptions,
  type JudgeCallOptions,
  type JudgeReply,
  type MeasureOutcome,
} from "./judge-metric.js";
export { judgeSchema, normalizeVerdictWord, verdictWord, withCount } from "./schema.js";
export type { Verdict, ReasonSection } from "./shared-prompts.js";
export { AnswerRelevancyMetric, answerRelevancyScore, type RelevancyVerdict } from "./answer-relevancy.js";
export { FaithfulnessMetric, faithfulnessScore, type FaithfulnessOptions, type FaithfulnessVerdict } from "./faithfulness.js";
export { HallucinationMetric, hallucinationScore, type HallucinationVerdict } from "./hallucination.js";
export {
  ContextualPrecisionMetric,
  contextualPrecisionScore,
  groupRetrievalNodes,
  type PrecisionVerdict,
} from "./contextual-precision.js";
export { ContextualRecallMetric, contextualRecallScore, type RecallVerdict } from "./contextual-recall.js";
export { ContextualRelevancyMetric, contextualRelevancyScore, type RelevancyStatementVerdict } from "./contextual-relevancy.js";
export {
  OpinionMetric,
  FlaggedStatementsMetric,
  opinionViolationScore,
  type OpinionVerdict,
  type FlaggedVerdict,
  type FlaggedStatementsShape,
} from "./opinion-metric.js";
export { BiasMetric } from "./bias.js";
export { ToxicityMetric } from "./toxicity.js";
export { PIILeakageMetric, piiLeakageScore, type PIIVerdict } from "./pii-leakage.js";
export {
  SummarizationMetric,
  alignmentScore,
  coverageScore,
  type SummarizationOptions,
  type AlignmentVerdict,
  type CoverageVerdict,
} from "./summarization.js";
export { logprobWeightedScore, MIN_LOGPROB, type GEvalScoring, type WeightedScore } from "./logprob-weighting.js";
export {
  GEval,
  formatRubric,
  normalizeGEvalScore,
  rubricScoreRange,
  type GEvalOptions,
  type Rubric,
  type RubricInput,
  boundedReasonScoreSchema,
} from "./g-eval.js";
export {
  ArenaGEval,
  ARENA_DUMMY_NAMES,
  dummyNames,
  resolveDummyWinner,
  unmaskReason,
  type ArenaGEvalOptions,
} from "./arena-g-eval.js";
export {
  DAGMetric,
  DeepAcyclicGraph,
  TaskNode,
  BinaryJudgementNode,
  NonBinaryJudgementNode,
  VerdictNode,
  type DAGMetricOptions,
  type DAGNode,
  type DAGInnerNode,
  type VerdictChild,
  type TaskOutput,
  type TaskNodeInit,
  type VerdictNodeInit,
  type BinaryJudgementNodeInit,
  type NonBinaryJudgementNodeInit,
  type DAGParam,
  type TurnWindowRange,
  type DagRun,
  type DagChildResult,
  runDag,
} from "./dag.js";
export { TaskCompletionMetric, type TaskCompletionOptions } from "./task-completion.js";
export { PlanAdherenceMetric, NO_PLAN_REASON } from "./plan-adherence.js";
export { StepEfficiencyMetric } from "./step-efficiency.js";
export { KnowledgeRetentionMetric, knowledgeRetentionScore, type Knowledge, type RetentionVerdict } from "./knowledge-retention.js";
export { ConversationCompletenessMetric, conversationCompletenessScore } from "./conversation-completeness.js";
export { RoleAdherenceMetric, roleAdherenceScore, type OutOfCharacterTurn } from "./role-adherence.js";
export { PromptAlignmentMetric, promptAlignmentScore, type PromptAlignmentOptions } from "./prompt-alignment.js";
export { TurnRelevancyMetric, turnRelevancyScore, unitInteractions, slidingWindows, type TurnRelevancyOptions } from "./turn-relevancy.js";
export { ConversationalGEval, type ConversationalGEvalOptions } from "./conversational-g-eval.js";
export {
  TurnRagMetric,
  turnRagScore,
  turnWindows,
  NO_WINDOWS_REASON,
  type TurnRagOptions,
  type TurnWindow,
  type WindowScore,
  type WindowVerdicts,
} from "./turn-rag.js";
export {
  TurnFaithfulnessMetric,
  NO_CLAIMS_REASON,
  type TurnFaithfulnessOptions,
  type TurnFaithfulnessArtefacts,
} from "./turn-faithfulness.js";
export { TurnContextualPrecisionMetric, NO_RETRIEVAL_CONTEXT_REASON } from "./turn-contextual-precision.js";
export { TurnContextualRecallMetric, turnContextualRecallScore } from "./turn-contextual-recall.js";
export { TurnContextualRelevancyMetric, turnContextualRelevancyScore } from "./turn-contextual-relevancy.js";
export {
  ConversationalDAGMetric,
  ConversationalTaskNode,
  ConversationalBinaryJudgementNode,
  ConversationalNonBinaryJudgementNode,
  ConversationalVerdictNode,
  renderConversationalNode,
  windowTurns,
  type ConversationalDAGMetricOptions,
  type ConversationalVerdictChild,
  type ConversationalTaskNodeInit,
  type ConversationalBinaryJudgementNodeInit,
  type ConversationalNonBinaryJudgementNodeInit,
  type ConversationalVerdictNodeInit,
} from "./conversational-dag.js";
export { TextToImageMetric, ImageEditingMetric } from "./text-to-image.js";
export {
  ImageCoherenceMetric,
  ImageHelpfulnessMetric,
  ImageReferenceMetric,
  imageContext,
  type ImageContextMetricOptions,
} from "./image-context.js";
export { NonAdviceMetric, nonAdviceScore, type NonAdviceOptions } from "./non-advice.js";
export { MisuseMetric, misuseScore, type MisuseOptions } from "./misuse.js";
export { RoleViolationMetric, roleViolationScore, type RoleViolationOptions } from "./role-violation.js";
export { PlanQualityMetric } from "./plan-quality.js";
export { ArgumentCorrectnessMetric, argumentCorrectnessScore, NO_TOOL_CALLS_REASON, type ArgumentVerdict } from "./argument-correctness.js";
export {
  TopicAdherenceMetric,
  topicAdherenceScore,
  NO_QA_PAIRS_REASON,
  type TopicAdherenceOptions,
  type TopicVerdict,
  type TopicVerdictKind,
  type QAPair,
} from "./topic-adherence.js";
export { ToolUseMetric, toolUseScore, meanOrZero, type ToolUseOptions, type ScoredJudgement } from "./tool-use.js";
export { GoalAccuracyMetric, goalAccuracyScore } from "./goal-accuracy.js";
export { interactionParts, type InteractionParts } from "./agentic.js";
export {
  MCPUseMetric,
  MultiTurnMCPUseMetric,
  MCPTaskCompletionMetric,
  mcpTasks,
  renderMcpServers,
  renderMcpCalls,
  type MCPTask,
} from "./mcp.js";
