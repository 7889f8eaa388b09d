// DSPy Evaluate's result rows as tables and files (`_prepare_results_output`, `merge_dicts`,
// `truncate_cell`, `stylize_metric_name`, the csv/json writers).
import { pyStr } from "@evalkern/metrics/python";
import { escapeCsvFormula } from "../bulk/rows.js";

type Dict = Record<string, unknown>;

function toDict(value: unknown): Dict | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as { toDict?: () => Dict };
  return typeof v.toDict === "function" ? v.toDict() : (value as Dict);
}

/** DSPy `merge_dicts`: example keys, then prediction keys; clashing keys become example_k / pred_k. */
export function mergeDicts(example: Dict, prediction: Dict): Dict {
  const merged: Dict = {};
  for (const [k, v] of Object.entries(example)) merged[k in prediction ? `example_${k}` : k] = v;
  for (const [k, v] of Object.entries(prediction)) merged[k in example ? `pred_${k}` : k] = v;
  return merged;
}

/** DSPy `_prepare_results_output`: one flat record per (example, prediction, score). */
export function prepareResultsOutput(results: readonly (readonly [unknown, unknown, unknown])[], metricName: string): Dict[] {
  return results.map(([example, prediction, score]) => {
    const ex = toDict(example) ?? {};
    const pred = toDict(prediction);
    return pred ? { ...mergeDicts(ex, pred), [metricName]: score } : { ...ex, prediction, [metricName]: score };
  });
}

/** DSPy `truncate_cell`: at most 25 words. */
export function truncateCell(content: unknown): string {
  const text = pyStr(content);
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > 25 ? `${words.slice(0, 25).join(" ")}...` : text;
}

/** DSPy `stylize_metric_name`'s cell format: floats with 3 decimals, anything else as str. */
export function formatMetricCell(x: unknown): string {
  if (x === null || x === undefined) return "";
  if (typeof x === "number" && !Number.isInteger(x)) return `✔️ [${x.toFixed(3)}]`;
  return `✔️ [${pyStr(x)}]`;
}

/** A plain-text table of the prepared rows (`limit` rows, then a "... N more rows" line). */
export function renderTable(data: readonly Dict[], metricName: string, limit: number | undefined, maxCellWidth = 40): string {
  const columns: string[] = [];
  for (const row of data) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const shown = limit === undefined ? data : data.slice(0, limit);
  const cell = (row: Dict, c: string): string => {
    const v = c === metricName ? formatMetricCell(row[c]) : c in row ? truncateCell(row[c]) : "";
    const flat = v.replace(/\s+/g, " ");
    return flat.length > maxCellWidth ? `${flat.slice(0, maxCellWidth - 1)}…` : flat;
  };
  const cells = shown.map((row, i) => [String(i), ...columns.map((c) => cell(row, c))]);
  const header = ["", ...columns];
  const widths = header.map((h, j) => Math.max(h.length, ...cells.map((r) => r[j]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, j) => v.padEnd(widths[j]!))
      .join(" | ")
      .trimEnd();
  const out = [line(header), widths.map((w) => "-".repeat(w)).join("-+-"), ...cells.map(line)];
  const more = data.length - shown.length;
  if (more > 0) out.push(`... ${more} more rows not displayed ...`);
  return `${out.join("\n")}\n`;
}

function csvCell(v: unknown, escapeFormulas: boolean): string {
  let s = v === null || v === undefined ? "" : pyStr(v);
  if (escapeFormulas && typeof v === "string") s = escapeCsvFormula(s);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Python `csv.DictWriter` output (header, CRLF line ends, minimal quoting; None → empty cell). Text
 * cells (and headers) that a spreadsheet would run as a formula are neutralised (`escapeCsvFormula`)
 * unless `escapeFormulas` is false; numbers, booleans and None are written as Python writes them.
 */
export function toCsv(data: readonly Dict[], options: { readonly escapeFormulas?: boolean } = {}): string {
  const escape = options.escapeFormulas !== false;
  const columns: string[] = [];
  for (const row of data) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const lines = [
    columns.map((c) => csvCell(c, escape)).join(","),
    ...data.map((row) => columns.map((c) => csvCell(row[c], escape)).join(",")),
  ];
  return lines.map((l) => `${l}\r\n`).join("");
}

/** JSON of the prepared rows (Examples/Predictions as their fields). */
export function toJson(data: readonly Dict[]): string {
  return JSON.stringify(data, (_k, v: unknown) => {
    const d = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as { toDict?: () => Dict }) : undefined;
    return d && typeof d.toDict === "function" ? d.toDict() : v;
  });
}
