// dsrs's `Metric` trait family (crates/dsrs/src/evaluate/metrics.rs) as TypeScript contracts:
// `MetricTier`, `MetricScore`, `Metric`, `MetricSet` and `MetricResults`. Spec: docs/spec/dsrs.md §1.4-1.9.
import { InvalidArgumentError } from "../errors.js";
import type { FieldSource } from "./example.js";

/**
 * How expensive and how trustworthy a metric is (dsrs `MetricTier`).
 *
 * - `"proxy"`: cheap and fast; run first and often (format, length, syntax checks).
 * - `"truth"`: expensive and accurate; run for final decisions (judges, sandboxes, diffs).
 *
 * The values are the serialised names dsrs uses.
 */
export type MetricTier = "proxy" | "truth";

/** The two tiers by their dsrs variant names: `MetricTier.Proxy === "proxy"`. */
export const MetricTier = Object.freeze({ Proxy: "proxy", Truth: "truth" } as const);

function clampUnit(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

function checkFinite(value: unknown, argument: string): number {
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new InvalidArgumentError(`${argument} must be a number (NaN is not a score)`, {
      argument,
      expected: "a number",
      actual: typeof value === "number" ? "NaN" : typeof value,
    });
  }
  return value;
}

/** Millisatoshis are u64 in dsrs: a non-negative safe integer here. */
export function checkMsats(value: unknown, argument: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${argument} must be a non-negative integer number of millisatoshis`, {
      argument,
      expected: "a non-negative safe integer",
      actual: String(value),
    });
  }
  return value;
}

/**
 * One metric result (dsrs `MetricScore`): a value in [0, 1], a confidence in [0, 1], optional details
 * and the actual cost in millisatoshis. Immutable: the `with*` methods return a new score.
 *
 * Details:
 * - `MetricScore.new(v)` clamps `v` to [0, 1], confidence 1.0, no details, cost 0.
 * - `perfect()` = `new(1)`; `fail(reason)` = `new(0)` with `details = reason`. Confidence stays 1.0
 *   for both, as in dsrs.
 * - `passes(threshold)` is `value >= threshold` (inclusive).
 *
 * Gotchas: dsrs's clamp lets NaN through; here NaN is rejected with `InvalidArgumentError`, so a
 * score is never NaN.
 *
 * @example
 * MetricScore.new(1.7).value;                        // 1
 * MetricScore.fail("Output is empty").details;       // "Output is empty"
 * MetricScore.new(0.5).withCost(100).costMsats;      // 100
 */
export class MetricScore {
  readonly value: number;
  readonly confidence: number;
  readonly details: string | undefined;
  readonly costMsats: number;

  private constructor(value: number, confidence: number, details: string | undefined, costMsats: number) {
    this.value = value;
    this.confidence = confidence;
    this.details = details;
    this.costMsats = costMsats;
    Object.freeze(this);
  }

  /** A score of `value` clamped to [0, 1], confidence 1.0, no details, cost 0. */
  static new(value: number): MetricScore {
    return new MetricScore(clampUnit(checkFinite(value, "value")), 1, undefined, 0);
  }

  /** `new(1)`. */
  static perfect(): MetricScore {
    return MetricScore.new(1);
  }

  /** `new(0)` with `details = reason` (confidence stays 1.0). */
  static fail(reason: string): MetricScore {
    return MetricScore.new(0).withDetails(reason);
  }

  /** dsrs `Default`: `new(0)`, so confidence 1.0. */
  static default(): MetricScore {
    return MetricScore.new(0);
  }

  /** A copy with the confidence clamped to [0, 1]. */
  withConfidence(confidence: number): MetricScore {
    return new MetricScore(this.value, clampUnit(checkFinite(confidence, "confidence")), this.details, this.costMsats);
  }

  /** A copy with these details. */
  withDetails(details: string): MetricScore {
    if (typeof details !== "string") {
      throw new InvalidArgumentError("details must be a string", { argument: "details", actual: typeof details });
    }
    return new MetricScore(this.value, this.confidence, details, this.costMsats);
  }

  /** A copy with this cost in millisatoshis. */
  withCost(costMsats: number): MetricScore {
    return new MetricScore(this.value, this.confidence, this.details, checkMsats(costMsats, "costMsats"));
  }

  /** `value >= threshold`. */
  passes(threshold: number): boolean {
    return this.value >= threshold;
  }

  /** The JSON shape; `details` is left out when absent, as dsrs's serde attribute does. */
  toJSON(): { value: number; confidence: number; details?: string; costMsats: number } {
    return this.details === undefined
      ? { value: this.value, confidence: this.confidence, costMsats: this.costMsats }
      : { value: this.value, confidence: this.confidence, details: this.details, costMsats: this.costMsats };
  }
}

/** What metrics read: an `Example`/`Prediction` or a plain object of JSON-like fields. */
export type MetricInput = FieldSource;

/**
 * A metric (dsrs `Metric` trait).
 *
 * - `name`: the key used for weights and result maps.
 * - `tier`: `"proxy"` or `"truth"`.
 * - `costEstimate`: msats per evaluation, used for budgeting before running.
 * - `evaluate(input, output)`: `input` is the task side (gold values live here), `output` the
 *   predictor's output. A rejected promise means the evaluation itself broke, not a low score.
 * - `evaluateBatch(pairs)`: dsrs's provided method, sequential, in order; the first error rejects the
 *   batch. Implementations can delegate to the free function {@link evaluateBatch}.
 */
export interface Metric {
  readonly name: string;
  readonly tier: MetricTier;
  readonly costEstimate: number;
  evaluate(input: MetricInput, output: MetricInput): Promise<MetricScore>;
  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]>;
}

/** dsrs's default `evaluate_batch`: `evaluate` each pair sequentially, in order; the first error wins. */
export async function evaluateBatch(
  metric: Pick<Metric, "evaluate">,
  pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>,
): Promise<MetricScore[]> {
  const scores: MetricScore[] = [];
  for (const [input, output] of pairs) scores.push(await metric.evaluate(input, output));
  return scores;
}

/** The fields of {@link defineMetric}: a `Metric` without `evaluateBatch`. */
export interface MetricDefinition {
  readonly name: string;
  readonly tier: MetricTier;
  readonly costEstimate?: number;
  evaluate(input: MetricInput, output: MetricInput): Promise<MetricScore> | MetricScore;
}

/**
 * A `Metric` from a name, a tier, a cost estimate (default 0) and an `evaluate` function, with the
 * sequential `evaluateBatch`.
 *
 * @example
 * const nonEmpty = defineMetric({
 *   name: "has_answer",
 *   tier: "proxy",
 *   evaluate: (_input, output) => (fieldOf(output, "answer") ? MetricScore.perfect() : MetricScore.fail("no answer")),
 * });
 */
export function defineMetric(definition: MetricDefinition): Metric {
  checkMetricShape({ ...definition, costEstimate: definition.costEstimate ?? 0 }, "definition");
  const evaluate = definition.evaluate;
  const metric: Metric = {
    name: definition.name,
    tier: definition.tier,
    costEstimate: definition.costEstimate ?? 0,
    evaluate: async (input, output) => evaluate.call(definition, input, output),
    evaluateBatch: (pairs) => evaluateBatch(metric, pairs),
  };
  return Object.freeze(metric);
}

function checkMetricShape(metric: unknown, argument: string): asserts metric is Metric {
  const m = metric as Partial<Metric> | null;
  if (typeof m !== "object" || m === null || typeof m.evaluate !== "function") {
    throw new InvalidArgumentError(`${argument} must be a Metric (an object with evaluate())`, { argument });
  }
  if (typeof m.name !== "string") {
    throw new InvalidArgumentError(`${argument}.name must be a string`, { argument: `${argument}.name` });
  }
  if (m.tier !== "proxy" && m.tier !== "truth") {
    throw new InvalidArgumentError(`${argument}.tier must be "proxy" or "truth"`, {
      argument: `${argument}.tier`,
      actual: String(m.tier),
    });
  }
  checkMsats(m.costEstimate, `${argument}.costEstimate`);
}

/**
 * Metrics grouped by tier (dsrs `MetricSet`). `add` reads the metric's tier once, at insertion.
 * `all()` yields every proxy metric in insertion order, then every truth metric in insertion order.
 * Duplicate names are not detected here (the `Scorer` rejects them).
 */
export class MetricSet {
  readonly proxy: Metric[] = [];
  readonly truth: Metric[] = [];

  constructor(metrics: Iterable<Metric> = []) {
    for (const metric of metrics) this.add(metric);
  }

  /** Append `metric` to the list of its tier; returns this set. */
  add(metric: Metric): this {
    checkMetricShape(metric, "metric");
    (metric.tier === "proxy" ? this.proxy : this.truth).push(metric);
    return this;
  }

  /** dsrs `add_boxed`: the same as `add` (a TS reference is already shared). */
  addBoxed(metric: Metric): this {
    return this.add(metric);
  }

  /** Proxy metrics, then truth metrics, each in insertion order. */
  all(): Metric[] {
    return [...this.proxy, ...this.truth];
  }

  /** Sum of `costEstimate` over `all()`. */
  totalCostEstimate(): number {
    let total = 0;
    for (const metric of this.all()) total += metric.costEstimate;
    return total;
  }

  /** A copy holding the same metrics. */
  clone(): MetricSet {
    return new MetricSet(this.all());
  }
}

/** Weights by metric name: a `Map` or a plain object. */
export type MetricWeights = ReadonlyMap<string, number> | Readonly<Record<string, number>>;

/** Scores by metric name: a `Map` or a plain object, of `MetricScore`s or bare values. */
export type NamedScores = ReadonlyMap<string, MetricScore | number> | Readonly<Record<string, MetricScore | number>>;

function weightOf(weights: MetricWeights | undefined, name: string): number {
  if (weights === undefined) return 1;
  if (weights instanceof Map) return weights.has(name) ? (weights.get(name) as number) : 1;
  const record = weights as Readonly<Record<string, number>>;
  return Object.prototype.hasOwnProperty.call(record, name) ? (record[name] as number) : 1;
}

function entriesOf(scores: NamedScores): Array<[string, MetricScore | number]> {
  return scores instanceof Map ? [...scores.entries()] : Object.entries(scores as Record<string, MetricScore | number>);
}

/**
 * dsrs `MetricResults::compute_overall` as a function: Σ(value × w) / Σ w over the scores, where `w` is
 * `weights[name]` or 1.0 when the name has no weight. Weights of absent names are ignored. No scores → 0;
 * Σ w ≤ 0 → 0. Sums run in insertion order.
 *
 * @example
 * weightedOverall({ format: 1, diff: 0.5 }, { diff: 3 }); // (1·1 + 0.5·3) / 4 = 0.625
 */
export function weightedOverall(scores: NamedScores, weights?: MetricWeights): number {
  const entries = entriesOf(scores);
  if (entries.length === 0) return 0;
  let weighted = 0;
  let total = 0;
  for (const [name, score] of entries) {
    const value = typeof score === "number" ? score : score.value;
    const weight = weightOf(weights, name);
    if (typeof value !== "number" || Number.isNaN(value)) {
      throw new InvalidArgumentError(`score "${name}" is not a number`, { argument: "scores", actual: String(value) });
    }
    if (typeof weight !== "number" || !Number.isFinite(weight)) {
      throw new InvalidArgumentError(`weight "${name}" must be a finite number`, {
        argument: "weights",
        actual: String(weight),
      });
    }
    weighted += value * weight;
    total += weight;
  }
  return total > 0 ? weighted / total : 0;
}

/**
 * The scores of one evaluation round (dsrs `MetricResults`), as the `Scorer` collects them per rollout.
 *
 * - `add(name, score)` adds `score.costMsats` to `totalCostMsats` and stores the score; a second score
 *   with the same name replaces the first, but both costs count.
 * - `computeOverall(weights)` sets `overall` to {@link weightedOverall}; with no scores it leaves
 *   `overall` unchanged (0 on a fresh object).
 * - `checkProxyThreshold(threshold, names)`: false if a listed name is present with `value < threshold`;
 *   absent names are ignored.
 */
export class MetricResults {
  readonly scores = new Map<string, MetricScore>();
  overall = 0;
  totalCostMsats = 0;
  proxyPassed = false;
  truthEvaluated = false;

  add(name: string, score: MetricScore): void {
    this.totalCostMsats += score.costMsats;
    this.scores.set(name, score);
  }

  computeOverall(weights?: MetricWeights): void {
    if (this.scores.size === 0) return;
    this.overall = weightedOverall(this.scores, weights);
  }

  checkProxyThreshold(threshold: number, names: Iterable<string>): boolean {
    for (const name of names) {
      const score = this.scores.get(name);
      if (score !== undefined && score.value < threshold) return false;
    }
    return true;
  }
}
