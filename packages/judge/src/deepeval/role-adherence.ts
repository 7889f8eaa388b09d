// DeepEval RoleAdherenceMetric (docs/spec/judges.md §5.3). Calls: out-of-character assistant turns → reason.
import { prettifyList, type ConversationalTestCase, type Evaluation, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import type { JudgeSchema } from "../model.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { json, jsonOnly } from "./render.js";
import { judgeSchema } from "./schema.js";
import { reasonPrompt } from "./shared-prompts.js";

export interface OutOfCharacterTurn {
  /** 0-based index into the turns. */
  readonly index: number;
  readonly reason: string;
  /** `"<content> (turn #<index + 1>)"`. */
  readonly aiMessage: string;
}

const breachesZod = z.object({ verdicts: z.array(z.object({ index: z.number().int(), reason: z.string() })) });
const breachesSchema = judgeSchema("out_of_character", breachesZod);

/** The breach schema for one conversation: every index must point at an assistant turn. */
function breachesFor(assistantIndices: ReadonlySet<number>): JudgeSchema<z.output<typeof breachesZod>> {
  const validator = breachesZod.superRefine((value, ctx) => {
    value.verdicts.forEach((v, i) => {
      if (!assistantIndices.has(v.index)) {
        ctx.addIssue({
          code: "custom",
          path: ["verdicts", i, "index"],
          message: `turn ${v.index} is not an assistant turn (indices are 0-based)`,
        });
      }
    });
  });
  return { ...breachesSchema, validator: validator as unknown as typeof breachesSchema.validator };
}

/** `(A − min(breaches, A)) / A` with A = number of assistant turns; 1 when A = 0. */
export function roleAdherenceScore(assistantTurnCount: number, breachCount: number): number {
  if (assistantTurnCount === 0) return 1;
  return (assistantTurnCount - Math.min(breachCount, assistantTurnCount)) / assistantTurnCount;
}

/**
 * Does the assistant stay in its role? (DeepEval `RoleAdherenceMetric`.) Needs `chatbotRole`.
 *
 * Details: one call lists the assistant turns (0-based indices) that break the role, with reasons;
 * then the reason call. Score `(A − min(breaches, A)) / A` over the A assistant turns; none → 1.
 * Unlike DeepEval, repeated indices count once and an index that is not an assistant turn is a
 * schema violation. Threshold 0.5.
 *
 * @example
 * const metric = new RoleAdherenceMetric({ model: judge });
 */
export class RoleAdherenceMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Role Adherence";
  }

  protected override get requiresChatbotRole(): boolean {
    return true;
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const turns = testCase.turns;
    const role = testCase.chatbotRole ?? "";
    const assistantIndices = new Set(turns.flatMap((t, i) => (t.role === "assistant" ? [i] : [])));
    const { verdicts } = await this.judge(
      breachesFor(assistantIndices),
      `The assistant in the conversation below must stay in this role:
${role}

Find the assistant messages that break the role (out of character: wrong persona, tone, ` +
        `knowledge or behaviour for the role). Refer to each by its 0-based index in the list of turns ` +
        `and explain the breach. Only assistant messages can break the role. Return an empty list if none do.

Turns:
${json(turns.map((t, index) => ({ index, role: t.role, content: t.content })))}

${jsonOnly('{"verdicts": [{"index": <integer>, "reason": "<string>"}, ...]}')}`,
      { signal },
    );
    const seen = new Set<number>();
    const breaches: OutOfCharacterTurn[] = [];
    for (const v of verdicts) {
      if (seen.has(v.index)) continue;
      seen.add(v.index);
      breaches.push({ index: v.index, reason: v.reason, aiMessage: `${turns[v.index]?.content ?? ""} (turn #${v.index + 1})` });
    }
    return {
      score: roleAdherenceScore(assistantIndices.size, breaches.length),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Role the assistant must keep:\n${role}`,
            sections: [{ title: "Out-of-character assistant messages", items: breaches.map((b) => `${b.aiMessage}: ${b.reason}`) }],
          }),
          signal,
        ),
      verboseSteps: [`Chatbot Role:\n${role}`, `Out-of-Character Turn(s):\n${prettifyList(breaches)}`],
    };
  }
}
