// dsrs `LlmJudgeMetric` (crates/dsrs/src/evaluate/metrics/truth.rs; docs/spec/judges.md §9, docs/spec/dsrs.md §3.1) made real:
// dsrs only returns a 0.5 placeholder. Same interface (name, system prompt, criteria, tier, cost), and
// the call dsrs sketches in comments: system message = prompt, user message = input and output, JSON
// `{score, reason}` back.
import { evaluateBatch, MetricScore, type Metric, type MetricInput } from "@evalkern/metrics/dsrs";
import { z } from "zod";
import { JudgeConfigError } from "../errors.js";
import { resolveJudge } from "../defaults.js";
import type { JudgeMessage, JudgeModel } from "../model.js";
import { zodSchema } from "../schema.js";
import { costMsats, checkRate, renderFields, usageNote } from "./render.js";

/** Bumped whenever the prompt assembly below changes (cache keys). */
export const DSRS_PROMPT_VERSION = "dsrs-judges/1";

/** dsrs's default criteria. */
export const DEFAULT_CRITERIA: readonly string[] = Object.freeze(["Correctness", "Completeness", "Code quality"]);

/** dsrs's `cost_msats` default for the judge. */
export const LLM_JUDGE_COST_MSATS = 100;

/** The default system prompt (our wording of dsrs's intent). */
export const DEFAULT_JUDGE_PROMPT =
  "You review solutions that an AI system wrote for programming tasks. Read the task and the solution, then score " +
  "the solution from 0.0 (unusable) to 1.0 (could be merged as is), weighing: correctness — does it do what the task " +
  "asks; completeness — are edge cases and every part of the task handled; code quality — is it clear, idiomatic " +
  "and maintainable. Reply with a JSON object holding a short `reason` and the `score`.";

export const LlmJudgeVerdict = zodSchema(
  "judge_verdict",
  z.object({
    reason: z.string().describe("A short explanation of the score, naming the main strengths and problems."),
    score: z.number().min(0).max(1).describe("Overall score from 0.0 to 1.0."),
  }),
);

export interface LlmJudgeMetricOptions {
  /** A `JudgeModel` or a model name (built from the environment); absent: the `configure({ judge })` default. */
  readonly model?: JudgeModel | string;
  /** Default `"llm_judge"`. */
  readonly name?: string;
  /** Default: {@link DEFAULT_JUDGE_PROMPT}. */
  readonly systemPrompt?: string;
  /** Default `["Correctness", "Completeness", "Code quality"]`. */
  readonly criteria?: readonly string[];
  /** Cost per evaluation in msats (dsrs `cost_msats`, used as `costEstimate`). Default 100. */
  readonly costMsats?: number;
  /**
   * USD → msats rate. When given, each score's `costMsats` is the actual spend of its judge call (0 for a
   * cache hit) instead of the fixed `costMsats`; the estimate stays `costMsats`.
   */
  readonly msatsPerUsd?: number;
  /** Confidence attached to every score (dsrs keeps 1.0 for computed scores). Default 1. */
  readonly confidence?: number;
}

function checkMsats(value: unknown, argument: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new JudgeConfigError(`${argument} must be a non-negative integer number of millisatoshis`, { argument, actual: String(value) });
  }
  return value;
}

function checkStringList(list: unknown, argument: string): readonly string[] {
  if (!Array.isArray(list) || list.some((c) => typeof c !== "string")) {
    throw new JudgeConfigError(`${argument} must be an array of strings`, { argument });
  }
  return Object.freeze([...list]);
}

/**
 * A judge-backed dsrs truth metric: the system prompt plus the criteria go to the model as the system
 * message, the task input and the predictor output as the user message; the reply `{reason, score}` becomes
 * a `MetricScore`.
 *
 * When to use: the `Truth` tier of a dsrs `Scorer` (`ScorerBuilder.withDefaultTruthMetrics({ judge })`).
 *
 * Details:
 * - One judge call; `score` must be in [0, 1] (a reply outside is re-asked, then fails).
 * - `MetricScore.value = score`, `confidence` = the option (1.0), `details` = the reason plus the judge's
 *   model, tokens and USD cost, `costMsats` = the fixed cost (or the actual spend with `msatsPerUsd`).
 * - Tier `truth`; `costEstimate` = `costMsats`.
 * - A failed judge call rejects with the typed `JudgeError` — it never becomes a 0.5 or 0. (dsrs's
 *   `Scorer` aborts on a rejecting metric.)
 *
 * @example
 * const judge = new LlmJudgeMetric({ model }).withCriteria(["Correctness", "Tests"]);
 * const score = await judge.evaluate({ goal: "add a --verbose flag" }, { code: patch });
 * score.value; score.details;
 */
export class LlmJudgeMetric implements Metric {
  readonly tier = "truth" as const;
  readonly model: JudgeModel;
  readonly name: string;
  readonly systemPrompt: string;
  readonly criteria: readonly string[];
  readonly costMsats: number;
  readonly msatsPerUsd: number | undefined;
  readonly confidence: number;

  constructor(options: LlmJudgeMetricOptions = {}) {
    this.model = resolveJudge(options.model, "LlmJudgeMetric");
    this.name = options.name ?? "llm_judge";
    if (typeof this.name !== "string") throw new JudgeConfigError("options.name must be a string", { argument: "options.name" });
    this.systemPrompt = options.systemPrompt ?? DEFAULT_JUDGE_PROMPT;
    if (typeof this.systemPrompt !== "string") {
      throw new JudgeConfigError("options.systemPrompt must be a string", { argument: "options.systemPrompt" });
    }
    this.criteria = checkStringList(options.criteria ?? DEFAULT_CRITERIA, "options.criteria");
    this.costMsats = checkMsats(options.costMsats ?? LLM_JUDGE_COST_MSATS, "options.costMsats");
    this.msatsPerUsd = checkRate(options.msatsPerUsd);
    const confidence = options.confidence ?? 1;
    if (typeof confidence !== "number" || !(confidence >= 0 && confidence <= 1)) {
      throw new JudgeConfigError("options.confidence must be in [0, 1]", { argument: "options.confidence", actual: String(confidence) });
    }
    this.confidence = confidence;
  }

  get costEstimate(): number {
    return this.costMsats;
  }

  private options(): LlmJudgeMetricOptions {
    return {
      model: this.model,
      name: this.name,
      systemPrompt: this.systemPrompt,
      criteria: this.criteria,
      costMsats: this.costMsats,
      ...(this.msatsPerUsd !== undefined ? { msatsPerUsd: this.msatsPerUsd } : {}),
      confidence: this.confidence,
    };
  }

  /** dsrs `with_prompt`. */
  withPrompt(systemPrompt: string): LlmJudgeMetric {
    return new LlmJudgeMetric({ ...this.options(), systemPrompt });
  }

  /** dsrs `with_criteria` (replaces the list). */
  withCriteria(criteria: readonly string[]): LlmJudgeMetric {
    return new LlmJudgeMetric({ ...this.options(), criteria });
  }

  /** dsrs `with_cost`. */
  withCost(costMsats: number): LlmJudgeMetric {
    return new LlmJudgeMetric({ ...this.options(), costMsats });
  }

  /** dsrs `with_name`. */
  withName(name: string): LlmJudgeMetric {
    return new LlmJudgeMetric({ ...this.options(), name });
  }

  /** The messages of one evaluation. */
  messages(input: MetricInput, output: MetricInput): JudgeMessage[] {
    const criteria = this.criteria.length > 0 ? `\n\nCriteria:\n${this.criteria.map((c) => `- ${c}`).join("\n")}` : "";
    return [
      { role: "system", content: `${this.systemPrompt}${criteria}` },
      { role: "user", content: `Input:\n${renderFields(input, "input")}\n\nOutput:\n${renderFields(output, "output")}` },
    ];
  }

  async evaluate(input: MetricInput, output: MetricInput): Promise<MetricScore> {
    const result = await this.model.generate({
      messages: this.messages(input, output),
      schema: LlmJudgeVerdict,
      metric: this.name,
      promptVersion: DSRS_PROMPT_VERSION,
    });
    const { score, reason } = result.value;
    return MetricScore.new(score)
      .withConfidence(this.confidence)
      .withDetails(`${reason} (${usageNote(this.model.name, result.usage, result.cached)})`)
      .withCost(costMsats(result.usage, result.cached, this.costMsats, this.msatsPerUsd));
  }

  evaluateBatch(pairs: ReadonlyArray<readonly [MetricInput, MetricInput]>): Promise<MetricScore[]> {
    return evaluateBatch(this, pairs);
  }
}
