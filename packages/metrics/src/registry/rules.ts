// The pair-callable rule metrics of DSPy, NeMo BYOB, evalwire and autoevals that bulk scoring offers:
// each is a function of (hypothesis, references) (the wrappers below adapt the ones whose own signature
// is not), run row by row. Their specs are `{ metric: "module" }` specs naming a public subpath of
// @evalkern/metrics, so a worker thread can build them by name; `create` builds them in process.
//
// Every wrapper is synchronous; evaluators are constructed once per option set, not once per row.
import { bleu as byobBleu, booleanYesno, chrf as byobChrf, contains, exactMatch, f1Token, gsm8kAnswer, mcqLetterExtract, regexMatch, rouge as byobRouge } from "../byob/index.js";
import { JSONDiff } from "../common/json-diff.js";
import { numericDiff as commonNumericDiff } from "../common/numeric-diff.js";
import { answerExactMatch as dspyAnswerExactMatch, answerPassageMatch as dspyAnswerPassageMatch } from "../dspy/answer-match.js";
import {
  makeContainsEvaluator,
  makeExactMatchEvaluator,
  makeJsonMatchEvaluator,
  makeMembershipEvaluator,
  makeNumericToleranceEvaluator,
  makeRegexEvaluator,
  type Evaluator,
} from "../evalwire/evaluators.js";
import { callableMetric, type RuleFunction } from "./callable.js";
import type { LexicalMetric, MetricFamily, MetricSpecJson } from "./contract.js";
import type { OptionSchemas } from "./options.js";

type Options = Readonly<Record<string, unknown>>;

/** DSPy `answer_exact_match`: EM against every reference, or token-F1 ≥ `frac` when `frac` < 1. */
export function answerExactMatch(hypothesis: string, references: readonly string[], options: Options = {}): boolean {
  const frac = options.frac === undefined ? 1.0 : Number(options.frac);
  return dspyAnswerExactMatch({ answer: [...references] }, { answer: hypothesis }, undefined, frac);
}

/** DSPy `answer_passage_match`: does any reference answer occur in the hypothesis taken as a passage? */
export function answerPassageMatch(hypothesis: string, references: readonly string[]): boolean {
  return dspyAnswerPassageMatch({ answer: [...references] }, { context: [hypothesis] });
}

const evaluators = new Map<string, Evaluator<number | boolean>>();

function evaluator(key: string, make: () => Evaluator<number | boolean>): Evaluator<number | boolean> {
  let e = evaluators.get(key);
  if (!e) {
    e = make();
    evaluators.set(key, e);
  }
  return e;
}

/** evalwire evaluators see the references as `expected_output` (a list: the first item is the one most compare with). */
const expected = (references: readonly string[]) => ({ expected_output: [...references] });

export function evalwireExactMatch(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("exact", makeExactMatchEvaluator)(hypothesis, expected(references));
}
export function evalwireContains(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("contains", makeContainsEvaluator)(hypothesis, expected(references));
}
export function evalwireMembership(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("membership", makeMembershipEvaluator)(hypothesis, expected(references));
}
export function evalwireRegex(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("regex", makeRegexEvaluator)(hypothesis, expected(references));
}
export function evalwireJsonMatch(hypothesis: string, references: readonly string[], options: Options = {}): boolean | number {
  const keys = options.keys === undefined ? null : (Array.isArray(options.keys) ? options.keys : [options.keys]).map(String);
  return evaluator(`json:${JSON.stringify(keys)}`, () => makeJsonMatchEvaluator(keys))(hypothesis, expected(references));
}
export function evalwireNumericTolerance(hypothesis: string, references: readonly string[], options: Options = {}): boolean | number {
  const atol = options.atol === undefined ? 1e-6 : Number(options.atol);
  const rtol = options.rtol === undefined ? 0 : Number(options.rtol);
  return evaluator(`numeric:${atol}:${rtol}`, () => makeNumericToleranceEvaluator(atol, rtol))(hypothesis, expected(references));
}

function parseNumber(text: string, what: string): number {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value)) throw new Error(`${what} is not a number: ${JSON.stringify(text.slice(0, 40))}`);
  return value;
}

/** autoevals `NumericDiff` between the hypothesis and the best reference, both read as numbers. */
export function numericDiff(hypothesis: string, references: readonly string[]): number {
  const h = parseNumber(hypothesis, "hypothesis");
  let best = -Infinity;
  for (const r of references) best = Math.max(best, commonNumericDiff(h, parseNumber(r, "reference")));
  return best;
}

function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** autoevals `JSONDiff` between the hypothesis and the best reference (each parsed as JSON when it is JSON). */
export function jsonDiff(hypothesis: string, references: readonly string[]): number {
  const output = jsonValue(hypothesis);
  let best = -Infinity;
  for (const r of references) best = Math.max(best, JSONDiff({ output, expected: jsonValue(r) }).score ?? 0);
  return best;
}

/** The version recorded in the signatures of the rule metrics below. */
export const RULES_VERSION = "@evalkern/metrics@0.1.0";

/** Where a rule function lives publicly, and how it is called. */
export interface RuleTarget {
  readonly module: string;
  readonly export: string;
  readonly call: "pair" | "batch" | "byob";
  readonly columns?: readonly string[];
}

/**
 * A rule metric from a function of (hypothesis, references): its specs are module specs naming `target`
 * (so worker threads can import it by name); `fn` is the same function, for building it in process.
 */
export function ruleMetric(init: {
  name: string;
  family: MetricFamily;
  description: string;
  target: RuleTarget;
  fn: RuleFunction;
  options?: OptionSchemas;
  headline?: string;
  aliases?: readonly string[];
}): LexicalMetric & { readonly target: RuleTarget; readonly fn: RuleFunction } {
  const { target } = init;
  return {
    name: init.name,
    ...(init.aliases ? { aliases: init.aliases } : {}),
    family: init.family,
    description: init.description,
    options: init.options ?? {},
    scale: 1,
    higherIsBetter: true,
    ...(init.headline ? { headline: init.headline } : {}),
    target,
    fn: init.fn,
    spec: (options, name): MetricSpecJson => ({
      metric: "module",
      name,
      module: target.module,
      export: target.export,
      call: target.call,
      ...(target.columns ? { columns: target.columns } : {}),
      options: { ...options },
      version: RULES_VERSION,
    }),
    create: (spec) => callableMetric(spec, init.fn, { metric: init.name, ...(init.headline ? { headline: init.headline } : {}) }),
  };
}

const REGISTRY = "@evalkern/metrics/registry";
const BYOB = "@evalkern/metrics/byob";
const pair = (exportName: string) => ({ module: REGISTRY, export: exportName, call: "pair" as const });
const byob = (exportName: string, columns: readonly string[]) => ({ module: BYOB, export: exportName, call: "byob" as const, columns });

/** The pair-callable rule metrics, in help order. */
export const RULE_METRICS = [
  ruleMetric({
    name: "answer-exact-match",
    family: "dspy",
    description: "DSPy answer_exact_match (frac < 1: token F1 ≥ frac)",
    target: pair("answerExactMatch"),
    fn: answerExactMatch,
    options: { frac: { type: "number", default: 1, help: "number in (0, 1] (default 1)" } },
  }),
  ruleMetric({ name: "answer-passage-match", family: "dspy", description: "DSPy answer_passage_match (a reference occurs in the hypothesis as a passage)", target: pair("answerPassageMatch"), fn: answerPassageMatch }),
  ruleMetric({ name: "byob-exact-match", family: "nemo-byob", description: "NeMo BYOB exact_match (first reference as target)", target: byob("exactMatch", ["correct"]), fn: exactMatch }),
  ruleMetric({ name: "byob-contains", family: "nemo-byob", description: "NeMo BYOB contains", target: byob("contains", ["correct"]), fn: contains }),
  ruleMetric({ name: "byob-f1", family: "nemo-byob", description: "NeMo BYOB f1_token (f1, precision, recall)", target: byob("f1Token", ["f1", "precision", "recall"]), fn: f1Token, headline: "f1" }),
  ruleMetric({ name: "byob-regex", family: "nemo-byob", description: "NeMo BYOB regex_match (the reference is the pattern)", target: byob("regexMatch", ["correct"]), fn: regexMatch }),
  ruleMetric({ name: "byob-bleu", family: "nemo-byob", description: "NeMo BYOB bleu (bleu_1..bleu_4)", target: byob("bleu", ["bleu_1", "bleu_2", "bleu_3", "bleu_4"]), fn: byobBleu, headline: "bleu_4" }),
  ruleMetric({ name: "byob-rouge", family: "nemo-byob", description: "NeMo BYOB rouge (rouge_1, rouge_2, rouge_l)", target: byob("rouge", ["rouge_1", "rouge_2", "rouge_l"]), fn: byobRouge, headline: "rouge_l" }),
  ruleMetric({ name: "byob-chrf", family: "nemo-byob", description: "NeMo BYOB chrf (chrf, chrf_pp)", target: byob("chrf", ["chrf", "chrf_pp"]), fn: byobChrf, headline: "chrf" }),
  ruleMetric({ name: "mcq-letter", family: "nemo-byob", description: "NeMo BYOB mcq_letter_extract (correct, parsed)", target: byob("mcqLetterExtract", ["correct", "parsed"]), fn: mcqLetterExtract, headline: "correct" }),
  ruleMetric({ name: "gsm8k", family: "nemo-byob", description: "NeMo BYOB gsm8k_answer (correct, parsed)", target: byob("gsm8kAnswer", ["correct", "parsed"]), fn: gsm8kAnswer, headline: "correct" }),
  ruleMetric({ name: "yes-no", family: "nemo-byob", description: "NeMo BYOB boolean_yesno (correct, parsed)", target: byob("booleanYesno", ["correct", "parsed"]), fn: booleanYesno, headline: "correct" }),
  ruleMetric({ name: "evalwire-exact-match", family: "evalwire", description: "evalwire exact_match (first reference, Python equality)", target: pair("evalwireExactMatch"), fn: evalwireExactMatch }),
  ruleMetric({ name: "evalwire-contains", family: "evalwire", description: "evalwire contains (first reference in the hypothesis)", target: pair("evalwireContains"), fn: evalwireContains }),
  ruleMetric({ name: "evalwire-membership", family: "evalwire", description: "evalwire is_in (the hypothesis is one of the references)", target: pair("evalwireMembership"), fn: evalwireMembership }),
  ruleMetric({ name: "evalwire-regex", family: "evalwire", description: "evalwire regex_match (first reference as a Python regex)", target: pair("evalwireRegex"), fn: evalwireRegex }),
  ruleMetric({
    name: "evalwire-json-match",
    family: "evalwire",
    description: "evalwire json_match (share of matching keys)",
    target: pair("evalwireJsonMatch"),
    fn: evalwireJsonMatch,
    options: { keys: { type: "string[]", help: "list of keys (default: the reference's keys)" } },
  }),
  ruleMetric({
    name: "evalwire-numeric",
    family: "evalwire",
    description: "evalwire numeric_close (|h − r| ≤ atol + rtol·|r|)",
    target: pair("evalwireNumericTolerance"),
    fn: evalwireNumericTolerance,
    options: { atol: { type: "number", default: 1e-6, help: "number (default 1e-6)" }, rtol: { type: "number", default: 0, help: "number (default 0)" } },
  }),
  ruleMetric({ name: "numeric-diff", family: "autoevals", description: "autoevals NumericDiff (hypothesis and references read as numbers)", target: pair("numericDiff"), fn: numericDiff }),
  ruleMetric({ name: "json-diff", family: "autoevals", description: "autoevals JSONDiff (hypothesis and references parsed as JSON)", target: pair("jsonDiff"), fn: jsonDiff }),
] as const;
