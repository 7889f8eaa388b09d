// Settings of `scoreFile`'s "rows" output (the input rows with their scores; see bulk/rows.ts): the
// output format, and for CSV output the input columns kept (the CSV header, or the keys of the first
// 1000 JSONL rows of the shard, in order of first appearance).
import { closeSync, openSync, readSync } from "node:fs";
import { InvalidArgumentError } from "@evalkern/core-wasm";
import type { NormalizedMetric } from "../bulk/metrics.js";
import { csvHeader, isPlainObject, rowsOutput, type RowsOutput } from "../bulk/rows.js";

const SCAN_ROWS = 1000;
const BLOCK = 1 << 20;

/** Keys of the first `limit` JSON-object rows in bytes [start, end) of a JSONL file. */
export function jsonlColumns(path: string, start: number, end: number, limit = SCAN_ROWS): string[] {
  const keys = new Set<string>();
  const fd = openSync(path, "r");
  try {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    let pos = start;
    let carry = "";
    let n = 0;
    const take = (raw: string): boolean => {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line.trim() === "") return false;
      try {
        const v = JSON.parse(line) as unknown;
        if (isPlainObject(v)) for (const k of Object.keys(v)) keys.add(k);
      } catch {
        // not a JSON row: no columns from it
      }
      return ++n >= limit;
    };
    const buf = new Uint8Array(BLOCK);
    while (pos < end) {
      const got = readSync(fd, buf, 0, Math.min(BLOCK, end - pos), pos);
      if (got === 0) break;
      pos += got;
      const text = carry + decoder.decode(buf.subarray(0, got), { stream: true });
      const lines = text.split("\n");
      carry = lines.pop()!;
      for (const l of lines) if (take(l)) return [...keys];
    }
    const tail = carry + decoder.decode();
    if (tail) take(tail);
    return [...keys];
  } finally {
    closeSync(fd);
  }
}

export interface RowsOutputOptions {
  /** "rows" writes the input rows with scores added; "scores" (default) `{"line":…,"<metric>":…}` lines. */
  readonly outputRows?: "scores" | "rows";
  /** Format of "rows" output (default: from the output's extension, .csv/.tsv → csv, else jsonl). */
  readonly outputFormat?: "jsonl" | "csv";
  /** CSV output delimiter (default "," or a tab for .tsv). */
  readonly outputDelimiter?: string;
  /**
   * CSV output: text cells starting with `=`, `+`, `-`, `@`, tab or CR get a leading `'` so spreadsheets
   * do not run them as formulas (OWASP "CSV Injection"; default true). Numbers are never changed.
   */
  readonly outputEscapeFormulas?: boolean;
  /**
   * CSV output: quote cells as CSV does. Default true, except for tab-separated output of an input read
   * without quoting (TSV), whose cells are then written back byte for byte (they hold no tab or newline).
   */
  readonly outputQuote?: boolean;
}

/** The workers' "rows" output settings and the output's header text (CSV), or undefined for score lines. */
export function resolveRowsOutput(
  options: RowsOutputOptions,
  output: string,
  specs: readonly NormalizedMetric[],
  input: {
    readonly path: string;
    readonly format: "jsonl" | "csv";
    readonly quote: boolean;
    readonly header: readonly string[] | null;
    readonly start: number;
    readonly end: number;
  },
): { rows: RowsOutput; header: string } | undefined {
  const mode = options.outputRows ?? "scores";
  if (mode !== "scores" && mode !== "rows")
    throw new InvalidArgumentError('outputRows must be "scores" or "rows"', { argument: "outputRows" });
  if (mode === "scores") return undefined;
  const lower = output.toLowerCase();
  const format = options.outputFormat ?? (lower.endsWith(".csv") || lower.endsWith(".tsv") ? "csv" : "jsonl");
  if (format !== "jsonl" && format !== "csv")
    throw new InvalidArgumentError('outputFormat must be "jsonl" or "csv"', { argument: "outputFormat" });
  const delimiter = options.outputDelimiter ?? (lower.endsWith(".tsv") ? "\t" : ",");
  if (typeof delimiter !== "string" || delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r") {
    throw new InvalidArgumentError("outputDelimiter must be one character (not a quote or newline)", { argument: "outputDelimiter" });
  }
  if (format === "jsonl") return { rows: rowsOutput(specs, "jsonl", delimiter, []), header: "" };
  const columns = input.header ? [...input.header] : jsonlColumns(input.path, input.start, input.end);
  const escape = options.outputEscapeFormulas ?? true;
  if (typeof escape !== "boolean")
    throw new InvalidArgumentError("outputEscapeFormulas must be a boolean", { argument: "outputEscapeFormulas" });
  const quote = options.outputQuote ?? !(delimiter === "\t" && input.format === "csv" && !input.quote);
  if (typeof quote !== "boolean") throw new InvalidArgumentError("outputQuote must be a boolean", { argument: "outputQuote" });
  const rows = rowsOutput(specs, "csv", delimiter, columns, escape, quote);
  return { rows, header: csvHeader(rows) };
}
