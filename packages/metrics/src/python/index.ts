/**
 * Python primitives the ports emulate, for other packages that must print, round or match like
 * CPython 3.11: `round(x, n)`, `str()`/`repr()`, and `re` patterns on a linear-time engine.
 */
export { pyRound } from "./round.js";
export { pyStr, pyRepr, pyFloatRepr, pyStrRepr, PyFloat, pyFloat } from "./repr.js";
export {
  compilePython,
  PythonRegex,
  PythonRegexError,
  RegexBudgetExceededError,
  IGNORECASE,
  MULTILINE,
  DOTALL,
  VERBOSE,
  ASCII,
  type PythonMatch,
  type PythonRegexOptions,
} from "./regex.js";
