// Structured output, for any provider: the schema instruction for a request without native structured
// output, and the reading of a reply against its schema (a reply that needs closing is cut off, never a
// measurement).
import type { OutputFailure } from "../errors.js";
import { extractJson } from "../json.js";
import type { JudgeMessage, JudgeSchema } from "../model.js";
import { validateWith } from "../schema.js";

export type Interpretation<T> = { ok: true; value: T } | { ok: false; failure: OutputFailure; message: string; issues: readonly string[] };

export function schemaInstruction(schema: JudgeSchema<unknown>): string {
  return (
    "Reply with a single JSON object and nothing else (no prose, no code fences). " +
    `It must conform to this JSON Schema:\n${JSON.stringify(schema.jsonSchema)}`
  );
}

export function withInstruction(messages: readonly JudgeMessage[], instruction: string): JudgeMessage[] {
  // Appended to the last user message rather than sent as a system message: several local chat
  // templates reject a system role, and DeepEval-style prompts are a single user message anyway.
  const out = [...messages];
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i] as JudgeMessage;
    if (m.role === "user") {
      out[i] = {
        role: "user",
        content:
          typeof m.content === "string" ? `${m.content}\n\n${instruction}` : [...m.content, { type: "text", text: `\n\n${instruction}` }],
      };
      return out;
    }
  }
  out.push({ role: "user", content: instruction });
  return out;
}

/** Read `text` against `schema`: the value, or why the reply cannot be a measurement. */
export async function interpret<T>(
  text: string,
  finishReason: string | null,
  refusal: string | null,
  schema: JudgeSchema<T>,
): Promise<Interpretation<T>> {
  if (refusal) return { ok: false, failure: "refusal", message: `the model refused: ${refusal}`, issues: [] };
  if (text.trim() === "") {
    return finishReason === "length"
      ? { ok: false, failure: "truncated", message: "the reply was cut off at the token limit before any JSON", issues: [] }
      : { ok: false, failure: "empty", message: "the reply was empty", issues: [] };
  }
  // Under a structured-output request a reply is a measurement only as sent: fences or prose around
  // the object may be dropped, but a reply whose JSON would need closing was cut off, and closing it
  // can invent a value (`"precision":0` of a cut `0.85`). It is re-asked, then a typed failure.
  const parsed = extractJson(text, { complete: false });
  if (parsed.ok && parsed.repaired && finishReason === "length") {
    return { ok: false, failure: "truncated", message: "the reply was cut off at the token limit (finish_reason = length)", issues: [] };
  }
  if (!parsed.ok) {
    if (finishReason === "length") {
      return { ok: false, failure: "truncated", message: "the reply was cut off at the token limit (finish_reason = length)", issues: [] };
    }
    return parsed.incomplete
      ? {
          ok: false,
          failure: "truncated",
          message: `the reply was cut off: ${parsed.reason}; a repaired reply is not a measurement`,
          issues: [],
        }
      : { ok: false, failure: "invalid_json", message: parsed.reason, issues: [] };
  }
  const validated = await validateWith(schema, parsed.value);
  if (!validated.ok) {
    return {
      ok: false,
      failure: finishReason === "length" ? "truncated" : "schema_violation",
      message: `the reply does not match schema "${schema.name}": ${validated.issues.join("; ")}`,
      issues: validated.issues,
    };
  }
  return { ok: true, value: validated.value };
}
