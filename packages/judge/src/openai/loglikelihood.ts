// Log-likelihood of a continuation through `/v1/completions` with `echo: true` (lm-evaluation-harness
// `loglikelihood`, docs/spec/judges.md §10.4, or NeMo BYOB's rule): `max_tokens: 0` first, 1 when the server
// refuses 0 (vLLM), the continuation's tokens located by `continuationTokens` of @evalkern/metrics (code-point
// offsets; tokens at or past the prompt's end were generated and never count, however many the server returns).
import type OpenAI from "openai";
import { continuationTokens, type ContinuationSpanRule } from "@evalkern/metrics";
import { JudgeOutputError, UnsupportedCapabilityError } from "../errors.js";
import type { ContinuationScore, JudgeUsage } from "../model.js";
import { addUsage } from "../usage.js";
import { finishUsage, type CallState } from "../layers/call.js";
import type { RetryingTransport } from "../layers/retrying.js";
import { CapabilityRejection } from "../layers/transport.js";
import type { RawUsage } from "./shared.js";

/** What scoring needs of its judge: the transport with its retries, and the echo capability it learns. */
export interface EchoHost {
  readonly model: string;
  readonly name: string;
  readonly transport: RetryingTransport;
  /** A server refused `max_tokens: 0` before: send 1. */
  oneToken(): boolean;
  needOneToken(): void;
  echoSupported(supported: boolean): void;
  zeroUsage(): JudgeUsage;
  usageOf(raw: RawUsage | undefined | null, responseModel: string | undefined, latencyMs: number): JudgeUsage;
}

/** One continuation's score (uncached), with the usage it spent. */
export async function scoreContinuation(
  host: EchoHost,
  context: string,
  continuation: string,
  signal: AbortSignal | undefined,
  spanRule: ContinuationSpanRule = "lm-eval",
): Promise<ContinuationScore & { usage: JudgeUsage; cached: boolean }> {
  const started = Date.now();
  const state: CallState = { usage: host.zeroUsage(), requests: 0 };
  for (let step = 0; step < 2; step++) {
    const oneToken = host.oneToken();
    const body: Record<string, unknown> = {
      model: host.model,
      prompt: context + continuation,
      echo: true,
      max_tokens: oneToken ? 1 : 0,
      logprobs: 1,
      temperature: 0,
    };
    let response: OpenAI.Completions.Completion;
    let latency: number;
    try {
      ({ response, latency } = await host.transport.send<OpenAI.Completions.Completion>("completions", body, signal, state));
    } catch (error) {
      if (error instanceof CapabilityRejection) {
        if (error.perSchema && !oneToken) {
          host.needOneToken();
          continue;
        }
        host.echoSupported(false);
        const message = `${host.name} rejected an echo/logprobs completions request`;
        throw new UnsupportedCapabilityError("echo", message, { cause: error.original });
      }
      throw host.transport.finalError(error, state);
    }
    state.usage = addUsage(state.usage, host.usageOf(response.usage as RawUsage | undefined, response.model, latency));
    const usage = finishUsage(state, started);
    const lp = response.choices?.[0]?.logprobs as
      | {
          tokens?: string[];
          token_logprobs?: (number | null)[];
          top_logprobs?: (Record<string, number> | null)[] | null;
          text_offset?: number[];
        }
      | null
      | undefined;
    const tokens = lp?.tokens;
    const tokenLogprobs = lp?.token_logprobs;
    const offsets = lp?.text_offset;
    if (!tokens || !tokenLogprobs || !offsets || tokens.length !== tokenLogprobs.length || offsets.length !== tokens.length) {
      const message = "the completions reply has no echoed token logprobs (tokens, token_logprobs, text_offset)";
      const text = JSON.stringify(response.choices?.[0] ?? null).slice(0, 500);
      throw new JudgeOutputError("missing_logprobs", message, { attempts: 1, text }, { usage });
    }
    host.echoSupported(true);
    // offsets are code points (Python str offsets), located in one place for every client
    const span = continuationTokens(context, continuation, offsets, { spanRule });
    if (!span) {
      const text = tokens.join("");
      throw new JudgeOutputError("missing_logprobs", "no echoed token falls in the continuation", { attempts: 1, text }, { usage });
    }
    const summed = sumSpan(lp?.top_logprobs, tokens, tokenLogprobs, span, spanRule);
    if (typeof summed === "string") {
      throw new JudgeOutputError("missing_logprobs", summed, { attempts: 1, text: tokens.join("") }, { usage });
    }
    return { ...summed, usage, cached: false };
  }
  throw new UnsupportedCapabilityError("echo", `${host.name} rejected both max_tokens 0 and 1 for echo scoring`);
}

/**
 * The continuation's summed logprob, greedy flag and token count over `[start, end)`, or why there is none.
 * lm-eval needs every token's logprob; BYOB leaves tokens without one out of the sum (and has nothing to
 * score when none has one) and calls a token without `top_logprobs` not greedy.
 */
function sumSpan(
  topLogprobs: readonly (Record<string, number> | null)[] | null | undefined,
  tokens: readonly string[],
  tokenLogprobs: readonly (number | null)[],
  { start, end }: { readonly start: number; readonly end: number },
  spanRule: ContinuationSpanRule,
): ContinuationScore | string {
  let logprob = 0;
  let tokenCount = 0;
  let isGreedy = true;
  for (let i = start; i < end; i++) {
    const value = tokenLogprobs[i];
    if (typeof value === "number") {
      logprob += value;
      tokenCount++;
    } else if (spanRule !== "byob") {
      return `token ${i} of the echo has no logprob`;
    }
    const top = topLogprobs?.[i];
    if (!top) {
      isGreedy = false;
      continue;
    }
    let best: string | undefined;
    let bestLp = -Infinity;
    for (const [token, tokenLp] of Object.entries(top)) {
      if (tokenLp > bestLp) {
        bestLp = tokenLp;
        best = token;
      }
    }
    if (best !== tokens[i]) isGreedy = false;
  }
  if (tokenCount === 0) return "no continuation token of the echo has a logprob";
  return { logprob, isGreedy, tokenCount };
}
