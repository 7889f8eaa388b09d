// Embeddings through the cache, for any provider: texts are cached one by one (so a vector embedded by
// one scorer is replayed for every later call that needs the same text under the same model), and the
// texts the cache does not hold are sent in batches. A provider plugs in `EmbedBatch`: one request for
// a batch of texts. Moderation results are cached per request (`moderationCacheSpec`).
import type { CacheEntry, JudgeCache } from "../cache/cache.js";
import { cacheKey } from "../cache/key.js";
import type { EmbedResult, JudgeUsage, ModerationResult, ModerationVerdict } from "../model.js";
import { ZERO_USAGE } from "../usage.js";
import type { CacheSpec } from "./cache.js";
import { finishUsage, type CallState } from "./call.js";

/** The vectors of one batch request, in the order of its texts, with its usage. */
export interface EmbedBatchReply {
  readonly vectors: readonly (readonly number[])[];
  readonly model: string;
  readonly usage: JudgeUsage;
}

/** One request for `texts`; counts its attempts in `state.requests` and adds its usage to `state.usage`. */
export type EmbedBatch = (texts: readonly string[], state: CallState) => Promise<EmbedBatchReply>;

/** What identifies an embedding in the cache: the text, the model, the dimensions and the namespace. */
export interface EmbeddingKeyParts {
  readonly namespace: string | null;
  readonly model: string;
  readonly dimensions: number | null;
}

export interface EmbedTextsOptions {
  readonly texts: readonly string[];
  readonly model: string;
  readonly key: EmbeddingKeyParts;
  readonly cache: JudgeCache | undefined;
  /** Most texts per request. */
  readonly batchSize: number;
  readonly send: EmbedBatch;
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === "number" && Number.isFinite(x));
}

/** `texts` embedded: cached vectors replayed, the rest sent in batches and stored one by one. */
export async function embedTexts(o: EmbedTextsOptions): Promise<EmbedResult> {
  const started = Date.now();
  const state: CallState = { usage: { ...ZERO_USAGE }, requests: 0 };
  const unique = [...new Set(o.texts)];
  const vectors = new Map<string, readonly number[]>();
  const keys = new Map<string, string>();
  const cache = o.cache;
  if (cache) {
    for (const text of unique) {
      const key = await cacheKey({ v: 1, endpoint: "embeddings", ...o.key, input: text });
      keys.set(text, key);
      const hit = await cache.lookup(key);
      if (!hit) continue;
      const embedding = (hit.data as { embedding?: unknown } | undefined)?.embedding;
      if (isVector(embedding)) vectors.set(text, embedding);
      else cache.discard(key);
    }
  }
  const missing = unique.filter((text) => !vectors.has(text));
  let model = o.model;
  for (let start = 0; start < missing.length; start += o.batchSize) {
    const batch = missing.slice(start, start + o.batchSize);
    const reply = await o.send(batch, state);
    model = reply.model;
    for (let i = 0; i < batch.length; i++) {
      const text = batch[i] as string;
      const vector = reply.vectors[i] as readonly number[];
      vectors.set(text, vector);
      const key = keys.get(text);
      if (cache && key) await cache.save(key, embeddingEntry(o.model, vector, batch.length, reply.usage));
    }
  }
  const usage = missing.length === 0 ? { ...ZERO_USAGE } : finishUsage(state, started);
  return {
    embeddings: o.texts.map((text) => vectors.get(text) as readonly number[]),
    model,
    usage,
    cached: missing.length === 0,
  };
}

/**
 * The cache entry of one text's vector. A provider reports tokens per request, not per text, so the
 * entry carries the tokens of the request that embedded it and how many texts that request held.
 */
function embeddingEntry(model: string, embedding: readonly number[], batchSize: number, usage: JudgeUsage): CacheEntry {
  return {
    version: 1,
    endpoint: "embeddings",
    model,
    data: { embedding, batchSize },
    inputTokens: usage.inputTokens,
    outputTokens: 0,
    createdAt: new Date().toISOString(),
  };
}

function isVerdict(value: unknown): value is ModerationVerdict {
  if (typeof value !== "object" || value === null) return false;
  const v = value as ModerationVerdict;
  return typeof v.flagged === "boolean" && typeof v.categories === "object" && typeof v.categoryScores === "object";
}

/** How a moderation request is cached: by its inputs, model and namespace. */
export function moderationCacheSpec(parts: {
  readonly namespace: string | null;
  readonly model: string | null;
  readonly input: readonly string[];
}): CacheSpec<ModerationResult> {
  return {
    keyParts: { v: 1, endpoint: "moderations", ...parts },
    replay: async (hit) => {
      const data = hit.data as { results?: unknown } | undefined;
      if (!Array.isArray(data?.results) || !data.results.every(isVerdict) || data.results.length !== parts.input.length) return undefined;
      return { results: data.results, model: hit.model, usage: { ...ZERO_USAGE }, cached: true };
    },
    entry: (result) => ({
      version: 1,
      endpoint: "moderations",
      model: result.model,
      data: { results: result.results },
      inputTokens: result.usage.inputTokens,
      outputTokens: 0,
      createdAt: new Date().toISOString(),
    }),
  };
}
