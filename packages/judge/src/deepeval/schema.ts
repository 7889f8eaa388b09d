// Verdict schemas: zod validators that are tolerant where DeepEval is (verdict case and trailing
// words); the JSON Schema sent as `response_format` is their output side.
import { z } from "zod";
import type { JudgeSchema } from "../model.js";
import { zodSchema } from "../schema.js";

/**
 * A `JudgeSchema` from a zod schema (the package's `zodSchema`: output-side JSON Schema prepared for
 * OpenAI's strict mode). Every field of the DeepEval schemas is required or nullable, so they are strict.
 */
export function judgeSchema<S extends z.ZodType>(name: string, schema: S): JudgeSchema<z.output<S>> {
  return zodSchema(name, schema);
}

/**
 * DeepEval's `verdict_from_json` normalisation: lower-case, trim, keep the leading alphabetic word
 * ("No, it is off-topic" -> "no"). Unlike DeepEval, a word outside the allowed set stays a schema
 * violation instead of becoming a null verdict that is silently dropped from the score.
 */
export function normalizeVerdictWord(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lowered = value.trim().toLowerCase();
  return /^[a-z]+/.exec(lowered)?.[0] ?? lowered;
}

/** A `"yes" | "no" [| "idk"]` verdict field, normalised as {@link normalizeVerdictWord}. */
export function verdictWord<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z.preprocess(normalizeVerdictWord, z.enum(allowed));
}

/** A free-text field the judge may leave out or set to null (DeepEval's `Optional[str] = None`). */
export const optionalText = z.preprocess((value) => (value === undefined ? null : value), z.string().nullable());

/** A list of strings the judge may leave out (treated as empty), e.g. `{statements: []}`. */
export const stringList = z.array(z.string());

/** `{reason: string}` — every reason call. */
export const reasonSchema = judgeSchema("reason", z.object({ reason: z.string() }));

/**
 * Require `value[key]` to hold exactly `count` items ("one verdict per statement"). A refinement, so
 * the JSON Schema stays strict-mode compatible while validation (and the client's re-asks) see it.
 */
export function withCount<S extends z.ZodType<Record<string, unknown>>>(schema: S, key: string, count: number, what: string): S {
  return schema.superRefine((value, ctx) => {
    const items = (value as Record<string, unknown>)[key];
    const got = Array.isArray(items) ? items.length : 0;
    if (got !== count) {
      ctx.addIssue({ code: "custom", path: [key], message: `expected ${count} ${key} (one per ${what}), got ${got}` });
    }
  }) as unknown as S;
}

/** A number in [0, 1] (task completion verdicts, step-efficiency and plan-adherence scores). */
export const unitInterval = z.number().min(0).max(1);
