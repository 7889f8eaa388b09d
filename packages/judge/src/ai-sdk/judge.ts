// `AiSdkJudge`: any Vercel AI SDK language model as a `JudgeModel` (Anthropic, Google, Bedrock, Ollama...
// through their AI SDK provider packages). It is the OpenAI-compatible judge's composition with another
// bottom layer: the AI SDK transport and its error classifier under the same retry layer, structured-output
// ladder (re-asks), cache and ledger. `ai` is an optional peer dependency, imported on the first live call
// (a replay from the cache needs none).
import type { JudgeCache } from "../cache/cache.js";
import { JudgeConfigError } from "../errors.js";
import { JudgeCore, type JudgeCoreOptions } from "../layers/core.js";
import type { LadderCapabilities, StructuredLadder } from "../layers/ladder.js";
import type { ConcurrencyLimiter } from "../limiter.js";
import type { GenerateRequest, GenerateResult, JudgeCapabilities, JudgeModel, JudgeUsage } from "../model.js";
import type { RetryPolicy } from "../retry.js";
import type { ModelPrice, UsageLedger } from "../usage.js";
import { classifyAiSdkError } from "./classify.js";
import { loadAi } from "./load.js";
import { AiSdkTransport, aiSdkComplete, aiSdkUsage, type AiSdkLanguageModel, type AiSdkRuntime } from "./transport.js";

export interface AiSdkJudgeOptions extends JudgeCoreOptions {
  /** Name reported as `evaluationModel`; default `<provider>:<modelId>` (`"anthropic:claude-sonnet-4-5"`). */
  readonly name?: string;
  /** What the model can do. `supportsJsonSchema: false` starts at JSON mode; `supportsTemperature: false` sends none. */
  readonly capabilities?: Pick<JudgeCapabilities, "supportsJsonSchema" | "supportsJsonObject" | "supportsTemperature">;
  /** Default reply-token limit (`maxOutputTokens`; unset = the provider's default). */
  readonly maxTokens?: number;
  /** The AI SDK's `providerOptions` sent with every call (`{ anthropic: { thinking: ... } }`). */
  readonly providerOptions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Who the model is, known before it is loaded. */
export interface AiSdkModelIdentity {
  /** The provider's short name (`"anthropic"`): the part of the SDK's `provider` before the first dot. */
  readonly provider: string;
  readonly modelId: string;
}

/** The short provider name of an SDK `provider` string (`"anthropic.messages"` → `"anthropic"`). */
export function providerName(provider: string): string {
  return provider.split(".")[0] || provider;
}

function isModelObject(model: unknown): model is AiSdkLanguageModel {
  if (typeof model !== "object" || model === null) return false;
  const m = model as { modelId?: unknown; provider?: unknown; doGenerate?: unknown };
  return typeof m.modelId === "string" && typeof m.provider === "string" && typeof m.doGenerate === "function";
}

/**
 * A judge over an AI SDK language model. Usually made by `fromAiSdk(model)`, or from a prefixed model
 * name (`"anthropic:claude-sonnet-4-5"`) by `resolveJudge`.
 */
export class AiSdkJudge implements JudgeModel {
  readonly specificationVersion = 1 as const;
  readonly name: string;
  readonly provider: string;
  readonly modelId: string;
  readonly limiter: ConcurrencyLimiter;
  readonly ledger: UsageLedger;
  readonly cache: JudgeCache | undefined;
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly maxReasks: number;
  /** The AI SDK offers no token logprobs across providers: G-Eval then scores the reply's number. */
  readonly supportsLogprobs = false;
  private readonly core: JudgeCore;
  private readonly ladder: StructuredLadder;
  private readonly caps: LadderCapabilities;
  private readonly supportsTemperature: boolean;
  private runtime: Promise<AiSdkRuntime> | undefined;

  /**
   * `model` is an AI SDK language model, or a loader of one (`identity` then names it before it loads).
   */
  constructor(model: AiSdkLanguageModel | (() => Promise<unknown>), options: AiSdkJudgeOptions = {}, identity?: AiSdkModelIdentity) {
    if (typeof options !== "object" || options === null) throw new JudgeConfigError("options must be an object", { argument: "options" });
    const loader = typeof model === "function" ? model : undefined;
    if (!loader && !isModelObject(model)) {
      throw new JudgeConfigError(
        'fromAiSdk(model): expected an AI SDK language model object (such as anthropic("claude-sonnet-4-5")); ' +
          'for a model name use the prefixed form "anthropic:claude-sonnet-4-5"',
        { argument: "model" },
      );
    }
    const given = model as AiSdkLanguageModel;
    const id = identity ?? { provider: providerName(given.provider), modelId: given.modelId };
    this.provider = id.provider;
    this.modelId = id.modelId;
    this.name = options.name ?? `${id.provider}:${id.modelId}`;
    const core = new JudgeCore(options, id.modelId);
    this.core = core;
    this.timeoutMs = core.timeoutMs;
    this.maxReasks = core.maxReasks;
    this.retry = core.retry;
    this.limiter = core.limiter;
    this.ledger = core.ledger;
    this.cache = core.cache;
    const caps = options.capabilities ?? {};
    this.caps = { supportsJsonSchema: caps.supportsJsonSchema, supportsJsonObject: caps.supportsJsonObject, supportsLogprobs: false };
    this.supportsTemperature = caps.supportsTemperature ?? true;

    const load = async (): Promise<AiSdkRuntime> => {
      const ai = await loadAi();
      const loaded = loader ? await loader() : model;
      if (!isModelObject(loaded)) {
        throw new JudgeConfigError(`${this.name}: the provider did not return a language model`, { argument: "model" });
      }
      return { ai, model: loaded };
    };
    const runtime = (): Promise<AiSdkRuntime> => {
      this.runtime ??= load().catch((error: unknown) => {
        this.runtime = undefined;
        throw error;
      });
      return this.runtime;
    };
    const bottom = new AiSdkTransport(runtime, this.timeoutMs);
    const transport = core.retrying({ transport: bottom, classify: classifyAiSdkError, baseURL: `the ${this.provider} provider (AI SDK)` });
    const defaults = () => ({
      supportsTemperature: this.supportsTemperature,
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      seed: options.seed,
      topP: options.topP,
      providerOptions: options.providerOptions,
    });
    const usageOf = (usage: Parameters<typeof aiSdkUsage>[0], responseModel: string | undefined, latencyMs: number): JudgeUsage =>
      aiSdkUsage(usage, this.priceOf(responseModel), latencyMs);
    this.ladder = core.ladder(aiSdkComplete(transport, runtime, defaults, usageOf, this.modelId), this.caps);
  }

  /** What is known about the model now (a refused rung updates it). */
  get capabilities(): JudgeCapabilities {
    return {
      ...(this.caps.supportsJsonSchema !== undefined ? { supportsJsonSchema: this.caps.supportsJsonSchema } : {}),
      ...(this.caps.supportsJsonObject !== undefined ? { supportsJsonObject: this.caps.supportsJsonObject } : {}),
      supportsLogprobs: false,
      supportsTemperature: this.supportsTemperature,
      supportsEcho: false,
    };
  }

  /** The price of this model: `price`, else `prices`, else the bundled table. Undefined when unknown. */
  get price(): ModelPrice | undefined {
    return this.priceOf(undefined);
  }

  /** True when a price is known: metrics then report `evaluationCost`. */
  get reportsCost(): boolean {
    return this.price !== undefined;
  }

  private priceOf(responseModel: string | undefined): ModelPrice | undefined {
    return this.core.priceOf(this.modelId, responseModel);
  }

  /** The ladder (over the SDK's object generation), wrapped in the cache when there is one, and the ledger. */
  async generate<T = string>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
    const names = { cacheModel: `${this.provider}:${this.modelId}`, ledgerModel: this.name, topLogprobs: false };
    return this.core.generate(this.ladder, request, { ...names, supportsTemperature: this.supportsTemperature });
  }
}

/**
 * Any AI SDK language model as a judge: structured output through the SDK's object generation (re-asked
 * on a reply that does not validate), usage and cost booked in the judge's ledger, the replay cache as for
 * every judge. `ai` (version 6) must be installed; it is imported on the first live call.
 *
 * @example
 * import { anthropic } from "@ai-sdk/anthropic";
 * const judge = fromAiSdk(anthropic("claude-sonnet-4-5"), { cache: new JudgeCache() });
 * const metric = new FaithfulnessMetric({ model: judge });
 */
export function fromAiSdk(model: AiSdkLanguageModel, options: AiSdkJudgeOptions = {}): AiSdkJudge {
  return new AiSdkJudge(model, options);
}
