// BYOB `boolean_yesno` (rule-metrics.md §2.12).
import { PythonCompatError } from "../errors.js";
import { isPyFloat, isPyInt, PyFloat, pyStr } from "../python/repr.js";
import { pyLower, pyStrip, pyTruthy, requireStrFor } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

const YES: ReadonlySet<string> = new Set(["yes", "true", "correct", "right", "yeah", "yep"]);
const NO: ReadonlySet<string> = new Set(["no", "false", "incorrect", "wrong", "nope", "nah"]);

/**
 * The model's yes/no: the first of the first 20 ASCII letter runs of the lower-cased response that is a
 * yes-word or a no-word. Runs are whole: "yesterday" is no answer, "not correct" is yes.
 */
export function extractYesNo(response: unknown): "yes" | "no" | null {
  const text = pyLower(requireStrFor(pyTruthy(response) ? response : "", "lower"));
  const runs = text.match(/[A-Za-z]+/g) ?? [];
  for (const run of runs.slice(0, 20)) {
    if (YES.has(run)) return "yes";
    if (NO.has(run)) return "no";
  }
  return null;
}

/** The gold yes/no: bools as such, numbers truncated to int (1 yes, 0 no), words and "1"/"0"/"true"/"false". */
export function goldYesNo(target: unknown): "yes" | "no" | null {
  if (typeof target === "boolean") return target ? "yes" : "no";
  if (isPyInt(target) || isPyFloat(target)) {
    const x = PyFloat.isInstance(target) ? target.value : Number(target);
    if (Number.isNaN(x)) throw new PythonCompatError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(x)) throw new PythonCompatError("OverflowError", "cannot convert float infinity to integer");
    const t = Math.trunc(x);
    return t === 1 ? "yes" : t === 0 ? "no" : null;
  }
  const s = pyLower(pyStrip(pyStr(target)));
  if (YES.has(s) || s === "1" || s === "true") return "yes";
  if (NO.has(s) || s === "0" || s === "false") return "no";
  return null;
}

/**
 * BYOB `boolean_yesno` → `{ correct, parsed }`.
 * @example booleanYesno({ response: "Yes, it is.", target: true, metadata: {} }) // { correct: true, parsed: true }
 */
export const booleanYesno = pythonName((sample: ScorerInput): { correct: boolean; parsed: boolean } => {
  checkSample(sample);
  const pred = extractYesNo(sample.response);
  const gold = goldYesNo(sample.target);
  return { correct: pred !== null && gold !== null && pred === gold, parsed: pred !== null };
}, "boolean_yesno");
