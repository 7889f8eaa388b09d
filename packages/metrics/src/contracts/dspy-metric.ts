// The DSPy metric contract (dspy/evaluate/evaluate.py, dspy/teleprompt/gepa/gepa_utils.py): a metric is
// any function `(gold, pred, trace?, predName?, predTrace?)` returning a bool, a number, or a
// `Prediction` with `score` and `feedback` fields (GEPA's `ScoreWithFeedback`), synchronously or not.
import { InvalidArgumentError } from "../errors.js";
import { Example, type FieldSource } from "./example.js";

/** What a DSPy metric may return: `true`/`false`, a number, or something with a `score` (and `feedback`). */
export type DspyMetricValue = boolean | number | ScoreWithFeedback;

/**
 * A score with feedback text (DSPy `dspy.Prediction(score=..., feedback=...)`, GEPA's
 * `ScoreWithFeedback`): a `Prediction` with those fields, or a plain object of the same shape.
 */
export type ScoreWithFeedback = FieldSource;

/**
 * A DSPy metric: `(gold, pred, trace?, predName?, predTrace?) => bool | number | Prediction{score, feedback?}`,
 * sync or async. `trace` is set while DSPy optimisers bootstrap demonstrations; `predName` and
 * `predTrace` are GEPA's per-predictor feedback arguments. Metrics that ignore them may omit them.
 *
 * @example
 * const exact: DspyMetric = (gold, pred) => gold.answer === pred.answer;
 * const withFeedback: DspyMetric = (gold, pred) => Prediction.from({ score: 0.5, feedback: "half right" });
 */
export type DspyMetric<Gold = Example, Pred = Example> = (
  gold: Gold,
  pred: Pred,
  trace?: unknown,
  predName?: string,
  predTrace?: unknown,
) => DspyMetricValue | PromiseLike<DspyMetricValue>;

function badScore(message: string, actual: string): InvalidArgumentError {
  return new InvalidArgumentError(message, {
    argument: "value",
    expected: "boolean, finite number, or Prediction/object with a boolean or finite-number `score`",
    actual,
  });
}

function numberOf(value: unknown, where: string): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw badScore(`${where} is ${value}: a metric score must be finite (never NaN or infinite)`, String(value));
  }
  throw badScore(`${where} must be a boolean or a number, got ${value === null ? "null" : typeof value}`, typeof value);
}

/**
 * The number in a DSPy metric's result: `true` → 1, `false` → 0, a finite number as is, a `Prediction`
 * or plain object → its `score` field read the same way.
 *
 * When to use: to aggregate results of arbitrary DSPy-style metrics (as `dspy.Evaluate` does with
 * `float(score)`).
 *
 * Gotchas: NaN, ±Infinity, a missing `score`, strings and other shapes throw `InvalidArgumentError`
 * instead of becoming NaN. A `Promise` must be awaited first (see `runDspyMetric`).
 *
 * @example
 * scoreOf(true);                                                // 1
 * scoreOf(0.25);                                                // 0.25
 * scoreOf(Prediction.from({ score: 0.5, feedback: "close" }));  // 0.5
 */
export function scoreOf(value: unknown): number {
  if (typeof value === "boolean" || typeof value === "number") return numberOf(value, "metric value");
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    if (typeof (value as { then?: unknown }).then === "function") {
      throw badScore("metric value is a Promise: await it first (or use runDspyMetric)", "Promise");
    }
    const source = value as FieldSource;
    const has = source instanceof Example ? source.has("score") : Object.prototype.hasOwnProperty.call(source, "score");
    if (!has) throw badScore("metric value is an object without a `score` field", "object without score");
    const score = source instanceof Example ? source.get("score") : (source as Record<string, unknown>).score;
    return numberOf(score, "metric value `score`");
  }
  throw badScore(
    `metric value must be a boolean, a number or a Prediction with a score` +
      `, got ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`,
    value === null ? "null" : typeof value,
  );
}

/**
 * The `feedback` text of a metric result, when it has one (a `Prediction` or object with a string
 * `feedback` field); undefined for booleans, numbers and objects without it.
 */
export function feedbackOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const feedback = value instanceof Example ? value.get("feedback") : (value as Record<string, unknown>).feedback;
  return typeof feedback === "string" ? feedback : undefined;
}

/** A metric result read into a number, with the feedback when the metric gave one. */
export interface DspyMetricResult {
  readonly score: number;
  readonly feedback: string | undefined;
}

/**
 * Call a DSPy metric, await it if it is async, and read its score (and feedback).
 *
 * @example
 * await runDspyMetric((g, p) => g.answer === p.answer, gold, pred); // { score: 1, feedback: undefined }
 */
export async function runDspyMetric<Gold, Pred>(
  metric: DspyMetric<Gold, Pred>,
  gold: Gold,
  pred: Pred,
  trace?: unknown,
  predName?: string,
  predTrace?: unknown,
): Promise<DspyMetricResult> {
  if (typeof metric !== "function") {
    throw new InvalidArgumentError("metric must be a function", { argument: "metric", expected: "function", actual: typeof metric });
  }
  const value: unknown = await metric(gold, pred, trace, predName, predTrace);
  return { score: scoreOf(value), feedback: feedbackOf(value) };
}
