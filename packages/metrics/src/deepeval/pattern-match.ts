// DeepEval's `PatternMatchMetric` (deepeval/metrics/pattern_match): 1 when the stripped output matches the
// stripped pattern in full (Python `re.fullmatch`, `re.IGNORECASE` with `ignoreCase`), else 0. No model.
import { InvalidArgumentError, PythonCompatError } from "../errors.js";
import { compilePython, IGNORECASE, type PythonRegex } from "../python/regex.js";
import { pyStrip } from "../python/str.js";
import { BaseMetric, type Evaluation, type ScoredMetricOptions } from "./base-metric.js";
import type { LLMTestCase } from "./llm-test-case.js";
import { LLMTestCaseParams } from "./params.js";
import { expectOptions, fail, optionalBoolean } from "./validate.js";

export interface PatternMatchOptions extends ScoredMetricOptions {
  /** A Python regular expression (`re` syntax); surrounding whitespace is dropped, as DeepEval does. */
  readonly pattern: string;
  /** Match without regard to case (`re.IGNORECASE`). Default false. */
  readonly ignoreCase?: boolean;
}

/**
 * Whether the whole output has a required form (DeepEval `PatternMatchMetric`).
 *
 * When to use: formats — an id, a date, one word out of a closed list; no model is needed, `measure()` works.
 *
 * Details: the pattern is stripped of Python whitespace and compiled with Python's `re` semantics
 * (`@evalkern/metrics/python`); `actualOutput` is stripped and must match it in full (`re.fullmatch`: `a|ab`
 * matches "ab"). Score 1 (`"The actual output fully matches the pattern."`) or 0 (`"The actual output does
 * not match the pattern."`). Requires `input` and `actualOutput`. Threshold 1.0 (DeepEval's default).
 *
 * Gotchas: an invalid pattern is an `InvalidArgumentError` at construction (DeepEval's `ValueError`), with
 * Python's own `re.error` message.
 *
 * @example
 * const metric = new PatternMatchMetric({ pattern: String.raw`\d{4}-\d{2}-\d{2}` });
 * metric.measure(new LLMTestCase({ input: "Date?", actualOutput: " 2024-05-01\n" })); // 1
 */
export class PatternMatchMetric extends BaseMetric {
  readonly pattern: string;
  readonly ignoreCase: boolean;
  private readonly compiled: PythonRegex;

  constructor(options: PatternMatchOptions) {
    expectOptions("PatternMatchMetric", options);
    super(options, { defaultThreshold: 1 });
    if (typeof options.pattern !== "string") fail("PatternMatchMetric", "pattern", "a string", options.pattern);
    this.pattern = pyStrip(options.pattern);
    this.ignoreCase = optionalBoolean("PatternMatchMetric", "ignoreCase", options.ignoreCase, false);
    try {
      this.compiled = compilePython(this.pattern, this.ignoreCase ? IGNORECASE : 0);
    } catch (error) {
      if (!(error instanceof PythonCompatError)) throw error;
      throw new InvalidArgumentError(`PatternMatchMetric: invalid regex pattern ${JSON.stringify(options.pattern)}: ${error.message}`, {
        argument: "pattern",
        expected: "a Python regular expression",
        actual: options.pattern,
      });
    }
  }

  override get name(): string {
    return "Pattern Match";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override evaluateSync(testCase: LLMTestCase): Evaluation {
    const actual = pyStrip(testCase.actualOutput ?? "");
    const matched = this.compiled.fullmatch(actual) !== null;
    return {
      score: matched ? 1 : 0,
      reason: matched ? "The actual output fully matches the pattern." : "The actual output does not match the pattern.",
      verboseSteps: [`Pattern: ${this.pattern}`, `Actual: ${actual}`],
    };
  }
}
