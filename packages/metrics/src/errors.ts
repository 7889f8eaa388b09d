// Typed errors of @evalkern/metrics. They share core-wasm's base (`EvalkernError`, with a
// `Symbol.for` marker so `isInstance` works across duplicate package copies).
import { EvalkernError, InvalidArgumentError } from "@evalkern/core-wasm";

export { EvalkernError, InvalidArgumentError };

/**
 * The original raised a Python exception here; `pythonType` names it (`ValueError`, `TypeError`,
 * `re.error`, ...), as the golden files record it.
 */
export class PythonCompatError extends EvalkernError {
  override name = "PythonCompatError";
  override readonly code: string = "PYTHON_COMPAT";
  readonly pythonType: string;
  constructor(pythonType: string, message: string) {
    super(`${pythonType}: ${message}`);
    this.pythonType = pythonType;
  }
}

/**
 * An options object has a key the metric does not know (a typo such as `command` for `commands`, or an
 * option of another metric). Names the metric and the key, and the closest known key when there is one.
 */
export class UnknownOptionError extends InvalidArgumentError {
  override name = "UnknownOptionError";
  override readonly code: string = "UNKNOWN_OPTION";
  /** The metric (class or function) the options were for. */
  readonly metric: string;
  /** The unknown key. */
  readonly key: string;
  /** Every option the metric accepts. */
  readonly known: readonly string[];
  /** The known key closest to `key` (case or a small typo), if any. */
  readonly suggestion: string | undefined;
  constructor(metric: string, key: string, known: readonly string[], options: { argument?: string; suggestion?: string } = {}) {
    const argument = `${options.argument ?? "options"}.${key}`;
    const hint = options.suggestion === undefined ? "" : ` (did you mean "${options.suggestion}"?)`;
    super(`${metric}: unknown option "${key}"${hint}; known options: ${known.length > 0 ? known.join(", ") : "none"}`, {
      argument,
      expected: known.length > 0 ? `one of ${known.join(", ")}` : "no options",
      actual: key,
    });
    this.metric = metric;
    this.key = key;
    this.known = Object.freeze([...known]);
    this.suggestion = options.suggestion;
  }
}
