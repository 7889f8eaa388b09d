// autoevals `ValidJSON` (js/json.ts): 1 when the output parses as JSON — an object or an array, or, with a
// JSON Schema, any value the schema accepts — else 0. Schemas are checked with ajv's defaults, as autoevals.
import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import { InvalidArgumentError } from "../errors.js";
import type { Score } from "./score.js";

export interface ValidJSONArgs {
  /** The text to check (other values are read as `JSON.parse` reads them: through their string form). */
  readonly output: unknown;
  /** A JSON Schema (draft-07, ajv's default) the parsed value must satisfy. */
  readonly schema?: unknown;
}

const compiled = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

/** The validator of `schema`, compiled once per schema object; a schema ajv refuses is a typed error. */
export function compileJsonSchema(schema: unknown): ValidateFunction {
  if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null || Array.isArray(schema))) {
    throw new InvalidArgumentError("ValidJSON: schema must be a JSON Schema object (or a boolean schema)", {
      argument: "schema",
      actual: schema === null ? "null" : Array.isArray(schema) ? "array" : typeof schema,
    });
  }
  const key = typeof schema === "boolean" ? undefined : (schema as object);
  const cached = key ? compiled.get(key) : undefined;
  if (cached) return cached;
  ajv ??= new Ajv();
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema as AnySchema);
  } catch (error) {
    // autoevals compiles inside its try block, so a broken schema scores 0 there; here it is an error.
    throw new InvalidArgumentError(`ValidJSON: the schema is not a valid JSON Schema: ${(error as Error).message}`, {
      argument: "schema",
    });
  }
  if (key) compiled.set(key, validate);
  return validate;
}

/** 1 or 0 as autoevals decides it (see {@link ValidJSON}). */
export function validJson(output: unknown, schema?: unknown): 0 | 1 {
  const validate = schema === undefined || schema === null ? undefined : compileJsonSchema(schema);
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(output));
  } catch {
    return 0;
  }
  if (validate) return validate(parsed) ? 1 : 0;
  return typeof parsed === "object" && parsed !== null ? 1 : 0;
}

/**
 * autoevals `ValidJSON`: whether `output` is JSON text of an object or an array — a bare string, number,
 * boolean or null is not — or, with `schema`, whether its value satisfies the JSON Schema (then any JSON
 * value may pass).
 *
 * Gotchas: a schema ajv cannot compile throws `InvalidArgumentError` (autoevals silently scores 0).
 * Compiled schemas are cached per schema object.
 *
 * @example ValidJSON({ output: '{"a": 1}', schema: { type: "object", required: ["a"] } }) // score 1
 */
export function ValidJSON(args: ValidJSONArgs): Score {
  if (typeof args !== "object" || args === null) {
    throw new InvalidArgumentError("ValidJSON takes { output, schema? }", { argument: "args" });
  }
  const { output, schema } = args;
  return { name: "ValidJSON", score: validJson(output, schema), metadata: schema === undefined ? {} : { schema } };
}
