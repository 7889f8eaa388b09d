// DSPy-style settings (`dspy.configure`, `dspy.context`): global defaults plus scoped overrides that
// follow the asynchronous call tree, so every concurrent worker started inside `context({...}, fn)`
// sees the same values (DSPy copies its thread-local overrides into each worker thread; here the
// runtime's async context does it).
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { onRuntimeChange, runtime, type AsyncContextAdapter } from "./runtime/runtime.js";

/** Settings are free-form; these keys are read by the harness itself. */
export interface Settings {
  /** Default `maxErrors` of `Evaluate` (DSPy's `dspy.settings.max_errors`, default 10). */
  readonly maxErrors?: number;
  /** Default `numThreads` of `Evaluate` (DSPy's `dspy.settings.num_threads`, default 8). */
  readonly numThreads?: number;
  /** Default `provideTraceback` of `Evaluate`. */
  readonly provideTraceback?: boolean;
  readonly [key: string]: unknown;
}

const DEFAULTS: Settings = Object.freeze({ maxErrors: 10, numThreads: 8, provideTraceback: false });

let globals: Settings = DEFAULTS;
let store: AsyncContextAdapter<Settings> = runtime().createAsyncContext<Settings>();
onRuntimeChange(() => {
  store = runtime().createAsyncContext<Settings>();
});

function checkObject(value: unknown, argument: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`${argument} must be an object of settings`, { argument });
  }
  return value as Record<string, unknown>;
}

/** The settings in effect here: global defaults overlaid by every enclosing `context()`. */
export function settings(): Settings {
  return store.get() ?? globals;
}

/**
 * Change the global defaults (DSPy `dspy.configure(...)`). Scoped `context()` overrides still win.
 *
 * @example
 * configure({ maxErrors: 3 });
 */
export function configure(values: Settings): void {
  globals = Object.freeze({ ...globals, ...checkObject(values, "values") });
}

/**
 * Run `fn` with `values` layered over the current settings (DSPy `with dspy.context(...)`). The values
 * reach everything `fn` starts, including every concurrent `Evaluate` worker and callbacks after
 * `await`, and end when `fn` (or the promise it returns) is done. Contexts nest.
 *
 * Gotchas: this needs an async-context capable runtime (Node's AsyncLocalStorage is installed by the
 * package entry). Worker *threads* (bulk scoring) do not share it: pass options explicitly there.
 *
 * @example
 * await context({ lm: "judge-a" }, () => evaluate.call(program)); // program sees settings().lm
 */
export function context<R>(values: Settings, fn: () => R): R {
  const merged = Object.freeze({ ...settings(), ...checkObject(values, "values") });
  if (typeof fn !== "function") throw new InvalidArgumentError("context(values, fn): fn must be a function", { argument: "fn" });
  return store.run(merged, fn);
}

/** Reset global settings to the defaults (for tests). */
export function resetSettings(): void {
  globals = DEFAULTS;
}
