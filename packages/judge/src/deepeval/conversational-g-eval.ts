// DeepEval ConversationalGEval: G-Eval over a whole conversation — a user-defined criterion, evaluation
// steps generated from it when absent, an integer score on the rubric's scale (0..10 without one),
// probability-weighted by the score token's logprobs when the judge returns them, normalised to [0, 1].
import {
  isMultiTurnParam,
  MultiTurnParams,
  prettifyList,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { JudgeMetricConfigError } from "./errors.js";
import {
  boundedReasonScoreSchema,
  checkCriteria,
  checkRubric,
  formatRubric,
  gEvalScoringPath,
  GeneratedSteps,
  normalizeGEvalScore,
  rubricScoreRange,
  stepsSchema,
  strictReasonScoreSchema,
  type Rubric,
  type RubricInput,
} from "./g-eval.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, type ScoringPath, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { logprobWeightedScore, type GEvalScoring } from "./logprob-weighting.js";
import { json, jsonOnly, MULTI_TURN_PARAM_LABEL as LABEL, numbered } from "./render.js";

export interface ConversationalGEvalOptions extends JudgeMetricOptions {
  /** The criterion's name; displayed as `"<name> [Conversational GEval]"`. */
  readonly name: string;
  /** What the judge sees of the conversation (DeepEval `TurnParams`). Default `["content"]` (roles are always shown). */
  readonly evaluationParams?: readonly MultiTurnParams[];
  readonly criteria?: string | null;
  readonly evaluationSteps?: readonly string[] | null;
  /** Score bands, in either form (`{ scoreRange, expectedOutcome }` or `{ score, expected_outcome }`). */
  readonly rubric?: readonly RubricInput[] | null;
  /** Alternatives per token to ask for (0..20). Default 20. */
  readonly topLogprobs?: number;
}

/** Turn-level params shown inside each turn; the others are fields of the conversation. */
const TURN_LEVEL = new Set<MultiTurnParams>([
  "role",
  "content",
  "retrieval_context",
  "tools_called",
  "metadata",
  "mcp_tools_called",
  "mcp_resources_called",
  "mcp_prompts_called",
]);
const CONVERSATION_FIELD: Partial<Record<MultiTurnParams, keyof ConversationalTestCase>> = {
  scenario: "scenario",
  expected_outcome: "expectedOutcome",
  context: "context",
  user_description: "userDescription",
  chatbot_role: "chatbotRole",
  tags: "tags",
};
type TurnField = "content" | "retrievalContext" | "toolsCalled" | "metadata" | "mcpToolsCalled" | "mcpResourcesCalled" | "mcpPromptsCalled";
const TURN_FIELD: Partial<Record<MultiTurnParams, TurnField>> = {
  content: "content",
  retrieval_context: "retrievalContext",
  tools_called: "toolsCalled",
  metadata: "metadata",
  // MCP calls are shown as their JSON (`toJSON`), as the turn carries them
  mcp_tools_called: "mcpToolsCalled",
  mcp_resources_called: "mcpResourcesCalled",
  mcp_prompts_called: "mcpPromptsCalled",
};

function paramNames(params: readonly MultiTurnParams[]): string {
  const labels = params.map((p) => LABEL[p]);
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

/**
 * A custom LLM-judged criterion over a conversation (DeepEval `ConversationalGEval`).
 *
 * Details: as `GEval`, on a `ConversationalTestCase`: steps from `criteria` (once per instance) unless
 * `evaluationSteps` are given, then one score call showing the turns (role plus the turn-level
 * `evaluationParams`: content, retrieval context, tools called) and the conversation-level ones
 * (scenario, expected outcome, ...). The score is an integer on the rubric's scale, bounded in the
 * schema, weighted by logprobs when available (`scoring`), normalised by the scale. Strict mode asks
 * for 0 or 1 with threshold 1. Conversation-level `evaluationParams` are required fields.
 *
 * @example
 * const metric = new ConversationalGEval({
 *   model: judge,
 *   name: "Helpfulness",
 *   criteria: "Does the assistant resolve the user's problem?",
 * });
 */
export class ConversationalGEval extends ConversationalJudgeMetric {
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

  readonly metricName: string;
  readonly evaluationParams: readonly MultiTurnParams[];
  readonly criteria: string | null;
  readonly evaluationSteps: readonly string[] | null;
  readonly rubric: readonly Rubric[] | null;
  readonly topLogprobs: number;
  scoring: GEvalScoring | null = null;
  judgeScore: number | null = null;
  weightedJudgeScore: number | null = null;
  private readonly generatedSteps = new GeneratedSteps();

  constructor(options: ConversationalGEvalOptions) {
    super(options, { defaultThreshold: 0.5 });
    // Left out entirely (plain JavaScript): the checks below name the missing option.
    const o: Partial<ConversationalGEvalOptions> = options ?? {};
    if (typeof o.name !== "string" || o.name.trim() === "") {
      throw new JudgeMetricConfigError("name", "ConversationalGEval: 'name' must be a non-blank string");
    }
    this.metricName = o.name;
    const params = o.evaluationParams ?? [MultiTurnParams.CONTENT];
    if (!Array.isArray(params) || params.length === 0 || !params.every((p) => isMultiTurnParam(p))) {
      throw new JudgeMetricConfigError(
        "evaluationParams",
        "ConversationalGEval: 'evaluationParams' must be a non-empty list of MultiTurnParams",
      );
    }
    this.evaluationParams = Object.freeze([...params]);
    const { criteria, evaluationSteps } = checkCriteria(o.criteria, o.evaluationSteps, "ConversationalGEval");
    this.criteria = criteria;
    this.evaluationSteps = evaluationSteps;
    this.rubric = checkRubric(o.rubric, "ConversationalGEval");
    const top = o.topLogprobs ?? 20;
    if (!Number.isInteger(top) || top < 0 || top > 20) {
      throw new JudgeMetricConfigError("topLogprobs", "ConversationalGEval: 'topLogprobs' must be an integer in 0..20");
    }
    this.topLogprobs = top;
  }

  override get name(): string {
    return `${this.metricName} [Conversational GEval]`;
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return this.evaluationParams;
  }

  get scoreRange(): readonly [number, number] {
    return rubricScoreRange(this.rubric);
  }

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
      this.judge(
        stepsSchema,
        `You are setting up the evaluation of a conversation between a user and an assistant. From the ` +
          `criteria below, write 3 or 4 concise evaluation steps that explain how to judge the ` +
          `${paramNames(this.evaluationParams)} of the conversation's turns. Each step should be one clear ` +
          `instruction.

Criteria:
${this.criteria}

${jsonOnly('{"steps": ["<step>", ...]}')}`,
        { signal },
      ),
    );
  }

  private renderConversation(testCase: ConversationalTestCase): string {
    const turns = testCase.turns.map((turn) => {
      const shown: Record<string, unknown> = { role: turn.role };
      for (const param of this.evaluationParams) {
        const field = TURN_FIELD[param];
        if (!field || !TURN_LEVEL.has(param)) continue;
        const value = turn[field];
        if (value === null || value === undefined) continue;
        shown[param] = field === "toolsCalled" ? (value as readonly { toJSON(): unknown }[]).map((call) => call.toJSON()) : value;
      }
      return shown;
    });
    const fields = this.evaluationParams.flatMap((param) => {
      const field = CONVERSATION_FIELD[param];
      const value = field ? testCase[field] : null;
      return value === null || value === undefined ? [] : [`${LABEL[param]}:\n${Array.isArray(value) ? value.join("\n") : String(value)}`];
    });
    return `${fields.length > 0 ? `${fields.join("\n\n")}\n\n` : ""}Turns:\n${json(turns)}`;
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const steps = await this.steps(signal);
    const conversation = this.renderConversation(testCase);
    const verbose = [
      ...(this.criteria ? [`Criteria:\n${this.criteria}`] : []),
      `Evaluation Steps:\n${prettifyList(steps)}`,
      ...(this.rubric && !this.strictMode ? [`Rubric:\n${formatRubric(this.rubric)}`] : []),
    ];
    const params = paramNames(this.evaluationParams);
    if (this.strictMode) {
      const { score, reason } = await this.judge(
        strictReasonScoreSchema,
        `Evaluate the conversation below by following the evaluation steps. Return a score of 1 if it ` +
          `fully meets every step, otherwise 0, and a brief reason that cites specifics of the ${params} without quoting the score.

Evaluation steps:
${numbered(steps)}

${conversation}

${jsonOnly('{"reason": "<string>", "score": 0 | 1}')}`,
        { signal },
      );
      this.scoring = "strict";
      this.judgeScore = score;
      return { score, reason, verboseSteps: [...verbose, `Scoring: strict (judge score ${score})`] };
    }
    const [min, max] = this.scoreRange;
    const scale = this.rubric
      ? `Use this rubric:\n${formatRubric(this.rubric)}`
      : `${max} means the conversation follows the evaluation steps fully, ${min} means not at all.`;
    const useLogprobs = this.model.supportsLogprobs && this.topLogprobs > 0;
    const reply = await this.judgeWithLogprobs(
      boundedReasonScoreSchema(min, max),
      `Evaluate the conversation below by following the evaluation steps, and give it an integer score from ${min} to ${max}. ${scale}
Also give a brief reason that cites specifics of the ${params} of the turns; do not quote the score ` +
        `in the reason. Put the reason first and the score last.

Evaluation steps:
${numbered(steps)}

${conversation}

${jsonOnly(`{"reason": "<string>", "score": <integer ${min}-${max}>}`)}`,
      { signal, ...(useLogprobs ? { logprobs: true, topLogprobs: this.topLogprobs } : {}) },
    );
    const { score: judgeScore, reason } = reply.value;
    const weighted = logprobWeightedScore(judgeScore, useLogprobs ? reply.logprobs : undefined);
    this.scoring = weighted.scoring;
    this.judgeScore = judgeScore;
    this.weightedJudgeScore = weighted.scoring === "logprob-weighted" ? weighted.score : null;
    const how =
      weighted.scoring === "logprob-weighted"
        ? `logprob-weighted (judge score ${judgeScore}, weighted ${weighted.score})`
        : `raw judge score ${judgeScore} (${weighted.fallback ?? "no logprobs"})`;
    return {
      score: normalizeGEvalScore(weighted.score, [min, max]),
      reason,
      verboseSteps: [...verbose, `Scoring: ${how} on [${min}, ${max}]`],
    };
  }
}
