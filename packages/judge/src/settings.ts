// The one settings store of evalkern, DSPy's `dspy.configure(...)` / `with dspy.context(...)`: global
// values plus scoped overrides. It lives here, the lowest layer that reads it (a judge metric built
// without a model takes `settings().judge`); @evalkern/harness re-exports the same functions, adds its
// keys (`maxErrors`, `numThreads`...) and, where the runtime has one, hands the store an async context
// (Node's AsyncLocalStorage) so a `context()` follows every await of the call tree it started.
//
// Without an async context the scope is a stack whose layer stays until `fn` returns or the promise it
// returned settles, so it works the same in Node, Deno, Bun and browsers. The state sits on
// `globalThis` under a registered symbol, so two copies of this package (a bundle and node_modules, or
// the harness's copy and the user's) still share one store.
import { didYouMean } from "@evalkern/metrics/registry";
import type { OpenAICompatibleJudgeOptions } from "./client.js";
import { JudgeConfigError } from "./errors.js";
import type { JudgeModel } from "./model.js";

/**
 * Settings are free-form, as DSPy's are (a program may read its own keys with `settings()`); these keys
 * are read by evalkern itself.
 */
export interface Settings {
  /** The default judge of every judge metric built without a `model`: a `JudgeModel`, or a model name. */
  readonly judge?: JudgeModel | string | null;
  /** Options for judges built from a model name (base URL, key, prices, concurrency...). */
  readonly judgeOptions?: Omit<OpenAICompatibleJudgeOptions, "model">;
  /** Default `maxErrors` of the harness's `Evaluate` (DSPy's `dspy.settings.max_errors`, default 10). */
  readonly maxErrors?: number;
  /** Default `numThreads` of `Evaluate` (DSPy's `dspy.settings.num_threads`, default 8). */
  readonly numThreads?: number;
  /** Default `provideTraceback` of `Evaluate`. */
  readonly provideTraceback?: boolean;
  readonly [key: string]: unknown;
}

/** Carries the overrides of `context()` along a call tree (an AsyncLocalStorage, or the default stack). */
export interface SettingsScope {
  run<R>(overrides: Settings, fn: () => R): R;
  get(): Settings | undefined;
}

/** The keys evalkern reads: a free-form key one or two edits away from one of them is a typo, not a new key. */
const KNOWN_KEYS: readonly string[] = ["judge", "judgeOptions", "maxErrors", "numThreads", "provideTraceback"];

/** DSPy's defaults of the keys it shares with evalkern. */
const DEFAULTS: Settings = Object.freeze({ maxErrors: 10, numThreads: 8, provideTraceback: false });

interface Store {
  globals: Settings;
  scope: SettingsScope;
  readonly stack: SettingsScope & { clear(): void };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
  return typeof (value as { then?: unknown }).then === "function";
}

/** The default scope: a stack; a layer is removed when `fn` returns, or when the promise it returned settles. */
function stackScope(): SettingsScope & { clear(): void } {
  const layers: Settings[] = [];
  return {
    get: () => layers[layers.length - 1],
    clear: () => {
      layers.length = 0;
    },
    run<R>(overrides: Settings, fn: () => R): R {
      layers.push(overrides);
      const pop = (): void => {
        const index = layers.lastIndexOf(overrides);
        if (index >= 0) layers.splice(index, 1);
      };
      let result: R;
      try {
        result = fn();
      } catch (error) {
        pop();
        throw error;
      }
      if (!isThenable(result)) {
        pop();
        return result;
      }
      return Promise.resolve(result).then(
        (value) => {
          pop();
          return value;
        },
        (error: unknown) => {
          pop();
          throw error;
        },
      ) as R;
    },
  };
}

const STORE_KEY = Symbol.for("@evalkern/settings");

function store(): Store {
  const holder = globalThis as unknown as Record<symbol, Store | undefined>;
  let current = holder[STORE_KEY];
  if (current === undefined) {
    const stack = stackScope();
    current = { globals: DEFAULTS, scope: stack, stack };
    holder[STORE_KEY] = current;
  }
  return current;
}

function isJudgeModel(value: unknown): value is JudgeModel {
  return typeof value === "object" && value !== null && typeof (value as JudgeModel).generate === "function";
}

function checkSettings(values: unknown, where: string): Settings {
  if (typeof values !== "object" || values === null || Array.isArray(values)) {
    throw new JudgeConfigError(`${where}: expected an object of settings such as { judge }`, { argument: "values" });
  }
  const record = values as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (KNOWN_KEYS.includes(key)) continue;
    const near = didYouMean(key, KNOWN_KEYS);
    if (near !== undefined) {
      throw new JudgeConfigError(`${where}: setting '${key}' is not one evalkern reads; did you mean '${near}'?`, {
        argument: key,
        expected: near,
        actual: key,
      });
    }
  }
  const judge = record.judge;
  if (judge !== undefined && judge !== null && typeof judge !== "string" && !isJudgeModel(judge)) {
    throw new JudgeConfigError(`${where}: 'judge' must be a JudgeModel or a model name`, { argument: "judge" });
  }
  const judgeOptions = record.judgeOptions;
  if (judgeOptions !== undefined && (typeof judgeOptions !== "object" || judgeOptions === null || Array.isArray(judgeOptions))) {
    throw new JudgeConfigError(`${where}: 'judgeOptions' must be an object of judge options`, { argument: "judgeOptions" });
  }
  return record as Settings;
}

/** The settings in effect here: the global values overlaid by every enclosing `context()`. */
export function settings(): Settings {
  const { globals, scope } = store();
  const overrides = scope.get();
  return overrides === undefined ? globals : Object.freeze({ ...globals, ...overrides });
}

/**
 * Change the global settings (DSPy `dspy.configure(...)`); the overrides of an enclosing `context()`
 * still win for the keys they set. The same function is exported by `@evalkern/harness`.
 *
 * @example
 * configure({ judge: new OpenAICompatibleJudge({ baseURL: "http://127.0.0.1:8000/v1", model: "qwen" }) });
 * configure({ judge: "gpt-4o-mini", maxErrors: 3 }); // the judge is built from OPENAI_API_KEY on first use
 */
export function configure(values: Settings): void {
  const current = store();
  current.globals = Object.freeze({ ...current.globals, ...checkSettings(values, "configure") });
}

/**
 * Run `fn` with `values` over the current settings (DSPy `with dspy.context(...)`). The overrides end
 * when `fn` returns, or when the promise it returns settles. Contexts nest. The same function is
 * exported by `@evalkern/harness`.
 *
 * Details: judge metrics read the default judge when they are *constructed* (and, if none was set then,
 * when they first measure), so metrics built inside `fn` keep its judge for good.
 *
 * Gotchas: with the harness's Node entry loaded the overrides follow the async call tree
 * (AsyncLocalStorage). Without it they are a stack: two overlapping asynchronous `context()` calls then
 * see each other's values while both are open — construct the metrics inside each, or pass `model`.
 *
 * @example
 * const score = await context({ judge }, () => new SemanticF1().call(example, prediction));
 */
export function context<R>(values: Settings, fn: () => R): R {
  const checked = checkSettings(values, "context");
  if (typeof fn !== "function") throw new JudgeConfigError("context(values, fn): fn must be a function", { argument: "fn" });
  const { scope } = store();
  return scope.run(Object.freeze({ ...(scope.get() ?? {}), ...checked }), fn);
}

/**
 * Carry `context()` overrides with `scope` (an async context such as Node's AsyncLocalStorage); `null`
 * goes back to the default stack. The harness installs its runtime's async context here.
 */
export function setSettingsScope(scope: SettingsScope | null): void {
  const current = store();
  if (scope !== null && (typeof scope !== "object" || typeof scope.run !== "function" || typeof scope.get !== "function")) {
    throw new JudgeConfigError("setSettingsScope: expected { run(value, fn), get() } or null", { argument: "scope" });
  }
  current.scope = scope ?? current.stack;
}

/** Reset the global settings to the defaults and forget open stack contexts (for tests). */
export function resetSettings(): void {
  const current = store();
  current.globals = DEFAULTS;
  current.stack.clear();
}
