// The content-addressed cache as OpenAICompatibleJudge uses it: the key of a chat call, the entry of a
// reply, the replay of a hit (re-validated against the schema), and cached continuation scores.
import type { CacheEntry, JudgeCache } from "../cache/cache.js";
import type { ContinuationSpanRule } from "@evalkern/metrics";
import { cacheKey } from "../cache/key.js";
import type { ContinuationScore, GenerateRequest, GenerateResult, JudgeMessage, JudgeSchema, JudgeUsage } from "../model.js";
import { interpret, type ChatData } from "./structured.js";

/** The judge's defaults that enter a chat cache key. */
export interface ChatKeyDefaults {
  readonly namespace: string | null;
  readonly model: string;
  readonly supportsTemperature: boolean;
  readonly temperature: number | undefined;
  readonly maxTokens: number | undefined;
  readonly seed: number | undefined;
  readonly topP: number | undefined;
}

/** What identifies a chat call in the cache (the endpoint URL deliberately not, as in DSPy). */
export function chatKeyParts(request: GenerateRequest<unknown>, messages: readonly JudgeMessage[], d: ChatKeyDefaults): Record<string, unknown> {
  return {
    v: 1,
    endpoint: "chat",
    namespace: d.namespace,
    model: d.model,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: d.supportsTemperature ? (request.temperature ?? d.temperature ?? 0) : null,
    maxTokens: request.maxTokens ?? d.maxTokens ?? null,
    seed: request.seed ?? d.seed ?? null,
    schema: request.schema ? { name: request.schema.name, jsonSchema: request.schema.jsonSchema } : null,
    logprobs: request.logprobs === true,
    topLogprobs: request.logprobs ? (request.topLogprobs ?? null) : null,
    sample: request.sample ?? 0,
    promptVersion: request.promptVersion ?? null,
    ...((request.topP ?? d.topP) !== undefined ? { topP: request.topP ?? d.topP } : {}),
  };
}

/** The cache entry of a live chat result. */
export function chatEntry(result: GenerateResult<unknown>): CacheEntry {
  const data: ChatData = {
    text: result.text,
    finishReason: result.finishReason ?? null,
    ...(result.logprobs ? { logprobs: result.logprobs } : {}),
    ...(result.outputMode ? { outputMode: result.outputMode } : {}),
    systemFingerprint: result.systemFingerprint ?? null,
    attempts: result.attempts ?? 1,
    fallbacks: result.fallbacks ?? [],
  };
  return {
    version: 1,
    endpoint: "chat",
    model: result.model,
    data,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    createdAt: new Date().toISOString(),
  };
}

/** A cached chat reply as a result (re-read against the schema), or undefined when it no longer validates. */
export async function replayChat<T>(data: ChatData, model: string, schema: JudgeSchema<T> | undefined, zero: JudgeUsage): Promise<GenerateResult<T> | undefined> {
  if (!data || typeof data.text !== "string") return undefined;
  let value: T;
  if (schema) {
    const interpreted = await interpret(data.text, data.finishReason, null, schema);
    if (!interpreted.ok) return undefined;
    value = interpreted.value;
  } else {
    value = data.text as T;
  }
  return {
    value,
    text: data.text,
    ...(data.logprobs ? { logprobs: data.logprobs } : {}),
    usage: { ...zero, costUsd: 0 },
    cached: true,
    model,
    finishReason: data.finishReason,
    ...(data.outputMode ? { outputMode: data.outputMode } : {}),
    attempts: data.attempts,
    fallbacks: data.fallbacks,
    systemFingerprint: data.systemFingerprint ?? null,
  };
}

/**
 * A continuation score through the cache: a hit replays it at zero cost; identical in-flight calls share
 * one request (the followers are reported as cached).
 */
export async function cachedContinuation(
  cache: JudgeCache,
  parts: {
    readonly namespace: string | null;
    readonly model: string;
    readonly spanRule: ContinuationSpanRule;
    readonly context: string;
    readonly continuation: string;
  },
  run: () => Promise<ContinuationScore & { usage: JudgeUsage; cached: boolean }>,
  zero: () => JudgeUsage,
): Promise<ContinuationScore & { usage: JudgeUsage; cached: boolean }> {
  // v2: the span rule is part of the key, and v1 entries may hold sums that dropped a prompt token by count
  const key = await cacheKey({
    v: 2,
    endpoint: "completions",
    spanRule: parts.spanRule,
    namespace: parts.namespace,
    model: parts.model,
    context: parts.context,
    continuation: parts.continuation,
  });
  const flight = await cache.singleFlight(key, async () => {
    const hit = await cache.lookup(key);
    const data = hit?.data as ContinuationScore | undefined;
    if (hit && data && typeof data.logprob === "number") {
      return { logprob: data.logprob, isGreedy: data.isGreedy, tokenCount: data.tokenCount, usage: { ...zero() }, cached: true };
    }
    const result = await run();
    await cache.save(key, {
      version: 1,
      endpoint: "completions",
      model: parts.model,
      data: { logprob: result.logprob, isGreedy: result.isGreedy, tokenCount: result.tokenCount },
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      createdAt: new Date().toISOString(),
    });
    return result;
  });
  if (flight.shared) return { ...flight.value, usage: zero(), cached: true };
  return flight.value;
}
