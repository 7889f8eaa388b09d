// DeepEval GoalAccuracyMetric (docs/spec/judges.md §4.9). Calls: goal score per unit interaction ∥ plan
// score per unit interaction → reason.
import {
  MultiTurnParams,
  prettifyList,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ANCHORED_SCALE, interactionParts, interactionText } from "./agentic.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, scoreText } from "./render.js";
import { judgeSchema, unitInterval } from "./schema.js";
import { reasonPrompt } from "./shared-prompts.js";
import { meanOrZero, type ScoredJudgement } from "./tool-use.js";
import { unitInteractions } from "./turn-relevancy.js";

const goalSchema = judgeSchema("goal_score", z.object({ score: unitInterval, reason: z.string() }));
const planSchema = judgeSchema("plan_score", z.object({ score: unitInterval, reason: z.string() }));

/** `(mean(goal) + mean(plan)) / 2`, an empty list averaging 0 (DeepEval `GoalAccuracyMetric`). */
export function goalAccuracyScore(goal: readonly number[], plan: readonly number[]): number {
  return (meanOrZero(goal) + meanOrZero(plan)) / 2;
}

/**
 * Did the assistant reach each of the user's goals, with a sound plan it kept to? (DeepEval
 * `GoalAccuracyMetric`.) Takes a `ConversationalTestCase`.
 *
 * Details: for each unit interaction (the user's request and the assistant's steps with the tools they
 * called), a strict goal score — did the user-visible answer fully and correctly achieve the goal — and a
 * plan score — was there a clear, complete plan and was it followed (concurrent in `asyncMode`); both
 * `{score, reason}` anchored at 1.0/0.75/0.5/0.25/0.0. Score `(mean(goal) + mean(plan)) / 2`, an empty
 * list averaging 0; then the reason call. Threshold 0.5; strict: 1.
 *
 * @example
 * const metric = new GoalAccuracyMetric({ model: judge });
 */
export class GoalAccuracyMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  /** The goal judgements of the last measurement, one per unit interaction. */
  goalScores: readonly ScoredJudgement[] = [];
  /** The plan judgements of the last measurement, one per unit interaction. */
  planScores: readonly ScoredJudgement[] = [];

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Goal Accuracy";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT];
  }

  protected override resetState(): void {
    super.resetState();
    this.goalScores = [];
    this.planScores = [];
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const interactions = unitInteractions(testCase.turns).map((unit) => interactionText(interactionParts(unit)));
    const [goal, plan] = await this.gatherPair(
      () =>
        this.gather(
          interactions.map(
            (text) => () =>
              this.judge(
                goalSchema,
                `Be strict and assume failure when unsure. Judge whether what the user actually saw from the ` +
                  `assistant fully and correctly achieved the user's goal. Only user-visible output counts: ` +
                  `hidden tool results count only if the assistant passed them on. A missing or vague part of the ` +
                  `request means at most 0.5; wrong or invented content lowers the score further.

${ANCHORED_SCALE}

${text}

In the reason, name what was and was not achieved (one to three sentences).

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
                { signal },
              ),
          ),
        ),
      () =>
        this.gather(
          interactions.map(
            (text) => () =>
              this.judge(
                planSchema,
                `Be strict. Judge the assistant's plan for the user's request and how well it kept to it — not ` +
                  `whether the answer was correct. Find the plan in the steps (stated, or implied by their ` +
                  `structure): is it clear, complete and logically ordered? Were its steps followed without ` +
                  `unexplained skips, additions or reordering? With no discernible plan, score at most 0.5.

${ANCHORED_SCALE}

${text}

In the reason, name missing or extra steps and where execution left the plan (one to three sentences).

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
                { signal },
              ),
          ),
        ),
    );
    this.goalScores = goal;
    this.planScores = plan;
    const listed = (judgements: readonly ScoredJudgement[]) => judgements.map((j) => `${scoreText(j.score)}: ${j.reason}`);
    return {
      score: goalAccuracyScore(
        goal.map((g) => g.score),
        plan.map((p) => p.score),
      ),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Threshold: ${this.threshold ?? "None"}`,
            sections: [
              { title: "Goal judgements, one per interaction", items: listed(goal) },
              { title: "Plan judgements, one per interaction", items: listed(plan) },
            ],
          }),
          signal,
        ),
      verboseSteps: [`Goal evaluations:\n${prettifyList(goal)}`, `Plan evaluations:\n${prettifyList(plan)}`],
    };
  }
}
