/**
 * `@evalkern/judge/autoevals`: autoevals' scorers in autoevals' call shape
 * (`await Factuality({ input, output, expected, judge })` → `{ name, score, metadata }`), over the
 * evalkern judge client, and `AutoevalsMetric`, which runs any of them as a DeepEval-style metric.
 * Browser-safe like the package root. Also the scorers that call embeddings and moderation
 * (`EmbeddingSimilarity`, `Moderation`) and the RAGAS metrics as autoevals ports them; each also as a
 * DeepEval-style metric class.
 */
export {
  CLASSIFIER_MAX_TOKENS,
  LLMClassifier,
  LLMClassifierFromSpec,
  LLMClassifierFromTemplate,
  choiceInstruction,
  selectChoice,
  selectChoiceSchema,
  type LLMClassifierSpec,
  type LLMScorer,
  type LLMScorerArgs,
  type LLMScorerOptions,
  type ModelGradedSpec,
  type Selection,
} from "./classifier.js";
export {
  Battle,
  CHOICE_SCORES,
  ClosedQA,
  Factuality,
  Humor,
  PROMPTS,
  Possible,
  Security,
  Sql,
  Summary,
  Translation,
} from "./classifiers.js";
export { renderTemplate, renderValue } from "./template.js";
export { AutoevalsMetric, type AutoevalsMetricOptions, type AutoevalsScorer } from "./as-metric.js";
export { ExactMatch, ValidJSON, type ExactMatchArgs, type ValidJSONArgs } from "@evalkern/metrics/common";
export type { Score } from "@evalkern/metrics/common";
export { EmbeddingSimilarity, AnswerSimilarity, scaleScore, AUTOEVALS_EMBEDDING_MODEL } from "./embeddings.js";
export type { EmbeddingSimilarityArgs, AnswerSimilarityArgs } from "./embeddings.js";
export { Moderation, moderationScore, type ModerationArgs } from "./moderation.js";
export {
  AnswerCorrectness,
  AnswerRelevancy,
  ContextEntityRecall,
  ContextPrecision,
  ContextRecall,
  ContextRelevancy,
  Faithfulness,
  statementF1,
  type AnswerCorrectnessArgs,
  type RagasArgs,
} from "./ragas.js";
export { DEFAULT_CHAT_MODEL, type JudgeArgs, type OpenAIClientLike } from "./judge-args.js";
export { cosine, dot, euclidean } from "./vectors.js";
export {
  ScorerMetric,
  RagasMetric,
  EmbeddingSimilarityMetric,
  ModerationMetric,
  RagasAnswerCorrectnessMetric,
  RagasAnswerRelevancyMetric,
  RagasAnswerSimilarityMetric,
  RagasContextEntityRecallMetric,
  RagasContextPrecisionMetric,
  RagasContextRecallMetric,
  RagasContextRelevancyMetric,
  RagasFaithfulnessMetric,
  type ScorerCall,
  type ScorerMetricOptions,
} from "./metrics.js";
export { RAG_ASSERTIONS, type PromptfooAssertionInput, type PromptfooGrade, type PromptfooJudgeAssertion } from "../promptfoo/rag.js";
