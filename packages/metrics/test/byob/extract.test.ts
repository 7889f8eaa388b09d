// The BYOB answer extractors (gsm8k, mcq letter, yes/no) run in linear time (issue 15.4) and give the
// original's results: each is compared, on many short random inputs, with a straightforward
// implementation of the original's regex semantics (the Python patterns themselves, run by
// src/python/regex.ts), and the pathological inputs of the issue finish well within a generous bound.
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { booleanYesno, gsm8kAnswer, IGNORECASE, mcqLetterExtract, ready } from "../../src/byob/index.js";
import { compilePython } from "../../src/byob/python-re.js";
import { extractGold, extractPrediction, normalizeNumber } from "../../src/byob/gsm8k.js";
import { extractLetter } from "../../src/byob/mcq-letter.js";
import { extractYesNo } from "../../src/byob/boolean-yesno.js";
import { pyLower, pyStrip, pyUpper } from "../../src/byob/python-str.js";
import { pyStr } from "../../src/python/repr.js";

beforeAll(async () => {
  await ready();
});

// --- references: the original's code, line for line, over Python-semantics regexes ---------------------

const NUMBER = String.raw`-?\d[\d,]*(?:\.\d+)?`;
const HASH = compilePython(String.raw`####\s*(` + NUMBER + ")");
const BOXED = compilePython(String.raw`\\boxed\{\s*(` + NUMBER + String.raw`)\s*\}`);
const NUMBER_RE = compilePython(NUMBER);
const NUMBER_FULL = compilePython(String.raw`\A(?:` + NUMBER + String.raw`)\Z`);

function refNormalize(raw: string): string | null {
  const s = pyStrip(raw.replace(/,/g, ""));
  if (NUMBER_FULL.search(s) === null) return null;
  let out = s;
  if (out.includes(".")) out = out.replace(/0+$/, "").replace(/\.+$/, "");
  return out === "" ? "0" : out;
}
const refLast = (text: string): string | undefined => NUMBER_RE.findall(text).at(-1);
function refPrediction(text: string): string | null {
  const raw = HASH.search(text)?.group(1) ?? BOXED.search(text)?.group(1) ?? refLast(text);
  return raw === undefined ? null : refNormalize(raw);
}
function refGold(text: string): string | null {
  const raw = HASH.search(text)?.group(1) ?? refLast(text);
  return raw === undefined ? null : refNormalize(raw);
}

const LETTER_PATTERNS = [
  compilePython(String.raw`\\boxed\{\s*([A-Ja-j])\s*\}`),
  compilePython(String.raw`(?:answer\s+is\s*[:\-]?\s*\(?)\s*([A-Ja-j])\b`, IGNORECASE),
  compilePython(String.raw`\boption\s*\(?([A-Ja-j])\)`, IGNORECASE),
  compilePython(String.raw`^\s*\(?([A-Ja-j])[\)\.\:]`, IGNORECASE),
  compilePython(String.raw`\b([A-Ja-j])\b`),
];
function refLetter(response: string): string {
  const text = pyStrip(response);
  if (text === "") return "";
  const head = Array.from(text).slice(0, 200).join("");
  for (const p of LETTER_PATTERNS) {
    const m = p.search(head);
    if (m !== null) return pyUpper(m.group(1)!);
  }
  return "";
}

const YES = new Set(["yes", "true", "correct", "right", "yeah", "yep"]);
const NO = new Set(["no", "false", "incorrect", "wrong", "nope", "nah"]);
function refYesNo(response: string): string | null {
  for (const run of (pyLower(response).match(/[A-Za-z]+/g) ?? []).slice(0, 20)) {
    if (YES.has(run)) return "yes";
    if (NO.has(run)) return "no";
  }
  return null;
}

// --- generators: short strings over the characters that matter to each extractor ----------------------

const piece = (xs: string[]): fc.Arbitrary<string> => fc.array(fc.constantFrom(...xs), { maxLength: 30 }).map((a) => a.join(""));
const GSM_PIECES = [
  "0",
  "1",
  "7",
  "9",
  ",",
  ".",
  "-",
  "#",
  "####",
  " ",
  "\n",
  "\u00a0",
  "\u2028",
  "\u001c",
  "\\boxed{",
  "}",
  "{",
  "\\",
  "a",
  "x",
  "\u0663",
  "\u0664",
  "\uff11",
  "\u{1d7d8}",
  "\u00b2",
  "\ud835",
  "é",
  "+",
];
const MCQ_PIECES = [
  "A",
  "b",
  "C",
  "j",
  "J",
  "k",
  "I",
  "a",
  " ",
  "  ",
  "\n",
  "\u00a0",
  "(",
  ")",
  ".",
  ":",
  "-",
  "answer is",
  "ANSWER IS ",
  "option",
  "Option (",
  "\\boxed{",
  "}",
  "ı",
  "İ",
  "é",
  "日",
  "_",
  "1",
  "\u0301",
  "x".repeat(60),
  "\u{1f600}",
];
const YN_PIECES = [
  "yes",
  "no",
  "YES",
  "Nope",
  "not",
  "correct",
  "x",
  " ",
  ",",
  "1",
  "İ",
  "\u212a",
  "ñ",
  "Σ",
  "yesterday",
  "nah",
  "ß",
  "\u{1d400}",
];

describe("gsm8k_answer extraction equals the original's regexes", () => {
  test("prediction, gold and _normalize_number on random short texts", () => {
    fc.assert(
      fc.property(piece(GSM_PIECES), (text) => {
        expect(extractPrediction(text)).toBe(refPrediction(text));
        expect(extractGold(text)).toBe(refGold(text));
        expect(normalizeNumber(text)).toBe(refNormalize(text));
      }),
      { numRuns: 3000 },
    );
  });

  test("numeric and other targets go through str()", () => {
    for (const t of [42, -0, 1e20, 1e-7, true, null, [1, 2], { a: "#### 5" }]) {
      expect(extractGold(t)).toBe(typeof t === "number" || typeof t === "boolean" ? refNormalize(pyStr(t)) : refGold(pyStr(t ?? "")));
    }
  });
});

describe("mcq_letter_extract equals the original's regexes", () => {
  test("on random short and long responses", () => {
    fc.assert(
      fc.property(piece(MCQ_PIECES), (text) => {
        expect(extractLetter(text)).toBe(refLetter(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("boolean_yesno equals the original's tokenisation", () => {
  test("on random responses, including ones longer than a chunk", () => {
    fc.assert(
      fc.property(piece(YN_PIECES), fc.integer({ min: 0, max: 9000 }), (text, pad) => {
        expect(extractYesNo(text)).toBe(refYesNo(text));
        const long = "x".repeat(pad) + " " + text; // runs straddling the 8192-unit chunk boundary
        expect(extractYesNo(long)).toBe(refYesNo(long));
      }),
      { numRuns: 500 },
    );
  });
});

describe("pathological responses finish in linear time (issue 15.4)", () => {
  // each takes 0.2-1.5 s on an idle core (the quadratic originals: 12-88 s and more); the bound is
  // generous for a loaded CI machine
  const BOUND_MS = 20_000;
  const timed = <T>(f: () => T): T => {
    const t0 = performance.now();
    const r = f();
    expect(performance.now() - t0).toBeLessThan(BOUND_MS);
    return r;
  };
  const MB = 1_000_000;

  test("gsm8k_answer: 10 MB of digits, 2 MB of '1,', 10 MB of '#', '-' and '\\boxed{'", () => {
    expect(timed(() => gsm8kAnswer({ response: "1".repeat(10 * MB), target: "1", metadata: {} }))).toEqual({
      correct: false,
      parsed: true,
    });
    expect(timed(() => gsm8kAnswer({ response: "1,".repeat(MB), target: "1".repeat(MB), metadata: {} }))).toEqual({
      correct: true,
      parsed: true,
    });
    expect(timed(() => gsm8kAnswer({ response: "#".repeat(10 * MB), target: "1", metadata: {} }))).toEqual({
      correct: false,
      parsed: false,
    });
    expect(timed(() => gsm8kAnswer({ response: "-".repeat(10 * MB), target: "1", metadata: {} }))).toEqual({
      correct: false,
      parsed: false,
    });
    expect(timed(() => gsm8kAnswer({ response: "\\boxed{1 ".repeat(MB), target: "1", metadata: {} }))).toEqual({
      correct: true,
      parsed: true,
    });
    expect(timed(() => gsm8kAnswer({ response: "#### " + " ".repeat(5 * MB) + "x 7", target: 7, metadata: {} }))).toEqual({
      correct: true,
      parsed: true,
    });
  });

  test("mcq_letter_extract and boolean_yesno: 10 MB responses", () => {
    expect(timed(() => mcqLetterExtract({ response: "x".repeat(10 * MB), target: "A", metadata: {} }))).toEqual({
      correct: false,
      parsed: false,
    });
    expect(timed(() => mcqLetterExtract({ response: " ".repeat(5 * MB) + "B" + " ".repeat(5 * MB), target: "B", metadata: {} }))).toEqual({
      correct: true,
      parsed: true,
    });
    expect(timed(() => booleanYesno({ response: "x ".repeat(5 * MB), target: true, metadata: {} }))).toEqual({
      correct: false,
      parsed: false,
    });
    expect(timed(() => booleanYesno({ response: "a".repeat(10 * MB) + " yes", target: true, metadata: {} }))).toEqual({
      correct: true,
      parsed: true,
    });
  });

  test("a target of many digits: int() past CPython's 4300-digit limit raises ValueError, quickly", () => {
    const err = timed(() => {
      try {
        mcqLetterExtract({ response: "A", target: "7".repeat(MB), metadata: {} });
      } catch (e) {
        return e;
      }
      return undefined;
    });
    expect(err).toMatchObject({ pythonType: "ValueError" });
  });
});
