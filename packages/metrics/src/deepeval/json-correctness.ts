// DeepEval's `JsonCorrectnessMetric`, rule-based: does `actualOutput` parse as JSON and validate
// against the expected JSON Schema? Score 1 or 0; DeepEval's threshold (0.5), strict mode (threshold 1)
// and success rule. The reason is built from the parse or validation errors (no model call).
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { InvalidArgumentError } from "../errors.js";
import { BaseMetric, type Evaluation, type ScoredMetricOptions } from "./base-metric.js";
import type { LLMTestCase } from "./llm-test-case.js";
import { LLMTestCaseParams } from "./params.js";
import { describeValue, isPlainObject } from "./python-compat.js";

export interface JsonCorrectnessOptions extends ScoredMetricOptions {
  /** The JSON Schema `actualOutput` must satisfy (draft-07, or 2020-12 when its `$schema` says so). */
  readonly expectedSchema: Readonly<Record<string, unknown>> | boolean;
}

function compile(schema: unknown): ValidateFunction {
  if (typeof schema !== "boolean" && !isPlainObject(schema)) {
    throw new InvalidArgumentError(`JsonCorrectnessMetric: 'expectedSchema' must be a JSON Schema object, got ${describeValue(schema)}`, {
      argument: "expectedSchema",
      expected: "a JSON Schema object",
      actual: describeValue(schema),
    });
  }
  const dialect =
    isPlainObject(schema) && typeof schema.$schema === "string" && schema.$schema.includes("2020-12") ? "2020-12" : "draft-07";
  const ajv = dialect === "2020-12" ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false });
  try {
    return ajv.compile(schema as AnySchema);
  } catch (error) {
    throw new InvalidArgumentError(`JsonCorrectnessMetric: 'expectedSchema' is not a valid JSON Schema: ${(error as Error).message}`, {
      argument: "expectedSchema",
      expected: "a valid JSON Schema",
      actual: "invalid schema",
    });
  }
}

function describeIssue(issue: ErrorObject): string {
  const where = issue.instancePath === "" ? "the top level" : `'${issue.instancePath}'`;
  return `${where} ${issue.message ?? "is invalid"}`;
}

/**
 * Whether the application's output is JSON of the expected shape (DeepEval `JsonCorrectnessMetric`).
 *
 * When to use: an application that must answer in a JSON format; no model is needed, `measure()` works.
 *
 * Details: score 1 when `actualOutput` is valid JSON satisfying `expectedSchema` (ajv, all errors
 * collected), else 0. Default threshold 0.5; `strictMode` makes it 1. Requires `input` and
 * `actualOutput`. The reason lists the JSON syntax error or every schema violation.
 *
 * Gotchas: DeepEval takes a pydantic model and asks an LLM to explain a failure; evalkern takes the JSON
 * Schema (`Model.model_json_schema()` in Python gives it) and explains from the validator's errors.
 *
 * @example
 * const metric = new JsonCorrectnessMetric({
 *   expectedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
 * });
 * metric.measure(new LLMTestCase({ input: "A person as JSON", actualOutput: '{"name": "Ada"}' })); // 1
 */
export class JsonCorrectnessMetric extends BaseMetric {
  readonly expectedSchema: Readonly<Record<string, unknown>> | boolean;
  private readonly validate: ValidateFunction;

  constructor(options: JsonCorrectnessOptions) {
    if (typeof options !== "object" || options === null) {
      throw new InvalidArgumentError("JsonCorrectnessMetric: options must be an object with 'expectedSchema'", {
        argument: "options",
        expected: "object",
        actual: describeValue(options),
      });
    }
    super(options, { defaultThreshold: 0.5, defaultIncludeReason: true });
    this.validate = compile(options.expectedSchema);
    this.expectedSchema = options.expectedSchema;
  }

  override get name(): string {
    return "Json Correctness";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override evaluateSync(testCase: LLMTestCase): Evaluation {
    const text = testCase.actualOutput ?? "";
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { score: 0, reason: `The actual output is not valid JSON (${(error as Error).message}).` };
    }
    if (this.validate(value)) {
      return { score: 1, reason: "The actual output is valid JSON and satisfies the expected schema." };
    }
    const issues = (this.validate.errors ?? []).map(describeIssue);
    return {
      score: 0,
      reason: `The actual output is valid JSON but does not satisfy the expected schema: ${issues.join("; ")}.`,
    };
  }
}
