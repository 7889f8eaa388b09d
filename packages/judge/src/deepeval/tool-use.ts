// DeepEval ToolUseMetric (docs/spec/judges.md §4.8). Calls: tool selection per unit interaction ∥ argument
// correctness per interaction that called tools → selection reason → argument reason.
import {
  formatToolCallsForPrompt,
  MultiTurnParams,
  prettifyList,
  ToolCall,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
  type ToolCallInit,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ANCHORED_SCALE, interactionParts, type InteractionParts } from "./agentic.js";
import { JudgeMetricConfigError } from "./errors.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, scoreText } from "./render.js";
import { judgeSchema, unitInterval } from "./schema.js";
import { reasonPrompt } from "./shared-prompts.js";
import { unitInteractions } from "./turn-relevancy.js";

export interface ToolUseOptions extends JudgeMetricOptions {
  /** The tools the assistant could call (name and description matter to the judge). */
  readonly availableTools: readonly (ToolCall | ToolCallInit)[];
}

/** A judged score with its reason. */
export interface ScoredJudgement {
  readonly score: number;
  readonly reason: string;
}

const selectionSchema = judgeSchema("tool_selection", z.object({ score: unitInterval, reason: z.string() }));
const argumentsSchema = judgeSchema("tool_arguments", z.object({ score: unitInterval, reason: z.string() }));

/** DeepEval's mean: the sum over the count, or over 1 when there is nothing (so an empty list averages 0). */
export function meanOrZero(scores: readonly number[]): number {
  return scores.reduce((sum, s) => sum + s, 0) / Math.max(1, scores.length);
}

/** `min(mean(selection), mean(arguments))`, an empty list averaging 0 (DeepEval `ToolUseMetric`). */
export function toolUseScore(selection: readonly number[], argumentScores: readonly number[]): number {
  return Math.min(meanOrZero(selection), meanOrZero(argumentScores));
}

function toAvailableTools(value: unknown): readonly ToolCall[] {
  if (!Array.isArray(value)) {
    throw new JudgeMetricConfigError("availableTools", "ToolUseMetric: 'availableTools' must be a list of ToolCall (or ToolCall fields)");
  }
  return Object.freeze(
    value.map((item: unknown, index) => {
      try {
        return ToolCall.from(item as ToolCall | ToolCallInit);
      } catch (error) {
        const message = `ToolUseMetric: 'availableTools[${index}]': ${(error as Error).message}`;
        throw new JudgeMetricConfigError(`availableTools[${index}]`, message);
      }
    }),
  );
}

/**
 * Does the assistant pick the right tools and call them with the right arguments, turn after turn?
 * (DeepEval `ToolUseMetric`.) Takes a `ConversationalTestCase` whose assistant turns carry `toolsCalled`.
 *
 * Details: for each unit interaction, a strict tool-selection score (which tools were chosen, given the
 * available ones) and, when the interaction called tools, an argument-correctness score (concurrent in
 * `asyncMode`); both `{score, reason}` anchored at 1.0/0.75/0.5/0.25/0.0. Score `min(mean(selection),
 * mean(arguments))` where an empty list averages 0 (DeepEval's rule: a conversation that called no
 * tool scores 0). The reason is two reason calls (selection, then arguments) joined by a newline.
 * Threshold 0.5; strict: 1.
 *
 * @example
 * const metric = new ToolUseMetric({ model: judge, availableTools: [{ name: "search", description: "Web search" }] });
 */
export class ToolUseMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "availableTools"];

  readonly availableTools: readonly ToolCall[];
  /** The tool-selection judgements of the last measurement, one per unit interaction. */
  selectionScores: readonly ScoredJudgement[] = [];
  /** The argument judgements of the last measurement, one per interaction that called tools. */
  argumentScores: readonly ScoredJudgement[] = [];

  constructor(options: ToolUseOptions) {
    super(options, { defaultThreshold: 0.5 });
    this.availableTools = toAvailableTools((options ?? {}).availableTools);
  }

  override get name(): string {
    return "Tool Use";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT];
  }

  protected override resetState(): void {
    super.resetState();
    this.selectionScores = [];
    this.argumentScores = [];
  }

  private evidence(parts: InteractionParts): string {
    return `User input:
${parts.userMessages.join("\n")}

Assistant messages:
${parts.assistantMessages.join("\n") || "(none)"}

Tools called:
${formatToolCallsForPrompt(parts.toolsCalled) || "[]"}

Available tools:
${formatToolCallsForPrompt(this.availableTools) || "[]"}`;
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const interactions = unitInteractions(testCase.turns).map(interactionParts);
    const withTools = interactions.filter((parts) => parts.toolsCalled.length > 0);
    const [selection, argumentScores] = await this.gatherPair(
      () =>
        this.gather(
          interactions.map(
            (parts) => () =>
              this.judge(
                selectionSchema,
                `Be strict. Judge only WHICH tools the assistant chose for the user's request, given the tools ` +
                  `available — not how they were called or whether they worked. Every tool used should serve the ` +
                  `request; an unrelated, redundant or speculative call lowers the score, and so does ignoring a ` +
                  `clearly better available tool (at most 0.5 then). When unsure whether a tool was needed, ` +
                  `assume it was not.

${ANCHORED_SCALE}

${this.evidence(parts)}

In the reason, name the tools that were or were not appropriate (one to three sentences).

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
                { signal },
              ),
          ),
        ),
      () =>
        this.gather(
          withTools.map(
            (parts) => () =>
              this.judge(
                argumentsSchema,
                `Be strict. Judge only the ARGUMENTS the assistant passed to the tools it called: are the input ` +
                  `parameters correct, complete and taken from what the user asked (no invented or missing ` +
                  `values)? Do not judge which tools were chosen.

${ANCHORED_SCALE}

${this.evidence(parts)}

In the reason, name the arguments that were wrong, missing or invented (one to three sentences).

${jsonOnly('{"score": <number 0-1>, "reason": "<string>"}')}`,
                { signal },
              ),
          ),
        ),
    );
    this.selectionScores = selection;
    this.argumentScores = argumentScores;
    const explain = (what: string, judgements: readonly ScoredJudgement[]) =>
      this.judgeReason(
        reasonPrompt({
          metric: `${this.name} (${what})`,
          score: this.score,
          context: `Threshold: ${this.threshold ?? "None"}`,
          sections: [
            { title: `${what} judgements, one per interaction`, items: judgements.map((j) => `${scoreText(j.score)}: ${j.reason}`) },
          ],
        }),
        signal,
      );
    return {
      score: toolUseScore(
        selection.map((s) => s.score),
        argumentScores.map((s) => s.score),
      ),
      reason: async () => [await explain("tool selection", selection), await explain("tool arguments", argumentScores)].join("\n"),
      verboseSteps: [`Tool Selection Scores:\n${prettifyList(selection)}`, `Argument Correctness Scores:\n${prettifyList(argumentScores)}`],
    };
  }
}
