/**
 * `@evalkern/metrics/registry/rules`: DSPy, evalwire and autoevals rule metrics whose own signature is not
 * `(hypothesis, references, options)`, wrapped so that it is — the functions the registry's rule specs
 * name (`{ metric: "module", module: "@evalkern/metrics/registry/rules", export, call: "pair" }`). The
 * registry loads this module on first use (`loadMetrics`), so importing the registry stays light.
 *
 * Every wrapper is synchronous; evaluators are constructed once per option set, not once per row.
 */
import { ExactMatch } from "../common/exact-match.js";
import { InvalidArgumentError } from "../errors.js";
import { JSONDiff } from "../common/json-diff.js";
import { validJson as commonValidJson } from "../common/valid-json.js";
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


/** autoevals `ExactMatch` of the hypothesis against each reference (1 when any is the same text). */
export function autoevalsExactMatch(hypothesis: string, references: readonly string[]): number {
  let best = 0;
  for (const r of references) best = Math.max(best, ExactMatch({ output: hypothesis, expected: r }).score ?? 0);
  return best;
}

const parsedSchemas = new Map<string, unknown>();

/** The `schema` option (JSON text of a JSON Schema), parsed once per distinct text. */
function schemaOption(text: unknown): unknown {
  if (text === undefined) return undefined;
  const key = String(text);
  if (!parsedSchemas.has(key)) {
    try {
      parsedSchemas.set(key, JSON.parse(key));
    } catch (error) {
      throw new InvalidArgumentError(`valid-json: the schema option is not JSON text: ${(error as Error).message}`, { argument: "schema" });
    }
  }
  return parsedSchemas.get(key);
}

/** autoevals `ValidJSON` of the hypothesis (references unused), with an optional JSON Schema given as JSON text. */
export function validJson(hypothesis: string, _references: readonly string[], options: Options = {}): number {
  return commonValidJson(hypothesis, schemaOption(options.schema));
}
