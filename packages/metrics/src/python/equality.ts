// Python values as the evalwire port sees them, and Python `==` over them (docs/spec/rule-metrics.md §0.1).
//
// The value model keeps plain JS values wherever Python and JSON agree, and small classes for the
// Python types JSON cannot carry:
//
// | Python            | here                                                                  |
// | ----------------- | --------------------------------------------------------------------- |
// | `str`             | `string` (code points; lone surrogates allowed)                        |
// | `int`             | `number` when it is a safe integer, else `bigint` (exact)              |
// | `float`           | `number` (`-0`, `Infinity`, `NaN` included)                            |
// | `bool` / `None`   | `boolean` / `null` (`undefined` is read as `None`)                     |
// | `list`            | `Array`                                                               |
// | `dict`            | a plain object when every key is a `str`, else `PyDict`                |
// | `tuple`, `set`, `bytes`, `complex`, `...` | `PyTuple`, `PySet`, `PyBytes`, `PyComplex`, `PY_ELLIPSIS` |
//
// An integral `number` may stand for either a Python int or float; `==` cannot tell them apart
// (`1 == 1.0`), so nothing here needs to. Code that must know the Python type (golden `types`)
// parses with `ints: "bigint"`, where every int is a `bigint` and every `number` a float.
import { PythonCompatError } from "../errors.js";

const PY_VALUE = Symbol.for("evalkern.python.value");

/** Base of the classes that stand for Python types JSON cannot carry. */
export abstract class PyObject {
  readonly [PY_VALUE] = true;
  /** The Python type name (`type(x).__name__`). */
  abstract readonly pyType: string;
  static isInstance(value: unknown): value is PyObject {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[PY_VALUE] === true;
  }
}

/** A Python `tuple`. */
export class PyTuple extends PyObject {
  readonly pyType = "tuple";
  constructor(readonly items: readonly PyValue[]) {
    super();
  }
}

/**
 * A Python `set`. Elements are unique under Python equality (`{1, True, 1.0}` has one element, the
 * first one written). Iteration follows insertion order; Python's own order depends on hashes.
 */
export class PySet extends PyObject {
  readonly pyType = "set";
  readonly #buckets = new Map<string, PyValue[]>();
  readonly #items: PyValue[] = [];
  constructor(items: Iterable<PyValue> = []) {
    super();
    for (const item of items) this.add(item);
  }
  get items(): readonly PyValue[] {
    return this.#items;
  }
  get size(): number {
    return this.#items.length;
  }
  /** Adds `item` unless an equal element is present; throws `TypeError` for unhashable items. */
  add(item: PyValue): void {
    const key = pyHashKey(item);
    const bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      this.#buckets.set(key, [item]);
    } else {
      if (bucket.some((other) => pyIdentityOrEquals(other, item))) return;
      bucket.push(item);
    }
    this.#items.push(item);
  }
  has(item: PyValue): boolean {
    const bucket = this.#buckets.get(pyHashKey(item));
    return bucket !== undefined && bucket.some((other) => pyIdentityOrEquals(other, item));
  }
}

/**
 * A Python `dict` with at least one key that is not a `str` (`{1: 'a'}`, `{(1, 2): 3}`). Keys are
 * unique under Python equality: the first key written is kept, the last value wins, as in Python.
 */
export class PyDict extends PyObject {
  readonly pyType = "dict";
  readonly #buckets = new Map<string, number[]>();
  readonly #keys: PyValue[] = [];
  readonly #values: PyValue[] = [];
  constructor(entries: Iterable<readonly [PyValue, PyValue]> = []) {
    super();
    for (const [key, value] of entries) this.set(key, value);
  }
  get size(): number {
    return this.#keys.length;
  }
  entries(): Array<[PyValue, PyValue]> {
    return this.#keys.map((key, index) => [key, this.#values[index] as PyValue]);
  }
  keys(): readonly PyValue[] {
    return this.#keys;
  }
  #find(key: PyValue, hashKey: string): number {
    const bucket = this.#buckets.get(hashKey);
    if (bucket === undefined) return -1;
    for (const index of bucket) if (pyIdentityOrEquals(this.#keys[index] as PyValue, key)) return index;
    return -1;
  }
  set(key: PyValue, value: PyValue): void {
    const hashKey = pyHashKey(key);
    const index = this.#find(key, hashKey);
    if (index >= 0) {
      this.#values[index] = value;
      return;
    }
    const bucket = this.#buckets.get(hashKey);
    if (bucket === undefined) this.#buckets.set(hashKey, [this.#keys.length]);
    else bucket.push(this.#keys.length);
    this.#keys.push(key);
    this.#values.push(value);
  }
  has(key: PyValue): boolean {
    return this.#find(key, pyHashKey(key)) >= 0;
  }
  /** The value under `key` (Python `d.get(key)`), `undefined` when absent. */
  get(key: PyValue): PyValue | undefined {
    const index = this.#find(key, pyHashKey(key));
    return index >= 0 ? this.#values[index] : undefined;
  }
}

/** A Python `bytes` value. */
export class PyBytes extends PyObject {
  readonly pyType = "bytes";
  constructor(readonly bytes: Uint8Array) {
    super();
  }
  get length(): number {
    return this.bytes.length;
  }
}

/** A Python `complex` number. */
export class PyComplex extends PyObject {
  readonly pyType = "complex";
  constructor(
    readonly real: number,
    readonly imag: number,
  ) {
    super();
  }
}

/** Python's `Ellipsis` (`...`). */
export class PyEllipsis extends PyObject {
  readonly pyType = "ellipsis";
}

/** The one `Ellipsis` value. */
export const PY_ELLIPSIS: PyEllipsis = new PyEllipsis();

/** A dict whose keys are all `str`: a plain object. */
export interface PyStrDict {
  [key: string]: PyValue;
}

/** Any value the Python emulation handles. */
export type PyValue =
  | null
  | undefined
  | boolean
  | number
  | bigint
  | string
  | PyValue[]
  | readonly PyValue[]
  | PyStrDict
  | PyTuple
  | PySet
  | PyDict
  | PyBytes
  | PyComplex
  | PyEllipsis;

/** True for a plain JS object standing for a `str`-keyed dict. */
export function isStrDict(value: unknown): value is PyStrDict {
  if (typeof value !== "object" || value === null || Array.isArray(value) || PyObject.isInstance(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** True for either dict representation. */
export function isPyDict(value: unknown): value is PyStrDict | PyDict {
  return value instanceof PyDict || isStrDict(value);
}

/** Sets own property `key` on a plain object, also for `__proto__`. */
export function setOwn(target: PyStrDict, key: string, value: PyValue): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** `key in d` for either dict representation. Throws `TypeError` for an unhashable key. */
export function pyDictHas(dict: PyStrDict | PyDict, key: PyValue): boolean {
  if (dict instanceof PyDict) return dict.has(key);
  pyHashKey(key);
  return typeof key === "string" && Object.prototype.hasOwnProperty.call(dict, key);
}

/** `d.get(key)` for either dict representation; `undefined` when absent. */
export function pyDictGet(dict: PyStrDict | PyDict, key: PyValue): PyValue | undefined {
  if (dict instanceof PyDict) return dict.get(key);
  pyHashKey(key);
  return typeof key === "string" && Object.prototype.hasOwnProperty.call(dict, key) ? dict[key] : undefined;
}

/** The keys of either dict representation, in insertion order. */
export function pyDictKeys(dict: PyStrDict | PyDict): readonly PyValue[] {
  return dict instanceof PyDict ? dict.keys() : Object.keys(dict);
}

/** `len(d)` for either dict representation. */
export function pyDictSize(dict: PyStrDict | PyDict): number {
  return dict instanceof PyDict ? dict.size : Object.keys(dict).length;
}

/** Python's `type(x).__name__` for a value of the model (an integral `number` reads as `int`). */
export function pyTypeName(value: PyValue): string {
  if (value === null || value === undefined) return "NoneType";
  switch (typeof value) {
    case "boolean":
      return "bool";
    case "bigint":
      return "int";
    case "number":
      return Number.isInteger(value) && !Object.is(value, -0) ? "int" : "float";
    case "string":
      return "str";
    default:
      if (Array.isArray(value)) return "list";
      if (PyObject.isInstance(value)) return value.pyType;
      return "dict";
  }
}

// ---------------------------------------------------------------------------------------------
// Numbers: bool, int (number | bigint), float (number) and complex compare by exact value.

type Numeric = { kind: "real"; value: number | bigint } | { kind: "complex"; real: number; imag: number };

function asNumeric(value: PyValue): Numeric | undefined {
  if (typeof value === "boolean") return { kind: "real", value: value ? 1 : 0 };
  if (typeof value === "number" || typeof value === "bigint") return { kind: "real", value };
  if (value instanceof PyComplex) return { kind: "complex", real: value.real, imag: value.imag };
  return undefined;
}

/** Exact equality of two reals, each a double or an integer (int vs float compares exactly in Python). */
function realEquals(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (typeof a === "bigint" && typeof b === "bigint") return a === b;
  const float = (typeof a === "number" ? a : b) as number;
  const int = (typeof a === "bigint" ? a : b) as bigint;
  return Number.isInteger(float) && BigInt(float) === int;
}

function numericEquals(a: Numeric, b: Numeric): boolean {
  if (a.kind === "real" && b.kind === "real") return realEquals(a.value, b.value);
  if (a.kind === "complex" && b.kind === "complex") return a.real === b.real && a.imag === b.imag;
  const c = (a.kind === "complex" ? a : b) as Extract<Numeric, { kind: "complex" }>;
  const r = (a.kind === "real" ? a : b) as Extract<Numeric, { kind: "real" }>;
  return c.imag === 0 && realEquals(c.real, r.value);
}

// ---------------------------------------------------------------------------------------------
// Equality

/**
 * Python `a == b` over the value model: `1 == 1.0 == True`, `0 == -0.0 == False`, `"1" != 1`,
 * `(1,) != [1]`, `NaN != NaN`, deep comparison of lists, tuples, dicts and sets.
 *
 * Details: inside containers Python compares with `is`-or-`==` (`PyObject_RichCompareBool`), so a
 * `NaN` nested in a container equals a `NaN` at the same place: `json.loads` returns one shared
 * `NaN` object, and that is the only way the evalwire inputs can hold one. At the top level
 * `NaN == NaN` is false, as for any two floats.
 */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  return equals(a, b, 0);
}

/** `a is b or a == b`, the comparison Python uses inside containers, `in` and `list.index`. */
export function pyIdentityOrEquals(a: PyValue, b: PyValue): boolean {
  if (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) return true;
  return equals(a, b, 0);
}

const MAX_DEPTH = 10_000;

function equals(a: PyValue, b: PyValue, depth: number): boolean {
  if (depth > MAX_DEPTH) {
    throw new PythonCompatError("RecursionError", "maximum recursion depth exceeded in comparison");
  }
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  const na = asNumeric(a);
  if (na !== undefined) {
    const nb = asNumeric(b);
    return nb !== undefined && numericEquals(na, nb);
  }
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && sequenceEquals(a, b, depth);
  }
  if (a instanceof PyTuple || b instanceof PyTuple) {
    return a instanceof PyTuple && b instanceof PyTuple && sequenceEquals(a.items, b.items, depth);
  }
  if (a instanceof PyBytes || b instanceof PyBytes) {
    if (!(a instanceof PyBytes && b instanceof PyBytes) || a.bytes.length !== b.bytes.length) return false;
    return a.bytes.every((byte, index) => byte === b.bytes[index]);
  }
  if (a instanceof PyEllipsis || b instanceof PyEllipsis) return a === b;
  if (a instanceof PySet || b instanceof PySet) {
    if (!(a instanceof PySet && b instanceof PySet) || a.size !== b.size) return false;
    return a.items.every((item) => b.has(item));
  }
  if (isPyDict(a) && isPyDict(b)) return dictEquals(a, b, depth);
  return false;
}

function nestedEquals(a: PyValue, b: PyValue, depth: number): boolean {
  if (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) return true;
  return equals(a, b, depth + 1);
}

function sequenceEquals(a: readonly PyValue[], b: readonly PyValue[], depth: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!nestedEquals(a[i], b[i], depth)) return false;
  return true;
}

function dictEquals(a: PyStrDict | PyDict, b: PyStrDict | PyDict, depth: number): boolean {
  if (pyDictSize(a) !== pyDictSize(b)) return false;
  for (const key of pyDictKeys(a)) {
    const other = pyDictGet(b, key);
    if (other === undefined) return false;
    if (!nestedEquals(pyDictGet(a, key) as PyValue, other, depth)) return false;
  }
  return true;
}

/**
 * `a is b or a == b` for values from two different places (a caller's output against parsed
 * expectations): identity holds only for the very same object, so `NaN` never matches `NaN`.
 */
export function pySameOrEquals(a: PyValue, b: PyValue): boolean {
  return (typeof a === "object" && a !== null && a === b) || pyEquals(a, b);
}

/** Python `item in container` for a list/tuple container (`pySameOrEquals` per element). */
export function pySequenceContains(container: readonly PyValue[], item: PyValue): boolean {
  return pySequenceIndex(container, item) >= 0;
}

/** Python `list.index(item)`: the first position holding an equal element, or -1. */
export function pySequenceIndex(container: readonly PyValue[], item: PyValue): number {
  for (let i = 0; i < container.length; i++) if (pySameOrEquals(container[i], item)) return i;
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Hashing

function unhashable(value: PyValue): never {
  throw new PythonCompatError("TypeError", `unhashable type: '${pyTypeName(value)}'`);
}

function realKey(value: number | bigint): string {
  if (typeof value === "bigint") return `i${value}`;
  if (Number.isInteger(value)) return `i${BigInt(value)}`;
  return `f${value}`;
}

/**
 * A string that is equal for values Python considers equal (a bucket key for sets and dicts).
 * Throws `TypeError` (`unhashable type: 'list'`) for lists, dicts and sets, and for tuples that
 * hold one, as Python's `hash()` does.
 */
export function pyHashKey(value: PyValue): string {
  if (value === null || value === undefined) return "N";
  switch (typeof value) {
    case "boolean":
      return value ? "i1" : "i0";
    case "number":
    case "bigint":
      return realKey(value);
    case "string":
      return `s${value}`;
    default:
      break;
  }
  if (value instanceof PyComplex) return value.imag === 0 ? realKey(value.real) : `c${value.real},${value.imag}`;
  if (value instanceof PyBytes) return `b${Array.from(value.bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  if (value instanceof PyEllipsis) return "E";
  if (value instanceof PyTuple) return `t(${value.items.map((item) => JSON.stringify(pyHashKey(item))).join(",")})`;
  return unhashable(value);
}

/** Python truthiness (`bool(x)`). */
export function pyTruthy(value: PyValue): boolean {
  if (value === null || value === undefined) return false;
  switch (typeof value) {
    case "boolean":
      return value;
    case "number":
      return value !== 0;
    case "bigint":
      return value !== 0n;
    case "string":
      return value.length > 0;
    default:
      break;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof PyTuple) return value.items.length > 0;
  if (value instanceof PySet || value instanceof PyDict) return value.size > 0;
  if (value instanceof PyBytes) return value.bytes.length > 0;
  if (value instanceof PyComplex) return value.real !== 0 || value.imag !== 0;
  if (value instanceof PyEllipsis) return true;
  return pyDictSize(value as PyStrDict) > 0;
}
