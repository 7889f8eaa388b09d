// DSPy `answer_exact_match` and `answer_passage_match` (dspy/evaluate/metrics.py) and the DPR passage
// tokenizer behind the latter (dspy/dsp/utils/dpr.py), with the originals' exceptions
// (docs/spec/rule-metrics.md §1.5-1.6). Tokenizing runs in core-wasm (`dprTokenizeBatch`); this file reads the
// fields as Python would, and matches token lists.
import { dprTokenizeBatch } from "@evalkern/core-wasm";
import { Example, type FieldSource } from "../contracts/example.js";
import { PythonCompatError } from "../errors.js";
import { EM, F1, requirePyStr } from "./answers.js";

/** `obj.key` as Python evaluates it on a dspy.Example/Prediction: a missing field is AttributeError. */
function attribute(source: unknown, key: string, role: string): unknown {
  if (source instanceof Example) {
    if (source.has(key)) return source.get(key);
  } else if (typeof source === "object" && source !== null) {
    if (key in source) return (source as Record<string, unknown>)[key];
  }
  throw new PythonCompatError("AttributeError", `${role} has no attribute '${key}'`);
}

/** `example.answer` as a list of answers: str → [str], list as is, anything else → ValueError. */
function answersOf(example: unknown): readonly unknown[] {
  const answer = attribute(example, "answer", "example");
  if (typeof answer === "string") return [answer];
  if (Array.isArray(answer)) return answer;
  throw new PythonCompatError(
    "ValueError",
    `Invalid answer type: ${answer === null || answer === undefined ? "NoneType" : Array.isArray(answer) ? "list" : typeof answer}`,
  );
}

/**
 * DSPy `answer_exact_match(example, pred, trace=None, frac=1.0)`: with `frac >= 1`, `EM(pred.answer,
 * answers)`; otherwise `F1(pred.answer, answers) >= frac`. `answers` is `example.answer` (a string
 * becomes a one-element list). Reads `.answer` of a `Example`/`Prediction` or a plain object.
 *
 * Gotchas: `frac <= 0` is always true (F1 ≥ 0) unless the answer list is empty (ValueError). `""` vs
 * `[""]` is true at frac 1 and false at frac 0.8 (F1 of two empty token lists is 0). Errors are
 * `PythonCompatError` with the Python type: a missing field → AttributeError, an `example.answer` that
 * is neither a string nor an array → ValueError, a non-string prediction or answer → TypeError.
 *
 * @example answerExactMatch({ answer: "Paris" }, { answer: "paris." }) // true
 */
export function answerExactMatch(example: FieldSource, pred: FieldSource, trace?: unknown, frac: number = 1.0): boolean {
  void trace;
  const answers = answersOf(example);
  const prediction = attribute(pred, "answer", "pred");
  if (typeof frac !== "number") {
    throw new PythonCompatError("TypeError", `'>=' not supported between instances of '${typeof frac}' and 'float'`);
  }
  if (frac >= 1.0) return EM(prediction as string, answers as readonly string[]);
  return F1(prediction as string, answers as readonly string[]) >= frac;
}

/** The passages of `pred.context`, iterated as Python's `for` would (a string by code point). */
function passagesOf(context: unknown): readonly unknown[] {
  if (typeof context === "string") return Array.from(context);
  if (typeof context === "object" && context !== null && typeof (context as Iterable<unknown>)[Symbol.iterator] === "function") {
    return Array.from(context as Iterable<unknown>);
  }
  const name = context === null || context === undefined ? "NoneType" : typeof context;
  throw new PythonCompatError("TypeError", `'${name}' object is not iterable (pred.context)`);
}

/** DPR `has_answer`: does some answer token list occur as a contiguous run of `text`'s tokens? */
function hasAnswer(answers: readonly (readonly string[])[], text: readonly string[]): boolean {
  for (const answer of answers) {
    const m = answer.length;
    outer: for (let i = 0; i + m <= text.length; i++) {
      for (let j = 0; j < m; j++) if (text[i + j] !== answer[j]) continue outer;
      return true;
    }
  }
  return false;
}

/**
 * DSPy `answer_passage_match(example, pred, trace=None)`: true when some passage of `pred.context`
 * contains some answer of `example.answer` as a contiguous run of DPR tokens, both sides going through
 * `normalize_text` then `DPR_normalize`.
 *
 * Gotchas (all as DSPy): an answer with no tokens (`""`, `"the"`, `"!!!"`) matches any passage, even an
 * empty one; CJK text without spaces is a single token, so `"東京"` does not match inside
 * `"東京は日本の首都です"`; a string `context` is iterated character by character; an empty context is
 * false. Passages are tried in order and the first match wins, so a bad passage after it raises
 * nothing. Errors are `PythonCompatError`: AttributeError (missing field), ValueError (`example.answer`
 * neither string nor array), TypeError (non-iterable context, non-string answer or passage).
 *
 * @example answerPassageMatch({ answer: "Eiffel Tower" }, { context: ["The Eiffel Tower is in Paris."] }) // true
 */
export function answerPassageMatch(example: FieldSource, pred: FieldSource, trace?: unknown): boolean {
  void trace;
  const answers = answersOf(example);
  const passages = passagesOf(attribute(pred, "context", "pred"));
  if (passages.length === 0) return false;
  // Python tokenizes the answers (per passage) before the passage itself
  for (let j = 0; j < answers.length; j++) requirePyStr(answers[j], `example.answer[${j}]`);
  let usable = passages.findIndex((p) => typeof p !== "string");
  if (usable < 0) usable = passages.length;
  const tokens = dprTokenizeBatch([...(answers as string[]), ...(passages.slice(0, usable) as string[])], {
    normalizeText: true,
  });
  const answerTokens = tokens.slice(0, answers.length);
  for (let i = 0; i < usable; i++) if (hasAnswer(answerTokens, tokens[answers.length + i]!)) return true;
  if (usable < passages.length) requirePyStr(passages[usable], `pred.context[${usable}]`);
  return false;
}

/**
 * DSPy `DPR_normalize(text)`: the lowercased tokens of `NFD(text)` under DPR's SimpleTokenizer
 * (`[\p{L}\p{N}\p{M}]+|[^\p{Z}\p{C}]`). With `{ normalizeText: true }`, of `normalize_text(text)` first,
 * which is what `answerPassageMatch` compares.
 *
 * @example dprNormalize("C++ in Zürich") // ["c", "+", "+", "in", "zu\u0308rich"]
 */
export function dprNormalize(text: string, options?: { readonly normalizeText?: boolean }): string[] {
  return dprTokenizeBatch([requirePyStr(text, "text")], options)[0]!;
}
