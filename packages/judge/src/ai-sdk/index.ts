// @evalkern/judge/ai-sdk: any Vercel AI SDK language model as a judge (`fromAiSdk`), and model names with a
// provider prefix (`"anthropic:claude-sonnet-4-5"`). `ai` is an optional peer dependency, imported on
// first use; nothing here imports it at load.
export { AiSdkJudge, fromAiSdk, providerName, type AiSdkJudgeOptions, type AiSdkModelIdentity } from "./judge.js";
export type { AiSdkLanguageModel } from "./transport.js";
export { classifyAiSdkError } from "./classify.js";
export { PROVIDER_PACKAGES, parseProviderModel, type ProviderModelName, type ProviderPackage } from "./providers.js";
export { judgeFromProviderName, type ProviderSettingsOptions } from "./named.js";
export { JudgeProviderPackageError } from "../errors.js";
