// Reading input rows as the bulk scorer sees them (JSONL lines or CSV records, blank lines skipped,
// line numbers counted), streamed from a byte range of the file so that a shard reads only its part.
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync } from "node:fs";
import { extname } from "node:path";
import { inputError } from "../errors.js";
import { csvKeys } from "@evalkern/harness/bulk";
import { CsvSplitter } from "./csv.js";

export type Format = "jsonl" | "csv";

/** `.csv`/`.tsv` → csv, anything else → jsonl. */
export function formatOf(path: string): Format {
  const ext = extname(path).toLowerCase();
  return ext === ".csv" || ext === ".tsv" ? "csv" : "jsonl";
}

export function delimiterOf(path: string): string {
  return extname(path).toLowerCase() === ".tsv" ? "\t" : ",";
}

/**
 * Whether `"` quotes fields of the delimited file `path`: always for .csv; for .tsv only when asked
 * (`tsvQuotes`, the --tsv-quotes flag), since TSV as `paste` writes it has no quoting.
 */
export function quoteOf(path: string, tsvQuotes = false): boolean {
  return delimiterOf(path) !== "\t" || tsvQuotes;
}

/** Fail with exit code 3 unless `path` is a readable regular file. */
export function requireFile(path: string, what = "input file"): void {
  if (!existsSync(path)) throw inputError(`${what} not found: ${path}`);
  if (!statSync(path).isFile()) throw inputError(`${what} is not a file: ${path}`);
}

/** Extensions of plain-text files (one segment per line), which are never JSONL. */
const TEXT_EXTENSIONS = new Set([".txt", ".text", ".hyp", ".ref", ".src", ".tgt", ".detok", ".tok"]);

/**
 * Fail with exit code 3, naming the formats and the plain-text flags, when a file read as JSONL is not:
 * its extension says plain text, or its first line (after a BOM and blank lines) does not start with
 * `{` or `[`. A JSONL file whose later rows are broken is scored, its broken rows reported one by one.
 */
export function checkLooksLikeJsonl(path: string, shown = path): void {
  const ext = extname(path).toLowerCase();
  let start = "";
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.alloc(4096);
    start = new TextDecoder().decode(bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)));
  } finally {
    closeSync(fd);
  }
  const first = /\S/.exec(start.replace(/^\ufeff/, ""))?.[0];
  const why = TEXT_EXTENSIONS.has(ext)
    ? `its extension ${ext} is that of a plain-text file`
    : first !== undefined && first !== "{" && first !== "["
      ? `its first line does not start with "{" (it starts with ${JSON.stringify(
          start
            .replace(/^\ufeff/, "")
            .trimStart()
            .slice(0, 20),
        )})`
      : undefined;
  if (!why) return;
  throw inputError(
    `${shown} is not JSONL: ${why}.\n` +
      "evalkern score reads JSONL (one JSON object per line), CSV (.csv) and TSV (.tsv). For plain-text files with one segment per line, " +
      `use --hyp and --ref: evalkern score --hyp ${shown} --ref ref.txt (one --ref per reference file), or sacreBLEU's form: ` +
      `evalkern sacrebleu ref.txt -i ${shown}`,
  );
}

export interface ByteRange {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  /** Line number of the first record at `start`. */
  readonly startLine: number;
}

/** One input record: a JSONL line's text, or CSV fields (or why the CSV record is malformed). */
export type InputRecord =
  | { readonly line: number; readonly kind: "jsonl"; readonly text: string }
  | { readonly line: number; readonly kind: "csv"; readonly fields: readonly string[] }
  | { readonly line: number; readonly kind: "csv-error"; readonly error: string };

async function* textChunks(path: string, range: ByteRange): AsyncGenerator<string> {
  if (range.end <= range.start) return;
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const stream = createReadStream(path, { start: range.start, end: range.end - 1, highWaterMark: 1 << 20 });
  for await (const chunk of stream) {
    const text = decoder.decode(chunk as Buffer, { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

/** The records of `path` in `range`, in order (blank lines skipped); `quote`: whether `"` quotes CSV fields. */
export async function* readRecords(
  path: string,
  format: Format,
  range: ByteRange,
  delimiter = ",",
  quote = delimiter !== "\t",
): AsyncGenerator<InputRecord> {
  if (format === "csv") {
    const splitter = new CsvSplitter(delimiter, range.startLine, quote);
    const emit = function* (records: ReturnType<CsvSplitter["push"]>): Generator<InputRecord> {
      for (const r of records)
        yield "error" in r ? { line: r.line, kind: "csv-error", error: r.error } : { line: r.line, kind: "csv", fields: r.fields };
    };
    for await (const text of textChunks(path, range)) yield* emit(splitter.push(text));
    yield* emit(splitter.end());
    return;
  }
  let carry = "";
  let line = range.startLine;
  const lines = function* (text: string, final: boolean): Generator<InputRecord> {
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      let stop = nl;
      if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
      const raw = text.slice(start, stop);
      if (raw.trim() !== "") yield { line, kind: "jsonl", text: raw };
      line++;
      start = nl + 1;
    }
    carry = text.slice(start);
    if (final && carry.length > 0) {
      const raw = carry.endsWith("\r") ? carry.slice(0, -1) : carry;
      if (raw.trim() !== "") yield { line, kind: "jsonl", text: raw };
      carry = "";
    }
  };
  for await (const text of textChunks(path, range)) yield* lines(carry + text, false);
  yield* lines(carry, true);
}

/** Read a whole small JSONL/CSV file as objects (CSV: header row → keys). Throws exit-3 errors with line numbers. */
export async function readObjects(path: string): Promise<{ line: number; value: Record<string, unknown> }[]> {
  requireFile(path);
  const format = formatOf(path);
  const delimiter = delimiterOf(path);
  const size = statSync(path).size;
  const out: { line: number; value: Record<string, unknown> }[] = [];
  let header: readonly string[] | undefined;
  let keys: readonly string[] | undefined;
  for await (const r of readRecords(path, format, { start: 0, end: size, startLine: 1 }, delimiter)) {
    if (r.kind === "csv-error") throw inputError(`${path}:${r.line}: malformed CSV: ${r.error}`);
    if (r.kind === "csv") {
      const fields = r.line === 1 && r.fields[0]?.charCodeAt(0) === 0xfeff ? [r.fields[0].slice(1), ...r.fields.slice(1)] : r.fields;
      if (!header) {
        header = fields;
        keys = csvKeys(header); // a repeated name keeps every cell, as name#1, name#2, …
        continue;
      }
      if (fields.length !== header.length)
        throw inputError(`${path}:${r.line}: expected ${header.length} fields (the header's), got ${fields.length}`);
      const value: Record<string, unknown> = {};
      keys!.forEach((k, i) => (value[k] = fields[i]));
      out.push({ line: r.line, value });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(r.line === 1 && r.text.charCodeAt(0) === 0xfeff ? r.text.slice(1) : r.text);
    } catch (e) {
      throw inputError(`${path}:${r.line}: invalid JSON: ${(e as Error).message}`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw inputError(`${path}:${r.line}: expected a JSON object per line`);
    out.push({ line: r.line, value: value as Record<string, unknown> });
  }
  return out;
}
