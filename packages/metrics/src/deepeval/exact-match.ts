// DeepEval's `ExactMatchMetric` (deepeval/metrics/exact_match): 1 when the stripped outputs are equal, else
// the token F1 of `\w+` tokens of the lower-cased texts (or 0 with `computeF1: false`). No model.
import { pyFormatFixed } from "../python/round.js";
import { compilePython } from "../python/regex.js";
import { pyLower, pyStrip } from "../python/str.js";
import { ready } from "@evalkern/core-wasm";
import { BaseMetric, type Evaluation, type ScoredMetricOptions } from "./base-metric.js";
import type { LLMTestCase } from "./llm-test-case.js";
import type { MeasureContext } from "./metric-core.js";
import { LLMTestCaseParams } from "./params.js";
import { expectOptions, optionalBoolean } from "./validate.js";

export interface ExactMatchOptions extends ScoredMetricOptions {
  /** Score a mismatch by token F1 (true, DeepEval's default) or 0. */
  readonly computeF1?: boolean;
}

/** Precision, recall and F1 of one comparison. */
export interface ExactMatchBreakdown {
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Python `re.findall(r"\w+", text.lower())`: Unicode word characters, as DeepEval tokenises. */
function tokens(text: string): string[] {
  return compilePython("\\w+").findall(pyLower(text));
}

/** DeepEval's `_compute_precision_recall_f1`: multiset overlap of the tokens. */
export function tokenPrecisionRecallF1(expected: string, actual: string): ExactMatchBreakdown {
  const expectedTokens = tokens(expected);
  const actualTokens = tokens(actual);
  if (expectedTokens.length === 0 || actualTokens.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const counts = new Map<string, number>();
  for (const token of expectedTokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  let overlap = 0;
  for (const token of actualTokens) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      overlap += 1;
      counts.set(token, left - 1);
    }
  }
  const precision = overlap / actualTokens.length;
  const recall = overlap / expectedTokens.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/**
 * Whether the output equals the expected output, with partial credit (DeepEval `ExactMatchMetric`).
 *
 * When to use: short answers with one right spelling; no model is needed (`measure()` works after
 * `await ready()` once — the lower-casing runs in the WebAssembly kernels; `aMeasure` loads them itself).
 *
 * Details: both outputs are stripped of Python whitespace. Equal → 1 (`"The actual and expected outputs are
 * exact matches."`). Otherwise, with `computeF1` (default true), the score is the F1 of the `\w+` tokens of
 * the lower-cased texts (multiset overlap; 0 when either has no token) and the reason gives
 * `Precision=…, Recall=…, F1=…` to two decimals; without it the score is 0. Requires `input`,
 * `actualOutput` and `expectedOutput`. Threshold 0.5; `strictMode` makes it 1 and, as in DeepEval, leaves
 * the score as computed (it is not binarised). `breakdown` holds the last precision, recall and F1.
 *
 * @example
 * const metric = new ExactMatchMetric();
 * metric.measure(new LLMTestCase({ input: "Capital?", actualOutput: "Paris", expectedOutput: "Paris, France" }));
 * // 0.666…: precision 1, recall 0.5
 */
export class ExactMatchMetric extends BaseMetric {
  readonly computeF1: boolean;
  /** Precision, recall and F1 of the last measurement. */
  breakdown: ExactMatchBreakdown | null = null;

  constructor(options: ExactMatchOptions = {}) {
    expectOptions("ExactMatchMetric", options);
    super(options, { defaultThreshold: 0.5, strictBinarizes: false });
    this.computeF1 = optionalBoolean("ExactMatchMetric", "computeF1", options.computeF1, true);
  }

  override get name(): string {
    return "Exact Match";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.EXPECTED_OUTPUT];
  }

  protected override resetState(): void {
    super.resetState();
    this.breakdown = null;
  }

  /** Python's `str.lower()` runs in the WebAssembly kernels: `aMeasure` loads them, `measure` needs `ready()` first. */
  protected override async evaluateAsync(testCase: LLMTestCase, context: MeasureContext): Promise<Evaluation> {
    await ready();
    return this.evaluateSync(testCase, context);
  }

  protected override evaluateSync(testCase: LLMTestCase, _context?: MeasureContext): Evaluation {
    const expected = pyStrip(testCase.expectedOutput ?? "");
    const actual = pyStrip(testCase.actualOutput ?? "");
    let reason: string;
    if (expected === actual) {
      this.breakdown = { precision: 1, recall: 1, f1: 1 };
      reason = "The actual and expected outputs are exact matches.";
    } else if (this.computeF1) {
      this.breakdown = tokenPrecisionRecallF1(expected, actual);
      const { precision, recall, f1 } = this.breakdown;
      reason =
        "Outputs are not exact matches. " +
        `Precision=${pyFormatFixed(precision, 2)}, Recall=${pyFormatFixed(recall, 2)}, F1=${pyFormatFixed(f1, 2)}`;
    } else {
      this.breakdown = { precision: 0, recall: 0, f1: 0 };
      reason = "Outputs differ and F1 computation was skipped.";
    }
    const { precision, recall, f1 } = this.breakdown;
    return {
      score: f1,
      reason,
      verboseSteps: [`Precision: ${pyFormatFixed(precision, 2)}`, `Recall: ${pyFormatFixed(recall, 2)}`, `F1: ${pyFormatFixed(f1, 2)}`],
    };
  }
}
