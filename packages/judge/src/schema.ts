// Structured-output schemas: a Standard Schema validator paired with the JSON Schema sent as
// `response_format`. `zodSchema` builds one from zod v4; `standardSchema` from any library implementing
// Standard Schema (plus Standard JSON Schema, or an explicit JSON Schema).
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import { JudgeConfigError } from "./errors.js";
import type { JudgeSchema } from "./model.js";

type Json = Record<string, unknown>;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

function checkName(name: unknown): string {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new JudgeConfigError("schema name must be 1-64 characters of A-Z, a-z, 0-9, _ or - (OpenAI's rule)", {
      argument: "name",
      expected: "/^[A-Za-z0-9_-]{1,64}$/",
      actual: String(name),
    });
  }
  return name;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function acceptsNull(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema.nullable === true) return true;
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.some(acceptsNull)) return true;
  }
  return false;
}

/**
 * Prepare a JSON Schema for OpenAI's strict structured outputs: drop `$schema`, and make optional
 * properties that already accept `null` required (the model then sends `null`, which the validator
 * accepts). `strict` is false when something cannot be expressed under strict mode — an optional property
 * that does not accept null, or an open-ended map (`additionalProperties` other than `false`,
 * `propertyNames`) — and the schema is then sent with `strict: false` instead of being rewritten into
 * something the validator would reject.
 */
export function prepareJsonSchema(schema: Readonly<Json>): { readonly schema: Json; readonly strict: boolean } {
  let strict = true;
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$schema") continue;
      if (key === "properties" && isObject(value)) {
        const props: Json = {};
        for (const [p, sub] of Object.entries(value)) props[p] = visit(sub);
        out.properties = props;
      } else if (key === "$defs" || key === "definitions") {
        const defs: Json = {};
        if (isObject(value)) for (const [d, sub] of Object.entries(value)) defs[d] = visit(sub);
        out[key] = defs;
      } else if (["items", "anyOf", "oneOf", "allOf", "prefixItems", "not"].includes(key)) {
        out[key] = visit(value);
      } else {
        out[key] = value;
      }
    }
    const isObjectSchema = out.type === "object" || (Array.isArray(out.type) && out.type.includes("object")) || isObject(out.properties);
    if (isObjectSchema) {
      if (out.propertyNames !== undefined || (out.additionalProperties !== undefined && out.additionalProperties !== false)) {
        strict = false;
      } else {
        out.additionalProperties = false;
      }
      const props = isObject(out.properties) ? out.properties : {};
      const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
      for (const [p, sub] of Object.entries(props)) {
        if (required.has(p)) continue;
        if (acceptsNull(sub)) required.add(p);
        else strict = false;
      }
      out.required = Object.keys(props).filter((p) => required.has(p));
      if (!isObject(out.properties)) out.properties = {};
    }
    return out;
  };
  const prepared = visit(schema) as Json;
  if (prepared.type !== "object") strict = false;
  return { schema: prepared, strict };
}

export interface SchemaOptions {
  /** Force `strict` on or off in `response_format` (default: decided by `prepareJsonSchema`). */
  readonly strict?: boolean;
}

/**
 * A `JudgeSchema` from a zod v4 type: the JSON Schema comes from `z.toJSONSchema` (output side).
 *
 * When to use: declaring the verdict/score shape a judge call must return.
 *
 * Gotchas: for OpenAI strict mode write optional fields as `.nullable()` (or `.nullable().optional()`);
 * a plain `.optional()` field or a `z.record(...)` makes the schema non-strict (still sent, with
 * `strict: false`, and still validated here).
 *
 * @example
 * const Verdicts = zodSchema("verdicts", z.object({
 *   verdicts: z.array(z.object({ verdict: z.enum(["yes", "no", "idk"]), reason: z.string().nullable() })),
 * }));
 */
export function zodSchema<T extends z.ZodType>(name: string, type: T, options: SchemaOptions = {}): JudgeSchema<z.output<T>> {
  checkName(name);
  if (!type || typeof (type as { safeParse?: unknown }).safeParse !== "function") {
    throw new JudgeConfigError("zodSchema needs a zod v4 type", { argument: "type", expected: "a zod schema" });
  }
  const raw = z.toJSONSchema(type, { io: "output", unrepresentable: "any" }) as Json;
  const prepared = prepareJsonSchema(raw);
  return Object.freeze({
    name,
    jsonSchema: prepared.schema,
    validator: type as unknown as StandardSchemaV1<unknown, z.output<T>>,
    strict: options.strict ?? prepared.strict,
  });
}

/**
 * A `JudgeSchema` from any Standard Schema validator. The JSON Schema is `jsonSchema` when given, else the
 * validator's Standard JSON Schema (`~standard.jsonSchema.output`), which zod 4, valibot and arktype
 * provide.
 */
export function standardSchema<T>(
  name: string,
  validator: StandardSchemaV1<unknown, T> & Partial<StandardJSONSchemaV1<unknown, T>>,
  jsonSchema?: Readonly<Json>,
  options: SchemaOptions = {},
): JudgeSchema<T> {
  checkName(name);
  const std = (validator as { "~standard"?: StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props> })?.["~standard"];
  if (!std || typeof std.validate !== "function") {
    throw new JudgeConfigError("standardSchema needs a Standard Schema validator", {
      argument: "validator",
      expected: "an object with ~standard.validate",
    });
  }
  let raw: Json | undefined = jsonSchema ? { ...jsonSchema } : undefined;
  if (!raw && std.jsonSchema && typeof std.jsonSchema.output === "function") {
    raw = std.jsonSchema.output({ target: "draft-2020-12" }) as Json;
  }
  if (!raw) {
    throw new JudgeConfigError("standardSchema needs a JSON Schema: pass one, or use a library with Standard JSON Schema", {
      argument: "jsonSchema",
      expected: "a JSON Schema object",
    });
  }
  const prepared = prepareJsonSchema(raw);
  return Object.freeze({ name, jsonSchema: prepared.schema, validator, strict: options.strict ?? prepared.strict });
}

/** Validation outcome: the typed value, or the issues as "path: message" strings. */
export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly string[] };

function pathOf(issue: StandardSchemaV1.Issue): string {
  if (!issue.path || issue.path.length === 0) return "";
  return issue.path.map((segment) => (typeof segment === "object" && segment !== null ? String(segment.key) : String(segment))).join(".");
}

/**
 * Each value a schema's validator produced, with that schema: a reply validated by the client (live or
 * from the cache) and handed to a metric that validates it again is not run through the validator a second
 * time. Only objects the validator returned are recorded (replies are read, never edited), so a value
 * built elsewhere, however alike, is checked.
 */
const validatedBy = new WeakMap<object, JudgeSchema<unknown>>();

/** Run a schema's Standard Schema validator (sync or async) on a parsed value. */
export async function validateWith<T>(schema: JudgeSchema<T>, value: unknown): Promise<Validation<T>> {
  if (typeof value === "object" && value !== null && validatedBy.get(value) === schema) return { ok: true, value: value as T };
  let result = schema.validator["~standard"].validate(value);
  if (result instanceof Promise) result = await result;
  if (result.issues) {
    return {
      ok: false,
      issues: result.issues.map((issue) => {
        const path = pathOf(issue);
        return path ? `${path}: ${issue.message}` : issue.message;
      }),
    };
  }
  const output = result.value as unknown;
  if (typeof output === "object" && output !== null) validatedBy.set(output, schema as JudgeSchema<unknown>);
  return { ok: true, value: result.value };
}
