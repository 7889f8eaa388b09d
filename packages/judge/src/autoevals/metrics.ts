// The autoevals/RAGAS scorers of this folder as DeepEval-style metrics (`measure`/`aMeasure` over an
// `LLMTestCase`, threshold, success, cost and tokens): the test case's fields become the scorer's
// arguments (`input`, `actualOutput` → output, `expectedOutput` → expected, `retrievalContext` — else
// `context` — → context), the metric's judge is the scorer's client, and every call the scorer makes
// (chat, embeddings, moderation) accrues into the metric's cost and tokens.
import {
  LLMTestCaseParams,
  retrievalContextText,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import type { EmbedRequest, GenerateRequest, JudgeModel, JudgeUsage, ModerationRequest } from "../model.js";
import { JudgeMetric, JUDGE_METRIC_OPTION_KEYS, type JudgeMetricOptions } from "../deepeval/judge-metric.js";
import { AnswerSimilarity, EmbeddingSimilarity } from "./embeddings.js";
import type { Score } from "./judge-args.js";
import { Moderation } from "./moderation.js";
import {
  AnswerCorrectness,
  AnswerRelevancy,
  ContextEntityRecall,
  ContextPrecision,
  ContextRecall,
  ContextRelevancy,
  Faithfulness,
} from "./ragas.js";

/** What a scorer receives from a test case. */
export interface ScorerCall {
  readonly input: string;
  readonly output: string;
  readonly expected?: string;
  readonly context?: readonly string[];
  readonly client: JudgeModel;
  readonly signal?: AbortSignal;
}

/** A view of `model` that reports the usage of every call it makes (cache hits cost nothing). */
function accruing(model: JudgeModel, accrue: (usage: { costUsd: number | null; inputTokens: number; outputTokens: number }) => void): JudgeModel {
  const report = <R extends { usage: JudgeUsage; cached: boolean }>(result: R): R => {
    accrue({ costUsd: result.cached ? 0 : result.usage.costUsd, inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens });
    return result;
  };
  return {
    name: model.name,
    supportsLogprobs: model.supportsLogprobs,
    ...(model.reportsCost !== undefined ? { reportsCost: model.reportsCost } : {}),
    ...(model.embeddingModel !== undefined ? { embeddingModel: model.embeddingModel } : {}),
    ...(model.moderationModel !== undefined ? { moderationModel: model.moderationModel } : {}),
    generate: async <T>(request: GenerateRequest<T>) => report(await model.generate<T>(request)),
    ...(model.embed ? { embed: async (request: EmbedRequest) => report(await model.embed!(request)) } : {}),
    ...(model.moderate ? { moderate: async (request: ModerationRequest) => report(await model.moderate!(request)) } : {}),
  };
}

/** Options of the scorer metrics: the judge metric options plus the scorer's own (weights, strictness...). */
export type ScorerMetricOptions<O extends object = object> = JudgeMetricOptions & { readonly scorerOptions?: O };

/**
 * A DeepEval-style metric over an autoevals-shaped scorer. The reason is the scorer's metadata as JSON;
 * a scorer with no opinion (score null, e.g. ContextRecall of an answer without statements) leaves the
 * score null and the metric failed, with the scorer's `metadata.error` as the reason.
 */
export abstract class ScorerMetric<O extends object = object> extends JudgeMetric {
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "scorerOptions"];
  protected readonly scorerOptions: O;

  protected constructor(options: ScorerMetricOptions<O>, defaultThreshold: number) {
    const { scorerOptions, ...rest } = options;
    super(rest, { defaultThreshold });
    this.scorerOptions = (scorerOptions ?? {}) as O;
  }

  /** Run the scorer on the test case's fields. */
  protected abstract runScorer(call: ScorerCall & O): Promise<Score>;

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const context = testCase.retrievalContext?.map(retrievalContextText) ?? testCase.context ?? undefined;
    const client = accruing(this.model, (usage) => this.accrueUsage(usage));
    const result = await this.runScorer({
      ...this.scorerOptions,
      input: testCase.input,
      output: testCase.actualOutput ?? "",
      ...(testCase.expectedOutput != null ? { expected: testCase.expectedOutput } : {}),
      ...(context ? { context } : {}),
      client,
      ...(signal ? { signal } : {}),
    });
    const error = typeof result.metadata.error === "string" ? result.metadata.error : null;
    return { score: result.score, reason: error ?? JSON.stringify(result.metadata) };
  }
}

const OUT = [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
const OUT_EXPECTED = [LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.EXPECTED_OUTPUT];
const IN_EXPECTED_CONTEXT = [LLMTestCaseParams.INPUT, LLMTestCaseParams.EXPECTED_OUTPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT];
const IN_OUT_CONTEXT = [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT];

/** autoevals `EmbeddingSimilarity` as a metric (actual vs expected output). Threshold 0.5. */
export class EmbeddingSimilarityMetric extends ScorerMetric<{ prefix?: string; expectedMin?: number; model?: string }> {
  constructor(options: ScorerMetricOptions<{ prefix?: string; expectedMin?: number; model?: string }> = {}) {
    super(options, 0.5);
  }
  override get name(): string {
    return "Embedding Similarity";
  }
  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return OUT_EXPECTED;
  }
  protected runScorer(call: ScorerCall & { prefix?: string; expectedMin?: number; model?: string }): Promise<Score> {
    return EmbeddingSimilarity(call);
  }
}

/** RAGAS `AnswerSimilarity` as a metric. Threshold 0.5. */
export class RagasAnswerSimilarityMetric extends ScorerMetric<{ model?: string }> {
  constructor(options: ScorerMetricOptions<{ model?: string }> = {}) {
    super(options, 0.5);
  }
  override get name(): string {
    return "RAGAS Answer Similarity";
  }
  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return OUT_EXPECTED;
  }
  protected runScorer(call: ScorerCall & { model?: string }): Promise<Score> {
    return AnswerSimilarity(call);
  }
}

/** autoevals `Moderation` as a metric: 1 passes, 0 fails. Threshold 1 (the output must pass). */
export class ModerationMetric extends ScorerMetric<{ threshold?: number; model?: string }> {
  constructor(options: ScorerMetricOptions<{ threshold?: number; model?: string }> = {}) {
    super(options, 1);
  }
  override get name(): string {
    return "Moderation";
  }
  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.ACTUAL_OUTPUT];
  }
  protected runScorer(call: ScorerCall & { threshold?: number; model?: string }): Promise<Score> {
    return Moderation(call);
  }
}

type RagasScorer = (args: ScorerCall & Record<string, unknown>) => Promise<Score>;

/** A RAGAS metric class: name, required test-case fields and the scorer. Threshold 0.5. */
function ragasMetric<O extends object>(display: string, params: readonly LLMTestCaseParams[], scorer: RagasScorer) {
  return class extends ScorerMetric<O> {
    constructor(options: ScorerMetricOptions<O> = {}) {
      super(options, 0.5);
    }
    override get name(): string {
      return display;
    }
    protected override get requiredParams(): readonly LLMTestCaseParams[] {
      return params;
    }
    protected runScorer(call: ScorerCall & O): Promise<Score> {
      return scorer(call as ScorerCall & Record<string, unknown>);
    }
  };
}

type WeightOptions = { factualityWeight?: number; answerSimilarityWeight?: number; embeddingModel?: string };

/** RAGAS `AnswerCorrectness` (statement F1 and answer similarity, weights [0.75, 0.25]) as a metric. */
export const RagasAnswerCorrectnessMetric = ragasMetric<WeightOptions>(
  "RAGAS Answer Correctness",
  [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.EXPECTED_OUTPUT],
  AnswerCorrectness,
);
/** RAGAS `ContextEntityRecall` as a metric. */
export const RagasContextEntityRecallMetric = ragasMetric<{ expectedMin?: number; embeddingModel?: string }>(
  "RAGAS Context Entity Recall",
  [LLMTestCaseParams.EXPECTED_OUTPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT],
  ContextEntityRecall,
);
/** RAGAS `ContextRelevancy` (autoevals' character share) as a metric. */
export const RagasContextRelevancyMetric = ragasMetric<object>(
  "RAGAS Context Relevancy",
  [LLMTestCaseParams.INPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT],
  ContextRelevancy,
);
/** RAGAS `ContextRecall` as a metric. */
export const RagasContextRecallMetric = ragasMetric<object>("RAGAS Context Recall", IN_EXPECTED_CONTEXT, ContextRecall);
/** RAGAS `ContextPrecision` as a metric. */
export const RagasContextPrecisionMetric = ragasMetric<object>("RAGAS Context Precision", IN_EXPECTED_CONTEXT, ContextPrecision);
/** RAGAS `Faithfulness` as a metric. */
export const RagasFaithfulnessMetric = ragasMetric<object>("RAGAS Faithfulness", IN_OUT_CONTEXT, Faithfulness);
/** RAGAS `AnswerRelevancy` as a metric. */
export const RagasAnswerRelevancyMetric = ragasMetric<{ strictness?: number; expectedMin?: number; embeddingModel?: string }>(
  "RAGAS Answer Relevancy",
  IN_OUT_CONTEXT,
  AnswerRelevancy,
);
