// DSPy `normalize_text` (dspy/evaluate/metrics.py) and the Python string primitives under it, computed
// in WASM on Unicode 14.0 tables (CPython 3.11's `unicodedata`), so the result never depends on the
// ICU of the runtime:
//   normalize_text(s) = " ".join(re.sub(r"\b(a|an|the)\b", " ", remove_punc(NFD(s).lower())).split())
// with ASCII `string.punctuation` removed and Python's Unicode `\b`.
//
// Strings are passed as UTF-8, so a lone surrogate in the input (which Python could hold) arrives as
// U+FFFD, as everywhere in this package.
import { chunks, kernels, layout, memoryViews } from "./kernel.js";
import { checkTextSizes } from "./limits.js";
import { requireArray, requireString } from "./validate.js";

/** Kernel modes of `normalizeBatch` (assembly/normalize.ts). */
const Mode = { NormalizeText: 0, Nfd: 1, Lower: 2, LowerSplitJoin: 3 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

// ignoreBOM: a result may start with U+FEFF, which the default decoder would silently drop
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function run(texts: readonly string[], mode: Mode, argument = "texts"): string[] {
  checkTextSizes(texts, argument, false);
  const k = kernels();
  const n = texts.length;
  const out = new Array<string>(n);
  chunks(
    n,
    (i) => texts[i]!.length,
    (from, to, units) => {
      const l = layout(from, to, (i) => texts[i]!, undefined, 0, 0, units);
      const block = k.normalizeBatch(l.count, l.bytes, l.strOffs, mode) >>> 2;
      // views after the call: the kernel may have grown the memory
      const { u8, u32 } = memoryViews();
      // block: [utf8 start, utf8 end, UTF-16 offsets of the n results + total]; decode once, slice
      const all = decoder.decode(u8.subarray(u32[block]!, u32[block + 1]!));
      for (let i = 0; i < l.count; i++) out[from + i] = all.slice(u32[block + 2 + i]!, u32[block + 3 + i]!);
    },
  );
  return out;
}

function checkAll(texts: unknown, argument: string): readonly string[] {
  const a = requireArray(texts, argument);
  for (let i = 0; i < a.length; i++) requireString(a[i], argument, i);
  return a as readonly string[];
}

/**
 * DSPy `normalize_text(s)`: NFD, `lower()`, delete ASCII punctuation, replace `\b(a|an|the)\b` by a
 * space, collapse whitespace (Python's `str.split()` set).
 * @example normalizeText("The Café!") === "cafe\u0301"
 */
export function normalizeText(text: string): string {
  return run([requireString(text, "text")], Mode.NormalizeText, "text")[0]!;
}

/** `normalizeText` of many strings in one crossing. */
export function normalizeTextBatch(texts: readonly string[]): string[] {
  return run(checkAll(texts, "texts"), Mode.NormalizeText);
}

/** Python `unicodedata.normalize("NFD", s)` on Unicode 14.0 data. */
export function pythonNfd(text: string): string {
  return run([requireString(text, "text")], Mode.Nfd, "text")[0]!;
}

/** Python `str.lower()` (full lowercase mapping with Final_Sigma, Unicode 14.0). */
export function pythonLower(text: string): string {
  return run([requireString(text, "text")], Mode.Lower, "text")[0]!;
}

/** Batch forms of `pythonNfd` / `pythonLower`. */
export function pythonNfdBatch(texts: readonly string[]): string[] {
  return run(checkAll(texts, "texts"), Mode.Nfd);
}
export function pythonLowerBatch(texts: readonly string[]): string[] {
  return run(checkAll(texts, "texts"), Mode.Lower);
}

/**
 * UTF-16 units outside the blocks where the runtime's `toLowerCase` is Python's `str.lower()`: ASCII,
 * Latin-1 to Cyrillic Supplement (all assigned before Unicode 14, the same full mappings in every
 * Unicode since) except capital sigma (its Final_Sigma context), and the caseless Hangul Jamo, general
 * punctuation, CJK symbols and kana, Hangul compatibility jamo, CJK ideographs, Hangul syllables and the
 * fullwidth forms. test/normalize.parity.test.ts checks every unit of these blocks in each runtime.
 */
const LOWER_NOT_NATIVE =
  /[^\0-\u03a2\u03a4-\u052f\u1100-\u11ff\u2000-\u206f\u3000-\u30ff\u3130-\u318f\u4e00-\u9fff\uac00-\ud7a3\uff00-\uffef]/;

/** Whether `s.toLowerCase()` is Python's `s.lower()` in every runtime (a native scan, no crossing). */
export function lowersNatively(s: string): boolean {
  return !LOWER_NOT_NATIVE.test(s);
}

/** `" ".join(s.lower().split())`: the token string of NeMo BYOB's `f1_token`. */
export function pythonLowerSplitJoin(text: string): string {
  return run([requireString(text, "text")], Mode.LowerSplitJoin, "text")[0]!;
}
