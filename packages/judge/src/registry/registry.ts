// The one list of judge metrics that can be named by a string (`evalkern judge --metric faithfulness`,
// and whatever else names judge metrics: `evalkern test`, the vitest matchers, the web app), shaped
// like the rule-metric registry of @evalkern/metrics: names and aliases, a description, an option
// schema checked with the same `checkOptions` (unknown keys → `UnknownOptionError`, wrong values →
// `MetricOptionError`), and did-you-mean for unknown names. Cheap to import: the metric classes and the
// OpenAI client load only when a metric is created.
// Not listed, because a row (`JudgeCase`) is one single-turn case: the conversational metrics (KnowledgeRetention,
// TurnRelevancy, the Turn* RAG metrics, ConversationalGEval, ConversationalDAGMetric), which score a whole
// conversation, and the DAG metrics, whose graph is code rather than an option value.
import { checkOptions, didYouMean, UnknownMetricError, type OptionSchema, type OptionSchemas } from "@evalkern/metrics/registry";
import type { JudgeModel } from "../model.js";

/** One test case, as read from a row (DeepEval's field names in camelCase). */
export interface JudgeCase {
  readonly input: string;
  readonly actualOutput: string | null;
  readonly expectedOutput: string | null;
  readonly context: readonly string[] | null;
  readonly retrievalContext: readonly string[] | null;
}

/** What one measurement gave. */
export interface JudgeMeasurement {
  readonly score: number | null;
  readonly success: boolean | null;
  readonly reason: string | null;
  /** How the judge reached the score (`structured`, `repaired-and-re-asked`, `logprob-weighted`, `raw-score`). */
  readonly scoringPath: string | null;
}

/** A metric ready to measure cases (a fresh metric object per case, so cases may run concurrently). */
export interface JudgeMeasurer {
  /** The pass mark in effect (options, else the metric's default). */
  readonly threshold: number | null;
  /** Measure one case; a failed judge call rejects (never a made-up score). */
  measure(testCase: JudgeCase, options?: { readonly signal?: AbortSignal }): Promise<JudgeMeasurement>;
}

export type JudgeMetricFamily = "deepeval" | "dspy";

/** A judge metric of the registry. */
export interface JudgeMetricDefinition {
  /** Canonical name (`answer-relevancy`). */
  readonly name: string;
  /** Other names that resolve to it (the class name: `AnswerRelevancyMetric`). */
  readonly aliases: readonly string[];
  /** Whose metric it is, and whose prompts it follows. */
  readonly family: JudgeMetricFamily;
  readonly description: string;
  /** The options a string spec may set (types, allowed values, help). */
  readonly options: OptionSchemas;
  readonly higherIsBetter: boolean;
  /** The test-case fields it reads. */
  readonly fields: readonly (keyof JudgeCase)[];
}

type MeasurableMetric = {
  aMeasure(testCase: unknown, options?: { signal?: AbortSignal }): Promise<number | null>;
  readonly success: boolean | null;
  readonly reason: string | null;
  readonly threshold?: number | null;
  readonly scoringPath?: string | null;
};

interface Entry extends JudgeMetricDefinition {
  /** Builds one metric object for `model` and the checked options (loads the class on first use). */
  readonly load: () => Promise<(model: JudgeModel, options: Record<string, unknown>) => MeasurableMetric>;
}

const COMMON: OptionSchemas = {
  threshold: { type: "number", help: "pass mark in [0, 1] (default: the metric's, usually 0.5)" },
  strictMode: { type: "boolean", default: false, help: "true | false (threshold 1 and binary scores)" },
  includeReason: { type: "boolean", default: true, help: "true | false (default true: one more call for the reason)" },
};

const EXTRACTION_LIMIT: OptionSchema = { type: "integer", help: "integer (truths per document)" };

type DeepEvalClass = new (options: Record<string, unknown>) => MeasurableMetric;

function deepeval(
  name: string,
  className: string,
  description: string,
  fields: readonly (keyof JudgeCase)[],
  extra: OptionSchemas = {},
  higherIsBetter = true,
): Entry {
  return {
    name,
    aliases: [className],
    family: "deepeval",
    description,
    options: { ...COMMON, ...extra },
    higherIsBetter,
    fields,
    load: async () => {
      const Metric = (await import("../deepeval/index.js"))[className as "FaithfulnessMetric"] as unknown as DeepEvalClass;
      return (model, options) => new Metric({ ...options, model });
    },
  };
}

const G_EVAL_PARAMS = ["input", "actual_output", "expected_output", "context", "retrieval_context"];

const gEval: Entry = {
  name: "g-eval",
  aliases: ["GEval"],
  family: "deepeval",
  description: "G-Eval with your criteria (needs criteria=... or evaluationSteps=...)",
  options: {
    ...COMMON,
    name: { type: "string", default: "G-Eval", help: "metric name (default G-Eval)" },
    criteria: { type: "string", help: "what to judge, in words" },
    evaluationSteps: { type: "string[]", help: "list of steps (instead of criteria)" },
    evaluationParams: {
      type: "string[]",
      values: G_EVAL_PARAMS,
      default: ["input", "actual_output"],
      help: `list of ${G_EVAL_PARAMS.join(", ")} (default input, actual_output)`,
    },
  },
  higherIsBetter: true,
  fields: ["input", "actualOutput", "expectedOutput", "context", "retrievalContext"],
  load: async () => {
    const { GEval } = await import("../deepeval/g-eval.js");
    return (model, options) => new GEval({ name: "G-Eval", evaluationParams: ["input", "actual_output"], ...options, model } as never);
  },
};

/** DSPy's `SemanticF1` through the measure shape: `forward()` of (question, expected response) vs the answer. */
const semanticF1: Entry = {
  name: "semantic-f1",
  aliases: ["SemanticF1"],
  family: "dspy",
  description: "DSPy SemanticF1: judged recall/precision of actual_output against expected_output",
  options: {
    threshold: { type: "number", default: 0.66, help: "pass mark (default 0.66)" },
    decompositional: { type: "boolean", default: false, help: "true | false" },
  },
  higherIsBetter: true,
  fields: ["input", "actualOutput", "expectedOutput"],
  load: async () => {
    const { SemanticF1 } = await import("../dspy/semantic-f1.js");
    return (model, options) => {
      const metric = new SemanticF1({ ...options, model });
      const state = { success: null as boolean | null, reason: null as string | null };
      return {
        threshold: metric.threshold,
        get success() {
          return state.success;
        },
        get reason() {
          return state.reason;
        },
        async aMeasure(testCase: unknown) {
          const c = testCase as JudgeCase;
          const result = await metric.forward({ question: c.input, response: c.expectedOutput ?? "" }, { response: c.actualOutput ?? "" });
          state.success = result.passed;
          state.reason = result.feedback;
          return result.f1;
        },
      };
    };
  },
};

const RAG: readonly (keyof JudgeCase)[] = ["input", "actualOutput", "retrievalContext"];
const IO: readonly (keyof JudgeCase)[] = ["input", "actualOutput"];

// Only metrics of one row-shaped case (input, actual_output, expected_output, context, retrieval_context) are
// listed. The conversational metrics (KnowledgeRetention, TopicAdherence, ToolUse, GoalAccuracy, ...) take
// turns, and the agentic ones a trace (PlanAdherence, PlanQuality, StepEfficiency) or tool calls
// (ArgumentCorrectness, ToolCorrectness): none fits a row, so they are used from code, not named here.
// The image metrics (TextToImage, ImageEditing, ImageCoherence, ImageHelpfulness, ImageReference) judge
// MLLMImage objects, which a row of strings (JudgeCase) cannot hold either; build them from @evalkern/judge
// with LLMTestCase objects.
// The MCP metrics need `mcpServers` and the MCP calls (MultiTurnMCPUse and MCPTaskCompletion a conversation).
const ENTRIES: readonly Entry[] = [
  deepeval(
    "faithfulness",
    "FaithfulnessMetric",
    "DeepEval Faithfulness: claims of actual_output not contradicted by retrieval_context",
    RAG,
    { truthsExtractionLimit: EXTRACTION_LIMIT, penalizeAmbiguousClaims: { type: "boolean", default: false, help: "true | false" } },
  ),
  deepeval("answer-relevancy", "AnswerRelevancyMetric", "DeepEval Answer Relevancy: statements of actual_output relevant to input", IO),
  deepeval(
    "contextual-precision",
    "ContextualPrecisionMetric",
    "DeepEval Contextual Precision: relevant retrieval_context nodes ranked first (needs expected_output)",
    ["input", "expectedOutput", "retrievalContext"],
  ),
  deepeval(
    "contextual-recall",
    "ContextualRecallMetric",
    "DeepEval Contextual Recall: expected_output sentences attributable to retrieval_context",
    ["input", "expectedOutput", "retrievalContext"],
  ),
  deepeval(
    "contextual-relevancy",
    "ContextualRelevancyMetric",
    "DeepEval Contextual Relevancy: retrieval_context statements relevant to input",
    ["input", "retrievalContext"],
  ),
  deepeval(
    "hallucination",
    "HallucinationMetric",
    "DeepEval Hallucination: context documents contradicted by actual_output (lower is better)",
    ["input", "actualOutput", "context"],
    {},
    false,
  ),
  deepeval("bias", "BiasMetric", "DeepEval Bias: biased opinions in actual_output (lower is better)", IO, {}, false),
  deepeval("toxicity", "ToxicityMetric", "DeepEval Toxicity: toxic opinions in actual_output (lower is better)", IO, {}, false),
  deepeval("pii-leakage", "PIILeakageMetric", "DeepEval PII Leakage: privacy violations in actual_output", IO),
  deepeval(
    "non-advice",
    "NonAdviceMetric",
    "DeepEval Non-Advice: actual_output free of the given kinds of professional advice (needs adviceTypes=...)",
    IO,
    { adviceTypes: { type: "string[]", help: "list of advice kinds to refuse (financial, medical, legal...); required" } },
  ),
  deepeval(
    "misuse",
    "MisuseMetric",
    "DeepEval Misuse: requests outside a domain chatbot's domain (needs domain=...; lower is better)",
    IO,
    { domain: { type: "string", help: "the chatbot's domain (banking, medical...); required" } },
    false,
  ),
  deepeval(
    "role-violation",
    "RoleViolationMetric",
    "DeepEval Role Violation: 1 unless actual_output breaks the given role (needs role=...)",
    IO,
    { role: { type: "string", help: "the role the assistant must keep; required" } },
  ),
  deepeval(
    "summarization",
    "SummarizationMetric",
    "DeepEval Summarization: alignment and coverage of actual_output as a summary of input",
    IO,
    {
      assessmentQuestions: { type: "string[]", help: "list of yes/no questions" },
      n: { type: "integer", default: 5, help: "integer (generated questions, default 5)" },
      truthsExtractionLimit: { type: "integer", help: "integer" },
    },
  ),
  gEval,
  semanticF1,
];

const BY_NAME = new Map<string, Entry>();
for (const entry of ENTRIES) for (const name of [entry.name, ...entry.aliases]) BY_NAME.set(name, entry);

function definition(entry: Entry): JudgeMetricDefinition {
  const { load: _load, ...rest } = entry;
  return rest;
}

/** Every judge metric, in help order. */
export function listJudgeMetrics(): readonly JudgeMetricDefinition[] {
  return ENTRIES.map(definition);
}

/** The judge metric of a name or alias, or undefined. */
export function findJudgeMetric(name: string): JudgeMetricDefinition | undefined {
  const entry = typeof name === "string" ? BY_NAME.get(name) : undefined;
  return entry && definition(entry);
}

function entryOf(name: string, argument: string): Entry {
  const entry = typeof name === "string" ? BY_NAME.get(name) : undefined;
  if (entry) return entry;
  const known = ENTRIES.map((e) => e.name);
  const hint = typeof name === "string" ? didYouMean(name, [...known, ...ENTRIES.flatMap((e) => e.aliases)]) : undefined;
  const suggestion = hint === undefined ? undefined : BY_NAME.get(hint)!.name;
  throw new UnknownMetricError(
    `unknown judge metric ${JSON.stringify(name)}${suggestion ? ` (did you mean ${JSON.stringify(suggestion)}?)` : ""}; ` +
      `known judge metrics: ${known.join(", ")}`,
    String(name),
    suggestion,
    argument,
  );
}

/** The judge metric of a name or alias; an unknown name is an `UnknownMetricError` with a did-you-mean. */
export function getJudgeMetric(name: string, argument = "metric"): JudgeMetricDefinition {
  return definition(entryOf(name, argument));
}

/**
 * Check options against a judge metric's schema: an unknown key is an `UnknownOptionError` (with the
 * closest key), a wrong type or value a `MetricOptionError`. Returns them with a lone string given for a
 * list option made a one-item list (`evaluationSteps=...` on a command line).
 */
export function checkJudgeMetricOptions(
  name: string,
  options: Readonly<Record<string, unknown>> = {},
  where = "options",
): Record<string, unknown> {
  const entry = entryOf(name, "metric");
  checkOptions(entry.name, entry.options, options, where);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    out[key] = entry.options[key]!.type === "string[]" && typeof value === "string" ? [value] : value;
  }
  return out;
}

/**
 * A judge metric by name (or alias) and options, ready to measure cases with `model`. The options are
 * checked against the schema, then by building the metric once, so a bad value (`g-eval` without
 * criteria) fails here, before any call.
 *
 * @example
 * const faithfulness = await createJudgeMetric("faithfulness", judge, { threshold: 0.7 });
 * const { score, reason } = await faithfulness.measure({ input, actualOutput, expectedOutput: null, context: null, retrievalContext });
 */
export async function createJudgeMetric(
  name: string,
  model: JudgeModel,
  options: Readonly<Record<string, unknown>> = {},
): Promise<JudgeMeasurer> {
  const entry = entryOf(name, "metric");
  const checked = checkJudgeMetricOptions(entry.name, options);
  const [build, { LLMTestCase }] = await Promise.all([entry.load(), import("@evalkern/metrics/deepeval")]);
  const probe = build(model, checked);
  return {
    threshold: probe.threshold ?? null,
    async measure(testCase, measureOptions = {}) {
      const metric = build(model, checked);
      const measured =
        entry.family === "dspy"
          ? testCase
          : new LLMTestCase({
              input: testCase.input,
              actualOutput: testCase.actualOutput,
              expectedOutput: testCase.expectedOutput,
              context: testCase.context === null ? null : [...testCase.context],
              retrievalContext: testCase.retrievalContext === null ? null : [...testCase.retrievalContext],
            });
      const score = await metric.aMeasure(measured, measureOptions.signal ? { signal: measureOptions.signal } : {});
      return { score, success: metric.success, reason: metric.reason, scoringPath: metric.scoringPath ?? null };
    },
  };
}
