// Rule group "evalwire-regex" (see ../rules.ts): evalwire's regex_match, the one evalwire rule that runs
// the Python `re` port (python/regex.ts with re2js).
import { makeRegexEvaluator } from "../../evalwire/regex-evaluators.js";
import { evaluator, expected } from "./evalwire.js";

export function evalwireRegex(hypothesis: string, references: readonly string[]): boolean | number {
  return evaluator("regex", makeRegexEvaluator)(hypothesis, expected(references));
}
