// Rule group "evalwire" (see ../rules.ts): evalwire's evaluators that need no regular expression. They
// read the references with Python's `ast.literal_eval` (python/literal.ts, and the Unicode name table
// behind `\N{...}`), so this group loads those; the Python `re` port loads with "evalwire-regex" only.
import {
  makeContainsEvaluator,
  makeExactMatchEvaluator,
  makeJsonMatchEvaluator,
  makeMembershipEvaluator,
  makeNumericToleranceEvaluator,
  type Evaluator,
} from "../../evalwire/evaluators.js";

type Options = Readonly<Record<string, unknown>>;

const evaluators = new Map<string, Evaluator<number | boolean>>();

/** The evaluator of `key`, made once per option set (not once per row). */
export function evaluator(key: string, make: () => Evaluator<number | boolean>): Evaluator<number | boolean> {
  let e = evaluators.get(key);
  if (!e) {
    e = make();
    evaluators.set(key, e);
  }
  return e;
}

/** evalwire evaluators see the references as `expected_output` (a list: the first item is the one most compare with). */
export const expected = (references: readonly string[]) => ({ expected_output: [...references] });

export function evalwireExactMatch(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("exact", makeExactMatchEvaluator)(hypothesis, expected(references));
}
export function evalwireContains(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("contains", makeContainsEvaluator)(hypothesis, expected(references));
}
export function evalwireMembership(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("membership", makeMembershipEvaluator)(hypothesis, expected(references));
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
