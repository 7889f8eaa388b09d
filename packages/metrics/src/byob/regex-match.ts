// BYOB's regex_match (scorers.py; docs/spec/rule-metrics.md §2.4), apart from the other text scorers so
// that they load without the Python `re` port (python/regex.ts with re2js).
import { PythonCompatError } from "../errors.js";
import { IGNORECASE, PythonRegexError } from "../python/regex.js";
import { pyTypeName } from "../python/repr.js";
import { compilePython } from "./python-re.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

/**
 * BYOB `regex_match`: `re.search(target, response, re.IGNORECASE)` with Python's regex semantics
 * (`src/python/regex.ts`). A pattern Python rejects (`re.error`) gives false; a non-str pattern or
 * response throws pythonType `TypeError` as in Python.
 */
export const regexMatch = pythonName((sample: ScorerInput): { correct: boolean } => {
  checkSample(sample);
  if (typeof sample.target !== "string") {
    throw new PythonCompatError("TypeError", `first argument must be string or compiled pattern, not ${pyTypeName(sample.target)}`);
  }
  let pattern;
  try {
    pattern = compilePython(sample.target, IGNORECASE);
  } catch (e) {
    if (e instanceof PythonRegexError) return { correct: false };
    throw e;
  }
  if (typeof sample.response !== "string") {
    throw new PythonCompatError("TypeError", `expected string or bytes-like object, got '${pyTypeName(sample.response)}'`);
  }
  return { correct: pattern.test(sample.response) };
}, "regex_match");
