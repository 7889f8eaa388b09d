// Construction-time validation of metric options (typed errors, never a silent default).
import { InvalidArgumentError } from "../errors.js";
import { rejectUnknownOptions } from "../options.js";

/**
 * `options` as an object (`{}` when undefined); `UnknownOptionError` naming `metric` and the key for a key
 * not in `known` (a record of every key of the options type, so the two cannot drift apart).
 */
export function checkOptionsObject<T extends object>(
  options: T | undefined,
  argument: string,
  metric: string,
  known: Readonly<Record<keyof NoInfer<T> & string, true>>,
): T | Record<string, never> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(`${argument} must be an options object`, { argument, actual: typeof options });
  }
  rejectUnknownOptions(options, known, metric, argument);
  return options;
}

export function checkString(value: unknown, argument: string): string {
  if (typeof value !== "string") {
    throw new InvalidArgumentError(`${argument} must be a string`, { argument, expected: "string", actual: typeof value });
  }
  return value;
}

export function optionalString(value: unknown, argument: string): string | undefined {
  return value === undefined ? undefined : checkString(value, argument);
}

export function checkBoolean(value: unknown, fallback: boolean, argument: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError(`${argument} must be a boolean`, { argument, expected: "boolean", actual: typeof value });
  }
  return value;
}

export function checkStringList(value: unknown, argument: string): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(`${argument} must be an array of strings`, { argument, actual: typeof value });
  }
  value.forEach((item, index) => {
    if (typeof item !== "string") {
      throw new InvalidArgumentError(`${argument}[${index}] must be a string`, { argument, index, actual: typeof item });
    }
  });
  return Object.freeze([...(value as string[])]);
}

/** dsrs's `usize`/`u64` options: a non-negative safe integer. */
export function optionalUnsigned(value: unknown, argument: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${argument} must be a non-negative integer`, {
      argument,
      expected: "a non-negative safe integer",
      actual: String(value),
    });
  }
  return value;
}

/** A positive finite number of milliseconds. */
export function optionalPositive(value: unknown, argument: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(`${argument} must be a positive finite number`, { argument, actual: String(value) });
  }
  return value;
}
