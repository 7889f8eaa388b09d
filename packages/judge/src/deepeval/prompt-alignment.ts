// DeepEval PromptAlignmentMetric: does the answer follow each instruction of the application's prompt?
// Calls: one verdict per instruction (one call, a list) → reason. Score: count(verdict != "no") / n.
import { LLMTestCaseParams, prettifyList, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { JudgeMetricConfigError } from "./errors.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, numbered } from "./render.js";
import { reasonPrompt, reasonsOf, verdictListSchema, type Verdict } from "./shared-prompts.js";

export interface PromptAlignmentOptions extends JudgeMetricOptions {
  /** The instructions of the application's prompt that the answer must follow. Non-empty. */
  readonly promptInstructions: readonly string[];
}

/** `count(verdict != "no") / n`; 1 with no verdicts (DeepEval). */
export function promptAlignmentScore(verdicts: readonly { verdict: string }[]): number {
  if (verdicts.length === 0) return 1;
  return verdicts.filter((v) => v.verdict !== "no").length / verdicts.length;
}

/**
 * Whether the actual output follows the instructions of the prompt that produced it (DeepEval
 * `PromptAlignmentMetric`).
 *
 * Details: one call gives one `yes`/`no` verdict per instruction (exactly as many as instructions;
 * a reason for every `no`), then the reason call. Score `count(yes) / n`. Requires `input` and
 * `actualOutput`. Default threshold 0.5; strict mode: threshold 1, anything below scores 0.
 *
 * @example
 * const metric = new PromptAlignmentMetric({ model: judge, promptInstructions: ["Reply in French.", "Use at most two sentences."] });
 */
export class PromptAlignmentMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "promptInstructions"];

  readonly promptInstructions: readonly string[];
  /** The verdicts of the last measurement, one per instruction. */
  verdicts: readonly Verdict<"yes" | "no">[] = [];

  constructor(options: PromptAlignmentOptions) {
    super(options, { defaultThreshold: 0.5 });
    // Left out entirely (plain JavaScript): the checks below name the missing option.
    const o: Partial<PromptAlignmentOptions> = options ?? {};
    const instructions = o.promptInstructions;
    if (!Array.isArray(instructions) || instructions.length === 0 || instructions.some((i) => typeof i !== "string" || i.trim() === "")) {
      throw new JudgeMetricConfigError(
        "promptInstructions",
        "PromptAlignmentMetric: 'promptInstructions' must be a non-empty list of non-blank strings",
      );
    }
    this.promptInstructions = Object.freeze([...instructions]);
  }

  override get name(): string {
    return "Prompt Alignment";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override resetState(): void {
    super.resetState();
    this.verdicts = [];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const n = this.promptInstructions.length;
    const { verdicts } = await this.judge(
      verdictListSchema(["yes", "no"] as const, "optional", { count: n, per: "instruction" }),
      `An application was given the instructions below in its prompt, then the input, and it produced ` +
        `the output. For each instruction, in order, decide whether the output follows it: "yes" or ` +
        `"no". Judge only what the instruction asks; an instruction that does not apply to this input ` +
        `counts as followed. For "no", give a reason that quotes the output; for "yes" the reason may ` +
        `be null. Return exactly ${n} verdict(s), one per instruction.

Instructions:
${numbered(this.promptInstructions)}

Input:
${testCase.input}

Output:
${testCase.actualOutput ?? ""}

${jsonOnly('{"verdicts": [{"verdict": "yes" | "no", "reason": "<string or null>"}, ...]}')}`,
      { signal },
    );
    this.verdicts = verdicts;
    return {
      score: promptAlignmentScore(verdicts),
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context: `Input:\n${testCase.input}\n\nOutput:\n${testCase.actualOutput ?? ""}`,
            sections: [{ title: "Instructions the output did not follow, and why", items: reasonsOf(verdicts, ["no"]) }],
          }),
          signal,
        ),
      verboseSteps: [`Prompt Instructions:\n${prettifyList(this.promptInstructions)}`, `Verdicts:\n${prettifyList(verdicts)}`],
    };
  }
}
