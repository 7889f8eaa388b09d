// What every judge holds whatever its provider (the OpenAI-compatible one, the AI SDK adapter, a third one):
// the options of the shared layers, checked once; the price of a reply; the composition of the layers — the
// provider's transport under the retry layer, the structured-output ladder over the provider's `complete` —
// and `generate` as the ladder wrapped in the cache (when there is one) and the ledger. A provider brings
// only its transport, error classifier, `complete` and the model name its cache keys and ledger use.
import type { JudgeCache } from "../cache/cache.js";
import { JudgeInputError } from "../errors.js";
import { ConcurrencyLimiter } from "../limiter.js";
import type { GenerateRequest, GenerateResult } from "../model.js";
import { knownPrice } from "../prices.js";
import { retryPolicy, type RetryOptions, type RetryPolicy } from "../retry.js";
import { checkPriceTable, lookupPrice, UsageLedger, type ModelPrice, type PriceTable } from "../usage.js";
import { checkMessages, checkNumber } from "./call.js";
import { chatCacheSpec, throughCache } from "./cache.js";
import { StructuredLadder, type Complete, type LadderCapabilities } from "./ladder.js";
import { booked } from "./ledger.js";
import { RetryingTransport } from "./retrying.js";
import type { Classifier, Transport } from "./transport.js";

/** The options every judge takes, whatever its provider. */
export interface JudgeCoreOptions {
  /** Default 0 (not sent when `capabilities.supportsTemperature` is false). */
  readonly temperature?: number;
  readonly seed?: number;
  /** Default reply-token limit (unset = the server's or provider's default). */
  readonly maxTokens?: number;
  /** `top_p` sent with every generation (unset = not sent). */
  readonly topP?: number;
  /** Per-attempt timeout. Default 120 000 ms. */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  /** Extra asks after a reply that does not parse or validate. Default 2 (so at most 3 replies). */
  readonly maxReasks?: number;
  /** Re-ask with the bad reply and the validation error appended (default true) or with the same request. */
  readonly reaskWithFeedback?: boolean;
  /** The run's shared limiter. Default: a new one with `maxConcurrency` slots. */
  readonly limiter?: ConcurrencyLimiter;
  /** Default 8. Ignored when `limiter` is given. */
  readonly maxConcurrency?: number;
  /** Cache of identical calls; `false`/absent = none. */
  readonly cache?: JudgeCache | false;
  /**
   * Part of every cache key. The endpoint URL is deliberately not (as in DSPy), so a cache recorded
   * against one host replays against another; set this to tell apart servers that serve different weights
   * under the same model name.
   */
  readonly cacheNamespace?: string;
  /** Prices by model name (USD per million tokens). */
  readonly prices?: PriceTable;
  /** The price of this model (overrides `prices`). */
  readonly price?: ModelPrice;
  /**
   * Fall back to the bundled, dated price table (`modelPrices()`, extended by `setModelPrices`) for
   * models neither `price` nor `prices` covers. Default true; false = only your prices count.
   */
  readonly bundledPrices?: boolean;
  /** Where calls are booked; share one between judges to total a run. Default: a new ledger. */
  readonly ledger?: UsageLedger;
}

/** The provider's bottom layer and how its failures read. */
export interface JudgeBottom {
  readonly transport: Transport;
  readonly classify: Classifier;
  /** Where requests go, for the messages of network errors. */
  readonly baseURL: string;
}

/** How a judge files its chat calls. */
export interface ChatCallNames {
  /** The model name in the cache key. */
  readonly cacheModel: string;
  /** The model name in the ledger. */
  readonly ledgerModel: string;
  /** Whether the judge sends a temperature (part of the cache key). */
  readonly supportsTemperature: boolean;
  /** Check `request.topLogprobs` (for a judge that sends them). */
  readonly topLogprobs: boolean;
}

/** The shared part of a judge: its checked options and the layers every provider reuses. */
export class JudgeCore {
  readonly limiter: ConcurrencyLimiter;
  readonly ledger: UsageLedger;
  readonly cache: JudgeCache | undefined;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly maxReasks: number;

  /** Checks the options; `model` is the judge's own model (the one `options.price` is the price of). */
  constructor(
    private readonly options: JudgeCoreOptions,
    readonly model: string,
  ) {
    if (options.maxTokens !== undefined) checkNumber(options.maxTokens, "options.maxTokens", 1, true);
    if (options.temperature !== undefined) checkNumber(options.temperature, "options.temperature", 0, false);
    this.timeoutMs = options.timeoutMs === undefined ? 120_000 : checkNumber(options.timeoutMs, "options.timeoutMs", 1, false);
    this.maxReasks = options.maxReasks === undefined ? 2 : checkNumber(options.maxReasks, "options.maxReasks", 0, true);
    this.retry = retryPolicy(options.retry);
    this.limiter = options.limiter ?? new ConcurrencyLimiter(options.maxConcurrency ?? 8);
    this.ledger = options.ledger ?? new UsageLedger();
    this.cache = options.cache ? options.cache : undefined;
    if (options.prices) checkPriceTable(options.prices, "options.prices");
    if (options.price) checkPriceTable({ [model]: options.price }, "options.price");
  }

  /**
   * The price of `model` (or of the model a reply names): `price` only for the judge's own model, else
   * `prices`, else the bundled table (looked up now, so prices set after construction count).
   */
  priceOf(model: string = this.model, responseModel?: string): ModelPrice | undefined {
    return (
      (model === this.model ? this.options.price : undefined) ??
      lookupPrice(this.options.prices, model, responseModel) ??
      (this.options.bundledPrices === false ? undefined : knownPrice(model, responseModel))
    );
  }

  /** The retry layer over the provider's transport. */
  retrying(bottom: JudgeBottom): RetryingTransport {
    return new RetryingTransport(bottom.transport, {
      limiter: this.limiter,
      retry: this.retry,
      timeoutMs: this.timeoutMs,
      baseURL: bottom.baseURL,
      classify: bottom.classify,
    });
  }

  /** The structured-output ladder over the provider's `complete`, learning into `caps`. */
  ladder(complete: Complete, caps: LadderCapabilities): StructuredLadder {
    return new StructuredLadder(complete, caps, { maxReasks: this.maxReasks, reaskWithFeedback: this.options.reaskWithFeedback !== false });
  }

  /** `generate` of a judge: the request checked, then the ladder, wrapped in the cache when there is one, and the ledger. */
  async generate<T>(ladder: StructuredLadder, request: GenerateRequest<T>, names: ChatCallNames): Promise<GenerateResult<T>> {
    if (typeof request !== "object" || request === null) {
      throw new JudgeInputError("request must be an object", { argument: "request" });
    }
    const messages = checkMessages(request.messages);
    if (names.topLogprobs && request.topLogprobs !== undefined) checkNumber(request.topLogprobs, "request.topLogprobs", 0, true);
    if (request.maxTokens !== undefined) checkNumber(request.maxTokens, "request.maxTokens", 1, true);
    request.signal?.throwIfAborted?.();
    const live = () => ladder.generate(request, messages);
    const cache = this.cache;
    const o = this.options;
    const spec = () =>
      chatCacheSpec(request, messages, {
        namespace: o.cacheNamespace ?? null,
        model: names.cacheModel,
        supportsTemperature: names.supportsTemperature,
        temperature: o.temperature,
        maxTokens: o.maxTokens,
        seed: o.seed,
        topP: o.topP,
      });
    const tag = { metric: request.metric, model: names.ledgerModel, endpoint: "chat" as const };
    return booked(this.ledger, tag, cache ? () => throughCache(cache, spec(), live) : live);
  }
}
