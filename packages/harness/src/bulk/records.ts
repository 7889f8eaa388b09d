// Reading rows: which fields hold the hypothesis and the references, JSONL lines, and CSV records
// (RFC 4180 with Python csv's leniency: a quote inside an unquoted field is literal). The main thread
// only finds record boundaries (`RecordSplitter`); workers parse the records.
import { InvalidArgumentError } from "@evalkern/core-wasm";

/** Where the hypothesis, the references and an optional id live in each row (dotted paths). */
export interface FieldMap {
  /** Path of the hypothesis string (default "hyp"). */
  readonly hypothesis?: string;
  /**
   * Path of the references (default "refs"): a string (one reference) or an array of strings; several
   * paths are joined (for CSV, one column per reference; empty cells are then skipped).
   */
  readonly references?: string | readonly string[];
  /** Path of a row id copied to the output (optional). */
  readonly id?: string;
}

export interface ResolvedFields {
  readonly hypothesis: string;
  readonly references: readonly string[];
  readonly id: string | undefined;
}

export function resolveFields(fields: FieldMap | undefined): ResolvedFields {
  if (fields !== undefined && (typeof fields !== "object" || fields === null)) {
    throw new InvalidArgumentError("fields must be an object { hypothesis, references, id? }", { argument: "fields" });
  }
  const f = fields ?? {};
  const path = (v: unknown, arg: string, dflt: string | undefined): string | undefined => {
    if (v === undefined) return dflt;
    if (typeof v !== "string" || v.length === 0) throw new InvalidArgumentError(`${arg} must be a non-empty field path`, { argument: arg });
    return v;
  };
  const refs = f.references === undefined ? ["refs"] : typeof f.references === "string" ? [f.references] : f.references;
  if (!Array.isArray(refs) || refs.length === 0) throw new InvalidArgumentError("fields.references must be a path or a non-empty array of paths", { argument: "fields.references" });
  refs.forEach((r, i) => path(r, `fields.references[${i}]`, undefined));
  return { hypothesis: path(f.hypothesis, "fields.hypothesis", "hyp")!, references: [...refs], id: path(f.id, "fields.id", undefined) };
}

const MISSING = Symbol("missing");

/** A dotted path inside an object; a literal key with dots wins when present (as BYOB's choices_field). */
export function getPath(obj: unknown, path: string): unknown {
  if (typeof obj !== "object" || obj === null) return MISSING;
  const rec = obj as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(rec, path)) return rec[path];
  if (!path.includes(".")) return MISSING;
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (typeof cur !== "object" || cur === null) return MISSING;
    if (Array.isArray(cur) && /^\d+$/.test(part)) {
      const i = Number(part);
      if (i >= cur.length) return MISSING;
      cur = cur[i];
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(cur, part)) return MISSING;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * Why a row was not scored. `row_too_large`: longer than `maxRowBytes` (refused unread);
 * `row_timeout`: the metrics did not finish it within the time budget; `invalid_utf8`: bytes that are
 * not UTF-8 under `strictUtf8`.
 */
export type BadRowCode =
  | "invalid_json"
  | "not_object"
  | "missing_field"
  | "wrong_type"
  | "no_references"
  | "csv_error"
  | "metric_error"
  | "row_too_large"
  | "row_timeout"
  | "invalid_utf8";

export type Extracted =
  | { readonly ok: true; readonly hyp: string; readonly refs: readonly string[]; readonly id: unknown }
  | { readonly ok: false; readonly code: BadRowCode; readonly message: string; readonly id: unknown };

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/**
 * The pair of one row, or why it is unusable. `dropEmpty` (CSV, several reference columns) skips empty
 * reference cells; JSON `null` references are always skipped (sacreBLEU's `None` padding).
 */
export function extractPair(row: unknown, fields: ResolvedFields, dropEmpty: boolean): Extracted {
  if (typeof row !== "object" || row === null || Array.isArray(row)) {
    return { ok: false, code: "not_object", message: `row is ${typeName(row)}, not an object`, id: null };
  }
  const idValue = fields.id === undefined ? undefined : getPath(row, fields.id);
  const id = idValue === MISSING ? null : idValue;
  const hyp = getPath(row, fields.hypothesis);
  if (hyp === MISSING) return { ok: false, code: "missing_field", message: `missing field ${JSON.stringify(fields.hypothesis)} (hypothesis)`, id };
  if (typeof hyp !== "string") return { ok: false, code: "wrong_type", message: `field ${JSON.stringify(fields.hypothesis)} must be a string, got ${typeName(hyp)}`, id };
  const refs: string[] = [];
  for (const path of fields.references) {
    const v = getPath(row, path);
    if (v === MISSING) {
      if (fields.references.length > 1) continue;
      return { ok: false, code: "missing_field", message: `missing field ${JSON.stringify(path)} (references)`, id };
    }
    if (typeof v === "string") {
      if (!(dropEmpty && v === "")) refs.push(v);
    } else if (Array.isArray(v)) {
      for (let j = 0; j < v.length; j++) {
        const r: unknown = v[j];
        if (typeof r === "string") refs.push(r);
        else if (r !== null) return { ok: false, code: "wrong_type", message: `field ${JSON.stringify(path)}[${j}] must be a string, got ${typeName(r)}`, id };
      }
    } else if (v !== null) {
      return { ok: false, code: "wrong_type", message: `field ${JSON.stringify(path)} must be a string or an array of strings, got ${typeName(v)}`, id };
    }
  }
  if (refs.length === 0) return { ok: false, code: "no_references", message: "the row has no reference", id };
  return { ok: true, hyp, refs, id };
}

// ------------------------------------------------------------------------------------------ CSV

/** One parsed CSV record: its fields, or why it is malformed; `line` is its first physical line. */
export type CsvRecord = { readonly line: number; readonly fields: string[] } | { readonly line: number; readonly error: string };

/**
 * Parse CSV text (whole records only) into records. Quotes are special only at the start of a field;
 * `""` inside quotes is a quote; CRLF and LF both end records; a blank line is no record.
 */
export function parseCsv(text: string, delimiter: string, firstLine: number): CsvRecord[] {
  const out: CsvRecord[] = [];
  const n = text.length;
  const d = delimiter.charCodeAt(0);
  let i = 0;
  let line = firstLine;
  while (i < n) {
    const startLine = line;
    // blank line
    if (text.charCodeAt(i) === 10) {
      i++;
      line++;
      continue;
    }
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) {
      i += 2;
      line++;
      continue;
    }
    const fields: string[] = [];
    let error: string | undefined;
    let field = "";
    for (;;) {
      // field start
      if (i < n && text.charCodeAt(i) === 34) {
        i++;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) {
            error = "unclosed quoted field";
            const chunk = text.slice(i);
            for (let k = 0; k < chunk.length; k++) if (chunk.charCodeAt(k) === 10) line++;
            i = n;
            break;
          }
          const part = text.slice(i, q);
          for (let k = 0; k < part.length; k++) if (part.charCodeAt(k) === 10) line++;
          field += part;
          if (text.charCodeAt(q + 1) === 34) {
            field += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        // after the closing quote: text up to the delimiter is kept (Python csv's lenient behaviour)
      }
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === d || c === 10) break;
        if (c === 13 && text.charCodeAt(j + 1) === 10) break;
        j++;
      }
      field += text.slice(i, j);
      fields.push(field);
      field = "";
      i = j;
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === d) {
        i++;
        continue;
      }
      // end of record
      i += c === 13 ? 2 : 1;
      line++;
      break;
    }
    out.push(error ? { line: startLine, error } : { line: startLine, fields });
  }
  return out;
}

/** Quote state of the CSV record scanners (same rules as `parseCsv`). */
export const enum Csv {
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
}

/**
 * The CSV scanner's transition for one byte that is not a newline (a newline ends the record unless
 * the state is `Quoted`). Quotes are special only at the start of a field; `""` inside quotes is a quote.
 */
export function csvNext(state: Csv, c: number, delimiter: number): Csv {
  switch (state) {
    case Csv.FieldStart:
      return c === 34 ? Csv.Quoted : c === delimiter ? Csv.FieldStart : Csv.Unquoted;
    case Csv.Unquoted:
      return c === delimiter ? Csv.FieldStart : Csv.Unquoted;
    case Csv.Quoted:
      return c === 34 ? Csv.QuoteInQuoted : Csv.Quoted;
    default:
      return c === 34 ? Csv.Quoted : c === delimiter ? Csv.FieldStart : Csv.Unquoted;
  }
}

/**
 * The last record boundary in `buf[from, to)`, where `from` is a record start: the position just after
 * the last newline that ends a record (every newline for JSONL; one outside a quoted field for CSV, with
 * the quote rules of `parseCsv`), or -1 when there is none; and the newlines before that position.
 */
export function lastRecordBoundary(
  buf: Uint8Array,
  from: number,
  to: number,
  format: "jsonl" | "csv",
  delimiter = 44,
): { end: number; lines: number } {
  if (format === "jsonl") {
    const q = buf.lastIndexOf(10, to - 1);
    if (q < from) return { end: -1, lines: 0 };
    return { end: q + 1, lines: countNewlines(buf, from, q + 1) };
  }
  let state = Csv.FieldStart;
  let lines = 0;
  let end = -1;
  let linesAtEnd = 0;
  for (let p = from; p < to; p++) {
    const c = buf[p]!;
    if (c === 10) {
      lines++;
      if (state !== Csv.Quoted) {
        end = p + 1;
        linesAtEnd = lines;
        state = Csv.FieldStart;
      }
      continue;
    }
    state = csvNext(state, c, delimiter);
  }
  return { end, lines: linesAtEnd };
}

/** The first record boundary after the record starting at `from` (see `lastRecordBoundary`). */
export function firstRecordBoundary(
  buf: Uint8Array,
  from: number,
  to: number,
  format: "jsonl" | "csv",
  delimiter = 44,
): { end: number; lines: number } {
  if (format === "jsonl") {
    const q = buf.indexOf(10, from);
    return q < 0 || q >= to ? { end: -1, lines: 0 } : { end: q + 1, lines: 1 };
  }
  let state = Csv.FieldStart;
  let lines = 0;
  for (let p = from; p < to; p++) {
    const c = buf[p]!;
    if (c === 10) {
      lines++;
      if (state !== Csv.Quoted) return { end: p + 1, lines };
      continue;
    }
    state = csvNext(state, c, delimiter);
  }
  return { end: -1, lines };
}

/** Newlines in buf[from, to). */
export function countNewlines(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  let p = from;
  for (;;) {
    const q = buf.indexOf(10, p);
    if (q < 0 || q >= to) return n;
    n++;
    p = q + 1;
  }
}
