// The model-endpoint contract: what an OpenAI-compatible server offers an evaluation — a chat
// completion, a text completion and the log-likelihood of continuations — and the one place where a
// continuation's tokens are found in an echoed prompt. @evalkern/judge's `OpenAICompatibleJudge`
// implements it; BYOB benchmarks (@evalkern/harness) consume it.

/** One chat message. */
export interface EndpointMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

/** Sampling and cancellation of one completion request. */
export interface EndpointRequestOptions {
  /** Reply-token limit (`max_tokens`). */
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** `top_p`, sent only when set. */
  readonly topP?: number;
  readonly signal?: AbortSignal;
}

/** Tokens and HTTP requests (retries included) one call spent. */
export interface EndpointUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly requests: number;
}

/** The reply of a chat or text completion. */
export interface EndpointCompletion {
  readonly text: string;
  /** `finish_reason` as the server sent it (`"stop"`, `"length"`...). */
  readonly finishReason: string | null;
  readonly usage: EndpointUsage;
}

/** Log-likelihood of one continuation given a context (lm-evaluation-harness `loglikelihood`). */
export interface ContinuationLoglikelihood {
  /** Summed log-probability of the continuation tokens. */
  readonly logprob: number;
  /** Every continuation token was the most likely token at its position. */
  readonly isGreedy: boolean;
  /** Number of continuation tokens. */
  readonly tokenCount: number;
}

/**
 * The options every OpenAI-compatible client of evalkern understands under the same names
 * (`OpenAICompatibleJudge`, BYOB's `run()`), besides its own.
 */
export interface EndpointConnectionOptions {
  /** Base URL including the API prefix, e.g. `http://localhost:8000/v1`. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly model?: string;
  /** Per-attempt timeout in ms. */
  readonly timeoutMs?: number;
  /** Requests in flight at once. */
  readonly maxConcurrency?: number;
  readonly retry?: EndpointRetryOptions;
}

/** Transport retries, by the same names everywhere. */
export interface EndpointRetryOptions {
  /** HTTP attempts per request, the first included. */
  readonly maxAttempts?: number;
  /** Backoff before the 2nd attempt, doubled each time. */
  readonly initialDelayMs?: number;
  /** Cap of the computed backoff. */
  readonly maxDelayMs?: number;
  /** Longest `Retry-After` honoured. */
  readonly maxRetryAfterMs?: number;
  /** Time budget of retries the server schedules with `Retry-After`, beyond `maxAttempts`. */
  readonly budgetMs?: number;
}

/**
 * An OpenAI-compatible model endpoint.
 *
 * Gotchas: `scoreContinuations` needs a server that echoes prompt logprobs on `/v1/completions`
 * (vLLM, llama.cpp; not OpenAI's chat models). Implementations reject with typed errors; they never
 * resolve with a made-up value.
 */
export interface ModelEndpoint {
  readonly baseUrl: string;
  readonly model: string;
  /** `/v1/chat/completions` of `messages`. */
  chatCompletion(messages: readonly EndpointMessage[], options?: EndpointRequestOptions): Promise<EndpointCompletion>;
  /** `/v1/completions` of `prompt`. */
  textCompletion(prompt: string, options?: EndpointRequestOptions): Promise<EndpointCompletion>;
  /** Log-likelihood of each continuation after `context` (`/v1/completions`, `echo: true`). */
  scoreContinuations(context: string, continuations: readonly string[], signal?: AbortSignal): Promise<readonly ContinuationLoglikelihood[]>;
}

/**
 * Length of `text` in Unicode code points — Python's `len(str)`, the unit of the `text_offset` of
 * OpenAI-compatible servers (vLLM and OpenAI's legacy completions count offsets in characters of the
 * decoded string, so an emoji outside the BMP is 1, where JS's `length` says 2). A lone surrogate counts 1.
 */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Which echoed tokens are the continuation: `[start, end)` over `offsets` (`logprobs.text_offset` of a
 * `/v1/completions` reply with `echo: true` for the prompt `context + continuation`), or undefined when no
 * token falls in the continuation.
 *
 * Details: offsets are code points ({@link codePointLength}). `start` is the first token at or past the
 * context's end; when the tokenizer merged the end of the context into the continuation's first token,
 * that straddling token. The prompt's first token never counts (it has no conditional logprob).
 * `generated` trailing tokens (a server refusing `max_tokens: 0` generated one) are dropped, as is any
 * token at or past the prompt's end.
 */
export function continuationTokens(
  context: string,
  continuation: string,
  offsets: readonly unknown[],
  generated = 0,
): { readonly start: number; readonly end: number } | undefined {
  const ctxLen = codePointLength(context);
  const promptLen = ctxLen + codePointLength(continuation);
  let end = offsets.length - generated;
  let start = -1;
  for (let i = 0; i < end; i++) {
    const o = offsets[i];
    if (typeof o === "number" && o >= ctxLen) {
      start = i;
      break;
    }
  }
  if (start < 0) {
    for (let i = end - 1; i >= 0; i--) {
      const o = offsets[i];
      if (typeof o === "number" && o < ctxLen) {
        start = i;
        break;
      }
    }
  }
  if (start < 0) return undefined;
  if (start === 0) start = 1;
  for (let i = start + 1; i < end; i++) {
    const o = offsets[i];
    if (typeof o === "number" && o >= promptLen) {
      end = i;
      break;
    }
  }
  return start < end ? { start, end } : undefined;
}
