// DeepEval ConversationCompletenessMetric (docs/spec/judges.md §5.2). Calls: intentions → one verdict per
// intention (concurrent in asyncMode) → reason.
import { prettifyList, type ConversationalTestCase, type Evaluation, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, renderTurns } from "./render.js";
import { judgeSchema, optionalText, stringList, verdictWord } from "./schema.js";
import { reasonPrompt, reasonsOf, type Verdict } from "./shared-prompts.js";

const intentionsSchema = judgeSchema("intentions", z.object({ intentions: stringList }));
const intentionVerdictSchema = judgeSchema(
  "intention_verdict",
  z.object({ verdict: verdictWord(["yes", "no"] as const), reason: optionalText }),
);

/** `count(verdict != "no") / n`; 1 with no intentions. */
export function conversationCompletenessScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict !== "no").length / verdicts.length;
}

/**
 * Did the assistant satisfy everything the user came for? (DeepEval `ConversationCompletenessMetric`.)
 *
 * Details: the user's distinct intentions across the conversation (one call), then one `yes`/`no`
 * verdict per intention over the whole conversation (concurrent in `asyncMode`; reason for `no`
 * quoting the assistant), then the reason. Score `count(yes) / n`; no intentions → 1. Threshold 0.5.
 *
 * @example
 * const metric = new ConversationCompletenessMetric({ model: judge });
 */
export class ConversationCompletenessMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Conversation Completeness";
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const conversation = renderTurns(testCase.turns);
    const { intentions } = await this.judge(
      intentionsSchema,
      `List the user's overall intentions in the conversation below: one short item per distinct ` +
        `thing the user wanted to get done. Ignore greetings and small talk.

Conversation:
${conversation}

${jsonOnly('{"intentions": ["<intention>", ...]}')}`,
      { signal },
    );
    const verdicts: Verdict<"yes" | "no">[] = await this.gather(
      intentions.map(
        (intention) => () =>
          this.judge(
            intentionVerdictSchema,
            `Judging the whole conversation below, was this user intention satisfied by the assistant? ` +
              `Answer "yes" or "no". For "no", give a reason that quotes the assistant where relevant; ` +
              `otherwise the reason may be null.

Intention:
${intention}

Conversation:
${conversation}

${jsonOnly('{"verdict": "yes" | "no", "reason": "<string or null>"}')}`,
            { signal },
          ),
      ),
    );
    return {
      score: conversationCompletenessScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            scoreText: String(this.score),
            sections: [
              { title: "User intentions", items: intentions },
              { title: "Why some intentions were not satisfied", items: reasonsOf(verdicts, ["no"]) },
            ],
          }),
          signal,
        ),
      verboseSteps: [`Intentions:\n${prettifyList(intentions)}`, `Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
