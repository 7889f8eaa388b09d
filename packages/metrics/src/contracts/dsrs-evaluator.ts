// dsrs's `Evaluator`, `FeedbackMetric` and `FeedbackEvaluator` (crates/dsrs/src/evaluate/evaluator.rs and
// feedback.rs) as TypeScript contracts. Spec: docs/spec/dsrs.md §1.1-1.3. Interfaces plus free functions and
// factories that supply dsrs's provided methods and associated constants (no class hierarchy).
//
// dsrs computes in f32 (metric values, the mean, FeedbackMetric.score); so do we, with Math.fround after
// every operation, which gives dsrs's exact bits.
import { EvalkernError, InvalidArgumentError } from "../errors.js";
import type { Example, Prediction } from "./example.js";

const f32 = Math.fround;

/** dsrs `Evaluator::MAX_CONCURRENCY`. */
export const DEFAULT_MAX_CONCURRENCY = 32;
/** dsrs `Evaluator::DISPLAY_PROGRESS`. */
export const DEFAULT_DISPLAY_PROGRESS = true;

/**
 * What an evaluator is made of (dsrs `Evaluator`, which extends `Module`): the program's `forward`, the
 * `metric` scoring one (example, prediction) pair, and optionally the two associated constants.
 * `defineEvaluator` turns it into an `Evaluator`; `evaluate` accepts either.
 */
export interface EvaluatorSpec<In = Example, Out = Prediction> {
  /** Concurrent calls allowed (dsrs `MAX_CONCURRENCY`, default 32). A positive integer. */
  readonly maxConcurrency?: number;
  /** Whether `evaluate` reports progress (dsrs `DISPLAY_PROGRESS`, default true). */
  readonly displayProgress?: boolean;
  /** The program (dsrs `Module::forward`): one prediction per example. May throw or reject. */
  forward(input: In): Out | PromiseLike<Out>;
  /** Score of one pair (dsrs `metric`, an f32 with no range enforced). Must be a finite number. */
  metric(example: In, prediction: Out): number | PromiseLike<number>;
}

/** An evaluator with its constants resolved and dsrs's provided `evaluate` method. */
export interface Evaluator<In = Example, Out = Prediction> extends EvaluatorSpec<In, Out> {
  readonly specificationVersion: "v1";
  readonly maxConcurrency: number;
  readonly displayProgress: boolean;
  /** See the free function `evaluate`. */
  evaluate(examples: readonly In[], options?: EvaluateOptions): Promise<EvaluationResult>;
}

/** Progress of `evaluate` (dsrs draws a bar labelled "Processing" that advances per finished forward). */
export interface EvaluationProgress {
  readonly label: "Processing";
  readonly done: number;
  readonly total: number;
}

export interface EvaluateOptions {
  /**
   * Called after each finished `forward` when `displayProgress` is true. This package is
   * runtime-neutral and draws nothing itself: a CLI or harness passes a renderer here.
   */
  readonly onProgress?: (progress: EvaluationProgress) => void;
}

/** One example that failed: its index, the step that failed, and what was thrown. */
export interface EvaluationFailure {
  readonly index: number;
  readonly stage: "forward" | "metric";
  readonly error: unknown;
}

/**
 * The outcome of `evaluate`: the mean, or the failures. A failure is reported, never turned into a
 * default score, and no partial mean is given.
 */
export type EvaluationResult =
  | {
      readonly ok: true;
      /** f32 mean of the metric values: (f32 sum in input order) / f32(count). */
      readonly mean: number;
      /** Each example's metric value as f32, in input order. */
      readonly scores: readonly number[];
      readonly count: number;
    }
  | {
      readonly ok: false;
      /** Every failing example, in input order; the first is the error dsrs would have panicked on. */
      readonly failures: readonly EvaluationFailure[];
      readonly count: number;
    };

function checkSpec(spec: unknown): asserts spec is EvaluatorSpec<unknown, unknown> {
  if (typeof spec !== "object" || spec === null) {
    throw new InvalidArgumentError("an evaluator must be an object with forward and metric", { argument: "evaluator" });
  }
  const s = spec as Record<string, unknown>;
  for (const name of ["forward", "metric"] as const) {
    if (typeof s[name] !== "function") {
      throw new InvalidArgumentError(`evaluator.${name} must be a function`, {
        argument: `evaluator.${name}`,
        expected: "function",
        actual: typeof s[name],
      });
    }
  }
}

function resolveMaxConcurrency(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_CONCURRENCY;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`maxConcurrency must be a positive integer, got ${String(value)}`, {
      argument: "maxConcurrency",
      expected: "integer >= 1",
      actual: String(value),
    });
  }
  return value;
}

function resolveDisplayProgress(value: unknown): boolean {
  if (value === undefined) return DEFAULT_DISPLAY_PROGRESS;
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError(`displayProgress must be a boolean, got ${typeof value}`, {
      argument: "displayProgress",
      expected: "boolean",
      actual: typeof value,
    });
  }
  return value;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Run `fn` over `items` with at most `limit` calls in flight; results in input order. */
async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => R | PromiseLike<R>,
  onSettled?: () => void,
): Promise<Settled<R>[]> {
  const results = new Array<Settled<R>>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { ok: true, value: await fn(items[i]!, i) };
      } catch (error) {
        results[i] = { ok: false, error };
      }
      onSettled?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A metric returned something that is not a finite f32 number. */
export class MetricValueError extends EvalkernError {
  override name = "MetricValueError";
  override readonly code: string = "METRIC_VALUE";
  readonly value: unknown;
  constructor(value: unknown) {
    super(`metric must return a finite number (as an f32), got ${typeof value === "number" ? String(value) : typeof value}`);
    this.value = value;
  }
}

/**
 * dsrs's provided `Evaluator::evaluate`: run `forward` on every example (at most `maxConcurrency` in
 * flight), then `metric` on every (example, prediction) pair (same limit), and return the f32 mean.
 *
 * When to use: a quick mean score of a program over a dev set, with dsrs's numbers.
 *
 * Details: the sum runs in input order (dsrs sums in completion order, which for metrics that never
 * suspend is input order), each value and each partial sum rounded to f32, then divided by the count
 * as f32. Progress goes to `options.onProgress` (label "Processing", advancing per finished forward)
 * when `displayProgress` is true.
 *
 * Gotchas (deliberate differences from dsrs):
 * - An empty `examples` throws `InvalidArgumentError`; dsrs returns NaN (0/0).
 * - A failing `forward` makes dsrs panic; here every failure is collected and the result is
 *   `{ ok: false, failures }` with no metric calls. A throwing metric or one returning a non-finite
 *   number (or a value outside the f32 range) is a failure too, with stage "metric".
 *
 * @example
 * const result = await evaluate(
 *   { forward: (ex) => Prediction.from({ answer: ex.question === "2+2?" ? "4" : "?" }),
 *     metric: (ex, pred) => (ex.answer === pred.answer ? 1 : 0) },
 *   [Example.from({ question: "2+2?", answer: "4" })],
 * );
 * if (result.ok) result.mean; // 1
 */
export async function evaluate<In, Out>(
  evaluator: EvaluatorSpec<In, Out>,
  examples: readonly In[],
  options: EvaluateOptions = {},
): Promise<EvaluationResult> {
  checkSpec(evaluator);
  const maxConcurrency = resolveMaxConcurrency(evaluator.maxConcurrency);
  const displayProgress = resolveDisplayProgress(evaluator.displayProgress);
  if (!Array.isArray(examples)) {
    throw new InvalidArgumentError("examples must be an array", { argument: "examples", expected: "array", actual: typeof examples });
  }
  const count = examples.length;
  if (count === 0) {
    throw new InvalidArgumentError("examples is empty: there is no mean of nothing (dsrs would return NaN)", {
      argument: "examples",
      expected: "at least one example",
      actual: "[]",
    });
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    throw new InvalidArgumentError("options.onProgress must be a function", { argument: "options.onProgress" });
  }
  let done = 0;
  const report =
    displayProgress && options.onProgress ? () => options.onProgress!({ label: "Processing", done: ++done, total: count }) : undefined;

  const predictions = await mapConcurrent(examples, maxConcurrency, (ex) => evaluator.forward(ex), report);
  const failures: EvaluationFailure[] = [];
  predictions.forEach((p, index) => {
    if (!p.ok) failures.push({ index, stage: "forward", error: p.error });
  });
  if (failures.length > 0) return { ok: false, failures, count };

  const values = await mapConcurrent(examples, maxConcurrency, async (ex, i) => {
    const v: unknown = await evaluator.metric(ex, (predictions[i] as { value: Out }).value);
    const x = typeof v === "number" ? f32(v) : NaN;
    if (!Number.isFinite(x)) throw new MetricValueError(v);
    return x;
  });
  const scores: number[] = [];
  let sum = 0;
  values.forEach((v, index) => {
    if (!v.ok) failures.push({ index, stage: "metric", error: v.error });
    else {
      scores.push(v.value);
      sum = f32(sum + v.value);
    }
  });
  if (failures.length > 0) return { ok: false, failures, count };
  return { ok: true, mean: f32(sum / f32(count)), scores, count };
}

/**
 * An `Evaluator` from its parts, with dsrs's defaults (`maxConcurrency` 32, `displayProgress` true) and
 * the provided `evaluate` method. Validates the parts now.
 *
 * @example
 * const ev = defineEvaluator({ forward: program, metric: (ex, pred) => (ex.answer === pred.answer ? 1 : 0) });
 * ev.maxConcurrency;                 // 32
 * const result = await ev.evaluate(devset);
 */
export function defineEvaluator<In = Example, Out = Prediction>(spec: EvaluatorSpec<In, Out>): Evaluator<In, Out> {
  checkSpec(spec);
  const self: Evaluator<In, Out> = {
    specificationVersion: "v1",
    maxConcurrency: resolveMaxConcurrency(spec.maxConcurrency),
    displayProgress: resolveDisplayProgress(spec.displayProgress),
    forward: (input) => spec.forward(input),
    metric: (example, prediction) => spec.metric(example, prediction),
    evaluate: (examples, options) => evaluate(self, examples, options),
  };
  return Object.freeze(self);
}

// ----------------------------------------------------------------------------------------- feedback

/**
 * A score with textual feedback and structured metadata (dsrs `FeedbackMetric`), as GEPA-style
 * optimisers consume it. `score` is an f32 with no range enforced ("typically 0.0 to 1.0").
 */
export interface FeedbackMetric {
  readonly score: number;
  readonly feedback: string;
  /** JSON-serialisable values (dsrs: a map of string to `serde_json::Value`). */
  readonly metadata: Readonly<Record<string, unknown>>;
}

function checkScore(score: unknown): number {
  const x = typeof score === "number" ? f32(score) : NaN;
  if (!Number.isFinite(x)) {
    throw new InvalidArgumentError(
      `score must be a finite number within the f32 range, got ${typeof score === "number" ? score : typeof score}`,
      {
        argument: "score",
        expected: "finite f32",
        actual: typeof score === "number" ? String(score) : typeof score,
      },
    );
  }
  return x;
}

function checkFeedback(feedback: unknown): string {
  if (typeof feedback !== "string") {
    throw new InvalidArgumentError(`feedback must be a string, got ${typeof feedback}`, {
      argument: "feedback",
      expected: "string",
      actual: typeof feedback,
    });
  }
  return feedback;
}

function checkMetadata(metadata: unknown): Record<string, unknown> {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw new InvalidArgumentError("metadata must be a plain object", {
      argument: "metadata",
      expected: "object",
      actual: Array.isArray(metadata) ? "array" : metadata === null ? "null" : typeof metadata,
    });
  }
  return { ...(metadata as Record<string, unknown>) };
}

function make(score: number, feedback: string, metadata: Record<string, unknown>): FeedbackMetric {
  return Object.freeze({ score, feedback, metadata: Object.freeze(metadata) });
}

/**
 * Constructors of `FeedbackMetric` (dsrs `new`, `with_metadata`, `add_metadata`, `Default`). Results are
 * frozen; the score is rounded to f32; NaN, infinities and values beyond the f32 range throw.
 *
 * @example
 * const m = FeedbackMetric.new(0.75, "3 of 4 steps right");
 * FeedbackMetric.addMetadata(m, "steps", 4).metadata; // { steps: 4 }
 * FeedbackMetric.default();                          // { score: 0, feedback: "", metadata: {} }
 */
export const FeedbackMetric = Object.freeze({
  /** `score` and `feedback`, empty metadata. */
  new(score: number, feedback: string): FeedbackMetric {
    return make(checkScore(score), checkFeedback(feedback), {});
  },
  /** `score`, `feedback` and a copy of `metadata`. */
  withMetadata(score: number, feedback: string, metadata: Readonly<Record<string, unknown>>): FeedbackMetric {
    return make(checkScore(score), checkFeedback(feedback), checkMetadata(metadata));
  },
  /** A copy of `metric` with `key` set to `value` (replacing an earlier value). */
  addMetadata(metric: FeedbackMetric, key: string, value: unknown): FeedbackMetric {
    if (typeof key !== "string") {
      throw new InvalidArgumentError("metadata key must be a string", { argument: "key", expected: "string", actual: typeof key });
    }
    const base = FeedbackMetric.from(metric);
    return make(base.score, base.feedback, { ...base.metadata, [key]: value });
  },
  /** dsrs `Default`: score 0, empty feedback, empty metadata. */
  default(): FeedbackMetric {
    return make(0, "", {});
  },
  /** Check an object of the `FeedbackMetric` shape (e.g. returned by user code); metadata defaults to {}. */
  from(value: unknown): FeedbackMetric {
    if (typeof value !== "object" || value === null) {
      throw new InvalidArgumentError("a FeedbackMetric must be an object { score, feedback, metadata? }", {
        argument: "feedbackMetric",
        actual: value === null ? "null" : typeof value,
      });
    }
    const v = value as Record<string, unknown>;
    return make(checkScore(v.score), checkFeedback(v.feedback), v.metadata === undefined ? {} : checkMetadata(v.metadata));
  },
});

/**
 * What a feedback evaluator is made of (dsrs `FeedbackEvaluator`): `feedbackMetric`, and optionally
 * `multiObjectiveMetric` for several objectives at once.
 */
export interface FeedbackEvaluatorSpec<In = Example, Out = Prediction> {
  feedbackMetric(example: In, prediction: Out): FeedbackMetric | PromiseLike<FeedbackMetric>;
  multiObjectiveMetric?(example: In, prediction: Out): readonly FeedbackMetric[] | PromiseLike<readonly FeedbackMetric[]>;
}

/** A feedback evaluator with dsrs's provided `multiObjectiveMetric`; results are checked and frozen. */
export interface FeedbackEvaluator<In = Example, Out = Prediction> {
  readonly specificationVersion: "v1";
  feedbackMetric(example: In, prediction: Out): Promise<FeedbackMetric>;
  multiObjectiveMetric(example: In, prediction: Out): Promise<readonly FeedbackMetric[]>;
}

/**
 * dsrs's provided `multi_objective_metric`: the evaluator's own when it has one, else a one-element
 * list holding `feedbackMetric`'s result.
 */
export async function multiObjectiveMetric<In, Out>(
  evaluator: FeedbackEvaluatorSpec<In, Out>,
  example: In,
  prediction: Out,
): Promise<readonly FeedbackMetric[]> {
  if (typeof evaluator !== "object" || evaluator === null || typeof evaluator.feedbackMetric !== "function") {
    throw new InvalidArgumentError("a feedback evaluator needs a feedbackMetric function", { argument: "evaluator" });
  }
  if (evaluator.multiObjectiveMetric === undefined) {
    return Object.freeze([FeedbackMetric.from(await evaluator.feedbackMetric(example, prediction))]);
  }
  if (typeof evaluator.multiObjectiveMetric !== "function") {
    throw new InvalidArgumentError("evaluator.multiObjectiveMetric must be a function", { argument: "evaluator.multiObjectiveMetric" });
  }
  const list: unknown = await evaluator.multiObjectiveMetric(example, prediction);
  if (!Array.isArray(list)) {
    throw new InvalidArgumentError("multiObjectiveMetric must return an array of FeedbackMetric", {
      argument: "multiObjectiveMetric",
      expected: "FeedbackMetric[]",
      actual: typeof list,
    });
  }
  return Object.freeze(list.map((m) => FeedbackMetric.from(m)));
}

/**
 * A `FeedbackEvaluator` from its parts, supplying the default `multiObjectiveMetric` (`[feedbackMetric]`).
 *
 * @example
 * const fe = defineFeedbackEvaluator({
 *   feedbackMetric: (ex, pred) => FeedbackMetric.new(ex.answer === pred.answer ? 1 : 0, "exact match"),
 * });
 * await fe.multiObjectiveMetric(ex, pred); // [{ score: 1, feedback: "exact match", metadata: {} }]
 */
export function defineFeedbackEvaluator<In = Example, Out = Prediction>(spec: FeedbackEvaluatorSpec<In, Out>): FeedbackEvaluator<In, Out> {
  if (typeof spec !== "object" || spec === null || typeof spec.feedbackMetric !== "function") {
    throw new InvalidArgumentError("a feedback evaluator needs a feedbackMetric function", { argument: "evaluator.feedbackMetric" });
  }
  if (spec.multiObjectiveMetric !== undefined && typeof spec.multiObjectiveMetric !== "function") {
    throw new InvalidArgumentError("evaluator.multiObjectiveMetric must be a function", { argument: "evaluator.multiObjectiveMetric" });
  }
  return Object.freeze({
    specificationVersion: "v1" as const,
    feedbackMetric: async (example: In, prediction: Out) => FeedbackMetric.from(await spec.feedbackMetric(example, prediction)),
    multiObjectiveMetric: (example: In, prediction: Out) => multiObjectiveMetric(spec, example, prediction),
  });
}
