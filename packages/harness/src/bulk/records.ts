// Reading rows: which fields hold the hypothesis and the references, JSONL lines, and CSV records
// (RFC 4180 with Python csv's leniency: a quote inside an unquoted field is literal). Tab-separated
// text has no quoting unless asked for (`quote`): a `"` is a character like any other and every newline
// ends a record. The main thread only finds record boundaries; workers parse the records.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { AmbiguousColumnError } from "../errors.js";

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
  if (!Array.isArray(refs) || refs.length === 0)
    throw new InvalidArgumentError("fields.references must be a path or a non-empty array of paths", { argument: "fields.references" });
  refs.forEach((r, i) => path(r, `fields.references[${i}]`, undefined));
  return { hypothesis: path(f.hypothesis, "fields.hypothesis", "hyp")!, references: [...refs], id: path(f.id, "fields.id", undefined) };
}

/** What `getPath` returns for a path that leads nowhere (a field can hold `undefined`-like JSON `null`). */
export const MISSING: unique symbol = Symbol("missing");

/**
 * A dotted path inside an object (`meta.lang`, `refs.0`), the one field getter of bulk scoring, BYOB, the
 * report and the CLI: a literal key with dots wins when present (as BYOB's choices_field); only own
 * properties count (never `constructor` or `toString` of a row); digits index arrays. `MISSING` when absent.
 */
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

/** `getPath`, with `undefined` for a path that leads nowhere. */
export function pathValue(obj: unknown, path: string): unknown {
  const v = getPath(obj, path);
  return v === MISSING ? undefined : v;
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
  if (hyp === MISSING)
    return { ok: false, code: "missing_field", message: `missing field ${JSON.stringify(fields.hypothesis)} (hypothesis)`, id };
  if (typeof hyp !== "string")
    return {
      ok: false,
      code: "wrong_type",
      message: `field ${JSON.stringify(fields.hypothesis)} must be a string, got ${typeName(hyp)}`,
      id,
    };
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
        else if (r !== null)
          return { ok: false, code: "wrong_type", message: `field ${JSON.stringify(path)}[${j}] must be a string, got ${typeName(r)}`, id };
      }
    } else if (v !== null) {
      return {
        ok: false,
        code: "wrong_type",
        message: `field ${JSON.stringify(path)} must be a string or an array of strings, got ${typeName(v)}`,
        id,
      };
    }
  }
  if (refs.length === 0) return { ok: false, code: "no_references", message: "the row has no reference", id };
  return { ok: true, hyp, refs, id };
}

// ------------------------------------------------------------------------------------------ CSV

/** One parsed CSV record: its fields, or why it is malformed; `line` is its first physical line. */
export type CsvRecord = { readonly line: number; readonly fields: string[] } | { readonly line: number; readonly error: string };

/**
 * Whether `"` quotes fields when nobody said: yes for CSV, no for tab-separated text (TSV as `paste`,
 * databases and spreadsheets' TSV export write it, where `"Hi," she said.` is that text).
 */
export function defaultQuote(delimiter: string): boolean {
  return delimiter !== "\t";
}

/**
 * Parse CSV text (whole records only) into records. Quotes are special only at the start of a field
 * (and only with `quote`, default: not for a tab delimiter); `""` inside quotes is a quote; CRLF and LF
 * both end records; a blank line is no record.
 */
export function parseCsv(text: string, delimiter: string, firstLine: number, quote = defaultQuote(delimiter)): CsvRecord[] {
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
      if (quote && i < n && text.charCodeAt(i) === 34) {
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

/**
 * The one streaming CSV/TSV reader: `push` text in pieces of any size and get the records completed so
 * far; `end` gives the last one. It cuts the text after the last newline that ends a record (outside
 * quotes, as the chunk cutter does) and parses the whole records before it with `parseCsv`, so its
 * records are those of `parseCsv` over the whole text, wherever the pieces were cut.
 */
export class CsvSplitter {
  #carry = "";
  /** The quote state at the end of `#carry` (all of it scanned). */
  #state = Csv.FieldStart;
  #line: number;
  readonly #delimiter: string;
  readonly #quote: boolean;

  /** `quote`: whether `"` quotes fields (default: yes, except for a tab delimiter). */
  constructor(delimiter = ",", firstLine = 1, quote = defaultQuote(delimiter)) {
    this.#delimiter = delimiter;
    this.#quote = quote;
    this.#line = firstLine;
  }

  push(text: string): CsvRecord[] {
    const from = this.#carry.length;
    this.#carry += text;
    let end = -1;
    if (!this.#quote) end = this.#carry.lastIndexOf("\n") + 1;
    else {
      const d = this.#delimiter.charCodeAt(0);
      let state = this.#state;
      for (let i = from; i < this.#carry.length; i++) {
        const c = this.#carry.charCodeAt(i);
        if (c !== 10) state = csvNext(state, c, d);
        else if (state !== Csv.Quoted) {
          end = i + 1;
          state = Csv.FieldStart;
        }
      }
      this.#state = state;
    }
    return end > 0 ? this.#take(end) : [];
  }

  end(): CsvRecord[] {
    this.#state = Csv.FieldStart;
    return this.#take(this.#carry.length);
  }

  #take(end: number): CsvRecord[] {
    const whole = this.#carry.slice(0, end);
    this.#carry = this.#carry.slice(end);
    const records = parseCsv(whole, this.#delimiter, this.#line, this.#quote);
    for (let p = whole.indexOf("\n"); p >= 0; p = whole.indexOf("\n", p + 1)) this.#line++;
    return records;
  }
}

/**
 * The rows of a small CSV/TSV text with a header row, as objects (header name → cell; a repeated name
 * keeps its last cell), read with `parseCsv` (quotes on unless `quote` is false): a leading BOM is
 * dropped and blank lines are no rows. `columns: "strict"` refuses a row whose cell count is not the
 * header's (DeepEval's datasets); `"relaxed"` keeps the cells a short row has and drops a long row's
 * extras (Python's `csv.DictReader`, BYOB's datasets). A malformed record is an `InvalidArgumentError`
 * naming `file` and the line.
 */
export function csvObjects(
  text: string,
  file: string,
  options: { readonly delimiter?: string; readonly quote?: boolean; readonly columns: "strict" | "relaxed" },
): { readonly line: number; readonly value: Record<string, string> }[] {
  const delimiter = options.delimiter ?? ",";
  const records = parseCsv(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, delimiter, 1, options.quote ?? defaultQuote(delimiter));
  const out: { line: number; value: Record<string, string> }[] = [];
  let header: readonly string[] | undefined;
  for (const r of records) {
    if ("error" in r) throw new InvalidArgumentError(`${file}:${r.line}: malformed CSV: ${r.error}`, { argument: "file", index: r.line });
    if (!header) {
      header = r.fields;
      continue;
    }
    if (options.columns === "strict" && r.fields.length !== header.length) {
      const why = `expected ${header.length} fields (the header's), got ${r.fields.length}`;
      throw new InvalidArgumentError(`${file}:${r.line}: ${why}`, { argument: "file", index: r.line });
    }
    const value: Record<string, string> = {};
    const n = Math.min(header.length, r.fields.length);
    for (let i = 0; i < n; i++) value[header[i]!] = r.fields[i]!;
    out.push({ line: r.line, value });
  }
  return out;
}

/**
 * The keys of a CSV row object, one per column: the header name, or `name#n` for the n-th of several
 * columns sharing a name (n from 1), so that no cell is lost and each of them can be picked as a field.
 */
export function csvKeys(header: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const h of header) count.set(h, (count.get(h) ?? 0) + 1);
  const seen = new Map<string, number>();
  return header.map((h) => {
    if (count.get(h) === 1) return h;
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h}#${n}`;
  });
}

/**
 * Refuse a CSV header that makes a field ambiguous (`AmbiguousColumnError`, naming the column): a field
 * path that is the name of several columns (pick one as `name#n`), or a `name#n` key that is also the
 * name of another column. Repeated names no field uses are fine (their cells are all kept).
 */
export function checkCsvHeader(header: readonly string[], fields: ResolvedFields, file = "the CSV header"): void {
  const keys = csvKeys(header);
  const firstAt = new Map<string, number>();
  keys.forEach((k, i) => {
    const j = firstAt.get(k);
    if (j !== undefined) {
      const names = `column ${i + 1} is named ${JSON.stringify(header[i])} and column ${j + 1} ${JSON.stringify(header[j])}`;
      throw new AmbiguousColumnError(`${file}: ${names}, which both read as ${JSON.stringify(k)}: rename one of them`, k, [j + 1, i + 1]);
    }
    firstAt.set(k, i);
  });
  const used = [fields.hypothesis, ...fields.references, ...(fields.id !== undefined ? [fields.id] : [])];
  for (const f of used) {
    const positions = header.flatMap((h, i) => (h === f ? [i + 1] : []));
    if (positions.length < 2) continue;
    const picks = positions.map((_, n) => JSON.stringify(`${f}#${n + 1}`)).join(", ");
    const where = `${positions.length} columns named ${JSON.stringify(f)} (columns ${positions.join(", ")})`;
    throw new AmbiguousColumnError(
      `${file} has ${where}: pick one as ${picks} (the n-th column of that name), or rename them`,
      f,
      positions,
    );
  }
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
 * Scanners of unquoted text (`quote` false) never call it: every newline ends their records.
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
 * How the record scanners find where records end: "lines" at every newline (JSONL, and CSV/TSV without
 * quoting); "quoted" at a newline outside a quoted field; "csv" as "quoted", or as "lines" for a tab
 * delimiter (`defaultQuote`); "jsonl" as "lines".
 */
export type RecordSyntax = "jsonl" | "csv" | "lines" | "quoted";

/** The record syntax of an input: "quoted" for CSV read with quoting, else "lines". */
export function recordSyntax(format: "jsonl" | "csv", delimiter: string, quote = defaultQuote(delimiter)): "lines" | "quoted" {
  return format === "csv" && quote ? "quoted" : "lines";
}

/** Whether a scanner of `syntax` must follow quotes (else every newline ends a record). */
export function followsQuotes(syntax: RecordSyntax, delimiter: number): boolean {
  return syntax === "quoted" || (syntax === "csv" && delimiter !== 9);
}

/**
 * The last record boundary in `buf[from, to)`, where `from` is a record start: the position just after
 * the last newline that ends a record (every newline for JSONL and unquoted text; one outside a quoted
 * field with quotes, see `RecordSyntax`), or -1 when there is none; and the newlines before that position.
 */
export function lastRecordBoundary(
  buf: Uint8Array,
  from: number,
  to: number,
  format: RecordSyntax,
  delimiter = 44,
): { end: number; lines: number } {
  if (!followsQuotes(format, delimiter)) {
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
  format: RecordSyntax,
  delimiter = 44,
): { end: number; lines: number } {
  if (!followsQuotes(format, delimiter)) {
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

/**
 * From a point inside a record (CSV quote state `state`), the end of that record: the position after
 * its terminating newline, or -1 when it goes on past `to`; the newlines seen; the state at the end.
 */
export function scanRecord(
  buf: Uint8Array,
  from: number,
  to: number,
  format: RecordSyntax,
  delimiter: number,
  state: Csv,
): { end: number; lines: number; state: Csv } {
  if (!followsQuotes(format, delimiter)) {
    const q = buf.indexOf(10, from);
    return q < 0 || q >= to ? { end: -1, lines: 0, state } : { end: q + 1, lines: 1, state };
  }
  let lines = 0;
  for (let p = from; p < to; p++) {
    const c = buf[p]!;
    if (c === 10) {
      lines++;
      if (state !== Csv.Quoted) return { end: p + 1, lines, state: Csv.FieldStart };
      continue;
    }
    state = csvNext(state, c, delimiter);
  }
  return { end: -1, lines, state };
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
