// DSPy's answer metrics (dspy/evaluate/metrics.py): `normalize_text`, `EM`, `F1`, `HotPotF1`, with the
// originals' exact values and exceptions (docs/spec/rule-metrics.md §1.1-1.4). The string work runs in the
// core-wasm kernels (`normalizeTextBatch`, `tokenF1Batch`); this file only checks arguments the way
// Python fails on them and picks the result.
import { normalizeTextBatch, tokenF1, tokenF1Batch } from "@evalkern/core-wasm";
import { PythonCompatError } from "../errors.js";

function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "bigint") return "int";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return typeof value === "object" ? ((value as object).constructor?.name ?? "object") : typeof value;
}

/** `normalize_text` of a non-str raises TypeError (inside `unicodedata.normalize`). */
export function requirePyStr(value: unknown, what: string): string {
  if (typeof value !== "string") {
    throw new PythonCompatError("TypeError", `normalize_text() argument must be str, not ${pyTypeName(value)} (${what})`);
  }
  return value;
}

/**
 * `answers_list` as DSPy checks it: not a Python list (a JS array) → ValueError; empty → ValueError
 * (`max()` of an empty sequence); a non-str item or prediction → TypeError. The checks run in Python's
 * order: the list first, then `max` over the (prediction, answer) pairs.
 */
export function answerList(prediction: unknown, answers: unknown, index?: number): readonly string[] {
  const at = index === undefined ? "" : ` (item ${index})`;
  if (!Array.isArray(answers)) {
    throw new PythonCompatError("ValueError", `answers_list must be a list, got ${pyTypeName(answers)}${at}`);
  }
  if (answers.length === 0) throw new PythonCompatError("ValueError", `max() arg is an empty sequence: answers_list is empty${at}`);
  requirePyStr(prediction, `prediction${at}`);
  for (let j = 0; j < answers.length; j++) requirePyStr(answers[j], `answers_list[${j}]${at}`);
  return answers as readonly string[];
}

/**
 * DSPy `normalize_text(s)`: NFD, `lower()`, delete ASCII `string.punctuation`, replace
 * `\b(a|an|the)\b` by a space (Python's Unicode `\b`), collapse Python whitespace.
 *
 * Gotchas: NFD splits accents into combining marks, which are not word characters, so `"año"` becomes
 * `"\u0303o"` (the article "an" is removed) and `"thé"` becomes `"\u0301"`.
 *
 * @example normalizeText("The Café!") // "cafe\u0301"
 */
export function normalizeText(s: string): string {
  return normalizeTextBatch([requirePyStr(s, "s")])[0]!;
}

/**
 * DSPy `EM(prediction, answers_list)`: true when the normalised prediction equals some normalised answer.
 *
 * Gotchas: `EM("", [""])` is true; `answers_list` must be a non-empty array (ValueError otherwise, as a
 * `PythonCompatError`), every item a string (TypeError).
 *
 * @example EM("The Eiffel Tower!", ["eiffel tower"]) // true
 */
export function EM(prediction: string, answers: readonly string[]): boolean {
  const refs = answerList(prediction, answers);
  const norm = normalizeTextBatch([prediction, ...refs]);
  for (let j = 1; j < norm.length; j++) if (norm[j] === norm[0]) return true;
  return false;
}

/**
 * DSPy `F1(prediction, answers_list)`: the best token F1 over the answers, tokens being
 * `normalize_text(x).split()`. 0 when no token is shared, including when both sides are empty.
 *
 * @example F1("the cat sat", ["a cat sat down"]) // 0.8
 */
export function F1(prediction: string, answers: readonly string[]): number {
  return tokenF1(prediction, answerList(prediction, answers)).f1;
}

/**
 * DSPy `HotPotF1(prediction, answers_list)`: `F1`, except that 0 is returned when either normalised
 * side is "yes", "no" or "noanswer" and the two differ.
 *
 * @example HotPotF1("yes", ["no"]) // 0
 */
export function HotPotF1(prediction: string, answers: readonly string[]): number {
  return tokenF1(prediction, answerList(prediction, answers), { hotpot: true }).f1;
}

function checkBatch(predictions: unknown, answers: unknown): void {
  if (!Array.isArray(predictions) || !Array.isArray(answers)) {
    throw new PythonCompatError("ValueError", "predictions and answers must be arrays (one answers_list per prediction)");
  }
  if (predictions.length !== answers.length) {
    throw new PythonCompatError("ValueError", `predictions and answers differ in length (${predictions.length} vs ${answers.length})`);
  }
  for (let i = 0; i < predictions.length; i++) answerList(predictions[i], answers[i], i);
}

/** `F1` of many items in one kernel crossing: `F1(predictions[i], answers[i])`. */
export function F1Batch(predictions: readonly string[], answers: readonly (readonly string[])[]): Float64Array {
  checkBatch(predictions, answers);
  return firstColumn(tokenF1Batch(predictions, answers), predictions.length);
}

/** `HotPotF1` of many items in one kernel crossing. */
export function HotPotF1Batch(predictions: readonly string[], answers: readonly (readonly string[])[]): Float64Array {
  checkBatch(predictions, answers);
  return firstColumn(tokenF1Batch(predictions, answers, { hotpot: true }), predictions.length);
}

/** `EM` of many items in one kernel crossing: 1 where `EM(predictions[i], answers[i])` is true. */
export function EMBatch(predictions: readonly string[], answers: readonly (readonly string[])[]): Uint8Array {
  checkBatch(predictions, answers);
  const flat: string[] = [];
  for (let i = 0; i < predictions.length; i++) {
    flat.push(predictions[i]!);
    for (const a of answers[i]!) flat.push(a);
  }
  const norm = normalizeTextBatch(flat);
  const out = new Uint8Array(predictions.length);
  let k = 0;
  for (let i = 0; i < predictions.length; i++) {
    const p = norm[k++];
    const n = answers[i]!.length;
    for (let j = 0; j < n; j++) if (norm[k + j] === p) out[i] = 1;
    k += n;
  }
  return out;
}

function firstColumn(rows: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = rows[3 * i]!;
  return out;
}
