// The retry layer over a `Transport`: one request with the judge's policy (docs/spec/judges.md §10.6) —
// a limiter slot only while a request is in flight, backoff with jitter and Retry-After (within a time
// budget beyond `maxAttempts`), one probe on a refused connection, and the typed error of a request that
// failed for good, carrying the usage spent so far. Decisions read only the `ErrorClass` of each failure.
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
import { nextRetry, sleep, type RetryPolicy } from "../retry.js";
import type { CallState } from "./call.js";
import {
  CapabilityRejection,
  type Classifier,
  type ErrorClass,
  type Transport,
  type TransportEndpoint,
  type TransportRequest,
} from "./transport.js";

export interface RetryingTransportOptions {
  readonly limiter: ConcurrencyLimiter;
  readonly retry: RetryPolicy;
  /** The transport's per-attempt timeout (for the message of a timeout). */
  readonly timeoutMs: number;
  /** Where requests go (for the messages of network errors). */
  readonly baseURL: string;
  readonly classify: Classifier;
}

function plural(n: number): string {
  return n === 1 ? "" : "s";
}

/** One judge's requests: its transport, the shared limiter, the retry policy and the error classifier. */
export class RetryingTransport {
  readonly limiter: ConcurrencyLimiter;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly baseURL: string;
  private readonly classify: Classifier;

  constructor(
    readonly transport: Transport,
    options: RetryingTransportOptions,
  ) {
    this.limiter = options.limiter;
    this.retry = options.retry;
    this.timeoutMs = options.timeoutMs;
    this.baseURL = options.baseURL;
    this.classify = options.classify;
  }

  /** A failure as the caller throws it: judge errors carry the usage spent so far. */
  finalError(error: unknown, state: CallState): unknown {
    if (JudgeError.isInstance(error)) {
      if (error.usage) return error;
      // Attach the usage in place (errors are immutable values otherwise).
      Object.defineProperty(error, "usage", { value: { ...state.usage, requests: state.requests } });
      return error;
    }
    return error;
  }

  /**
   * One request with retries; counts each attempt in `state.requests`. Throws a typed judge error, or a
   * `CapabilityRejection` when the server refused a capability of `body`.
   */
  async send<R>(
    endpoint: TransportEndpoint,
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
    state: CallState,
  ): Promise<{ response: R; latency: number }> {
    const request: TransportRequest = { endpoint, body };
    const usage = (): JudgeUsage => ({ ...state.usage, requests: state.requests });
    const aborted = (abort: unknown): never => {
      throw JudgeError.isInstance(abort) ? new JudgeAbortedError(undefined, { cause: signal?.reason, usage: usage() }) : abort;
    };
    let probed = false;
    const firstStarted = Date.now();
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      try {
        const response = await this.limiter.run(async () => {
          state.requests++;
          return this.transport.send(request, signal);
        }, signal);
        return { response: response as R, latency: Date.now() - started };
      } catch (error) {
        const cls = this.classify(error, request);
        if (signal?.aborted || (cls.kind === "aborted" && !JudgeAbortedError.isInstance(error))) {
          throw new JudgeAbortedError(undefined, { cause: signal?.reason ?? error, usage: usage() });
        }
        if (cls.kind === "aborted") throw this.finalError(error, state);
        if (cls.kind === "capability" && cls.capability) {
          throw new CapabilityRejection(cls.capability, cls.perSchema === true, error, this.typedError(cls, error, attempt, usage()));
        }
        if (cls.kind === "unreachable") {
          if (probed) throw this.typedError(cls, error, attempt, usage());
          // one probe after a short pause, then fail fast (no further retries)
          probed = true;
          attempt--;
          await sleep(Math.min(this.retry.initialDelayMs, 1_000), signal).catch(aborted);
          continue;
        }
        const retryAfter = cls.retryAfterMs ?? null;
        if (cls.kind === "rate-limit" && cls.retryable && retryAfter !== null && retryAfter > this.retry.maxRetryAfterMs) {
          const max = this.retry.maxRetryAfterMs;
          throw new JudgeRateLimitError(
            `The judge server asked to wait ${Math.round(retryAfter)} ms (Retry-After), longer than retry.maxRetryAfterMs = ${max}`,
            { code: cls.http?.code ?? null, type: cls.http?.type ?? null, attempts: attempt, retryAfterMs: retryAfter },
            { cause: error, usage: usage() },
          );
        }
        const wait = cls.retryable ? nextRetry(this.retry, attempt, retryAfter, Date.now() - firstStarted) : null;
        if (wait === null) throw this.typedError(cls, error, attempt, usage());
        await sleep(wait, signal).catch(aborted);
      }
    }
  }

  /** The typed error of a request that failed for good after `attempt` attempts. */
  private typedError(cls: ErrorClass, error: unknown, attempt: number, usage: JudgeUsage): JudgeError {
    const options = { cause: error, usage };
    const attempts = { attempts: attempt };
    const message = error instanceof Error ? error.message : String(error);
    const http = cls.http;
    switch (cls.kind) {
      case "timeout":
        return new JudgeTimeoutError(
          `The judge call timed out after ${this.timeoutMs} ms (${attempt} attempt${plural(attempt)})`,
          { timeoutMs: this.timeoutMs, attempts: attempt },
          options,
        );
      case "unreachable":
        return new JudgeUnreachableError(this.baseURL, options);
      case "network":
        return new JudgeTransportError("network", `Could not reach the judge server at ${this.baseURL}: ${message}`, attempts, options);
      case "malformed-response":
        return new JudgeTransportError(
          "malformed_response",
          `The judge server sent a response body that is not valid JSON: ${message}`,
          attempts,
          options,
        );
      case "rate-limit":
      case "quota":
        return new JudgeRateLimitError(
          cls.kind === "quota"
            ? `The judge provider reports an exhausted quota (insufficient_quota): ${message}`
            : `Rate limited by the judge server after ${attempt} attempt${plural(attempt)}: ${message}`,
          { code: http?.code ?? null, type: http?.type ?? null, attempts: attempt, retryAfterMs: cls.retryAfterMs ?? null },
          options,
        );
      default:
        if (http) {
          // a capability rejection that could not step down ends as the HTTP error it was
          const counted = cls.kind === "capability" ? (usage.requests ?? attempt) : attempt;
          const after = cls.retryable ? ` after ${attempt} attempts` : "";
          const detail = { ...http, attempts: counted };
          return new JudgeHttpError(`HTTP ${http.status} from the judge server${after}: ${message}`, detail, options);
        }
        return new JudgeTransportError("network", `Judge request failed: ${message}`, attempts, options);
    }
  }
}
