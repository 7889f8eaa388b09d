// DeepEval ContextualPrecisionMetric (docs/spec/judges.md §2.4): are the useful retrieved nodes ranked above
// the useless ones? Calls: one verdict per node → reason.
import {
  LLMTestCaseParams,
  prettifyList,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
  type RetrievalContextItem,
} from "@evalkern/metrics/deepeval";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { reasonPrompt, verdictListSchema, type Verdict } from "./shared-prompts.js";

export type PrecisionVerdict = Verdict<"yes" | "no">;

/**
 * The retrieval nodes the judge sees: plain strings stay single nodes; structured entries are grouped
 * by `source` into one node per source, at the source's first appearance, as a `Source: <source>`
 * header followed by its contexts.
 */
export function groupRetrievalNodes(items: readonly RetrievalContextItem[]): string[] {
  const nodes: (string | { source: string; contexts: string[] })[] = [];
  const bySource = new Map<string, { source: string; contexts: string[] }>();
  for (const item of items) {
    if (typeof item === "string") {
      nodes.push(item);
      continue;
    }
    let group = bySource.get(item.source);
    if (!group) {
      group = { source: item.source, contexts: [] };
      bySource.set(item.source, group);
      nodes.push(group);
    }
    group.contexts.push(item.context);
  }
  return nodes.map((node) => (typeof node === "string" ? node : `Source: ${node.source}\n${node.contexts.join("\n---\n")}`));
}

/**
 * Weighted cumulative precision: with `r_k = 1` for a `yes` at rank k and `R = Σ r_k`,
 * `(1/R) · Σ_k r_k · (Σ_{i≤k} r_i) / k`; 0 with no verdicts or no `yes`.
 */
export function contextualPrecisionScore(verdicts: readonly PrecisionVerdict[]): number {
  let relevantSoFar = 0;
  let sum = 0;
  verdicts.forEach((v, index) => {
    if (v.verdict !== "yes") return;
    relevantSoFar += 1;
    sum += relevantSoFar / (index + 1);
  });
  return relevantSoFar === 0 ? 0 : sum / relevantSoFar;
}

/**
 * Ranking quality of a retriever (DeepEval `ContextualPrecisionMetric`).
 *
 * Details: two judge calls — for each retrieval node, in rank order, was it useful for arriving at
 * `expectedOutput` (`yes`/`no`, with a reason quoting the node); then the reason. Score: weighted
 * cumulative precision (see {@link contextualPrecisionScore}); 1 when every useful node outranks every
 * useless one. Threshold 0.5.
 *
 * @example
 * const metric = new ContextualPrecisionMetric({ model: judge });
 */
export class ContextualPrecisionMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Contextual Precision";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT, LLMTestCaseParams.EXPECTED_OUTPUT];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const nodes = groupRetrievalNodes(testCase.retrievalContext ?? []);
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no"] as const, "required", { count: nodes.length, per: "node" }),
      `A retriever returned the ${nodes.length} nodes below, in rank order, for the input. For each node, ` +
        `in order, decide whether it was ` +
        `useful in arriving at the expected output: "yes" or "no". Every verdict needs a reason that ` +
        `quotes the relevant part of the node. Return exactly ${nodes.length} verdicts.

Input:
${testCase.input}

Expected output:
${testCase.expectedOutput ?? ""}

Retrieval nodes (in rank order):
${JSON.stringify(nodes, null, 2)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no", "reason": "<string>"}, ...]}')}`,
      { signal },
    );
    return {
      score: contextualPrecisionScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context:
              `Input:\n${testCase.input}\n\nUseful ("yes") nodes should rank above useless ("no") ones. Refer to nodes by their rank ` +
              `(1-based) and do not use the word "verdict".`,
            sections: [{ title: "Nodes in rank order", items: verdicts.map((v, i) => `node ${i + 1}: ${v.verdict} — ${v.reason ?? ""}`) }],
          }),
          signal,
        ),
      verboseSteps: [`Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
