/**
 * `@evalkern/judge/autoevals`: autoevals' scorers that call a model, in autoevals' shape
 * (`await Scorer({ output, expected, input, context, client })` → `{ name, score, metadata }`) over any
 * judge: `EmbeddingSimilarity`, `Moderation`, and the RAGAS metrics as autoevals ports them
 * (`AnswerCorrectness`, `AnswerSimilarity`, `AnswerRelevancy`, `ContextEntityRecall`, `ContextPrecision`,
 * `ContextRecall`, `ContextRelevancy`, `Faithfulness`); each also as a DeepEval-style metric class.
 */
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
export { DEFAULT_CHAT_MODEL, type JudgeArgs, type OpenAIClientLike, type Score } from "./judge-args.js";
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
