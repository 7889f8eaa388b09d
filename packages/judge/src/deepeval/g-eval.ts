// DeepEval GEval (docs/spec/judges.md §3.1): a user-defined criterion scored on an integer scale, with
// evaluation steps generated from the criteria when absent and a probability-weighted score when the
// judge returns token logprobs.
import {
  isLLMTestCaseParam,
  type LLMTestCaseParams,
  prettifyList,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { JudgeMetricConfigError } from "./errors.js";
import { JudgeMetric, type JudgeMetricOptions, type ScoringPath, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { logprobWeightedScore, type GEvalScoring } from "./logprob-weighting.js";
import { jsonOnly, numbered, paramList, renderParams } from "./render.js";
import { judgeSchema, stringList } from "./schema.js";

/** A band of the score scale and what it means. */
export interface Rubric {
  /** Inclusive integer range within 0..10, e.g. `[0, 2]`; `[a, a]` is a single score. */
  readonly scoreRange: readonly [number, number];
  readonly expectedOutcome: string;
}

/**
 * A rubric band as written for DeepEval: `{ score: [lo, hi], expected_outcome }`, or Python's
 * `Rubric(score_range=..., expected_outcome=...)` fields. Accepted wherever a `Rubric` is.
 */
export type RubricInput =
  | Rubric
  | { readonly score: readonly [number, number] | number; readonly expected_outcome?: string; readonly expectedOutcome?: string }
  | { readonly score_range: readonly [number, number]; readonly expected_outcome?: string; readonly expectedOutcome?: string };

/** One rubric band in evalkern's form, from any accepted spelling (unchanged when not recognised). */
function normalizeRubricItem(item: unknown): unknown {
  if (typeof item !== "object" || item === null) return item;
  const r = item as Record<string, unknown>;
  const rawRange = r.scoreRange ?? r.score_range ?? r.score;
  const range = typeof rawRange === "number" ? [rawRange, rawRange] : rawRange;
  const outcome = r.expectedOutcome ?? r.expected_outcome;
  const known = new Set(["scoreRange", "score_range", "score", "expectedOutcome", "expected_outcome"]);
  const ranges = ["scoreRange", "score_range", "score"].filter((k) => r[k] !== undefined).length;
  const outcomes = ["expectedOutcome", "expected_outcome"].filter((k) => r[k] !== undefined).length;
  if (ranges > 1 || outcomes > 1 || Object.keys(r).some((k) => !known.has(k))) return { invalid: true };
  return { scoreRange: range, expectedOutcome: outcome };
}

export interface GEvalOptions extends JudgeMetricOptions {
  /** The criterion's name; the metric is displayed as `"<name> [GEval]"`. */
  readonly name: string;
  /** The test-case fields the judge sees, in order; they are also the required fields. */
  readonly evaluationParams: readonly LLMTestCaseParams[];
  /** What to judge, in words. Steps are generated from it when `evaluationSteps` is absent. */
  readonly criteria?: string | null;
  /** How to judge, step by step. Takes precedence over `criteria`. */
  readonly evaluationSteps?: readonly string[] | null;
  /**
   * Score bands; non-overlapping (adjacent bands must not share an endpoint). Either form:
   * `{ scoreRange: [0, 2], expectedOutcome }` or DeepEval's `{ score: [0, 2], expected_outcome }`.
   */
  readonly rubric?: readonly RubricInput[] | null;
  /** Alternatives per token to ask for (0..20). Default 20. */
  readonly topLogprobs?: number;
}

export const stepsSchema = judgeSchema("steps", z.object({ steps: stringList }));
/**
 * The score reply on `[min, max]`: an integer inside the scale, so a server that follows the schema
 * cannot answer 7.5 or 11 (which no digit token spells, forcing the raw-score fallback).
 */
export function boundedReasonScoreSchema(min: number, max: number) {
  return judgeSchema("reason_score", z.object({ reason: z.string(), score: z.number().int().min(min).max(max) }));
}
export const strictReasonScoreSchema = judgeSchema(
  "reason_score",
  z.object({ reason: z.string(), score: z.number().refine((s) => s === 0 || s === 1, "in strict mode the score must be 0 or 1") }),
);

export function checkEvaluationParams(value: unknown, owner: string): readonly LLMTestCaseParams[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new JudgeMetricConfigError("evaluationParams", `${owner}: 'evaluationParams' must be a non-empty list of LLMTestCaseParams`);
  }
  for (const param of value) {
    if (!isLLMTestCaseParam(param)) {
      throw new JudgeMetricConfigError("evaluationParams", `${owner}: ${JSON.stringify(param)} is not an LLMTestCaseParams value`);
    }
  }
  return Object.freeze([...value]) as readonly LLMTestCaseParams[];
}

/** Validate `criteria` / `evaluationSteps` as DeepEval does: at least one; non-blank; non-empty. */
export function checkCriteria(
  criteria: unknown,
  steps: unknown,
  owner: string,
): { criteria: string | null; evaluationSteps: readonly string[] | null } {
  const c = criteria ?? null;
  const s = steps ?? null;
  if (c !== null && (typeof c !== "string" || c.trim() === "")) {
    throw new JudgeMetricConfigError("criteria", `${owner}: 'criteria' must be a non-blank string`);
  }
  if (s !== null && (!Array.isArray(s) || s.length === 0 || s.some((step) => typeof step !== "string"))) {
    throw new JudgeMetricConfigError("evaluationSteps", `${owner}: 'evaluationSteps' must be a non-empty list of strings`);
  }
  if (c === null && s === null) {
    throw new JudgeMetricConfigError("criteria", `${owner}: either 'criteria' or 'evaluationSteps' must be provided`);
  }
  return { criteria: c as string | null, evaluationSteps: s === null ? null : Object.freeze([...(s as string[])]) };
}

/**
 * Validate and sort a rubric: integer ranges with `0 <= start <= end <= 10`, no overlaps
 * (`a.end >= b.start` is an overlap), and — evalkern's rule for DeepEval's division by zero — a scale
 * spanning at least two values.
 */
export function checkRubric(value: unknown, owner: string): readonly Rubric[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0) {
    throw new JudgeMetricConfigError("rubric", `${owner}: 'rubric' must be a non-empty list or null`);
  }
  const rubric = value.map((item: unknown, index) => {
    const r = normalizeRubricItem(item) as Rubric;
    const range = r?.scoreRange;
    if (
      !Array.isArray(range) ||
      range.length !== 2 ||
      !range.every((n) => Number.isInteger(n) && n >= 0 && n <= 10) ||
      range[0] > range[1] ||
      typeof r.expectedOutcome !== "string"
    ) {
      throw new JudgeMetricConfigError(
        "rubric",
        `${owner}: rubric[${index}] must be {scoreRange: [start, end], expectedOutcome} or {score: [start, end], ` +
          `expected_outcome} with integers 0 <= start <= end <= 10`,
      );
    }
    return Object.freeze({
      scoreRange: Object.freeze([range[0], range[1]]) as readonly [number, number],
      expectedOutcome: r.expectedOutcome,
    });
  });
  rubric.sort((a, b) => a.scoreRange[0] - b.scoreRange[0]);
  for (let i = 1; i < rubric.length; i++) {
    const previous = rubric[i - 1] as Rubric;
    const current = rubric[i] as Rubric;
    if (previous.scoreRange[1] >= current.scoreRange[0]) {
      throw new JudgeMetricConfigError(
        "rubric",
        `${owner}: rubric ranges [${previous.scoreRange.join(", ")}] and [${current.scoreRange.join(", ")}] overlap`,
      );
    }
  }
  const range = rubricScoreRange(rubric);
  if (range[0] === range[1]) {
    throw new JudgeMetricConfigError("rubric", `${owner}: the rubric must span at least two scores (got only ${range[0]})`);
  }
  return Object.freeze(rubric);
}

/** `(first.start, last.end)` of a sorted rubric; `(0, 10)` without one. */
export function rubricScoreRange(rubric: readonly Rubric[] | null): readonly [number, number] {
  if (!rubric || rubric.length === 0) return [0, 10];
  return [(rubric[0] as Rubric).scoreRange[0], (rubric[rubric.length - 1] as Rubric).scoreRange[1]];
}

/** One rubric band per line: `"a-b: outcome"`, or `"a: outcome"` when a == b. */
export function formatRubric(rubric: readonly Rubric[]): string {
  return rubric
    .map((r) => `${r.scoreRange[0] === r.scoreRange[1] ? r.scoreRange[0] : `${r.scoreRange[0]}-${r.scoreRange[1]}`}: ${r.expectedOutcome}`)
    .join("\n");
}

/** `(g − min) / (max − min)` clamped to [0, 1]. */
/**
 * G-Eval's scoring path: the judge calls' own path, except that a score read from the score call is
 * `"logprob-weighted"` or `"raw-score"` (strict mode and re-asked replies keep the calls' path).
 */
export function gEvalScoringPath(calls: ScoringPath | null, scoring: GEvalScoring | null): ScoringPath | null {
  if (calls === null || calls === "repaired-and-re-asked" || scoring === null || scoring === "strict") return calls;
  return scoring === "logprob-weighted" ? "logprob-weighted" : "raw-score";
}

/** Evaluation steps generated once per metric and shared by its measurements; a failed generation is tried again. */
export class GeneratedSteps {
  #pending: Promise<readonly string[]> | null = null;

  get(generate: () => Promise<{ readonly steps: readonly string[] }>): Promise<readonly string[]> {
    if (!this.#pending) {
      const pending = generate().then(({ steps }) => Object.freeze([...steps]));
      this.#pending = pending;
      pending.catch(() => {
        if (this.#pending === pending) this.#pending = null;
      });
    }
    return this.#pending;
  }
}

export function normalizeGEvalScore(judgeScore: number, range: readonly [number, number]): number {
  const value = (judgeScore - range[0]) / (range[1] - range[0]);
  return Math.min(1, Math.max(0, value));
}

/** The prompt that turns criteria into 3–4 evaluation steps (shared with ArenaGEval). */
export function evaluationStepsPrompt(criteria: string, params: readonly LLMTestCaseParams[], arena = false): string {
  return (
    `You are setting up an evaluation. From the criteria below, write 3 or 4 concise evaluation ` +
    `steps that explain how to judge ${arena ? "and compare the contestants' " : "the "}${paramList(params)}` +
    `${arena ? "" : " against each other"}. Each step should ` +
    `be one clear instruction.

Criteria:
${criteria}

${jsonOnly('{"steps": ["<step>", ...]}')}`
  );
}

/**
 * A custom LLM-judged criterion (DeepEval `GEval`), following the G-Eval paper.
 *
 * When to use: any quality you can describe in words ("is the answer polite and correct?").
 *
 * Details: at most two judge calls — the evaluation steps from `criteria` (only when
 * `evaluationSteps` is not given; generated once per instance and reused by its copies), then the
 * score: an integer on the rubric's scale (0–10 without a rubric) with a reason. When the model
 * supports logprobs, the score call asks for `topLogprobs` alternatives and the score is the
 * probability-weighted mean of the digit candidates at the last token spelling the score
 * ({@link logprobWeightedScore}); otherwise the judge's integer. The result is normalised to [0, 1]
 * (clamped); `scoring`, `judgeScore` and `weightedJudgeScore` record how. Strict mode asks for 0 or 1
 * with a different prompt, skips weighting and uses threshold 1. The reason is the score call's.
 *
 * Gotchas: multi-digit scores (10) weight only when the tokenizer emits them as one token.
 *
 * @example
 * const correctness = new GEval({
 *   model: judge,
 *   name: "Correctness",
 *   criteria: "Is the actual output factually consistent with the expected output?",
 *   evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.EXPECTED_OUTPUT],
 * });
 */
export class GEval extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [
    ...JUDGE_METRIC_OPTION_KEYS,
    "name",
    "evaluationParams",
    "criteria",
    "evaluationSteps",
    "rubric",
    "topLogprobs",
  ];

  /** The criterion's name, without the `[GEval]` suffix. */
  readonly metricName: string;
  readonly evaluationParams: readonly LLMTestCaseParams[];
  readonly criteria: string | null;
  readonly evaluationSteps: readonly string[] | null;
  readonly rubric: readonly Rubric[] | null;
  readonly topLogprobs: number;
  /** How the last score was obtained. */
  scoring: GEvalScoring | null = null;
  /** The judge's own score on the rubric scale, before weighting and normalisation. */
  judgeScore: number | null = null;
  /** The probability-weighted score on the rubric scale (null unless `scoring` is "logprob-weighted"). */
  weightedJudgeScore: number | null = null;
  private readonly generatedSteps = new GeneratedSteps();

  constructor(options: GEvalOptions) {
    super(options, { defaultThreshold: 0.5 });
    // Left out entirely (plain JavaScript): the checks below name the missing option.
    const o: Partial<GEvalOptions> = options ?? {};
    if (typeof o.name !== "string" || o.name.trim() === "") {
      throw new JudgeMetricConfigError("name", "GEval: 'name' must be a non-blank string");
    }
    this.metricName = o.name;
    this.evaluationParams = checkEvaluationParams(o.evaluationParams, "GEval");
    const { criteria, evaluationSteps } = checkCriteria(o.criteria, o.evaluationSteps, "GEval");
    this.criteria = criteria;
    this.evaluationSteps = evaluationSteps;
    this.rubric = checkRubric(o.rubric, "GEval");
    const top = o.topLogprobs ?? 20;
    if (!Number.isInteger(top) || top < 0 || top > 20) {
      throw new JudgeMetricConfigError("topLogprobs", "GEval: 'topLogprobs' must be an integer in 0..20");
    }
    this.topLogprobs = top;
  }

  override get name(): string {
    return `${this.metricName} [GEval]`;
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return this.evaluationParams;
  }

  /** The score scale `[min, max]` (from the rubric, else 0..10). */
  get scoreRange(): readonly [number, number] {
    return rubricScoreRange(this.rubric);
  }

  /**
   * How the last score was obtained: `"logprob-weighted"` or `"raw-score"` for the score call, but
   * `"repaired-and-re-asked"` when any reply had to be asked again; strict mode is `"structured"`.
   */
  override get scoringPath(): ScoringPath | null {
    return gEvalScoringPath(super.scoringPath, this.scoring);
  }

  protected override resetState(): void {
    super.resetState();
    this.scoring = null;
    this.judgeScore = null;
    this.weightedJudgeScore = null;
  }

  private steps(signal: AbortSignal | undefined): Promise<readonly string[]> {
    if (this.evaluationSteps) return Promise.resolve(this.evaluationSteps);
    return this.generatedSteps.get(() =>
      this.judge(stepsSchema, evaluationStepsPrompt(this.criteria as string, this.evaluationParams), { signal }),
    );
  }

  private scorePrompt(steps: readonly string[], testCase: LLMTestCase): string {
    const params = paramList(this.evaluationParams);
    const caseText = renderParams(testCase, this.evaluationParams);
    if (this.strictMode) {
      return (
        `Evaluate the test case below by following the evaluation steps. Return a score of 1 if the ` +
        `test case fully meets every step, otherwise 0, and a brief reason that cites specifics of the ${params} without quoting the score.

Evaluation steps:
${numbered(steps)}

Test case:
${caseText}
${jsonOnly('{"reason": "<string>", "score": 0 | 1}')}`
      );
    }
    const [min, max] = this.scoreRange;
    const scale = this.rubric
      ? `Use this rubric:\n${formatRubric(this.rubric)}`
      : `${max} means the test case follows the evaluation steps fully (strong alignment), ${min} means not at all.`;
    return (
      `Evaluate the test case below by following the evaluation steps, and give it an integer score from ${min} to ${max}. ${scale}
Also give a brief reason that cites specifics of the ${params}; do not quote the score in the ` +
      `reason. Put the reason first and the score last.

Evaluation steps:
${numbered(steps)}

Test case:
${caseText}
${jsonOnly(`{"reason": "<string>", "score": <integer ${min}-${max}>}`)}`
    );
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const steps = await this.steps(signal);
    const prompt = this.scorePrompt(steps, testCase);
    const verbose = [
      ...(this.criteria ? [`Criteria:\n${this.criteria}`] : []),
      `Evaluation Steps:\n${prettifyList(steps)}`,
      ...(this.rubric && !this.strictMode ? [`Rubric:\n${formatRubric(this.rubric)}`] : []),
    ];
    if (this.strictMode) {
      const { score, reason } = await this.judge(strictReasonScoreSchema, prompt, { signal });
      this.scoring = "strict";
      this.judgeScore = score;
      return { score, reason, verboseSteps: [...verbose, `Scoring: strict (judge score ${score})`] };
    }
    const useLogprobs = this.model.supportsLogprobs && this.topLogprobs > 0;
    const reply = await this.judgeWithLogprobs(boundedReasonScoreSchema(...this.scoreRange), prompt, {
      signal,
      ...(useLogprobs ? { logprobs: true, topLogprobs: this.topLogprobs } : {}),
    });
    const { score: judgeScore, reason } = reply.value;
    const weighted = logprobWeightedScore(judgeScore, useLogprobs ? reply.logprobs : undefined);
    this.scoring = weighted.scoring;
    this.judgeScore = judgeScore;
    this.weightedJudgeScore = weighted.scoring === "logprob-weighted" ? weighted.score : null;
    const range = this.scoreRange;
    const score = normalizeGEvalScore(weighted.score, range);
    const how =
      weighted.scoring === "logprob-weighted"
        ? `logprob-weighted (judge score ${judgeScore}, weighted ${weighted.score})`
        : `raw judge score ${judgeScore} (${weighted.fallback ?? "no logprobs"})`;
    return { score, reason, verboseSteps: [...verbose, `Scoring: ${how} on [${range[0]}, ${range[1]}]`] };
  }
}
