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
function accruing(
  model: JudgeModel,
  accrue: (usage: { costUsd: number | null; inputTokens: number; outputTokens: number }) => void,
): JudgeModel {
  const report = <R extends { usage: JudgeUsage; cached: boolean }>(result: R): R => {
    accrue({
      costUsd: result.cached ? 0 : result.usage.costUsd,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    });
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

/** What a RAGAS metric class declares: its display name, required test-case fields and scorer. */
interface RagasSpec {
  readonly display: string;
  readonly params: readonly LLMTestCaseParams[];
  readonly scorer: RagasScorer;
}

/**
 * The base of the RAGAS metric classes: threshold 0.5; the subclass's static `spec` names it (read from
 * the constructor, so it is there before the base constructor runs).
 */
export abstract class RagasMetric<O extends object = object> extends ScorerMetric<O> {
  constructor(options: ScorerMetricOptions<O> = {}) {
    super(options, 0.5);
  }
  private get spec(): RagasSpec {
    return (this.constructor as unknown as { spec: RagasSpec }).spec;
  }
  override get name(): string {
    return this.spec.display;
  }
  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return this.spec.params;
  }
  protected runScorer(call: ScorerCall & O): Promise<Score> {
    return this.spec.scorer(call as ScorerCall & Record<string, unknown>);
  }
}

type WeightOptions = { factualityWeight?: number; answerSimilarityWeight?: number; embeddingModel?: string };
const IN_OUT_EXPECTED = [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.EXPECTED_OUTPUT];

/** RAGAS `AnswerCorrectness` (statement F1 and answer similarity, weights [0.75, 0.25]) as a metric. */
export class RagasAnswerCorrectnessMetric extends RagasMetric<WeightOptions> {
  static readonly spec: RagasSpec = { display: "RAGAS Answer Correctness", params: IN_OUT_EXPECTED, scorer: AnswerCorrectness };
}

/** RAGAS `ContextEntityRecall` as a metric. */
export class RagasContextEntityRecallMetric extends RagasMetric<{ expectedMin?: number; embeddingModel?: string }> {
  static readonly spec: RagasSpec = {
    display: "RAGAS Context Entity Recall",
    params: [LLMTestCaseParams.EXPECTED_OUTPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT],
    scorer: ContextEntityRecall,
  };
}

/** RAGAS `ContextRelevancy` (autoevals' character share) as a metric. */
export class RagasContextRelevancyMetric extends RagasMetric {
  static readonly spec: RagasSpec = {
    display: "RAGAS Context Relevancy",
    params: [LLMTestCaseParams.INPUT, LLMTestCaseParams.RETRIEVAL_CONTEXT],
    scorer: ContextRelevancy,
  };
}

/** RAGAS `ContextRecall` as a metric. */
export class RagasContextRecallMetric extends RagasMetric {
  static readonly spec: RagasSpec = { display: "RAGAS Context Recall", params: IN_EXPECTED_CONTEXT, scorer: ContextRecall };
}

/** RAGAS `ContextPrecision` as a metric. */
export class RagasContextPrecisionMetric extends RagasMetric {
  static readonly spec: RagasSpec = { display: "RAGAS Context Precision", params: IN_EXPECTED_CONTEXT, scorer: ContextPrecision };
}

/** RAGAS `Faithfulness` as a metric. */
export class RagasFaithfulnessMetric extends RagasMetric {
  static readonly spec: RagasSpec = { display: "RAGAS Faithfulness", params: IN_OUT_CONTEXT, scorer: Faithfulness };
}

/** RAGAS `AnswerRelevancy` as a metric. */
export class RagasAnswerRelevancyMetric extends RagasMetric<{ strictness?: number; expectedMin?: number; embeddingModel?: string }> {
  static readonly spec: RagasSpec = { display: "RAGAS Answer Relevancy", params: IN_OUT_CONTEXT, scorer: AnswerRelevancy };
}
