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
 * Which rule finds a continuation's tokens in an echoed prompt (see {@link continuationTokens}):
 * - `"lm-eval"`: lm-evaluation-harness `loglikelihood`. The context's trailing whitespace moves to the start of
 *   the continuation; an empty continuation scores 0 (the sum of no tokens).
 * - `"byob"`: NeMo BYOB's `_parse_loglikelihood_response`. Nothing moves; when no echoed token starts at or past
 *   the context (an empty continuation, or one the tokenizer merged into the context), the last prompt token is
 *   the continuation; tokens without a logprob are left out of the sum.
 */
export type ContinuationSpanRule = "lm-eval" | "byob";

/** How `scoreContinuations` locates the continuation. */
export interface ContinuationScoringOptions {
  /** Default `"lm-eval"`. */
  readonly spanRule?: ContinuationSpanRule;
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
  /**
   * Log-likelihood of each continuation after `context` (`/v1/completions`, `echo: true`), its tokens
   * located by `options.spanRule` ({@link continuationTokens}; lm-evaluation-harness's rule by default).
   */
  scoreContinuations(
    context: string,
    continuations: readonly string[],
    signal?: AbortSignal,
    options?: ContinuationScoringOptions,
  ): Promise<readonly ContinuationLoglikelihood[]>;
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
 * Details: offsets are code points ({@link codePointLength}). A token whose offset is at or past the prompt's
 * end was generated (a server asked for `max_tokens: 1` returns zero, one or more of them) and never counts,
 * so nothing is dropped by count. Among the prompt's tokens, `start` is the first at or past the context's
 * end. When there is none:
 * - `"lm-eval"` (default) takes the token straddling the context's end (the tokenizer merged the end of the
 *   context into the continuation's first token), and never the prompt's first token (it has no
 *   conditional logprob); an empty continuation has no tokens (undefined).
 * - `"byob"` takes the last prompt token, as BYOB does, and may start at the first token (whose missing
 *   logprob BYOB leaves out of the sum).
 */
export function continuationTokens(
  context: string,
  continuation: string,
  offsets: readonly unknown[],
  options: ContinuationScoringOptions = {},
): { readonly start: number; readonly end: number } | undefined {
  const byob = options.spanRule === "byob";
  const ctxLen = codePointLength(context);
  const promptLen = ctxLen + codePointLength(continuation);
  // generated tokens follow the prompt: the first offset at or past its end ends the prompt's tokens
  let end = offsets.length;
  for (let i = 0; i < offsets.length; i++) {
    const o = offsets[i];
    if (typeof o === "number" && o >= promptLen) {
      end = i;
      break;
    }
  }
  if (!byob && promptLen === ctxLen) return undefined;
  let start = -1;
  for (let i = 0; i < end; i++) {
    const o = offsets[i];
    if (typeof o === "number" && o >= ctxLen) {
      start = i;
      break;
    }
  }
  if (start < 0 && byob) start = end - 1;
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
  if (start === 0 && !byob) start = 1;
  return start < end ? { start, end } : undefined;
}
