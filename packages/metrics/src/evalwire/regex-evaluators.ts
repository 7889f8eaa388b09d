// evalwire 0.6.0's evaluators that run Python `re` (docs/spec/rule-metrics.md §3): `regex_match`, and the
// JSON Schema check whose `pattern`/`patternProperties` are Python `re.search`. They live apart from
// evaluators.ts so that the other evaluators load without the `re` port (python/regex.ts with re2js).
import { PythonCompatError } from "../errors.js";
import { PyBytes, pyTruthy, type PyValue } from "../python/equality.js";
import { compilePython } from "../python/regex.js";
import { caught, isNone, named, parseExpected, type Evaluator } from "./evaluators.js";
import { pyJsonLoads } from "./python-json.js";
import { compilePythonSchema, type SchemaEvaluatorOptions } from "./schema.js";

/** Bytes as a string of the code points 0-255 (no argument spread: a long literal would overflow the stack). */
function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}

/**
 * evalwire `make_regex_evaluator()` → `regex_match(output, expected) -> bool`:
 * `bool(re.search(items[0], output))` with Python `re` semantics (Unicode `\w`/`\d`/`\s`/`\b`,
 * `$` before a final newline), case-sensitive, no flags.
 *
 * Details: runs on the linear-time engine of src/python/regex.ts; backreferences, lookarounds and
 * the like use a backtracking matcher with a step budget that throws `RegexBudgetExceededError`
 * instead of hanging.
 *
 * Gotchas: a falsy first item (`""`, `0`, `None`) gives false; an invalid pattern throws
 * `re.error`; a non-string pattern or output throws `TypeError`.
 *
 * @example
 * makeRegexEvaluator()("order 1234", { expected_output: "'\\d+'" }); // true
 */
export function makeRegexEvaluator(): Evaluator<boolean> {
  return named((output: unknown, expected: unknown): boolean => {
    if (isNone(output)) return false;
    const items = parseExpected(expected);
    if (items.length === 0 || !pyTruthy(items[0])) return false;
    const pattern = items[0] as PyValue;
    if (pattern instanceof PyBytes) {
      // A bytes pattern compiles (ASCII classes), then cannot search a str.
      const compiled = compilePython(latin1(pattern.bytes), 256);
      if (output instanceof PyBytes) return compiled.test(latin1(output.bytes));
      throw new PythonCompatError("TypeError", "cannot use a bytes pattern on a string-like object");
    }
    if (typeof pattern !== "string") throw new PythonCompatError("TypeError", "first argument must be string or compiled pattern");
    const compiled = compilePython(pattern);
    if (typeof output !== "string") throw new PythonCompatError("TypeError", "expected string or bytes-like object");
    return compiled.test(output);
  }, "regex_match");
}

/**
 * evalwire `make_schema_evaluator(schema)` → `schema_valid(output, expected) -> bool`: whether
 * `json.loads(output)` is valid under `schema` with python-jsonschema's rules (`expected` is not
 * used). JSON Schema draft 7 and 2020-12 (see `SchemaEvaluatorOptions.dialect`).
 *
 * Gotchas: `format` is not checked (`"not an email"` passes `format: email`), `minLength` counts
 * code points, `0.07` is not a `multipleOf` 0.01, and `multipleOf` with a float divisor raises
 * `ValueError` for `NaN` and `OverflowError` for `Infinity`, as upstream.
 *
 * @example
 * const valid = makeSchemaEvaluator({ type: "object", required: ["id"], properties: { id: { type: "integer" } } });
 * valid('{"id": 7}', {});   // true
 * valid('{"id": 7.5}', {}); // false
 */
export function makeSchemaEvaluator(schema: unknown, options: SchemaEvaluatorOptions = {}): Evaluator<boolean> {
  const isValid = compilePythonSchema(schema, options, "makeSchemaEvaluator");
  return named((output: unknown, _expected: unknown): boolean => {
    if (isNone(output)) return false;
    let instance: PyValue;
    try {
      instance = pyJsonLoads(output);
    } catch (error) {
      if (caught(error, "json.JSONDecodeError", "TypeError")) return false;
      throw error;
    }
    return isValid(instance);
  }, "schema_valid");
}
