// The bottom layer of a judge client: a `Transport` sends one request once (no retries, no limiter) and
// either resolves with the parsed body or throws whatever its provider throws. A `Classifier` turns such a
// throw into an `ErrorClass`; everything above (retries, capability fallbacks, typed errors) reads only
// that, so another provider plugs in with its own transport and classifier.
import { EvalkernError } from "@evalkern/metrics";

export type TransportEndpoint = "chat" | "completions" | "embeddings" | "moderations";

/** One request: the endpoint and the provider's JSON body. */
export interface TransportRequest {
  readonly endpoint: TransportEndpoint;
  readonly body: Readonly<Record<string, unknown>>;
}

/** Sends one request once; resolves with the parsed JSON body of a successful reply, else throws. */
export interface Transport {
  send(request: TransportRequest, signal?: AbortSignal): Promise<object>;
}

/** The capabilities a server can refuse (a 400 naming them): the caller steps down instead of failing. */
export type Capability = "response_format" | "logprobs" | "echo";

/** What went wrong with one attempt, as the retry policy and the typed errors need it. */
export type ErrorKind =
  /** the caller's signal fired, or the provider reports an abort */
  | "aborted"
  /** the per-attempt timeout expired */
  | "timeout"
  /** nothing listens at the address (connection refused) */
  | "unreachable"
  /** the connection failed or was cut (reset, hang-up, DNS) */
  | "network"
  /** anything else thrown while sending (treated as a network failure) */
  | "unknown"
  /** a 2xx reply whose body is empty or not JSON */
  | "malformed-response"
  /** a 400/422 (404 for echo) naming a capability of the request */
  | "capability"
  | "rate-limit"
  /** a 429 saying the quota is spent (`insufficient_quota`): waiting does not help */
  | "quota"
  /** 401, 403 */
  | "auth"
  | "not-found"
  /** a 400/413/422 saying the prompt is longer than the model's context */
  | "context-length"
  | "bad-request"
  /** 408 */
  | "request-timeout"
  /** 409 */
  | "conflict"
  /** 5xx */
  | "server"
  /** any other status */
  | "http";

/** The HTTP side of an error reply. */
export interface HttpDetail {
  readonly status: number;
  readonly code: string | null;
  readonly type: string | null;
  readonly param: string | null;
}

export interface ErrorClass {
  readonly kind: ErrorKind;
  /** Worth another attempt by the retry policy (capability rejections and aborts never are). */
  readonly retryable: boolean;
  /** The wait the server asked for (`retry-after-ms`, `retry-after` in seconds or as an HTTP date). */
  readonly retryAfterMs?: number;
  /** Present for error replies. */
  readonly http?: HttpDetail;
  /** For `"capability"`: what was refused, and whether only this schema was (not the feature). */
  readonly capability?: Capability;
  readonly perSchema?: boolean;
}

/** Classify a thrown value of a transport; `request` lets a 400 be read as a capability rejection. */
export type Classifier = (error: unknown, request?: TransportRequest) => ErrorClass;

/**
 * Internal signal (never reaches users): the server refused a capability; the caller steps down and asks
 * again. `final` is the typed error to throw when it cannot step down.
 */
export class CapabilityRejection extends EvalkernError {
  override name = "CapabilityRejection";
  override readonly code: string = "CAPABILITY_REJECTED";
  constructor(
    readonly capability: Capability,
    readonly perSchema: boolean,
    readonly original: unknown,
    readonly final: unknown,
  ) {
    super(`rejected ${capability}`);
  }
}

/** A 400/422 about structured output (the provider refused `response_format` or its schema). */
export const RESPONSE_FORMAT_HINT = /response_format|json_schema|json_object|structured output|guided_json|grammar/i;
export const LOGPROBS_HINT = /logprob/i;
export const CONTEXT_LENGTH_HINT = /context_length_exceeded|context length|context window|too many tokens|prompt is too long/i;

/** The kind of an error reply by its status (and its text, for a context-length 400), for any provider. */
export function statusKind(status: number, text: string): ErrorKind {
  if (status >= 500) return "server";
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not-found";
  if (status === 408) return "request-timeout";
  if (status === 409) return "conflict";
  if ((status === 400 || status === 413 || status === 422) && CONTEXT_LENGTH_HINT.test(text)) return "context-length";
  if (status >= 400) return "bad-request";
  return "http";
}
