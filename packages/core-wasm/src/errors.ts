const MARKER = Symbol.for("evalkern.error");

/**
 * Base of every error evalkern throws on purpose. `isInstance` works across duplicate copies of the
 * package (it checks a `Symbol.for` marker, not the prototype chain).
 */
export class EvalkernError extends Error {
  readonly [MARKER] = true;
  override name = "EvalkernError";
  /**
   * Stable identifier of this error class (`EVALKERN_ERROR`, `INVALID_ARGUMENT`, `INPUT_TOO_LARGE`,
   * `OUT_OF_MEMORY`, `NOT_READY`, `KERNEL_ABORT`, ...), for programs and logs: match on it, not on messages.
   */
  readonly code: string = "EVALKERN_ERROR";
  static isInstance(value: unknown): value is EvalkernError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

export interface InvalidArgumentContext {
  /** The argument (or option) at fault, e.g. `refs` or `options.tokenize`. */
  readonly argument: string;
  /** Index of the offending item in a batch, when there is one. */
  readonly index?: number;
  /** What was expected, in words. */
  readonly expected?: string;
  /** A short description of what was given. */
  readonly actual?: string;
}

/** Wrong type, wrong length, empty reference list, out-of-range option. */
export class InvalidArgumentError extends EvalkernError {
  override name = "InvalidArgumentError";
  override readonly code: string = "INVALID_ARGUMENT";
  readonly argument: string;
  readonly index: number | undefined;
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  constructor(message: string, context: InvalidArgumentContext) {
    super(message);
    this.argument = context.argument;
    this.index = context.index;
    this.expected = context.expected;
    this.actual = context.actual;
  }
}

/** `ready()` was not awaited before a synchronous kernel call. */
export class NotReadyError extends EvalkernError {
  override name = "NotReadyError";
  override readonly code: string = "NOT_READY";
  constructor() {
    super("evalkern kernels are not loaded: call `await ready()` once before using them");
  }
}

/** The WebAssembly module trapped or called `abort` (a bug in evalkern: please report it). */
export class KernelAbortError extends EvalkernError {
  override name = "KernelAbortError";
  override readonly code: string = "KERNEL_ABORT";
}

/** What an input-size limit applies to (see `INPUT_LIMITS`). */
export type InputLimitKind = "string" | "item" | "batch" | "pair" | "table" | "memory";

/**
 * An input past one of the documented size limits (`INPUT_LIMITS`): refused before any work, so a
 * huge row costs neither minutes nor gigabytes. `limit` and `size` are in `unit`; `size` is a lower
 * bound when counting it exactly would itself be costly (a string longer than the limit in UTF-16
 * code units is already too large in UTF-8 bytes).
 */
export class InputTooLargeError extends InvalidArgumentError {
  override name = "InputTooLargeError";
  override readonly code: string = "INPUT_TOO_LARGE";
  readonly kind: InputLimitKind;
  readonly limit: number;
  readonly size: number;
  readonly unit: string;
  constructor(message: string, context: InvalidArgumentContext & { kind: InputLimitKind; limit: number; size: number; unit: string }) {
    super(message, context);
    this.kind = context.kind;
    this.limit = context.limit;
    this.size = context.size;
    this.unit = context.unit;
  }
}

/**
 * The WebAssembly memory could not grow to what this input needs (the host refused more memory): the
 * input is refused and the module starts afresh, so the next call works normally.
 */
export class OutOfMemoryError extends EvalkernError {
  override name = "OutOfMemoryError";
  override readonly code: string = "OUT_OF_MEMORY";
}

/** A short, safe description of a value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === "string") return value.length > 40 ? `string(${value.length})` : JSON.stringify(value);
  if (typeof value === "object") return (value as object).constructor?.name ?? "object";
  return `${typeof value} ${String(value)}`;
}
