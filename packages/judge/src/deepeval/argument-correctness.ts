// DeepEval ArgumentCorrectnessMetric (docs/spec/judges.md §4.6). Calls: one verdict per tool call (one call) →
// reason; none with no tool calls.
import {
  formatToolCallsForPrompt,
  LLMTestCaseParams,
  prettifyList,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { reasonPrompt, reasonsOf, verdictListSchema, type Verdict } from "./shared-prompts.js";

export type ArgumentVerdict = Verdict<"yes" | "no" | "idk">;

/** The reason when the test case called no tools (score 1, no judge call). */
export const NO_TOOL_CALLS_REASON = "No tool calls were made, so there were no arguments to judge.";

/** `count(verdict != "no") / n` (tool calls whose arguments fit the input); 1 with no verdicts. */
export function argumentCorrectnessScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict !== "no").length / verdicts.length;
}

/**
 * Were the tools called with the right arguments for the input? (DeepEval `ArgumentCorrectnessMetric`.)
 * Requires `input` and `toolsCalled`.
 *
 * Details: one call gives a `yes`/`no`/`idk` verdict per tool call (exactly one each, in order; a reason
 * for `no`; a call without input parameters is `no`), then the reason call over the `no` reasons.
 * Score `count(verdict != "no") / n`. An empty `toolsCalled` scores 1 with {@link NO_TOOL_CALLS_REASON}
 * and makes no call. Threshold 0.5; strict: 1.
 *
 * @example
 * const metric = new ArgumentCorrectnessMetric({ model: judge });
 */
export class ArgumentCorrectnessMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  /** The verdicts of the last measurement, one per tool call. */
  verdicts: readonly ArgumentVerdict[] = [];

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Argument Correctness";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.TOOLS_CALLED];
  }

  protected override resetState(): void {
    super.resetState();
    this.verdicts = [];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const calls = testCase.toolsCalled ?? [];
    if (calls.length === 0) return { score: 1, reason: NO_TOOL_CALLS_REASON, verboseSteps: ["Verdicts:\n[]"] };
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no", "idk"] as const, "optional", { count: calls.length, per: "tool call" }),
      `Below are a user's input and the ${calls.length} tool calls an AI agent made for it. For each tool ` +
        `call, in order, judge its input parameters: ` +
        `"yes" if they are relevant to the input and correct for it, "no" if they are not (a call ` +
        `without input parameters is "no", with the reason "No input parameters were given."), "idk" ` +
        `only if you cannot tell. Give a reason for every "no"; otherwise the reason may be null. ` +
        `Return exactly ${calls.length} verdicts.

Input:
${testCase.input}

Tool calls:
${formatToolCallsForPrompt(calls)}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no" | "idk", "reason": "<string or null>"}, ...]}')}`,
      { signal },
    );
    this.verdicts = verdicts;
    return {
      score: argumentCorrectnessScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `User input:\n${testCase.input}`,
            sections: [{ title: "Tool calls with wrong or irrelevant arguments", items: reasonsOf(verdicts, ["no"]) }],
          }),
          signal,
        ),
      verboseSteps: [`Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
