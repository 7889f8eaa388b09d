// DeepEval TurnContextualRelevancyMetric (docs/spec/judges.md §5.4): ContextualRelevancy per conversation
// window. Calls per window: one per retrieved node (concurrent in asyncMode) → window reason; then the
// final reason.
import { MultiTurnParams, type ConversationalTestCase } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import type { RelevancyStatementVerdict } from "./contextual-relevancy.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, optionalText, verdictWord } from "./schema.js";
import {
  TURN_RAG_OPTION_KEYS,
  TurnRetrievalMetric,
  type NodeVerdicts,
  type TurnRagOptions,
  type TurnWindow,
  type WindowVerdicts,
} from "./turn-rag.js";

const nodeVerdictsSchema = judgeSchema(
  "verdicts",
  z.object({ verdicts: z.array(z.object({ statement: z.string(), verdict: verdictWord(["yes", "no"] as const), reason: optionalText })) }),
);

/** `count(yes) / n` over the window's statements; 1 with none (the Turn metric's rule). */
export function turnContextualRelevancyScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict === "yes").length / verdicts.length;
}

/**
 * How much of what each window retrieved is relevant to its user messages (DeepEval
 * `TurnContextualRelevancyMetric`).
 *
 * Details: per window (see `TurnRagMetric`), one call per node of the window's retrieval context
 * extracts the node's statements and gives each a `yes`/`no` relevance verdict against the window's
 * user messages. Window score `count(yes) / n` over all its statements; no retrieval context → 1 with
 * no call. Metric score: mean over windows; no window → 1. Threshold 0.5; strict mode zeroes windows
 * below 1.
 *
 * @example
 * const metric = new TurnContextualRelevancyMetric({ model: judge });
 */
export class TurnContextualRelevancyMetric extends TurnRetrievalMetric<RelevancyStatementVerdict> {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = TURN_RAG_OPTION_KEYS;

  constructor(options: TurnRagOptions = {}) {
    super(options);
  }

  override get name(): string {
    return "Turn Contextual Relevancy";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT, MultiTurnParams.RETRIEVAL_CONTEXT];
  }

  protected override async scoreNodes(
    nodes: readonly string[],
    window: TurnWindow,
    _testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<NodeVerdicts<RelevancyStatementVerdict>>> {
    const perNode = await this.gather(
      nodes.map(
        (node) => async () =>
          (
            await this.judge(
              nodeVerdictsSchema,
              `Extract the high-level statements made in the context below, which an assistant retrieved ` +
                `during a conversation, then decide for each whether it is relevant to the user's messages: ` +
                `"yes" or "no". For "no", give a reason quoting the irrelevant part; otherwise the reason may ` +
                `be null. If the context has no content, return a single "no" verdict whose statement is the ` +
                `context itself and whose reason says no statements were found.

User messages:
${window.userContent}

Context:
${node}

${jsonOnly('{"verdicts": [{"statement": "<statement>", "verdict": "yes" | "no", "reason": "<string or null>"}, ...]}')}`,
              { signal },
            )
          ).verdicts as RelevancyStatementVerdict[],
      ),
    );
    const verdicts = perNode.flat();
    return {
      score: turnContextualRelevancyScore(verdicts),
      artefacts: { verdicts },
      reasonContext: `User messages:\n${window.userContent}`,
      reasonSections: [
        {
          title: "Irrelevant statements and why",
          items: verdicts.filter((v) => v.verdict !== "yes").map((v) => `${v.statement}: ${v.reason ?? "(no reason given)"}`),
        },
        { title: "Relevant statements", items: verdicts.filter((v) => v.verdict === "yes").map((v) => v.statement) },
      ],
    };
  }
}
