// BYOB's regexes (`regex_match`'s user pattern, the mcq and gsm8k patterns) compiled as CPython 3.11
// would: src/python/regex.ts with the full Unicode 14.0 name table behind `\N{...}`.
import { unicodeNameToCodePoint } from "../evalwire/unicode-names.js";
import { compilePython as compileWith, type PythonRegex, type PythonRegexOptions } from "../python/regex.js";

/**
 * Python `re.compile(pattern, flags)` (cached), with every Unicode 14.0 character name and alias
 * available to `\N{...}`.
 *
 * @example
 * compilePython(String.raw`\N{EM DASH}`).test("a—b") // true
 */
export function compilePython(pattern: string, flags = 0, options?: PythonRegexOptions): PythonRegex {
  return compileWith(pattern, flags, { ...options, unicodeName: options?.unicodeName ?? unicodeNameToCodePoint });
}
