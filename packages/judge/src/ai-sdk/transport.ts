// The AI SDK under the judge's layers: a `Transport` that sends one `generateText` call once (the SDK's
// own retries off, so the retry layer owns the policy), and the ladder's `Complete` over it. The rungs of
// the structured-output ladder map to the SDK's outputs: `json_schema` is its object generation
// (`Output.object` with the schema as `jsonSchema()`, sent as the provider's native structured output),
// `json_object` is `Output.json()`, text is plain text with the schema instruction in the prompt. A reply
// the SDK cannot parse (`NoObjectGeneratedError`) is not a failed request but a reply: its text goes back to
// the ladder, which re-asks with the error and ends in a typed `JudgeOutputError`, as for every judge.
import type { LanguageModel, LanguageModelUsage } from "ai";
import type { Complete, LadderReply } from "../layers/ladder.js";
import type { RetryingTransport } from "../layers/retrying.js";
import type { Transport, TransportRequest } from "../layers/transport.js";
import type { GenerateRequest, JudgeMessage, JudgeUsage, OutputMode } from "../model.js";
import { JudgeConfigError } from "../errors.js";
import { costOf, type ModelPrice } from "../usage.js";
import type { AiModule } from "./load.js";

/** An AI SDK language model object (v2 or v3 of the provider specification). */
export type AiSdkLanguageModel = Exclude<LanguageModel, string>;

/** What a loaded judge sends with: the `ai` module and the model. */
export interface AiSdkRuntime {
  readonly ai: AiModule;
  readonly model: AiSdkLanguageModel;
}

/** The judge's generation defaults (read at each call). */
export interface AiSdkDefaults {
  readonly supportsTemperature: boolean;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly seed?: number | undefined;
  readonly topP?: number | undefined;
  readonly providerOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
}

/** One reply as the transport returns it. */
export interface AiSdkReply {
  readonly text: string;
  readonly finishReason: string | null;
  readonly usage: LanguageModelUsage | undefined;
  readonly modelId: string | undefined;
}

/** The request body of one call: the rung, the messages and the settings (what the classifier reads too). */
export function aiSdkBody(
  request: GenerateRequest<unknown>,
  messages: readonly JudgeMessage[],
  mode: OutputMode | undefined,
  d: AiSdkDefaults,
): Record<string, unknown> {
  const maxTokens = request.maxTokens ?? d.maxTokens;
  const seed = request.seed ?? d.seed;
  const topP = request.topP ?? d.topP;
  const schema = request.schema;
  return {
    mode: schema ? (mode ?? "text") : undefined,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    ...(d.supportsTemperature ? { temperature: request.temperature ?? d.temperature ?? 0 } : {}),
    ...(maxTokens !== undefined ? { maxOutputTokens: maxTokens } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(schema && mode === "json_schema" ? { schemaName: schema.name, jsonSchema: schema.jsonSchema } : {}),
    ...(d.providerOptions ? { providerOptions: d.providerOptions } : {}),
  };
}

/** `Transport` over `generateText`: one attempt, the SDK's errors thrown as they are. */
export class AiSdkTransport implements Transport {
  constructor(
    private readonly runtime: () => Promise<AiSdkRuntime>,
    private readonly timeoutMs: number,
  ) {}

  async send({ body }: TransportRequest, signal?: AbortSignal): Promise<AiSdkReply> {
    const { ai, model } = await this.runtime();
    const { mode, schemaName, jsonSchema, ...settings } = body as Record<string, unknown>;
    const output =
      mode === "json_schema"
        ? ai.Output.object({ schema: ai.jsonSchema(jsonSchema as Parameters<AiModule["jsonSchema"]>[0]), name: String(schemaName) })
        : mode === "json_object"
          ? ai.Output.json()
          : undefined;
    try {
      const call = {
        ...settings,
        model,
        // the judge's prompts are its own, so a system message inside them is meant
        allowSystemInMessages: true,
        maxRetries: 0,
        timeout: this.timeoutMs,
        ...(signal ? { abortSignal: signal } : {}),
        ...(output ? { output } : {}),
      } as unknown as Parameters<AiModule["generateText"]>[0];
      const result = await ai.generateText(call);
      return { text: result.text, finishReason: result.finishReason ?? null, usage: result.totalUsage, modelId: result.response?.modelId };
    } catch (error) {
      if (!ai.NoObjectGeneratedError.isInstance(error)) throw error;
      return {
        text: error.text ?? "",
        finishReason: error.finishReason ?? null,
        usage: error.usage,
        modelId: error.response?.modelId,
      };
    }
  }
}

/**
 * Tokens and cost of one reply (requests are counted by the retry layer). Without token counts the cost
 * is unknown (null), never 0. Prompt-cache reads are priced at the cached rate where the price has one;
 * prompt-cache writes (Anthropic bills them above the input rate) are priced as input tokens.
 */
export function aiSdkUsage(usage: LanguageModelUsage | undefined, price: ModelPrice | undefined, latencyMs: number): JudgeUsage {
  const known = usage !== undefined && typeof usage.inputTokens === "number" && typeof usage.outputTokens === "number";
  const tokens = {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens ?? usage?.reasoningTokens ?? 0,
  };
  return { ...tokens, costUsd: known ? costOf(tokens, price) : null, requests: 0, latencyMs };
}

/** The ladder's `Complete` over the AI SDK transport. */
export function aiSdkComplete(
  sender: RetryingTransport,
  ready: () => Promise<unknown>,
  defaults: () => AiSdkDefaults,
  usageOf: (usage: LanguageModelUsage | undefined, responseModel: string | undefined, latencyMs: number) => JudgeUsage,
  name: string,
): Complete {
  return async (messages, { request, mode, state }): Promise<LadderReply> => {
    // loading `ai` and the provider fails with its own typed error, not as a failed request
    await ready();
    const body = aiSdkBody(request, messages, mode, defaults());
    let sent: { response: AiSdkReply; latency: number };
    try {
      sent = await sender.send<AiSdkReply>("chat", body, request.signal, state);
    } catch (error) {
      throw missingSetting(error) ?? error;
    }
    const { response, latency } = sent;
    const filtered = response.finishReason === "content-filter" && response.text.trim() === "";
    return {
      hasChoice: true,
      text: response.text,
      finishReason: response.finishReason,
      refusal: filtered ? "the provider's content filter stopped the reply" : null,
      model: response.modelId || name,
      systemFingerprint: null,
      usage: usageOf(response.usage, response.modelId, latency),
    };
  };
}

/** A provider setting the SDK could not find (no API key in the environment...): a configuration error, not a failed request. */
function missingSetting(error: unknown): JudgeConfigError | undefined {
  const cause = (error as { cause?: { name?: unknown; message?: unknown } } | null)?.cause;
  if (cause?.name !== "AI_LoadAPIKeyError" && cause?.name !== "AI_LoadSettingError") return undefined;
  return new JudgeConfigError(`The AI SDK provider is not configured: ${String(cause.message)}`, { argument: "apiKey" });
}
