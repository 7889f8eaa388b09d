// A judge from a prefixed model name (`"anthropic:claude-sonnet-4-5"`): the AI SDK adapter over the
// provider package's model, loaded on the first live call. The judge options a name is resolved with
// (`configure({ judgeOptions })`) carry over: `apiKey`, `baseURL` and `headers` configure the provider,
// the rest (concurrency, cache, prices, ledger, retries, re-asks, generation defaults) the judge.
import { JudgeConfigError } from "../errors.js";
import { AiSdkJudge, type AiSdkJudgeOptions } from "./judge.js";
import type { ModuleImporter } from "./load.js";
import { loadProviderModel, parseProviderModel } from "./providers.js";

/** Judge options that configure the provider itself, not the judge. */
export interface ProviderSettingsOptions {
  readonly apiKey?: string;
  readonly baseURL?: string;
  readonly baseUrl?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Any other settings of the provider's factory (`region` of Bedrock, `project` of Vertex...). */
  readonly providerSettings?: Readonly<Record<string, unknown>>;
}

const JUDGE_KEYS = [
  "name",
  "capabilities",
  "temperature",
  "seed",
  "maxTokens",
  "topP",
  "providerOptions",
  "timeoutMs",
  "retry",
  "maxReasks",
  "reaskWithFeedback",
  "limiter",
  "maxConcurrency",
  "cache",
  "cacheNamespace",
  "prices",
  "price",
  "bundledPrices",
  "ledger",
] as const satisfies readonly (keyof AiSdkJudgeOptions)[];

/**
 * The AI SDK judge of a prefixed model name, or undefined when `name` has no known provider prefix.
 * The provider package is imported on the first live call; when it is not installed that call fails with
 * `JudgeProviderPackageError` naming the package.
 *
 * @example
 * const judge = judgeFromProviderName("google:gemini-2.5-flash"); // needs @ai-sdk/google, ai, GOOGLE_GENERATIVE_AI_API_KEY
 */
export function judgeFromProviderName(
  name: string,
  options: AiSdkJudgeOptions & ProviderSettingsOptions = {},
  importer?: ModuleImporter,
): AiSdkJudge | undefined {
  if (typeof name !== "string") throw new JudgeConfigError("a model name must be a string", { argument: "model" });
  const parsed = parseProviderModel(name);
  if (!parsed) return undefined;
  const baseURL = options.baseURL ?? options.baseUrl;
  const settings: Record<string, unknown> = {
    ...(options.providerSettings ?? {}),
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(baseURL !== undefined ? { baseURL } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
  };
  const judgeOptions: Record<string, unknown> = {};
  for (const key of JUDGE_KEYS) if (options[key] !== undefined) judgeOptions[key] = options[key];
  const load = () => loadProviderModel(parsed, Object.keys(settings).length > 0 ? settings : undefined, importer);
  return new AiSdkJudge(load, judgeOptions as AiSdkJudgeOptions, { provider: parsed.provider, modelId: parsed.modelId });
}
