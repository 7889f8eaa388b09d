// DeepEval KnowledgeRetentionMetric (docs/spec/judges.md §5.1). Calls, sequential: knowledge per user turn →
// verdict per assistant turn that has prior knowledge → reason.
import { prettifyList, type ConversationalTestCase, type Evaluation, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { json, jsonOnly, renderTurns } from "./render.js";
import { judgeSchema, optionalText, verdictWord } from "./schema.js";
import { reasonPrompt, reasonsOf, type Verdict } from "./shared-prompts.js";

/** Facts one user message states: key → value (a value may list several items). */
export type Knowledge = Readonly<Record<string, string | readonly string[]>>;

export type RetentionVerdict = Verdict<"yes" | "no"> & { readonly turnIndex: number };

const factValue = z.union([z.string(), z.array(z.string())]);
// Sent as a list of {key, value} pairs (an open-ended map has no strict JSON-schema form); a reply in
// DeepEval's map shape, or null, is accepted too.
const knowledgeSchema = judgeSchema(
  "knowledge",
  z.object({
    data: z.preprocess(
      (v) =>
        v === null || v === undefined
          ? []
          : typeof v === "object" && !Array.isArray(v)
            ? Object.entries(v as Record<string, unknown>).map(([key, value]) => ({ key, value }))
            : v,
      z.array(z.object({ key: z.string(), value: factValue })),
    ),
  }),
);
const retentionVerdictSchema = judgeSchema(
  "knowledge_retention_verdict",
  z.object({ verdict: verdictWord(["yes", "no"] as const), reason: optionalText }),
);

/** `count(verdict == "no") / n` (turns that did not forget); 1 with no verdicts. */
export function knowledgeRetentionScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict === "no").length / verdicts.length;
}

/**
 * Does the assistant remember what the user told it? (DeepEval `KnowledgeRetentionMetric`.)
 *
 * Details: sequential judge calls — for every user turn, the facts that message states (earlier turns
 * given only as context; corrections override); then, for every assistant turn preceded by at least
 * one non-empty knowledge extraction, whether it forgets or contradicts the knowledge accumulated so
 * far (`yes` = forgets; asking again for a known fact is forgetting, asking for clarification is not);
 * then the reason. Score `count(no) / n`; no verdicts → 1. Threshold 0.5.
 *
 * @example
 * const metric = new KnowledgeRetentionMetric({ model: judge });
 */
export class KnowledgeRetentionMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Knowledge Retention";
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const turns = testCase.turns;
    const knowledgeByTurn = new Map<number, Knowledge>();
    for (let i = 0; i < turns.length; i++) {
      const turn = turns[i];
      if (turn?.role !== "user") continue;
      const { data } = await this.judge(
        knowledgeSchema,
        `Extract the facts the user states about themselves or their situation in the LAST user message ` +
          `below. Only facts explicitly stated in that message count; the earlier messages are there for ` +
          `context only (if the message corrects an earlier fact, give the corrected value). Give each ` +
          `fact a short descriptive key.

Earlier messages:
${renderTurns(turns.slice(0, i))}

Last user message:
${turn.content}

${jsonOnly('{"data": [{"key": "<fact name>", "value": "<string>" | ["<string>", ...]}, ...]}')}
Use an empty list if the message states no facts.`,
        { signal },
      );
      knowledgeByTurn.set(i, Object.fromEntries(data.map((f) => [f.key, f.value])));
    }

    const verdicts: RetentionVerdict[] = [];
    for (let i = 0; i < turns.length; i++) {
      const turn = turns[i];
      if (turn?.role !== "assistant") continue;
      const prior = [...knowledgeByTurn].filter(([index, k]) => index < i && Object.keys(k).length > 0);
      if (prior.length === 0) continue;
      const accumulated: Record<string, string | readonly string[]> = {};
      for (const [, k] of prior) Object.assign(accumulated, k);
      const { verdict, reason } = await this.judge(
        retentionVerdictSchema,
        `The user has told the assistant the facts below. Decide whether the assistant's message ` +
          `forgets or contradicts any of them: "yes" if it does (asking again for information the user ` +
          `already gave counts as forgetting; asking to clarify something ambiguous does not), "no" ` +
          `otherwise. For "yes", give a reason naming the forgotten fact; otherwise the reason may be null.

Known facts:
${json(accumulated)}

Assistant message:
${turn.content}

${jsonOnly('{"verdict": "yes" | "no", "reason": "<string or null>"}')}`,
        { signal },
      );
      verdicts.push({ verdict, reason, turnIndex: i });
    }

    return {
      score: knowledgeRetentionScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            sections: [{ title: "Attritions (what the assistant forgot)", items: reasonsOf(verdicts, ["yes"]) }],
          }),
          signal,
        ),
      verboseSteps: [
        `Knowledges:\n${prettifyList([...knowledgeByTurn].map(([turnIndex, data]) => ({ turnIndex, data })))}`,
        `Verdicts:\n${prettifyList(verdicts)}`,
      ],
    };
  }
}
