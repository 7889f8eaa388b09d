// The judge metrics `evalkern judge --metric` knows. Dependency-free at import (for --help): the
// metric classes come from @evalkern/judge, passed in when a run builds its metrics.
import type * as Judge from "@evalkern/judge";
import { usageError } from "./errors.js";
import type { MetricArgument } from "./metric-options.js";

type JudgeModule = typeof Judge;

/** One test case, as read from a row. */
export interface JudgeCase {
  readonly input: string;
  readonly actualOutput: string | null;
  readonly expectedOutput: string | null;
  readonly context: readonly string[] | null;
  readonly retrievalContext: readonly string[] | null;
}

export interface JudgeOutcome {
  readonly score: number | null;
  readonly success: boolean | null;
  readonly reason: string | null;
  /** How the judge reached the score: structured, repaired-and-re-asked, logprob-weighted or raw-score. */
  readonly scoringPath: string | null;
}

/** A ready judge metric: measure one case (throws on failure; one call per case, safe to run concurrently). */
export interface JudgeRunner {
  readonly name: string;
  readonly higherIsBetter: boolean;
  readonly threshold: number | null;
  /** Every option, the model and the prompt family. */
  readonly signature: string;
  measure(c: JudgeCase, signal?: AbortSignal): Promise<JudgeOutcome>;
}

interface JudgeDefinition {
  readonly name: string;
  readonly description: string;
  readonly options: Readonly<Record<string, string>>;
  readonly higherIsBetter: boolean;
  create(judge: JudgeModule, model: Judge.JudgeModel, options: Readonly<Record<string, unknown>>): () => { aMeasure(testCase: never, o?: { signal?: AbortSignal }): Promise<number | null>; readonly success: boolean | null; readonly reason: string | null; readonly threshold?: number | null };
}

const COMMON = {
  threshold: "pass mark in [0, 1] (default: the metric's, usually 0.5)",
  strictMode: "true | false (threshold 1 and binary scores)",
  includeReason: "true | false (default true: one more call for the reason)",
};

const deepeval = (
  name: string,
  description: string,
  cls: keyof JudgeModule,
  extra: Readonly<Record<string, string>> = {},
  higherIsBetter = true,
): JudgeDefinition => ({
  name,
  description,
  options: { ...COMMON, ...extra },
  higherIsBetter,
  create: (judge, model, options) => {
    const Cls = judge[cls] as unknown as new (o: Record<string, unknown>) => ReturnType<ReturnType<JudgeDefinition["create"]>>;
    // constructed once up front so that bad options fail before any call
    new Cls({ ...options, model });
    return () => new Cls({ ...options, model });
  },
});

const DEFINITIONS: readonly JudgeDefinition[] = [
  deepeval("faithfulness", "DeepEval Faithfulness: claims of actual_output not contradicted by retrieval_context", "FaithfulnessMetric", {
    truthsExtractionLimit: "integer (truths per document)",
    penalizeAmbiguousClaims: "true | false",
  }),
  deepeval("answer-relevancy", "DeepEval Answer Relevancy: statements of actual_output relevant to input", "AnswerRelevancyMetric"),
  deepeval("contextual-precision", "DeepEval Contextual Precision: relevant retrieval_context nodes ranked first (needs expected_output)", "ContextualPrecisionMetric"),
  deepeval("contextual-recall", "DeepEval Contextual Recall: expected_output sentences attributable to retrieval_context", "ContextualRecallMetric"),
  deepeval("contextual-relevancy", "DeepEval Contextual Relevancy: retrieval_context statements relevant to input", "ContextualRelevancyMetric"),
  deepeval("hallucination", "DeepEval Hallucination: context documents contradicted by actual_output (lower is better)", "HallucinationMetric", {}, false),
  deepeval("bias", "DeepEval Bias: biased opinions in actual_output (lower is better)", "BiasMetric", {}, false),
  deepeval("toxicity", "DeepEval Toxicity: toxic opinions in actual_output (lower is better)", "ToxicityMetric", {}, false),
  deepeval("pii-leakage", "DeepEval PII Leakage: privacy violations in actual_output", "PIILeakageMetric"),
  deepeval("summarization", "DeepEval Summarization: alignment and coverage of actual_output as a summary of input", "SummarizationMetric", {
    assessmentQuestions: "list of yes/no questions",
    n: "integer (generated questions, default 5)",
    truthsExtractionLimit: "integer",
  }),
  {
    name: "g-eval",
    description: "G-Eval with your criteria (needs criteria=... or evaluationSteps=...)",
    options: {
      ...COMMON,
      name: "metric name (default G-Eval)",
      criteria: "what to judge, in words",
      evaluationSteps: "list of steps (instead of criteria)",
      evaluationParams: "list of input, actual_output, expected_output, context, retrieval_context (default input, actual_output)",
    },
    higherIsBetter: true,
    create: (judge, model, options) => {
      const o = { name: "G-Eval", evaluationParams: ["input", "actual_output"], ...options, model };
      new judge.GEval(o as never);
      return () => new judge.GEval(o as never) as never;
    },
  },
  {
    name: "semantic-f1",
    description: "DSPy SemanticF1: judged recall/precision of actual_output against expected_output",
    options: { threshold: "pass mark (default 0.66)", decompositional: "true | false" },
    higherIsBetter: true,
    create: (judge, model, options) => {
      const metric = new judge.SemanticF1({ model, ...(options as object) });
      // adapt DSPy's forward() to the aMeasure shape: one result object per call
      return () => {
        const state = { success: null as boolean | null, reason: null as string | null };
        return {
          get success() {
            return state.success;
          },
          get reason() {
            return state.reason;
          },
          threshold: metric.threshold,
          async aMeasure(testCase: never) {
            const c = testCase as unknown as JudgeCase;
            const r = await metric.forward({ question: c.input, response: c.expectedOutput ?? "" }, { response: c.actualOutput ?? "" });
            state.success = r.passed;
            state.reason = r.feedback;
            return r.f1;
          },
        };
      };
    },
  },
];

const BY_NAME = new Map(DEFINITIONS.map((d) => [d.name, d]));

export function judgeMetricNames(): string[] {
  return DEFINITIONS.map((d) => d.name);
}

export function judgeMetricsHelp(): string {
  const width = Math.max(...DEFINITIONS.map((d) => d.name.length));
  const lines = ["Judge metrics (evalkern judge --metric NAME[:key=value...]):"];
  for (const d of DEFINITIONS) {
    lines.push(`  ${d.name.padEnd(width)}  ${d.description}`);
    for (const [k, v] of Object.entries(d.options)) lines.push(`  ${"".padEnd(width)}    ${k}=${v}`);
  }
  lines.push("Rows: input, actual_output, expected_output, context (list), retrieval_context (list); camelCase names work too.");
  return lines.join("\n");
}

/** Check a `--metric` of `evalkern judge` (names and option keys) before anything is loaded. */
export function checkJudgeMetric(arg: MetricArgument): void {
  const d = BY_NAME.get(arg.name);
  if (!d) throw usageError(`unknown judge metric ${JSON.stringify(arg.name)}; known: ${judgeMetricNames().join(", ")} (rule metrics such as bleu belong to \`evalkern score\`)`);
  if (arg.options.as !== undefined && arg.options.name !== undefined) throw usageError(`--metric ${arg.raw}: give name= only (as= is its deprecated spelling)`);
  for (const key of ["name", "as"]) {
    const v = arg.options[key];
    if (v !== undefined && (typeof v !== "string" || !/^[A-Za-z_][\w+.-]*$/.test(v))) throw usageError(`--metric ${arg.raw}: ${key}= must be a word (letters, digits, _ - + .)`);
  }
  for (const key of Object.keys(arg.options)) {
    if (key === "as" || key === "name") continue;
    if (!Object.prototype.hasOwnProperty.call(d.options, key)) throw usageError(`--metric ${arg.raw}: ${d.name} has no option ${JSON.stringify(key)}; its options are ${Object.keys(d.options).join(", ")}`);
  }
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${k}:${stable((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return String(value);
}

/** Build a runner for one `--metric` with the judge module and model. */
export function createJudgeRunner(
  judge: JudgeModule,
  LLMTestCase: new (init: Record<string, unknown>) => unknown,
  model: Judge.JudgeModel,
  arg: MetricArgument,
  version: string,
): JudgeRunner {
  checkJudgeMetric(arg);
  const d = BY_NAME.get(arg.name)!;
  // name= renames the output key (as in `score`); as= is its deprecated spelling. G-Eval's own `name`
  // option is the same name, so it is passed on to G-Eval too.
  const { as: oldAlias, name: newAlias, ...options } = arg.options as Record<string, unknown>;
  const alias = newAlias ?? oldAlias;
  if (d.name === "g-eval" && typeof newAlias === "string") options.name = newAlias;
  let make: ReturnType<JudgeDefinition["create"]>;
  try {
    make = d.create(judge, judge.withMetricTag(model, typeof alias === "string" ? alias : d.name), options);
  } catch (e) {
    throw usageError(`--metric ${arg.raw}: ${(e as Error).message}`);
  }
  const probe = make();
  const name = typeof alias === "string" ? alias : d.name;
  return {
    name,
    higherIsBetter: d.higherIsBetter,
    threshold: probe.threshold ?? null,
    signature: `${d.name}|options:${stable(options)}|model:${model.name}|prompts:${d.name === "semantic-f1" ? "dspy" : "deepeval"}|judge:@evalkern/judge@${version}`,
    async measure(c, signal) {
      const metric = make();
      const testCase =
        d.name === "semantic-f1"
          ? c
          : new LLMTestCase({
              input: c.input,
              actualOutput: c.actualOutput,
              expectedOutput: c.expectedOutput,
              context: c.context,
              retrievalContext: c.retrievalContext,
            });
      const score = await metric.aMeasure(testCase as never, signal ? { signal } : {});
      return { score, success: metric.success, reason: metric.reason, scoringPath: (metric as { scoringPath?: string | null }).scoringPath ?? null };
    },
  };
}
