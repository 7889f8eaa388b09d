// Any scorer in autoevals' call shape (`await scorer({ input, output, expected, ... })` → `Score`) as a
// DeepEval-style metric: `aMeasure(testCase)` (and `measure` for synchronous rule scorers) with a
// threshold, strict mode, a reason and the judge's cost and tokens, so autoevals scorers run wherever
// DeepEval metrics do (evaluate(), the vitest matchers, `evalkern test`).
import type { Score } from "@evalkern/metrics/common";
import {
  BaseMetric,
  SyncMeasureUnsupportedError,
  type Evaluation,
  type LLMTestCase,
  type ScoredMetricOptions,
} from "@evalkern/metrics/deepeval";
import { defaultJudge, resolveJudge } from "../defaults.js";
import { JudgeConfigError, JudgeInputError } from "../errors.js";
import type { GenerateRequest, GenerateResult, JudgeModel } from "../model.js";

/** A scorer in autoevals' shape, synchronous or not. */
export type AutoevalsScorer = ((args: never) => Score | Promise<Score>) & {
  readonly requiresJudge?: boolean;
  readonly scorerName?: string;
};

export interface AutoevalsMetricOptions extends ScoredMetricOptions {
  /** The judge handed to the scorer (`judge`): a `JudgeModel` or a model name. Default: the configured default judge. */
  readonly model?: JudgeModel | string;
  /** More scorer arguments, e.g. `{ criteria }` for ClosedQA, `{ language }` for Translation, `{ useCoT: false }`. */
  readonly args?: Readonly<Record<string, unknown>>;
  /** The metric's name. Default: the scorer's name. */
  readonly name?: string;
}

type Accrue = (usage: { costUsd: number | null; inputTokens: number | null; outputTokens: number | null }) => void;

/** `model` with every `generate` call's usage reported to `accrue` (failed calls too: they spent tokens). */
function accruing(model: JudgeModel, accrue: () => Accrue): JudgeModel {
  return {
    name: model.name,
    supportsLogprobs: model.supportsLogprobs,
    specificationVersion: 1,
    ...(model.capabilities ? { capabilities: model.capabilities } : {}),
    ...(model.reportsCost !== undefined ? { reportsCost: model.reportsCost } : {}),
    async generate<T>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      try {
        const result = await model.generate(request);
        const u = result.usage;
        const costUsd = result.cached ? 0 : (u?.costUsd ?? null);
        accrue()({ costUsd, inputTokens: u?.inputTokens ?? null, outputTokens: u?.outputTokens ?? null });
        return result;
      } catch (error) {
        const spent = (error as { usage?: { costUsd?: number | null; inputTokens?: number; outputTokens?: number } } | null)?.usage;
        if (spent && typeof spent === "object") {
          accrue()({ costUsd: spent.costUsd ?? null, inputTokens: spent.inputTokens ?? null, outputTokens: spent.outputTokens ?? null });
        }
        throw error;
      }
    },
  };
}

/**
 * An autoevals-shape scorer as a DeepEval metric: the test case's `input`, `actualOutput` and
 * `expectedOutput` become the scorer's `input`, `output` and `expected` (plus `context` and
 * `retrievalContext` when set, and `options.args`); the score is the metric's score and
 * `metadata.rationale` its reason.
 *
 * When to use: to run `Factuality`, `ClosedQA`, the RAGAS scorers or a rule scorer such as `ExactMatch`
 * beside DeepEval metrics, with a threshold (default 0.5).
 *
 * Details: the judge (`options.model`, else the default judge) is passed to the scorer as `judge`, and
 * every call it makes accrues into `evaluationCost`, `inputTokens` and `outputTokens`. A scorer that
 * returns `score: null` leaves the metric's score null and `success` false. Judge scorers offer only
 * `aMeasure`; synchronous rule scorers also `measure`.
 *
 * @example
 * const metric = new AutoevalsMetric(Factuality, { model: judge, threshold: 0.6 });
 * await metric.aMeasure(new LLMTestCase({ input: "Capital of France?", actualOutput: "Paris", expectedOutput: "Paris" }));
 */
export class AutoevalsMetric extends BaseMetric {
  readonly scorer: AutoevalsScorer;
  readonly args: Readonly<Record<string, unknown>>;
  private readonly metricName: string;
  private readonly judgeOption: JudgeModel | undefined;

  constructor(scorer: AutoevalsScorer, options: AutoevalsMetricOptions = {}) {
    if (typeof scorer !== "function") throw new JudgeConfigError("AutoevalsMetric wraps a scorer function", { argument: "scorer" });
    const { model, args, name, ...rest } = options;
    const judge = model === undefined ? undefined : resolveJudge(model, "AutoevalsMetric");
    super({ ...rest, evaluationModel: rest.evaluationModel ?? judge?.name ?? null }, { defaultThreshold: 0.5 });
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
      throw new JudgeConfigError("AutoevalsMetric: args must be an object of scorer arguments", { argument: "args" });
    }
    this.scorer = scorer;
    this.args = args ?? {};
    this.metricName = name ?? scorer.scorerName ?? (scorer.name || "Autoevals");
    this.judgeOption = judge;
  }

  override get name(): string {
    return this.metricName;
  }

  override get supportsSyncMeasure(): boolean {
    return this.scorer.requiresJudge !== true;
  }

  private scorerArgs(testCase: LLMTestCase, judge: JudgeModel | undefined): Record<string, unknown> {
    return {
      input: testCase.input,
      output: testCase.actualOutput ?? undefined,
      ...(testCase.expectedOutput !== null ? { expected: testCase.expectedOutput } : {}),
      ...(testCase.context !== null ? { context: testCase.context } : {}),
      ...(testCase.retrievalContext !== null ? { retrievalContext: testCase.retrievalContext } : {}),
      ...this.args,
      ...(judge ? { judge } : {}),
    };
  }

  private evaluation(result: Score): Evaluation {
    if (typeof result !== "object" || result === null || (result.score !== null && typeof result.score !== "number")) {
      throw new JudgeInputError(`${this.name}: the scorer did not return a Score { name, score, metadata }`, { argument: "scorer" });
    }
    const rationale = result.metadata?.rationale;
    return { score: result.score, reason: typeof rationale === "string" ? rationale : null };
  }

  protected override evaluateSync(testCase: LLMTestCase): Evaluation {
    if (this.scorer.requiresJudge === true) throw new SyncMeasureUnsupportedError(this.name);
    const result = (this.scorer as (args: Record<string, unknown>) => Score | Promise<Score>)(this.scorerArgs(testCase, undefined));
    if (typeof (result as Promise<Score>)?.then === "function") {
      (result as Promise<Score>).catch(() => undefined);
      throw new SyncMeasureUnsupportedError(this.name, "the scorer is asynchronous");
    }
    return this.evaluation(result as Score);
  }

  protected override async evaluateAsync(testCase: LLMTestCase): Promise<Evaluation> {
    const base = this.judgeOption ?? (this.scorer.requiresJudge === true ? defaultJudge() : undefined);
    const judge = base ? accruing(base, () => (usage) => this.accrueUsage(usage)) : undefined;
    const call = this.scorer as (args: Record<string, unknown>) => Score | Promise<Score>;
    return this.evaluation(await call(this.scorerArgs(testCase, judge)));
  }

  protected override get tracksCost(): boolean {
    return this.judgeOption?.reportsCost !== false;
  }
}
