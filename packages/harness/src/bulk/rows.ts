// Output rows of `scoreFile({ outputRows: "rows" })`: each input row with its scores added, built in the
// worker that scored it. JSONL: the row's own text with one object per metric spliced in
// (`"bleu":{"score":…}`, `"rouge":{"score":<rougeL>,"rouge1":…,…}`); rows that could not be scored carry
// `"_error":{"line","code","message"}`, and rows that are not JSON objects become
// `{"_line":…,"_input":…,"_error":…}`. CSV: the input's columns, one column per metric value and `_error`.
// This is the one home of the per-metric grouping (headline column → `score`) and of the CSV writer.
import { columnsOf, type NormalizedMetric } from "./metrics.js";

/** One value of a metric's row object: the scorer column and its key in the object. */
export interface RowColumn {
  readonly column: string;
  readonly key: string;
}

/** How a metric's values appear in output rows. */
export interface RowLayout {
  /** The metric's output key. */
  readonly name: string;
  /** The scorer column written as `score`. */
  readonly headline: string;
  /** The keys of the metric's object besides `score` (empty for one-number metrics). */
  readonly columns: readonly RowColumn[];
}

/**
 * The row layout of a metric: its own column is `score`; `rouge1` stays `rouge1`; `m.f1` becomes `f1`.
 * A metric with several columns and none named after it reports `spec.headline`'s column (a key, e.g.
 * `rougeL`) as `score`, or its first column when it has no such key.
 */
export function rowLayout(spec: NormalizedMetric, scoreColumns: readonly string[] = columnsOf(spec)): RowLayout {
  const name = spec.name;
  const all = scoreColumns.map((column) => ({
    column,
    key: column === name ? "score" : column.startsWith(`${name}.`) ? column.slice(name.length + 1) : column,
  }));
  const headline = all.find((c) => c.key === "score")?.column ?? all.find((c) => c.key === spec.headline)?.column ?? all[0]!.column;
  return { name, headline, columns: all.length === 1 && all[0]!.key === "score" ? [] : all };
}

/** CSV output columns of the metrics: the metric's name for one-number metrics, `name.score` and `name.key` otherwise. */
export function csvMetricColumns(layouts: readonly RowLayout[]): { header: string; metric: string; column: string }[] {
  const out: { header: string; metric: string; column: string }[] = [];
  for (const m of layouts) {
    if (m.columns.length === 0) out.push({ header: m.name, metric: m.name, column: m.headline });
    else {
      out.push({ header: `${m.name}.score`, metric: m.name, column: m.headline });
      for (const c of m.columns) out.push({ header: `${m.name}.${c.key}`, metric: m.name, column: c.column });
    }
  }
  return out;
}

/** What the workers need to write output rows (plain JSON: it travels to worker threads). */
export interface RowsOutput {
  readonly format: "jsonl" | "csv";
  /** CSV output delimiter. */
  readonly delimiter: string;
  readonly layouts: readonly RowLayout[];
  /** CSV output: the input columns kept (the CSV header, or the keys of the first JSONL rows). */
  readonly inputColumns: readonly string[];
  /** CSV output: the metric columns (those not clashing with an input column). */
  readonly metricColumns: readonly { readonly header: string; readonly column: string }[];
  /** CSV output: neutralise text cells (and headers) a spreadsheet would run as formulas (`escapeCsvFormula`). */
  readonly escapeFormulas: boolean;
  /** CSV output: quote cells as CSV does (`csvField`); false writes TSV cells as they are (`quote` of `csvField`). */
  readonly quote: boolean;
}

/** Build the workers' output settings; `inputColumns` only matters for CSV output. */
export function rowsOutput(
  specs: readonly NormalizedMetric[],
  format: "jsonl" | "csv",
  delimiter: string,
  inputColumns: readonly string[],
  escapeFormulas = true,
  quote = true,
): RowsOutput {
  const layouts = specs.map((s) => rowLayout(s));
  const metricColumns =
    format === "csv"
      ? csvMetricColumns(layouts)
          .filter((c) => !inputColumns.includes(c.header))
          .map(({ header, column }) => ({ header, column }))
      : [];
  return { format, delimiter, layouts, inputColumns: format === "csv" ? [...inputColumns] : [], metricColumns, escapeFormulas, quote };
}

/** The CSV header line of the output. */
export function csvHeader(rows: RowsOutput): string {
  return csvLine(
    [...rows.inputColumns, ...rows.metricColumns.map((c) => c.header), "_error"].map((h) => csvCell(h, rows.escapeFormulas)),
    rows.delimiter,
    rows.quote,
  );
}

/** Add `additions` (`"k":v,...`) as the last members of a JSON object's text. */
export function spliceObject(text: string, additions: string): string {
  return `${spliceObjectOpen(text)}${additions}}`;
}

/** A JSON object's text without its closing brace, with the comma new members need when it has members. */
export function spliceObjectOpen(text: string): string {
  const t = text.trim();
  const body = t.slice(0, -1).trimEnd();
  return body.endsWith("{") ? body : `${body},`;
}

const isJsonSpace = (b: number): boolean => b === 32 || b === 9 || b === 10 || b === 13;

/**
 * `spliceObject`'s opening part on the UTF-8 bytes `[start, end)` of a text `JSON.parse` accepted: written
 * byte for byte, no decoding. The caller then writes the new members and `}`. Only such a text: its
 * leading and trailing whitespace can only be JSON's (space, tab, CR, LF; `trim` would also take other
 * spaces, which JSON.parse refuses there) and its last character is ASCII (`}`, `]`, `"`, a digit or a
 * letter), so trimming and dropping bytes here is what `trim`, `slice(0, -1)` and `trimEnd` do to the text.
 */
export function spliceObjectBytes(w: ByteWriter, src: Uint8Array, start: number, end: number): void {
  let a = start;
  let b = end;
  while (a < b && isJsonSpace(src[a]!)) a++;
  while (b > a && isJsonSpace(src[b - 1]!)) b--;
  if (b > a) b--; // the closing character
  while (b > a && isJsonSpace(src[b - 1]!)) b--;
  w.bytes(src, a, b);
  if (b === a || src[b - 1] !== 123) w.byte(44); // "{" → no comma
}

const utf8 = new TextEncoder();

/** A growable byte buffer: output rows are written into it directly, not built as one string and encoded. */
export class ByteWriter {
  private buf: Uint8Array;
  private pos = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(64, capacity));
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(2 * this.buf.length, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** The bytes `[from, to)` of `src`. */
  bytes(src: Uint8Array, from: number, to: number): void {
    const n = to - from;
    this.room(n);
    if (n > 32) this.buf.set(src.subarray(from, to), this.pos);
    else for (let i = 0, buf = this.buf, p = this.pos; i < n; i++) buf[p + i] = src[from + i]!; // short: no view object
    this.pos += n;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.pos++] = b;
  }

  /** A string of ASCII characters only (numbers as `String` writes them, `null`). */
  ascii(s: string): void {
    this.room(s.length);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any string, as UTF-8 (a lone surrogate as U+FFFD, as `TextEncoder` writes it). */
  text(s: string): void {
    this.room(3 * s.length);
    this.pos += utf8.encodeInto(s, this.buf.subarray(this.pos)).written;
  }

  /** What was written (a view of the buffer: nothing is copied). */
  result(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ------------------------------------------------------------------------------------ CSV writing

/**
 * One CSV field, quoted when it has to be. Without `quote` (TSV read without quoting, where `"` is
 * text) the field is written as it is; only one holding the delimiter or a line break, which plain TSV
 * cannot hold, is still quoted.
 */
export function csvField(value: string, delimiter = ",", quote = true): string {
  const special = value.includes(delimiter) || value.includes("\n") || value.includes("\r");
  if (special || (quote && value.includes('"'))) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

/** One CSV line (LF-terminated); `quote` as for `csvField`. */
export function csvLine(values: readonly string[], delimiter = ",", quote = true): string {
  return `${values.map((v) => csvField(v, delimiter, quote)).join(delimiter)}\n`;
}

/** A plain decimal number (spreadsheets read it as a number, never as a formula). */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a text cell starting with `=`, `+`, `-`, `@`,
 * a tab or a carriage return is prefixed with a single quote, so that Excel, LibreOffice and Google
 * Sheets show it as text instead of evaluating it. Text that is a plain decimal number (`-3.5`,
 * `+1e3`) is left alone: spreadsheets read it as a number, not a formula. Apply it to text cells
 * only: numbers written from numeric values (a negative score) stay numbers.
 */
export function escapeCsvFormula(text: string): string {
  if (text.length === 0) return text;
  const c = text.charCodeAt(0);
  // = + - @ \t \r
  if (c !== 61 && c !== 43 && c !== 45 && c !== 64 && c !== 9 && c !== 13) return text;
  return PLAIN_NUMBER.test(text) ? text : `'${text}`;
}

/**
 * A cell value as CSV text: strings as they are, everything else as JSON. Strings a spreadsheet would
 * run as a formula get a leading single quote (`escapeCsvFormula`) unless `escapeFormulas` is false;
 * numbers (a negative score) are written as the numbers they are.
 */
export function csvCell(value: unknown, escapeFormulas = true): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return escapeFormulas ? escapeCsvFormula(value) : value;
  return JSON.stringify(value) ?? "";
}
