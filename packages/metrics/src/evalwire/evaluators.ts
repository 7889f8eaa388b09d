// evalwire 0.6.0's evaluator factories (`src/evalwire/evaluators`), with the originals' exact
// behaviour (docs/spec/rule-metrics.md §3): each factory returns `(output, expected) => number | boolean`.
//
// Values follow the Python value model of src/python/equality.ts: strings, numbers, booleans,
// null (Python `None`; `undefined` is read as `None` too), arrays (lists), plain objects (dicts),
// and `PyTuple`/`PySet`/`PyDict`/`PyBytes`/`PyComplex`/`PY_ELLIPSIS` for the rest.
// Where the original raised, a `PythonCompatError` with the Python exception type is thrown.
import { InvalidArgumentError, PythonCompatError } from "../errors.js";
import {
  PyBytes,
  PyDict,
  PySet,
  PyTuple,
  isPyDict,
  isStrDict,
  pyDictGet,
  pyDictHas,
  pyDictKeys,
  pyEquals,
  pyHashKey,
  pySameOrEquals,
  pySequenceContains,
  pySequenceIndex,
  pyTypeName,
  type PyValue,
} from "../python/equality.js";
import { pyFloat } from "../python/float-parse.js";
import { literalEval } from "../python/literal.js";
import { exactMean } from "../python/mean.js";
import { pyJsonLoads } from "./python-json.js";
import { unicodeNameToCodePoint } from "./unicode-names.js";

/** An evaluator: `(output, expected) => score`, `expected` being a dict with `expected_output`. */
export type Evaluator<Score extends number | boolean> = (output: unknown, expected: unknown) => Score;

export const caught = (error: unknown, ...types: string[]): boolean =>
  error instanceof PythonCompatError && types.includes(error.pythonType);

export function named<T extends (...args: never[]) => unknown>(fn: T, name: string): T {
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

export const isNone = (value: unknown): boolean => value === null || value === undefined;

// ---------------------------------------------------------------------------------------------
// _parse_expected

/** `expected.get("expected_output", [])`, with `AttributeError` for anything but a dict. */
function expectedOutput(expected: unknown): { found: boolean; value: unknown } {
  if (isStrDict(expected)) {
    const found = Object.prototype.hasOwnProperty.call(expected, "expected_output") && expected.expected_output !== undefined;
    return { found, value: found ? expected.expected_output : undefined };
  }
  if (expected instanceof PyDict) {
    const value = expected.get("expected_output");
    return { found: value !== undefined, value };
  }
  if (expected instanceof Map) {
    return {
      found: expected.has("expected_output") && expected.get("expected_output") !== undefined,
      value: expected.get("expected_output"),
    };
  }
  const type = isNone(expected) ? "NoneType" : pyTypeName(expected as PyValue);
  throw new PythonCompatError("AttributeError", `'${type}' object has no attribute 'get'`);
}

/** Options of `parseExpected`. */
export interface ParseExpectedOptions {
  /**
   * How ints parsed from a string come out: `"number"` (default; `bigint` beyond ±2^53) or
   * `"bigint"` for every int, so that Python's int and float stay apart (`pyTypeName`).
   */
  readonly ints?: "number" | "bigint";
}

/**
 * evalwire's `_parse_expected`: the list of expected items in `expected.expected_output`.
 *
 * When to use: to see what an evaluator will compare against.
 *
 * Details: a missing key gives `[]`; a string is read with Python's `ast.literal_eval` (a real
 * parser; nothing is evaluated), falling back to `[text]` when it is not a Python literal; a list
 * or tuple is its items; anything else is a one-element list.
 *
 * Gotchas: `"42"` gives `[42]` (an int), `"True"` gives `[true]`, `'{"a": 1}'` gives `[{a: 1}]`,
 * `'{"a": true}'` stays a string (`true` is not Python). `"{[1]: 2}"` throws `TypeError`
 * (unhashable), and a non-dict `expected` throws `AttributeError`, as in Python.
 *
 * @example
 * parseExpected({ expected_output: "['a', 'b']" }); // ["a", "b"]
 * parseExpected({ expected_output: "hello world" }); // ["hello world"]
 */
export function parseExpected(expected: unknown, options: ParseExpectedOptions = {}): PyValue[] {
  const { found, value } = expectedOutput(expected);
  let raw = (found ? value : []) as PyValue;
  if (typeof raw === "string") {
    try {
      raw = literalEval(raw, { ints: options.ints ?? "number", unicodeName: unicodeNameToCodePoint });
    } catch (error) {
      if (!caught(error, "ValueError", "SyntaxError")) throw error;
      raw = [raw];
    }
  }
  if (Array.isArray(raw)) return [...(raw as PyValue[])];
  if (raw instanceof PyTuple) return [...raw.items];
  return [raw];
}

// ---------------------------------------------------------------------------------------------
// Python sequence operations on outputs

type Window = { kind: "items"; items: readonly PyValue[] } | { kind: "str"; chars: string[] } | { kind: "bytes"; bytes: Uint8Array };

function sliceIndex(k: unknown): number | undefined {
  if (k === null || k === undefined) return undefined;
  if (typeof k === "boolean") return k ? 1 : 0;
  if (typeof k === "bigint") return Number(k);
  if (typeof k === "number" && Number.isInteger(k)) return k;
  throw new PythonCompatError("TypeError", "slice indices must be integers or None or have an __index__ method");
}

/** Python `output[:k]`. */
function headSlice(output: unknown, k: unknown): Window {
  const end = (length: number): number => {
    const stop = sliceIndex(k);
    if (stop === undefined) return length;
    return stop < 0 ? Math.max(0, length + stop) : Math.min(stop, length);
  };
  if (Array.isArray(output)) return { kind: "items", items: output.slice(0, end(output.length)) };
  if (output instanceof PyTuple) return { kind: "items", items: output.items.slice(0, end(output.items.length)) };
  if (typeof output === "string") {
    const chars = Array.from(output);
    return { kind: "str", chars: chars.slice(0, end(chars.length)) };
  }
  if (output instanceof PyBytes) return { kind: "bytes", bytes: output.bytes.slice(0, end(output.bytes.length)) };
  if (isPyDict(output)) throw new PythonCompatError("TypeError", "unhashable type: 'slice'");
  throw new PythonCompatError("TypeError", `'${pyTypeName(output as PyValue)}' object is not subscriptable`);
}

function byteValue(item: PyValue): number | undefined {
  if (typeof item === "boolean") return item ? 1 : 0;
  if (typeof item === "bigint") item = Number(item);
  if (typeof item !== "number" || !Number.isInteger(item)) return undefined;
  if (item < 0 || item > 255) throw new PythonCompatError("ValueError", "byte must be in range(0, 256)");
  return item;
}

function bytesIndex(haystack: Uint8Array, item: PyValue): number {
  if (item instanceof PyBytes) {
    const needle = item.bytes;
    outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
      for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
      return i;
    }
    return -1;
  }
  const byte = byteValue(item);
  if (byte === undefined) {
    throw new PythonCompatError("TypeError", `argument should be integer or bytes-like object, not '${pyTypeName(item)}'`);
  }
  return haystack.indexOf(byte);
}

/** Python `window.index(item)`, -1 when absent (Python raises `ValueError`). */
function windowIndex(window: Window, item: PyValue): number {
  switch (window.kind) {
    case "items":
      return pySequenceIndex(window.items, item);
    case "str": {
      if (typeof item !== "string") throw new PythonCompatError("TypeError", `must be str, not ${pyTypeName(item)}`);
      const text = window.chars.join("");
      const unit = text.indexOf(item);
      return unit < 0 ? -1 : Array.from(text.slice(0, unit)).length;
    }
    case "bytes":
      return bytesIndex(window.bytes, item);
  }
}

/** Python `item in output`. */
function pyContains(output: unknown, item: PyValue): boolean {
  if (typeof output === "string") {
    if (typeof item !== "string") {
      throw new PythonCompatError("TypeError", `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    return output.includes(item);
  }
  if (Array.isArray(output)) return pySequenceContains(output as PyValue[], item);
  if (output instanceof PyTuple) return pySequenceContains(output.items, item);
  if (isPyDict(output)) return pyDictHas(output, item);
  if (output instanceof PySet) {
    pyHashKey(item);
    return output.has(item);
  }
  if (output instanceof PyBytes) {
    if (item instanceof PyBytes) return bytesIndex(output.bytes, item) >= 0;
    const byte = byteValue(item);
    if (byte === undefined) throw new PythonCompatError("TypeError", `a bytes-like object is required, not '${pyTypeName(item)}'`);
    return output.bytes.includes(byte);
  }
  throw new PythonCompatError("TypeError", `argument of type '${pyTypeName(output as PyValue)}' is not iterable`);
}

// ---------------------------------------------------------------------------------------------
// The factories

/**
 * evalwire `make_top_k_evaluator(K=20)` → `top_k(output, expected) -> float`: for each expected
 * item (duplicates count), `1 - position/K` if it is among the first K outputs, else 0; the score is
 * the exact mean (`statistics.mean`).
 *
 * Gotchas: a string output is cut to its first K characters and searched for substrings (a
 * non-string item then throws `TypeError`); a dict output throws `TypeError`.
 *
 * @example
 * const topK = makeTopKEvaluator(5);
 * topK(["d3", "d1", "d9"], { expected_output: ["d1", "d7"] }); // (0.8 + 0) / 2 = 0.4
 */
export function makeTopKEvaluator(K: number | bigint = 20): Evaluator<number> {
  return named((output: unknown, expected: unknown): number => {
    if (isNone(output)) return 0.0;
    const items = parseExpected(expected);
    if (items.length === 0) return 0.0;
    const window = headSlice(output, K);
    const scores = items.map((item) => {
      let position: number;
      try {
        position = windowIndex(window, item);
      } catch (error) {
        // `except ValueError`: also swallows bytes.index's "byte must be in range(0, 256)".
        if (!caught(error, "ValueError")) throw error;
        position = -1;
      }
      if (position < 0) return 0.0;
      const k = sliceIndex(K);
      if (k === undefined) throw new PythonCompatError("TypeError", "unsupported operand type(s) for /: 'int' and 'NoneType'");
      if (k === 0) throw new PythonCompatError("ZeroDivisionError", "division by zero");
      return 1.0 - position / k;
    });
    return exactMean(scores);
  }, "top_k");
}

/**
 * evalwire `make_membership_evaluator()` → `is_in(output, expected) -> bool`: whether `output` is
 * one of the expected items, by Python equality (`"1"` is not `1`, `1` is `1.0` and `true`).
 *
 * @example
 * makeMembershipEvaluator()("b", { expected_output: "['a', 'b']" }); // true
 */
export function makeMembershipEvaluator(): Evaluator<boolean> {
  return named((output: unknown, expected: unknown): boolean => {
    if (isNone(output)) return false;
    const items = parseExpected(expected);
    return items.some((item) => pySameOrEquals(item, output as PyValue));
  }, "is_in");
}

/**
 * evalwire `make_exact_match_evaluator()` → `exact_match(output, expected) -> bool`: `output ==
 * items[0]`, case-sensitive, no stripping, first item only.
 *
 * Gotchas: `expected_output: "42"` parses to the int 42, so the string `"42"` never matches.
 *
 * @example
 * makeExactMatchEvaluator()("Paris", { expected_output: "Paris" }); // true
 */
export function makeExactMatchEvaluator(): Evaluator<boolean> {
  return named((output: unknown, expected: unknown): boolean => {
    if (isNone(output)) return false;
    const items = parseExpected(expected);
    if (items.length === 0) return false;
    return pyEquals(output as PyValue, items[0] as PyValue);
  }, "exact_match");
}

/**
 * evalwire `make_contains_evaluator()` → `contains(output, expected) -> bool`: `items[0] in
 * output`, case-sensitive, first item only.
 *
 * Gotchas: a non-string first item against a string output throws `TypeError` (so do
 * `expected_output: "42"`, `"None"`, `"[1, 2]"`); `"x|y"` is searched literally (the docstring's
 * pipe alternatives are not implemented upstream).
 *
 * @example
 * makeContainsEvaluator()("the answer is 4", { expected_output: "answer" }); // true
 */
export function makeContainsEvaluator(): Evaluator<boolean> {
  return named((output: unknown, expected: unknown): boolean => {
    if (isNone(output)) return false;
    const items = parseExpected(expected);
    if (items.length === 0) return false;
    return pyContains(output, items[0] as PyValue);
  }, "contains");
}

/**
 * evalwire `make_json_match_evaluator(keys=None)` → `json_match(output, expected) -> float`: the
 * share of checked keys (`keys`, or every key of the expected object) whose values are equal in
 * `json.loads(output)` and `json.loads(items[0])`.
 *
 * Gotchas: a bare JSON-object string as `expected_output` is a Python dict literal, so the score
 * is 0.0 whatever the output (wrap it in a list: `['{"a": 1}']`); a key that is `null` in the
 * expected object matches a missing key; `true == 1` and `1 == 1.0`.
 *
 * @example
 * makeJsonMatchEvaluator()('{"a": 1, "b": 2}', { expected_output: ['{"a": 1, "b": 3}'] }); // 0.5
 */
export function makeJsonMatchEvaluator(keys: readonly PyValue[] | null = null): Evaluator<number> {
  if (keys !== null && keys !== undefined && !Array.isArray(keys)) {
    throw new InvalidArgumentError("keys must be an array of keys or null", {
      argument: "keys",
      expected: "array or null",
      actual: typeof keys,
    });
  }
  const fixedKeys = keys === null || keys === undefined ? null : [...keys];
  return named((output: unknown, expected: unknown): number => {
    if (isNone(output)) return 0.0;
    let outputObject: PyValue;
    try {
      outputObject = pyJsonLoads(output);
    } catch (error) {
      if (caught(error, "json.JSONDecodeError", "TypeError")) return 0.0;
      throw error;
    }
    if (!isPyDict(outputObject)) return 0.0;
    const items = parseExpected(expected);
    if (items.length === 0) return 0.0;
    let expectedObject: PyValue;
    try {
      expectedObject = pyJsonLoads(items[0]);
    } catch (error) {
      if (caught(error, "json.JSONDecodeError", "TypeError")) return 0.0;
      throw error;
    }
    if (!isPyDict(expectedObject)) return 0.0;
    const checked = fixedKeys ?? pyDictKeys(expectedObject);
    if (checked.length === 0) return 0.0;
    let matching = 0;
    for (const key of checked) {
      if (!pyDictHas(expectedObject, key)) continue;
      const got = pyDictGet(outputObject, key) ?? null;
      if (pyEquals(got, pyDictGet(expectedObject, key) as PyValue)) matching++;
    }
    return matching / checked.length;
  }, "json_match");
}

/**
 * evalwire `make_numeric_tolerance_evaluator(atol=1e-6, rtol=0.0)` →
 * `numeric_close(output, expected) -> bool`: `|float(output) - float(items[0])| <= atol + rtol *
 * |float(items[0])|`, with Python's `float()` rules; unparsable values give false.
 *
 * Gotchas: the expected side goes through `literal_eval` first, so expected `"0x10"` is 16 while
 * output `"0x10"` is not a number; `"1_000"` and `"١٢٣"` are numbers; NaN and inf-vs-inf are false.
 *
 * @example
 * makeNumericToleranceEvaluator(1e-6, 0.01)("99.5", { expected_output: "100" }); // true
 */
export function makeNumericToleranceEvaluator(atol = 1e-6, rtol = 0.0): Evaluator<boolean> {
  for (const [name, value] of [
    ["atol", atol],
    ["rtol", rtol],
  ] as const) {
    if (typeof value !== "number") {
      throw new InvalidArgumentError(`${name} must be a number`, { argument: name, expected: "number", actual: typeof value });
    }
  }
  return named((output: unknown, expected: unknown): boolean => {
    if (isNone(output)) return false;
    const items = parseExpected(expected);
    if (items.length === 0) return false;
    let got: number;
    let want: number;
    try {
      got = pyFloat(output as PyValue);
      want = pyFloat(items[0] as PyValue);
    } catch (error) {
      if (caught(error, "ValueError", "TypeError")) return false;
      throw error;
    }
    return Math.abs(got - want) <= atol + rtol * Math.abs(want);
  }, "numeric_close");
}
