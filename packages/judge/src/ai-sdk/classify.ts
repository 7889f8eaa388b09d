// The error classifier of the AI SDK transport: a pure function from what `generateText` throws (with its
// own retries off) to an `ErrorClass`, the same reading as the OpenAI-compatible classifier (statuses 408,
// 409, 429 and 5xx retryable, a 400 naming structured output under a structured rung a capability
// rejection, Retry-After honoured). AI SDK errors are recognised by their `name` (`AI_APICallError`...),
// not by `instanceof`, so the classifier needs no runtime import of `ai` and works across package copies.
import { JudgeAbortedError } from "../errors.js";
import { isConnectionRefused, isRetryableStatus, parseRetryAfter } from "../retry.js";
import { RESPONSE_FORMAT_HINT, statusKind, type ErrorClass, type HttpDetail, type TransportRequest } from "../layers/transport.js";

interface ApiCallErrorLike {
  readonly name: string;
  readonly message?: string;
  readonly statusCode?: number;
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly responseBody?: string;
  readonly isRetryable?: boolean;
}

/** The provider's error code and type from a JSON error body (`{"error": {"type", "code"}}`), when present. */
function bodyCodes(body: string | undefined): { code: string | null; type: string | null } {
  if (!body) return { code: null, type: null };
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; type?: unknown; status?: unknown }; type?: unknown };
    const error = parsed.error ?? {};
    const text = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);
    return { code: text(error.code) ?? text(error.status), type: text(error.type) ?? text(parsed.type) };
  } catch {
    return { code: null, type: null };
  }
}

function structuredRung(request: TransportRequest | undefined): boolean {
  const mode = request?.body.mode;
  return mode === "json_schema" || mode === "json_object";
}

/**
 * The class of `error` thrown by the AI SDK while sending `request` (`now` dates an HTTP-date `Retry-After`).
 *
 * @example
 * classifyAiSdkError(Object.assign(new Error("busy"), { name: "AI_APICallError", statusCode: 529 })); // server, retryable
 */
export function classifyAiSdkError(error: unknown, request?: TransportRequest, now: number = Date.now()): ErrorClass {
  if (JudgeAbortedError.isInstance(error)) return { kind: "aborted", retryable: false };
  const name = typeof error === "object" && error !== null ? String((error as { name?: unknown }).name) : "";
  // the caller's own signal is checked first by the retry layer, so an abort seen here is the per-attempt timeout
  if (name === "TimeoutError" || name === "AbortError") return { kind: "timeout", retryable: true };
  if (name === "AI_UnsupportedFunctionalityError" && structuredRung(request)) {
    return { kind: "capability", retryable: false, capability: "response_format", perSchema: false };
  }
  if (name === "AI_JSONParseError" || name === "AI_InvalidResponseDataError" || name === "AI_EmptyResponseBodyError") {
    return { kind: "malformed-response", retryable: true };
  }
  if (name === "AI_LoadAPIKeyError" || name === "AI_LoadSettingError") return { kind: "auth", retryable: false };
  if (name !== "AI_APICallError") {
    return isConnectionRefused(error) ? { kind: "unreachable", retryable: false } : { kind: "unknown", retryable: true };
  }
  const e = error as ApiCallErrorLike;
  const status = e.statusCode;
  if (typeof status !== "number") {
    // no reply at all: the connection failed
    return isConnectionRefused(error) ? { kind: "unreachable", retryable: false } : { kind: "network", retryable: true };
  }
  const text = `${e.message ?? ""} ${e.responseBody ?? ""}`;
  const http: HttpDetail = { status, ...bodyCodes(e.responseBody), param: null };
  if ((status === 400 || status === 422) && structuredRung(request) && RESPONSE_FORMAT_HINT.test(text)) {
    const perSchema = /invalid schema|schema for response_format|invalid_json_schema/i.test(text);
    return { kind: "capability", retryable: false, http, capability: "response_format", perSchema };
  }
  const after = parseRetryAfter(e.responseHeaders ? new Headers(e.responseHeaders as Record<string, string>) : undefined, now);
  const retryAfter = after === null ? {} : { retryAfterMs: after };
  if (status === 429) {
    const quota = http.code === "insufficient_quota" || http.type === "insufficient_quota";
    return { kind: quota ? "quota" : "rate-limit", retryable: !quota, http, ...retryAfter };
  }
  // the provider's own verdict (Anthropic's 529 "overloaded" is retryable) where it gave one
  const retryable = e.isRetryable ?? isRetryableStatus(status);
  return { kind: statusKind(status, text), retryable, http, ...retryAfter };
}
