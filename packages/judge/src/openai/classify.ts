// The error classifier of the OpenAI-compatible transport: a pure function from what the `openai` client
// throws (and the request it was sending) to an `ErrorClass` — docs/spec/judges.md §10.6. Statuses 408, 409,
// 429 and 5xx, network failures, timeouts and unparsable bodies are retryable; `insufficient_quota` and other
// 4xx are not; `x-should-retry` overrides the status; a 400/422 naming a capability of the request (404 for
// echo) is a capability rejection.
import OpenAI from "openai";
import { JudgeAbortedError } from "../errors.js";
import { LOGPROBS_HINT, RESPONSE_FORMAT_HINT, statusKind } from "../layers/transport.js";
import type { ErrorClass, HttpDetail, TransportRequest } from "../layers/transport.js";
import { isConnectionRefused, isRetryableStatus, parseRetryAfter } from "../retry.js";

/**
 * The class of `error` thrown while sending `request` (`now` dates an HTTP-date `Retry-After`).
 *
 * @example
 * classifyError(new OpenAI.APIConnectionTimeoutError()); // { kind: "timeout", retryable: true }
 */
export function classifyError(error: unknown, request?: TransportRequest, now: number = Date.now()): ErrorClass {
  if (error instanceof OpenAI.APIUserAbortError || JudgeAbortedError.isInstance(error)) return { kind: "aborted", retryable: false };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: "timeout", retryable: true };
  if (error instanceof OpenAI.APIConnectionError) {
    // nothing listens there: the retry layer probes once, then fails fast
    return isConnectionRefused(error) ? { kind: "unreachable", retryable: false } : { kind: "network", retryable: true };
  }
  if (error instanceof SyntaxError) return { kind: "malformed-response", retryable: true };
  if (error instanceof OpenAI.APIError && typeof error.status === "number") return classifyStatus(error, error.status, request, now);
  // fetch itself failing (TypeError: fetch failed, ECONNRESET...) is a network error
  return { kind: "unknown", retryable: true };
}

function classifyStatus(
  error: InstanceType<typeof OpenAI.APIError>,
  status: number,
  request: TransportRequest | undefined,
  now: number,
): ErrorClass {
  const text = `${error.message ?? ""} ${error.param ?? ""} ${error.code ?? ""}`;
  const http: HttpDetail = { status, code: error.code ?? null, type: error.type ?? null, param: error.param ?? null };
  const body = request?.body;
  if (body && (status === 400 || status === 422) && request.endpoint === "chat") {
    if (body.logprobs !== undefined && LOGPROBS_HINT.test(text)) {
      return { kind: "capability", retryable: false, http, capability: "logprobs", perSchema: false };
    }
    if (body.response_format !== undefined && RESPONSE_FORMAT_HINT.test(text)) {
      const perSchema = /invalid schema|schema for response_format/i.test(text);
      return { kind: "capability", retryable: false, http, capability: "response_format", perSchema };
    }
  }
  if (body && (status === 400 || status === 404 || status === 422) && request.endpoint === "completions" && body.echo === true) {
    // perSchema here: only `max_tokens: 0` was refused (vLLM), so 1 is worth a try
    if (body.max_tokens === 0 && /max[_ ]?tokens|maximum.*tokens|at least 1/i.test(text)) {
      return { kind: "capability", retryable: false, http, capability: "echo", perSchema: true };
    }
    if (status === 404 || /echo|logprob|completions/i.test(text)) {
      return { kind: "capability", retryable: false, http, capability: "echo", perSchema: false };
    }
  }
  const shouldRetry = error.headers?.get?.("x-should-retry");
  const after = parseRetryAfter(error.headers as Headers | undefined, now);
  const retryAfter = after === null ? {} : { retryAfterMs: after };
  if (status === 429) {
    const quota = error.code === "insufficient_quota" || error.type === "insufficient_quota";
    return { kind: quota ? "quota" : "rate-limit", retryable: !quota && shouldRetry !== "false", http, ...retryAfter };
  }
  const retryable = shouldRetry === "true" || (shouldRetry !== "false" && isRetryableStatus(status));
  return { kind: statusKind(status, text), retryable, http, ...retryAfter };
}
