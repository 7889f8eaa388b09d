// The usage block of an OpenAI-compatible reply, and its tokens and cost as a `JudgeUsage`.
import type { JudgeUsage } from "../model.js";
import { costOf, type ModelPrice } from "../usage.js";

/** The `usage` block of an OpenAI-compatible reply. */
export interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** Tokens and cost of one reply (requests are counted by the transport). */
export function replyUsage(raw: RawUsage | undefined | null, price: ModelPrice | undefined, latencyMs: number): JudgeUsage {
  const tokens = {
    inputTokens: raw?.prompt_tokens ?? 0,
    outputTokens: raw?.completion_tokens ?? 0,
    cachedInputTokens: raw?.prompt_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: raw?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
  // Without a usage block the tokens are unknown, so the cost is too.
  const costUsd = raw ? costOf(tokens, price) : null;
  return { ...tokens, costUsd, requests: 0, latencyMs };
}
