// BYOB `mcq_letter_extract` (docs/spec/rule-metrics.md §2.10): the answer letter A-J found in the response by
// five Python regexes, against the target's letter.
import { PythonCompatError } from "../errors.js";
import { IGNORECASE, type PythonRegex } from "../python/regex.js";
import { compilePython } from "./python-re.js";
import { isPyInt, pyTypeName } from "../python/repr.js";
import { pyIntFromStr, pyIsDigitStr, pyLower, pyStrip, pyTruthy, pyUpper, requireStrFor } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

const LETTERS = "ABCDEFGHIJ";

let patterns: readonly PythonRegex[] | undefined;

/** The five patterns, in BYOB's order; the first that matches anywhere wins. */
function letterPatterns(): readonly PythonRegex[] {
  patterns ??= [
    compilePython(String.raw`\\boxed\{\s*([A-Ja-j])\s*\}`),
    compilePython(String.raw`(?:answer\s+is\s*[:\-]?\s*\(?)\s*([A-Ja-j])\b`, IGNORECASE),
    compilePython(String.raw`\boption\s*\(?([A-Ja-j])\)`, IGNORECASE),
    compilePython(String.raw`^\s*\(?([A-Ja-j])[\)\.\:]`, IGNORECASE),
    compilePython(String.raw`\b([A-Ja-j])\b`),
  ];
  return patterns;
}

/**
 * BYOB `_extract_letter`: the upper-cased first group of the first pattern that matches the first 200
 * characters of the stripped response, or "" when none does. Only that bounded window is searched, so
 * the time is linear in the response's length (the strip) whatever it holds. Note the original's quirks: a standalone
 * English "I" or "a" counts as an answer, and under IGNORECASE `ı` and `İ` match `[A-Ja-j]`.
 */
export function extractLetter(response: unknown): string {
  const value = pyTruthy(response) ? response : "";
  const text = pyStrip(requireStrFor(value, "strip"));
  if (text === "") return "";
  const head = codePointPrefix(text, 200);
  for (const p of letterPatterns()) {
    const m = p.search(head);
    if (m !== null) return pyUpper(m.group(1)!);
  }
  return "";
}

/** `s[:n]` in code points, reading only the first n code points (the response can be megabytes). */
function codePointPrefix(s: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return s.slice(0, i);
}

/** BYOB's target letter: from an int/bool index, a digit string, a short letter string, or choice text. */
export function targetLetter(target: unknown, metadata: unknown): string {
  if (typeof target === "boolean") return LETTERS[target ? 1 : 0]!;
  if (isPyInt(target)) {
    const t = Number(target);
    return t >= 0 && t <= 9 ? LETTERS[t]! : "";
  }
  if (typeof target !== "string") return "";
  const s = pyStrip(target);
  if (pyIsDigitStr(s)) {
    const v = pyIntFromStr(s); // "²" and "①" are digits int() rejects: ValueError, as in the original
    return v >= 0n && v <= 9n ? LETTERS[Number(v)]! : pyUpper(s);
  }
  if (s !== "") {
    const first = pyUpper(String.fromCodePoint(s.codePointAt(0)!));
    if (LETTERS.includes(first) && codePointPrefix(s, 2).length === s.length) return first;
  }
  if (metadata === null || metadata === undefined || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new PythonCompatError("AttributeError", `'${pyTypeName(metadata ?? null)}' object has no attribute 'get'`);
  }
  const sl = pyLower(s);
  const md = metadata as Record<string, unknown>;
  for (const [key, letter] of [
    ["a", "A"],
    ["b", "B"],
    ["c", "C"],
    ["d", "D"],
  ] as const) {
    const v = Object.prototype.hasOwnProperty.call(md, key) ? md[key] : undefined;
    if (typeof v === "string" && pyLower(pyStrip(v)) === sl) return letter;
  }
  return "";
}

/**
 * BYOB `mcq_letter_extract` → `{ correct, parsed }`: `parsed` when a letter was found, `correct` when it
 * equals the target's letter.
 * @example mcqLetterExtract({ response: "The answer is (c).", target: "C", metadata: {} }) // { correct: true, parsed: true }
 */
export const mcqLetterExtract = pythonName((sample: ScorerInput): { correct: boolean; parsed: boolean } => {
  checkSample(sample);
  const predicted = extractLetter(sample.response);
  const gold = targetLetter(sample.target, sample.metadata === undefined ? {} : sample.metadata);
  return { correct: predicted !== "" && predicted === gold, parsed: predicted !== "" };
}, "mcq_letter_extract");
