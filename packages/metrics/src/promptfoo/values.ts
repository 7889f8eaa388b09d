// How a promptfoo assertion's `value` reaches a registry rule: as the option `value` (any JSON value, e.g.
// `evalkern score --metric 'word-count:value={"min":2}'`), or else as the references of the pair (a suite
// runner hands a list value as the references, any other value as one reference; a JSONL row's reference
// field). Config keys of the assertion are options of their own.
import { InvalidArgumentError } from "@evalkern/core-wasm";

export type Options = Readonly<Record<string, unknown>>;

/** The assertion's value: the `value` option, else one reference as is, else the list of references. */
export function assertionValue(references: readonly string[], options: Options): unknown {
  if (options.value !== undefined && options.value !== null) return options.value;
  if (references.length === 0) return undefined;
  return references.length === 1 ? references[0] : [...references];
}

/** A value that may be JSON text (an object or a list given as a reference): parsed when it is, else as is. */
export function jsonish(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const t = value.trim();
  if (!/^[[{]/.test(t)) return value;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return value;
  }
}

export function badValue(type: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError(`${type}: ${message}`, { argument: "value" });
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && /\s/.test(s[i]!)) i++;
  return i;
}

/**
 * promptfoo's comma-separated value list (a `contains-any` value given as one string): fields are trimmed,
 * empty fields dropped, and a field in double quotes keeps its commas (`\"` or `""` for a quote inside).
 */
export function commaSeparated(type: string, value: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && (value[i] === "," || /\s/.test(value[i]!))) i++;
    if (i >= value.length) break;
    if (value[i] !== '"') {
      const end = value.indexOf(",", i);
      const stop = end < 0 ? value.length : end;
      out.push(value.slice(i, stop).trim());
      i = stop;
      continue;
    }
    let field = "";
    let j = i + 1;
    let closed = false;
    while (j < value.length) {
      const c = value[j]!;
      const next = value[j + 1];
      if (c === "\\" && (next === '"' || next === "\\")) {
        field += next;
        j += 2;
      } else if (c === '"' && next === '"') {
        field += '"';
        j += 2;
      } else if (c === '"') {
        j++;
        closed = true;
        break;
      } else {
        field += c;
        j++;
      }
    }
    if (!closed) throw badValue(type, "unterminated quoted field in the value");
    out.push(field);
    i = skipSpace(value, j);
    if (i < value.length && value[i] !== ",") throw badValue(type, "expected a comma after a quoted field in the value");
  }
  return out;
}

/** A list value: a list as is, a string as promptfoo's comma-separated list. */
export function listValue(type: string, value: unknown): string[] {
  if (value === undefined || value === null || value === "") throw badValue(type, "needs a value (a list of strings)");
  if (typeof value === "string") return commaSeparated(type, value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? v : String(v)));
  throw badValue(type, `needs a list value, got ${typeof value}`);
}

/** A numeric field of a row (a number, or a number written as text as CSV rows have it). */
export function rowNumber(row: Options | undefined, keys: readonly string[]): number | undefined {
  for (const k of keys) {
    const v = row?.[k];
    if (v === undefined || v === null || v === "") continue;
    const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.trim()) : NaN;
    if (!Number.isFinite(n)) throw new InvalidArgumentError(`row field ${k} is not a finite number: ${JSON.stringify(v)}`, { argument: k });
    return n;
  }
  return undefined;
}
