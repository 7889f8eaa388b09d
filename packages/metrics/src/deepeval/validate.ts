// Shape checks for test-case and option objects. Every failure is an InvalidArgumentError naming the
// owner (`LLMTestCase`, `Turn`, ...), the field, and what was given.
import { InvalidArgumentError } from "../errors.js";
import { describeValue, isPlainObject } from "./python-compat.js";

export function fail(owner: string, argument: string, expected: string, value: unknown, index?: number): never {
  const where = index === undefined ? `'${argument}'` : `'${argument}[${index}]'`;
  throw new InvalidArgumentError(`${owner}: ${where} must be ${expected}, got ${describeValue(value)}`, {
    argument,
    ...(index === undefined ? {} : { index }),
    expected,
    actual: describeValue(value),
  });
}

/** A metric's options must be an object (a typo such as `new Metric("x")` is refused, not ignored). */
export function expectOptions(owner: string, options: unknown): asserts options is Record<string, unknown> {
  if (typeof options !== "object" || options === null || Array.isArray(options)) fail(owner, "options", "an object", options);
}

/** The init object itself must be a plain object, and only known keys are accepted. */
export function expectInit(owner: string, init: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof init !== "object" || init === null || Array.isArray(init)) fail(owner, "init", "an object", init);
  const record = camelCaseKeys(owner, init as Record<string, unknown>);
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      throw new InvalidArgumentError(`${owner}: unknown field '${key}' (known fields: ${allowed.join(", ")})`, {
        argument: key,
        expected: allowed.join(" | "),
        actual: key,
      });
    }
  }
  return record;
}

export function requiredString(owner: string, argument: string, value: unknown): string {
  if (typeof value !== "string") fail(owner, argument, "a string", value);
  return value;
}

export function optionalString(owner: string, argument: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return requiredString(owner, argument, value);
}

export function optionalStringArray(owner: string, argument: string, value: unknown): readonly string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail(owner, argument, "an array of strings or null", value);
  value.forEach((item, index) => {
    if (typeof item !== "string") fail(owner, argument, "a string", item, index);
  });
  return Object.freeze([...(value as string[])]);
}

export function optionalRecord(owner: string, argument: string, value: unknown): Readonly<Record<string, unknown>> | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) fail(owner, argument, "a plain object or null", value);
  return value;
}

export function optionalFiniteNumber(owner: string, argument: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value)) fail(owner, argument, "a finite number or null", value);
  return value;
}

export function optionalBoolean(owner: string, argument: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") fail(owner, argument, "a boolean", value);
  return value;
}

/** Two spellings of one field (`metadata` / `additionalMetadata`): take whichever is given, not both. */
export function aliased(owner: string, record: Record<string, unknown>, name: string, alias: string): unknown {
  const hasName = record[name] !== undefined;
  const hasAlias = record[alias] !== undefined;
  if (hasName && hasAlias) {
    throw new InvalidArgumentError(`${owner}: give '${name}' or its alias '${alias}', not both`, {
      argument: alias,
      expected: `only '${name}'`,
      actual: "both",
    });
  }
  return hasName ? record[name] : record[alias];
}

/** `actual_output` → `actualOutput`; keys without an underscore (or with a leading one) are kept. */
export function snakeToCamel(key: string): string {
  if (!key.includes("_") || key.startsWith("_")) return key;
  return key.replace(/_+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * DeepEval's snake_case field names (`actual_output`, `retrieval_context`, `tools_called`, ...) as the
 * camelCase ones evalkern uses: the one mapping every test case, turn, tool call and golden goes
 * through. Both spellings of one field in one object are refused (which one would win is a guess).
 */
export function camelCaseKeys(owner: string, record: Record<string, unknown>): Record<string, unknown> {
  let changed = false;
  for (const key of Object.keys(record)) {
    if (snakeToCamel(key) !== key) {
      changed = true;
      break;
    }
  }
  if (!changed) return record;
  const out: Record<string, unknown> = {};
  const origin = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) {
    const name = snakeToCamel(key);
    const first = origin.get(name);
    if (first !== undefined) {
      const [a, b] = key.includes("_") ? [key, first] : [first, key];
      throw new InvalidArgumentError(`${owner}: '${a}' and '${b}' are the same field; give one`, {
        argument: key,
        expected: `only '${name}'`,
        actual: "both",
      });
    }
    origin.set(name, key);
    out[name] = value;
  }
  return out;
}

type CamelToSnake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${CamelToSnake<Tail>}`
  : S;

/** An init type with DeepEval's snake_case keys (`actualOutput` → `actual_output`). */
export type SnakeCased<T> = { [K in keyof T as K extends string ? CamelToSnake<K> : K]: T[K] };
