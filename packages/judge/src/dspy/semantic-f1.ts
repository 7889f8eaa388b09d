// DSPy `SemanticF1` and `CompleteAndGrounded` (dspy/evaluate/auto_evaluation.py; docs/spec/judges.md §7): LLM-judged
// recall/precision (or completeness/groundedness) combined with the judge F1, a continuous score at
// evaluation time and pass/fail when a `trace` is given.
import { Prediction } from "@evalkern/metrics/dsrs";
import { JudgeConfigError } from "../errors.js";
import { defaultJudge, resolveJudge } from "../defaults.js";
import type { GenerateResult, JudgeModel, JudgeUsage } from "../model.js";
import { addUsage, ZERO_USAGE } from "../usage.js";
import { fieldText, type Fields } from "./fields.js";
import { judgeF1 } from "./f1.js";
import {
  AnswerCompleteness,
  AnswerGroundedness,
  DecompositionalSemanticRecallPrecision,
  DSPY_PROMPT_VERSION,
  SemanticRecallPrecision,
  completenessMessages,
  groundednessMessages,
  semanticF1Messages,
} from "./prompts.js";

export interface SemanticF1Options {
  /**
   * The judge: a `JudgeModel` or a model name (`"gpt-4o-mini"`, built from the environment). Absent: the
   * default judge of `configure({ judge })` / `context({ judge }, fn)`, as DSPy uses `dspy.settings.lm`.
   */
  readonly model?: JudgeModel | string;
  /** Pass mark when a trace is given. Default 0.66. */
  readonly threshold?: number;
  /** Enumerate key ideas and discuss them before scoring (DSPy's decompositional signature). Default false. */
  readonly decompositional?: boolean;
  /** Ledger tag of this metric's calls. Default the class name. */
  readonly tag?: string;
}

export interface CompleteAndGroundedOptions {
  /** As `SemanticF1Options.model`. */
  readonly model?: JudgeModel | string;
  /** Pass mark when a trace is given. Default 0.66. */
  readonly threshold?: number;
  readonly tag?: string;
}

/** The `Prediction` the DSPy judge metrics return. */
export type JudgeMetricPrediction = Prediction &
  Readonly<{
    /** The F1 without a trace; `f1 >= threshold` with one. */
    score: number | boolean;
    /** Why: the judge's numbers and reasoning, usable as GEPA feedback. */
    feedback: string;
    /** The continuous F1, in both modes. */
    f1: number;
    /** `f1 >= threshold`, in both modes (a `Prediction` is always truthy, so test this, not the object). */
    passed: boolean;
    precision: number;
    recall: number;
    /** Tokens and cost of this evaluation's judge calls (cache hits cost 0). */
    usage: JudgeUsage;
    /** `"structured"`, or `"repaired-and-re-asked"` when a judge reply had to be asked again. */
    scoringPath: "structured" | "repaired-and-re-asked";
  }>;

function pathOf(...results: readonly { attempts?: number }[]): "structured" | "repaired-and-re-asked" {
  return results.some((result) => (result.attempts ?? 1) > 1) ? "repaired-and-re-asked" : "structured";
}

function checkModel(model: unknown, name: string): JudgeModel | undefined {
  // Given: a JudgeModel or a model name. Absent: the default judge in effect now, if any (else looked
  // up again on first use, as DSPy reads dspy.settings.lm at call time).
  if (model === undefined || model === null) return defaultJudge();
  if (typeof model === "string" || (typeof model === "object" && typeof (model as JudgeModel).generate === "function")) {
    return resolveJudge(model, name);
  }
  throw new JudgeConfigError(`${name}: options.model must be a JudgeModel or a model name`, { argument: "options.model" });
}

function checkThreshold(threshold: unknown): number {
  const t = threshold ?? 0.66;
  if (typeof t !== "number" || !Number.isFinite(t)) {
    throw new JudgeConfigError("options.threshold must be a finite number", { argument: "options.threshold", actual: String(t) });
  }
  return t;
}

const fixed = (x: number): string => x.toFixed(3);

function prediction(
  trace: unknown,
  threshold: number,
  f1: number,
  precision: number,
  recall: number,
  feedback: string,
  usage: JudgeUsage,
  scoringPath: "structured" | "repaired-and-re-asked",
): JudgeMetricPrediction {
  const passed = f1 >= threshold;
  const binarise = trace !== undefined && trace !== null;
  return Prediction.from({
    score: binarise ? passed : f1,
    feedback,
    f1,
    passed,
    precision,
    recall,
    usage,
    scoringPath,
  }) as JudgeMetricPrediction;
}

/**
 * DSPy `SemanticF1`: one judge call rates the recall and precision of `pred.response` against
 * `example.response` for `example.question`; the score is their F1.
 *
 * When to use: long-form answers where token overlap (SQuAD F1) misses paraphrases.
 *
 * Details:
 * - Calls: 1 (ChainOfThought over DSPy's `SemanticRecallPrecision`, or the decompositional signature
 *   that enumerates key ideas and discusses them first). Output schema: `reasoning`, [`ground_truth_key_ideas`,
 *   `system_response_key_ideas`, `discussion`,] `recall`, `precision`.
 * - Score: `f1 = judgeF1(precision, recall)` (both clamped to [0, 1]; `p + r = 0 → 0`). Without a trace
 *   `score = f1`; with one, `score = f1 >= threshold` (default 0.66).
 * - A judge failure rejects with the typed `JudgeError` (DSPy's `Evaluate` counts it as an error); it is
 *   never turned into a 0.
 *
 * Gotchas: a `Prediction` is truthy whatever its score; read `score` or `passed`.
 *
 * @example
 * const metric = new SemanticF1({ model: judge, decompositional: true });
 * const result = await metric.forward(Example.from({ question, response: gold }), Prediction.from({ response }));
 * result.score; // 0.8
 */
export class SemanticF1 {
  private resolvedModel: JudgeModel | undefined;
  readonly threshold: number;
  readonly decompositional: boolean;
  readonly tag: string;

  /** The judge: the one given, else the default judge (read when first needed if none was set at construction). */
  get model(): JudgeModel {
    return (this.resolvedModel ??= resolveJudge(undefined, this.tag));
  }

  constructor(options: SemanticF1Options = {}) {
    this.resolvedModel = checkModel(options?.model, "SemanticF1");
    this.threshold = checkThreshold(options.threshold);
    this.decompositional = options.decompositional === true;
    this.tag = options.tag ?? "SemanticF1";
  }

  /** DSPy `metric(example, pred, trace=None)`. */
  async forward(example: Fields, pred: Fields, trace?: unknown): Promise<JudgeMetricPrediction> {
    const question = fieldText(example, "question", "example");
    const groundTruth = fieldText(example, "response", "example");
    const response = fieldText(pred, "response", "pred");
    const messages = semanticF1Messages(question, groundTruth, response, this.decompositional);
    let result: GenerateResult<{ reasoning: string; recall: number; precision: number; discussion?: string }>;
    if (this.decompositional) {
      result = await this.model.generate({
        messages,
        schema: DecompositionalSemanticRecallPrecision,
        metric: this.tag,
        promptVersion: DSPY_PROMPT_VERSION,
      });
    } else {
      result = await this.model.generate({
        messages,
        schema: SemanticRecallPrecision,
        metric: this.tag,
        promptVersion: DSPY_PROMPT_VERSION,
      });
    }
    const { recall, precision, reasoning } = result.value;
    const f1 = judgeF1(precision, recall);
    const discussion = result.value.discussion ? `\nDiscussion: ${result.value.discussion}` : "";
    const feedback =
      `Semantic F1 ${fixed(f1)} (precision ${fixed(precision)}, recall ${fixed(recall)}).` + `${discussion}\nReasoning: ${reasoning}`;
    return prediction(trace, this.threshold, f1, precision, recall, feedback, result.usage, pathOf(result));
  }

  /** This metric as a plain DSPy metric function `(example, pred, trace?) => Promise<Prediction>`. */
  asMetric(): (example: Fields, pred: Fields, trace?: unknown) => Promise<JudgeMetricPrediction> {
    return (example, pred, trace) => this.forward(example, pred, trace);
  }
}

/**
 * DSPy `CompleteAndGrounded`: two judge calls, in order — completeness of `pred.response` against
 * `example.response`, then groundedness of `pred.response` in `pred.context` — combined as
 * `judgeF1(precision = groundedness, recall = completeness)`.
 *
 * Details: binarised at `threshold` (default 0.66) when a trace is given, as `SemanticF1`. `pred.context`
 * may be a string or a list of passages (numbered in the prompt).
 *
 * @example
 * const metric = new CompleteAndGrounded({ model: judge });
 * (await metric.forward(example, Prediction.from({ response, context: passages }))).score;
 */
export class CompleteAndGrounded {
  private resolvedModel: JudgeModel | undefined;
  readonly threshold: number;
  readonly tag: string;

  /** The judge: the one given, else the default judge (read when first needed if none was set at construction). */
  get model(): JudgeModel {
    return (this.resolvedModel ??= resolveJudge(undefined, this.tag));
  }

  constructor(options: CompleteAndGroundedOptions = {}) {
    this.resolvedModel = checkModel(options?.model, "CompleteAndGrounded");
    this.threshold = checkThreshold(options.threshold);
    this.tag = options.tag ?? "CompleteAndGrounded";
  }

  async forward(example: Fields, pred: Fields, trace?: unknown): Promise<JudgeMetricPrediction> {
    const question = fieldText(example, "question", "example");
    const groundTruth = fieldText(example, "response", "example");
    const response = fieldText(pred, "response", "pred");
    const context = fieldText(pred, "context", "pred");
    const common = { metric: this.tag, promptVersion: DSPY_PROMPT_VERSION } as const;
    // Sequential, as in DSPy.
    const completeness = await this.model.generate({
      messages: completenessMessages(question, groundTruth, response),
      schema: AnswerCompleteness,
      ...common,
    });
    const groundedness = await this.model.generate({
      messages: groundednessMessages(question, context, response),
      schema: AnswerGroundedness,
      ...common,
    });
    const recall = completeness.value.completeness;
    const precision = groundedness.value.groundedness;
    const f1 = judgeF1(precision, recall);
    const feedback =
      `Complete-and-grounded F1 ${fixed(f1)} (groundedness ${fixed(precision)}, completeness ${fixed(recall)}).\n` +
      `Completeness: ${completeness.value.discussion}\nGroundedness: ${groundedness.value.discussion}`;
    const usage = addUsage(addUsage(ZERO_USAGE, completeness.usage), groundedness.usage);
    return prediction(trace, this.threshold, f1, precision, recall, feedback, usage, pathOf(completeness, groundedness));
  }

  asMetric(): (example: Fields, pred: Fields, trace?: unknown) => Promise<JudgeMetricPrediction> {
    return (example, pred, trace) => this.forward(example, pred, trace);
  }
}
