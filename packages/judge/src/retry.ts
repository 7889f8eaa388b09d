// Transport retry policy (docs/spec/judges.md §10.6): retry 408/409/429/5xx, network errors, timeouts and
// unparsable 200 bodies; never other 4xx; honour Retry-After; exponential backoff with jitter.
import { JudgeAbortedError, JudgeConfigError } from "./errors.js";

export interface RetryOptions {
  /** HTTP attempts per request, first included. Default 4. */
  readonly maxAttempts?: number;
  /** Backoff before the 2nd attempt, doubled each time. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Cap of the computed backoff. Default 30 000 ms. */
  readonly maxDelayMs?: number;
  /**
   * Longest `Retry-After` honoured. A server asking for longer ends the call with a rate-limit error
   * instead of stalling the run. Default 60 000 ms.
   */
  readonly maxRetryAfterMs?: number;
  /**
   * Time budget of retries the server schedules itself. Once `maxAttempts` are spent, a request whose
   * last failure carried `Retry-After` (a 429, a 503) is still retried, after the requested wait, while
   * the time since its first attempt plus that wait stays within this budget. So a rate limit the server
   * paces does not fail measurements however many 429s it takes; 0 restores a fixed count. Default
   * 120 000 ms.
   */
  readonly budgetMs?: number;
  /** Share of the backoff removed at random (0..1). Default 0.25. */
  readonly jitter?: number;
  /** Random source in [0, 1) (tests pin it). Default `Math.random`. */
  readonly random?: () => number;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRetryAfterMs: number;
  readonly budgetMs: number;
  readonly jitter: number;
  readonly random: () => number;
}

function nonNegative(value: number | undefined, fallback: number, argument: string, integer = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new JudgeConfigError(`${argument} must be a non-negative ${integer ? "integer" : "number"}`, {
      argument,
      actual: String(value),
    });
  }
  return value;
}

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const maxAttempts = nonNegative(options.maxAttempts, 4, "retry.maxAttempts", true);
  if (maxAttempts < 1) {
    throw new JudgeConfigError("retry.maxAttempts must be at least 1", { argument: "retry.maxAttempts", actual: String(maxAttempts) });
  }
  const jitter = nonNegative(options.jitter, 0.25, "retry.jitter");
  if (jitter > 1) throw new JudgeConfigError("retry.jitter must be in [0, 1]", { argument: "retry.jitter", actual: String(jitter) });
  return {
    maxAttempts,
    initialDelayMs: nonNegative(options.initialDelayMs, 500, "retry.initialDelayMs"),
    maxDelayMs: nonNegative(options.maxDelayMs, 30_000, "retry.maxDelayMs"),
    maxRetryAfterMs: nonNegative(options.maxRetryAfterMs, 60_000, "retry.maxRetryAfterMs"),
    budgetMs: nonNegative(options.budgetMs, 120_000, "retry.budgetMs"),
    jitter,
    random: options.random ?? Math.random,
  };
}

/**
 * The server's requested wait in ms, from `retry-after-ms` (ms), else `retry-after` (seconds, possibly
 * fractional, or an HTTP date). Null when absent or unparsable.
 */
export function parseRetryAfter(headers: Headers | undefined | null, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return null;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * Wait before attempt `attempt + 1` (attempt counts from 1): the server's Retry-After when given (plus up
 * to 10 % / 250 ms of upward jitter so a burst of limited calls does not return in lockstep), else
 * `min(initial · 2^(attempt−1), max) · (1 − jitter · U)`.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return retryAfterMs + policy.random() * Math.min(250, retryAfterMs * 0.1);
  const base = Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return base * (1 - policy.jitter * policy.random());
}

/** HTTP statuses worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Resolve after `ms`, or reject with `JudgeAbortedError` when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new JudgeAbortedError(undefined, { cause: signal.reason }));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new JudgeAbortedError(undefined, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Whether a request that failed `attempt` times may be retried, and after how long: within
 * `maxAttempts`, always (backoff or Retry-After); beyond, only when the server said when to come back
 * (`retryAfterMs` not null) and the time since the first attempt plus the wait fits in `budgetMs`
 * (the wait is then at least `initialDelayMs`, so a `Retry-After: 0` loop cannot spin).
 */
export function nextRetry(policy: RetryPolicy, attempt: number, retryAfterMs: number | null, elapsedMs: number): number | null {
  if (attempt < policy.maxAttempts) return backoffDelay(policy, attempt, retryAfterMs);
  if (retryAfterMs === null) return null;
  const wait = Math.max(backoffDelay(policy, attempt, retryAfterMs), policy.initialDelayMs);
  return elapsedMs + wait <= policy.budgetMs ? wait : null;
}

/** A failed fetch because nothing listens there (`ECONNREFUSED` anywhere in the cause chain). */
export function isConnectionRefused(error: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown): boolean => {
    if (typeof e !== "object" || e === null || seen.has(e)) return false;
    seen.add(e);
    if ((e as { code?: unknown }).code === "ECONNREFUSED") return true;
    const errors = (e as { errors?: unknown }).errors;
    return walk((e as { cause?: unknown }).cause) || (Array.isArray(errors) && errors.some(walk));
  };
  return walk(error);
}
