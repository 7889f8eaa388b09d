// Chat completions for the structured-output ladder: the request body of a rung (`response_format` for
// `json_schema` and `json_object`, nothing for text), and the reply read into a `LadderReply`.
import type OpenAI from "openai";
import type { GenerateRequest, JudgeMessage, JudgeUsage, OutputMode, TokenLogprob } from "../model.js";
import type { Complete, LadderReply } from "../layers/ladder.js";
import type { RetryingTransport } from "../layers/retrying.js";
import type { RawUsage } from "./shared.js";

/** The judge's settings a chat body needs (read at each call: capabilities are learned). */
export interface ChatDefaults {
  readonly model: string;
  readonly supportsTemperature: boolean;
  readonly maxTopLogprobs: number;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly maxTokensParam?: "max_tokens" | "max_completion_tokens" | undefined;
  readonly seed?: number | undefined;
  readonly topP?: number | undefined;
}

/** The `/chat/completions` body of `messages` on rung `mode`. */
export function chatBody(
  request: GenerateRequest<unknown>,
  messages: readonly JudgeMessage[],
  mode: OutputMode | undefined,
  logprobs: boolean,
  d: ChatDefaults,
): Record<string, unknown> {
  const schema = request.schema;
  const body: Record<string, unknown> = {
    model: d.model,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
  };
  if (d.supportsTemperature) body.temperature = request.temperature ?? d.temperature ?? 0;
  const maxTokens = request.maxTokens ?? d.maxTokens;
  if (maxTokens !== undefined) body[d.maxTokensParam ?? "max_tokens"] = maxTokens;
  const seed = request.seed ?? d.seed;
  if (seed !== undefined) body.seed = seed;
  const topP = request.topP ?? d.topP;
  if (topP !== undefined) body.top_p = topP;
  if (schema && mode === "json_schema") {
    const strict = schema.strict ?? false;
    body.response_format = {
      type: "json_schema",
      json_schema: { name: schema.name, schema: schema.jsonSchema, strict },
    };
  } else if (schema && mode === "json_object") {
    body.response_format = { type: "json_object" };
  }
  if (logprobs) {
    body.logprobs = true;
    body.top_logprobs = Math.min(request.topLogprobs ?? 20, d.maxTopLogprobs);
  }
  return body;
}

/** Token logprobs of a chat reply (`choices[0].logprobs.content`). */
export function toLogprobs(content: unknown): TokenLogprob[] | undefined {
  if (!Array.isArray(content)) return undefined;
  return content.map((t: { token?: unknown; logprob?: unknown; top_logprobs?: unknown }) => ({
    token: String(t.token ?? ""),
    logprob: typeof t.logprob === "number" ? t.logprob : -9999,
    topLogprobs: Array.isArray(t.top_logprobs)
      ? t.top_logprobs.map((x: { token?: unknown; logprob?: unknown }) => ({
          token: String(x.token ?? ""),
          logprob: typeof x.logprob === "number" ? x.logprob : -9999,
        }))
      : [],
  }));
}

/** The ladder's `Complete` over chat completions: one request through `sender`, its reply as the ladder reads it. */
export function chatComplete(
  sender: RetryingTransport,
  defaults: () => ChatDefaults,
  usageOf: (raw: RawUsage | undefined | null, responseModel: string | undefined, latencyMs: number) => JudgeUsage,
): Complete {
  return async (messages, { request, mode, logprobs, state }): Promise<LadderReply> => {
    const d = defaults();
    const body = chatBody(request, messages, mode, logprobs, d);
    const { response, latency } = await sender.send<OpenAI.Chat.Completions.ChatCompletion>("chat", body, request.signal, state);
    const choice = response.choices?.[0];
    const tokenLogprobs = toLogprobs((choice?.logprobs as { content?: unknown } | null | undefined)?.content);
    return {
      hasChoice: Boolean(choice),
      text: choice?.message?.content ?? "",
      finishReason: choice?.finish_reason ?? null,
      refusal: (choice?.message as { refusal?: string | null } | undefined)?.refusal ?? null,
      ...(tokenLogprobs ? { logprobs: tokenLogprobs } : {}),
      model: typeof response.model === "string" && response.model ? response.model : d.model,
      systemFingerprint: (response as { system_fingerprint?: string | null }).system_fingerprint ?? null,
      usage: usageOf(response.usage as RawUsage | undefined, response.model, latency),
    };
  };
}
