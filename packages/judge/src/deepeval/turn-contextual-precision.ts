// DeepEval TurnContextualPrecisionMetric (docs/spec/judges.md §5.4): ContextualPrecision per conversation
// window, against the conversation's expected outcome. Calls per window: one verdict per retrieved
// node → window reason; then the final reason.
import { MultiTurnParams, type ConversationalTestCase } from "@evalkern/metrics/deepeval";
import { contextualPrecisionScore, type PrecisionVerdict } from "./contextual-precision.js";
import { jsonOnly } from "./render.js";
import { verdictListSchema } from "./shared-prompts.js";
import {
  TURN_RAG_OPTION_KEYS,
  TurnRetrievalMetric,
  type NodeVerdicts,
  type TurnRagOptions,
  type TurnWindow,
  type WindowVerdicts,
} from "./turn-rag.js";

export { NO_RETRIEVAL_CONTEXT_REASON } from "./turn-rag.js";

/**
 * Are the useful retrieved nodes of each window ranked above the useless ones? (DeepEval
 * `TurnContextualPrecisionMetric`.)
 *
 * Details: per window (see `TurnRagMetric`), one call decides for each node of the window's retrieval
 * context, in rank order, whether it was useful for reaching the conversation's `expectedOutcome` given
 * the window's user messages. Window score: weighted cumulative precision
 * (`contextualPrecisionScore`); no retrieval context → 1 with no call. Metric score: mean over
 * windows; no window → 1. Requires `expectedOutcome`. Threshold 0.5; strict mode zeroes windows below 1.
 *
 * @example
 * const metric = new TurnContextualPrecisionMetric({ model: judge });
 */
export class TurnContextualPrecisionMetric extends TurnRetrievalMetric<PrecisionVerdict> {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = TURN_RAG_OPTION_KEYS;

  constructor(options: TurnRagOptions = {}) {
    super(options);
  }

  override get name(): string {
    return "Turn Contextual Precision";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT, MultiTurnParams.RETRIEVAL_CONTEXT, MultiTurnParams.EXPECTED_OUTCOME];
  }

  protected override async scoreNodes(
    nodes: readonly string[],
    window: TurnWindow,
    testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<NodeVerdicts<PrecisionVerdict>>> {
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no"] as const, "required", { count: nodes.length, per: "node" }),
      `During a conversation, an assistant's retriever returned the ${nodes.length} nodes below, in rank ` +
        `order, for the user's messages. For each node, in order, decide whether ` +
        `it was useful in arriving at the expected outcome of the conversation: "yes" or "no". Every ` +
        `verdict needs a reason that quotes the relevant part of the node. Return exactly ${nodes.length} verdicts.

User messages:
${window.userContent}

Expected outcome:
${testCase.expectedOutcome ?? ""}

Retrieval nodes (in rank order):
${JSON.stringify(nodes, null, 2)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no", "reason": "<string>"}, ...]}')}`,
      { signal },
    );
    return {
      score: contextualPrecisionScore(verdicts),
      artefacts: { verdicts },
      reasonContext:
        `User messages:\n${window.userContent}\n\nUseful ("yes") nodes should rank above useless ("no") ones. ` +
        `Refer to nodes by their rank (1-based) and do not use the word "verdict".`,
      reasonSections: [{ title: "Nodes in rank order", items: verdicts.map((v, i) => `node ${i + 1}: ${v.verdict} — ${v.reason ?? ""}`) }],
    };
  }
}
