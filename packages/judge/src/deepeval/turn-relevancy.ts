// DeepEval TurnRelevancyMetric: is each assistant reply relevant to the conversation so far? The
// conversation is cut into unit interactions (a user's turn(s) and the assistant's reply), and one
// verdict is asked per interaction over a sliding window of the last `windowSize` interactions.
// Score: count(verdict != "no") / n; 1 with no complete interaction.
import {
  MultiTurnParams,
  prettifyList,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
  type Turn,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { JudgeMetricConfigError } from "./errors.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, renderTurns } from "./render.js";
import { judgeSchema, optionalText, verdictWord } from "./schema.js";
import { reasonPrompt, type Verdict } from "./shared-prompts.js";

const turnVerdictSchema = judgeSchema("turn_verdict", z.object({ verdict: verdictWord(["yes", "no"] as const), reason: optionalText }));

export interface TurnRelevancyOptions extends JudgeMetricOptions {
  /** Unit interactions per window (the judged one and those before it). Default 10. */
  readonly windowSize?: number;
}

/**
 * DeepEval's unit interactions: consecutive turns grouped so that each group starts with a user turn
 * and ends with the assistant's reply. A new group starts at a user turn that follows an assistant
 * turn once the current group holds a user turn; a trailing group counts only if it has a user turn,
 * more than one turn, and ends with the assistant.
 */
export function unitInteractions(turns: readonly Turn[]): Turn[][] {
  const units: Turn[][] = [];
  let current: Turn[] = [];
  let hasUser = false;
  for (const turn of turns) {
    const last = current[current.length - 1];
    if (last && last.role === "assistant" && turn.role === "user" && hasUser) {
      units.push(current);
      current = [turn];
      hasUser = true;
      continue;
    }
    current.push(turn);
    if (turn.role === "user") hasUser = true;
  }
  const last = current[current.length - 1];
  if (current.length > 1 && last?.role === "assistant" && hasUser) units.push(current);
  return units;
}

/** For each item, the window of up to `size` items ending with it (DeepEval `get_turns_in_sliding_window`). */
export function slidingWindows<T>(items: readonly T[], size: number): T[][] {
  return items.map((_, i) => items.slice(Math.max(0, i - size + 1), i + 1));
}

/** `count(verdict != "no") / n`; 1 with no verdicts. */
export function turnRelevancyScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict !== "no").length / verdicts.length;
}

/**
 * Whether every assistant reply is relevant to the conversation before it (DeepEval `TurnRelevancyMetric`).
 *
 * Details: one verdict call per unit interaction, over its sliding window of the last `windowSize`
 * interactions (concurrent in `asyncMode`), then the reason call, citing the message numbers judged
 * irrelevant. Score `count(yes) / n`. Default threshold 0.5.
 *
 * @example
 * const metric = new TurnRelevancyMetric({ model: judge, windowSize: 5 });
 * await metric.aMeasure(new ConversationalTestCase({ turns }));
 */
export class TurnRelevancyMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "windowSize"];

  readonly windowSize: number;
  /** The verdicts of the last measurement, one per unit interaction. */
  verdicts: readonly Verdict<"yes" | "no">[] = [];

  constructor(options: TurnRelevancyOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
    const size = options.windowSize ?? 10;
    if (!Number.isInteger(size) || size < 1) {
      throw new JudgeMetricConfigError("windowSize", "TurnRelevancyMetric: 'windowSize' must be a positive integer");
    }
    this.windowSize = size;
  }

  override get name(): string {
    return "Turn Relevancy";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.CONTENT, MultiTurnParams.ROLE];
  }

  protected override resetState(): void {
    super.resetState();
    this.verdicts = [];
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const windows = slidingWindows(unitInteractions(testCase.turns), this.windowSize).map((window) => window.flat());
    const verdicts: Verdict<"yes" | "no">[] = await this.gather(
      windows.map(
        (window) => () =>
          this.judge(
            turnVerdictSchema,
            `Below is the latest part of a conversation between a user and an assistant. Decide whether the ` +
              `assistant's LAST message is relevant to what the user asked, in the context of the ` +
              `conversation shown: "yes" or "no". A reply that changes the subject, ignores the question, or ` +
              `answers something else is "no". For "no", give a reason that quotes the last message; for ` +
              `"yes" the reason may be null.

Conversation:
${renderTurns(window)}

${jsonOnly('{"verdict": "yes" | "no", "reason": "<string or null>"}')}`,
            { signal },
          ),
      ),
    );
    this.verdicts = verdicts;
    const irrelevant = verdicts.flatMap((v, index) =>
      v.verdict === "no" ? [`Message ${index + 1}: ${v.reason ?? "(no reason given)"}`] : [],
    );
    return {
      score: turnRelevancyScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            sections: [{ title: "Assistant messages judged irrelevant (numbered by interaction)", items: irrelevant }],
          }),
          signal,
        ),
      verboseSteps: [
        `Turns Sliding Windows (size=${this.windowSize}):\n` +
          `${prettifyList(windows.map((w) => w.map((t) => ({ role: t.role, content: t.content }))))}`,
        `Verdicts:\n${prettifyList(verdicts)}`,
      ],
    };
  }
}
