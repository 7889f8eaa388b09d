// Reading DSPy fields from an `Example`/`Prediction` or a plain object, as text for a prompt.
import { Example } from "@evalkern/metrics/dsrs";
import { JudgeInputError } from "../errors.js";

/** An `Example`/`Prediction` or a plain object of fields. */
export type Fields = Example | Readonly<Record<string, unknown>>;

function has(source: Fields, key: string): boolean {
  return source instanceof Example ? source.has(key) : Object.prototype.hasOwnProperty.call(source, key);
}

function get(source: Fields, key: string): unknown {
  return source instanceof Example ? source.get(key) : (source as Record<string, unknown>)[key];
}

/**
 * The field as prompt text. DSPy formats a missing attribute as an AttributeError, so a missing field (or
 * `null`/`undefined`) throws `JudgeInputError`. Strings are used as they are; a list of passages becomes
 * numbered lines (`[1] …`); anything else is JSON.
 */
export function fieldText(source: unknown, key: string, argument: string): string {
  if (typeof source !== "object" || source === null) {
    throw new JudgeInputError(`${argument} must be an Example, a Prediction or an object of fields`, {
      argument,
      actual: source === null ? "null" : typeof source,
    });
  }
  const fields = source as Fields;
  const value = has(fields, key) ? get(fields, key) : undefined;
  if (value === undefined || value === null) {
    throw new JudgeInputError(`${argument}.${key} is missing`, { argument: `${argument}.${key}`, expected: "a string" });
  }
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    return value.map((passage, i) => `[${i + 1}] ${passage}`).join("\n");
  }
  return JSON.stringify(value);
}
