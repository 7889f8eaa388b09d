// evalwire `make_llm_judge_evaluator` (src/evalwire/evaluators/llm_judge.py; docs/spec/judges.md §8): a judge bound
// to a prompt template and an output schema, returning one field of the structured reply.
import { rejectUnknownOptions } from "@evalkern/metrics";
import { camelCaseKeys, type SnakeCased } from "@evalkern/metrics/deepeval";
import { parseExpected, type PyValue } from "@evalkern/metrics/evalwire";
import { resolveJudge } from "../defaults.js";
import { JudgeConfigError, JudgeError } from "../errors.js";
import type { GenerateResult, JudgeModel, JudgeSchema } from "../model.js";
import { pyStr } from "@evalkern/metrics/python";

export interface LlmJudgeEvaluatorOptions {
  /** The schema field returned as the score. Default `"score"`. */
  readonly resultKey?: string;
  /**
   * `"silent"` (default): a failed judge call or a missing field returns the zero value (`false` when the
   * schema declares `resultKey` as exactly boolean, else `0.0`). `"reraise"`: call `errorCallback(error)`,
   * then rethrow.
   */
  readonly onError?: "silent" | "reraise";
  /** Required with `onError: "reraise"` (evalwire rejects the factory call otherwise). */
  readonly errorCallback?: (error: unknown) => void;
  /** Ledger tag of the calls. Default `"llm_judge"`. */
  readonly tag?: string;
}

const OPTION_KEYS = {
  resultKey: true,
  onError: true,
  errorCallback: true,
  tag: true,
} satisfies Record<keyof LlmJudgeEvaluatorOptions, true>;

/**
 * The options as evalkern reads them: evalwire's Python keywords (`result_key`, `on_error`,
 * `error_callback`) become the camelCase ones (both spellings of one key are refused), an unknown key is
 * an `UnknownOptionError`, and contradictory choices a `JudgeConfigError` — never silently ignored.
 */
type CheckedOptions = Required<Pick<LlmJudgeEvaluatorOptions, "resultKey" | "onError" | "tag">> & LlmJudgeEvaluatorOptions;

function evaluatorOptions(options: unknown): CheckedOptions {
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new JudgeConfigError("makeLlmJudgeEvaluator: options must be an object", { argument: "options" });
  }
  const record = camelCaseKeys("makeLlmJudgeEvaluator", options as Record<string, unknown>);
  rejectUnknownOptions(record, OPTION_KEYS, "makeLlmJudgeEvaluator");
  const { resultKey = "score", onError = "silent", errorCallback, tag = "llm_judge" } = record as LlmJudgeEvaluatorOptions;
  if (typeof resultKey !== "string" || resultKey === "") {
    throw new JudgeConfigError("resultKey must be a non-empty string (a field of the output schema)", {
      argument: "resultKey",
      actual: String(resultKey),
    });
  }
  if (typeof tag !== "string") throw new JudgeConfigError("tag must be a string", { argument: "tag" });
  if (onError !== "silent" && onError !== "reraise") {
    throw new JudgeConfigError('onError must be "silent" or "reraise"', { argument: "onError", actual: String(onError) });
  }
  if (onError === "reraise" && errorCallback == null) {
    throw new JudgeConfigError('errorCallback is required when onError is "reraise": pass a function that receives the error', {
      argument: "errorCallback",
      expected: "a function",
    });
  }
  if (errorCallback != null && typeof errorCallback !== "function") {
    throw new JudgeConfigError("errorCallback must be a function", { argument: "errorCallback" });
  }
  // evalwire calls the callback only when re-raising: with "silent" it would never run.
  if (errorCallback != null && onError === "silent") {
    const message = 'errorCallback is only called with onError: "reraise"; with "silent" failures are counted (errorCount, detailed())';
    throw new JudgeConfigError(message, {
      argument: "errorCallback",
      expected: 'onError: "reraise"',
      actual: 'onError: "silent"',
    });
  }
  return { resultKey, onError, tag, ...(errorCallback ? { errorCallback } : {}) };
}

/** Outcome of one evaluation with the failure, if any, made explicit. */
export type LlmJudgeOutcome<V> =
  | { readonly ok: true; readonly value: V; readonly result: GenerateResult<unknown> }
  | {
      /** The judge failed; `value` is the zero value evalwire would have returned. */
      readonly ok: false;
      readonly value: V | boolean | number;
      readonly error: unknown;
    };

/** The evaluator: `llm_judge(output, expected)`, plus the failure-aware `detailed` and error counters. */
export interface LlmJudgeEvaluator<V = unknown> {
  (output: unknown, expected: unknown): Promise<V | boolean | number>;
  /** Same evaluation, but a silenced failure is reported as `{ok: false, error}` next to the zero value. */
  detailed(output: unknown, expected: unknown): Promise<LlmJudgeOutcome<V>>;
  /** Failures silenced so far (each returned the zero value). */
  readonly errorCount: number;
  /** The last silenced failure. */
  readonly lastError: unknown;
  /** What a silenced failure returns. */
  readonly zeroValue: boolean | number;
}

/** evalwire `_zero_value_for`: `false` when the field's type is exactly boolean, else `0.0`. */
export function zeroValueFor(schema: JudgeSchema<unknown>, resultKey: string): boolean | number {
  const properties = (schema.jsonSchema as { properties?: Record<string, { type?: unknown }> }).properties;
  const field = properties && Object.prototype.hasOwnProperty.call(properties, resultKey) ? properties[resultKey] : undefined;
  return field?.type === "boolean" ? false : 0;
}

/**
 * Python `str.format(output=..., expected_output=...)` restricted to the two placeholders: `{output}` and
 * `{expected_output}` are replaced, `{{`/`}}` become `{`/`}`, and any other brace is kept as written
 * (Python would raise KeyError/ValueError for a literal JSON example in the template).
 */
export function formatTemplate(template: string, values: Readonly<Record<"output" | "expected_output", string>>): string {
  return template.replace(/\{\{|\}\}|\{(output|expected_output)\}/g, (match, name: string | undefined) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return values[name as "output" | "expected_output"];
  });
}

/**
 * evalwire's LLM-as-judge evaluator over a `JudgeModel`.
 *
 * When to use: free-text outputs judged against an expected value by a prompt you write, with the verdict
 * read from one field of a structured reply.
 *
 * Details:
 * - One judge call per evaluation: the template, formatted with `{output}` (`null` → `""`, other values
 *   as Python `str()`) and `{expected_output}` (the first item of evalwire's `_parse_expected(expected)`,
 *   `""` when there is none), sent as one user message with `outputSchema` as structured output.
 * - Returns `reply[resultKey]` as is.
 * - Options take evalwire's Python keywords too (`result_key`, `on_error`, `error_callback`); an unknown
 *   key is an `UnknownOptionError`, and `errorCallback` without `onError: "reraise"` (or the reverse) a
 *   `JudgeConfigError`.
 * - Errors inside the judge call or the field read: `onError: "silent"` returns the zero value — `false`
 *   for a field typed exactly boolean, `0.0` for anything else or a key the schema lacks; `"reraise"`
 *   calls `errorCallback` and rethrows. As in evalwire, a bad `expected` (not a dict, an unhashable
 *   literal) throws whatever `onError` says, because parsing happens before the call.
 *
 * Gotchas: a silent zero looks like a bad answer. Use `detailed()` (or read `errorCount`/`lastError`) to
 * tell failures apart; aggregate them separately.
 *
 * @example
 * const Verdict = zodSchema("verdict", z.object({ explanation: z.string(), score: z.boolean() }));
 * const judge = makeLlmJudgeEvaluator(model, "Answer: {output}\nExpected: {expected_output}\nCorrect?", Verdict);
 * await judge("Paris", { expected_output: "Paris" }); // true
 */
export function makeLlmJudgeEvaluator<T extends Record<string, unknown>>(
  modelOrName: JudgeModel | string,
  promptTemplate: string,
  outputSchema: JudgeSchema<T>,
  options: LlmJudgeEvaluatorOptions | SnakeCased<LlmJudgeEvaluatorOptions> = {},
): LlmJudgeEvaluator<T[keyof T]> {
  const { resultKey, onError, errorCallback, tag } = evaluatorOptions(options);
  if (
    typeof modelOrName !== "string" &&
    (typeof modelOrName !== "object" || modelOrName === null || typeof modelOrName.generate !== "function")
  ) {
    throw new JudgeConfigError("model must be a JudgeModel or a model name", { argument: "model" });
  }
  const model = resolveJudge(modelOrName, "makeLlmJudgeEvaluator");
  if (typeof promptTemplate !== "string") {
    throw new JudgeConfigError("promptTemplate must be a string", { argument: "promptTemplate" });
  }
  if (!outputSchema || typeof outputSchema !== "object" || !outputSchema.validator) {
    throw new JudgeConfigError("outputSchema must be a JudgeSchema (see zodSchema)", { argument: "outputSchema" });
  }
  const zero = zeroValueFor(outputSchema as JudgeSchema<unknown>, resultKey);
  const state = { errorCount: 0, lastError: undefined as unknown };

  const detailed = async (output: unknown, expected: unknown): Promise<LlmJudgeOutcome<T[keyof T]>> => {
    // Outside the guarded part, as in evalwire: parsing or formatting errors always propagate.
    const items = parseExpected(expected, { ints: "bigint" });
    // Parsed from a string, ints come back as bigint and every number is a float; values given directly
    // follow the JSON convention (an integral number is an int).
    const raw = expected instanceof Map ? expected.get("expected_output") : (expected as Record<string, unknown>).expected_output;
    const expectedText = items.length > 0 ? pyStr(items[0] as PyValue, typeof raw === "string" ? "floats" : "json") : "";
    const prompt = formatTemplate(promptTemplate, {
      output: output === null || output === undefined ? "" : pyStr(output as PyValue, "json"),
      expected_output: expectedText,
    });
    try {
      const result = await model.generate({ messages: [{ role: "user", content: prompt }], schema: outputSchema, metric: tag });
      const value = result.value as Record<string, unknown>;
      if (typeof value !== "object" || value === null || !Object.prototype.hasOwnProperty.call(value, resultKey)) {
        throw new JudgeConfigError(`the judge reply has no field "${resultKey}" (resultKey)`, {
          argument: "resultKey",
          actual: resultKey,
        });
      }
      return { ok: true, value: value[resultKey] as T[keyof T], result: result as GenerateResult<unknown> };
    } catch (error) {
      if (onError === "reraise") {
        errorCallback?.(error);
        throw error;
      }
      state.errorCount++;
      state.lastError = error;
      return { ok: false, value: zero, error };
    }
  };

  const llmJudge = (async (output: unknown, expected: unknown) => (await detailed(output, expected)).value) as LlmJudgeEvaluator<
    T[keyof T]
  >;
  Object.defineProperties(llmJudge, {
    name: { value: "llm_judge" },
    detailed: { value: detailed },
    errorCount: { get: () => state.errorCount },
    lastError: { get: () => state.lastError },
    zeroValue: { value: zero },
  });
  return llmJudge;
}

/** True when `error` came from the judge (as opposed to a bug in the caller's code). */
export function isJudgeFailure(error: unknown): boolean {
  return JudgeError.isInstance(error);
}
