// @evalkern/metrics/evalwire: the rule-based evaluators of evalwire 0.6.0, with the original's
// exact numbers and errors (see README-evalwire.md).
export {
  makeContainsEvaluator,
  makeExactMatchEvaluator,
  makeJsonMatchEvaluator,
  makeMembershipEvaluator,
  makeNumericToleranceEvaluator,
  makeTopKEvaluator,
  parseExpected,
  type Evaluator,
  type ParseExpectedOptions,
} from "./evaluators.js";
export { makeRegexEvaluator, makeSchemaEvaluator } from "./regex-evaluators.js";
export { compilePythonSchema, type SchemaDialect, type SchemaEvaluatorOptions } from "./schema.js";
export { pyJsonLoads, type JsonLoadsOptions } from "./python-json.js";
export {
  PY_ELLIPSIS,
  PyBytes,
  PyComplex,
  PyDict,
  PyEllipsis,
  PySet,
  PyTuple,
  pyEquals,
  pyTypeName,
  type PyStrDict,
  type PyValue,
} from "../python/equality.js";
export { literalEval, type LiteralEvalOptions } from "../python/literal.js";
export { PythonCompatError } from "../errors.js";
export { PythonRegexError, RegexBudgetExceededError } from "../python/regex.js";
