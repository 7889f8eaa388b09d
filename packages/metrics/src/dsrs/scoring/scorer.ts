// dsrs `Scorer`, `ScorerBuilder` and `ScoringConfig` (scoring.rs:80-516, docs/spec/dsrs.md §4.2-4.5): proxy metrics
// first, truth metrics only when every proxy passed, several rollouts per task, aggregation, msat budget.
import { rejectUnknownOptions } from "../../options.js";
import { Example, type FieldSource } from "../../contracts/example.js";
import { checkMsats, MetricResults, MetricSet, type Metric, type MetricWeights } from "../../contracts/dsrs-metric.js";
import { InvalidArgumentError } from "../../errors.js";
import { fieldEntries } from "../fields.js";
import { FormatMetric } from "../proxy/format.js";
import { LengthMetric } from "../proxy/length.js";
import { SyntaxMetric } from "../proxy/syntax.js";
import { DiffMetric } from "../truth/diff.js";
import { aggregate, checkAggregationMethod, type AggregationMethod } from "./aggregation.js";

/** dsrs `EvalTask` (evaluate/task.rs), the parts the scorer reads. */
export interface EvalTask {
  readonly id: string;
  readonly goal: string;
  readonly repo?: {
    readonly source?: string;
    readonly refSpec?: string;
    readonly focusFiles?: readonly string[];
  };
  readonly goldFiles?: ReadonlyArray<{ readonly path: string; readonly content: string }>;
  readonly expected?: { readonly passCommands?: readonly string[] };
}

/** What the scorer calls once per rollout (dsrs `Module::forward`). A rejection is a failed rollout. */
export interface Predictor {
  forward(input: Example): Promise<FieldSource> | FieldSource;
}

/** A `Predictor` or a bare forward function. */
export type PredictorLike = Predictor | ((input: Example) => Promise<FieldSource> | FieldSource);

/** dsrs `TaskScore`, plus the rollout errors dsrs drops. */
export interface TaskScore {
  readonly taskId: string;
  /** Aggregate of the rollout scores. */
  readonly score: number;
  /** Per metric: aggregate over the rollouts where it ran. */
  readonly metrics: Record<string, number>;
  /** Always `rollouts` (failed rollouts count, scored 0). */
  readonly rolloutsCompleted: number;
  /** AND over successful rollouts of "every proxy passed"; true when none succeeded. */
  readonly proxyPassed: boolean;
  /** True if some rollout reached the truth stage (even with no truth metric run). */
  readonly truthEvaluated: boolean;
  /** Sum of the actual score costs. */
  readonly costMsats: number;
  /** Rollouts whose predictor call failed (scored 0.0, as in dsrs). Not in dsrs. */
  readonly rolloutsFailed: number;
  /** The errors of those rollouts, in order. Not in dsrs, which discards them. */
  readonly rolloutErrors: ReadonlyArray<{ readonly rollout: number; readonly error: unknown }>;
}

/** dsrs `ScorecardResult`. */
export interface ScorecardResult {
  /** Aggregate of the evaluated tasks' scores (0 with none). */
  readonly overallScore: number;
  /** Per metric: the aggregate of its per-task aggregates (a second aggregation). */
  readonly perMetric: Record<string, number>;
  /** By task id; a duplicate id overwrites, but both count as evaluated. */
  readonly perTask: Record<string, TaskScore>;
  readonly totalCostMsats: number;
  /** Wall clock, whole milliseconds. */
  readonly totalDurationMs: number;
  readonly tasksEvaluated: number;
  /** Tasks skipped because the estimated cost exceeded the remaining budget. */
  readonly tasksSkipped: number;
}

/** The options-object form of {@link ScoringConfig}. */
export interface ScoringConfigOptions {
  /** Rollouts per task. Default 3. 0 is accepted (dsrs's public field): every task then scores 0. */
  readonly rollouts?: number;
  /** Default `"median"`. */
  readonly aggregation?: AggregationMethod;
  /** Metrics, routed by tier. */
  readonly metrics?: MetricSet | readonly Metric[];
  /** Weights by metric name for the per-rollout weighted mean (default weight 1.0). */
  readonly weights?: MetricWeights;
  /** A proxy passes when `value >= proxyThreshold`. Default 0.5; used as given (not clamped). */
  readonly proxyThreshold?: number;
  /** Overrides the budget argument of `scoreWithBudget`, even when larger. */
  readonly maxBudgetMsats?: number;
}

function checkRollouts(value: unknown, argument: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${argument} must be a non-negative integer`, { argument, actual: String(value) });
  }
  return value;
}

function checkThreshold(value: unknown, argument: string): number {
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new InvalidArgumentError(`${argument} must be a number`, { argument, actual: String(value) });
  }
  return value;
}

function toWeightMap(weights: MetricWeights | undefined): Map<string, number> {
  const map = new Map<string, number>();
  if (weights === undefined) return map;
  const entries = weights instanceof Map ? [...weights.entries()] : Object.entries(weights as Record<string, number>);
  for (const [name, weight] of entries) {
    if (typeof weight !== "number" || !Number.isFinite(weight)) {
      throw new InvalidArgumentError(`weight of "${name}" must be a finite number`, { argument: "weights", actual: String(weight) });
    }
    map.set(name, weight);
  }
  return map;
}

const SCORING_CONFIG_OPTION_KEYS = {
  rollouts: true,
  aggregation: true,
  metrics: true,
  weights: true,
  proxyThreshold: true,
  maxBudgetMsats: true,
} as const satisfies Record<keyof ScoringConfigOptions, true>;

/**
 * dsrs `ScoringConfig`: rollouts 3, aggregation median, no metrics, no weights, proxy threshold 0.5, no
 * budget cap. Immutable: the `with*` methods return a new config.
 */
export class ScoringConfig {
  readonly rollouts: number;
  readonly aggregation: AggregationMethod;
  readonly metrics: MetricSet;
  readonly weights: ReadonlyMap<string, number>;
  readonly proxyThreshold: number;
  readonly maxBudgetMsats: number | undefined;

  constructor(options: ScoringConfigOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new InvalidArgumentError("options must be an object", { argument: "options" });
    }
    rejectUnknownOptions(options, SCORING_CONFIG_OPTION_KEYS, "ScoringConfig");
    this.rollouts = options.rollouts === undefined ? 3 : checkRollouts(options.rollouts, "options.rollouts");
    this.aggregation = checkAggregationMethod(options.aggregation ?? "median");
    this.metrics = options.metrics instanceof MetricSet ? options.metrics.clone() : new MetricSet(options.metrics ?? []);
    this.weights = toWeightMap(options.weights);
    this.proxyThreshold = options.proxyThreshold === undefined ? 0.5 : checkThreshold(options.proxyThreshold, "options.proxyThreshold");
    this.maxBudgetMsats = options.maxBudgetMsats === undefined ? undefined : checkMsats(options.maxBudgetMsats, "options.maxBudgetMsats");
  }

  toOptions(): ScoringConfigOptions {
    return {
      rollouts: this.rollouts,
      aggregation: this.aggregation,
      metrics: this.metrics,
      weights: this.weights,
      proxyThreshold: this.proxyThreshold,
      maxBudgetMsats: this.maxBudgetMsats,
    };
  }

  /** dsrs `with_rollouts(n)`: stores max(n, 1). */
  withRollouts(rollouts: number): ScoringConfig {
    return new ScoringConfig({ ...this.toOptions(), rollouts: Math.max(checkRollouts(rollouts, "rollouts"), 1) });
  }

  withAggregation(aggregation: AggregationMethod): ScoringConfig {
    return new ScoringConfig({ ...this.toOptions(), aggregation });
  }

  /** Add a metric (routed by its tier). */
  withMetric(metric: Metric): ScoringConfig {
    return new ScoringConfig({ ...this.toOptions(), metrics: this.metrics.clone().add(metric) });
  }

  /** dsrs `with_boxed_metric`: the same as `withMetric`. */
  withBoxedMetric(metric: Metric): ScoringConfig {
    return this.withMetric(metric);
  }

  withWeight(name: string, weight: number): ScoringConfig {
    return new ScoringConfig({ ...this.toOptions(), weights: new Map([...this.weights, [name, weight]]) });
  }

  /** dsrs `with_proxy_threshold(t)`: clamps to [0, 1] (the builder's `proxyThreshold` does not). */
  withProxyThreshold(threshold: number): ScoringConfig {
    const t = checkThreshold(threshold, "threshold");
    return new ScoringConfig({ ...this.toOptions(), proxyThreshold: Math.min(Math.max(t, 0), 1) });
  }

  withMaxBudget(msats: number): ScoringConfig {
    return new ScoringConfig({ ...this.toOptions(), maxBudgetMsats: msats });
  }
}

/** dsrs `task_to_example`: the input every rollout of `task` sees. */
export function taskToExample(task: EvalTask): Example {
  const fields: Record<string, unknown> = { goal: task.goal, repo_source: task.repo?.source ?? "" };
  if (task.repo?.refSpec !== undefined) fields.repo_ref = task.repo.refSpec;
  if (task.repo?.focusFiles !== undefined && task.repo.focusFiles.length > 0) fields.focus_files = [...task.repo.focusFiles];
  const passCommands = task.expected?.passCommands;
  if (passCommands !== undefined && passCommands.length > 0) fields.expected_commands = [...passCommands];
  const firstGold = task.goldFiles?.[0];
  if (firstGold !== undefined) fields.expected = firstGold.content;
  return new Example(fields);
}

function checkTask(task: unknown, index: number): EvalTask {
  const t = task as Partial<EvalTask> | null;
  if (typeof t !== "object" || t === null || typeof t.id !== "string" || typeof t.goal !== "string") {
    throw new InvalidArgumentError("each task needs a string id and a string goal", { argument: "tasks", index });
  }
  return t as EvalTask;
}

function forwardOf(predictor: PredictorLike): (input: Example) => Promise<FieldSource> | FieldSource {
  if (typeof predictor === "function") return predictor;
  if (typeof predictor === "object" && predictor !== null && typeof predictor.forward === "function") {
    return (input) => predictor.forward(input);
  }
  throw new InvalidArgumentError("predictor must have a forward(input) method or be a function", { argument: "predictor" });
}

function emptyRecord<T>(): Record<string, T> {
  return {};
}

/** Set `key` as an own data property, so ids such as `__proto__` are stored, not interpreted. */
function setEntry<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function push(map: Map<string, number[]>, name: string, value: number): void {
  const list = map.get(name);
  if (list === undefined) map.set(name, [value]);
  else list.push(value);
}

/**
 * dsrs `Scorer`: scores a predictor on tasks with proxy-first gating, rollouts, aggregation and a
 * millisatoshi budget, sequentially (tasks, rollouts and metrics in order; no concurrency).
 *
 * Details (docs/spec/dsrs.md §4.5):
 * - Budget: `remaining` = `maxBudgetMsats` if set, else the argument (`score` = unlimited). A task whose
 *   `metrics.totalCostEstimate()` (one rollout, all metrics) exceeds `remaining` is skipped unseen.
 * - Per rollout: a failing `forward` scores 0.0 (counted in `rolloutsCompleted`, recorded in
 *   `rolloutErrors`). Otherwise every proxy runs (no budget check); if all pass (`value >= threshold`) the
 *   truth stage runs each truth metric whose `costEstimate` fits `remaining`. Actual `costMsats` is
 *   subtracted (never below 0). The rollout score is the weighted mean of every score recorded in it —
 *   gating does not zero it.
 * - A metric that rejects aborts the whole call with that error.
 * - Task score = aggregate(rollout scores); per-metric = aggregate over rollouts, then over tasks.
 *
 * Gotchas: duplicate metric names are rejected at construction (dsrs keeps both values in one list but
 * only the later score in the rollout mean).
 *
 * @example
 * const scorer = new ScorerBuilder().withDefaultProxyMetrics().rollouts(1).build();
 * const card = await scorer.score((input) => ({ code: `// ${input.get("goal")}` }), [{ id: "t1", goal: "add a test" }]);
 */
export class Scorer {
  readonly config: ScoringConfig;

  constructor(config: ScoringConfig | ScoringConfigOptions = new ScoringConfig()) {
    this.config = config instanceof ScoringConfig ? config : new ScoringConfig(config);
    const seen = new Set<string>();
    for (const metric of this.config.metrics.all()) {
      if (seen.has(metric.name)) {
        throw new InvalidArgumentError(`duplicate metric name "${metric.name}": names key weights and results`, {
          argument: "metrics",
          actual: metric.name,
        });
      }
      seen.add(metric.name);
    }
  }

  /** `scoreWithBudget(predictor, tasks, unlimited)`. */
  score(predictor: PredictorLike, tasks: readonly EvalTask[]): Promise<ScorecardResult> {
    return this.scoreWithBudget(predictor, tasks, Infinity);
  }

  /** Score with `budgetMsats` (ignored when the config sets `maxBudgetMsats`). */
  async scoreWithBudget(predictor: PredictorLike, tasks: readonly EvalTask[], budgetMsats: number): Promise<ScorecardResult> {
    if (budgetMsats !== Infinity) checkMsats(budgetMsats, "budgetMsats");
    if (!Array.isArray(tasks)) throw new InvalidArgumentError("tasks must be an array", { argument: "tasks" });
    const checkedTasks = tasks.map(checkTask);
    const forward = forwardOf(predictor);
    const start = performance.now();
    const budget = { remaining: this.config.maxBudgetMsats ?? budgetMsats };
    const metricScores = new Map<string, number[]>();
    const taskScores: number[] = [];
    const perTask = emptyRecord<TaskScore>();
    let totalCostMsats = 0;
    let tasksEvaluated = 0;
    let tasksSkipped = 0;

    for (const task of checkedTasks) {
      if (this.config.metrics.totalCostEstimate() > budget.remaining) {
        tasksSkipped++;
        continue;
      }
      const taskScore = await this.scoreTask(forward, task, budget);
      for (const [name, value] of Object.entries(taskScore.metrics)) push(metricScores, name, value);
      taskScores.push(taskScore.score);
      totalCostMsats += taskScore.costMsats;
      setEntry(perTask, task.id, taskScore);
      tasksEvaluated++;
    }

    const perMetric = emptyRecord<number>();
    for (const [name, values] of metricScores) setEntry(perMetric, name, aggregate(values, this.config.aggregation));
    return {
      overallScore: aggregate(taskScores, this.config.aggregation),
      perMetric,
      perTask,
      totalCostMsats,
      totalDurationMs: Math.floor(performance.now() - start),
      tasksEvaluated,
      tasksSkipped,
    };
  }

  private async scoreTask(
    forward: (input: Example) => Promise<FieldSource> | FieldSource,
    task: EvalTask,
    budget: { remaining: number },
  ): Promise<TaskScore> {
    const { metrics, proxyThreshold, weights, aggregation } = this.config;
    const rolloutScores: number[] = [];
    const metricRollouts = new Map<string, number[]>();
    const rolloutErrors: Array<{ rollout: number; error: unknown }> = [];
    let costMsats = 0;
    let proxyPassed = true;
    let truthEvaluated = false;

    for (let rollout = 0; rollout < this.config.rollouts; rollout++) {
      const input = taskToExample(task);
      let output: Example;
      try {
        const prediction = await forward(input);
        output = new Example(Object.fromEntries(fieldEntries(prediction, "prediction")));
      } catch (error) {
        rolloutScores.push(0);
        rolloutErrors.push({ rollout, error });
        continue;
      }

      const results = new MetricResults();
      const runMetric = async (metric: Metric): Promise<boolean> => {
        const score = await metric.evaluate(input, output);
        costMsats += score.costMsats;
        budget.remaining = Math.max(0, budget.remaining - score.costMsats);
        push(metricRollouts, metric.name, score.value);
        results.add(metric.name, score);
        return score.passes(proxyThreshold);
      };

      let allProxiesPassed = true;
      for (const metric of metrics.proxy) if (!(await runMetric(metric))) allProxiesPassed = false;
      proxyPassed &&= allProxiesPassed;

      if (allProxiesPassed) {
        truthEvaluated = true;
        for (const metric of metrics.truth) {
          if (metric.costEstimate > budget.remaining) continue;
          await runMetric(metric);
        }
      }

      results.computeOverall(weights);
      rolloutScores.push(results.overall);
    }

    const taskMetrics = emptyRecord<number>();
    for (const [name, values] of metricRollouts) setEntry(taskMetrics, name, aggregate(values, aggregation));
    return {
      taskId: task.id,
      score: aggregate(rolloutScores, aggregation),
      metrics: taskMetrics,
      rolloutsCompleted: rolloutScores.length,
      proxyPassed,
      truthEvaluated,
      costMsats,
      rolloutsFailed: rolloutErrors.length,
      rolloutErrors,
    };
  }
}

/** Options of {@link ScorerBuilder.withDefaultTruthMetrics}. */
export interface DefaultTruthMetricsOptions {
  /**
   * The LLM judge dsrs adds first (its `LlmJudgeMetric` is a 0.5 stub; build the real one with
   * `@evalkern/judge`). Without it only `DiffMetric` is added.
   */
  readonly judge?: Metric;
}

/**
 * dsrs `ScorerBuilder`: starts from the `ScoringConfig` defaults. It has no weight setter (use
 * `ScoringConfig.withWeight`), and its `proxyThreshold` is not clamped.
 *
 * @example
 * const scorer = new ScorerBuilder()
 *   .withDefaultProxyMetrics()
 *   .withDefaultTruthMetrics()
 *   .rollouts(3)
 *   .aggregation({ trimmedMean: 10 })
 *   .maxBudget(10_000)
 *   .build();
 */
export class ScorerBuilder {
  private config: ScoringConfig;

  constructor() {
    this.config = new ScoringConfig();
  }

  /** `FormatMetric` (non-empty check), `LengthMetric` with min 10 bytes, `SyntaxMetric` (automatic field). */
  withDefaultProxyMetrics(): this {
    this.config = this.config.withMetric(new FormatMetric()).withMetric(new LengthMetric().min(10)).withMetric(new SyntaxMetric());
    return this;
  }

  /** dsrs adds `LlmJudgeMetric` then `DiffMetric` (NormalizedWhitespace); here the judge is passed in. */
  withDefaultTruthMetrics(options: DefaultTruthMetricsOptions = {}): this {
    if (options.judge !== undefined) this.config = this.config.withMetric(options.judge);
    this.config = this.config.withMetric(new DiffMetric());
    return this;
  }

  /** max(n, 1). */
  rollouts(n: number): this {
    this.config = this.config.withRollouts(n);
    return this;
  }

  aggregation(method: AggregationMethod): this {
    this.config = this.config.withAggregation(method);
    return this;
  }

  /** Not clamped (unlike `ScoringConfig.withProxyThreshold`). */
  proxyThreshold(threshold: number): this {
    this.config = new ScoringConfig({ ...this.config.toOptions(), proxyThreshold: threshold });
    return this;
  }

  maxBudget(msats: number): this {
    this.config = this.config.withMaxBudget(msats);
    return this;
  }

  metric(metric: Metric): this {
    this.config = this.config.withMetric(metric);
    return this;
  }

  /** The config built so far. */
  toConfig(): ScoringConfig {
    return this.config;
  }

  build(): Scorer {
    return new Scorer(this.config);
  }
}
