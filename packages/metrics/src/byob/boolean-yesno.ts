// BYOB `boolean_yesno` (docs/spec/rule-metrics.md §2.12).
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
 *
 * The response is lower-cased and scanned chunk by chunk, stopping once the 20th run is complete, so a
 * long response costs only what is read of it. Chunking does not change the runs: the one
 * context-dependent mapping of `str.lower()` (final sigma) never yields an ASCII letter, and chunks end
 * between code points.
 */
export function extractYesNo(response: unknown): "yes" | "no" | null {
  const text = requireStrFor(pyTruthy(response) ? response : "", "lower");
  let run = "";
  let runs = 0;
  const CHUNK = 8192;
  for (let start = 0; start < text.length && runs < 20; ) {
    let end = Math.min(text.length, start + CHUNK);
    if (end < text.length && (text.charCodeAt(end) & 0xfc00) === 0xdc00 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    const lower = pyLower(text.slice(start, end));
    for (let i = 0; i < lower.length && runs < 20; i++) {
      const c = lower.charCodeAt(i);
      if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
        if (run.length <= 10) run += lower[i]; // no yes/no word is longer; a longer run only has to stay unequal
      } else if (run !== "") {
        runs++;
        if (YES.has(run)) return "yes";
        if (NO.has(run)) return "no";
        run = "";
      }
    }
    start = end;
  }
  if (run !== "" && runs < 20) {
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
