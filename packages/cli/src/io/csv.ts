// CSV records with the bulk scorer's rules (RFC 4180 with Python csv's leniency): quotes are special
// only at the start of a field, `""` inside quotes is a quote, text after a closing quote up to the
// delimiter is kept, CRLF and LF end records, a blank line is no record. Without quoting (TSV unless
// asked for) a `"` is text and every line is a record. The reader has to agree with the scorer record
// for record, since scored rows are joined back to their input rows by position.

export type CsvRecord = { readonly line: number; readonly fields: string[] } | { readonly line: number; readonly error: string };

const enum S {
  RecordStart,
  FieldStart,
  Unquoted,
  Quoted,
  QuoteInQuoted,
  CarriageReturn,
}

/** An incremental CSV splitter: `push` text, get the records completed so far; `end` flushes the last. */
export class CsvSplitter {
  private state = S.RecordStart;
  private field = "";
  private fields: string[] = [];
  private line: number;
  private recordLine: number;
  private readonly delimiter: string;
  private readonly quote: boolean;

  /** `quote`: whether `"` quotes fields (default: yes, except for a tab delimiter). */
  constructor(delimiter = ",", firstLine = 1, quote = delimiter !== "\t") {
    this.delimiter = delimiter;
    this.quote = quote;
    this.line = firstLine;
    this.recordLine = firstLine;
  }

  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    const d = this.delimiter;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (this.state === S.CarriageReturn) {
        // a CR only ends a record when an LF follows; otherwise it is text (in an unquoted field)
        if (c === "\n") {
          this.fields.push(this.field);
          this.endRecord(out);
          this.line++;
          continue;
        }
        this.field += "\r";
        this.state = S.Unquoted;
      }
      switch (this.state) {
        case S.RecordStart:
          if (c === "\n") {
            this.line++;
            continue;
          }
          if (c === "\r" && text[i + 1] === "\n") {
            i++;
            this.line++;
            continue;
          }
          this.recordLine = this.line;
          this.state = S.FieldStart;
        // falls through
        case S.FieldStart:
          if (c === '"' && this.quote) this.state = S.Quoted;
          else if (c === d) this.fields.push("");
          else if (c === "\n") {
            this.fields.push("");
            this.endRecord(out);
            this.line++;
          } else if (c === "\r") {
            this.state = S.CarriageReturn;
          } else {
            this.field = c;
            this.state = S.Unquoted;
          }
          break;
        case S.Unquoted:
          if (c === d) {
            this.fields.push(this.field);
            this.field = "";
            this.state = S.FieldStart;
          } else if (c === "\n") {
            this.fields.push(this.field);
            this.field = "";
            this.endRecord(out);
            this.line++;
          } else if (c === "\r") this.state = S.CarriageReturn;
          else this.field += c;
          break;
        case S.Quoted:
          if (c === '"') this.state = S.QuoteInQuoted;
          else {
            if (c === "\n") this.line++;
            this.field += c;
          }
          break;
        case S.QuoteInQuoted:
          if (c === '"') {
            this.field += '"';
            this.state = S.Quoted;
          } else if (c === d) {
            this.fields.push(this.field);
            this.field = "";
            this.state = S.FieldStart;
          } else if (c === "\n") {
            this.fields.push(this.field);
            this.field = "";
            this.endRecord(out);
            this.line++;
          } else if (c === "\r") this.state = S.CarriageReturn;
          else {
            this.field += c;
            this.state = S.Unquoted;
          }
          break;
      }
    }
    return out;
  }

  private endRecord(out: CsvRecord[]): void {
    out.push({ line: this.recordLine, fields: this.fields });
    this.fields = [];
    this.field = "";
    this.state = S.RecordStart;
  }

  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.state === S.RecordStart) return out;
    if (this.state === S.Quoted) {
      out.push({ line: this.recordLine, error: "unclosed quoted field" });
    } else {
      if (this.state === S.CarriageReturn) this.field += "\r";
      this.fields.push(this.field);
      out.push({ line: this.recordLine, fields: this.fields });
    }
    this.fields = [];
    this.field = "";
    this.state = S.RecordStart;
    return out;
  }
}

/** Parse a whole CSV text. */
export function parseCsvText(text: string, delimiter = ",", quote = delimiter !== "\t"): CsvRecord[] {
  const s = new CsvSplitter(delimiter, 1, quote);
  return [...s.push(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), ...s.end()];
}

// The CSV writer lives in @evalkern/harness (which writes scored rows); re-exported for the CLI's own files.
// `csvCell` neutralises text cells a spreadsheet would run as formulas (OWASP), never numbers.
export { csvCell, csvField, csvLine } from "@evalkern/harness";
