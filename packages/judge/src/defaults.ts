// Where a metric's judge comes from when it is not given as an object: a model *name* builds the
// OpenAI-compatible judge from the environment (DeepEval's `model="gpt-4o-mini"`), and no model at all
// falls back to the default judge set with `configure({ judge })` / `context({ judge }, fn)` (DSPy's
// `dspy.configure(lm=...)` / `dspy.context(lm=...)`), read from the one settings store (`settings.ts`).
// A name with a provider prefix (`"anthropic:claude-sonnet-4-5"`) builds the AI SDK judge instead.
import { judgeFromProviderName, type ProviderSettingsOptions } from "./ai-sdk/named.js";
import type { AiSdkJudgeOptions } from "./ai-sdk/judge.js";
import { OpenAICompatibleJudge, type OpenAICompatibleJudgeOptions } from "./client.js";
import { ENV, readEnv, type EnvSource } from "./env.js";
import { JudgeConfigError } from "./errors.js";
import type { JudgeModel } from "./model.js";
import { resetSettings, settings, type Settings } from "./settings.js";

/** The OpenAI SDK's variables, read after evalkern's own `EVALKERN_JUDGE_*` ones. */
export const OPENAI_ENV = Object.freeze({ apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" });

/** The judge keys of the settings (`configure({ judge, judgeOptions })`). */
export type JudgeDefaults = Pick<Settings, "judge" | "judgeOptions">;

/** The judge defaults in effect: the innermost `context()`, over the `configure()`d globals. */
export function judgeDefaults(): JudgeDefaults {
  const { judge, judgeOptions } = settings();
  return { ...(judge !== undefined ? { judge } : {}), ...(judgeOptions !== undefined ? { judgeOptions } : {}) };
}

/** Forget every setting, open stack contexts and the judges built from model names (for tests). */
export function resetJudgeDefaults(): void {
  resetSettings();
  built.clear();
}

const built = new Map<string, JudgeModel>();

/**
 * The OpenAI-compatible judge for a model name, configured from the environment: base URL from
 * `EVALKERN_JUDGE_BASE_URL`, else `OPENAI_BASE_URL`, else api.openai.com; key from
 * `EVALKERN_JUDGE_API_KEY`, else `OPENAI_API_KEY`. Options win over the environment. Judges built for
 * the same name, base URL, key and options are one instance, so metrics share its limiter, ledger and
 * cache. Cost comes from the bundled price table for well-known models (unknown models: null).
 *
 * @example
 * const judge = judgeFromModelName("gpt-4o-mini"); // needs OPENAI_API_KEY for api.openai.com
 */
export function judgeFromModelName(
  model: string,
  options: Omit<OpenAICompatibleJudgeOptions, "model"> = {},
  env?: EnvSource,
): OpenAICompatibleJudge {
  if (typeof model !== "string" || model.trim() === "") {
    throw new JudgeConfigError("a model name must be a non-empty string", { argument: "model" });
  }
  const source = env ?? options.env;
  const baseURL = options.baseURL ?? options.baseUrl ?? readEnv(ENV.baseURL, source) ?? readEnv(OPENAI_ENV.baseURL, source);
  const apiKey = options.apiKey ?? readEnv(ENV.apiKey, source) ?? readEnv(OPENAI_ENV.apiKey, source);
  const plain = Object.keys(options).length === 0;
  const key = JSON.stringify([model, baseURL ?? null, apiKey ?? null]);
  if (plain) {
    const existing = built.get(key);
    if (existing instanceof OpenAICompatibleJudge) return existing;
  }
  const judge = new OpenAICompatibleJudge({
    ...options,
    model,
    ...(baseURL !== undefined ? { baseURL } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
  });
  if (plain) built.set(key, judge);
  return judge;
}

/**
 * The judge a metric uses: the `JudgeModel` given; a judge built from a model name; or, with neither,
 * the default judge of `configure` / `context`. Throws `JudgeConfigError` naming `owner` when there is
 * none.
 */
export function resolveJudge(model: unknown, owner: string): JudgeModel {
  if (typeof model === "object" && model !== null && typeof (model as JudgeModel).generate === "function") return model as JudgeModel;
  if (typeof model === "string") return judgeFromName(model, judgeDefaults().judgeOptions ?? {});
  if (model !== undefined && model !== null) {
    throw new JudgeConfigError(`${owner}: 'model' must be a JudgeModel or a model name such as "gpt-4o-mini"`, {
      argument: "options.model",
    });
  }
  const fallback = defaultJudge();
  if (fallback) return fallback;
  throw new JudgeConfigError(
    `${owner} needs a judge: pass options.model (a JudgeModel or a model name such as "gpt-4o-mini"), or ` +
      `set a default with configure({ judge }) or context({ judge }, fn)`,
    { argument: "options.model" },
  );
}

/** The default judge in effect (built from its name if it is one), or undefined. */
export function defaultJudge(): JudgeModel | undefined {
  const defaults = judgeDefaults();
  const judge = defaults.judge;
  if (judge === undefined || judge === null) return undefined;
  return typeof judge === "string" ? judgeFromName(judge, defaults.judgeOptions ?? {}) : judge;
}

/**
 * The judge of a model name: the AI SDK judge for a name with a provider prefix (`"anthropic:claude-…"`,
 * `"google:gemini-…"`, `"ollama:qwen3:8b"`; the provider package is imported on the first call, and a
 * `JudgeProviderPackageError` names it when it is missing), else the OpenAI-compatible judge of
 * `judgeFromModelName`. Judges built from the same name without options are one instance.
 */
export function judgeFromName(model: string, options: Omit<OpenAICompatibleJudgeOptions, "model"> = {}): JudgeModel {
  if (typeof model !== "string" || model.trim() === "") {
    throw new JudgeConfigError("a model name must be a non-empty string", { argument: "model" });
  }
  const plain = Object.keys(options).length === 0;
  const key = JSON.stringify(["ai-sdk", model.trim()]);
  const existing = plain ? built.get(key) : undefined;
  if (existing) return existing;
  const named = judgeFromProviderName(model.trim(), options as AiSdkJudgeOptions & ProviderSettingsOptions);
  if (!named) return judgeFromModelName(model, options);
  if (plain) built.set(key, named);
  return named;
}
