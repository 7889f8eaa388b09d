// A `fetch` for the judge's `openai` client over `node:http` with a keep-alive agent sized for the run's
// concurrency. Node's built-in fetch (undici) costs about twice the CPU per request (web streams, a
// WebAssembly HTTP parser, per-request spec checks); at a judge run's hundreds of calls a second to a
// local or LAN server that is most of the client's CPU. Node-only: exported from `@evalkern/judge/node`,
// never imported by the runtime-neutral client. It sends what the `openai` client sends over plain HTTP
// (a method, headers, a string or byte body, an abort signal). Everything else goes to the runtime's own
// fetch, so nothing it does is done differently: HTTPS endpoints (whose proxies, global dispatchers and
// TLS settings users configure on that fetch), stream or form bodies, and redirects.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { JudgeConfigError } from "../errors.js";

export interface NodeFetchOptions {
  /** Sockets per host (at least the calls in flight, so none waits for a socket). Default 64. */
  readonly maxSockets?: number;
}

/** Statuses whose response has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason as unknown;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("This operation was aborted", "AbortError");
}

function headerRecord(headers: RequestInit["headers"]): OutgoingHttpHeaders | undefined {
  const out: OutgoingHttpHeaders = {};
  if (headers === undefined || headers === null) return out;
  const pairs: Iterable<readonly [string, string]> =
    headers instanceof Headers || Array.isArray(headers)
      ? (headers as Iterable<readonly [string, string]>)
      : Object.entries(headers as Record<string, string>);
  for (const [name, value] of pairs) if (value !== undefined && value !== null) out[name] = value;
  return out;
}

function bodyBytes(body: RequestInit["body"]): Buffer | string | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return null; // a stream, a Blob, form data: not ours to send
}

function decoded(res: IncomingMessage, bytes: Buffer): Buffer {
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(bytes);
  if (encoding === "deflate") return inflateSync(bytes);
  if (encoding === "br") return brotliDecompressSync(bytes);
  return bytes;
}

function responseOf(res: IncomingMessage, bytes: Buffer, url: string): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    // the body is handed over decoded, so it no longer has the sent encoding or length
    if (name !== "content-encoding" && name !== "content-length") headers.append(raw[i]!, raw[i + 1]!);
  }
  const status = res.statusCode ?? 0;
  const response = new Response(NULL_BODY.has(status) ? null : (decoded(res, bytes) as Uint8Array<ArrayBuffer>), {
    status,
    statusText: res.statusMessage ?? "",
    headers,
  });
  Object.defineProperty(response, "url", { value: url });
  return response;
}

/**
 * A `fetch` over `node:http` with keep-alive sockets, for `new OpenAICompatibleJudge({ fetch })`.
 *
 * When to use: a Node process that sends many judge calls to a plain-HTTP server (vLLM, Ollama, llama.cpp,
 * a gateway on the LAN); `evalkern judge` passes one sized to its `--concurrency`. HTTPS URLs are sent by
 * the runtime's fetch. Failures read as the runtime's fetch failures do: a refused connection is an error with
 * `code: "ECONNREFUSED"`, an abort an `AbortError`, so retries, timeouts and the dead-server probe behave the same.
 *
 * @example
 * const judge = new OpenAICompatibleJudge({ model: "gpt-4o-mini", maxConcurrency: 64, fetch: nodeFetch({ maxSockets: 64 }) });
 */
export function nodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const maxSockets = options.maxSockets ?? 64;
  if (!Number.isInteger(maxSockets) || maxSockets < 1) {
    throw new JudgeConfigError("maxSockets must be a positive integer", { argument: "maxSockets", actual: String(maxSockets) });
  }
  // idle sockets stay open for the next call (until the server closes them), up to one per slot
  const agentOptions = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
  const agent = new HttpAgent(agentOptions);
  const fallback = (input: Parameters<typeof fetch>[0], init?: RequestInit) => globalThis.fetch(input, init);

  const send = (input: Parameters<typeof fetch>[0], init: RequestInit = {}): Promise<Response> => {
    const href = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
    const body = bodyBytes(init.body);
    if (href === undefined || body === null) return fallback(input, init);
    const url = new URL(href);
    if (url.protocol !== "http:") return fallback(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<Response>((resolve, reject) => {
      const request = httpRequest(url, { method: (init.method ?? "GET").toUpperCase(), headers: headerRecord(init.headers), agent });
      const onAbort = () => request.destroy(abortError(signal!));
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = () => signal?.removeEventListener("abort", onAbort);
      request.on("error", (error) => {
        done();
        reject(error);
      });
      request.on("response", (res) => {
        const status = res.statusCode ?? 0;
        if (REDIRECT.has(status) && res.headers.location) {
          // the runtime's fetch follows redirects by the spec's rules
          res.resume();
          done();
          resolve(fallback(input, init));
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => {
          done();
          reject(error);
        });
        res.on("end", () => {
          done();
          // a connection closed before the whole body came is a failure, never a shorter reply
          if (!res.complete) {
            reject(Object.assign(new Error("the connection closed before the response body was complete"), { code: "ECONNRESET" }));
            return;
          }
          try {
            resolve(responseOf(res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), href));
          } catch (error) {
            reject(error);
          }
        });
      });
      request.end(body);
    });
  };
  return send as typeof fetch;
}
