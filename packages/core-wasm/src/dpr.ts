// DSPy `DPR_normalize` (dspy/dsp/utils/dpr.py), the passage tokenizer of `answer_passage_match`,
// computed in WASM: NFD, then every match of `[\p{L}\p{N}\p{M}]+|[^\p{Z}\p{C}]`, each token lowercased
// with Python's `str.lower()`. NFD and lower() use Unicode 14.0 (CPython 3.11's `unicodedata`), the
// classes Unicode 15.0 (the `regex` module 2022.10.31 of the golden runtime), whatever the JS engine's
// own Unicode version is.
//
// Strings are passed as UTF-8, so a lone surrogate (which Python would drop as \p{Cs}) arrives as
// U+FFFD, a symbol, and becomes a one-character token.
import { InvalidArgumentError, describe } from "./errors.js";
import { chunks, kernels, layout, memoryViews } from "./kernel.js";
import { checkTextSizes } from "./limits.js";
import { optionBool, requireArray, requireString } from "./validate.js";

export interface DprTokenizeOptions {
  /**
   * Run DSPy `normalize_text` first (default false), i.e. `DPR_normalize(normalize_text(text))`: the
   * token lists `answer_passage_match` compares.
   */
  readonly normalizeText?: boolean;
}

// ignoreBOM: a result may start with U+FEFF, which the default decoder would silently drop
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function flagsOf(options: DprTokenizeOptions | undefined): number {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new InvalidArgumentError(`options must be an object, got ${describe(options)}`, { argument: "options" });
  }
  return optionBool(options?.normalizeText, "options.normalizeText", false) ? 1 : 0;
}

function run(texts: readonly string[], flags: number, argument = "texts"): string[][] {
  checkTextSizes(texts, argument, false);
  const k = kernels();
  const n = texts.length;
  const out = new Array<string[]>(n);
  chunks(
    n,
    (i) => texts[i]!.length,
    (from, to, units) => {
      const l = layout(from, to, (i) => texts[i]!, undefined, 0, 0, units);
      const block = k.dprTokenizeBatch(l.count, l.bytes, l.strOffs, flags) >>> 2;
      // views after the call: the kernel may have grown the memory
      const { u8, u32 } = memoryViews();
      const all = decoder.decode(u8.subarray(u32[block]!, u32[block + 1]!));
      for (let i = 0; i < l.count; i++) {
        const s = all.slice(u32[block + 2 + i]!, u32[block + 3 + i]!);
        // tokens never contain U+0020 (a separator), so the join is unambiguous; "" is no token
        out[from + i] = s === "" ? [] : s.split(" ");
      }
    },
  );
  return out;
}

/**
 * DSPy `DPR_normalize(text)`: the lowercased SimpleTokenizer tokens of `NFD(text)`.
 * @example dprTokenize("C++ in Zürich") // ["c", "+", "+", "in", "zu\u0308rich"]
 */
export function dprTokenize(text: string, options?: DprTokenizeOptions): string[] {
  const flags = flagsOf(options);
  return run([requireString(text, "text")], flags, "text")[0]!;
}

/** `dprTokenize` of many strings in one crossing. */
export function dprTokenizeBatch(texts: readonly string[], options?: DprTokenizeOptions): string[][] {
  const flags = flagsOf(options);
  const a = requireArray(texts, "texts");
  for (let i = 0; i < a.length; i++) requireString(a[i], "texts", i);
  return run(a as readonly string[], flags);
}
