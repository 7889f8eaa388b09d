// Model names with a provider prefix (`"anthropic:claude-sonnet-4-5"`, `"google:gemini-2.5-flash"`,
// `"ollama:qwen3:8b"`): the prefix names an AI SDK provider package, imported on first use, whose
// factory builds the language model the AI SDK adapter judges with. Only the prefixes listed here count,
// so OpenAI-compatible model names that contain a colon (`"qwen2.5:7b"`) keep their meaning.
import { JudgeConfigError, JudgeProviderPackageError } from "../errors.js";
import { importModule, isMissingModule, type ModuleImporter } from "./load.js";

/** An AI SDK provider package: what to import and which factory builds a provider from settings. */
export interface ProviderPackage {
  /** The npm package. */
  readonly packageName: string;
  /** Its factory of configured providers (`createAnthropic`), called with `providerSettings`. */
  readonly factory: string;
  /** Its default provider instance (`anthropic`), configured from the provider's environment variables. */
  readonly instance: string;
}

/** The provider prefixes a model name may carry, and their packages. */
export const PROVIDER_PACKAGES: Readonly<Record<string, ProviderPackage>> = Object.freeze({
  anthropic: { packageName: "@ai-sdk/anthropic", factory: "createAnthropic", instance: "anthropic" },
  google: { packageName: "@ai-sdk/google", factory: "createGoogleGenerativeAI", instance: "google" },
  openai: { packageName: "@ai-sdk/openai", factory: "createOpenAI", instance: "openai" },
  "amazon-bedrock": { packageName: "@ai-sdk/amazon-bedrock", factory: "createAmazonBedrock", instance: "bedrock" },
  bedrock: { packageName: "@ai-sdk/amazon-bedrock", factory: "createAmazonBedrock", instance: "bedrock" },
  "google-vertex": { packageName: "@ai-sdk/google-vertex", factory: "createVertex", instance: "vertex" },
  vertex: { packageName: "@ai-sdk/google-vertex", factory: "createVertex", instance: "vertex" },
  azure: { packageName: "@ai-sdk/azure", factory: "createAzure", instance: "azure" },
  mistral: { packageName: "@ai-sdk/mistral", factory: "createMistral", instance: "mistral" },
  groq: { packageName: "@ai-sdk/groq", factory: "createGroq", instance: "groq" },
  xai: { packageName: "@ai-sdk/xai", factory: "createXai", instance: "xai" },
  deepseek: { packageName: "@ai-sdk/deepseek", factory: "createDeepSeek", instance: "deepseek" },
  cohere: { packageName: "@ai-sdk/cohere", factory: "createCohere", instance: "cohere" },
  ollama: { packageName: "ollama-ai-provider-v2", factory: "createOllama", instance: "ollama" },
});

/** A prefixed model name taken apart. */
export interface ProviderModelName {
  readonly provider: string;
  readonly modelId: string;
  readonly package: ProviderPackage;
}

/**
 * The provider and model of `name` when it starts with a known provider prefix, else undefined.
 *
 * @example
 * parseProviderModel("anthropic:claude-sonnet-4-5"); // { provider: "anthropic", modelId: "claude-sonnet-4-5", ... }
 * parseProviderModel("qwen2.5:7b"); // undefined: not a provider prefix
 */
export function parseProviderModel(name: string): ProviderModelName | undefined {
  const colon = name.indexOf(":");
  if (colon <= 0) return undefined;
  const provider = name.slice(0, colon).trim().toLowerCase();
  if (!Object.prototype.hasOwnProperty.call(PROVIDER_PACKAGES, provider)) return undefined;
  const modelId = name.slice(colon + 1).trim();
  if (modelId === "") {
    throw new JudgeConfigError(`"${name}": a model name follows the provider prefix, e.g. "${provider}:<model id>"`, {
      argument: "model",
      actual: name,
    });
  }
  return { provider, modelId, package: PROVIDER_PACKAGES[provider] as ProviderPackage };
}

type ProviderFn = (modelId: string) => unknown;

/**
 * The language model of a prefixed name, from its provider package: the package's default provider
 * (configured by the provider's own environment variables, e.g. `ANTHROPIC_API_KEY`), or one built by its
 * factory with `settings` (`{ apiKey, baseURL, headers }`...). Throws `JudgeProviderPackageError` naming
 * the package when it is not installed.
 */
export async function loadProviderModel(
  parsed: ProviderModelName,
  settings: Readonly<Record<string, unknown>> | undefined,
  importer: ModuleImporter = importModule,
): Promise<unknown> {
  const { packageName, factory, instance } = parsed.package;
  let module: Record<string, unknown>;
  try {
    module = await importer(packageName);
  } catch (error) {
    if (!isMissingModule(error, packageName)) throw error;
    throw new JudgeProviderPackageError(
      packageName,
      parsed.provider,
      `The judge model "${parsed.provider}:${parsed.modelId}" needs the AI SDK provider package '${packageName}' ` +
        `(and 'ai'): npm install ${packageName} ai`,
      { cause: error },
    );
  }
  const provider = settings && Object.keys(settings).length > 0 ? callFactory(module[factory], settings) : module[instance];
  if (typeof provider !== "function") {
    const what = settings ? `${factory}()` : `'${instance}'`;
    throw new JudgeConfigError(`'${packageName}' has no ${what} provider; is it an AI SDK provider package?`, {
      argument: "model",
      actual: `${parsed.provider}:${parsed.modelId}`,
    });
  }
  return (provider as ProviderFn)(parsed.modelId);
}

function callFactory(factory: unknown, settings: Readonly<Record<string, unknown>>): unknown {
  return typeof factory === "function" ? (factory as (s: Readonly<Record<string, unknown>>) => unknown)(settings) : undefined;
}
