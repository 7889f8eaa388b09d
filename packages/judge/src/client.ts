// `OpenAICompatibleJudge`: the default `JudgeModel` for OpenAI-compatible servers (OpenAI, Azure OpenAI,
// vLLM, Ollama, llama.cpp server, gateways), on the official `openai` package with its own retries turned
// off so that the judge owns the policy. It implements the endpoint contract of @evalkern/metrics
// (`ModelEndpoint`), the one transport judges and BYOB benchmarks share. It is composed of layers, each
// reusable by another provider: ./openai/ holds what is OpenAI-specific — the transport (one request),
// the error classifier, chat bodies and replies, log-likelihood by echo — and ./layers/ what is not — the
// retry layer, the structured-output ladder with re-asks, and cache and ledger as wrappers around a call.
// This file holds the options and the composition. Runtime-neutral: fetch-based, no `node:*` imports.
import type OpenAI from "openai";
import type {
  ContinuationScoringOptions,
  ContinuationSpanRule,
  EndpointCompletion,
  EndpointMessage,
  EndpointRequestOptions,
  ModelEndpoint,
} from "@evalkern/metrics";
import { JudgeCache } from "./cache/cache.js";
import { ENV, readEnv, type EnvSource } from "./env.js";
import { JudgeConfigError, JudgeInputError, JudgeOutputError, UnsupportedCapabilityError } from "./errors.js";
import { checkNumber, finishUsage, type CallState } from "./layers/call.js";
import { continuationCacheSpec, throughCache, type ScoredContinuation } from "./layers/cache.js";
import { JudgeCore, type JudgeCoreOptions } from "./layers/core.js";
import { embedTexts, moderationCacheSpec } from "./layers/embed.js";
import type { StructuredLadder } from "./layers/ladder.js";
import { booked, type LedgerTag } from "./layers/ledger.js";
import type { RetryingTransport } from "./layers/retrying.js";
import { CapabilityRejection } from "./layers/transport.js";
import type { ConcurrencyLimiter } from "./limiter.js";
import type {
  ContinuationScore,
  EmbedRequest,
  EmbedResult,
  GenerateRequest,
  GenerateResult,
  JudgeCapabilities,
  JudgeModel,
  JudgeUsage,
  ModerationRequest,
  ModerationResult,
} from "./model.js";
import { chatComplete } from "./openai/chat.js";
import { embeddingsBatch, moderationsRequest } from "./openai/embeddings.js";
import { classifyError } from "./openai/classify.js";
import { scoreContinuation } from "./openai/loglikelihood.js";
import { replyUsage, type RawUsage } from "./openai/shared.js";
import { OpenAITransport, createOpenAIClient } from "./openai/transport.js";
import type { RetryPolicy } from "./retry.js";
import { addUsage, ZERO_USAGE, type ModelPrice, type UsageLedger } from "./usage.js";
import { knownImageSupport } from "./images.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The usage of the endpoint contract (tokens and requests) of a judge call's usage. */
function endpointUsage(usage: JudgeUsage): EndpointCompletion["usage"] {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, requests: usage.requests ?? 0 };
}

export interface AzureOptions {
  /** `api-version` query parameter, e.g. "2024-10-21". */
  readonly apiVersion: string;
  /** Deployment name; default: the model name. */
  readonly deployment?: string;
}

export interface OpenAICompatibleJudgeOptions extends JudgeCoreOptions {
  /** Model name sent as `model`. Default `EVALKERN_JUDGE_MODEL`; required one way or the other. */
  readonly model?: string;
  /**
   * Base URL including the API prefix, e.g. `http://localhost:11434/v1` (Ollama), `http://localhost:8000/v1`
   * (vLLM), `http://localhost:8080/v1` (llama.cpp). Default `EVALKERN_JUDGE_BASE_URL`, else OpenAI's.
   * For Azure: `https://<resource>.openai.azure.com/openai` plus `azure`.
   */
  readonly baseURL?: string;
  /** Same as `baseURL` (the spelling BYOB and the endpoint contract use); `baseURL` wins when both are set. */
  readonly baseUrl?: string;
  /** Default `EVALKERN_JUDGE_API_KEY`. Local servers without auth need none. */
  readonly apiKey?: string;
  /** Send the key as `api-key: <key>` (Azure, some gateways) instead of `Authorization: Bearer <key>`. */
  readonly apiKeyHeader?: "authorization" | "api-key";
  /** Azure OpenAI: `api-key` header, `api-version` query, `/deployments/<d>/` paths. Env: `EVALKERN_JUDGE_API_VERSION`. */
  readonly azure?: AzureOptions;
  /** Extra headers on every request (a gateway's routing or tenant headers...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra query parameters on every request. */
  readonly query?: Readonly<Record<string, string>>;
  /** Name reported as `evaluationModel`; default the model name. */
  readonly name?: string;
  /** Known capabilities. Unknown ones are probed: a 400 naming the parameter turns it off for this judge. */
  readonly capabilities?: JudgeCapabilities;
  /** `max_tokens` (default; vLLM, Ollama, llama.cpp) or `max_completion_tokens` (OpenAI reasoning models). */
  readonly maxTokensParam?: "max_tokens" | "max_completion_tokens";
  /** A fetch implementation (default `globalThis.fetch`). */
  readonly fetch?: typeof fetch;
  /**
   * Embedding model of `embed` (`/v1/embeddings`) and of every scorer that embeds, when a call names none.
   * Default `EVALKERN_JUDGE_EMBEDDING_MODEL`; unset, `embed` uses `text-embedding-3-small` and each scorer
   * its reference's default (`text-embedding-ada-002` for autoevals, `text-embedding-3-large` for promptfoo).
   */
  readonly embeddingModel?: string;
  /** Most texts per `/v1/embeddings` request. Default 256. */
  readonly embeddingBatchSize?: number;
  /**
   * Moderation model of `moderate` (`/v1/moderations`) when a request names none. Default
   * `EVALKERN_JUDGE_MODERATION_MODEL`, else none is sent (the server's default, `omni-moderation-latest` at OpenAI).
   */
  readonly moderationModel?: string;
  /** Passed to the `openai` client: needed to run in a browser. */
  readonly dangerouslyAllowBrowser?: boolean;
  /** Read environment variables from here instead of the runtime. */
  readonly env?: EnvSource;
}

/**
 * The default judge for OpenAI-compatible chat-completions servers.
 *
 * When to use: any hosted or local OpenAI-style endpoint. One instance per run is the usual shape: every
 * metric given this judge shares its limiter, ledger and cache.
 *
 * Details:
 * - Structured output ladder per call: `response_format: json_schema` (strict when the schema allows) →
 *   `json_object` → plain text; each rung is taken when the server rejects the previous one with a 400
 *   naming it, and the judge remembers that for later calls. Every reply is parsed tolerantly and
 *   validated with the schema's validator.
 * - A reply that does not parse or validate is re-asked up to `maxReasks` times (with the error appended),
 *   then the call rejects with `JudgeOutputError`. Re-asks, retries and fallbacks all count in usage.
 * - Transport: 408/409/429/5xx, network errors, timeouts and unparsable 200 bodies are retried with
 *   exponential backoff and jitter, honouring `Retry-After`; `insufficient_quota` and other 4xx are not.
 * - A 400 naming `logprobs` drops them (capability absent) and records `"logprobs-dropped"`.
 * - Cache hits report `cached: true`, zero tokens and zero cost.
 *
 * Gotchas: `EVALKERN_JUDGE_*` variables are read at construction; options win over them.
 *
 * @example
 * const judge = new OpenAICompatibleJudge({
 *   baseURL: "http://localhost:11434/v1", model: "qwen2.5:7b", maxConcurrency: 4,
 *   cache: new JudgeCache(),
 * });
 * const { value } = await judge.generate({ messages: [{ role: "user", content: "..." }], schema: Verdict });
 */
export class OpenAICompatibleJudge implements JudgeModel, ModelEndpoint {
  readonly specificationVersion = 1 as const;
  readonly name: string;
  readonly model: string;
  readonly baseURL: string;
  readonly limiter: ConcurrencyLimiter;
  readonly ledger: UsageLedger;
  readonly cache: JudgeCache | undefined;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly maxReasks: number;
  /** The layers: the transport with its retries, and the structured-output ladder over chat completions. */
  private readonly transport: RetryingTransport;
  private readonly ladder: StructuredLadder;
  /** The options, limiter, ledger, cache and prices every judge shares, and the layers it composes. */
  private readonly core: JudgeCore;
  private readonly options: OpenAICompatibleJudgeOptions;
  private readonly caps: {
    supportsJsonSchema: boolean | undefined;
    supportsJsonObject: boolean | undefined;
    supportsLogprobs: boolean | undefined;
    maxTopLogprobs: number;
    supportsTemperature: boolean;
    supportsEcho: boolean | undefined;
    supportsImages: boolean | undefined;
  };
  private echoNeedsOneToken = false;
  /**
   * The embedding model configured for this judge (option or environment), or undefined: `embed` then
   * uses `text-embedding-3-small`, and the scorers their reference's default (autoevals': ada-002).
   */
  readonly embeddingModel: string | undefined;
  /** The moderation model `moderate` uses when a request names none (undefined: the server's default). */
  readonly moderationModel: string | undefined;
  private readonly embeddingBatchSize: number;

  constructor(options: OpenAICompatibleJudgeOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new JudgeConfigError("options must be an object", { argument: "options" });
    }
    this.options = options;
    const env = options.env;
    const model = options.model ?? readEnv(ENV.model, env);
    if (typeof model !== "string" || model.trim() === "") {
      throw new JudgeConfigError(`No judge model: pass options.model or set ${ENV.model}`, {
        argument: "options.model",
        expected: "a model name",
      });
    }
    this.model = model;
    this.name = options.name ?? model;
    const baseURL = (options.baseURL ?? options.baseUrl ?? readEnv(ENV.baseURL, env) ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    try {
      new URL(baseURL);
    } catch {
      throw new JudgeConfigError("baseURL is not a valid URL", { argument: "options.baseURL", actual: baseURL });
    }
    this.baseURL = baseURL;
    const apiKey = options.apiKey ?? readEnv(ENV.apiKey, env);
    const apiVersion = options.azure?.apiVersion ?? readEnv(ENV.apiVersion, env);
    // a read-only (replay) cache never sends a request, so it needs no key
    const replayOnly = options.cache instanceof JudgeCache && options.cache.mode === "read-only";
    if (apiKey === undefined && baseURL === DEFAULT_BASE_URL && !replayOnly) {
      throw new JudgeConfigError(`No API key for api.openai.com: pass options.apiKey or set ${ENV.apiKey}`, {
        argument: "options.apiKey",
      });
    }

    const core = new JudgeCore(options, model);
    this.core = core;
    this.timeoutMs = core.timeoutMs;
    this.maxReasks = core.maxReasks;
    this.retry = core.retry;
    this.limiter = core.limiter;
    this.ledger = core.ledger;
    this.cache = core.cache;
    this.embeddingModel = options.embeddingModel ?? readEnv(ENV.embeddingModel, env);
    this.moderationModel = options.moderationModel ?? readEnv(ENV.moderationModel, env);
    this.embeddingBatchSize =
      options.embeddingBatchSize === undefined ? 256 : checkNumber(options.embeddingBatchSize, "options.embeddingBatchSize", 1, true);

    const caps = options.capabilities ?? {};
    this.caps = {
      supportsJsonSchema: caps.supportsJsonSchema,
      supportsJsonObject: caps.supportsJsonObject,
      supportsLogprobs: caps.supportsLogprobs,
      maxTopLogprobs: caps.maxTopLogprobs === undefined ? 20 : checkNumber(caps.maxTopLogprobs, "capabilities.maxTopLogprobs", 0, true),
      supportsTemperature: caps.supportsTemperature ?? true,
      supportsEcho: caps.supportsEcho,
      supportsImages: caps.supportsImages ?? knownImageSupport(model),
    };

    const client = createOpenAIClient({
      baseURL,
      apiKey,
      apiVersion,
      timeoutMs: this.timeoutMs,
      ...(options.apiKeyHeader ? { apiKeyHeader: options.apiKeyHeader } : {}),
      ...(options.azure?.deployment ? { deployment: options.azure.deployment } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.query ? { query: options.query } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.dangerouslyAllowBrowser !== undefined ? { dangerouslyAllowBrowser: options.dangerouslyAllowBrowser } : {}),
    });
    this.transport = core.retrying({ transport: new OpenAITransport(client, this.timeoutMs), classify: classifyError, baseURL });
    const chatDefaults = () => ({
      model: this.model,
      supportsTemperature: this.caps.supportsTemperature,
      maxTopLogprobs: this.caps.maxTopLogprobs,
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      maxTokensParam: options.maxTokensParam,
      seed: options.seed,
      topP: options.topP,
    });
    const usageOf = (raw: RawUsage | undefined | null, responseModel: string | undefined, latencyMs: number) =>
      this.usageOf(raw, responseModel, latencyMs);
    this.ladder = core.ladder(chatComplete(this.transport, chatDefaults, usageOf), this.caps);
  }

  /** `baseURL` by the endpoint contract's name. */
  get baseUrl(): string {
    return this.baseURL;
  }

  /** True until the server rejects `logprobs` (or the capabilities say it cannot). */
  get supportsLogprobs(): boolean {
    return this.caps.supportsLogprobs !== false;
  }

  /** What is known about the model now (probing updates it). */
  get capabilities(): JudgeCapabilities {
    return {
      ...(this.caps.supportsJsonSchema !== undefined ? { supportsJsonSchema: this.caps.supportsJsonSchema } : {}),
      ...(this.caps.supportsJsonObject !== undefined ? { supportsJsonObject: this.caps.supportsJsonObject } : {}),
      supportsLogprobs: this.supportsLogprobs,
      maxTopLogprobs: this.caps.maxTopLogprobs,
      supportsTemperature: this.caps.supportsTemperature,
      ...(this.caps.supportsEcho !== undefined ? { supportsEcho: this.caps.supportsEcho } : {}),
      ...(this.caps.supportsImages !== undefined ? { supportsImages: this.caps.supportsImages } : {}),
    };
  }

  /**
   * The price of this model: `price`, else `prices`, else the bundled table as extended by
   * `setModelPrices` (looked up now, so prices set after construction count). Undefined when unknown.
   */
  get price(): ModelPrice | undefined {
    return this.core.priceOf(this.model);
  }

  /** True when a price is known for this model: metrics then report `evaluationCost`. */
  get reportsCost(): boolean {
    return this.price !== undefined;
  }

  // ------------------------------------------------------------------------------------------------
  // generate: the ladder, wrapped in the cache (when there is one) and the ledger
  // ------------------------------------------------------------------------------------------------

  async generate<T = string>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
    const names = { cacheModel: this.model, ledgerModel: this.model, topLogprobs: true };
    return this.core.generate(this.ladder, request, { ...names, supportsTemperature: this.caps.supportsTemperature });
  }

  private tag(metric: string | undefined, endpoint: LedgerTag["endpoint"]): LedgerTag {
    return { metric, model: this.model, endpoint };
  }

  /** The price of a reply: `price`, else `prices`, else the bundled table, by the judge's or the reply's model name. */
  private usageOf(raw: RawUsage | undefined | null, responseModel: string | undefined, latencyMs: number): JudgeUsage {
    return replyUsage(raw, this.core.priceOf(this.model, responseModel), latencyMs);
  }

  // ------------------------------------------------------------------------------------------------
  // embeddings and moderation: through the retrying transport, the cache and the ledger
  // ------------------------------------------------------------------------------------------------

  /**
   * Embeddings of `request.input` (`/v1/embeddings`), one vector per text in input order.
   *
   * Details: each distinct text is cached on its own (model, dimensions and `cacheNamespace` in the key),
   * so a vector is paid for once across scorers and runs; the texts the cache lacks are sent in batches
   * of `embeddingBatchSize`. The call is booked in the ledger (`endpoint: "embeddings"`) with the tokens
   * the server reports, priced by the embedding model (`text-embedding-3-small`/`-large`, `ada-002` are
   * in the bundled table). In read-only replay a text missing from the cache is a `CacheMissError`.
   *
   * @example
   * const { embeddings } = await judge.embed({ input: ["a cat", "a dog"] });
   */
  async embed(request: EmbedRequest): Promise<EmbedResult> {
    const texts: unknown = request?.input;
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
      throw new JudgeInputError("request.input must be an array of strings", { argument: "request.input" });
    }
    if (request.dimensions !== undefined) checkNumber(request.dimensions, "request.dimensions", 1, true);
    request.signal?.throwIfAborted?.();
    const model = request.model ?? this.embeddingModel ?? "text-embedding-3-small";
    const dimensions = request.dimensions;
    if (request.input.length === 0) return { embeddings: [], model, usage: { ...ZERO_USAGE }, cached: true };
    const body = { model, ...(dimensions ? { dimensions } : {}) };
    const send = (batch: readonly string[], state: CallState) =>
      embeddingsBatch(this.transport, body, batch, request.signal, state, (raw, responseModel, ms) =>
        this.usageFor(model, raw, responseModel, ms),
      );
    const run = () =>
      embedTexts({
        texts: request.input,
        model,
        key: { namespace: this.options.cacheNamespace ?? null, model, dimensions: dimensions ?? null },
        cache: this.cache,
        batchSize: this.embeddingBatchSize,
        send,
      });
    return booked(this.ledger, { metric: request.metric, model, endpoint: "embeddings" }, run);
  }

  /**
   * Moderation of `request.input` (`/v1/moderations`): per input, `flagged`, the flagged categories and
   * their scores. Cached per request, booked in the ledger (`endpoint: "moderations"`; OpenAI's moderation
   * models are free, so their cost is 0; an unpriced model's is unknown).
   */
  async moderate(request: ModerationRequest): Promise<ModerationResult> {
    const input = typeof request?.input === "string" ? [request.input] : request?.input;
    if (!Array.isArray(input) || input.length === 0 || input.some((t) => typeof t !== "string")) {
      throw new JudgeInputError("request.input must be a string or a non-empty array of strings", { argument: "request.input" });
    }
    request.signal?.throwIfAborted?.();
    const model = request.model ?? this.moderationModel ?? null;
    const live = async (): Promise<ModerationResult> => {
      const started = Date.now();
      const state: CallState = { usage: { ...ZERO_USAGE }, requests: 0 };
      const reply = await moderationsRequest(this.transport, model, input, request.signal, state);
      const answered = reply.model ?? model ?? "moderation";
      // the reply reports no tokens: a priced (free) moderation model costs 0, an unpriced one is unknown
      const priced = this.priceOf(model ?? answered, reply.model) !== undefined;
      state.usage = { ...state.usage, costUsd: priced ? 0 : null };
      return { results: reply.results, model: answered, usage: finishUsage(state, started), cached: false };
    };
    const cache = this.cache;
    const spec = moderationCacheSpec({ namespace: this.options.cacheNamespace ?? null, model, input });
    const task = cache ? () => throughCache(cache, spec, live) : live;
    return booked(this.ledger, { metric: request.metric, model: model ?? "moderation", endpoint: "moderations" }, task);
  }

  /** The price of `model` (or the model a reply names): `price` only for the judge's own model, else the tables. */
  private priceOf(model: string, responseModel?: string): ModelPrice | undefined {
    return this.core.priceOf(model, responseModel);
  }

  /** Tokens and cost of a reply of `model` (an embedding model's price, not the chat model's). */
  private usageFor(model: string, raw: RawUsage | undefined | null, responseModel: string | undefined, latencyMs: number): JudgeUsage {
    return replyUsage(raw, this.priceOf(model, responseModel), latencyMs);
  }

  // ------------------------------------------------------------------------------------------------
  // the endpoint contract of @evalkern/metrics: chat and text completions for BYOB-style runs
  // ------------------------------------------------------------------------------------------------

  /**
   * `ModelEndpoint.chatCompletion`: the reply text of `messages` (a `generate` without schema, so it is
   * cached, booked and retried like every judge call).
   */
  async chatCompletion(messages: readonly EndpointMessage[], options: EndpointRequestOptions = {}): Promise<EndpointCompletion> {
    const result = await this.generate({
      messages,
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.topP !== undefined ? { topP: options.topP } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { text: result.value, finishReason: result.finishReason ?? null, usage: endpointUsage(result.usage) };
  }

  /** `ModelEndpoint.textCompletion`: `/v1/completions` of `prompt` (base models, BYOB's "completions"). */
  async textCompletion(prompt: string, options: EndpointRequestOptions = {}): Promise<EndpointCompletion> {
    if (typeof prompt !== "string") throw new JudgeInputError("prompt must be a string", { argument: "prompt" });
    if (options.maxTokens !== undefined) checkNumber(options.maxTokens, "options.maxTokens", 1, true);
    const run = async (): Promise<{ text: string; finishReason: string | null; usage: JudgeUsage; cached: boolean }> => {
      const started = Date.now();
      const state: CallState = { usage: { ...ZERO_USAGE }, requests: 0 };
      const body: Record<string, unknown> = { model: this.model, prompt };
      if (this.caps.supportsTemperature) body.temperature = options.temperature ?? this.options.temperature ?? 0;
      const maxTokens = options.maxTokens ?? this.options.maxTokens;
      if (maxTokens !== undefined) body.max_tokens = maxTokens;
      const topP = options.topP ?? this.options.topP;
      if (topP !== undefined) body.top_p = topP;
      let response: OpenAI.Completions.Completion;
      let latency: number;
      try {
        ({ response, latency } = await this.transport.send<OpenAI.Completions.Completion>("completions", body, options.signal, state));
      } catch (error) {
        throw error instanceof CapabilityRejection ? error.final : this.transport.finalError(error, state);
      }
      state.usage = addUsage(state.usage, this.usageOf(response.usage as RawUsage | undefined, response.model, latency));
      const usage = finishUsage(state, started);
      const choice = response.choices?.[0];
      if (!choice || typeof choice.text !== "string") {
        const text = JSON.stringify(response.choices ?? null).slice(0, 500);
        throw new JudgeOutputError("empty", "the completions reply has no choices[0].text", { attempts: 1, text }, { usage });
      }
      return { text: choice.text, finishReason: choice.finish_reason ?? null, usage, cached: false };
    };
    const result = await booked(this.ledger, this.tag(undefined, "completions"), run);
    return { text: result.text, finishReason: result.finishReason, usage: endpointUsage(result.usage) };
  }

  // ------------------------------------------------------------------------------------------------
  // log-likelihood of continuations (/v1/completions with echo)
  // ------------------------------------------------------------------------------------------------

  /**
   * Summed log-probability, greedy flag and token count of each continuation after `context`
   * (lm-evaluation-harness `loglikelihood`, docs/spec/judges.md §10.4), via `/v1/completions` with `echo: true`.
   *
   * Details: by lm-eval's rule (the default `spanRule`) the context's trailing whitespace moves to the start
   * of the continuation, the split point is the first echoed token whose `text_offset` is at or past the
   * context's length, and a continuation left empty scores 0 without a request. `spanRule: "byob"` is NeMo
   * BYOB's rule instead (nothing moves, see `ContinuationSpanRule` of @evalkern/metrics). `max_tokens: 0` is
   * tried first; a server rejecting it (vLLM) is asked again with 1, and whatever it generated (tokens at or
   * past the prompt's end, however many) is not counted.
   *
   * Gotchas: lm-eval's rule needs a non-empty context (the first token has no conditional probability), and
   * both need a server that echoes prompt logprobs (vLLM, llama.cpp; not OpenAI's chat models) — otherwise
   * `UnsupportedCapabilityError`.
   */
  async scoreContinuations(
    context: string,
    continuations: readonly string[],
    signal?: AbortSignal,
    options: ContinuationScoringOptions = {},
  ): Promise<readonly ContinuationScore[]> {
    const spanRule = options?.spanRule ?? "lm-eval";
    if (spanRule !== "lm-eval" && spanRule !== "byob") {
      const got = JSON.stringify(spanRule);
      throw new JudgeInputError(`options.spanRule must be "lm-eval" or "byob", got ${got}`, { argument: "options.spanRule" });
    }
    if (typeof context !== "string" || (spanRule === "lm-eval" && context.trim() === "")) {
      throw new JudgeInputError("context must be a non-empty string (the first token has no conditional logprob)", {
        argument: "context",
      });
    }
    if (!Array.isArray(continuations) || continuations.some((c) => typeof c !== "string")) {
      throw new JudgeInputError("continuations must be an array of strings", { argument: "continuations" });
    }
    if (this.caps.supportsEcho === false) {
      throw new UnsupportedCapabilityError("echo", `${this.name} has no /completions endpoint with echoed prompt logprobs`);
    }
    if (spanRule === "byob") return Promise.all(continuations.map((c) => this.scoreOne(context, c, spanRule, signal)));
    const trimmed = context.replace(/\s+$/u, "");
    const moved = context.slice(trimmed.length);
    // lm-eval sums the tokens after the context's: none for an empty continuation, log 1 = 0
    const nothing: ContinuationScore = { logprob: 0, isGreedy: true, tokenCount: 0 };
    return Promise.all(continuations.map((c) => (moved + c === "" ? nothing : this.scoreOne(trimmed, moved + c, spanRule, signal))));
  }

  /** `scoreContinuations(...).map(s => s.logprob)`. */
  async loglikelihood(prompt: string, continuations: readonly string[], signal?: AbortSignal): Promise<readonly number[]> {
    return (await this.scoreContinuations(prompt, continuations, signal)).map((s) => s.logprob);
  }

  private async scoreOne(
    context: string,
    continuation: string,
    spanRule: ContinuationSpanRule,
    signal: AbortSignal | undefined,
  ): Promise<ContinuationScore> {
    const run = () =>
      scoreContinuation(
        {
          model: this.model,
          name: this.name,
          transport: this.transport,
          oneToken: () => this.echoNeedsOneToken,
          needOneToken: () => {
            this.echoNeedsOneToken = true;
          },
          echoSupported: (supported) => {
            this.caps.supportsEcho = supported;
          },
          zeroUsage: () => ({ ...ZERO_USAGE }),
          usageOf: (raw, responseModel, latencyMs) => this.usageOf(raw, responseModel, latencyMs),
        },
        context,
        continuation,
        signal,
        spanRule,
      );
    const cache = this.cache;
    const parts = { namespace: this.options.cacheNamespace ?? null, model: this.model, spanRule, context, continuation };
    const task = (): Promise<ScoredContinuation> => (cache ? throughCache(cache, continuationCacheSpec(parts), run) : run());
    const result = await booked(this.ledger, this.tag(undefined, "completions"), task);
    return { logprob: result.logprob, isGreedy: result.isGreedy, tokenCount: result.tokenCount };
  }
}
