// A minimal OpenAI-compatible client on plain `fetch` for BYOB runs: chat, completions, and the
// log-likelihood of a continuation (`/v1/completions` with echo + logprobs, lm-eval's
// `local-completions` approach). Retries 429/5xx and network errors (honouring Retry-After) like
// BYOB's requests session (`Retry(total=3, backoff_factor=0.5, status_forcelist=[429, 500, ...])`).
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { EndpointError } from "../errors.js";
import { EndpointUnreachableError } from "./errors.js";

export interface EndpointOptions {
  /** OpenAI-compatible base URL, e.g. http://localhost:8000/v1 (a URL without /vN gets /v1). */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Sampling temperature (default 0, BYOB's DEFAULT_TEMPERATURE). */
  readonly temperature?: number;
  /** Generation limit (default 4096, BYOB's DEFAULT_MAX_TOKENS). */
  readonly maxTokens?: number;
  readonly topP?: number;
  /** Per-request timeout (default 120 s). */
  readonly requestTimeoutMs?: number;
  /** Retries on 429/500/502/503/504 and network errors (default 3). */
  readonly maxRetries?: number;
  /** Exponential backoff base when no Retry-After is given (default 500 ms). */
  readonly retryBackoffMs?: number;
  /** Longest Retry-After honoured (default 60 s). */
  readonly maxRetryAfterMs?: number;
  /**
   * Time budget of retries the server schedules: once `maxRetries` are spent, a 429/5xx carrying
   * Retry-After is still retried after the requested wait while the time since the first attempt plus
   * the wait stays within this budget (default 120 s; 0 = a fixed count).
   */
  readonly retryBudgetMs?: number;
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

export interface Loglikelihood {
  /** Sum of the continuation tokens' log-probabilities. */
  readonly logprob: number;
  /** Every continuation token was the top-1 token at its position. */
  readonly isGreedy: boolean;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/** `http://h/v1` as is; `http://h` → `http://h/v1`; trailing slashes dropped. */
export function normalizeBaseUrl(url: string): string {
  const u = url.replace(/\/+$/, "");
  return /\/v\d+[a-z]*$/i.test(u) ? u : `${u}/v1`;
}

function retryAfterMs(header: string | null, cap: number): number | undefined {
  if (!header) return undefined;
  const secs = Number(header);
  if (Number.isFinite(secs)) return Math.min(cap, Math.max(0, secs * 1000));
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.min(cap, Math.max(0, date - Date.now())) : undefined;
}

/** `fetch failed` because nothing listens there (ECONNREFUSED, possibly inside an AggregateError). */
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

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/** Code-point length (OpenAI-compatible servers count text offsets in Python characters). */
const cpLength = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
    else {
      const d = s.charCodeAt(i + 1);
      n++;
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
};

export class OpenAICompatibleClient {
  readonly baseUrl: string;
  private readonly o: Required<Omit<EndpointOptions, "apiKey" | "topP" | "signal" | "fetch">> & Pick<EndpointOptions, "apiKey" | "topP" | "signal">;
  private readonly doFetch: typeof fetch;
  /** Set once a server refused `max_tokens: 0` for logprob requests: later requests send 1. */
  private zeroTokensRefused = false;
  /** Set once a refused connection was confirmed by a probe: every later request fails at once. */
  private unreachable: EndpointUnreachableError | undefined;
  /** Requests sent (including retries), for reports and tests. */
  requests = 0;

  constructor(options: EndpointOptions) {
    if (typeof options?.baseUrl !== "string" || !/^https?:\/\//.test(options.baseUrl)) throw new InvalidArgumentError("baseUrl must be an http(s) URL", { argument: "baseUrl" });
    if (typeof options.model !== "string" || !options.model) throw new InvalidArgumentError("model must be a non-empty string", { argument: "model" });
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.o = {
      baseUrl: this.baseUrl,
      model: options.model,
      apiKey: options.apiKey,
      temperature: options.temperature ?? 0,
      maxTokens: options.maxTokens ?? 4096,
      topP: options.topP,
      requestTimeoutMs: options.requestTimeoutMs ?? 120_000,
      maxRetries: options.maxRetries ?? 3,
      retryBackoffMs: options.retryBackoffMs ?? 500,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      retryBudgetMs: options.retryBudgetMs ?? 120_000,
      signal: options.signal,
    };
    this.doFetch = options.fetch ?? fetch;
  }

  /** POST JSON with retries; returns the parsed body, or throws `EndpointError`. */
  async post(path: string, body: Record<string, unknown>): Promise<{ status: number; body: unknown; text: string }> {
    const url = `${this.baseUrl}${path}`;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.o.apiKey) headers.authorization = `Bearer ${this.o.apiKey}`;
    let probed = false;
    const firstStarted = Date.now();
    for (let attempt = 0; ; attempt++) {
      if (this.unreachable) throw this.unreachable;
      this.requests++;
      const timeout = AbortSignal.timeout(this.o.requestTimeoutMs);
      const signal = this.o.signal ? AbortSignal.any([timeout, this.o.signal]) : timeout;
      let res: Response;
      try {
        res = await this.doFetch(url, { method: "POST", headers, body: JSON.stringify(body), signal });
      } catch (e) {
        if (this.o.signal?.aborted) throw e;
        if (isConnectionRefused(e)) {
          // connection refused: one probe after a short pause, then the run learns nothing listens there
          if (this.unreachable) throw this.unreachable;
          if (!probed) {
            probed = true;
            attempt--;
            await sleep(Math.min(this.o.retryBackoffMs, 1_000), this.o.signal);
            continue;
          }
          this.unreachable ??= new EndpointUnreachableError(url, "connection refused");
          throw this.unreachable;
        }
        if (attempt < this.o.maxRetries) {
          await sleep(this.o.retryBackoffMs * 2 ** attempt, this.o.signal);
          continue;
        }
        const why = timeout.aborted ? `timed out after ${this.o.requestTimeoutMs} ms` : ((e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message);
        throw new EndpointError(`POST ${url} failed after ${attempt + 1} attempt(s): ${why}`, url);
      }
      const text = await res.text();
      if (RETRY_STATUS.has(res.status)) {
        const after = retryAfterMs(res.headers.get("retry-after"), this.o.maxRetryAfterMs);
        let wait: number | undefined;
        if (attempt < this.o.maxRetries) wait = after ?? this.o.retryBackoffMs * 2 ** attempt;
        else if (after !== undefined) {
          // the server said when to come back: retry within the time budget, not a fixed count
          const w = Math.max(after, Math.min(this.o.retryBackoffMs, 1_000));
          if (Date.now() - firstStarted + w <= this.o.retryBudgetMs) wait = w;
        }
        if (wait !== undefined) {
          await sleep(wait, this.o.signal);
          continue;
        }
      }
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        if (res.ok) throw new EndpointError(`POST ${url}: malformed response body (not JSON): ${text.slice(0, 200)}`, url, res.status);
      }
      return { status: res.status, body: parsed, text };
    }
  }

  private static fail(url: string, status: number, text: string): never {
    throw new EndpointError(`POST ${url} answered HTTP ${status}: ${text.slice(0, 300)}`, url, status);
  }

  private sampling(): Record<string, unknown> {
    return { temperature: this.o.temperature, max_tokens: this.o.maxTokens, ...(this.o.topP !== undefined ? { top_p: this.o.topP } : {}) };
  }

  /** Chat completion of one user message (plus an optional system message); the reply text. */
  async chat(prompt: string, systemPrompt?: string): Promise<string> {
    const messages = [...(systemPrompt ? [{ role: "system", content: systemPrompt }] : []), { role: "user", content: prompt }];
    const r = await this.post("/chat/completions", { model: this.o.model, messages, ...this.sampling() });
    if (r.status < 200 || r.status >= 300) OpenAICompatibleClient.fail(`${this.baseUrl}/chat/completions`, r.status, r.text);
    const content = (r.body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
    if (typeof content !== "string" && content !== null) throw new EndpointError(`malformed chat completion body: no choices[0].message.content`, `${this.baseUrl}/chat/completions`, r.status);
    return content ?? "";
  }

  /** Text completion (`/completions`); the system prompt, if any, is prepended with a newline (as BYOB). */
  async completion(prompt: string, systemPrompt?: string): Promise<string> {
    const full = systemPrompt ? `${systemPrompt}\n${prompt}` : prompt;
    const r = await this.post("/completions", { model: this.o.model, prompt: full, ...this.sampling() });
    if (r.status < 200 || r.status >= 300) OpenAICompatibleClient.fail(`${this.baseUrl}/completions`, r.status, r.text);
    const text = (r.body as { choices?: { text?: unknown }[] })?.choices?.[0]?.text;
    if (typeof text !== "string") throw new EndpointError("malformed completion body: no choices[0].text", `${this.baseUrl}/completions`, r.status);
    return text;
  }

  /**
   * Log-likelihood of `continuation` after `context`: one `/completions` call with the two joined,
   * `echo: true`, `logprobs: 1`, `max_tokens: 0` (1 when the server refuses 0; the generated token is
   * then ignored). Continuation tokens are those whose `text_offset` is at or after the context's
   * length; their `token_logprobs` are summed, and `isGreedy` says whether each was the top token in
   * `top_logprobs`.
   */
  async loglikelihood(context: string, continuation: string): Promise<Loglikelihood> {
    const prompt = context + continuation;
    const url = `${this.baseUrl}/completions`;
    const request = (maxTokens: number) =>
      this.post("/completions", { model: this.o.model, prompt, max_tokens: maxTokens, temperature: 0, logprobs: 1, echo: true });
    // Decide per request: every request that went out with 0 and is refused retries with 1, including
    // those already in flight when the first refusal arrived (they read the flag before it was set).
    const sentZero = !this.zeroTokensRefused;
    let r = await request(sentZero ? 0 : 1);
    if (sentZero && r.status >= 400 && r.status < 500 && /max[_ ]?tokens|maximum.*tokens|at least 1/i.test(r.text)) {
      this.zeroTokensRefused = true;
      r = await request(1);
    }
    if (r.status < 200 || r.status >= 300) OpenAICompatibleClient.fail(url, r.status, r.text);
    const lp = (r.body as { choices?: { logprobs?: unknown }[] })?.choices?.[0]?.logprobs as
      | { tokens?: unknown; token_logprobs?: unknown; text_offset?: unknown; top_logprobs?: unknown }
      | undefined;
    const tokens = lp?.tokens;
    const logprobs = lp?.token_logprobs;
    const offsets = lp?.text_offset;
    if (!Array.isArray(tokens) || !Array.isArray(logprobs) || !Array.isArray(offsets) || tokens.length === 0 || logprobs.length !== tokens.length || offsets.length !== tokens.length) {
      throw new EndpointError("malformed logprobs body: choices[0].logprobs needs tokens, token_logprobs and text_offset of equal length (echo + logprobs)", url, r.status);
    }
    const top = Array.isArray(lp!.top_logprobs) ? (lp!.top_logprobs as unknown[]) : [];
    const ctxLen = cpLength(context);
    const promptLen = cpLength(prompt);
    let start = offsets.findIndex((o) => typeof o === "number" && o >= ctxLen);
    if (start < 0) {
      // the tokenizer merged the end of the context with the continuation: take the merged token
      start = tokens.length - 1;
      for (let i = offsets.length - 1; i >= 0; i--) {
        const o = offsets[i];
        if (typeof o === "number" && o < ctxLen) {
          start = i;
          break;
        }
      }
    }
    // tokens at/after the prompt's end were generated (max_tokens 1), not part of the continuation
    let end = tokens.length;
    for (let i = start; i < offsets.length; i++) {
      const o = offsets[i];
      if (typeof o === "number" && o >= promptLen && i > start) {
        end = i;
        break;
      }
    }
    let sum = 0;
    let counted = 0;
    let greedy = true;
    for (let i = start; i < end; i++) {
      const l = logprobs[i];
      if (typeof l === "number" && Number.isFinite(l)) {
        sum += l;
        counted++;
      } else if (l !== null) throw new EndpointError(`malformed logprobs body: token_logprobs[${i}] is ${JSON.stringify(l)}`, url, r.status);
      const t = top[i];
      let best: string | undefined;
      let bestLp = -Infinity;
      if (t && typeof t === "object") {
        const entries: [string, number][] = Array.isArray(t)
          ? (t as { token?: unknown; logprob?: unknown }[]).map((e) => [String(e.token), Number(e.logprob)])
          : Object.entries(t as Record<string, number>);
        for (const [tok, v] of entries) if (v > bestLp) (best = tok, (bestLp = v));
      }
      if (best === undefined || best !== tokens[i]) greedy = false;
    }
    if (counted === 0) throw new EndpointError("could not locate the continuation tokens in the echoed prompt (no token logprob after the context)", url, r.status);
    return { logprob: sum, isGreedy: greedy };
  }
}
