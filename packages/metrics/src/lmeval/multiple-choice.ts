// lm-evaluation-harness multiple-choice scoring: `ConfigurableTask.process_results`, branch
// OUTPUT_TYPE == "multiple_choice", with `check_gold_index_error` (lm_eval/api/task.py, 0.4.13.dev0;
// docs/spec/rule-metrics.md §4). The argmaxes run in core-wasm (`multipleChoiceArgmaxBatch`); this file resolves
// the gold the way lm-eval does, including its quirks and its exceptions.
import { multipleChoiceArgmaxBatch } from "@evalkern/core-wasm";
import { InvalidArgumentError, PythonCompatError } from "../errors.js";

/** A gold label as lm-eval receives it from `doc_to_target`. */
export type LmEvalGold = number | bigint | string | boolean | null | undefined | readonly LmEvalGoldItem[];
/** An item of a multi-target (list) gold. */
export type LmEvalGoldItem = number | bigint | boolean | string | null | undefined;

export interface MultipleChoiceInput {
  /**
   * The gold: an index (negative indexes are kept, as lm-eval does), a choice string (resolved with
   * `choices.index`), or a list of indexes (multi-target: membership instead of equality). A boolean is
   * the int 0/1. `null`/`undefined` (Python `None`) and non-integral numbers (Python `float`) raise
   * TypeError, as lm-eval does when it indexes `is_greedy` with them.
   */
  readonly gold: LmEvalGold;
  /** The choice strings, without the target delimiter. At least one. */
  readonly choices: readonly string[];
  /** Summed log-likelihood of each choice's continuation (`lls`). */
  readonly logprobs: readonly number[];
  /** Whether each continuation was the greedy one; all false when omitted. */
  readonly isGreedy?: readonly boolean[];
}

export interface MultipleChoiceOptions {
  /**
   * How a JS `number` gold is read. `"index"` (default): an integral number is a Python int, anything
   * else a Python float. `"float"`: every `number` is a Python float and ints are `bigint`s — the typed
   * convention of a JSON/Python-literal parse that keeps ints apart (so `1.0` raises TypeError like
   * lm-eval, while `1n` is the index 1). Applies to list items too.
   */
  readonly numbers?: "index" | "float";
}

/** lm-eval's per-document metrics: 1.0/0.0 for the accuracies and the int 0/1 for `exact_match`. */
export interface MultipleChoiceResult {
  /** argmax(lls) == gold. */
  readonly acc: number;
  /** argmax(lls / code points of the choice) == gold (per character, no guard against empty choices). */
  readonly acc_norm: number;
  /** argmax(lls / UTF-8 bytes of the choice) == gold (lm-eval's `acc_bytes`). */
  readonly acc_bytes: number;
  /** int(is_greedy[gold]) when the gold resolved to an index, else 0. */
  readonly exact_match: number;
}

const INVALID = -100;

/** A Python number: int (exact, may be bigint) or float. */
type PyNum = { readonly int: true; readonly value: number | bigint } | { readonly int: false; readonly value: number };

function pyNumber(value: unknown, floats: boolean): PyNum | undefined {
  if (typeof value === "boolean") return { int: true, value: value ? 1 : 0 };
  if (typeof value === "bigint") return { int: true, value };
  if (typeof value === "number") {
    return !floats && Number.isInteger(value) ? { int: true, value } : { int: false, value };
  }
  return undefined;
}

function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return typeof value;
}

/** Python `x < n` for the gold check; TypeError for types that do not compare with int. */
function lessThan(x: PyNum, n: number): boolean {
  return typeof x.value === "bigint" ? x.value < BigInt(n) : x.value < n;
}

/** Python `pred == x` (numeric equality; an int pred against int or float x). */
function equals(pred: number, x: PyNum): boolean {
  return typeof x.value === "bigint" ? BigInt(pred) === x.value : pred === x.value;
}

/** Python `is_greedy[x]`: ints index (negative from the end), anything else TypeError. */
function greedyAt(isGreedy: readonly boolean[], x: PyNum | undefined, raw: unknown): boolean {
  if (x === undefined || !x.int) {
    throw new PythonCompatError("TypeError", `tuple indices must be integers or slices, not ${pyTypeName(raw)}`);
  }
  const n = isGreedy.length;
  const v = typeof x.value === "bigint" ? x.value : BigInt(x.value);
  const i = v < 0n ? v + BigInt(n) : v;
  if (i < 0n || i >= BigInt(n)) throw new PythonCompatError("IndexError", "tuple index out of range");
  return isGreedy[Number(i)]!;
}

/** Resolved gold: one value (`single`) or multi-target items, after `check_gold_index_error`. */
type Gold =
  | { readonly multi: false; readonly num: PyNum | undefined; readonly raw: unknown }
  | { readonly multi: true; readonly items: readonly { readonly num: PyNum; readonly raw: unknown }[] };

function resolveGold(gold: unknown, choices: readonly string[], floats: boolean): Gold {
  const n = choices.length;
  if (Array.isArray(gold)) {
    // [i if i < len(choices) else -100 for i in gold]
    const items = gold.map((raw: unknown) => {
      const num = pyNumber(raw, floats);
      if (num === undefined) {
        throw new PythonCompatError("TypeError", `'<' not supported between instances of '${pyTypeName(raw)}' and 'int'`);
      }
      return lessThan(num, n) ? { num, raw } : { num: { int: true, value: INVALID } as PyNum, raw: INVALID };
    });
    return { multi: true, items };
  }
  if (typeof gold === "string") {
    const i = choices.indexOf(gold);
    return { multi: false, num: { int: true, value: i < 0 ? INVALID : i }, raw: gold };
  }
  const num = pyNumber(gold, floats);
  if (num !== undefined && num.int) {
    return { multi: false, num: lessThan(num, n) ? num : { int: true, value: INVALID }, raw: gold };
  }
  // None and floats pass through unchanged (and fail when is_greedy is indexed with them)
  return { multi: false, num, raw: gold };
}

function score(gold: Gold, pred: number, predNorm: number, predByte: number, isGreedy: readonly boolean[]): MultipleChoiceResult {
  if (gold.multi) {
    const has = (p: number) => (gold.items.some((it) => equals(p, it.num)) ? 1.0 : 0.0);
    // int(any(is_greedy[i] if i != -100 else 0 for i in gold)): lazy, so a bad item after a hit is never indexed
    let exact = 0;
    for (const it of gold.items) {
      if (equals(INVALID, it.num)) continue;
      if (greedyAt(isGreedy, it.num, it.raw)) {
        exact = 1;
        break;
      }
    }
    return { acc: has(pred), acc_norm: has(predNorm), acc_bytes: has(predByte), exact_match: exact };
  }
  const eq = (p: number) => (gold.num !== undefined && equals(p, gold.num) ? 1.0 : 0.0);
  const invalid = gold.num !== undefined && equals(INVALID, gold.num);
  const exact = invalid ? 0 : greedyAt(isGreedy, gold.num, gold.raw) ? 1 : 0;
  return { acc: eq(pred), acc_norm: eq(predNorm), acc_bytes: eq(predByte), exact_match: exact };
}

function checkInput(input: unknown, index: number | undefined): asserts input is MultipleChoiceInput {
  const at = index === undefined ? "" : `[${index}]`;
  if (typeof input !== "object" || input === null) {
    throw new InvalidArgumentError(`input${at} must be { gold, choices, logprobs, isGreedy? }`, { argument: "input", index });
  }
  const { choices, logprobs, isGreedy } = input as MultipleChoiceInput;
  if (!Array.isArray(choices) || choices.length === 0 || choices.some((c) => typeof c !== "string")) {
    throw new InvalidArgumentError(`choices${at} must be a non-empty array of strings`, {
      argument: "choices",
      index,
      expected: "string[] (length >= 1)",
    });
  }
  if (!Array.isArray(logprobs) || logprobs.length !== choices.length || logprobs.some((v) => typeof v !== "number")) {
    throw new InvalidArgumentError(`logprobs${at} must be an array of ${choices.length} numbers (one per choice)`, {
      argument: "logprobs",
      index,
      expected: `number[${choices.length}]`,
    });
  }
  if (
    isGreedy !== undefined &&
    (!Array.isArray(isGreedy) || isGreedy.length !== choices.length || isGreedy.some((v) => typeof v !== "boolean"))
  ) {
    throw new InvalidArgumentError(`isGreedy${at} must be an array of ${choices.length} booleans (one per choice)`, {
      argument: "isGreedy",
      index,
      expected: `boolean[${choices.length}]`,
    });
  }
}

function numbersOption(options: MultipleChoiceOptions | undefined): boolean {
  const v = options?.numbers;
  if (v === undefined || v === "index") return false;
  if (v === "float") return true;
  throw new InvalidArgumentError(`options.numbers must be "index" or "float", got ${String(v)}`, { argument: "options.numbers" });
}

/**
 * lm-evaluation-harness `acc`, `acc_norm`, `acc_bytes` and `exact_match` of one multiple-choice document.
 *
 * When to use: scoring log-likelihood multiple choice (ARC, HellaSwag, MMLU, …) with lm-eval's numbers.
 *
 * Details: `acc_norm` divides by the choice's length in code points (not bytes, not tokens), with no
 * guard for an empty choice (−inf for a negative ll, NaN for 0, and the first NaN wins the argmax, as
 * numpy's). Ties go to the lowest index. An int gold ≥ `choices.length` and a string gold not among the
 * choices become −100 (every metric 0); negative ints are kept, so `acc` is 0 but `exact_match`
 * reads `isGreedy` from the end.
 *
 * Gotchas: a `null`/float gold throws `PythonCompatError` TypeError, as lm-eval does; a negative gold
 * below `-choices.length` throws IndexError. NeMo BYOB's `acc_norm` is this `acc_bytes` (with a guard),
 * not this `acc_norm`.
 *
 * @example
 * multipleChoice({ gold: 1, choices: ["Paris", "Lyon"], logprobs: [-3.2, -1.1] });
 * // { acc: 1, acc_norm: 1, acc_bytes: 1, exact_match: 0 }
 */
export function multipleChoice(input: MultipleChoiceInput, options?: MultipleChoiceOptions): MultipleChoiceResult {
  return multipleChoiceBatch([input], options)[0]!;
}

/**
 * `multipleChoice` of many documents, with one kernel crossing for all argmaxes. Shapes are checked for
 * every document first; a document that makes lm-eval raise (a `None`/float gold, an out-of-range
 * negative index) throws for the whole batch, as it would stop lm-eval's loop.
 */
export function multipleChoiceBatch(inputs: readonly MultipleChoiceInput[], options?: MultipleChoiceOptions): MultipleChoiceResult[] {
  const floats = numbersOption(options);
  if (!Array.isArray(inputs)) throw new InvalidArgumentError("inputs must be an array", { argument: "inputs" });
  inputs.forEach((input, i) => checkInput(input, inputs.length === 1 ? undefined : i));
  const argmax = multipleChoiceArgmaxBatch(inputs.map((q) => ({ choices: q.choices, logLikelihoods: q.logprobs })));
  return inputs.map((q, i) => {
    const isGreedy = q.isGreedy ?? new Array<boolean>(q.choices.length).fill(false);
    const gold = resolveGold(q.gold, q.choices, floats);
    return score(gold, argmax[4 * i]!, argmax[4 * i + 1]!, argmax[4 * i + 2]!, isGreedy);
  });
}
