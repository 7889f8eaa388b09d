// promptfoo's JSON assertions as pair rules: `contains-json` (src/assertions/json.ts: JSON values found in
// the text, optionally checked against a JSON schema) and `is-valid-openai-function-call` /
// `is-valid-openai-tools-call` (src/assertions/openai.ts: the call's arguments checked against the
// parameters schema of the function of that name). Schemas are checked with ajv.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import { assertionValue, badValue, jsonish, type Options } from "./values.js";

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** A JSON schema compiled once per distinct schema (rules are called per row). */
function validator(type: string, schema: unknown): ValidateFunction {
  if (typeof schema !== "object" && typeof schema !== "boolean") {
    throw badValue(type, "the JSON schema must be an object or a boolean (or JSON text of one)");
  }
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    ajv ??= new Ajv({ strict: false });
    try {
      v = ajv.compile(schema as AnySchema);
    } catch (e) {
      throw badValue(type, `invalid JSON schema: ${(e as Error).message}`);
    }
    compiled.set(key, v);
  }
  return v;
}

/** Where the bracketed value starting at `start` ends (one past its closing bracket), strings respected; −1 if never. */
function closingBracket(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") stack.push(c === "{" ? "}" : "]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

/** The JSON objects and arrays written in a text (prose, code fences around them), left to right, outermost only. */
export function extractJsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "{" && c !== "[") continue;
    const end = closingBracket(text, i);
    if (end < 0) continue;
    try {
      out.push(JSON.parse(text.slice(i, end)));
      i = end - 1;
    } catch {
      // not JSON: a later bracket may start some
    }
  }
  return out;
}

function schemaOf(references: readonly string[], options: Options): unknown {
  const v = options.schema !== undefined ? options.schema : assertionValue(references, options);
  return v === undefined || v === null || v === "" ? undefined : jsonish(v);
}

/**
 * `contains-json`: the output contains a JSON object or array; with a schema (the value, or the `schema`
 * option), one of them must conform to it.
 */
export function containsJson(output: string, references: readonly string[], options: Options = {}): boolean {
  const values = extractJsonValues(output);
  if (values.length === 0) return false;
  const schema = schemaOf(references, options);
  if (schema === undefined) return true;
  const validate = validator("contains-json", schema);
  return values.some((v) => validate(v) === true);
}

interface FunctionSpec {
  readonly name?: unknown;
  readonly parameters?: unknown;
}

function parsed(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether one call `{ name, arguments }` names a declared function and its arguments conform to its parameters. */
function validCall(type: string, call: unknown, functions: readonly FunctionSpec[]): boolean {
  if (typeof call !== "object" || call === null) return false;
  const { name, arguments: args } = call as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string" || typeof args !== "string") return false;
  const fn = functions.find((f) => f.name === name);
  if (!fn || fn.parameters === undefined) return false;
  const value = parsed(args);
  return value !== undefined && validator(type, fn.parameters)(value) === true;
}

function declared(type: string, key: "functions" | "tools", references: readonly string[], options: Options): unknown[] {
  const v = jsonish(options[key] !== undefined ? options[key] : assertionValue(references, options));
  if (!Array.isArray(v) || v.length === 0) {
    const message = `${type} needs the ${key} offered to the model: the ${key} option (or the value), a non-empty list`;
    throw new InvalidArgumentError(message, { argument: key });
  }
  return v;
}

/**
 * `is-valid-openai-function-call`: the output (JSON text, or an object with `function_call`) is a call
 * `{ name, arguments }` of one of `functions` (`[{ name, parameters }]`, the `functions` option), and its
 * arguments (JSON text) conform to that function's parameters schema.
 */
export function isValidOpenaiFunctionCall(output: string, references: readonly string[], options: Options = {}): boolean {
  const functions = declared("is-valid-openai-function-call", "functions", references, options) as FunctionSpec[];
  let call = parsed(output);
  if (typeof call === "object" && call !== null && "function_call" in call) call = (call as { function_call: unknown }).function_call;
  return validCall("is-valid-openai-function-call", call, functions);
}

/** The `function` of a tool or a tool call. */
function functionOf(t: unknown): unknown {
  return typeof t === "object" && t !== null ? (t as { function?: unknown }).function : undefined;
}

/**
 * `is-valid-openai-tools-call`: the output (JSON text: a list of tool calls, or an object with `tool_calls`)
 * is a non-empty list of `{ type: "function", function: { name, arguments } }`, each a valid call of one
 * of `tools` (`[{ type: "function", function: { name, parameters } }]`, the `tools` option).
 */
export function isValidOpenaiToolsCall(output: string, references: readonly string[], options: Options = {}): boolean {
  const tools = declared("is-valid-openai-tools-call", "tools", references, options);
  const functions = tools.map((t) => (functionOf(t) ?? {}) as FunctionSpec);
  let calls = parsed(output);
  if (typeof calls === "object" && calls !== null && !Array.isArray(calls) && "tool_calls" in calls) {
    calls = (calls as { tool_calls: unknown }).tool_calls;
  }
  if (!Array.isArray(calls) || calls.length === 0) return false;
  return calls.every((c) => validCall("is-valid-openai-tools-call", functionOf(c), functions));
}
