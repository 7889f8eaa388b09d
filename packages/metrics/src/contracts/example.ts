// DSPy's `Example` and `Prediction`: a map of named fields, with the input keys marked. Fields are
// readable as properties (`example.question`) as in Python, and through `get`.
import { InvalidArgumentError } from "../errors.js";

type Fields = Record<string, unknown>;

const STORE = Symbol("evalkern.example.store");
const INPUTS = Symbol("evalkern.example.inputs");

function fieldProxy<T extends Example>(target: T): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      if (typeof key === "string" && !(key in obj) && Object.prototype.hasOwnProperty.call(obj[STORE], key)) {
        return obj[STORE][key];
      }
      return Reflect.get(obj, key, receiver);
    },
    has(obj, key) {
      return (typeof key === "string" && Object.prototype.hasOwnProperty.call(obj[STORE], key)) || key in obj;
    },
  });
}

/**
 * A training or evaluation example (DSPy `dspy.Example`): named fields plus which of them are inputs.
 *
 * @example
 * const ex = Example.from({ question: "2+2?", answer: "4" }).withInputs("question");
 * ex.answer;            // "4"
 * ex.inputs().toDict(); // { question: "2+2?" }
 * ex.labels().toDict(); // { answer: "4" }
 */
export class Example {
  readonly [STORE]: Fields;
  readonly [INPUTS]: ReadonlySet<string> | undefined;

  constructor(fields: Fields = {}, inputKeys?: Iterable<string>) {
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      throw new InvalidArgumentError("Example fields must be a plain object", { argument: "fields" });
    }
    this[STORE] = { ...fields };
    this[INPUTS] = inputKeys ? new Set(inputKeys) : undefined;
    // biome-ignore lint/correctness/noConstructorReturn: an Example is a proxy over its fields (DSPy's attribute access)
    return fieldProxy(this);
  }

  /** An example whose fields are also typed properties. */
  static from<T extends Fields>(fields: T): Example & Readonly<T> {
    return new Example(fields) as Example & Readonly<T>;
  }

  /** A copy with `keys` marked as inputs (DSPy `with_inputs`). */
  withInputs(...keys: string[]): this {
    const Ctor = this.constructor as new (fields: Fields, inputKeys?: Iterable<string>) => this;
    return new Ctor(this[STORE], keys);
  }

  /** The input keys, or undefined when `withInputs` was never called. */
  get inputKeys(): readonly string[] | undefined {
    return this[INPUTS] ? [...this[INPUTS]] : undefined;
  }

  /** Only the input fields (DSPy `inputs()`; throws, as DSPy's ValueError, when no inputs are marked). */
  inputs(): Example {
    if (!this[INPUTS]) {
      throw new InvalidArgumentError("inputs() needs input keys: call withInputs(...) first", { argument: "inputKeys" });
    }
    const out: Fields = {};
    for (const k of Object.keys(this[STORE])) if (this[INPUTS].has(k)) out[k] = this[STORE][k];
    return new Example(out, this[INPUTS]);
  }

  /** The non-input fields (DSPy `labels()`). */
  labels(): Example {
    const inputs = this[INPUTS] ?? new Set<string>();
    const out: Fields = {};
    for (const k of Object.keys(this[STORE])) if (!inputs.has(k)) out[k] = this[STORE][k];
    return new Example(out);
  }

  get(key: string): unknown;
  get<D>(key: string, fallback: D): unknown;
  get(key: string, fallback?: unknown): unknown {
    return Object.prototype.hasOwnProperty.call(this[STORE], key) ? this[STORE][key] : fallback;
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this[STORE], key);
  }

  /** A copy with more or changed fields. */
  with(fields: Fields): this {
    const Ctor = this.constructor as new (fields: Fields, inputKeys?: Iterable<string>) => this;
    return new Ctor({ ...this[STORE], ...fields }, this[INPUTS]);
  }

  keys(): string[] {
    return Object.keys(this[STORE]);
  }

  toDict(): Fields {
    return { ...this[STORE] };
  }

  toJSON(): Fields {
    return this.toDict();
  }
}

/**
 * A program's output (DSPy `dspy.Prediction`): fields like an `Example`. A metric may also return a
 * `Prediction` with `score` and `feedback` fields (DSPy's `ScoreWithFeedback` shape).
 */
export class Prediction extends Example {
  static override from<T extends Fields>(fields: T): Prediction & Readonly<T> {
    return new Prediction(fields) as Prediction & Readonly<T>;
  }
}

/** Anything with fields: an `Example`/`Prediction` or a plain object. */
export type FieldSource = Example | Fields;

/** Read a field from an Example, a Prediction or a plain object. */
export function fieldOf(source: FieldSource, key: string): unknown {
  return source instanceof Example ? source.get(key) : (source as Fields)[key];
}

/** True if the field exists on an Example, a Prediction or a plain object. */
export function hasField(source: FieldSource, key: string): boolean {
  return source instanceof Example ? source.has(key) : Object.prototype.hasOwnProperty.call(source, key);
}
