// DeepEval SummarizationMetric (docs/spec/judges.md §2.10): min(alignment, coverage). Calls: truths ∥ claims →
// [questions (unless given) → answers for the original ∥ the summary] ∥ alignment verdicts → reason.
import { LLMTestCaseParams, prettifyList, type Evaluation, type LLMTestCase, type MeasureContext } from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { JudgeMetricConfigError } from "./errors.js";
import { checkExtractionLimit } from "./faithfulness.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly } from "./render.js";
import { judgeSchema, stringList, verdictWord, withCount } from "./schema.js";
import {
  claimsPrompt,
  claimsSchema,
  contradictionVerdictsPrompt,
  reasonPrompt,
  reasonsOf,
  truthsPrompt,
  truthsSchema,
  verdictListSchema,
  type Verdict,
} from "./shared-prompts.js";

export type AlignmentVerdict = Verdict<"yes" | "no" | "idk">;

/** One assessment question and whether the original and the summary can answer it. */
export interface CoverageVerdict {
  readonly question: string;
  readonly originalVerdict: "yes" | "no";
  readonly summaryVerdict: "yes" | "no";
}

export interface SummarizationOptions extends JudgeMetricOptions {
  /** How many assessment questions to generate when none are given. Default 5. */
  readonly n?: number;
  /** Closed yes/no questions the original answers "yes"; an empty list counts as not given. */
  readonly assessmentQuestions?: readonly string[] | null;
  /** As Faithfulness: at most this many truths (the most important) from the original. */
  readonly truthsExtractionLimit?: number | null;
}

const questionsSchema = judgeSchema("questions", z.object({ questions: stringList }));
const answersZod = z.object({ answers: z.array(verdictWord(["yes", "no"] as const)) });
const answersSchema = judgeSchema("answers", answersZod);

/** `count(yes) / n` over alignment verdicts (`idk` = extra information counts 0); 0 with none. */
export function alignmentScore(verdicts: readonly AlignmentVerdict[]): number {
  if (verdicts.length === 0) return 0;
  return verdicts.filter((v) => v.verdict === "yes").length / verdicts.length;
}

/** Of the questions the original answers "yes", the share the summary also answers "yes"; 0 if none. */
export function coverageScore(verdicts: readonly CoverageVerdict[]): number {
  const answerable = verdicts.filter((v) => v.originalVerdict === "yes");
  if (answerable.length === 0) return 0;
  return answerable.filter((v) => v.summaryVerdict === "yes").length / answerable.length;
}

/**
 * Is the summary faithful to the original and does it keep its key information? (DeepEval
 * `SummarizationMetric`.) `input` is the original text, `actualOutput` the summary.
 *
 * Details: alignment = `count(yes) / n` over per-claim verdicts of the summary against the
 * original's truths (`no` contradiction, `idk` extra information; no claims → 0); coverage = share of
 * the assessment questions answerable from the original that the summary also answers (none → 0).
 * Score `min(alignment, coverage)`, with both in `scoreBreakdown` (`Alignment`, `Coverage`); strict
 * mode binarises each before the minimum. Generated questions are kept per measurement, never reused
 * for the next test case. Threshold 0.5.
 *
 * @example
 * const metric = new SummarizationMetric({ model: judge, assessmentQuestions: ["Is the fee waived?"] });
 */
export class SummarizationMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "n", "assessmentQuestions", "truthsExtractionLimit"];

  readonly n: number;
  readonly assessmentQuestions: readonly string[] | null;
  readonly truthsExtractionLimit: number | null;

  constructor(options: SummarizationOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
    const n = options.n ?? 5;
    if (!Number.isInteger(n) || n < 1) throw new JudgeMetricConfigError("n", "SummarizationMetric: 'n' must be an integer >= 1");
    this.n = n;
    const questions = options.assessmentQuestions ?? null;
    if (questions !== null && (!Array.isArray(questions) || questions.some((q) => typeof q !== "string"))) {
      throw new JudgeMetricConfigError("assessmentQuestions", "SummarizationMetric: 'assessmentQuestions' must be a list of strings");
    }
    this.assessmentQuestions = questions !== null && questions.length > 0 ? Object.freeze([...questions]) : null;
    this.truthsExtractionLimit = checkExtractionLimit(options.truthsExtractionLimit, "SummarizationMetric");
  }

  override get name(): string {
    return "Summarization";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  private answersPrompt(text: string, questions: readonly string[]): string {
    return (
      `For each of the ${questions.length} closed questions below, in order, decide whether the text contains enough information to ` +
      `answer it: "yes" or "no". Return exactly ${questions.length} answers.

Text:
${text}

Questions:
${JSON.stringify(questions, null, 2)}

${jsonOnly('{"answers": ["yes" | "no", ...]}')}`
    );
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const original = testCase.input;
    const summary = testCase.actualOutput ?? "";
    const [{ truths }, { claims }] = await this.gatherPair(
      () => this.judge(truthsSchema, truthsPrompt(original, this.truthsExtractionLimit), { signal }),
      () => this.judge(claimsSchema, claimsPrompt(summary), { signal }),
    );

    const coverage = async (): Promise<CoverageVerdict[]> => {
      const questions =
        this.assessmentQuestions ??
        (
          await this.judge(
            questionsSchema,
            `Write ${this.n} closed questions (answerable with "yes" or "no") about the key information in the text below, ` +
              `chosen so that the text itself answers every one of them with "yes".

Text:
${original}

${jsonOnly('{"questions": ["<question>", ...]}')}`,
            { signal },
          )
        ).questions;
      const counted = {
        ...answersSchema,
        validator: withCount(answersZod, "answers", questions.length, "question"),
      } as typeof answersSchema;
      const [originalAnswers, summaryAnswers] = await this.gatherPair(
        () => this.judge(counted, this.answersPrompt(original, questions), { signal }),
        () => this.judge(counted, this.answersPrompt(summary, questions), { signal }),
      );
      return questions.map((question, i) => ({
        question,
        originalVerdict: originalAnswers.answers[i] as "yes" | "no",
        summaryVerdict: summaryAnswers.answers[i] as "yes" | "no",
      }));
    };
    const alignment = async (): Promise<AlignmentVerdict[]> => {
      if (claims.length === 0) return [];
      const { verdicts } = await this.judge(
        verdictListSchema(["yes", "no", "idk"] as const, "optional", { count: claims.length, per: "claim" }),
        contradictionVerdictsPrompt(claims, truths, "original text"),
        { signal },
      );
      return verdicts;
    };
    const [coverageVerdicts, alignmentVerdicts] = await this.gatherPair(coverage, alignment);

    let alignmentValue = alignmentScore(alignmentVerdicts);
    let coverageValue = coverageScore(coverageVerdicts);
    if (this.strictMode) {
      alignmentValue = alignmentValue < 1 ? 0 : alignmentValue;
      coverageValue = coverageValue < 1 ? 0 : coverageValue;
    }
    return {
      score: Math.min(alignmentValue, coverageValue),
      scoreBreakdown: { Alignment: alignmentValue, Coverage: coverageValue },
      reason: () =>
        this.judgeReason(
          reasonPrompt({
            metric: this.name,
            score: this.score,
            context:
              `The score is the lower of alignment (${alignmentValue.toFixed(2)}: the summary neither ` +
              `contradicts nor adds to the original) and coverage (${coverageValue.toFixed(2)}: the summary keeps ` +
              `the original's key information).`,
            sections: [
              { title: "Contradictions (summary vs original)", items: reasonsOf(alignmentVerdicts, ["no"]) },
              { title: "Extra information not in the original", items: reasonsOf(alignmentVerdicts, ["idk"]) },
              {
                title: "Questions the original answers but the summary does not",
                items: coverageVerdicts.filter((v) => v.originalVerdict === "yes" && v.summaryVerdict === "no").map((v) => v.question),
              },
            ],
          }),
          signal,
        ),
      verboseSteps: [
        `Truths (original):\n${prettifyList(truths)}`,
        `Claims (summary):\n${prettifyList(claims)}`,
        `Assessment questions and answers:\n${prettifyList(coverageVerdicts)}`,
        `Alignment verdicts:\n${prettifyList(alignmentVerdicts)}`,
        `Alignment: ${alignmentValue}\nCoverage: ${coverageValue}`,
      ],
    };
  }
}
