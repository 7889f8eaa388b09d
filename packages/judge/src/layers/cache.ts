// The cache layer (docs/spec/judges.md §10.8), a wrapper around any call: a hit is replayed at zero cost
// (a stored entry that no longer validates is a miss), identical concurrent calls share one live call (the
// followers are reported as cached, at zero cost), and a live result is stored when it may be replayed.
// What is cached per kind of call: chat replies (re-validated against the schema on replay) and
// continuation scores.
import type { ContinuationSpanRule } from "@evalkern/metrics";
import type { CacheEntry, JudgeCache } from "../cache/cache.js";
import { cacheKey } from "../cache/key.js";
import type {
  ContinuationScore,
  GenerateRequest,
  GenerateResult,
  JudgeMessage,
  JudgeSchema,
  JudgeUsage,
  OutputMode,
  TokenLogprob,
} from "../model.js";
import { ZERO_USAGE } from "../usage.js";
import { interpret } from "./structured.js";

/** How one kind of call is cached. */
export interface CacheSpec<R> {
  /** What identifies the call (hashed into the key). */
  readonly keyParts: Readonly<Record<string, unknown>>;
  /** The result of a stored entry, or undefined when it can no longer be used. */
  replay(entry: CacheEntry): Promise<R | undefined>;
  /** The entry to store for a live result, or undefined to store nothing. */
  entry(result: R): CacheEntry | undefined;
}

/** `live` through `cache` by `spec`: replayed, shared with an identical call in flight, or run and stored. */
export async function throughCache<R extends { readonly usage: JudgeUsage; readonly cached: boolean }>(
  cache: JudgeCache,
  spec: CacheSpec<R>,
  live: () => Promise<R>,
): Promise<R> {
  const key = await cacheKey(spec.keyParts);
  const { value, shared } = await cache.singleFlight(key, async () => {
    const hit = await cache.lookup(key);
    if (hit) {
      const replayed = await spec.replay(hit);
      if (replayed) return replayed;
      cache.discard(key);
    }
    const result = await live();
    const entry = spec.entry(result);
    if (entry) await cache.save(key, entry);
    return result;
  });
  return shared ? { ...value, usage: { ...ZERO_USAGE }, cached: true } : value;
}

/** What the cache keeps of a chat reply. */
export interface ChatData {
  readonly text: string;
  readonly finishReason: string | null;
  readonly logprobs?: readonly TokenLogprob[];
  readonly outputMode?: OutputMode;
  readonly systemFingerprint?: string | null;
  readonly attempts: number;
  readonly fallbacks: readonly string[];
}

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
export function chatKeyParts(
  request: GenerateRequest<unknown>,
  messages: readonly JudgeMessage[],
  d: ChatKeyDefaults,
): Record<string, unknown> {
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
export async function replayChat<T>(
  data: ChatData,
  model: string,
  schema: JudgeSchema<T> | undefined,
): Promise<GenerateResult<T> | undefined> {
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
    usage: { ...ZERO_USAGE },
    cached: true,
    model,
    finishReason: data.finishReason,
    ...(data.outputMode ? { outputMode: data.outputMode } : {}),
    attempts: data.attempts,
    fallbacks: data.fallbacks,
    systemFingerprint: data.systemFingerprint ?? null,
  };
}

/** How a `generate` call is cached; a reply cut at the token limit is never stored. */
export function chatCacheSpec<T>(
  request: GenerateRequest<T>,
  messages: readonly JudgeMessage[],
  defaults: ChatKeyDefaults,
): CacheSpec<GenerateResult<T>> {
  return {
    keyParts: chatKeyParts(request as GenerateRequest<unknown>, messages, defaults),
    replay: (hit) => replayChat<T>(hit.data as ChatData, hit.model, request.schema),
    entry: (result) => (result.finishReason === "length" ? undefined : chatEntry(result)),
  };
}

/** A continuation score with the usage of the call that made it. */
export type ScoredContinuation = ContinuationScore & { usage: JudgeUsage; cached: boolean };

/** What identifies a continuation score in the cache. */
export interface ContinuationKeyParts {
  readonly namespace: string | null;
  readonly model: string;
  readonly spanRule: ContinuationSpanRule;
  readonly context: string;
  readonly continuation: string;
}

/** How a continuation score is cached. */
export function continuationCacheSpec(parts: ContinuationKeyParts): CacheSpec<ScoredContinuation> {
  return {
    // v2: the span rule is part of the key, and v1 entries may hold sums that dropped a prompt token by count
    keyParts: {
      v: 2,
      endpoint: "completions",
      spanRule: parts.spanRule,
      namespace: parts.namespace,
      model: parts.model,
      context: parts.context,
      continuation: parts.continuation,
    },
    replay: async (hit) => {
      const data = hit.data as ContinuationScore | undefined;
      if (!data || typeof data.logprob !== "number") return undefined;
      return { logprob: data.logprob, isGreedy: data.isGreedy, tokenCount: data.tokenCount, usage: { ...ZERO_USAGE }, cached: true };
    },
    entry: (result) => ({
      version: 1,
      endpoint: "completions",
      model: parts.model,
      data: { logprob: result.logprob, isGreedy: result.isGreedy, tokenCount: result.tokenCount },
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      createdAt: new Date().toISOString(),
    }),
  };
}
