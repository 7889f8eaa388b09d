// `/v1/embeddings` and `/v1/moderations` over the retrying transport: the request bodies and the reading
// of the replies (vectors in index order, moderation results with their category scores). A reply that
// is not what was asked for (missing vectors, vectors of unequal length, a result per input missing) is a
// `JudgeOutputError`, never a made-up vector or verdict.
import { JudgeOutputError } from "../errors.js";
import { finishUsage, type CallState } from "../layers/call.js";
import type { EmbedBatchReply } from "../layers/embed.js";
import type { RetryingTransport } from "../layers/retrying.js";
import { CapabilityRejection } from "../layers/transport.js";
import type { JudgeUsage, ModerationVerdict } from "../model.js";
import { addUsage } from "../usage.js";
import type { RawUsage } from "./shared.js";

type UsageOf = (raw: RawUsage | undefined | null, responseModel: string | undefined, latencyMs: number) => JudgeUsage;

interface EmbeddingsReply {
  readonly data?: ReadonlyArray<{ readonly index?: number; readonly embedding?: unknown }>;
  readonly model?: string;
  readonly usage?: RawUsage;
}

async function send<R>(
  transport: RetryingTransport,
  endpoint: "embeddings" | "moderations",
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
  state: CallState,
): Promise<{ response: R; latency: number }> {
  try {
    return await transport.send<R>(endpoint, body, signal, state);
  } catch (error) {
    throw error instanceof CapabilityRejection ? error.final : transport.finalError(error, state);
  }
}

function malformed(what: string, response: unknown, state: CallState, started: number): JudgeOutputError {
  const text = JSON.stringify(response ?? null).slice(0, 500);
  return new JudgeOutputError("schema_violation", what, { attempts: 1, text }, { usage: finishUsage(state, started) });
}

/** One `/v1/embeddings` request for `texts`: the vectors in the order of `texts` (its usage added to `state`). */
export async function embeddingsBatch(
  transport: RetryingTransport,
  body: { readonly model: string; readonly dimensions?: number },
  texts: readonly string[],
  signal: AbortSignal | undefined,
  state: CallState,
  usageOf: UsageOf,
): Promise<EmbedBatchReply> {
  const started = Date.now();
  const request = {
    model: body.model,
    input: [...texts],
    encoding_format: "float",
    ...(body.dimensions ? { dimensions: body.dimensions } : {}),
  };
  const { response, latency } = await send<EmbeddingsReply>(transport, "embeddings", request, signal, state);
  // embeddings are priced by input tokens; the reply's usage has prompt_tokens and no completion tokens
  const usage = usageOf(response.usage, response.model, latency);
  state.usage = addUsage(state.usage, usage);
  const data = Array.isArray(response.data) ? response.data : [];
  if (data.length !== texts.length) {
    throw malformed(`the embeddings reply has ${data.length} vectors for ${texts.length} texts`, response, state, started);
  }
  const vectors: (readonly number[])[] = new Array(texts.length);
  data.forEach((item, position) => {
    const index = typeof item?.index === "number" ? item.index : position;
    const v = item?.embedding;
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw malformed(`embedding ${index} of the reply is not a non-empty array of finite numbers`, response, state, started);
    }
    vectors[index] = v as number[];
  });
  const dims = vectors[0]?.length;
  if (vectors.some((v) => v === undefined || v.length !== dims)) {
    throw malformed("the embeddings reply has missing indices or vectors of unequal length", response, state, started);
  }
  return { vectors, model: response.model ?? body.model, usage };
}

interface ModerationsReply {
  readonly model?: string;
  readonly results?: ReadonlyArray<{ flagged?: unknown; categories?: unknown; category_scores?: unknown }>;
}

function record<T>(value: unknown, ok: (x: unknown) => x is T): Record<string, T> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, T> = {};
  for (const [key, x] of Object.entries(value)) {
    // servers send `null` for categories a model does not score (omni's illicit on text-only inputs)
    if (x === null) continue;
    if (!ok(x)) return undefined;
    out[key] = x;
  }
  return out;
}

const isBoolean = (x: unknown): x is boolean => typeof x === "boolean";
const isScore = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);

/** One `/v1/moderations` request: one verdict per input. */
export async function moderationsRequest(
  transport: RetryingTransport,
  model: string | null,
  input: readonly string[],
  signal: AbortSignal | undefined,
  state: CallState,
): Promise<{ results: ModerationVerdict[]; model: string | undefined }> {
  const started = Date.now();
  const body = { ...(model ? { model } : {}), input: input.length === 1 ? input[0] : [...input] };
  const { response } = await send<ModerationsReply>(transport, "moderations", body, signal, state);
  const results = Array.isArray(response.results) ? response.results : [];
  if (results.length !== input.length) {
    throw malformed(`the moderations reply has ${results.length} results for ${input.length} inputs`, response, state, started);
  }
  const verdicts = results.map((r, i) => {
    const categories = record(r?.categories, isBoolean);
    const categoryScores = record(r?.category_scores, isScore);
    if (typeof r?.flagged !== "boolean" || !categories || !categoryScores) {
      throw malformed(`moderation result ${i} lacks flagged, categories or category_scores`, response, state, started);
    }
    return { flagged: r.flagged, categories, categoryScores };
  });
  return { results: verdicts, model: response.model };
}
