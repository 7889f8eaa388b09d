// Free functions over any `JudgeModel`: tag calls with a metric name for the ledger, and get a judge
// call's failure as a value instead of an exception.
import { JudgeError } from "./errors.js";
import type { EmbedRequest, GenerateRequest, GenerateResult, JudgeModel, ModerationRequest } from "./model.js";

/**
 * A view of `model` whose calls are all booked under `metric` (overriding the tag a metric sets on its
 * own calls). Shares everything else — limiter, cache, ledger — with `model`.
 *
 * When to use: per-metric cost totals (`judge.ledger.forMetric(name)`) under a name of your choice, e.g.
 * to tell apart two instances of the same metric class.
 *
 * @example
 * const faithfulness = new FaithfulnessMetric({ model: withMetricTag(judge, "faithfulness") });
 */
export function withMetricTag(model: JudgeModel, metric: string): JudgeModel {
  const view: JudgeModel = {
    get name() {
      return model.name;
    },
    get supportsLogprobs() {
      return model.supportsLogprobs;
    },
    get specificationVersion() {
      return model.specificationVersion;
    },
    get capabilities() {
      return model.capabilities;
    },
    get reportsCost() {
      return model.reportsCost;
    },
    generate<T = string>(request: GenerateRequest<T>): Promise<GenerateResult<T>> {
      return model.generate({ ...request, metric });
    },
    ...(model.embeddingModel !== undefined ? { embeddingModel: model.embeddingModel } : {}),
    ...(model.moderationModel !== undefined ? { moderationModel: model.moderationModel } : {}),
    ...(model.embed ? { embed: (request: EmbedRequest) => model.embed!({ ...request, metric }) } : {}),
    ...(model.moderate ? { moderate: (request: ModerationRequest) => model.moderate!({ ...request, metric }) } : {}),
    ...(model.loglikelihood ? { loglikelihood: model.loglikelihood.bind(model) } : {}),
    ...(model.scoreContinuations ? { scoreContinuations: model.scoreContinuations.bind(model) } : {}),
  };
  return view;
}

/** A judge call's outcome as a value (STYLE: expected per-item failures are `{ok: false, error}`). */
export type JudgeOutcome<T> =
  | { readonly ok: true; readonly result: GenerateResult<T> }
  | { readonly ok: false; readonly error: JudgeError | Error };

/**
 * `model.generate(request)` with failures returned instead of thrown.
 *
 * @example
 * const outcome = await tryGenerate(judge, { messages, schema });
 * if (!outcome.ok) failures.push(outcome.error);
 */
export async function tryGenerate<T>(model: JudgeModel, request: GenerateRequest<T>): Promise<JudgeOutcome<T>> {
  try {
    return { ok: true, result: await model.generate(request) };
  } catch (error) {
    return { ok: false, error: JudgeError.isInstance(error) || error instanceof Error ? error : new Error(String(error)) };
  }
}
