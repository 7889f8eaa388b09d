// TER's tokenizer: sacreBLEU 2.6.0's `TercomTokenizer` (tercom normalisation, punctuation removal, Asian
// character handling, Python `str.lower()` unless case-sensitive) and the options that select it.
import { InvalidArgumentError, describe } from "../errors.js";
import { pythonLower } from "../normalize.js";
import { optionBool, requireString } from "../validate.js";

export interface TerOptions {
  /** tercom normalisation: punctuation split, XML entities, line joins (default false). */
  readonly normalized?: boolean;
  /** Remove punctuation (default false). */
  readonly noPunct?: boolean;
  /** Asian (CJK) character handling, with `normalized` and/or `noPunct` (default false). */
  readonly asianSupport?: boolean;
  /** Keep case (default false: Python `str.lower()`). */
  readonly caseSensitive?: boolean;
}

export interface ResolvedTerOptions {
  readonly normalized: boolean;
  readonly noPunct: boolean;
  readonly asianSupport: boolean;
  readonly caseSensitive: boolean;
}

const OPTION_KEYS = ["normalized", "noPunct", "asianSupport", "caseSensitive"];

export function resolveTerOptions(options: TerOptions | undefined): ResolvedTerOptions {
  if (options === undefined) return { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false };
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError(`TER options must be an object, got ${describe(options)}`, {
      argument: "options",
      actual: describe(options),
    });
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new InvalidArgumentError(`TER has no option ${JSON.stringify(key)}; its options are ${OPTION_KEYS.join(", ")}`, {
        argument: `options.${key}`,
        expected: OPTION_KEYS.join(" | "),
        actual: key,
      });
    }
  }
  return {
    normalized: optionBool(options.normalized, "options.normalized", false),
    noPunct: optionBool(options.noPunct, "options.noPunct", false),
    asianSupport: optionBool(options.asianSupport, "options.asianSupport", false),
    caseSensitive: optionBool(options.caseSensitive, "options.caseSensitive", false),
  };
}

/** Python's `str.isspace()` set (what `\s`, `split()` and `rstrip()` use on str). */
const WS = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WS_RUN = new RegExp(`[${WS}]+`, "gu");
const WS_LEAD = new RegExp(`^[${WS}]+`, "u");
const WS_TRAIL = new RegExp(`[${WS}]+$`, "u");
const WS_SPLIT = new RegExp(`[${WS}]+`, "u");

const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/gu;
const FULL_WIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/gu;

function rstrip(s: string): string {
  return s.replace(WS_TRAIL, "");
}

/** tercom's general and Western normalisation (`_normalize_general_and_western`). */
function normalizeWestern(sent: string): string {
  sent = sent.replace(/\n-/g, "").replace(/\n/g, " ");
  sent = sent
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
  sent = ` ${sent} `;
  sent = sent.replace(/([{-~[-` -&(-+:-@/])/gu, " $1 ");
  sent = sent.replace(/'s /g, " 's ");
  sent = sent.replace(/'s(?=\n?$)/, " 's"); // Python's `$`: the end, or before a final newline
  sent = sent.replace(/([^0-9])([.,])/gu, "$1 $2 ");
  sent = sent.replace(/([.,])([^0-9])/gu, " $1 $2");
  sent = sent.replace(/([0-9])(-)/g, "$1 $2 ");
  return sent;
}

/** tercom's Asian normalisation (`_normalize_asian`), ranges and quirks as sacreBLEU writes them. */
function normalizeAsian(sent: string): string {
  sent = sent.replace(/([\u4e00-\u9fff\u3400-\u4dbf])/gu, " $1 ");
  sent = sent.replace(/([\u31c0-\u31ef\u2e80-\u2eff])/gu, " $1 ");
  sent = sent.replace(/([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/gu, " $1 ");
  sent = sent.replace(/([\u3200-\u3f22])/gu, " $1 ");
  // `(^|^[kana])([kana]+)(?=$|^[kana])`: only a string that is one kana run from its start to its end matches
  sent = sent.replace(/(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=\n?$)/u, "$1 $2 ");
  sent = sent.replace(/(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=\n?$)/u, "$1 $2 ");
  sent = sent.replace(/(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=\n?$)/u, "$1 $2 ");
  sent = sent.replace(ASIAN_PUNCT, " $1 ");
  sent = sent.replace(FULL_WIDTH_PUNCT, " $1 ");
  return sent;
}

/** sacreBLEU `TER._preprocess_segment` then `.split()`: the words of one segment. */
export function terTokenize(text: string, options?: TerOptions): string[] {
  requireString(text, "text");
  return words(text, resolveTerOptions(options));
}

function words(text: string, o: ResolvedTerOptions): string[] {
  return preprocessed(o.caseSensitive ? text : pythonLower(text), o);
}

/**
 * The words of a string already lowercased when asked (`str.lower()` keeps whitespace where it is, so
 * lowering before `rstrip` gives the same words).
 */
export function preprocessed(text: string, o: ResolvedTerOptions): string[] {
  let sent = rstrip(text);
  if (sent === "") return [];
  if (o.normalized) {
    sent = normalizeWestern(sent);
    if (o.asianSupport) sent = normalizeAsian(sent);
    sent = sent.replace(WS_RUN, " ").replace(WS_LEAD, "").replace(WS_TRAIL, "");
  }
  if (o.noPunct) {
    sent = sent.replace(/[.,?:;!"()]/g, "");
    if (o.asianSupport) sent = sent.replace(ASIAN_PUNCT, "").replace(FULL_WIDTH_PUNCT, "");
  }
  const out = sent.split(WS_SPLIT);
  if (out.length > 0 && out[0] === "") out.shift();
  if (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}
