// Where a metric's judge comes from when it is not given as an object: a model *name* builds the
// OpenAI-compatible judge from the environment (DeepEval's `model="gpt-4o-mini"`), and no model at all
// falls back to the default judge set with `configure({ judge })` / `context({ judge }, fn)` (DSPy's
// `dspy.configure(lm=...)` / `dspy.context(lm=...)`). No AsyncLocalStorage: a module-level stack, so
// it works the same in Node, Deno, Bun and browsers.
import { OpenAICompatibleJudge, type OpenAICompatibleJudgeOptions } from "./client.js";
import { ENV, readEnv, type EnvSource } from "./env.js";
import { JudgeConfigError } from "./errors.js";
import type { JudgeModel } from "./model.js";

/** The OpenAI SDK's variables, read after evalkern's own `EVALKERN_JUDGE_*` ones. */
export const OPENAI_ENV = Object.freeze({ apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL" });

/** What `configure` / `context` set. */
export interface JudgeDefaults {
  /** The default judge: a `JudgeModel`, or a model name built from the environment. */
  readonly judge?: JudgeModel | string | null;
  /** Options for judges built from a model name (base URL, key, prices, concurrency...). */
  readonly judgeOptions?: Omit<OpenAICompatibleJudgeOptions, "model">;
}

let globals: JudgeDefaults = Object.freeze({});
const stack: JudgeDefaults[] = [];

function checkDefaults(values: unknown, where: string): JudgeDefaults {
  if (typeof values !== "object" || values === null || Array.isArray(values)) {
    throw new JudgeConfigError(`${where}: expected an object such as { judge }`, { argument: "values" });
  }
  const record = values as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== "judge" && key !== "judgeOptions") {
      throw new JudgeConfigError(`${where}: unknown setting '${key}' (known: judge, judgeOptions)`, { argument: key });
    }
  }
  const judge = record.judge;
  if (judge !== undefined && judge !== null && typeof judge !== "string" && !isJudgeModel(judge)) {
    throw new JudgeConfigError(`${where}: 'judge' must be a JudgeModel or a model name`, { argument: "judge" });
  }
  return record as JudgeDefaults;
}

function isJudgeModel(value: unknown): value is JudgeModel {
  return typeof value === "object" && value !== null && typeof (value as JudgeModel).generate === "function";
}

/** The defaults in effect: the innermost `context()`, over the `configure()`d globals. */
export function judgeDefaults(): JudgeDefaults {
  let merged: JudgeDefaults = globals;
  for (const layer of stack) merged = { ...merged, ...layer };
  return merged;
}

/**
 * Set the default judge for every metric constructed without a `model` (DSPy `dspy.configure(lm=...)`).
 *
 * @example
 * configure({ judge: new OpenAICompatibleJudge({ baseURL: "http://127.0.0.1:8000/v1", model: "qwen" }) });
 * configure({ judge: "gpt-4o-mini" }); // built from OPENAI_API_KEY / OPENAI_BASE_URL on first use
 */
export function configure(values: JudgeDefaults): void {
  globals = Object.freeze({ ...globals, ...checkDefaults(values, "configure") });
}

/**
 * Run `fn` with `values` over the current defaults (DSPy `with dspy.context(lm=...)`). The layer is
 * removed when `fn` returns, or when the promise it returns settles.
 *
 * Details: a module-level stack, not async context. Metrics read the default judge when they are
 * *constructed* (and, if none was set then, when they first measure), so metrics built inside `fn`
 * keep its judge for good, whatever runs concurrently.
 *
 * Gotchas: two overlapping asynchronous `context()` calls see each other's layers while both are open;
 * construct the metrics inside each (or pass `model`) rather than relying on the stack at call time.
 *
 * @example
 * const score = await context({ judge }, () => new SemanticF1().call(example, prediction));
 */
export function context<R>(values: JudgeDefaults, fn: () => R): R {
  const layer = Object.freeze(checkDefaults(values, "context"));
  if (typeof fn !== "function") throw new JudgeConfigError("context(values, fn): fn must be a function", { argument: "fn" });
  stack.push(layer);
  const pop = (): void => {
    const index = stack.lastIndexOf(layer);
    if (index >= 0) stack.splice(index, 1);
  };
  let result: R;
  try {
    result = fn();
  } catch (error) {
    pop();
    throw error;
  }
  if (result !== null && typeof result === "object" && typeof (result as { then?: unknown }).then === "function") {
    return (result as unknown as Promise<unknown>).then(
      (value) => {
        pop();
        return value;
      },
      (error: unknown) => {
        pop();
        throw error;
      },
    ) as R;
  }
  pop();
  return result;
}

/** Forget `configure()`d defaults and open contexts (for tests). */
export function resetJudgeDefaults(): void {
  globals = Object.freeze({});
  stack.length = 0;
  built.clear();
}

const built = new Map<string, OpenAICompatibleJudge>();

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
export function judgeFromModelName(model: string, options: Omit<OpenAICompatibleJudgeOptions, "model"> = {}, env?: EnvSource): OpenAICompatibleJudge {
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
    if (existing) return existing;
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
  if (isJudgeModel(model)) return model;
  if (typeof model === "string") return judgeFromModelName(model, judgeDefaults().judgeOptions ?? {});
  if (model !== undefined && model !== null) {
    throw new JudgeConfigError(`${owner}: 'model' must be a JudgeModel or a model name such as "gpt-4o-mini"`, { argument: "options.model" });
  }
  const fallback = defaultJudge();
  if (fallback) return fallback;
  throw new JudgeConfigError(
    `${owner} needs a judge: pass options.model (a JudgeModel or a model name such as "gpt-4o-mini"), or set a default with configure({ judge }) or context({ judge }, fn)`,
    { argument: "options.model" },
  );
}

/** The default judge in effect (built from its name if it is one), or undefined. */
export function defaultJudge(): JudgeModel | undefined {
  const defaults = judgeDefaults();
  const judge = defaults.judge;
  if (judge === undefined || judge === null) return undefined;
  return typeof judge === "string" ? judgeFromModelName(judge, defaults.judgeOptions ?? {}) : judge;
}
