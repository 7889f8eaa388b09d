// DeepEval TopicAdherenceMetric (docs/spec/judges.md §4.7). Calls: question-answer pairs per unit
// interaction (sequential) → one TP/TN/FP/FN verdict per pair (concurrent in asyncMode) → reason.
import {
  MultiTurnParams,
  prettifyList,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { JudgeMetricConfigError } from "./errors.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { bulletList, jsonOnly, renderTurns } from "./render.js";
import { judgeSchema } from "./schema.js";
import { reasonPrompt } from "./shared-prompts.js";
import { unitInteractions } from "./turn-relevancy.js";

export interface TopicAdherenceOptions extends JudgeMetricOptions {
  /** The topics the assistant may answer about. Non-empty. */
  readonly relevantTopics: readonly string[];
}

/** A user question and the assistant's answer to it. */
export interface QAPair {
  readonly question: string;
  readonly response: string;
}

/** The truth-table cell of one question-answer pair. */
export type TopicVerdictKind = "TP" | "TN" | "FP" | "FN";

export interface TopicVerdict {
  readonly verdict: TopicVerdictKind;
  readonly reason: string;
  readonly pair: QAPair;
}

const qaPairsSchema = judgeSchema("qa_pairs", z.object({ qa_pairs: z.array(z.object({ question: z.string(), response: z.string() })) }));
const cellWord = z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), z.enum(["TP", "TN", "FP", "FN"]));
const topicVerdictSchema = judgeSchema("topic_verdict", z.object({ verdict: cellWord, reason: z.string() }));

/** The reason when the conversation yields no question-answer pair (score 0, no reason call). */
export const NO_QA_PAIRS_REASON = "There were no question-answer pairs to evaluate in the conversation.";

/** `(TP + TN) / (TP + TN + FP + FN)`; 0 with no pairs. */
export function topicAdherenceScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 0;
  return verdicts.filter((v) => v.verdict === "TP" || v.verdict === "TN").length / verdicts.length;
}

/**
 * Does the assistant answer on-topic questions and decline off-topic ones? (DeepEval `TopicAdherenceMetric`.)
 *
 * Details: for each unit interaction, the explicit question-answer pairs (one call each, in order); then
 * for each pair one verdict: `TP` (on-topic, answered properly), `FN` (on-topic, refused or answered
 * beside the point), `FP` (off-topic, answered anyway), `TN` (off-topic, declined); then the reason.
 * Score `(TP + TN) / n`; no pairs → 0 with {@link NO_QA_PAIRS_REASON}. Threshold 0.5; strict: 1.
 *
 * @example
 * const metric = new TopicAdherenceMetric({ model: judge, relevantTopics: ["museum opening hours", "tickets"] });
 */
export class TopicAdherenceMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "relevantTopics"];

  readonly relevantTopics: readonly string[];
  /** The verdicts of the last measurement, one per question-answer pair. */
  verdicts: readonly TopicVerdict[] = [];

  constructor(options: TopicAdherenceOptions) {
    super(options, { defaultThreshold: 0.5 });
    const topics = (options ?? {}).relevantTopics as unknown;
    if (!Array.isArray(topics) || topics.length === 0 || topics.some((t) => typeof t !== "string" || t.trim() === "")) {
      const message = "TopicAdherenceMetric: 'relevantTopics' must be a non-empty list of non-blank strings";
      throw new JudgeMetricConfigError("relevantTopics", message);
    }
    this.relevantTopics = Object.freeze([...(topics as string[])]);
  }

  override get name(): string {
    return "Topic Adherence";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT];
  }

  protected override resetState(): void {
    super.resetState();
    this.verdicts = [];
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const pairs: QAPair[] = [];
    for (const unit of unitInteractions(testCase.turns)) {
      const { qa_pairs } = await this.judge(
        qaPairsSchema,
        `Extract the question-answer pairs from the exchange below: each pair is one question the user ` +
          `asked explicitly and the assistant's direct reply to it, both as they appear in the exchange. ` +
          `Split a message holding several questions or answers into separate pairs, one question each. ` +
          `Skip greetings, thanks and other turns that are not a clear question and answer. Infer nothing ` +
          `that is not written.

Exchange:
${renderTurns(unit)}

${jsonOnly('{"qa_pairs": [{"question": "<string>", "response": "<string>"}, ...]}')}
Use an empty list if there is no question-answer pair.`,
        { signal },
      );
      pairs.push(...qa_pairs);
    }
    const topics = bulletList(this.relevantTopics);
    const verdicts: TopicVerdict[] = await this.gather(
      pairs.map((pair) => async () => {
        const { verdict, reason } = await this.judge(
          topicVerdictSchema,
          `An assistant should answer questions about the relevant topics below and decline anything ` +
            `else. Classify this question-answer pair:
- "TP": the question is about a relevant topic and the response answers it correctly;
- "FN": the question is about a relevant topic, but the response refuses it or does not answer it;
- "FP": the question is not about a relevant topic, yet the response answers it;
- "TN": the question is not about a relevant topic and the response declines it.
Give a short reason for the classification.

Relevant topics:
${topics}

Question:
${pair.question}

Response:
${pair.response}

${jsonOnly('{"verdict": "TP" | "TN" | "FP" | "FN", "reason": "<string>"}')}`,
          { signal },
        );
        return { verdict, reason, pair };
      }),
    );
    this.verdicts = verdicts;
    const cell = (kind: TopicVerdictKind) => verdicts.filter((v) => v.verdict === kind).map((v) => v.reason);
    const verbose = [
      `Interaction Pairs:\n${prettifyList(pairs)}`,
      `Verdicts:\n${prettifyList(verdicts.map((v) => ({ verdict: v.verdict, reason: v.reason })))}`,
    ];
    if (verdicts.length === 0) return { score: 0, reason: NO_QA_PAIRS_REASON, verboseSteps: verbose };
    return {
      score: topicAdherenceScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Relevant topics:\n${topics}\nThreshold: ${this.threshold ?? "None"}`,
            sections: [
              { title: "On-topic questions answered (TP)", items: cell("TP") },
              { title: "Off-topic questions declined (TN)", items: cell("TN") },
              { title: "Off-topic questions answered anyway (FP)", items: cell("FP") },
              { title: "On-topic questions not answered (FN)", items: cell("FN") },
            ],
          }),
          signal,
        ),
      verboseSteps: verbose,
    };
  }
}
