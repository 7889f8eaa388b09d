// DeepEval ContextualRelevancyMetric (docs/spec/judges.md §2.6): the share of statements in the retrieved nodes
// that are relevant to the input. Calls: one per node (concurrent in asyncMode) → reason.
import {
  LLMTestCaseParams,
  prettifyList,
  retrievalContextText,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, optionalText, verdictWord } from "./schema.js";
import { reasonPrompt } from "./shared-prompts.js";

export interface RelevancyStatementVerdict {
  readonly statement: string;
  readonly verdict: "yes" | "no";
  readonly reason: string | null;
}

const nodeVerdictsSchema = judgeSchema(
  "verdicts",
  z.object({ verdicts: z.array(z.object({ statement: z.string(), verdict: verdictWord(["yes", "no"] as const), reason: optionalText })) }),
);

/** Over every node's verdicts: `count(yes) / total`; 0 with none. */
export function contextualRelevancyScore(verdictsPerNode: readonly (readonly { verdict: string }[])[]): number {
  const all = verdictsPerNode.flat();
  if (all.length === 0) return 0;
  return all.filter((v) => v.verdict === "yes").length / all.length;
}

/**
 * How much of what was retrieved is relevant to the input (DeepEval `ContextualRelevancyMetric`).
 *
 * Details: one judge call per retrieval node (concurrent in `asyncMode`): extract the node's
 * statements and give each a `yes`/`no` relevance verdict (an empty node yields one `no`); then the
 * reason call. Score `count(yes) / total` over all nodes; no statements → 0. Threshold 0.5.
 *
 * @example
 * const metric = new ContextualRelevancyMetric({ model: judge });
 */
export class ContextualRelevancyMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Contextual Relevancy";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const nodes = (testCase.retrievalContext ?? []).map(retrievalContextText);
    const perNode = await this.gather(
      nodes.map(
        (node) => async () =>
          (
            await this.judge(
              nodeVerdictsSchema,
              `Extract the high-level statements made in the context below, then decide for each whether it ` +
                `is relevant to the input: "yes" or "no". For "no", give a reason quoting the irrelevant part; ` +
                `otherwise the reason may be null. If the context has no content, return a single "no" verdict ` +
                `whose statement is the context itself and whose reason says no statements were found.

Input:
${testCase.input}

Context:
${node}

${jsonOnly('{"verdicts": [{"statement": "<statement>", "verdict": "yes" | "no", "reason": "<string or null>"}, ...]}')}`,
              { signal },
            )
          ).verdicts as RelevancyStatementVerdict[],
      ),
    );
    const all = perNode.flat();
    return {
      score: contextualRelevancyScore(perNode),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Input:\n${testCase.input}`,
            sections: [
              {
                title: "Why some retrieved statements are irrelevant",
                items: all.filter((v) => v.verdict === "no" && v.reason !== null).map((v) => v.reason as string),
              },
              { title: "Relevant statements", items: all.filter((v) => v.verdict !== "no").map((v) => v.statement) },
            ],
          }),
          signal,
        ),
      verboseSteps: [`Verdicts:\n${prettifyList(perNode)}`],
    };
  }
}
