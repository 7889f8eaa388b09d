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
