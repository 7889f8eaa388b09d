// BYOB `gsm8k_answer` (rule-metrics.md §2.11).
import type { PythonRegex } from "../python/regex.js";
import { compilePython } from "./python-re.js";
import { PythonCompatError } from "../errors.js";
import { isPyFloat, isPyInt, pyStr, pyTypeName } from "../python/repr.js";
import { pyStrip, pyTruthy } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

const NUMBER_SRC = String.raw`-?\d[\d,]*(?:\.\d+)?`;

interface Gsm8kPatterns {
  readonly hash: PythonRegex;
  readonly boxed: PythonRegex;
  readonly number: PythonRegex;
  readonly numberFull: PythonRegex;
}

let compiled: Gsm8kPatterns | undefined;

function gsmPatterns(): Gsm8kPatterns {
  compiled ??= {
    hash: compilePython(String.raw`####\s*(` + NUMBER_SRC + ")"),
    boxed: compilePython(String.raw`\\boxed\{\s*(` + NUMBER_SRC + String.raw`)\s*\}`),
    number: compilePython(NUMBER_SRC),
    numberFull: compilePython(String.raw`\A(?:` + NUMBER_SRC + String.raw`)\Z`),
  };
  return compiled;
}

/**
 * BYOB `_normalize_number`: drop commas, strip, require a full NUMBER match, then (if there is a ".")
 * strip trailing zeros and dots; "" becomes "0". Leading zeros, signs and non-ASCII digits are kept.
 */
export function normalizeNumber(raw: string): string | null {
  const s = pyStrip(raw.replace(/,/g, ""));
  const m = gsmPatterns().numberFull.search(s);
  if (m === null) return null;
  let out = s;
  if (out.includes(".")) out = out.replace(/0+$/, "").replace(/\.+$/, "");
  return out === "" ? "0" : out;
}

function lastNumber(text: string): string | undefined {
  let last: string | undefined;
  for (const m of gsmPatterns().number.finditer(text)) last = m.group(0);
  return last;
}

/** The model's answer: the first `#### n`, else the first `\boxed{n}`, else the last number. */
export function extractPrediction(response: unknown): string | null {
  const text = pyTruthy(response) ? response : "";
  if (typeof text !== "string") throw new PythonCompatError("TypeError", `expected string or bytes-like object, got '${pyTypeName(text)}'`);
  const p = gsmPatterns();
  const raw = p.hash.search(text)?.group(1) ?? p.boxed.search(text)?.group(1) ?? lastNumber(text);
  return raw === undefined ? null : normalizeNumber(raw);
}

/** The gold answer: a number through `str()` (so `1e20` → "1e+20" never parses), else `#### n` or the last number. */
export function extractGold(target: unknown): string | null {
  if (typeof target === "boolean" || isPyInt(target) || isPyFloat(target)) return normalizeNumber(pyStr(target));
  const text = pyStr(pyTruthy(target) ? target : "");
  const raw = gsmPatterns().hash.search(text)?.group(1) ?? lastNumber(text);
  return raw === undefined ? null : normalizeNumber(raw);
}

/**
 * BYOB `gsm8k_answer` → `{ correct, parsed }`: the normalised numbers are compared as strings
 * (`"018"` ≠ `"18"`, `"-0"` ≠ `"0"`, `"٤٢"` ≠ `"42"`).
 * @example gsm8kAnswer({ response: "so 3,181 apples", target: "#### 3181", metadata: {} }) // { correct: true, parsed: true }
 */
export const gsm8kAnswer = pythonName((sample: ScorerInput): { correct: boolean; parsed: boolean } => {
  checkSample(sample);
  const pred = extractPrediction(sample.response);
  const gold = extractGold(sample.target);
  return { correct: pred !== null && gold !== null && pred === gold, parsed: pred !== null };
}, "gsm8k_answer");
