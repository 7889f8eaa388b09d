/**
 * Python primitives the ports emulate, for other packages that must print, round or match like
 * CPython 3.11: `round(x, n)`, `str()`/`repr()`, `random.Random`, and `re` patterns on a linear-time
 * engine. This is the one home of the Python emulation: no other package has its own.
 */
export { pyRound, pyFormatFixed } from "./round.js";
export { pyStrip, pyRstrip, pySplit, pyLower } from "./str.js";
export {
  pyStr,
  pyRepr,
  pyFloatRepr,
  pyStrRepr,
  pyBytesRepr,
  pyIsPrintable,
  pyTypeName,
  isPyFloat,
  isPyInt,
  PyFloat,
  pyFloat,
  type NumberModel,
} from "./repr.js";
export { PyRandom } from "./random.js";
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
