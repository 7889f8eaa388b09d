// The shared shape of DeepEval's conversational RAG metrics (TurnFaithfulness, TurnContextualPrecision,
// TurnContextualRecall, TurnContextualRelevancy; docs/spec/judges.md §5.4): the conversation is cut into
// unit interactions, a sliding window of the last `windowSize` interactions ends at each one, and every
// window is scored like its single-turn namesake over the window's user messages, assistant messages
// and the retrieval context of its assistant turns. The metric's score is the mean over the windows.
import {
  passes,
  prettifyList,
  retrievalContextText,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { JudgeMetricConfigError } from "./errors.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { reasonPrompt, type ReasonSection } from "./shared-prompts.js";
import { slidingWindows, unitInteractions } from "./turn-relevancy.js";

export interface TurnRagOptions extends JudgeMetricOptions {
  /** Unit interactions per window (the one the window ends at and those before it). Default 10. */
  readonly windowSize?: number;
}

/** The option keys every Turn* RAG metric takes. */
export const TURN_RAG_OPTION_KEYS: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "windowSize"];

/** What one window holds, as the window's judge calls see it. */
export interface TurnWindow {
  /** The user messages of the window, one per line, in order. */
  readonly userContent: string;
  /** The assistant messages of the window, one per line, in order. */
  readonly assistantContent: string;
  /** The retrieval context of the window's assistant turns, concatenated in turn order (as text). */
  readonly retrievalContext: readonly string[];
}

/** One window's result: its score (after strict mode) and reason, and the artefacts behind it. */
export interface WindowScore<A = unknown> {
  readonly score: number;
  readonly reason: string | null;
  readonly artefacts: A;
}

/** What a subclass computes for one window before strict mode and the reason. */
export interface WindowVerdicts<A> {
  /** The raw score of the window; a window with nothing to judge has a fixed score and reason. */
  readonly score: number;
  readonly fixedReason?: string;
  readonly artefacts: A;
  /** The reason call's sections, asked only when `includeReason` is on. */
  readonly reasonSections?: readonly ReasonSection[];
  readonly reasonContext?: string;
}

/** The mean of the window scores; 1 with no window (DeepEval's `_calculate_score`). */
export function turnRagScore(windows: readonly { score: number }[]): number {
  if (windows.length === 0) return 1;
  return windows.reduce((sum, w) => sum + w.score, 0) / windows.length;
}

/**
 * The windows of a conversation (DeepEval's rule): unit interactions, then for each interaction the
 * window of up to `windowSize` interactions ending with it, flattened into turns; user turns give the
 * window's input, assistant turns its output and retrieval context.
 */
export function turnWindows(testCase: ConversationalTestCase, windowSize: number): TurnWindow[] {
  return slidingWindows(unitInteractions(testCase.turns), windowSize).map((window) => {
    const turns = window.flat();
    const user = turns.filter((t) => t.role === "user").map((t) => t.content);
    const assistant = turns.filter((t) => t.role === "assistant");
    return {
      userContent: user.join("\n"),
      assistantContent: assistant.map((t) => t.content).join("\n"),
      retrievalContext: assistant.flatMap((t) => (t.retrievalContext ?? []).map(retrievalContextText)),
    };
  });
}

/** The reason when the conversation has no complete interaction to judge. */
export const NO_WINDOWS_REASON = "There were no complete user and assistant interactions to evaluate, so the score is 1.";

/**
 * The base of the Turn* RAG metrics: windows, per-window strict mode, the mean, and the final reason.
 *
 * Details: each window is scored by `scoreWindow`; with `strictMode` a window scoring below the
 * threshold (1) counts 0, and the mean is not binarised again (DeepEval's rule: `strict_mode` acts per
 * window). With `includeReason`, each judged window gets a reason call and the final reason call
 * summarises the window reasons. Threshold 0.5.
 */
export abstract class TurnRagMetric<A> extends ConversationalJudgeMetric {
  readonly windowSize: number;
  /** The windows of the last measurement, in conversation order. */
  windows: readonly WindowScore<A>[] = [];

  protected constructor(options: TurnRagOptions = {}) {
    super(options, { defaultThreshold: 0.5, strictBinarizes: false });
    const size = options.windowSize ?? 10;
    if (!Number.isInteger(size) || size < 1) {
      throw new JudgeMetricConfigError("windowSize", `${new.target.name}: 'windowSize' must be a positive integer`);
    }
    this.windowSize = size;
  }

  protected override resetState(): void {
    super.resetState();
    this.windows = [];
  }

  /** The judge calls of one window (everything but its reason). */
  protected abstract scoreWindow(
    window: TurnWindow,
    testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<A>>;

  /** Verbose lines of one window's artefacts. */
  protected abstract describeWindow(artefacts: A): string[];

  private async judgeWindow(
    window: TurnWindow,
    testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowScore<A>> {
    const verdicts = await this.scoreWindow(window, testCase, signal);
    if (verdicts.fixedReason !== undefined) return { score: verdicts.score, reason: verdicts.fixedReason, artefacts: verdicts.artefacts };
    const score = this.strictMode && this.threshold !== null && verdicts.score < this.threshold ? 0 : verdicts.score;
    const reason = this.includeReason
      ? await this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: verdicts.score,
            sections: verdicts.reasonSections ?? [],
            ...(verdicts.reasonContext ? { context: verdicts.reasonContext } : {}),
          }),
          signal,
        )
      : null;
    return { score, reason, artefacts: verdicts.artefacts };
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const tasks = turnWindows(testCase, this.windowSize).map((window) => () => this.judgeWindow(window, testCase, signal));
    const windows = await this.gather(tasks);
    this.windows = windows;
    return {
      score: turnRagScore(windows),
      reason: () => {
        if (windows.length === 0) return NO_WINDOWS_REASON;
        const score = this.score ?? 0;
        const passed = this.threshold === null ? null : passes(score, this.threshold, true);
        return this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score,
            context:
              `The conversation was judged window by window (${windows.length} windows); ` +
              `the score is the mean of the window scores.` +
              (passed === null ? "" : ` The metric ${passed ? "passed" : "did not pass"} its threshold of ${this.threshold}.`),
            sections: [
              {
                title: "Reasons of the windows, in order",
                items: windows.map((w, i) => `Window ${i + 1} (score ${w.score}): ${w.reason ?? "(none)"}`),
              },
            ],
          }),
          signal,
        );
      },
      verboseSteps: windows.flatMap((w, i) => [
        `Window ${i + 1}`,
        ...this.describeWindow(w.artefacts),
        `Score: ${w.score}\nReason: ${w.reason ?? "None"}`,
      ]),
    };
  }
}

/** A window whose assistant turns retrieved nothing scores 1 without a judge call (DeepEval's rule). */
export const NO_RETRIEVAL_CONTEXT_REASON = "The assistant turns of this window have no retrieval context to judge, so the window scores 1.";

/** The artefacts of a window judged node by node: its verdicts. */
export interface NodeVerdicts<V> {
  readonly verdicts: readonly V[];
}

/**
 * The base of the Turn* metrics that judge a window's retrieved nodes (TurnContextualPrecision,
 * TurnContextualRecall, TurnContextualRelevancy): a window with no retrieval context scores 1 with
 * {@link NO_RETRIEVAL_CONTEXT_REASON} and no call; otherwise `scoreNodes` judges the nodes.
 */
export abstract class TurnRetrievalMetric<V> extends TurnRagMetric<NodeVerdicts<V>> {
  /** The judge calls of a window that retrieved `nodes` (never empty), in rank order. */
  protected abstract scoreNodes(
    nodes: readonly string[],
    window: TurnWindow,
    testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<NodeVerdicts<V>>>;

  protected override scoreWindow(
    window: TurnWindow,
    testCase: ConversationalTestCase,
    signal: AbortSignal | undefined,
  ): Promise<WindowVerdicts<NodeVerdicts<V>>> {
    const nodes = window.retrievalContext;
    if (nodes.length === 0) return Promise.resolve({ score: 1, fixedReason: NO_RETRIEVAL_CONTEXT_REASON, artefacts: { verdicts: [] } });
    return this.scoreNodes(nodes, window, testCase, signal);
  }

  protected override describeWindow(a: NodeVerdicts<V>): string[] {
    return [verboseList("Verdicts", a.verdicts)];
  }
}

/** `prettifyList` for a verbose line with a title. */
export function verboseList(title: string, items: readonly unknown[]): string {
  return `${title}:\n${prettifyList(items)}`;
}
