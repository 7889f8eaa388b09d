// `serde_json::from_str::<Value>` acceptance (serde_json 1.0.149, docs/spec/dsrs.md §0.3): `JSON.parse`'s RFC 8259
// grammar plus three rejections `JSON.parse` lacks — nesting deeper than 127, numbers that overflow f64,
// and `\u` escapes of unpaired surrogates.

/** serde_json starts with a depth budget of 128; entering the 128th nested array/object fails. */
export const SERDE_MAX_DEPTH = 127;

export type SerdeJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string; readonly index: number | undefined };

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Characters of a JSON number token: digits, `-`, `+`, `.`, `e`, `E`. */
function isNumberChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45;
}

/** Position of a serde-only violation in already `JSON.parse`-valid text, or undefined. */
function serdeViolation(text: string): { reason: string; index: number } | undefined {
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        if (d !== 0x5c /* \ */) {
          i++;
          continue;
        }
        if (text.charCodeAt(i + 1) !== 0x75 /* u */) {
          i += 2;
          continue;
        }
        const code = Number.parseInt(text.slice(i + 2, i + 6), 16);
        if (code >= 0xdc00 && code <= 0xdfff) return { reason: "unpaired trailing surrogate in \\u escape", index: i };
        if (code >= 0xd800 && code <= 0xdbff) {
          const nextHex = text.slice(i + 8, i + 12);
          const next = text.slice(i + 6, i + 8) === "\\u" && HEX4.test(nextHex) ? Number.parseInt(nextHex, 16) : -1;
          if (next < 0xdc00 || next > 0xdfff) return { reason: "unpaired leading surrogate in \\u escape", index: i };
          i += 12;
          continue;
        }
        i += 6;
      }
      i++;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > SERDE_MAX_DEPTH)
        return { reason: `recursion limit exceeded (more than ${SERDE_MAX_DEPTH} nested arrays/objects)`, index: i };
      i++;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      while (i < n && isNumberChar(text.charCodeAt(i))) i++;
      if (!Number.isFinite(Number(text.slice(start, i)))) return { reason: "number out of range", index: start };
    } else i++;
  }
  return undefined;
}

/**
 * Parse `text` as serde_json would into a `Value`: `{ ok: true, value }`, or `{ ok: false, reason }`
 * where serde_json returns `Err`. Duplicate object keys are accepted (the last one wins, as in both).
 */
export function parseJsonSerde(text: string): SerdeJsonResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error), index: undefined };
  }
  const violation = serdeViolation(text);
  if (violation !== undefined) return { ok: false, reason: violation.reason, index: violation.index };
  return { ok: true, value };
}

/** True where `serde_json::from_str::<Value>(text)` is `Ok`. */
export function isSerdeJson(text: string): boolean {
  return parseJsonSerde(text).ok;
}
