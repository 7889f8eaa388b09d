/**
 * promptfoo's model-graded assertion types that map onto the judge: `llm-rubric`,
 * `model-graded-closedqa`, `factuality`, `select-best` and `classifier` (src/assertions/*.ts and
 * src/matchers/ in promptfoo; pass and score rules, defaults and thresholds are promptfoo's, the prompts
 * our own words).
 *
 * API, for suite runners (`evalkern test`) and direct use:
 *
 *   MODEL_GRADED_ASSERTIONS[type](ctx) → Promise<{ pass, score, reason, metadata? }>
 *
 * - `ctx.output`: the output under test (a string; other values are sent as JSON).
 * - `ctx.value` (alias `ctx.expected`): the assertion's `value` — the rubric (llm-rubric), the criterion
 *   (model-graded-closedqa), the reference answer (factuality), the criterion (select-best), the expected
 *   label (classifier; absent = any label).
 * - `ctx.vars`: the test's variables (rendered into custom `rubricPrompt`s; `vars.input`/`vars.question`
 *   stand in for `ctx.prompt`).
 * - `ctx.prompt`: the prompt that produced the output (factuality's question, closedqa's task).
 * - `ctx.outputs` and `ctx.outputIndex`: select-best's candidates and which one `ctx.output` is.
 * - `ctx.threshold`: llm-rubric (pass also needs score ≥ threshold) and classifier (default 1).
 * - `ctx.inverse`: the `not-` prefix, applied as promptfoo applies it (see each type).
 * - `ctx.options`: `rubricPrompt` (a template string, or chat messages as an array / JSON text),
 *   `factuality` (`{ subset, superset, agree, disagree, differButFactual }` scores), `labels` (classifier).
 * - `ctx.judge`: a `JudgeModel` or a model name; absent = the configured default judge.
 *
 * A judge that fails (HTTP, timeout, a reply that never fits the schema) rejects with the judge's typed
 * error: a runner reports the assertion as errored, never as a made-up 0.
 */
import { resolveJudge } from "../defaults.js";
import { JudgeInputError } from "../errors.js";
import type { JudgeMessage, JudgeModel } from "../model.js";
import { CHOICE_SCORES, PROMPTS } from "../autoevals/classifiers.js";
import { selectChoice } from "../autoevals/classifier.js";
import { renderTemplate, renderValue } from "../autoevals/template.js";
import { validateReply } from "../deepeval/judge-metric.js";
import { z } from "zod";
import { zodSchema } from "../schema.js";

/** promptfoo's factuality scores of the five categories (`options.factuality`; default 1, 1, 1, 0, 1). */
export interface FactualityScores {
  readonly subset?: number;
  readonly superset?: number;
  readonly agree?: number;
  readonly disagree?: number;
  readonly differButFactual?: number;
}

export interface ModelGradedOptions {
  /** A custom grading prompt: a template (`{{output}}`, `{{rubric}}`, vars...) or chat messages (an array or its JSON text). */
  readonly rubricPrompt?: string | readonly { role: string; content: string }[] | Readonly<Record<string, unknown>>;
  readonly factuality?: FactualityScores;
  /** classifier: the labels the judge chooses from. Default: `[value, "other"]`. */
  readonly labels?: readonly string[];
}

export interface GraderContext {
  readonly output: unknown;
  readonly value?: unknown;
  readonly expected?: unknown;
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly prompt?: string;
  readonly outputs?: readonly unknown[];
  readonly outputIndex?: number;
  readonly threshold?: number;
  readonly inverse?: boolean;
  readonly options?: ModelGradedOptions;
  readonly judge?: JudgeModel | string;
  readonly signal?: AbortSignal;
}

export interface GraderResult {
  readonly pass: boolean;
  readonly score: number;
  readonly reason: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export type Grader = (ctx: GraderContext) => Promise<GraderResult>;

export type ModelGradedAssertionType = "llm-rubric" | "model-graded-closedqa" | "factuality" | "select-best" | "classifier";

const text = (value: unknown): string => renderValue(value);
const valueOf = (ctx: GraderContext): unknown => ctx.value ?? ctx.expected;

function check(ctx: unknown, type: string): asserts ctx is GraderContext {
  if (typeof ctx !== "object" || ctx === null) throw new JudgeInputError(`${type}: the context must be an object`, { argument: "ctx" });
}

function judgeOf(ctx: GraderContext, type: string): JudgeModel {
  return resolveJudge(ctx.judge, type);
}

function question(ctx: GraderContext): string {
  return ctx.prompt ?? text(ctx.vars?.input ?? ctx.vars?.question ?? "");
}

/** Chat messages of a custom rubric prompt: a message list (array, object or JSON text) rendered field by field, else one user message. */
function customMessages(rubricPrompt: NonNullable<ModelGradedOptions["rubricPrompt"]>, vars: Record<string, unknown>): JudgeMessage[] {
  let parsed: unknown = rubricPrompt;
  if (typeof rubricPrompt === "string") {
    try {
      parsed = JSON.parse(rubricPrompt);
    } catch {
      return [{ role: "user", content: renderTemplate(rubricPrompt, vars) }];
    }
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const isMessage = (m: unknown): m is { role: string; content: string } =>
    typeof m === "object" &&
    m !== null &&
    typeof (m as { role?: unknown }).role === "string" &&
    typeof (m as { content?: unknown }).content === "string";
  if (list.length > 0 && list.every(isMessage)) {
    return list.map((m: { role: string; content: string }) => ({
      role: m.role === "system" || m.role === "assistant" ? m.role : "user",
      content: renderTemplate(m.content, vars),
    }));
  }
  // promptfoo stringifies any other object and renders it as text
  return [{ role: "user", content: renderTemplate(typeof rubricPrompt === "string" ? rubricPrompt : JSON.stringify(rubricPrompt), vars) }];
}

/** The custom rubric prompt's messages, else `template` as one user message. */
function gradingMessages(ctx: GraderContext, template: string, vars: Record<string, unknown>): JudgeMessage[] {
  const custom = ctx.options?.rubricPrompt;
  return custom ? customMessages(custom, vars) : [{ role: "user", content: renderTemplate(template, vars) }];
}

/** Template variables with objects as JSON text, as promptfoo hands them to nunjucks. */
function templateVars(base: Record<string, unknown>, vars: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...base, ...(vars ?? {}) })) out[k] = typeof v === "object" && v !== null ? JSON.stringify(v) : v;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// llm-rubric
// ---------------------------------------------------------------------------------------------------

const RubricVerdict = zodSchema("rubric_verdict", z.object({ reason: z.string(), pass: z.boolean(), score: z.number() }));

const RUBRIC_PROMPT = `Grade an output against a rubric.

<output>
{{output}}
</output>
<rubric>
{{rubric}}
</rubric>

Decide whether the output satisfies the rubric. Reply with a short reason, "pass" (true or false) and a
"score" from 0.0 (does not satisfy it at all) to 1.0 (satisfies it fully).`;

/**
 * `llm-rubric`: the judge grades `output` against the rubric `value` and replies `{ reason, pass, score }`.
 * With a `threshold`, pass also needs `score >= threshold`. Inverse: pass flips and the score becomes
 * `1 - score` clamped to [0, 1] (a non-finite score counting as 0).
 */
async function llmRubric(ctx: GraderContext): Promise<GraderResult> {
  check(ctx, "llm-rubric");
  const rubric = valueOf(ctx);
  if (rubric !== undefined && typeof rubric !== "string" && typeof rubric !== "object") {
    const message = '"llm-rubric" assertion type must have a string or object value';
    throw new JudgeInputError(message, { argument: "value", actual: typeof rubric });
  }
  const vars = templateVars({ output: text(ctx.output), rubric: rubric ?? "" }, ctx.vars);
  const messages = gradingMessages(ctx, RUBRIC_PROMPT, vars);
  const signal = ctx.signal ? { signal: ctx.signal } : {};
  const reply = await judgeOf(ctx, "llm-rubric").generate({ messages, schema: RubricVerdict, metric: "llm-rubric", ...signal });
  const verdict = await validateReply(RubricVerdict, reply.value);
  let { pass } = verdict;
  const { score } = verdict;
  const threshold = ctx.threshold;
  if (typeof threshold === "number" && Number.isFinite(threshold)) pass = pass && score >= threshold;
  const reason = verdict.reason || (pass ? "Grading passed" : `Score ${score} below threshold ${threshold}`);
  if (!ctx.inverse) return { pass, score, reason };
  return { pass: !pass, score: Math.min(1, Math.max(0, 1 - (Number.isFinite(score) ? score : 0))), reason };
}

// ---------------------------------------------------------------------------------------------------
// factuality and model-graded-closedqa: autoevals' classifiers with promptfoo's scoring
// ---------------------------------------------------------------------------------------------------

const FACTUALITY_KEYS = { A: "subset", B: "superset", C: "agree", D: "disagree", E: "differButFactual" } as const;
const FACTUALITY_DEFAULTS = { A: 1, B: 1, C: 1, D: 0, E: 1 } as const;

/** promptfoo's category → score table, with `options.factuality` overrides. */
export function factualityScores(options: FactualityScores = {}): Record<"A" | "B" | "C" | "D" | "E", number> {
  const out = { ...FACTUALITY_DEFAULTS } as Record<"A" | "B" | "C" | "D" | "E", number>;
  for (const [letter, key] of Object.entries(FACTUALITY_KEYS) as ["A" | "B" | "C" | "D" | "E", keyof FactualityScores][]) {
    const v = options[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new JudgeInputError(`factuality.${key} must be a finite number`, { argument: `options.factuality.${key}` });
    }
    out[letter] = v;
  }
  return out;
}

function flip(result: GraderResult, inverse: boolean | undefined): GraderResult {
  return inverse ? { ...result, pass: !result.pass, score: 1 - result.score } : result;
}

/**
 * `factuality`: the judge places `output` against the reference `value` in one of autoevals' five
 * categories; the score is promptfoo's table (A subset 1, B superset 1, C agree 1, D disagree 0,
 * E differ-but-factual 1, each overridable by `options.factuality`); pass when the category's score is > 0.
 */
async function factuality(ctx: GraderContext): Promise<GraderResult> {
  check(ctx, "factuality");
  const expected = valueOf(ctx);
  if (typeof expected !== "string") throw new JudgeInputError("factuality assertion type must have a string value", { argument: "value" });
  const table = factualityScores(ctx.options?.factuality);
  const output = text(ctx.output);
  const vars = templateVars({ input: question(ctx), expected, output, ideal: expected, completion: output }, ctx.vars);
  const prompt = ctx.options?.rubricPrompt ? customPromptText(ctx.options.rubricPrompt, vars) : renderTemplate(PROMPTS.Factuality, vars);
  const selection = await selectChoice(judgeOf(ctx, "factuality"), prompt, Object.keys(CHOICE_SCORES.Factuality), {
    useCoT: true,
    metric: "factuality",
    signal: ctx.signal,
  });
  const option = selection.choice as keyof typeof table;
  const score = table[option];
  return flip({ pass: score > 0, score, reason: selection.reasons ?? `Category ${option}`, metadata: { choice: option } }, ctx.inverse);
}

/** A custom rubric prompt as one text (the classification instruction is appended to it). */
function customPromptText(rubricPrompt: NonNullable<ModelGradedOptions["rubricPrompt"]>, vars: Record<string, unknown>): string {
  return customMessages(rubricPrompt, vars)
    .map((m) => m.content)
    .join("\n\n");
}

/**
 * `model-graded-closedqa`: does `output` meet the criterion `value` for the task (`prompt`)? The judge
 * selects Y or N (autoevals' ClosedQA); Y passes with score 1, N fails with 0.
 */
async function closedQa(ctx: GraderContext): Promise<GraderResult> {
  check(ctx, "model-graded-closedqa");
  const criteria = valueOf(ctx);
  if (typeof criteria !== "string") {
    throw new JudgeInputError("model-graded-closedqa assertion type must have a string value", { argument: "value" });
  }
  const vars = templateVars({ input: question(ctx), criteria, output: text(ctx.output), completion: text(ctx.output) }, ctx.vars);
  const prompt = ctx.options?.rubricPrompt ? customPromptText(ctx.options.rubricPrompt, vars) : renderTemplate(PROMPTS.ClosedQA, vars);
  const selection = await selectChoice(judgeOf(ctx, "model-graded-closedqa"), prompt, ["Y", "N"], {
    useCoT: true,
    metric: "model-graded-closedqa",
    signal: ctx.signal,
  });
  const pass = selection.choice === "Y";
  const why = selection.reasons ?? "";
  const reason = pass ? `The submission meets the criterion:\n${why}` : `The submission does not meet the criterion:\n${why}`;
  return flip({ pass, score: pass ? 1 : 0, reason, metadata: { choice: selection.choice } }, ctx.inverse);
}

// ---------------------------------------------------------------------------------------------------
// select-best
// ---------------------------------------------------------------------------------------------------

const SELECT_BEST_PROMPT = `Several outputs were produced for the same request. Pick the one that best meets the criterion.

<criterion>
{{criteria}}
</criterion>

{{candidates}}

Reply with a short reason and the index of the best output.`;

/**
 * `select-best` over every output at once: the judge picks the index of the output that best meets the
 * criterion `value`; that output passes with score 1, every other fails with 0 (promptfoo's rule). Needs
 * at least two outputs.
 */
export async function selectBest(ctx: GraderContext): Promise<GraderResult[]> {
  check(ctx, "select-best");
  const outputs = ctx.outputs;
  if (!Array.isArray(outputs) || outputs.length < 2) {
    throw new JudgeInputError("select-best assertion must have at least two outputs to compare between", { argument: "outputs" });
  }
  const criteria = text(valueOf(ctx));
  const candidates = outputs.map((o, i) => `<output index="${i}">\n${text(o)}\n</output>`).join("\n");
  const vars = templateVars({ criteria, candidates, outputs: outputs.map(text) }, ctx.vars);
  const messages = gradingMessages(ctx, SELECT_BEST_PROMPT, vars);
  const schema = zodSchema(
    "best_output",
    z.object({
      reason: z.string(),
      index: z
        .number()
        .int()
        .min(0)
        .max(outputs.length - 1),
    }),
  );
  const signal = ctx.signal ? { signal: ctx.signal } : {};
  const reply = await judgeOf(ctx, "select-best").generate({ messages, schema, metric: "select-best", ...signal });
  const { index, reason } = await validateReply(schema, reply.value);
  return outputs.map((_, i) => ({
    pass: i === index,
    score: i === index ? 1 : 0,
    reason: i === index ? `Output selected as the best: ${criteria}` : `Output not selected: ${criteria}`,
    metadata: { selected: index, judgeReason: reason },
  }));
}

async function selectBestOne(ctx: GraderContext): Promise<GraderResult> {
  check(ctx, "select-best");
  const results = await selectBest(ctx);
  const index = ctx.outputIndex ?? (ctx.outputs ?? []).indexOf(ctx.output);
  const result = results[index];
  if (!Number.isInteger(index) || result === undefined) {
    throw new JudgeInputError("select-best: ctx.output is not one of ctx.outputs (give ctx.outputIndex)", { argument: "outputIndex" });
  }
  return flip(result, ctx.inverse);
}

// ---------------------------------------------------------------------------------------------------
// classifier
// ---------------------------------------------------------------------------------------------------

/**
 * `classifier`, zero-shot over the judge: the judge picks one of `options.labels` (default
 * `[value, "other"]`) for `output`; the classification is 1 for that label and 0 for the others. Score:
 * the expected label's (`value`), or the highest when no label is expected; pass when
 * `score >= threshold - Number.EPSILON` (threshold default 1). Inverse: pass flips, score `1 - score`.
 */
async function classifier(ctx: GraderContext): Promise<GraderResult> {
  check(ctx, "classifier");
  const expected = valueOf(ctx);
  if (expected !== undefined && typeof expected !== "string") {
    throw new JudgeInputError('"classifier" assertion type must have a string value or be undefined', { argument: "value" });
  }
  const labels = ctx.options?.labels ?? (expected !== undefined ? [expected, "other"] : undefined);
  if (!Array.isArray(labels) || labels.length < 2 || !labels.every((l) => typeof l === "string" && l !== "")) {
    const message = "classifier needs options.labels (two or more label names) or an expected label as value";
    throw new JudgeInputError(message, { argument: "options.labels" });
  }
  const prompt = `Classify the following text. Choose the one label that fits it best.\n\n<text>\n${text(ctx.output)}\n</text>`;
  const options = { useCoT: true, metric: "classifier", signal: ctx.signal };
  const selection = await selectChoice(judgeOf(ctx, "classifier"), prompt, labels, options);
  const classification = Object.fromEntries(labels.map((l) => [l, l === selection.choice ? 1 : 0]));
  const threshold = ctx.threshold ?? 1;
  const score = expected === undefined ? 1 : (classification[expected] ?? 0);
  const pass = score >= threshold - Number.EPSILON;
  const reason =
    expected === undefined
      ? `Maximum classification score ${score.toFixed(2)} ${pass ? ">=" : "<"} ${threshold}`
      : `Classification ${expected} has score ${score.toFixed(2)} ${pass ? ">=" : "<"} ${threshold}`;
  const result = { pass, score, reason, metadata: { label: selection.choice, classification, rationale: selection.reasons } };
  return ctx.inverse ? { ...result, pass: !pass, score: 1 - score } : result;
}

/** The model-graded assertion types of promptfoo that evalkern grades with its judge. */
export const MODEL_GRADED_ASSERTIONS: Readonly<Record<ModelGradedAssertionType, Grader>> = Object.freeze({
  "llm-rubric": llmRubric,
  "model-graded-closedqa": closedQa,
  factuality,
  "select-best": selectBestOne,
  classifier,
});
