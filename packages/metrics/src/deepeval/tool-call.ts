// DeepEval's `ToolCall`: one tool invocation (or one expected / available tool).
import { InvalidArgumentError } from "../errors.js";
import { isPlainObject, pyEquals, pyHashKey, pyJsonDumps, pyRepr } from "./python-compat.js";
import { aliased, expectInit, fail, optionalRecord, optionalString, requiredString } from "./validate.js";

/** How a tool was reached (DeepEval `ToolCallType`). `ToolCorrectnessMetric` matches on it. */
export const ToolCallType = { FUNCTION: "FUNCTION", MCP: "MCP" } as const;
export type ToolCallType = (typeof ToolCallType)[keyof typeof ToolCallType];

/** The fields a `ToolCall` is built from. `input_parameters` is accepted as an alias, as in DeepEval. */
export interface ToolCallInit {
  readonly name: string;
  /** Default `"FUNCTION"`. */
  readonly type?: ToolCallType;
  readonly description?: string | null;
  readonly reasoning?: string | null;
  /** Anything the tool returned; compared with Python `==` semantics. */
  readonly output?: unknown;
  readonly inputParameters?: Readonly<Record<string, unknown>> | null;
  readonly input_parameters?: Readonly<Record<string, unknown>> | null;
}

const FIELDS = ["name", "type", "description", "reasoning", "output", "inputParameters", "input_parameters"] as const;
const TOOL_CALL_MARKER = Symbol.for("evalkern.deepeval.ToolCall");

/**
 * One tool invocation, expected tool or available tool.
 *
 * When to use: `LLMTestCase.toolsCalled` / `expectedTools`, `ToolCorrectnessMetric.availableTools`.
 *
 * Details: equality (`equals`, `hashKey`) uses `name`, `inputParameters` and `output` only, as
 * DeepEval's `__eq__`/`__hash__` — not `type`, `description` or `reasoning`. Values compare with
 * Python `==` rules (`1 == 1.0 == true`; `null` and a missing `output` are the same `None`).
 *
 * Gotchas: `toString()` is DeepEval's `repr` (used in reasons and verbose logs).
 *
 * @example
 * const call = new ToolCall({ name: "search", inputParameters: { query: "weather" } });
 * call.equals(new ToolCall({ name: "search", inputParameters: { query: "weather" }, reasoning: "x" })); // true
 */
export class ToolCall {
  readonly [TOOL_CALL_MARKER] = true;
  readonly name: string;
  readonly type: ToolCallType;
  readonly description: string | null;
  readonly reasoning: string | null;
  readonly output: unknown;
  readonly inputParameters: Readonly<Record<string, unknown>> | null;

  constructor(init: ToolCallInit) {
    const record = expectInit("ToolCall", init, FIELDS);
    this.name = requiredString("ToolCall", "name", record.name);
    const type = record.type ?? ToolCallType.FUNCTION;
    if (type !== ToolCallType.FUNCTION && type !== ToolCallType.MCP) fail("ToolCall", "type", `"FUNCTION" or "MCP"`, type);
    this.type = type;
    this.description = optionalString("ToolCall", "description", record.description);
    this.reasoning = optionalString("ToolCall", "reasoning", record.reasoning);
    this.output = record.output === undefined ? null : record.output;
    this.inputParameters = optionalRecord(
      "ToolCall",
      "inputParameters",
      aliased("ToolCall", record, "inputParameters", "input_parameters"),
    );
    Object.freeze(this);
  }

  /** True for a `ToolCall` from any copy of this package. */
  static isInstance(value: unknown): value is ToolCall {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TOOL_CALL_MARKER] === true;
  }

  /** A `ToolCall` as is, or one built from its fields (e.g. parsed JSON). */
  static from(value: ToolCall | ToolCallInit): ToolCall {
    return ToolCall.isInstance(value) ? value : new ToolCall(value);
  }

  /** DeepEval's `ToolCall.__eq__`: same name, input parameters and output. */
  equals(other: unknown): boolean {
    if (!ToolCall.isInstance(other)) return false;
    return this.name === other.name && pyEquals(this.inputParameters, other.inputParameters) && pyEquals(this.output, other.output);
  }

  /** A key that is equal for equal calls (DeepEval's `__hash__`, with missing input parameters as `{}`). */
  hashKey(): string {
    return `${JSON.stringify(this.name)}|${pyHashKey(this.inputParameters ?? {})}|${pyHashKey(this.output)}`;
  }

  /** DeepEval's `ToolCall.__repr__`. */
  toString(): string {
    const fields: string[] = [];
    if (this.name) fields.push(`name="${this.name}"`);
    if (this.description) fields.push(`description="${this.description}"`);
    if (this.reasoning) fields.push(`reasoning="${this.reasoning}"`);
    if (this.inputParameters && Object.keys(this.inputParameters).length > 0) {
      fields.push(indentNestedField("input_parameters", pyJsonDumps(this.inputParameters)));
    }
    if (isPlainObject(this.output)) fields.push(indentNestedField("output", pyJsonDumps(this.output)));
    else if (this.output !== null) fields.push(`output=${pyRepr(this.output)}`);
    return `ToolCall(\n    ${fields.join(",\n    ")}\n)`;
  }

  /** The fields, DeepEval's `model_dump()` keys in camelCase. */
  toJSON(): {
    name: string;
    type: ToolCallType;
    description: string | null;
    reasoning: string | null;
    output: unknown;
    inputParameters: Readonly<Record<string, unknown>> | null;
  } {
    return {
      name: this.name,
      type: this.type,
      description: this.description,
      reasoning: this.reasoning,
      output: this.output,
      inputParameters: this.inputParameters,
    };
  }
}

function indentNestedField(fieldName: string, formatted: string): string {
  const lines = formatted.split("\n");
  return `${fieldName}=${lines[0]}\n${lines
    .slice(1)
    .map((line) => `    ${line}`)
    .join("\n")}`;
}

/** Build the tool-call list of a test case or option, with the index of a bad entry in the error. */
export function toToolCallList(owner: string, argument: string, value: unknown): readonly ToolCall[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail(owner, argument, "an array of ToolCall or null", value);
  return Object.freeze(
    value.map((item: unknown, index) => {
      if (ToolCall.isInstance(item)) return item;
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        fail(owner, argument, "a ToolCall or ToolCall fields", item, index);
      }
      try {
        return new ToolCall(item as ToolCallInit);
      } catch (error) {
        if (error instanceof InvalidArgumentError) {
          throw new InvalidArgumentError(`${owner}: '${argument}[${index}]': ${error.message}`, {
            argument: `${argument}[${index}].${error.argument}`,
            index,
            ...(error.expected === undefined ? {} : { expected: error.expected }),
            ...(error.actual === undefined ? {} : { actual: error.actual }),
          });
        }
        throw error;
      }
    }),
  );
}

/**
 * DeepEval's `print_tools_called`: the JSON list of tool calls shown to a judge (each call's fields,
 * snake_case as DeepEval dumps them, indented by two spaces).
 */
export function formatToolCallsForPrompt(toolCalls: readonly ToolCall[]): string {
  if (toolCalls.length === 0) return "";
  const blocks = toolCalls.map((call) => {
    const dumped = pyJsonDumps({
      name: call.name,
      type: call.type,
      description: call.description,
      reasoning: call.reasoning,
      output: call.output,
      input_parameters: call.inputParameters,
    });
    return dumped
      .split("\n")
      .map((line) => `  ${line}`)
      .join("\n");
  });
  return `[\n${blocks.join(",\n")}\n]`;
}
