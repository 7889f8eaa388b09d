// The glue between DeepEval's base classes (@evalkern/metrics/deepeval) and a `JudgeModel`: one
// judge call = one user message + a structured-output schema; the reply is validated again here (a
// custom `JudgeModel` may not validate) and its usage accrues into the metric's cost and tokens.
import {
  BaseConversationalMetric,
  BaseMetric,
  LLMTestCase,
  type BaseMetricTraits,
  type JudgeUsage as MetricUsage,
  type MetricTraits,
  type ScoredMetricOptions,
} from "@evalkern/metrics/deepeval";
import type { GenerateResult, JudgeModel, JudgeSchema, TokenLogprob } from "../model.js";
import { rejectUnknownOptions } from "@evalkern/metrics";
import { JudgeMetricConfigError, JudgeReplyError } from "./errors.js";
import { resolveJudge } from "../defaults.js";
import { JudgeConfigError } from "../errors.js";
import { validateWith } from "../schema.js";
import { assertImageSupport, promptContent } from "../images.js";
import { reasonSchema } from "./schema.js";

/** Options of every DeepEval judge metric. */
export interface JudgeMetricOptions extends ScoredMetricOptions {
  /**
   * The judge: a `JudgeModel`, or a model name such as `"gpt-4o-mini"` (an OpenAI-compatible judge built
   * from `OPENAI_API_KEY` / `OPENAI_BASE_URL` or `EVALKERN_JUDGE_*`). Absent: the default judge of
   * `configure({ judge })` / `context({ judge }, fn)`; none set is an error.
   */
  readonly model?: JudgeModel | string;
}

/**
 * How a judge measurement got its score:
 * - `"structured"`: every call's first reply was valid structured output;
 * - `"repaired-and-re-asked"`: some reply was invalid or needed repair, so the judge was asked again
 *   (the score comes only from a valid reply, never from a repaired one);
 * - `"logprob-weighted"`: G-Eval's score is the probability-weighted mean of the score token's candidates;
 * - `"raw-score"`: G-Eval's score is the judge's integer as written (no usable logprobs).
 */
export type ScoringPath = "structured" | "repaired-and-re-asked" | "logprob-weighted" | "raw-score";

/** One judge call of a measurement, as the model reported it. */
export interface JudgeCallRecord {
  /** The schema's name (`"statements"`, `"verdicts"`, `"reason"`...). */
  readonly schema: string;
  /** Rung of the structured-output ladder (`"json_schema"`, `"json_object"`, `"text"`), when reported. */
  readonly outputMode: string | null;
  /** Replies received: 1, plus the re-asks after invalid or repaired output. */
  readonly attempts: number;
  /** Capability fallbacks taken (e.g. `"json_schema->json_object"`, `"logprobs-dropped"`). */
  readonly fallbacks: readonly string[];
  readonly cached: boolean;
}

/** The path of a measurement from its calls: re-asked when any call was, else structured. */
export function callsScoringPath(calls: readonly JudgeCallRecord[]): ScoringPath | null {
  if (calls.length === 0) return null;
  return calls.some((call) => call.attempts > 1) ? "repaired-and-re-asked" : "structured";
}

/** Extra request fields of a judge call. */
export interface JudgeCallOptions {
  readonly signal?: AbortSignal | undefined;
  /** Ledger tag: the metric the call is booked under. */
  readonly metric?: string;
  readonly logprobs?: boolean;
  readonly topLogprobs?: number;
  /** Told about every call that returned (for `judgeCalls` / `scoringPath`). */
  readonly record?: (call: JudgeCallRecord) => void;
}

/** The validated value of a judge call, with the token logprobs when they were asked for. */
export interface JudgeReply<T> {
  readonly value: T;
  readonly logprobs: readonly TokenLogprob[] | undefined;
}

const COUNT_ISSUE = /(^|: )expected \d+ .* \(one per /;

/** The option keys every judge metric takes (`JudgeMetricOptions`). */
export const JUDGE_METRIC_OPTION_KEYS: readonly string[] = Object.keys({
  includeReason: true,
  asyncMode: true,
  verboseMode: true,
  verbosePrinter: true,
  evaluationModel: true,
  threshold: true,
  strictMode: true,
  model: true,
} satisfies Record<keyof JudgeMetricOptions, true>);

/** A metric class that lists the option keys it accepts (`static readonly optionKeys`). */
interface WithOptionKeys {
  readonly name: string;
  readonly optionKeys?: readonly string[];
}

/**
 * Refuses an options object with a key the metric does not take (a typo such as `treshold` would
 * otherwise be ignored silently; DeepEval's Python constructors raise `TypeError` for it) with
 * `UnknownOptionError`, naming the closest key. Only a class that declares its own `optionKeys`
 * is checked: a user's subclass may accept options its parent cannot know.
 */
export function checkOptionKeys(target: WithOptionKeys, options: unknown): void {
  if (!Object.hasOwn(target, "optionKeys") || target.optionKeys === undefined) return;
  if (typeof options !== "object" || options === null) return;
  rejectUnknownOptions(options, target.optionKeys, target.name);
}

/** Validate a value against a judge schema's Standard Schema validator; throw `JudgeReplyError` if it fails. */
export async function validateReply<T>(schema: JudgeSchema<T>, value: unknown): Promise<T> {
  const result = await validateWith(schema, value);
  if (result.ok) return result.value;
  const problem = result.issues.every((issue) => COUNT_ISSUE.test(issue)) ? "count" : "schema";
  throw new JudgeReplyError(schema.name, problem, result.issues);
}

/**
 * One judge call: send `prompt` as a single user message (DeepEval's convention) with `schema` as the
 * structured output, report usage through `accrue`, and return the validated value.
 *
 * Details: usage accrues before validation, so a rejected reply still counts in cost and tokens. A
 * reply served from the model's cache costs nothing (`cached: true` → cost 0, tokens still counted).
 */
export async function callJudge<T>(
  model: JudgeModel,
  schema: JudgeSchema<T>,
  prompt: string,
  accrue: (usage: MetricUsage) => void,
  options: JudgeCallOptions = {},
): Promise<JudgeReply<T>> {
  // Images named in the prompt become image_url parts; a judge known not to take them fails here, unsent.
  const content = await promptContent(model, prompt, options.metric);
  let result: GenerateResult<T>;
  try {
    result = await model.generate<T>({
      messages: [{ role: "user", content }],
      schema,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.metric ? { metric: options.metric } : {}),
      ...(options.logprobs ? { logprobs: true, topLogprobs: options.topLogprobs ?? 20 } : {}),
    });
  } catch (error) {
    // A failed call still spent tokens (re-asks, retried attempts): the client attaches them.
    const spent = (error as { usage?: { costUsd?: number | null; inputTokens?: number; outputTokens?: number } } | null)?.usage;
    if (spent && typeof spent === "object") {
      accrue({ costUsd: spent.costUsd ?? null, inputTokens: spent.inputTokens ?? null, outputTokens: spent.outputTokens ?? null });
    }
    throw error;
  }
  options.record?.({
    schema: schema.name,
    outputMode: result.outputMode ?? null,
    attempts: result.attempts ?? 1,
    fallbacks: result.fallbacks ?? [],
    cached: result.cached,
  });
  const usage = result.usage;
  accrue({
    costUsd: result.cached ? 0 : (usage?.costUsd ?? null),
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
  });
  const value = await validateReply(schema, result.value);
  return { value, logprobs: result.logprobs };
}

/**
 * The metric's judge: a `JudgeModel`; a model name (`"gpt-4o-mini"`), built from the environment
 * (`judgeFromModelName`); or, when absent, the default judge of `configure({ judge })` /
 * `context({ judge }, fn)`. Anything else, or no judge at all, is a `JudgeMetricConfigError`.
 */
export function checkModel(model: unknown, metric: string): JudgeModel {
  if (typeof model === "object" && model !== null && typeof (model as JudgeModel).generate === "function") return model as JudgeModel;
  if (typeof model === "string" || model === undefined || model === null) {
    try {
      return resolveJudge(model, metric);
    } catch (error) {
      if (error instanceof JudgeConfigError && !(error instanceof JudgeMetricConfigError)) {
        throw new JudgeMetricConfigError("model", error.message);
      }
      throw error;
    }
  }
  throw new JudgeMetricConfigError("model", `${metric}: 'model' must be a JudgeModel (an object with generate()) or a model name`);
}

/** What a {@link JudgeSession} needs of its metric: the metric's own hooks, bound to one instance. */
export interface JudgeSessionHost {
  /** The metric's name when a call is made (the ledger tag; a metric may name itself late). */
  name(): string;
  /** Add a call's usage to the metric's cost and tokens. */
  accrue(usage: MetricUsage): void;
  /** Run independent calls as the metric's `asyncMode` says. */
  gather(tasks: readonly (() => Promise<unknown>)[]): Promise<unknown[]>;
}

/**
 * One measurement's dealings with the judge, the part `JudgeMetric` and `ConversationalJudgeMetric`
 * share (their DeepEval bases differ, so they cannot share a parent): every call is booked under the
 * metric, its usage accrues into the metric's cost and tokens, and its record lands in `calls`.
 *
 * Details: a metric opens a fresh session at every reset. `copy()` copies fields one by one, so a
 * session kept across a reset would let the copy book its calls into the original's.
 */
export class JudgeSession {
  /** The judge calls of the measurement, in completion order. */
  readonly calls: JudgeCallRecord[] = [];

  constructor(
    readonly model: JudgeModel,
    private readonly host: JudgeSessionHost,
  ) {}

  /**
   * The judge of a metric being built (see {@link checkModel}) and the options for its DeepEval base,
   * whose `evaluationModel` defaults to the judge's name. Unknown option keys are refused first.
   */
  static resolve(target: WithOptionKeys, options: JudgeMetricOptions): { model: JudgeModel; options: JudgeMetricOptions } {
    checkOptionKeys(target, options);
    const model = checkModel(options.model, target.name);
    return { model, options: { ...options, evaluationModel: options.evaluationModel ?? model.name } };
  }

  /** One judge call; the validated value. */
  async judge<T>(schema: JudgeSchema<T>, prompt: string, options: JudgeCallOptions = {}): Promise<T> {
    return (await this.judgeWithLogprobs(schema, prompt, options)).value;
  }

  /** One judge call; the validated value and the token logprobs when they were asked for. */
  judgeWithLogprobs<T>(schema: JudgeSchema<T>, prompt: string, options: JudgeCallOptions = {}): Promise<JudgeReply<T>> {
    return callJudge(this.model, schema, prompt, (usage) => this.host.accrue(usage), {
      metric: this.host.name(),
      record: (call) => this.calls.push(call),
      ...options,
    });
  }

  /** The reason call (`{reason: string}`). */
  async reason(prompt: string, signal: AbortSignal | undefined): Promise<string> {
    return (await this.judge(reasonSchema, prompt, { signal })).reason;
  }

  /** Two independent calls of different result types, through the metric's `gather`. */
  async pair<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
    const [a, b] = await this.host.gather([first, second]);
    return [a as A, b as B];
  }

  /** How the measurement got its score (null when no call returned). */
  get scoringPath(): ScoringPath | null {
    return callsScoringPath(this.calls);
  }

  /** Cost is reported for priced models (DeepEval's "native" models); `reportsCost: false` → null. */
  get tracksCost(): boolean {
    return this.model.reportsCost !== false;
  }
}

/**
 * A single-turn DeepEval metric scored by a judge model (the base of AnswerRelevancy, Faithfulness,
 * G-Eval, DAG, ...). Subclasses implement `evaluateAsync` with `this.judge(...)` calls; `measure()`
 * throws `SyncMeasureUnsupportedError` (use `aMeasure`). The judge work is its {@link JudgeSession}'s.
 */
export abstract class JudgeMetric extends BaseMetric {
  readonly model: JudgeModel;
  private session: JudgeSession;

  // Options may be left out (DeepEval's `AnswerRelevancyMetric()`): the judge is then the default one.
  protected constructor(options: JudgeMetricOptions = {}, traits: BaseMetricTraits = {}) {
    const resolved = JudgeSession.resolve(new.target, options);
    super(resolved.options, traits);
    this.model = resolved.model;
    this.session = this.openSession();
  }

  private openSession(): JudgeSession {
    return new JudgeSession(this.model, {
      name: () => this.name,
      accrue: (usage) => this.accrueUsage(usage),
      gather: (tasks) => this.gather(tasks),
    });
  }

  protected override resetState(): void {
    super.resetState();
    this.session = this.openSession();
  }

  // A multimodal test case and a judge known not to take images: refuse before any call (DeepEval
  // checks this first, so even calls that would not carry an image are not made).
  protected override validateTestCase(testCase: unknown): asserts testCase is LLMTestCase {
    if (LLMTestCase.isInstance(testCase) && testCase.multimodal) assertImageSupport(this.model, this.name);
    super.validateTestCase(testCase);
  }

  /** One judge call whose usage accrues into this measurement. */
  protected judge<T>(schema: JudgeSchema<T>, prompt: string, options: JudgeCallOptions = {}): Promise<T> {
    return this.session.judge(schema, prompt, options);
  }

  protected judgeWithLogprobs<T>(schema: JudgeSchema<T>, prompt: string, options: JudgeCallOptions = {}): Promise<JudgeReply<T>> {
    return this.session.judgeWithLogprobs(schema, prompt, options);
  }

  /** The judge calls of the last measurement, in completion order. */
  get judgeCalls(): JudgeCallRecord[] {
    return this.session.calls;
  }

  /** How the last measurement got its score (null before one, or when no call returned). */
  get scoringPath(): ScoringPath | null {
    return this.session.scoringPath;
  }

  protected override get tracksCost(): boolean {
    return this.session.tracksCost;
  }

  /** The reason call (`{reason: string}`). */
  protected judgeReason(prompt: string, signal: AbortSignal | undefined): Promise<string> {
    return this.session.reason(prompt, signal);
  }

  /** Two independent calls of different result types, through `gather` (concurrent in `asyncMode`). */
  protected gatherPair<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
    return this.session.pair(first, second);
  }
}

/** A conversational DeepEval metric scored by a judge model (KnowledgeRetention, ...); see {@link JudgeMetric}. */
export abstract class ConversationalJudgeMetric extends BaseConversationalMetric {
  readonly model: JudgeModel;
  private session: JudgeSession;

  protected constructor(options: JudgeMetricOptions = {}, traits: MetricTraits = {}) {
    const resolved = JudgeSession.resolve(new.target, options);
    super(resolved.options, traits);
    this.model = resolved.model;
    this.session = this.openSession();
  }

  private openSession(): JudgeSession {
    return new JudgeSession(this.model, {
      name: () => this.name,
      accrue: (usage) => this.accrueUsage(usage),
      gather: (tasks) => this.gather(tasks),
    });
  }

  protected override resetState(): void {
    super.resetState();
    this.session = this.openSession();
  }

  protected judge<T>(schema: JudgeSchema<T>, prompt: string, options: JudgeCallOptions = {}): Promise<T> {
    return this.session.judge(schema, prompt, options);
  }

  protected judgeWithLogprobs<T>(schema: JudgeSchema<T>, prompt: string, options: JudgeCallOptions = {}): Promise<JudgeReply<T>> {
    return this.session.judgeWithLogprobs(schema, prompt, options);
  }

  get judgeCalls(): JudgeCallRecord[] {
    return this.session.calls;
  }

  get scoringPath(): ScoringPath | null {
    return this.session.scoringPath;
  }

  protected override get tracksCost(): boolean {
    return this.session.tracksCost;
  }

  protected judgeReason(prompt: string, signal: AbortSignal | undefined): Promise<string> {
    return this.session.reason(prompt, signal);
  }

  protected gatherPair<A, B>(first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
    return this.session.pair(first, second);
  }
}

/** The outcome of {@link tryMeasure}: a score, or the failure as a value. */
export type MeasureOutcome =
  | { readonly ok: true; readonly score: number | null; readonly success: boolean | null; readonly reason: string | null }
  | { readonly ok: false; readonly error: unknown; readonly message: string };

/**
 * `aMeasure` with the per-item failure as a value instead of a rejection, for runners that count
 * failures apart from scores (a failed item has no score, never a default one).
 *
 * @example
 * const outcome = await tryMeasure(metric, testCase);
 * if (!outcome.ok) failures.push(outcome.message);
 */
export async function tryMeasure<TTestCase>(
  metric: {
    aMeasure(testCase: TTestCase, options?: { signal?: AbortSignal }): Promise<number | null>;
    readonly success: boolean | null;
    readonly reason: string | null;
    readonly error: string | null;
  },
  testCase: TTestCase,
  options: { signal?: AbortSignal } = {},
): Promise<MeasureOutcome> {
  try {
    const score = await metric.aMeasure(testCase, options);
    return { ok: true, score, success: metric.success, reason: metric.reason };
  } catch (error) {
    return { ok: false, error, message: metric.error ?? String(error) };
  }
}
