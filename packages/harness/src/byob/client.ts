// BYOB's view of an OpenAI-compatible endpoint: a thin adapter over the endpoint contract of
// @evalkern/metrics (`ModelEndpoint`), by default @evalkern/judge's `OpenAICompatibleJudge` — one
// transport for judges and benchmarks (retries with Retry-After and a time budget, one probe on a
// refused connection, `max_tokens: 0` → 1 for echo scoring, continuation offsets in code points, BYOB's span
// rule).
// This file only maps BYOB's options onto it and its typed errors onto BYOB's `EndpointError`s.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import {
  JudgeError,
  JudgeHttpError,
  JudgeOutputError,
  JudgeRateLimitError,
  JudgeTimeoutError,
  JudgeTransportError,
  JudgeUnreachableError,
  OpenAICompatibleJudge,
} from "@evalkern/judge";
import type { EndpointMessage, EndpointRequestOptions, EndpointRetryOptions, ModelEndpoint } from "@evalkern/metrics";
import { EndpointError } from "../errors.js";
import { EndpointUnreachableError } from "./errors.js";

export interface EndpointOptions {
  /** OpenAI-compatible base URL, e.g. http://localhost:8000/v1 (a URL without /vN gets /v1). */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Sampling temperature (default 0, BYOB's DEFAULT_TEMPERATURE). */
  readonly temperature?: number;
  /** Generation limit (default 4096, BYOB's DEFAULT_MAX_TOKENS). */
  readonly maxTokens?: number;
  readonly topP?: number;
  /** Per-request timeout (default 120 s). Same as `timeoutMs`. */
  readonly requestTimeoutMs?: number;
  /** Per-attempt timeout, by the endpoint contract's name (wins over `requestTimeoutMs`). */
  readonly timeoutMs?: number;
  /** Retries on 429/5xx and network errors (default 3). Same as `retry.maxAttempts - 1`. */
  readonly maxRetries?: number;
  /** Exponential backoff base when no Retry-After is given (default 500 ms). Same as `retry.initialDelayMs`. */
  readonly retryBackoffMs?: number;
  /** Longest Retry-After honoured (default 60 s). Same as `retry.maxRetryAfterMs`. */
  readonly maxRetryAfterMs?: number;
  /**
   * Time budget of retries the server schedules: once `maxRetries` are spent, a 429/5xx carrying
   * Retry-After is still retried after the requested wait while the time since the first attempt plus
   * the wait stays within this budget (default 120 s; 0 = a fixed count). Same as `retry.budgetMs`.
   */
  readonly retryBudgetMs?: number;
  /** Retries by the names the judge uses (they win over the BYOB names above). */
  readonly retry?: EndpointRetryOptions;
  /** Requests in flight at once (default: the run's `parallelism`). */
  readonly maxConcurrency?: number;
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
  /** Any implementation of the endpoint contract; the options above that configure HTTP are then unused. */
  readonly endpoint?: ModelEndpoint;
}

export interface Loglikelihood {
  /** Sum of the continuation tokens' log-probabilities. */
  readonly logprob: number;
  /** Every continuation token was the top-1 token at its position. */
  readonly isGreedy: boolean;
  /** Number of continuation tokens. */
  readonly tokenCount: number;
}

/** `http://h/v1` as is; `http://h` → `http://h/v1`; trailing slashes dropped. */
export function normalizeBaseUrl(url: string): string {
  const u = url.replace(/\/+$/, "");
  return /\/v\d+[a-z]*$/i.test(u) ? u : `${u}/v1`;
}

/** BYOB's error of a failed call: `EndpointError` (or `EndpointUnreachableError`), the judge's error as `cause`. */
function endpointError(error: unknown, url: string, what: "chat completion" | "completion" | "logprobs"): unknown {
  if (!JudgeError.isInstance(error)) return error;
  const wrap = (e: EndpointError): EndpointError => (Object.defineProperty(e, "cause", { value: error, enumerable: false }), e);
  if (error instanceof JudgeUnreachableError) return wrap(new EndpointUnreachableError(url, "connection refused"));
  if (error instanceof JudgeHttpError || error instanceof JudgeRateLimitError) {
    const status = error instanceof JudgeHttpError ? error.status : 429;
    const attempts = error.attempts > 1 ? ` after ${error.attempts} attempts` : "";
    const detail = error.message.replace(/^HTTP \d+ from the judge server( after \d+ attempts)?: /, "");
    return wrap(new EndpointError(`POST ${url} answered HTTP ${status}${attempts}: ${detail}`, url, status));
  }
  if (error instanceof JudgeTransportError && error.kind === "malformed_response") {
    return wrap(
      new EndpointError(`POST ${url}: malformed response body (not JSON) after ${error.attempts} attempt(s): ${error.message}`, url, 200),
    );
  }
  if (error instanceof JudgeTransportError || error instanceof JudgeTimeoutError) {
    return wrap(new EndpointError(`POST ${url} failed after ${error.attempts} attempt(s): ${error.message}`, url));
  }
  if (error instanceof JudgeOutputError) {
    const shape =
      what === "chat completion"
        ? "no choices[0].message.content"
        : what === "completion"
          ? "no choices[0].text"
          : "choices[0].logprobs needs tokens, token_logprobs and text_offset (echo + logprobs)";
    return wrap(new EndpointError(`malformed ${what} body: ${shape} (${error.message})`, url, 200));
  }
  return wrap(new EndpointError(`POST ${url}: ${error.message}`, url));
}

/**
 * BYOB's client of one endpoint: chat, completions and log-likelihoods, as BYOB's runner calls them.
 *
 * Details: over `options.endpoint` when given, else over an `OpenAICompatibleJudge` built from the
 * options (no re-asks, no cache, `EVALKERN_JUDGE_*` variables ignored). `requests` counts HTTP requests
 * (retries included) of the built-in transport.
 */
export class OpenAICompatibleClient {
  readonly baseUrl: string;
  /** The endpoint every call goes through. */
  readonly endpoint: ModelEndpoint;
  private readonly judge: OpenAICompatibleJudge | undefined;
  private readonly sampling: EndpointRequestOptions;
  private readonly signal: AbortSignal | undefined;
  private counted = 0;

  constructor(options: EndpointOptions & { readonly parallelism?: number }) {
    this.signal = options?.signal;
    if (options?.endpoint) {
      this.endpoint = options.endpoint;
      this.baseUrl = options.endpoint.baseUrl;
      this.judge = options.endpoint instanceof OpenAICompatibleJudge ? options.endpoint : undefined;
    } else {
      if (typeof options?.baseUrl !== "string" || !/^https?:\/\//.test(options.baseUrl))
        throw new InvalidArgumentError("baseUrl must be an http(s) URL", { argument: "baseUrl" });
      if (typeof options.model !== "string" || !options.model)
        throw new InvalidArgumentError("model must be a non-empty string", { argument: "model" });
      this.baseUrl = normalizeBaseUrl(options.baseUrl);
      const retry = options.retry ?? {};
      this.judge = new OpenAICompatibleJudge({
        baseURL: this.baseUrl,
        model: options.model,
        ...(options.apiKey ? { apiKey: options.apiKey } : {}),
        env: {},
        temperature: options.temperature ?? 0,
        maxTokens: options.maxTokens ?? 4096,
        ...(options.topP !== undefined ? { topP: options.topP } : {}),
        timeoutMs: options.timeoutMs ?? options.requestTimeoutMs ?? 120_000,
        maxReasks: 0,
        maxConcurrency: options.maxConcurrency ?? Math.max(1, options.parallelism ?? 8),
        retry: {
          maxAttempts: retry.maxAttempts ?? (options.maxRetries ?? 3) + 1,
          initialDelayMs: retry.initialDelayMs ?? options.retryBackoffMs ?? 500,
          ...(retry.maxDelayMs !== undefined ? { maxDelayMs: retry.maxDelayMs } : {}),
          maxRetryAfterMs: retry.maxRetryAfterMs ?? options.maxRetryAfterMs ?? 60_000,
          budgetMs: retry.budgetMs ?? options.retryBudgetMs ?? 120_000,
          jitter: 0,
        },
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      this.endpoint = this.judge;
    }
    this.sampling = {
      temperature: options.temperature ?? 0,
      maxTokens: options.maxTokens ?? 4096,
      ...(options.topP !== undefined ? { topP: options.topP } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
  }

  /** HTTP requests sent (including retries), for reports and tests. */
  get requests(): number {
    return this.judge ? (this.judge.ledger.total().requests ?? 0) : this.counted;
  }

  /** Tokens the endpoint reported, for reports (null without the built-in transport). */
  get usage(): { readonly inputTokens: number; readonly outputTokens: number } | null {
    if (!this.judge) return null;
    const t = this.judge.ledger.total();
    return { inputTokens: t.inputTokens, outputTokens: t.outputTokens };
  }

  /** Chat completion of one user message (plus an optional system message); the reply text. */
  async chat(prompt: string, systemPrompt?: string): Promise<string> {
    const messages: EndpointMessage[] = [
      ...(systemPrompt ? [{ role: "system" as const, content: systemPrompt }] : []),
      { role: "user", content: prompt },
    ];
    try {
      const r = await this.endpoint.chatCompletion(messages, this.sampling);
      this.counted += r.usage.requests;
      return r.text;
    } catch (e) {
      throw endpointError(e, `${this.baseUrl}/chat/completions`, "chat completion");
    }
  }

  /** Text completion (`/completions`); the system prompt, if any, is prepended with a newline (as BYOB). */
  async completion(prompt: string, systemPrompt?: string): Promise<string> {
    const full = systemPrompt ? `${systemPrompt}\n${prompt}` : prompt;
    try {
      const r = await this.endpoint.textCompletion(full, this.sampling);
      this.counted += r.usage.requests;
      return r.text;
    } catch (e) {
      throw endpointError(e, `${this.baseUrl}/completions`, "completion");
    }
  }

  /**
   * Log-likelihood of `continuation` after `context` by BYOB's rule (`_parse_loglikelihood_response`): one
   * `/completions` call with the two joined, `echo: true`, `logprobs: 1`, `max_tokens: 0` (1 when the server
   * refuses 0, whatever it generated then ignored), through the endpoint's `scoreContinuations` with
   * `spanRule: "byob"` — no move of the context's trailing spaces, the last prompt token when no token starts
   * at or past the context (an empty choice).
   */
  async loglikelihood(context: string, continuation: string): Promise<Loglikelihood> {
    try {
      const [score] = await this.endpoint.scoreContinuations(context, [continuation], this.signal, { spanRule: "byob" });
      this.counted++;
      return { logprob: score!.logprob, isGreedy: score!.isGreedy, tokenCount: score!.tokenCount };
    } catch (e) {
      throw endpointError(e, `${this.baseUrl}/completions`, "logprobs");
    }
  }
}
