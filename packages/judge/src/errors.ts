// Typed errors of @evalkern/judge. They extend the one root, `EvalkernError` (from @evalkern/core-wasm via
// @evalkern/metrics; `EvalkernError.isInstance` accepts them across package copies), with their own marker,
// a stable `name` and `code`, a short `kind` for reports (`error = "<kind>: ..."`), and context.
import { EvalkernError } from "@evalkern/metrics";
import type { JudgeUsage } from "./model.js";

const JUDGE_MARKER = Symbol.for("evalkern.judge.error");

/** What went wrong, in one word: the prefix of `error` strings in metric results. */
export type JudgeErrorKind =
  | "config"
  | "input"
  | "http"
  | "rate_limit"
  | "timeout"
  | "network"
  | "malformed_response"
  | "output"
  | "cache_miss"
  | "unsupported"
  | "aborted";

/**
 * Base of every judge error.
 *
 * Gotchas: use `JudgeError.isInstance(e)` rather than `instanceof` when two copies of the package may be
 * loaded (bundles, pnpm peers).
 */
export class JudgeError extends EvalkernError {
  readonly [JUDGE_MARKER] = true;
  override name = "JudgeError";
  override readonly code: string = "JUDGE_ERROR";
  readonly kind: JudgeErrorKind;
  /** Tokens and cost spent before the failure (re-asks, retried attempts), when any were reported. */
  readonly usage: JudgeUsage | undefined;

  constructor(kind: JudgeErrorKind, message: string, options?: { cause?: unknown; usage?: JudgeUsage }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.kind = kind;
    this.usage = options?.usage;
  }

  static isInstance(value: unknown): value is JudgeError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[JUDGE_MARKER] === true;
  }

  /** `"<kind>: <message>"`, the form metric results store in `error`. */
  toErrorString(): string {
    return `${this.kind}: ${this.message}`;
  }
}

export interface ArgumentContext {
  readonly argument: string;
  readonly expected?: string;
  readonly actual?: string;
  readonly index?: number;
}

/** Bad options: no model name, an unparsable base URL, a non-positive concurrency, a missing callback... */
export class JudgeConfigError extends JudgeError {
  override name = "JudgeConfigError";
  override readonly code: string = "JUDGE_CONFIG";
  readonly argument: string;
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  constructor(message: string, context: ArgumentContext) {
    super("config", message);
    this.argument = context.argument;
    this.expected = context.expected;
    this.actual = context.actual;
  }
}

/**
 * A judge needs a package that is not installed: `ai` for `fromAiSdk`, or the provider package of a model
 * name such as `"anthropic:claude-sonnet-4-5"` (`@ai-sdk/anthropic`). The message says what to install.
 */
export class JudgeProviderPackageError extends JudgeConfigError {
  override name = "JudgeProviderPackageError";
  override readonly code: string = "JUDGE_PROVIDER_PACKAGE";
  /** The npm package to install. */
  readonly packageName: string;
  /** The provider prefix of the model name (`"anthropic"`), or null for `ai` itself. */
  readonly provider: string | null;
  constructor(packageName: string, provider: string | null, message: string, options?: { cause?: unknown }) {
    super(message, { argument: "model", expected: `the package ${packageName} installed` });
    this.packageName = packageName;
    this.provider = provider;
    if (options?.cause !== undefined) Object.defineProperty(this, "cause", { value: options.cause, configurable: true, writable: true });
  }
}

/** A metric's input is missing a field or has the wrong type (e.g. SemanticF1 without `example.response`). */
export class JudgeInputError extends JudgeError {
  override name = "JudgeInputError";
  override readonly code: string = "JUDGE_INPUT";
  readonly argument: string;
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  readonly index: number | undefined;
  constructor(message: string, context: ArgumentContext) {
    super("input", message);
    this.argument = context.argument;
    this.expected = context.expected;
    this.actual = context.actual;
    this.index = context.index;
  }
}

/** The server answered with an HTTP error that is not retried (400, 401, 403, 404...) or kept failing. */
export class JudgeHttpError extends JudgeError {
  override name = "JudgeHttpError";
  override readonly code: string = "JUDGE_HTTP";
  readonly status: number;
  /** The provider's error code (`insufficient_quota`, `invalid_api_key`...), null when absent. */
  readonly apiCode: string | null;
  readonly type: string | null;
  readonly param: string | null;
  /** HTTP requests made for this call, including retried ones. */
  readonly attempts: number;
  constructor(
    message: string,
    context: { status: number; code?: string | null; type?: string | null; param?: string | null; attempts: number },
    options?: { cause?: unknown; usage?: JudgeUsage; kind?: JudgeErrorKind },
  ) {
    super(options?.kind ?? "http", message, options);
    this.status = context.status;
    this.apiCode = context.code ?? null;
    this.type = context.type ?? null;
    this.param = context.param ?? null;
    this.attempts = context.attempts;
  }
}

/** HTTP 429 after every retry (or a quota-exhausted 429, or a `Retry-After` longer than allowed). */
export class JudgeRateLimitError extends JudgeHttpError {
  override name = "JudgeRateLimitError";
  override readonly code: string = "JUDGE_RATE_LIMIT";
  /** The last `Retry-After` the server asked for, in ms (null when absent). */
  readonly retryAfterMs: number | null;
  constructor(
    message: string,
    context: { code?: string | null; type?: string | null; attempts: number; retryAfterMs: number | null },
    options?: { cause?: unknown; usage?: JudgeUsage },
  ) {
    super(message, { status: 429, ...context }, { ...options, kind: "rate_limit" });
    this.retryAfterMs = context.retryAfterMs;
  }
}

/** Every attempt timed out (per-attempt `timeoutMs`). */
export class JudgeTimeoutError extends JudgeError {
  override name = "JudgeTimeoutError";
  override readonly code: string = "JUDGE_TIMEOUT";
  readonly timeoutMs: number;
  readonly attempts: number;
  constructor(message: string, context: { timeoutMs: number; attempts: number }, options?: { cause?: unknown; usage?: JudgeUsage }) {
    super("timeout", message, options);
    this.timeoutMs = context.timeoutMs;
    this.attempts = context.attempts;
  }
}

/** Connection refused/reset, DNS failure, or a 200 whose body is not valid JSON — after every retry. */
export class JudgeTransportError extends JudgeError {
  override name = "JudgeTransportError";
  override readonly code: string = "JUDGE_TRANSPORT";
  readonly attempts: number;
  constructor(
    kind: "network" | "malformed_response",
    message: string,
    context: { attempts: number },
    options?: { cause?: unknown; usage?: JudgeUsage },
  ) {
    super(kind, message, options);
    this.attempts = context.attempts;
  }
}

/**
 * Nothing listens at the base URL: the connection was refused, and refused again by one probe a moment
 * later. Not retried further, so a run against a dead server fails in seconds, not after every retry.
 */
export class JudgeUnreachableError extends JudgeTransportError {
  override name = "JudgeUnreachableError";
  override readonly code = "ENDPOINT_UNREACHABLE";
  readonly url: string;
  constructor(url: string, options?: { cause?: unknown; usage?: JudgeUsage }) {
    super(
      "network",
      `cannot reach ${url}: connection refused (after a probe); is the server running at this base URL?`,
      { attempts: 2 },
      options,
    );
    this.url = url;
  }
}

/** Why a reply could not be used. */
export type OutputFailure = "invalid_json" | "schema_violation" | "truncated" | "refusal" | "empty" | "missing_logprobs";

/**
 * The model kept replying with something that does not validate against the schema, after the re-ask
 * budget. Carries the last reply and the validation issues. Never turned into a score.
 */
export class JudgeOutputError extends JudgeError {
  override name = "JudgeOutputError";
  override readonly code: string = "JUDGE_OUTPUT";
  readonly failure: OutputFailure;
  /** Replies received (first ask plus re-asks). */
  readonly attempts: number;
  /** The last reply text. */
  readonly text: string;
  /** Validation issues of the last reply (messages with their paths). */
  readonly issues: readonly string[];
  readonly schemaName: string | undefined;
  constructor(
    failure: OutputFailure,
    message: string,
    context: { attempts: number; text: string; issues?: readonly string[]; schemaName?: string },
    options?: { cause?: unknown; usage?: JudgeUsage },
  ) {
    super("output", message, options);
    this.failure = failure;
    this.attempts = context.attempts;
    this.text = context.text;
    this.issues = context.issues ?? [];
    this.schemaName = context.schemaName;
  }
}

/** Read-only cache replay found no entry for a call: in replay mode nothing is sent to the model. */
export class CacheMissError extends JudgeError {
  override name = "CacheMissError";
  override readonly code: string = "CACHE_MISS";
  readonly key: string;
  constructor(key: string, message?: string) {
    super("cache_miss", message ?? `No cached reply for this judge call (key ${key.slice(0, 16)}…) and the cache is read-only`);
    this.key = key;
  }
}

/** The model cannot do what was asked (loglikelihood without an echo-capable completions endpoint...). */
export class UnsupportedCapabilityError extends JudgeError {
  override name = "UnsupportedCapabilityError";
  override readonly code: string = "UNSUPPORTED_CAPABILITY";
  readonly capability: string;
  constructor(capability: string, message: string, options?: { cause?: unknown }) {
    super("unsupported", message, options);
    this.capability = capability;
  }
}

/** The caller's `AbortSignal` fired. */
export class JudgeAbortedError extends JudgeError {
  override name = "JudgeAbortedError";
  override readonly code: string = "JUDGE_ABORTED";
  constructor(message = "The judge call was aborted", options?: { cause?: unknown; usage?: JudgeUsage }) {
    super("aborted", message, options);
  }
}

/** `"<kind>: <message>"` for any thrown value (judge errors keep their kind, others are "error"). */
export function errorString(error: unknown): string {
  if (JudgeError.isInstance(error)) return error.toErrorString();
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `error: ${String(error)}`;
}
