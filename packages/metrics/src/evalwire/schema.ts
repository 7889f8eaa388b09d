// JSON Schema validation with python-jsonschema semantics (`Draft7Validator(schema).is_valid`,
// jsonschema 4.26 as pinned by evalwire; 4.10.3 agrees on the goldens), on ajv.
//
// ajv does the structure: `$ref`/`definitions`, `properties`, `patternProperties`,
// `additionalProperties`, `items`, `contains`, `required`, `dependencies`, `if`/`then`/`else`,
// `allOf`/`anyOf`/`oneOf`/`not`, the length and size limits (`unicode: true` counts code points,
// as Python's `len` does). What Python does differently is handed back to Python rules
// (docs/spec/rule-metrics.md §3.7):
// * `type` is renamed to a custom `pyType`: ajv's own checks make `Infinity` an integer (without
//   `strictNumbers`) or reject `NaN` as a number (with it); Python's do neither.
// * `minimum`/`maximum`/`exclusive*`: ajv fails `NaN`; Python's comparisons pass it.
// * `multipleOf`: Python's float rule (`int(x / d) != x / d`, so 0.07 is not a multiple of 0.01),
//   `x % d` for an integral divisor, and its `ValueError`/`OverflowError` on NaN/Infinity.
// * `const`/`enum`/`uniqueItems`: `jsonschema._utils.equal` (`true != 1`, `1 == 1.0`), exact for
//   big ints.
// * `pattern`/`patternProperties`: Python `re.search` (src/python/regex.ts), compiled on first use
//   so that an invalid pattern raises `re.error` when a string meets it, as in Python.
// * `format` is an annotation only: no format checker, as in evalwire.
// * Draft 7 ignores every keyword beside `$ref`.
import { Ajv, type AnySchema, type ValidateFunction } from "ajv";
import type { DataValidationCxt } from "ajv/dist/types/index.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { InvalidArgumentError, PythonCompatError } from "../errors.js";
import { rejectUnknownOptions } from "../options.js";
import { PyBytes, PyComplex, PyObject, isStrDict, pyTypeName, type PyValue } from "../python/equality.js";
import { compilePython, type PythonRegex } from "../python/regex.js";

/** Which JSON Schema dialect to apply. */
export type SchemaDialect = "auto" | "draft-07" | "2020-12";

export interface SchemaEvaluatorOptions {
  /**
   * `"draft-07"` is what evalwire does for every schema (`Draft7Validator`). `"2020-12"` applies
   * the 2020-12 vocabulary (`prefixItems`, `$defs`, `dependentRequired`, `unevaluated*`...).
   * `"auto"` (default) picks 2020-12 when the schema's `$schema` names it, draft 7 otherwise.
   */
  readonly dialect?: SchemaDialect;
}

// ---------------------------------------------------------------------------------------------
// Instances: the model's values as ajv data, with exact ints on the side

type Exact = WeakMap<object, Map<string | number, bigint>>;

interface Run {
  exact: Exact;
  root: bigint | undefined;
}

function toData(value: PyValue, run: Run, parent?: object, key?: string | number): unknown {
  if (value === undefined) return null;
  if (typeof value === "bigint") {
    if (parent === undefined) run.root = value;
    else {
      let slots = run.exact.get(parent);
      if (slots === undefined) run.exact.set(parent, (slots = new Map()));
      slots.set(key as string | number, value);
    }
    return Number(value);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((item: PyValue, index: number) => out.push(toData(item, run, out, index)));
    return out;
  }
  if (isStrDict(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(value)) {
      Object.defineProperty(out, k, { value: toData(item, run, out, k), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (PyObject.isInstance(value) || value instanceof PyComplex || value instanceof PyBytes) {
    // json.loads never produces these; a caller passing one gets Python's answer for an unknown type.
    throw new PythonCompatError("TypeError", `cannot validate a ${pyTypeName(value)} instance`);
  }
  return value;
}

/** The instance value as Python holds it: the exact int when there is one. */
function exactOf(data: unknown, cxt: DataValidationCxt | undefined, run: Run): unknown {
  if (typeof data !== "number") return data;
  if (cxt === undefined || cxt.parentData === undefined || cxt.parentData === null) return run.root ?? data;
  const slots = run.exact.get(cxt.parentData as object);
  return slots?.get(cxt.parentDataProperty) ?? data;
}

function nestedExact(run: Run, container: object, key: string | number, data: unknown): unknown {
  return run.exact.get(container)?.get(key) ?? data;
}

// ---------------------------------------------------------------------------------------------
// Python semantics of numbers and equality

type Real = number | bigint;

/** Exact comparison of a double or int with another; NaN for unordered. */
function compare(a: Real, b: Real): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number") return -compare(b, a);
  const double = b as number;
  if (Number.isNaN(double)) return NaN;
  if (double === Infinity) return -1;
  if (double === -Infinity) return 1;
  const floor = BigInt(Math.floor(double));
  if (a < floor) return -1;
  if (a > floor) return 1;
  return Number.isInteger(double) ? 0 : -1;
}

function isNumber(value: unknown): value is Real {
  return typeof value === "number" || typeof value === "bigint";
}

function schemaReal(schema: unknown, keyword: string): Real {
  if (typeof schema === "number" || typeof schema === "bigint") return schema;
  if (typeof schema === "boolean") return schema ? 1 : 0;
  throw new PythonCompatError("TypeError", `'${keyword}' must be a number to compare with, got ${typeof schema}`);
}

/** A double or int as an exact integer multiple of 2^-1074. */
function scaled(value: Real): bigint {
  if (typeof value === "bigint") return value << 1074n;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const magnitude = exponent === 0 ? fraction : (fraction | 0x10000000000000n) << BigInt(exponent - 1);
  return bits >> 63n === 1n ? -magnitude : magnitude;
}

function toDouble(value: Real): number {
  if (typeof value === "number") return value;
  const double = Number(value);
  if (!Number.isFinite(double)) throw new PythonCompatError("OverflowError", "int too large to convert to float");
  return double;
}

/** jsonschema's `multipleOf`: true when the instance fails. */
function multipleOfFails(instance: Real, divisor: Real): boolean {
  // A safe-integer JS number stands for a Python int divisor (`x % d`); any other number is a
  // float (`x / d`), as `1e300` or `0.01` would be in the JSON text of a schema.
  const floatDivisor = typeof divisor === "number" && !Number.isSafeInteger(divisor);
  if (floatDivisor) {
    const d = divisor as number;
    if (d === 0) throw new PythonCompatError("ZeroDivisionError", "float division by zero");
    const quotient = toDouble(instance) / d;
    if (Number.isNaN(quotient)) throw new PythonCompatError("ValueError", "cannot convert float NaN to integer");
    if (Number.isFinite(quotient)) return Math.trunc(quotient) !== quotient;
    // `int(inf)` overflows; jsonschema 4.26 falls back to exact Fractions.
    if (typeof instance === "number" && !Number.isFinite(instance)) {
      throw new PythonCompatError("OverflowError", "cannot convert Infinity to integer ratio");
    }
    return scaled(instance) % scaled(d) !== 0n;
  }
  if (divisor === 0 || divisor === 0n) throw new PythonCompatError("ZeroDivisionError", "integer division or modulo by zero");
  if (typeof instance === "bigint") {
    if (typeof divisor === "bigint") return instance % divisor !== 0n;
    if (Number.isFinite(divisor)) return instance % BigInt(divisor) !== 0n;
  }
  const remainder = toDouble(instance) % toDouble(divisor);
  return remainder !== 0; // NaN (from NaN or Infinity) is truthy in Python
}

/** `jsonschema._utils.equal`: bool only equals bool, 1 == 1.0, deep for arrays and objects. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // json.loads returns one shared NaN object, and `equal` starts with `one is two`.
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (isNumber(a) && isNumber(b)) return compare(a, b) === 0;
  if (typeof a === "string" || typeof b === "string") return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The instance with exact ints put back, for equality. */
function withExact(data: unknown, run: Run): unknown {
  if (Array.isArray(data)) return data.map((item, i) => withExact(nestedExact(run, data, i, item), run));
  if (isPlainObject(data)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(data)) {
      Object.defineProperty(out, key, { value: withExact(nestedExact(run, data, key, item), run), enumerable: true });
    }
    return out;
  }
  return data;
}

function isPythonType(type: unknown, data: unknown, exact: unknown): boolean {
  switch (type) {
    case "array":
      return Array.isArray(data);
    case "boolean":
      return typeof data === "boolean";
    case "integer":
      return typeof exact === "bigint" || (typeof data === "number" && Number.isInteger(data));
    case "null":
      return data === null;
    case "number":
      return typeof data === "number";
    case "object":
      return isPlainObject(data);
    case "string":
      return typeof data === "string";
    default:
      throw new PythonCompatError("jsonschema.exceptions.UnknownType", `Unknown type ${JSON.stringify(type)} for validator`);
  }
}

// ---------------------------------------------------------------------------------------------
// Schema rewriting: `type` → `pyType`, and draft 7's `$ref` hiding its siblings

const SCHEMA_MAPS = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"];
const SCHEMA_VALUES = [
  "additionalItems",
  "additionalProperties",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "not",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];

function rewrite(schema: unknown, draft7: boolean, depth = 0): unknown {
  if (depth > 10_000) throw new InvalidArgumentError("schema is nested too deeply", { argument: "schema" });
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const put = (key: string, value: unknown): void => {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  };
  const keys = draft7 && "$ref" in source ? Object.keys(source).filter((k) => k === "$ref" || k === "definitions") : Object.keys(source);
  for (const key of keys) {
    const value = source[key];
    if (key === "type") {
      put("pyType", value);
    } else if (SCHEMA_MAPS.includes(key) && isPlainObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        let prepared = rewrite(sub, draft7, depth + 1);
        // ajv skips an always-valid pattern subschema without running its regex; Python runs
        // `re.search` on every key (and raises `re.error` for a bad pattern), so keep it live.
        if (key === "patternProperties" && (prepared === true || (isPlainObject(prepared) && Object.keys(prepared).length === 0))) {
          prepared = { pyNoop: true };
        }
        Object.defineProperty(map, name, { value: prepared, enumerable: true });
      }
      put(key, map);
    } else if (key === "dependencies" && isPlainObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        Object.defineProperty(map, name, { value: Array.isArray(sub) ? sub : rewrite(sub, draft7, depth + 1), enumerable: true });
      }
      put(key, map);
    } else if (key === "items") {
      put(key, Array.isArray(value) ? value.map((sub) => rewrite(sub, draft7, depth + 1)) : rewrite(value, draft7, depth + 1));
    } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      put(
        key,
        value.map((sub) => rewrite(sub, draft7, depth + 1)),
      );
    } else if (SCHEMA_VALUES.includes(key)) {
      put(key, rewrite(value, draft7, depth + 1));
    } else {
      put(key, value);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

function addPythonKeywords(ajv: Ajv | Ajv2020, current: () => Run): void {
  for (const keyword of ["multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "const", "enum", "uniqueItems"]) {
    ajv.removeKeyword(keyword);
  }
  ajv.addKeyword({ keyword: "pyNoop", errors: false, validate: () => true });
  ajv.addKeyword({
    keyword: "pyType",
    errors: false,
    validate: (types: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
      const exact = exactOf(data, cxt, current());
      const list = typeof types === "string" ? [types] : Array.isArray(types) ? types : [types];
      return list.some((type) => isPythonType(type, data, exact));
    },
  });
  const limit = (keyword: string, fails: (order: number) => boolean): void => {
    ajv.addKeyword({
      keyword,
      errors: false,
      validate: (schema: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
        if (typeof data !== "number") return true;
        const order = compare(exactOf(data, cxt, current()) as Real, schemaReal(schema, keyword));
        return Number.isNaN(order) || !fails(order);
      },
    });
  };
  limit("minimum", (order) => order < 0);
  limit("maximum", (order) => order > 0);
  limit("exclusiveMinimum", (order) => order <= 0);
  limit("exclusiveMaximum", (order) => order >= 0);
  ajv.addKeyword({
    keyword: "multipleOf",
    errors: false,
    validate: (schema: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
      if (typeof data !== "number") return true;
      return !multipleOfFails(exactOf(data, cxt, current()) as Real, schemaReal(schema, "multipleOf"));
    },
  });
  ajv.addKeyword({
    keyword: "const",
    errors: false,
    validate: (schema: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) =>
      jsonEqual(withExact(exactOf(data, cxt, current()), current()), schema),
  });
  ajv.addKeyword({
    keyword: "enum",
    errors: false,
    validate: (schema: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
      const instance = withExact(exactOf(data, cxt, current()), current());
      const options = Array.isArray(schema)
        ? schema
        : typeof schema === "string"
          ? Array.from(schema)
          : isPlainObject(schema)
            ? Object.keys(schema)
            : undefined;
      if (options === undefined) throw new PythonCompatError("TypeError", `'enum' must be iterable, got ${typeof schema}`);
      return options.some((option) => jsonEqual(option, instance));
    },
  });
  ajv.addKeyword({
    keyword: "uniqueItems",
    errors: false,
    validate: (schema: unknown, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
      if (!schema || !Array.isArray(data)) return true;
      const items = withExact(exactOf(data, cxt, current()), current()) as unknown[];
      for (let i = 0; i < items.length; i++) {
        for (let j = 0; j < i; j++) if (jsonEqual(items[j], items[i])) return false;
      }
      return true;
    },
  });
}

/** ajv's regular-expression hook, answered by Python `re.search`, compiled on first use. */
function pythonRegExpEngine(pattern: string): { test: (text: string) => boolean } {
  let compiled: PythonRegex | undefined;
  return {
    test: (text: string) => {
      compiled ??= compilePython(pattern);
      return compiled.test(text);
    },
  };
}

/**
 * Compiles `schema` into `instance => boolean` with python-jsonschema semantics. Instances are
 * values of the model (use `pyJsonLoads` for JSON text), so big ints stay exact.
 */
const SCHEMA_OPTION_KEYS = { dialect: true } as const satisfies Record<keyof SchemaEvaluatorOptions, true>;

export function compilePythonSchema(
  schema: unknown,
  options: SchemaEvaluatorOptions = {},
  /** The caller's name in an `UnknownOptionError` (internal: `makeSchemaEvaluator` passes its own). */
  metric = "compilePythonSchema",
): (instance: PyValue) => boolean {
  if (typeof schema !== "boolean" && !isPlainObject(schema)) {
    throw new InvalidArgumentError("schema must be a JSON Schema object or boolean", {
      argument: "schema",
      expected: "object or boolean",
      actual: Array.isArray(schema) ? "array" : typeof schema,
    });
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError("options must be an options object", { argument: "options", actual: typeof options });
  }
  rejectUnknownOptions(options, SCHEMA_OPTION_KEYS, metric);
  const dialect = options.dialect ?? "auto";
  if (dialect !== "auto" && dialect !== "draft-07" && dialect !== "2020-12") {
    throw new InvalidArgumentError(`unknown JSON Schema dialect ${JSON.stringify(dialect)}`, {
      argument: "options.dialect",
      expected: '"auto", "draft-07" or "2020-12"',
      actual: String(dialect),
    });
  }
  const declared = isPlainObject(schema) && typeof schema.$schema === "string" ? schema.$schema : "";
  const use2020 = dialect === "2020-12" || (dialect === "auto" && declared.includes("2020-12"));
  let run: Run = { exact: new WeakMap(), root: undefined };
  const ajvOptions = {
    strict: false,
    validateSchema: false,
    validateFormats: false,
    allErrors: false,
    unicodeRegExp: true,
    code: { regExp: Object.assign(pythonRegExpEngine, { code: "pythonRegExpEngine" }) },
  } as const;
  const ajv = use2020 ? new Ajv2020(ajvOptions) : new Ajv(ajvOptions);
  addPythonKeywords(ajv, () => run);
  const prepared = rewrite(schema, !use2020);
  // ajv wants `$schema` to be one it knows; Python reads it only to pick a validator class.
  if (isPlainObject(prepared)) delete prepared.$schema;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(prepared as AnySchema);
  } catch (error) {
    throw new InvalidArgumentError(`schema cannot be compiled: ${(error as Error).message}`, { argument: "schema" });
  }
  return (instance: PyValue): boolean => {
    run = { exact: new WeakMap(), root: undefined };
    const data = toData(instance, run);
    return validate(data) === true;
  };
}
