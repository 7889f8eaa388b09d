// `@scorer` (decorators.py) and the `any_of` / `all_of` combinators (scorers.py).
import { EvalkernError, PythonCompatError } from "../errors.js";
import type { ScoreDict, ScorerFn, ScorerInput } from "./types.js";

/** A scorer returned something that is not a `{ name: boolean | number }` object. */
export class ScorerResultError extends EvalkernError {
  override name = "ScorerResultError";
  override readonly code: string = "SCORER_RESULT";
  /** The scorer's name. */
  readonly scorer: string;
  /** The offending key, when one is at fault. */
  readonly key: string | undefined;
  constructor(scorer: string, message: string, key?: string) {
    super(`scorer ${JSON.stringify(scorer)}: ${message}`);
    this.scorer = scorer;
    this.key = key;
  }
}

const SCORER = Symbol.for("evalkern.byob.scorer");

/** A scorer was handed something that is not a ScorerInput object (Python: AttributeError on `.response`). */
export function checkSample(sample: ScorerInput): void {
  if (typeof sample !== "object" || sample === null) {
    throw new PythonCompatError("AttributeError", `a scorer takes a ScorerInput object, got ${sample === null ? "None" : typeof sample}`);
  }
}

/** A function wrapped by `scorer()`. */
export type Scorer = ScorerFn & { readonly [SCORER]: true };

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? `a ${(v as object).constructor?.name ?? "object"}` : `${typeof v} ${String(v)}`;
}

/** Checks one returned dict: a plain object whose keys are strings and values booleans or finite numbers. */
export function checkScoreDict(name: string, out: unknown): ScoreDict {
  if (typeof out !== "object" || out === null || Array.isArray(out)) {
    throw new ScorerResultError(name, `must return an object of metric values, got ${describe(out)}`);
  }
  const proto = Object.getPrototypeOf(out);
  if (proto !== Object.prototype && proto !== null) {
    throw new ScorerResultError(name, `must return a plain object, got ${describe(out)}`);
  }
  if (Object.getOwnPropertySymbols(out).length > 0) throw new ScorerResultError(name, "metric names must be strings, got a symbol key");
  for (const [key, value] of Object.entries(out)) {
    if (typeof value === "boolean") continue;
    if (typeof value !== "number")
      throw new ScorerResultError(name, `value of ${JSON.stringify(key)} must be a boolean or a number, got ${describe(value)}`, key);
    if (!Number.isFinite(value)) throw new ScorerResultError(name, `value of ${JSON.stringify(key)} must be finite, got ${value}`, key);
  }
  return out as ScoreDict;
}

/**
 * BYOB `@scorer`: checks the function when wrapping it and every dict it returns.
 *
 * Details: like `_validate_scorer_signature`, a function declaring no parameter, or three or more
 * required ones (the legacy `(response, target, metadata)` form), is rejected with pythonType
 * `TypeError`. JS cannot tell `(...args)` or `(a = 1)` from a function without parameters (both have
 * `length` 0), so those are rejected too. The wrapper calls `fn(sample)`, as BYOB's runner does.
 * Each result must be a plain object of booleans and finite numbers (`ScorerResultError` otherwise).
 *
 * @example
 * const myScorer = scorer((s: ScorerInput) => ({ correct: s.response === s.target }));
 * myScorer({ response: "4", target: "4", metadata: {} }); // { correct: true }
 */
export function scorer(fn: (sample: ScorerInput) => unknown): Scorer {
  if (typeof fn !== "function") throw new PythonCompatError("TypeError", `scorer() expects a function, got ${describe(fn)}`);
  const name = fn.name || "scorer";
  if (fn.length === 0) {
    throw new PythonCompatError(
      "TypeError",
      `Scorer '${name}' accepts 0 arguments. BYOB scorers must accept at least one argument — the ScorerInput instance.`,
    );
  }
  if (fn.length >= 3) {
    throw new PythonCompatError(
      "TypeError",
      `Scorer '${name}' accepts ${fn.length} required arguments. BYOB scorers now accept a single ScorerInput argument.`,
    );
  }
  const wrapped = (sample: ScorerInput): ScoreDict => checkScoreDict(name, fn(sample));
  Object.defineProperty(wrapped, "name", { value: name });
  Object.defineProperty(wrapped, SCORER, { value: true });
  return wrapped as Scorer;
}

/** Was `fn` made by `scorer()`? (BYOB's `fn._is_scorer`) */
export const isScorer = (fn: unknown): fn is Scorer =>
  typeof fn === "function" && (fn as unknown as Record<symbol, unknown>)[SCORER] === true;

/** Python's `__name__` of a scorer: the JS function name, snake_case for the built-ins. */
const scorerName = (fn: ScorerFn): string => BUILTIN_NAMES.get(fn) ?? fn.name;
const BUILTIN_NAMES = new WeakMap<ScorerFn, string>();

/** Registers the Python name of a built-in scorer (`exactMatch` → `exact_match`), used by anyOf/allOf keys. */
export function pythonName<F extends ScorerFn>(fn: F, name: string): F {
  BUILTIN_NAMES.set(fn, name);
  return fn;
}

function combine(kind: "any_of" | "all_of", fns: readonly ScorerFn[]): ScorerFn {
  fns.forEach((f) => {
    if (typeof f !== "function") throw new PythonCompatError("TypeError", `${kind} expects scorer functions`);
  });
  const combined = (sample: ScorerInput): ScoreDict => {
    const results: ScoreDict = {};
    let flag = kind === "all_of";
    for (const fn of fns) {
      const sub = fn(sample);
      for (const [key, value] of Object.entries(sub)) results[`${scorerName(fn)}_${key}`] = value;
      const truthy = Boolean(sub["correct"]);
      if (kind === "any_of" && truthy) flag = true;
      if (kind === "all_of" && !truthy) flag = false;
    }
    results["correct"] = flag;
    return results;
  };
  const name = `${kind}(${fns.map(scorerName).join(", ")})`;
  Object.defineProperty(combined, "name", { value: name });
  return combined;
}

/**
 * BYOB `any_of(*scorers)`: runs each scorer, copies its keys as `"{name}_{key}"`, and sets `correct`
 * to whether any sub-result's `correct` is truthy.
 *
 * @example
 * anyOf(contains, exactMatch)({ response: "Paris!", target: "paris", metadata: {} })
 * // { contains_correct: true, exact_match_correct: false, correct: true }
 */
export const anyOf = (...fns: ScorerFn[]): ScorerFn => combine("any_of", fns);

/** BYOB `all_of(*scorers)`: as `anyOf`, with `correct` true only when every sub-result's `correct` is truthy. */
export const allOf = (...fns: ScorerFn[]): ScorerFn => combine("all_of", fns);
