// A scripted OpenAI-compatible HTTP server on loopback, shared by every judge test (DSPy, DeepEval,
// evalwire, dsrs). Tests start it on port 0, script replies per route (a FIFO queue and/or a handler
// function), point a judge at `server.baseURL`, and inspect what was sent. No network beyond 127.0.0.1.
//
// Quick reference
//
//   const server = await startServer();              // afterAll(() => server.close())
//   server.enqueue("chat", chatJson({ verdicts: [] }), chatText("```json\n{...}\n```"));
//   server.enqueue("chat", rateLimited(1), serverError(503), malformed(), slow(2_000, chatJson({...})));
//   server.enqueue("completions", completion({ tokens: [...] }));
//   server.enqueue("embeddings", embeddings([[1, 0], [0, 1]]));   // one vector per input, in order
//   server.handle("embeddings", vectorsFor({ "a cat": [1, 0], "a dog": [0.6, 0.8] }));
//   server.enqueue("moderations", moderation({ flagged: true, scores: { violence: 0.9 } }));
//   server.handle("chat", (req) => chatJson({ n: req.body.messages.length }));   // used when the queue is empty
//   const judge = new OpenAICompatibleJudge({ baseURL: server.baseURL, apiKey: "test", model: "m" });
//   ...
//   server.requests            // every request: method, path, headers, body (parsed JSON), receivedAt
//   server.requestsTo("chat")  // only chat completions
//   server.maxInFlight         // highest number of concurrent requests seen
//   server.pending()           // scripted replies not consumed yet (assert 0 at the end)
//   server.unhandled           // requests that found neither a queued reply nor a handler
//   server.reset()             // clear queues, handlers and records between tests
//
// Routes: "chat" matches any POST path ending in `/chat/completions` (so `/v1/chat/completions` and Azure's
// `/openai/deployments/<d>/chat/completions?api-version=...` both hit it); "completions" matches any other
// path ending in `/completions`; "embeddings" and "moderations" match paths ending in `/embeddings` and
// `/moderations`; "models" matches a path ending in `/models`; "*" is a catch-all queue
// consulted after the specific one. An exact path (starting with "/") is its own route and wins.
//
// An unscripted request gets HTTP 400 `{error: {code: "unscripted_request"}}` (not retryable, so a missing
// script fails fast instead of burning retries) and is recorded in `unhandled`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Route = "chat" | "completions" | "embeddings" | "moderations" | "models" | "*" | `/${string}`;

/** A request as the server received it. */
export interface RecordedRequest {
  /** 0-based arrival index over all routes. */
  readonly index: number;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** The raw request body. */
  readonly rawBody: string;
  /** The parsed JSON body (undefined when the body is not JSON). Typed loosely for convenient assertions. */
  readonly body: any;
  /** The route the request matched. */
  readonly route: Route | null;
  /** `performance.now()` at arrival, for measuring client-side waits (backoff, Retry-After). */
  readonly receivedAt: number;
  /** How many requests were in flight at the server when this one arrived (itself included). */
  readonly inFlightAtArrival: number;
}

/** What the server sends back for one request. */
export type ScriptedReply =
  | {
      readonly kind: "json";
      readonly status?: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      /** Wait this long before answering (the client's timeout can fire first). */
      readonly delayMs?: number;
    }
  | {
      readonly kind: "raw";
      readonly status?: number;
      /** Sent verbatim (e.g. a truncated JSON document). */
      readonly body: string;
      readonly contentType?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  | {
      /** Close the socket without an HTTP response: the client sees a network error. */
      readonly kind: "hangup";
      readonly delayMs?: number;
    };

export type Handler = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ServerOptions {
  /** Default 0 (an ephemeral port). */
  readonly port?: number;
  /** Model name echoed in replies when the request names none. Default "test-judge". */
  readonly model?: string;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1` — what an OpenAI client takes as `baseURL`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Requests that found no scripted reply. */
  readonly unhandled: RecordedRequest[];
  /** Requests currently being answered. */
  readonly inFlight: number;
  /** The highest `inFlight` seen since the last `reset()`. */
  readonly maxInFlight: number;
  /** Append replies to a route's FIFO queue. */
  enqueue(route: Route, ...replies: ScriptedReply[]): void;
  /** Answer a route with a function whenever its queue is empty. Pass `undefined` to remove. */
  handle(route: Route, handler: Handler | undefined): void;
  /** Requests of one route. */
  requestsTo(route: Route): RecordedRequest[];
  /** Number of queued replies not consumed yet (all routes). */
  pending(): number;
  /** Clear queues, handlers, records and counters. */
  reset(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------
// Reply builders
// ---------------------------------------------------------------------------------------------------

export interface UsageInit {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly cached_tokens?: number;
  readonly reasoning_tokens?: number;
}

/** One generated token with its alternatives, as OpenAI's `choices[0].logprobs.content[]`. */
export interface LogprobToken {
  readonly token: string;
  readonly logprob: number;
  /** Alternatives; the token itself is prepended when missing. */
  readonly top_logprobs?: ReadonlyArray<{ readonly token: string; readonly logprob: number }>;
}

export interface ChatReplyOptions {
  /** Default `{prompt_tokens: 10, completion_tokens: 5}`. Pass `null` to omit `usage` entirely. */
  readonly usage?: UsageInit | null;
  /** Default "stop". Use "length" to simulate truncation. */
  readonly finishReason?: "stop" | "length" | "content_filter" | "tool_calls";
  /** Per-token logprobs for `choices[0].logprobs.content`. */
  readonly logprobs?: readonly LogprobToken[];
  readonly model?: string;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly delayMs?: number;
  readonly systemFingerprint?: string;
}

function usageBody(usage: UsageInit | null | undefined): Record<string, unknown> | undefined {
  if (usage === null) return undefined;
  const prompt = usage?.prompt_tokens ?? 10;
  const completion = usage?.completion_tokens ?? 5;
  const body: Record<string, unknown> = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
  if (usage?.cached_tokens !== undefined) body.prompt_tokens_details = { cached_tokens: usage.cached_tokens };
  if (usage?.reasoning_tokens !== undefined) {
    body.completion_tokens_details = { reasoning_tokens: usage.reasoning_tokens };
  }
  return body;
}

function bytesOf(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

let replyCounter = 0;

/** A chat completion whose message content is `content` verbatim. */
export function chatText(content: string, options: ChatReplyOptions = {}): ScriptedReply {
  replyCounter++;
  const choice: Record<string, unknown> = {
    index: 0,
    message: { role: "assistant", content, refusal: null },
    finish_reason: options.finishReason ?? "stop",
    logprobs: options.logprobs
      ? {
          content: options.logprobs.map((t) => {
            const top = t.top_logprobs ?? [];
            const withSelf = top.some((x) => x.token === t.token) ? top : [{ token: t.token, logprob: t.logprob }, ...top];
            return {
              token: t.token,
              logprob: t.logprob,
              bytes: bytesOf(t.token),
              top_logprobs: withSelf.map((x) => ({ token: x.token, logprob: x.logprob, bytes: bytesOf(x.token) })),
            };
          }),
          refusal: null,
        }
      : null,
  };
  const body: Record<string, unknown> = {
    id: `chatcmpl-test-${replyCounter}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: options.model ?? "__request__",
    choices: [choice],
    system_fingerprint: options.systemFingerprint ?? "fp_test",
  };
  const usage = usageBody(options.usage);
  if (usage) body.usage = usage;
  return {
    kind: "json",
    status: options.status ?? 200,
    body,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
  };
}

/** A chat completion whose content is `JSON.stringify(value)`. */
export function chatJson(value: unknown, options: ChatReplyOptions = {}): ScriptedReply {
  return chatText(JSON.stringify(value), options);
}

/**
 * Split `content` into tokens the way the G-Eval tests need them (digit runs, letter runs, whitespace
 * runs, single punctuation) and give each a logprob. `topFor(token, i)` supplies alternatives as a
 * `{token: logprob}` map for selected tokens (return undefined for the rest).
 *
 * @example
 * textLogprobs('{"reason":"ok","score":7}', (t) => (t === "7" ? { "7": -0.1, "8": -2.4, "6": -3 } : undefined))
 */
export function textLogprobs(
  content: string,
  topFor?: (token: string, index: number) => Readonly<Record<string, number>> | undefined,
  defaultLogprob = -0.001,
): LogprobToken[] {
  const tokens = content.match(/\d+|[A-Za-z]+|\s+|[^\sA-Za-z\d]/g) ?? [];
  return tokens.map((token, i) => {
    const top = topFor?.(token, i);
    const logprob = top && token in top ? (top[token] as number) : defaultLogprob;
    return {
      token,
      logprob,
      top_logprobs: top ? Object.entries(top).map(([t, lp]) => ({ token: t, logprob: lp })) : [{ token, logprob }],
    };
  });
}

/** One token of a `/v1/completions` logprobs reply. */
export interface CompletionToken {
  readonly token: string;
  /** null for the first echoed token (no conditional probability). */
  readonly logprob: number | null;
  /** Alternatives at this position; default `{[token]: logprob}`. */
  readonly top?: Readonly<Record<string, number>> | null;
}

export interface CompletionReplyOptions {
  readonly tokens: readonly CompletionToken[];
  /** Defaults to the tokens joined. */
  readonly text?: string;
  readonly usage?: UsageInit | null;
  readonly finishReason?: "stop" | "length";
  readonly status?: number;
  readonly delayMs?: number;
}

/** A `/v1/completions` reply with `logprobs {tokens, token_logprobs, top_logprobs, text_offset}`. */
export function completion(options: CompletionReplyOptions): ScriptedReply {
  replyCounter++;
  const offsets: number[] = [];
  let offset = 0;
  for (const t of options.tokens) {
    offsets.push(offset);
    offset += [...t.token].length; // code points, as vLLM and OpenAI count text_offset (Python str offsets)
  }
  const body: Record<string, unknown> = {
    id: `cmpl-test-${replyCounter}`,
    object: "text_completion",
    created: 1_700_000_000,
    model: "__request__",
    choices: [
      {
        index: 0,
        text: options.text ?? options.tokens.map((t) => t.token).join(""),
        finish_reason: options.finishReason ?? "length",
        logprobs: {
          tokens: options.tokens.map((t) => t.token),
          token_logprobs: options.tokens.map((t) => t.logprob),
          top_logprobs: options.tokens.map((t) =>
            t.top === null ? null : (t.top ?? (t.logprob === null ? null : { [t.token]: t.logprob })),
          ),
          text_offset: offsets,
        },
      },
    ],
  };
  const usage = usageBody(options.usage);
  if (usage) body.usage = usage;
  return {
    kind: "json",
    status: options.status ?? 200,
    body,
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
  };
}

/** A `/v1/embeddings` reply with `vectors` as `data[i].embedding` (usage: `prompt_tokens`, default 8). */
export function embeddings(
  vectors: readonly (readonly number[])[],
  options: { readonly promptTokens?: number | null } = {},
): ScriptedReply {
  const body: Record<string, unknown> = {
    object: "list",
    model: "__request__",
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
  };
  if (options.promptTokens !== null) {
    const tokens = options.promptTokens ?? 8;
    body.usage = { prompt_tokens: tokens, total_tokens: tokens };
  }
  return { kind: "json", status: 200, body };
}

/**
 * A handler answering `/v1/embeddings` from a table of text → vector (a text missing from the table is
 * answered with HTTP 400, so a test sees it), with `tokensPerText` prompt tokens per input.
 */
export function vectorsFor(table: Readonly<Record<string, readonly number[]>>, tokensPerText = 4): Handler {
  return (request) => {
    const input: unknown = request.body?.input;
    const texts = typeof input === "string" ? [input] : Array.isArray(input) ? (input as string[]) : [];
    const missing = texts.filter((t) => !(t in table));
    if (missing.length > 0) return errorReply(400, `no scripted vector for ${JSON.stringify(missing[0])}`, { code: "unscripted_text" });
    return embeddings(
      texts.map((t) => table[t] as readonly number[]),
      { promptTokens: texts.length * tokensPerText },
    );
  };
}

/** One moderation result: `flagged`, and category scores (a category is flagged when listed in `flaggedCategories`). */
export interface ModerationInit {
  readonly flagged: boolean;
  readonly scores: Readonly<Record<string, number>>;
  /** Default: every category whose score is >= 0.5 when `flagged`, none otherwise. */
  readonly flaggedCategories?: readonly string[];
}

/** A `/v1/moderations` reply with one result per `results` entry. */
export function moderation(...results: ModerationInit[]): ScriptedReply {
  return jsonReply({
    id: "modr-test",
    model: "omni-moderation-latest",
    results: results.map((r) => {
      const flaggedSet = new Set(
        r.flaggedCategories ?? (r.flagged ? Object.keys(r.scores).filter((k) => (r.scores[k] as number) >= 0.5) : []),
      );
      return {
        flagged: r.flagged,
        categories: Object.fromEntries(Object.keys(r.scores).map((k) => [k, flaggedSet.has(k)])),
        category_scores: r.scores,
      };
    }),
  });
}

/** Any JSON body with any status. */
export function jsonReply(body: unknown, status = 200, headers?: Readonly<Record<string, string>>): ScriptedReply {
  return { kind: "json", status, body, ...(headers ? { headers } : {}) };
}

/** An OpenAI-style error body `{error: {message, type, code, param}}`. */
export function errorReply(
  status: number,
  message: string,
  extra: { readonly type?: string; readonly code?: string | null; readonly param?: string | null } = {},
  headers?: Readonly<Record<string, string>>,
): ScriptedReply {
  return jsonReply(
    { error: { message, type: extra.type ?? "invalid_request_error", code: extra.code ?? null, param: extra.param ?? null } },
    status,
    headers,
  );
}

/**
 * HTTP 429 with `Retry-After: <seconds>` (fractional seconds allowed; OpenAI-style clients also read
 * `retry-after-ms`, set `ms: true` to send that header instead).
 */
export function rateLimited(retryAfterSeconds?: number, options: { readonly ms?: boolean; readonly code?: string } = {}): ScriptedReply {
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) {
    if (options.ms) headers["retry-after-ms"] = String(Math.round(retryAfterSeconds * 1000));
    else headers["retry-after"] = String(retryAfterSeconds);
  }
  return errorReply(
    429,
    "Rate limit reached (scripted)",
    { type: "rate_limit_error", code: options.code ?? "rate_limit_exceeded" },
    headers,
  );
}

/** HTTP 429 with code `insufficient_quota` (should not be retried). */
export function quotaExhausted(): ScriptedReply {
  return errorReply(429, "You exceeded your current quota (scripted)", { type: "insufficient_quota", code: "insufficient_quota" });
}

/** A 5xx error (default 500). */
export function serverError(status = 500, headers?: Readonly<Record<string, string>>): ScriptedReply {
  return errorReply(status, `Internal error (scripted ${status})`, { type: "server_error" }, headers);
}

/** A 400 rejecting a parameter, e.g. `unsupported("response_format")` or `unsupported("logprobs")`. */
export function unsupported(param: string, message?: string): ScriptedReply {
  return errorReply(400, message ?? `Unsupported parameter: '${param}' is not supported with this model.`, {
    code: "unsupported_parameter",
    param,
  });
}

/** HTTP 200 whose body is not valid JSON (the transport itself is broken, not the model's text). */
export function malformed(body = '{"id": "chatcmpl-broken", "choices": [ {"message": '): ScriptedReply {
  return { kind: "raw", status: 200, body, contentType: "application/json" };
}

/** Drop the connection without answering (a network error at the client). */
export function hangUp(delayMs?: number): ScriptedReply {
  return { kind: "hangup", ...(delayMs !== undefined ? { delayMs } : {}) };
}

/** `reply`, sent only after `delayMs` (for timeout tests and in-flight counting). */
export function slow(delayMs: number, reply: ScriptedReply): ScriptedReply {
  return { ...reply, delayMs };
}

// ---------------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------------

function routeOf(method: string, path: string, exact: ReadonlySet<string>): Route | null {
  if (exact.has(path)) return path as Route;
  if (method === "POST" && path.endsWith("/chat/completions")) return "chat";
  if (method === "POST" && path.endsWith("/completions")) return "completions";
  if (method === "POST" && path.endsWith("/embeddings")) return "embeddings";
  if (method === "POST" && path.endsWith("/moderations")) return "moderations";
  if (path.endsWith("/models")) return "models";
  return null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Start a scripted server on 127.0.0.1 (port 0 by default). */
export async function startServer(options: ServerOptions = {}): Promise<ScriptedServer> {
  const defaultModel = options.model ?? "test-judge";
  const queues = new Map<Route, ScriptedReply[]>();
  const handlers = new Map<Route, Handler>();
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let inFlight = 0;
  let maxInFlight = 0;
  let generation = 0;

  const exactRoutes = (): Set<string> => {
    const set = new Set<string>();
    for (const key of [...queues.keys(), ...handlers.keys()]) if (key.startsWith("/")) set.add(key);
    return set;
  };

  const take = (route: Route | null): ScriptedReply | Handler | undefined => {
    const order: Route[] = route ? [route, "*"] : ["*"];
    for (const r of order) {
      const q = queues.get(r);
      if (q && q.length > 0) return q.shift();
    }
    for (const r of order) {
      const h = handlers.get(r);
      if (h) return h;
    }
    return undefined;
  };

  const send = (res: ServerResponse, reply: ScriptedReply, request: RecordedRequest): void => {
    if (res.destroyed || res.writableEnded) return;
    if (reply.kind === "hangup") {
      res.socket?.destroy();
      return;
    }
    const status = reply.status ?? 200;
    if (reply.kind === "raw") {
      res.writeHead(status, { "content-type": reply.contentType ?? "text/plain", ...(reply.headers ?? {}) });
      res.end(reply.body);
      return;
    }
    let body = reply.body;
    // Echo the requested model name, as real servers do.
    if (body && typeof body === "object" && (body as { model?: unknown }).model === "__request__") {
      body = { ...(body as object), model: typeof request.body?.model === "string" ? request.body.model : defaultModel };
    }
    res.writeHead(status, { "content-type": "application/json", ...(reply.headers ?? {}) });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer(async (req, res) => {
    const arrival = performance.now();
    const myGeneration = generation;
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    const inFlightAtArrival = inFlight;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      if (myGeneration === generation) inFlight--;
    };
    res.on("close", finish);
    res.on("finish", finish);

    const rawBody = await readBody(req).catch(() => "");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : (v ?? "");
    const method = req.method ?? "GET";
    const route = routeOf(method, url.pathname, exactRoutes());
    const recorded: RecordedRequest = {
      index: requests.length,
      method,
      path: url.pathname,
      query: url.searchParams,
      headers,
      rawBody,
      body,
      route,
      receivedAt: arrival,
      inFlightAtArrival,
    };
    requests.push(recorded);

    const next = take(route);
    let reply: ScriptedReply;
    if (next === undefined) {
      unhandled.push(recorded);
      reply = errorReply(400, `evalkern test server: no scripted reply for ${method} ${url.pathname}`, {
        code: "unscripted_request",
      });
    } else if (typeof next === "function") {
      try {
        reply = await next(recorded);
      } catch (error) {
        reply = errorReply(400, `evalkern test server: handler threw: ${String(error)}`, { code: "handler_error" });
      }
    } else {
      reply = next;
    }

    if (reply.delayMs && reply.delayMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(res, reply, recorded);
      }, reply.delayMs);
      timers.add(timer);
      // If the client gives up (timeout/abort), stop waiting.
      res.on("close", () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
    } else {
      send(res, reply, recorded);
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    port,
    requests,
    unhandled,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    enqueue(route, ...replies) {
      const q = queues.get(route) ?? [];
      q.push(...replies);
      queues.set(route, q);
    },
    handle(route, handler) {
      if (handler) handlers.set(route, handler);
      else handlers.delete(route);
    },
    requestsTo(route) {
      return requests.filter((r) => r.route === route || (route.startsWith("/") && r.path === route));
    },
    pending() {
      let n = 0;
      for (const q of queues.values()) n += q.length;
      return n;
    },
    reset() {
      queues.clear();
      handlers.clear();
      requests.length = 0;
      unhandled.length = 0;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      generation++;
      inFlight = 0;
      maxInFlight = 0;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
