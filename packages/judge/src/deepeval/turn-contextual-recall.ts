// DeepEval TurnContextualRecallMetric (docs/spec/judges.md §5.4): ContextualRecall per conversation
// window, of the conversation's expected outcome. Calls per window: verdicts (one per sentence of the
// expected outcome) → window reason; then the final reason.
import { MultiTurnParams, type ConversationalTestCase } from "@evalkern/metrics/deepeval";
import type { RecallVerdict } from "./contextual-recall.js";
import { jsonOnly } from "./render.js";
import { reasonsExcept, reasonsOf, verdictListSchema } from "./shared-prompts.js";
import {
  TURN_RAG_OPTION_KEYS,
  TurnRetrievalMetric,
  type NodeVerdicts,
  type TurnRagOptions,
  type TurnWindow,
  type WindowVerdicts,
} from "./turn-rag.js";

/** `count(yes) / n`; 1 with no verdicts (the Turn metric's rule, unlike single-turn recall's 0). */
export function turnContextualRecallScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict === "yes").length / verdicts.length;
}

/**
 * Did each window's retrieval find what the expected outcome needs? (DeepEval `TurnContextualRecallMetric`.)
 *
 * Details: per window (see `TurnRagMetric`), one call splits the conversation's `expectedOutcome` into
 * sentences and decides for each whether the window's retrieval context supports it. Window score
 * `count(yes) / n` (no sentences → 1); no retrieval context → 1 with no call. Metric score: mean over
 * windows; no window → 1. Requires `expectedOutcome`. Threshold 0.5; strict mode zeroes windows below 1.
 *
 * @example
 * const metric = new TurnContextualRecallMetric({ model: judge });
 */
export class TurnContextualRecallMetric extends TurnRetrievalMetric<RecallVerdict> {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = TURN_RAG_OPTION_KEYS;

  constructor(options: TurnRagOptions = {}) {
    super(options);
  }

  override get name(): string {
    return "Turn Contextual Recall";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return [MultiTurnParams.ROLE, MultiTurnParams.CONTENT, MultiTurnParams.RETRIEVAL_CONTEXT, MultiTurnParams.EXPECTED_OUTCOME];
  }

  protected override async scoreNodes(
    nodes: readonly string[],
    _window: TurnWindow,
    testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<NodeVerdicts<RecallVerdict>>> {
    const expected = testCase.expectedOutcome ?? "";
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no"] as const, "required"),
      `Split the expected outcome of a conversation below into sentences. For each sentence, in ` +
        `order, decide whether it can be attributed to any of the retrieval nodes an assistant used ` +
        `during the conversation: "yes" or "no". Each reason should name the node by position ("1st ` +
        `node", "2nd node", ...) and quote the supporting part briefly, or say why nothing supports the sentence.

Expected outcome:
${expected}

Retrieval nodes:
${JSON.stringify(nodes, null, 2)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no", "reason": "<string>"}, ...]}')}`,
      { signal },
    );
    return {
      score: turnContextualRecallScore(verdicts),
      artefacts: { verdicts },
      reasonContext: `Expected outcome:\n${expected}`,
      reasonSections: [
        { title: "Supportive reasons (sentences found in the retrieval context)", items: reasonsOf(verdicts, ["yes"]) },
        { title: "Unsupportive reasons (sentences not found)", items: reasonsExcept(verdicts, ["yes"]) },
      ],
    };
  }
}
