// The assertion dispatcher of suite files. A type name (after an optional `not-` prefix) resolves, in this
// order, to a promptfoo model-graded type (@evalkern/judge's `modelGradedAssertion`), a rule metric of the
// @evalkern/metrics registry (promptfoo's deterministic types are registry rules under promptfoo's names,
// beside bleu, rougeL, f1...), or a judge metric of @evalkern/judge/registry (faithfulness, g-eval...).
// Nothing here lists type names: a type added to one of the three registries works in suites at once.
import { modelGradedAssertion, listModelGradedAssertions, type JudgeModel, type ModelGradedAssertion } from "@evalkern/judge";
import { createJudgeMetric, findJudgeMetric, listJudgeMetrics, type JudgeCase } from "@evalkern/judge/registry";
import { didYouMean, findMetric, listMetrics, loadMetrics, pairScore, ready } from "@evalkern/metrics/registry";
import { renderTemplate } from "./template.js";
import type { AssertionOutcome, SuiteAssertion } from "./types.js";

/** What a type name resolves to. */
export type AssertionKind =
  | { readonly kind: "model-graded"; readonly name: string; readonly fn: ModelGradedAssertion }
  | { readonly kind: "rule"; readonly name: string }
  | { readonly kind: "judge"; readonly name: string };

export interface ResolvedType {
  /** The `not-` prefix: pass and score are inverted. */
  readonly inverse: boolean;
  readonly base: string;
  readonly resolved: AssertionKind;
}

/** The type `type` resolves to, or undefined when no registry knows it. */
export function resolveAssertionType(type: string): ResolvedType | undefined {
  const inverse = type.startsWith("not-");
  const base = inverse ? type.slice(4) : type;
  const graded = modelGradedAssertion(base);
  if (graded) return { inverse, base, resolved: { kind: "model-graded", name: base, fn: graded } };
  const rule = findMetric(base);
  if (rule) return { inverse, base, resolved: { kind: "rule", name: rule.name } };
  const judge = findJudgeMetric(base);
  if (judge) return { inverse, base, resolved: { kind: "judge", name: judge.name } };
  return undefined;
}

/** Every type name a suite may use (without `not-`): model-graded types, rule metrics, judge metrics. */
export function knownAssertionTypes(): string[] {
  return [...listModelGradedAssertions(), ...listMetrics().map((m) => m.name), ...listJudgeMetrics().map((m) => m.name)];
}

/** The message of an unknown type, with the closest known name. */
export function unknownTypeMessage(type: string): string {
  const base = type.startsWith("not-") ? type.slice(4) : type;
  const hint = didYouMean(base, knownAssertionTypes());
  return (
    `unknown assertion type ${JSON.stringify(type)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}; ` +
    "a type is a promptfoo assertion type, a metric of `evalkern metrics`, or a judge metric"
  );
}

/** Whether evaluating `type` calls a judge model. */
export function typeNeedsJudge(type: string): boolean {
  const r = resolveAssertionType(type);
  return r !== undefined && r.resolved.kind !== "rule";
}

export interface AssertionContext {
  readonly output: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly prompt?: string;
  readonly judge?: JudgeModel;
  readonly signal?: AbortSignal;
}

/** String values (and strings in lists) rendered with the vars, as promptfoo renders assertion values. */
function renderValue(value: unknown, vars: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === "string") return renderTemplate(value, vars);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? renderTemplate(v, vars) : v));
  return value;
}

/** A rule metric's references from an assertion value: a string, a list, or any other value as JSON. */
function references(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return [typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)];
}

function list(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  return Array.isArray(value)
    ? value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)))
    : [typeof value === "string" ? value : JSON.stringify(value)];
}

function firstText(...values: unknown[]): string | null {
  for (const v of values) if (v !== undefined && v !== null) return typeof v === "string" ? v : JSON.stringify(v);
  return null;
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

type Graded = { pass: boolean; score: number; value?: number | null; reason: string };

async function gradeRule(name: string, a: SuiteAssertion, value: unknown, ctx: AssertionContext): Promise<Graded> {
  await Promise.all([ready(), loadMetrics([name])]);
  const r = pairScore(name, ctx.output, references(value), a.config ?? {});
  if (!Number.isFinite(r.score)) throw new Error(`${name} gave ${r.value} for this output (not a score)`);
  const higher = r.metric.higherIsBetter;
  const threshold = a.threshold ?? (higher ? 1 : 0);
  const pass = higher ? r.score >= threshold : r.score <= threshold;
  const cmp = higher ? (pass ? "≥" : "<") : pass ? "≤" : ">";
  return { pass, score: higher ? r.score : pass ? 1 : 0, value: r.value, reason: `${name} ${fmt(r.score)} ${cmp} ${threshold}` };
}

async function gradeJudge(name: string, a: SuiteAssertion, value: unknown, ctx: AssertionContext): Promise<Graded> {
  const options = { ...(a.config ?? {}), ...(a.threshold !== undefined ? { threshold: a.threshold } : {}) };
  const measurer = await createJudgeMetric(name, ctx.judge!, options);
  const v = ctx.vars;
  const testCase: JudgeCase = {
    input: firstText(v.input, v.query, v.question, ctx.prompt) ?? "",
    actualOutput: ctx.output,
    expectedOutput: firstText(value, v.expected_output, v.expectedOutput, v.expected),
    context: list(v.context),
    retrievalContext: list(v.retrieval_context ?? v.retrievalContext ?? v.context),
  };
  const m = await measurer.measure(testCase, ctx.signal ? { signal: ctx.signal } : {});
  if (m.score === null || !Number.isFinite(m.score)) throw new Error(`${name} gave no score${m.reason ? ` (${m.reason})` : ""}`);
  const threshold = measurer.threshold ?? 0.5;
  const higher = findJudgeMetric(name)!.higherIsBetter;
  const pass = m.success ?? (higher ? m.score >= threshold : m.score <= threshold);
  return {
    pass,
    score: higher ? m.score : 1 - m.score,
    value: m.score,
    reason: `${name} ${fmt(m.score)} (threshold ${threshold})${m.reason ? `: ${m.reason}` : ""}`,
  };
}

async function grade(r: ResolvedType, a: SuiteAssertion, ctx: AssertionContext): Promise<Graded> {
  const value = renderValue(a.value, ctx.vars);
  const k = r.resolved;
  if (k.kind === "rule") return gradeRule(k.name, a, value, ctx);
  if (!ctx.judge) throw new Error(`${a.type} needs a judge model (none is configured)`);
  if (k.kind === "judge") return gradeJudge(k.name, a, value, ctx);
  const g = await k.fn({
    output: ctx.output,
    value,
    expected: value,
    vars: ctx.vars,
    ...(a.threshold !== undefined ? { threshold: a.threshold } : {}),
    ...(a.config ? { config: a.config } : {}),
    ...(ctx.prompt !== undefined ? { prompt: ctx.prompt } : {}),
    inverse: r.inverse,
    judge: ctx.judge,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  return { pass: g.pass, score: g.score, reason: g.reason };
}

/**
 * Evaluate one assertion on an output. The `not-` prefix inverts pass and score (promptfoo); weight 0
 * reports the result but never fails. A failure to evaluate (a judge call that failed) is an outcome with
 * `error` and no pass, never a made-up score.
 */
export async function evaluateAssertion(a: SuiteAssertion, ctx: AssertionContext): Promise<AssertionOutcome> {
  const weight = a.weight ?? 1;
  const common = {
    type: a.type,
    weight,
    ...(a.threshold !== undefined ? { threshold: a.threshold } : {}),
    ...(a.metric ? { metric: a.metric } : {}),
  };
  const r = resolveAssertionType(a.type);
  if (!r) return { ...common, pass: false, score: 0, reason: unknownTypeMessage(a.type), error: unknownTypeMessage(a.type) };
  try {
    const g = await grade(r, a, ctx);
    // a model-graded type applies `not-` itself, as promptfoo does for that type; the others are inverted here
    const invert = r.inverse && r.resolved.kind !== "model-graded";
    const pass = invert ? !g.pass : g.pass;
    const score = invert ? 1 - g.score : g.score;
    const reason = r.inverse ? `not: ${g.reason}` : g.reason;
    return { ...common, pass: pass || weight === 0, score, ...(g.value !== undefined ? { value: g.value } : {}), reason };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ...common, pass: false, score: 0, reason: `error: ${message}`, error: message };
  }
}
