// BYOB `multiple_choice_acc` and `_resolve_gold_index` (docs/spec/rule-metrics.md §2.9, §4).
import { multipleChoiceArgmax } from "@evalkern/core-wasm";
import { PythonCompatError } from "../errors.js";
import { PyFloat, pyTypeName } from "../python/repr.js";
import { pyIntFromStr, pyIsAlphaStr, pyIsDigitStr, pyLower, pyStrip, pyTruthy, pyUpper } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

/** `metadata.get(key) or []` as a Python sequence (a str is its characters). */
function payloadList(metadata: Readonly<Record<string, unknown>>, key: string): readonly unknown[] {
  const v = Object.prototype.hasOwnProperty.call(metadata, key) ? metadata[key] : undefined;
  if (!pyTruthy(v)) return [];
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return Array.from(v);
  throw new PythonCompatError("TypeError", `'${pyTypeName(v)}' object is not subscriptable`);
}

/** A choice used as a str (`choices[i].strip()` / `.encode()`): AttributeError for anything else, as in Python. */
function choiceText(c: unknown, method: string): string {
  if (typeof c !== "string") throw new PythonCompatError("AttributeError", `'${pyTypeName(c)}' object has no attribute '${method}'`);
  return c;
}

function asNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return Number(v);
  if (PyFloat.isInstance(v)) return v.value;
  throw new PythonCompatError("TypeError", `'>' not supported between instances of '${pyTypeName(v)}' and 'float'`);
}

/**
 * BYOB `_resolve_gold_index(target, choices)`: which choice the target names, or null.
 *
 * In order: a bool or int in range; for a str (stripped, non-empty) a single letter (A=0; its
 * upper-case must be one character, else pythonType `TypeError` as `ord()` raises: `"ß"`, `"ﬁ"`,
 * `"ŉ"`), then a decimal integer in range, then the first choice equal to it after strip, then the first
 * equal case-insensitively. Letter and number readings win over choice text: target `"a"` with choices
 * `["b", "a"]` is index 0. Any other type gives null.
 */
export function resolveGoldIndex(target: unknown, choices: readonly unknown[]): number | null {
  if (target === null || target === undefined) return null;
  const n = choices.length;
  if (typeof target === "boolean") return (target ? 1 : 0) < n ? (target ? 1 : 0) : null;
  if (typeof target === "bigint") return target >= 0n && target < BigInt(n) ? Number(target) : null;
  if (typeof target === "number" && Number.isInteger(target) && !Object.is(target, -0)) return target >= 0 && target < n ? target : null;
  if (typeof target !== "string") return null;
  const s = pyStrip(target);
  if (s === "") return null;
  const chars = Array.from(s);
  if (chars.length === 1) {
    const up = pyUpper(s);
    if (pyIsAlphaStr(up)) {
      if (Array.from(up).length !== 1)
        throw new PythonCompatError("TypeError", `ord() expected a character, but string of length ${Array.from(up).length} found`);
      const idx = up.codePointAt(0)! - 65;
      if (idx >= 0 && idx < n) return idx;
    }
  }
  let i = 0;
  while (i < chars.length && chars[i] === "-") i++;
  if (pyIsDigitStr(chars.slice(i).join(""))) {
    try {
      const v = pyIntFromStr(s);
      if (v >= 0n && v < BigInt(n)) return Number(v);
    } catch (e) {
      if (!(e instanceof PythonCompatError && e.pythonType === "ValueError")) throw e;
    }
  }
  for (let k = 0; k < n; k++) if (pyStrip(choiceText(choices[k], "strip")) === s) return k;
  const sl = pyLower(s);
  for (let k = 0; k < n; k++) if (pyLower(pyStrip(choiceText(choices[k], "strip"))) === sl) return k;
  return null;
}

/**
 * BYOB `multiple_choice_acc` over `metadata._choices`, `_choices_logprobs` and optional
 * `_choices_is_greedy`: `acc` (argmax of the log-probabilities is the gold choice), `acc_norm` (argmax
 * of logprob / max(UTF-8 bytes of the choice, 1): lm-eval's `acc_bytes`, not its per-character
 * `acc_norm`) and `acc_greedy` (the best-scoring greedy choice is the gold one). Floats 1.0/0.0; all
 * 0.0 when the payload is missing or inconsistent or the target names no choice.
 *
 * @example
 * multipleChoiceAcc({ response: "", target: "B", metadata: { _choices: ["Paris", "Rome"], _choices_logprobs: [-3, -1] } })
 * // { acc: 1, acc_norm: 1, acc_greedy: 0 }
 */
export const multipleChoiceAcc = pythonName((sample: ScorerInput): { acc: number; acc_norm: number; acc_greedy: number } => {
  checkSample(sample);
  const zero = { acc: 0.0, acc_norm: 0.0, acc_greedy: 0.0 };
  const metadata = sample.metadata === undefined || sample.metadata === null ? {} : sample.metadata;
  if (typeof metadata !== "object" || Array.isArray(metadata))
    throw new PythonCompatError("AttributeError", `'${pyTypeName(metadata)}' object has no attribute 'get'`);
  const choicesRaw = payloadList(metadata, "_choices");
  const logprobsRaw = payloadList(metadata, "_choices_logprobs");
  const greedy = payloadList(metadata, "_choices_is_greedy");
  if (choicesRaw.length === 0 || logprobsRaw.length === 0 || choicesRaw.length !== logprobsRaw.length) return zero;
  const gold = resolveGoldIndex(sample.target, choicesRaw);
  if (gold === null) return zero;
  const logprobs = logprobsRaw.map(asNumber);
  const choices = choicesRaw.map((c) => choiceText(c, "encode"));
  const arg = multipleChoiceArgmax(choices, logprobs);
  let accGreedy = 0.0;
  if (greedy.some(pyTruthy)) {
    let best = -1;
    for (let i = 0; i < greedy.length; i++) {
      if (!pyTruthy(greedy[i])) continue;
      if (i >= logprobs.length) throw new PythonCompatError("IndexError", "list index out of range");
      if (best < 0 || logprobs[i]! > logprobs[best]!) best = i;
    }
    accGreedy = best === gold ? 1.0 : 0.0;
  }
  return { acc: arg.raw === gold ? 1.0 : 0.0, acc_norm: arg.perByteAtLeastOne === gold ? 1.0 : 0.0, acc_greedy: accGreedy };
}, "multiple_choice_acc");
