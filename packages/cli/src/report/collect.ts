// The CLI's side of the HTML report: reading a run's output file (and its statistics through the
// harness's `sliceScores`) for the shared, browser-safe collector of `@evalkern/harness/report`.
import { statSync } from "node:fs";
import { csvKeys, sliceScores } from "@evalkern/harness/bulk";
import {
  collectReportData,
  rowField,
  type CollectOptions as HarnessCollectOptions,
  type OutputRow,
  type ReportData,
  type ReportRun,
} from "@evalkern/harness/report";
import { ByFieldCheck } from "../by-fields.js";
import { inputError } from "../errors.js";
import { delimiterOf, readRecords, type InputRecord } from "../io/records.js";
import type { LoadedRun } from "../results.js";

export {
  BINS,
  type ComparisonData,
  type PairedRow,
  type ReportData,
  type RowSample,
  type SeriesData,
  type SliceTable,
} from "@evalkern/harness/report";

export type CollectOptions = Omit<HarnessCollectOptions, "onRow" | "onRowsDone" | "noRowsError">;

/** `quote`: whether the run wrote its CSV/TSV output with CSV quoting (run.json `outputQuote`; older runs always did). */
async function* outputRows(path: string, format: "jsonl" | "csv", quote: boolean): AsyncGenerator<OutputRow> {
  const size = statSync(path).size;
  let header: string[] | undefined;
  for await (const r of readRecords(path, format, { start: 0, end: size, startLine: 1 }, delimiterOf(path), quote)) {
    yield parseOutputRecord(
      r,
      () => header,
      (h) => (header = h),
    );
  }
}

function parseOutputRecord(r: InputRecord, header: () => string[] | undefined, setHeader: (h: string[]) => void): OutputRow {
  if (r.kind === "jsonl") {
    try {
      const v = JSON.parse(r.text) as unknown;
      return { line: r.line, row: typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null };
    } catch {
      return { line: r.line, row: null };
    }
  }
  if (r.kind === "csv-error") return { line: r.line, row: null };
  const h = header();
  if (!h) {
    setHeader(csvKeys(r.fields.map((f, i) => (i === 0 && f.charCodeAt(0) === 0xfeff ? f.slice(1) : f))));
    return { line: r.line, row: null };
  }
  const o: Record<string, unknown> = {};
  h.forEach((k, i) => (o[k] = r.fields[i]));
  return { line: r.line, row: o };
}

/** Read a run's output and summarise it for the report. */
export async function collectReport(run: LoadedRun, options: CollectOptions = {}): Promise<ReportData> {
  const m = run.manifest;
  const summary = run.summary;
  const source: ReportRun = {
    manifest: m,
    rows: () => outputRows(m.output, m.outputFormat, m.outputQuote ?? true),
    ...(summary?.statistics != null ? { sliceScores: (slices, opts) => sliceScores(summary, slices, opts) } : {}),
  };
  // only fields the user asked for are checked (detected ones exist by construction)
  const byCheck = new ByFieldCheck(options.by ?? []);
  return collectReportData(source, {
    ...options,
    onRow: (row) => byCheck.row(row, (f) => rowField(row, f) !== undefined),
    onRowsDone: () => byCheck.check(new Set(m.metrics.map((x) => x.name))),
    noRowsError: (message) => inputError(message),
  });
}
