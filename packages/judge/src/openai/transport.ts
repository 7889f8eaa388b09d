// The transport of OpenAICompatibleJudge: the `openai` client (its own retries off), and one request with
// the judge's retry policy — 408/409/429/5xx, network errors, timeouts and unparsable bodies retried with
// backoff and Retry-After (within a time budget beyond `maxAttempts`), one probe on a refused connection,
// capability rejections (a 400 naming `response_format`, `logprobs`, `echo`) surfaced for fallback.
import { EvalkernError } from "@evalkern/metrics";
import OpenAI, { AzureOpenAI } from "openai";
import {
  JudgeAbortedError,
  JudgeError,
  JudgeHttpError,
  JudgeRateLimitError,
  JudgeTimeoutError,
  JudgeTransportError,
  JudgeUnreachableError,
} from "../errors.js";
import type { ConcurrencyLimiter } from "../limiter.js";
import type { JudgeUsage } from "../model.js";
import { isConnectionRefused, isRetryableStatus, nextRetry, parseRetryAfter, sleep, type RetryPolicy } from "../retry.js";
import type { CallState } from "./shared.js";

/** A 400/422 naming a parameter the model does not support (handled by falling back, not retried). */
/** Internal signal (never reaches users): the server refused a capability; the caller steps down and retries. */
export class CapabilityRejection extends EvalkernError {
  override name = "CapabilityRejection";
  override readonly code: string = "CAPABILITY_REJECTED";
  constructor(
    readonly capability: "response_format" | "logprobs" | "echo",
    readonly perSchema: boolean,
    readonly original: unknown,
  ) {
    super(`rejected ${capability}`);
  }
}


const RESPONSE_FORMAT_HINT = /response_format|json_schema|json_object|structured output|guided_json|grammar/i;
const LOGPROBS_HINT = /logprob/i;

function apiErrorText(error: InstanceType<typeof OpenAI.APIError>): string {
  return `${error.message ?? ""} ${error.param ?? ""} ${error.code ?? ""}`;
}

/** How to build the `openai` client (from the judge's options). */
export interface ClientSettings {
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly apiVersion: string | undefined;
  readonly timeoutMs: number;
  readonly apiKeyHeader?: "authorization" | "api-key";
  readonly deployment?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
  readonly dangerouslyAllowBrowser?: boolean;
}

/** The `openai` (or `AzureOpenAI`) client, retries off; error bodies sent at the top level (vLLM) keep their message. */
export function createOpenAIClient(o: ClientSettings): OpenAI {
  let client: OpenAI;
  const common = {
    maxRetries: 0,
    timeout: o.timeoutMs,
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.dangerouslyAllowBrowser !== undefined ? { dangerouslyAllowBrowser: o.dangerouslyAllowBrowser } : {}),
    ...(o.query ? { defaultQuery: { ...o.query } } : {}),
  };
  if (o.apiVersion !== undefined) {
    client = new AzureOpenAI({
      ...common,
      baseURL: o.baseURL,
      apiKey: o.apiKey ?? "no-key",
      apiVersion: o.apiVersion,
      ...(o.deployment ? { deployment: o.deployment } : {}),
      ...(o.headers ? { defaultHeaders: { ...o.headers } } : {}),
    });
  } else {
    const headers: Record<string, string | null> = { ...(o.headers ?? {}) };
    if (o.apiKeyHeader === "api-key" && o.apiKey !== undefined) {
      headers["api-key"] = o.apiKey;
      headers.authorization = null;
    }
    if (o.apiKey === undefined) headers.authorization = null;
    client = new OpenAI({ ...common, baseURL: o.baseURL, apiKey: o.apiKey ?? "no-key", defaultHeaders: headers });
  }
  // Servers that send the error object at the top level (`{"object": "error", "message": ...}`, as
  // vLLM does) rather than under `error`: keep their message, so a refusal can be recognised.
  const patched = client as unknown as { makeStatusError: (status: number, error: unknown, message: string | undefined, headers: Headers) => Error };
  patched.makeStatusError = (status, error, message, headers) => {
    const body = error as Record<string, unknown> | undefined;
    const wrapped = body && typeof body === "object" && body.error === undefined && typeof body.message === "string" ? { error: body } : body;
    return OpenAI.APIError.generate(status, wrapped as object | undefined, message, headers);
  };
  return client;
}

/** One judge's requests: the client, its shared limiter, the retry policy and the per-attempt timeout. */
export class Transport {
  constructor(
    readonly client: OpenAI,
    readonly limiter: ConcurrencyLimiter,
    readonly retry: RetryPolicy,
    readonly timeoutMs: number,
    readonly baseURL: string,
  ) {}

  /** Turn a transport failure into the typed error, carrying the usage spent so far. */
  finalError(error: unknown, state: CallState): unknown {
    if (JudgeError.isInstance(error)) {
      if (error.usage) return error;
      // Re-create with usage attached (errors are immutable values).
      Object.defineProperty(error, "usage", { value: { ...state.usage, requests: state.requests } });
      return error;
    }
    if (error instanceof OpenAI.APIError && typeof error.status === "number") {
      return new JudgeHttpError(
        `HTTP ${error.status} from the judge server: ${error.message}`,
        { status: error.status, code: error.code ?? null, type: error.type ?? null, param: error.param ?? null, attempts: state.requests },
        { cause: error, usage: { ...state.usage, requests: state.requests } },
      );
    }
    return error;
  }

  /**
   * One request with transport retries. Holds a limiter slot only while the request is in flight.
   */
  async send<R>(
    endpoint: "chat" | "completions",
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
    state: CallState,
  ): Promise<{ response: R; latency: number }> {
    const policy = this.retry;
    let lastRetryAfter: number | null = null;
    let probed = false;
    const firstStarted = Date.now();
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      try {
        const response = await this.limiter.run(async () => {
          state.requests++;
          const opts = { ...(signal ? { signal } : {}), timeout: this.timeoutMs, maxRetries: 0 };
          if (endpoint === "chat") {
            return (await this.client.chat.completions.create(
              body as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
              opts,
            )) as unknown as R;
          }
          return (await this.client.completions.create(
            body as unknown as OpenAI.Completions.CompletionCreateParamsNonStreaming,
            opts,
          )) as unknown as R;
        }, signal);
        if (response === undefined || response === null || typeof response !== "object") {
          throw new SyntaxError("empty or non-JSON response body");
        }
        return { response, latency: Date.now() - started };
      } catch (error) {
        const usage = (): JudgeUsage => ({ ...state.usage, requests: state.requests });
        if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) {
          throw new JudgeAbortedError(undefined, { cause: signal?.reason ?? error, usage: usage() });
        }
        if (JudgeAbortedError.isInstance(error)) throw error;
        let retryable: boolean;
        let final: () => JudgeError;
        let retryAfter: number | null = null;
        if (error instanceof OpenAI.APIConnectionTimeoutError) {
          retryable = true;
          final = () =>
            new JudgeTimeoutError(`The judge call timed out after ${this.timeoutMs} ms (${attempt} attempt${attempt === 1 ? "" : "s"})`, {
              timeoutMs: this.timeoutMs,
              attempts: attempt,
            }, { cause: error, usage: usage() });
        } else if (error instanceof OpenAI.APIConnectionError && isConnectionRefused(error)) {
          // nothing listens there: one probe after a short pause, then fail fast (no further retries)
          if (!probed) {
            probed = true;
            attempt--;
            await sleep(Math.min(policy.initialDelayMs, 1_000), signal).catch((abort: unknown) => {
              throw JudgeError.isInstance(abort) ? new JudgeAbortedError(undefined, { cause: signal?.reason, usage: usage() }) : abort;
            });
            continue;
          }
          throw new JudgeUnreachableError(this.baseURL, { cause: error, usage: usage() });
        } else if (error instanceof OpenAI.APIConnectionError) {
          retryable = true;
          final = () =>
            new JudgeTransportError("network", `Could not reach the judge server at ${this.baseURL}: ${error.message}`, { attempts: attempt }, { cause: error, usage: usage() });
        } else if (error instanceof SyntaxError) {
          retryable = true;
          final = () =>
            new JudgeTransportError("malformed_response", `The judge server sent a response body that is not valid JSON: ${error.message}`, { attempts: attempt }, { cause: error, usage: usage() });
        } else if (error instanceof OpenAI.APIError && typeof error.status === "number") {
          const status = error.status;
          const text = apiErrorText(error);
          if ((status === 400 || status === 422) && endpoint === "chat") {
            if (body.logprobs !== undefined && LOGPROBS_HINT.test(text)) throw new CapabilityRejection("logprobs", false, error);
            if (body.response_format !== undefined && RESPONSE_FORMAT_HINT.test(text)) {
              throw new CapabilityRejection("response_format", /invalid schema|schema for response_format/i.test(text), error);
            }
          }
          if ((status === 400 || status === 404 || status === 422) && endpoint === "completions" && body.echo === true) {
            if (body.max_tokens === 0 && /max[_ ]?tokens|maximum.*tokens|at least 1/i.test(text)) throw new CapabilityRejection("echo", true, error);
            if (status === 404 || /echo|logprob|completions/i.test(text)) throw new CapabilityRejection("echo", false, error);
          }
          const shouldRetry = error.headers?.get?.("x-should-retry");
          retryAfter = parseRetryAfter(error.headers as Headers | undefined);
          if (status === 429) {
            lastRetryAfter = retryAfter;
            const quota = error.code === "insufficient_quota" || error.type === "insufficient_quota";
            retryable = !quota && shouldRetry !== "false";
            final = () =>
              new JudgeRateLimitError(
                quota
                  ? `The judge provider reports an exhausted quota (insufficient_quota): ${error.message}`
                  : `Rate limited by the judge server after ${attempt} attempt${attempt === 1 ? "" : "s"}: ${error.message}`,
                { code: error.code ?? null, type: error.type ?? null, attempts: attempt, retryAfterMs: lastRetryAfter },
                { cause: error, usage: usage() },
              );
            if (retryable && retryAfter !== null && retryAfter > policy.maxRetryAfterMs) {
              throw new JudgeRateLimitError(
                `The judge server asked to wait ${Math.round(retryAfter)} ms (Retry-After), longer than retry.maxRetryAfterMs = ${policy.maxRetryAfterMs}`,
                { code: error.code ?? null, type: error.type ?? null, attempts: attempt, retryAfterMs: retryAfter },
                { cause: error, usage: usage() },
              );
            }
          } else {
            retryable = shouldRetry === "true" || (shouldRetry !== "false" && isRetryableStatus(status));
            final = () =>
              new JudgeHttpError(
                `HTTP ${status} from the judge server${retryable ? ` after ${attempt} attempts` : ""}: ${error.message}`,
                { status, code: error.code ?? null, type: error.type ?? null, param: error.param ?? null, attempts: attempt },
                { cause: error, usage: usage() },
              );
          }
        } else {
          // fetch itself failing (TypeError: fetch failed, ECONNRESET...) is a network error.
          retryable = true;
          final = () =>
            new JudgeTransportError("network", `Judge request failed: ${error instanceof Error ? error.message : String(error)}`, { attempts: attempt }, { cause: error, usage: usage() });
        }
        const wait = retryable ? nextRetry(policy, attempt, retryAfter, Date.now() - firstStarted) : null;
        if (wait === null) throw final();
        await sleep(wait, signal).catch((abort: unknown) => {
          throw JudgeError.isInstance(abort) ? new JudgeAbortedError(undefined, { cause: signal?.reason, usage: usage() }) : abort;
        });
      }
    }
  }
}
