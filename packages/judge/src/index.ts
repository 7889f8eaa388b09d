// @evalkern/judge: LLM-as-judge metrics over a robust OpenAI-compatible client.
// Runtime-neutral at import (fetch + Web Crypto); the file cache store loads node:fs on first use.
export type {
  ContinuationScore,
  EmbedRequest,
  EmbedResult,
  ModerationRequest,
  ModerationResult,
  ModerationVerdict,
  GenerateRequest,
  GenerateResult,
  JudgeCapabilities,
  JudgeMessage,
  JudgeContentPart,
  JudgeModel,
  JudgeSchema,
  JudgeUsage,
  OutputMode,
  TokenLogprob,
  TopLogprob,
} from "./model.js";
export {
  CacheMissError,
  JudgeAbortedError,
  JudgeConfigError,
  JudgeError,
  JudgeHttpError,
  JudgeInputError,
  JudgeOutputError,
  JudgeProviderPackageError,
  JudgeRateLimitError,
  JudgeTimeoutError,
  JudgeTransportError,
  JudgeUnreachableError,
  UnsupportedCapabilityError,
  errorString,
  type JudgeErrorKind,
  type OutputFailure,
} from "./errors.js";
export { OpenAICompatibleJudge, type AzureOptions, type OpenAICompatibleJudgeOptions } from "./client.js";
export { zodSchema, standardSchema, prepareJsonSchema, validateWith, type SchemaOptions, type Validation } from "./schema.js";
export { extractJson, stripTrailingCommas, type ExtractJsonOptions, type JsonExtraction } from "./json.js";
export { ConcurrencyLimiter } from "./limiter.js";
export {
  retryPolicy,
  parseRetryAfter,
  backoffDelay,
  nextRetry,
  isConnectionRefused,
  type RetryOptions,
  type RetryPolicy,
} from "./retry.js";
export {
  UsageLedger,
  addUsage,
  costOf,
  lookupPrice,
  checkPriceTable,
  ZERO_USAGE,
  type CallRecord,
  type ModelPrice,
  type PriceTable,
  type TokenCounts,
  type UsageTotals,
} from "./usage.js";
export {
  JudgeCache,
  MemoryCacheStore,
  type CacheEntry,
  type CacheMode,
  type CacheStats,
  type JudgeCacheOptions,
  type JudgeCacheStore,
} from "./cache/cache.js";
export { FileCacheStore, type CacheFileWarning, type FileCacheStoreOptions } from "./cache/file-store.js";
export { canonicalJson, cacheKey, sha256Hex } from "./cache/key.js";
export { ENV, readEnv, type EnvSource } from "./env.js";
export {
  PRICES_AS_OF,
  PROVIDER_PRICES_AS_OF,
  BUNDLED_PRICES,
  setModelPrices,
  resetModelPrices,
  modelPrices,
  knownPrice,
} from "./prices.js";
export { configure, context, settings, resetSettings, setSettingsScope, type Settings, type SettingsScope } from "./settings.js";
export {
  judgeDefaults,
  resetJudgeDefaults,
  defaultJudge,
  resolveJudge,
  judgeFromModelName,
  judgeFromName,
  OPENAI_ENV,
  type JudgeDefaults,
} from "./defaults.js";
export { withMetricTag, tryGenerate, type JudgeOutcome } from "./generate.js";

// Metric families.
export * from "./dspy/index.js";
export * from "./evalwire/index.js";
export * from "./dsrs/index.js";
export * from "./deepeval/index.js";
// autoevals' model-calling scorers and the RAGAS ports (also `@evalkern/judge/autoevals`).
export * from "./autoevals/index.js";

// The test cases the DeepEval metrics measure, so a judge user needs one import.
export { LLMTestCase, ConversationalTestCase, ArenaTestCase, ToolCall } from "@evalkern/metrics/deepeval";
// Images in test cases (DeepEval's MLLMImage) and how judge prompts carry them.
export { MLLMImage } from "@evalkern/metrics/deepeval";
export { knownImageSupport, promptContent } from "./images.js";

// promptfoo's model-graded assertion types by name (what `evalkern test` dispatches to).
export {
  modelGradedAssertion,
  listModelGradedAssertions,
  type ModelGradedAssertion,
  type ModelGradedContext,
  type ModelGradedResult,
  type ModelGradedTable,
} from "./promptfoo/index.js";
