// The OpenAI-compatible transport: the `openai` (or `AzureOpenAI`) client with its own retries off, sending
// one chat, completions, embeddings or moderations request once with the per-attempt timeout. Retries, the
// limiter and typed errors are the layers above (../layers/retrying.ts); what its throws mean is ./classify.ts.
import OpenAI, { AzureOpenAI } from "openai";
import type { Transport, TransportRequest } from "../layers/transport.js";

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
  type MakeStatusError = (status: number, error: unknown, message: string | undefined, headers: Headers) => Error;
  const patched = client as unknown as { makeStatusError: MakeStatusError };
  patched.makeStatusError = (status, error, message, headers) => {
    const body = error as Record<string, unknown> | undefined;
    const topLevel = body && typeof body === "object" && body.error === undefined && typeof body.message === "string";
    const wrapped = topLevel ? { error: body } : body;
    return OpenAI.APIError.generate(status, wrapped as object | undefined, message, headers);
  };
  return client;
}

/** `Transport` over the `openai` client: one attempt, the client's own errors thrown as they are. */
export class OpenAITransport implements Transport {
  constructor(
    readonly client: OpenAI,
    readonly timeoutMs: number,
  ) {}

  async send({ endpoint, body }: TransportRequest, signal?: AbortSignal): Promise<object> {
    const opts = { ...(signal ? { signal } : {}), timeout: this.timeoutMs, maxRetries: 0 };
    let response: unknown;
    if (endpoint === "chat") {
      response = await this.client.chat.completions.create(
        body as unknown as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
        opts,
      );
    } else if (endpoint === "completions") {
      response = await this.client.completions.create(body as unknown as OpenAI.Completions.CompletionCreateParamsNonStreaming, opts);
    } else if (endpoint === "embeddings") {
      // the body names `encoding_format: "float"`, so the SDK returns the vectors as sent (no base64 decoding)
      response = await this.client.embeddings.create(body as unknown as OpenAI.Embeddings.EmbeddingCreateParams, opts);
    } else {
      response = await this.client.moderations.create(body as unknown as OpenAI.Moderations.ModerationCreateParams, opts);
    }
    // a 200 whose body is empty or not JSON: the classifier reads a SyntaxError as a malformed response
    if (response === undefined || response === null || typeof response !== "object") {
      throw new SyntaxError("empty or non-JSON response body");
    }
    return response;
  }
}
