// The model interface every judge metric talks to. Any model plugs in by implementing `JudgeModel`;
// `OpenAICompatibleJudge` (client.ts) is the default for OpenAI-compatible servers.
import type { ContinuationScoringOptions } from "@evalkern/metrics";
import type { StandardSchemaV1 } from "@standard-schema/spec";

/** One part of a multimodal message, in OpenAI's chat format (`image_url.url`: https or a `data:` URL). */
export type JudgeContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image_url"; readonly image_url: { readonly url: string; readonly detail?: "auto" | "low" | "high" } };

export interface JudgeMessage {
  readonly role: "system" | "user" | "assistant";
  /** Text, or text and image parts (sent only to judges that accept images, `capabilities.supportsImages`). */
  readonly content: string | readonly JudgeContentPart[];
}

/** A structured-output schema: a Standard Schema validator plus its JSON Schema for `response_format`. */
export interface JudgeSchema<T> {
  /** Name sent as `response_format.json_schema.name`. */
  readonly name: string;
  /** JSON Schema (draft 2020-12 subset that OpenAI's strict mode accepts). */
  readonly jsonSchema: Readonly<Record<string, unknown>>;
  /** Validator of the parsed reply (zod v4, valibot, arktype... anything implementing Standard Schema). */
  readonly validator: StandardSchemaV1<unknown, T>;
  /**
   * Whether `jsonSchema` meets OpenAI's strict-mode rules (every property required, no open maps), so it
   * can be sent with `strict: true`. Absent = decide from the schema.
   */
  readonly strict?: boolean;
}

export interface TopLogprob {
  readonly token: string;
  readonly logprob: number;
}

export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
  readonly topLogprobs: readonly TopLogprob[];
}

export interface JudgeUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD from the configured price table; null when the model's price is unknown. */
  readonly costUsd: number | null;
  /** Prompt tokens the provider served from its own prompt cache (`prompt_tokens_details.cached_tokens`). */
  readonly cachedInputTokens?: number;
  /** Hidden reasoning tokens (`completion_tokens_details.reasoning_tokens`), included in `outputTokens`. */
  readonly reasoningTokens?: number;
  /** HTTP requests this call made: retried attempts, re-asks and capability fallbacks included. */
  readonly requests?: number;
  /** Wall-clock time of the call in ms (0 for a cache hit). */
  readonly latencyMs?: number;
}

/** How the structured reply was obtained (the ladder of docs/spec/judges.md §10.2). */
export type OutputMode = "json_schema" | "json_object" | "text";

/** What a model can do; every field optional so minimal custom models stay valid. */
export interface JudgeCapabilities {
  /** `response_format: {type: "json_schema"}`. */
  readonly supportsJsonSchema?: boolean;
  /** `response_format: {type: "json_object"}`. */
  readonly supportsJsonObject?: boolean;
  readonly supportsLogprobs?: boolean;
  /** Largest `top_logprobs` the model accepts (OpenAI: 20; some models 5). */
  readonly maxTopLogprobs?: number;
  /** False for models that reject any explicit `temperature` (the parameter is then omitted). */
  readonly supportsTemperature?: boolean;
  /** `/v1/completions` with `echo: true` and prompt logprobs (needed by `loglikelihood`). */
  readonly supportsEcho?: boolean;
  /** Image content parts (`image_url`) in messages; false = known not to, so images fail before any request. */
  readonly supportsImages?: boolean;
}

export interface GenerateRequest<T> {
  readonly messages: readonly JudgeMessage[];
  /** Structured output; without it the reply text is returned as `value` (T = string). */
  readonly schema?: JudgeSchema<T>;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** `top_p` (sent only when set; judges usually leave it). */
  readonly topP?: number;
  /** Ask for token logprobs (G-Eval's weighted scores). Models without them ignore it and return none. */
  readonly logprobs?: boolean;
  readonly topLogprobs?: number;
  readonly signal?: AbortSignal;
  /** Best-effort determinism where the server supports it. */
  readonly seed?: number;
  /**
   * Accounting tag: usage of this call is booked under this metric name in the judge's ledger
   * (`withMetricTag(model, name)` sets it for every call of a metric).
   */
  readonly metric?: string;
  /**
   * Sample index for deliberate re-sampling: part of the cache key, never sent. Two calls that differ only
   * in `sample` are cached separately (self-consistency, repeated measurements).
   */
  readonly sample?: number;
  /** Version of the prompt template that produced `messages`; part of the cache key, never sent. */
  readonly promptVersion?: string;
}

export interface GenerateResult<T> {
  /** The validated structured value (or the text when no schema was given). */
  readonly value: T;
  /** The raw reply text. */
  readonly text: string;
  readonly logprobs?: readonly TokenLogprob[];
  readonly usage: JudgeUsage;
  /** True when the reply came from the cache (no call was made, cost 0). */
  readonly cached: boolean;
  readonly model: string;
  /** `choices[0].finish_reason` ("stop", "length"...), when the model reports one. */
  readonly finishReason?: string | null;
  /** Which rung of the structured-output ladder produced `value` (absent without a schema). */
  readonly outputMode?: OutputMode;
  /** Replies received for this call: 1 plus the re-asks after invalid output. */
  readonly attempts?: number;
  /** Capability fallbacks taken, e.g. `"json_schema->json_object"`, `"logprobs-dropped"`. */
  readonly fallbacks?: readonly string[];
  /** The server's `system_fingerprint`, for reproducibility reports. */
  readonly systemFingerprint?: string | null;
}

/** One continuation scored by `scoreContinuations` (lm-evaluation-harness `loglikelihood`). */
export interface ContinuationScore {
  /** Summed log-probability of the continuation tokens given the context. */
  readonly logprob: number;
  /** Every continuation token was the most likely token at its position. */
  readonly isGreedy: boolean;
  /** Number of continuation tokens. */
  readonly tokenCount: number;
}

/**
 * The judge contract. `generate` either resolves with a validated value or rejects with a typed
 * `JudgeError` (output that never validated, HTTP failure after retries, timeout, cache miss in replay
 * mode...); it never resolves with a made-up value.
 */
export interface JudgeModel {
  /** Model name as reported in metric results (`evaluationModel`). */
  readonly name: string;
  /** Whether `logprobs` requests can be honoured. */
  readonly supportsLogprobs: boolean;
  /** Version of this contract the implementation follows (absent = 1). */
  readonly specificationVersion?: 1;
  /** Capability flags (docs/spec/judges.md §10.1); absent fields mean "unknown". */
  readonly capabilities?: JudgeCapabilities;
  /** True for models whose calls are priced (DeepEval's "native" models): metrics then report cost. */
  readonly reportsCost?: boolean;
  generate<T = string>(request: GenerateRequest<T>): Promise<GenerateResult<T>>;
  /** Summed log-likelihood of each continuation after `prompt`, where the server supports it. */
  loglikelihood?(prompt: string, continuations: readonly string[], signal?: AbortSignal): Promise<readonly number[]>;
  /** `loglikelihood` with greedy flags and token counts (`options.spanRule`: lm-eval's rule by default, or BYOB's). */
  scoreContinuations?(
    context: string,
    continuations: readonly string[],
    signal?: AbortSignal,
    options?: ContinuationScoringOptions,
  ): Promise<readonly ContinuationScore[]>;
  /** The embedding model `embed` uses when a request names none. */
  readonly embeddingModel?: string;
  /** The moderation model `moderate` uses when a request names none. */
  readonly moderationModel?: string;
  /**
   * Embeddings of texts (`/v1/embeddings`), an optional capability: the autoevals, RAGAS and promptfoo
   * scorers that compare vectors need it, and throw `UnsupportedCapabilityError` without it.
   */
  embed?(request: EmbedRequest): Promise<EmbedResult>;
  /** Moderation of texts (`/v1/moderations`), an optional capability (autoevals `Moderation`, promptfoo `moderation`). */
  moderate?(request: ModerationRequest): Promise<ModerationResult>;
}

/** One `embed` call: texts in, one vector per text out (`/v1/embeddings`). */
export interface EmbedRequest {
  /** The texts, in order; duplicates are embedded once. */
  readonly input: readonly string[];
  /** Embedding model; default the judge's `embeddingModel`. */
  readonly model?: string;
  /** Output dimensions (text-embedding-3 models); sent only when set, part of the cache key. */
  readonly dimensions?: number;
  readonly signal?: AbortSignal;
  /** Accounting tag, as for `generate`. */
  readonly metric?: string;
}

export interface EmbedResult {
  /** One vector per input text, in input order. */
  readonly embeddings: readonly (readonly number[])[];
  /** The embedding model used. */
  readonly model: string;
  /** Tokens and cost of the requests this call made (0 for texts served from the cache). */
  readonly usage: JudgeUsage;
  /** True when every vector came from the cache. */
  readonly cached: boolean;
}

/** One moderation result, as `/v1/moderations` reports it per input. */
export interface ModerationVerdict {
  readonly flagged: boolean;
  /** Category → flagged. */
  readonly categories: Readonly<Record<string, boolean>>;
  /** Category → the model's score in [0, 1]. */
  readonly categoryScores: Readonly<Record<string, number>>;
}

/** One `moderate` call (`/v1/moderations`). */
export interface ModerationRequest {
  readonly input: string | readonly string[];
  /** Moderation model; default the judge's `moderationModel`, else the server's default (not sent). */
  readonly model?: string;
  readonly signal?: AbortSignal;
  readonly metric?: string;
}

export interface ModerationResult {
  /** One verdict per input, in order. */
  readonly results: readonly ModerationVerdict[];
  /** The model the server reports (or the one asked for). */
  readonly model: string;
  readonly usage: JudgeUsage;
  readonly cached: boolean;
}
