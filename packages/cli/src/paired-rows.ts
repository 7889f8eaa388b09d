// The rows of two scored runs side by side: slice values per row, and the check that two runs can be
// compared row by row (same metrics, same rows, same references). Shared by `compare` and `report`.
import { statSync } from "node:fs";
import { ByFieldCheck } from "./by-fields.js";
import { inputError, usageError } from "./errors.js";
import { csvKeys } from "@evalkern/harness/bulk";
import { delimiterOf, readRecords } from "./io/records.js";
import type { LoadedRun } from "./results.js";

export interface RowInfo {
  readonly refs: string;
  readonly slices: readonly string[];
}

export async function rowInfo(run: LoadedRun, by: readonly string[]): Promise<RowInfo[]> {
  const m = run.manifest;
  const out: RowInfo[] = [];
  const byCheck = new ByFieldCheck(by);
  let header: readonly string[] | undefined;
  const path = m.output;
  let keys: readonly string[] = [];
  const range = { start: 0, end: statSync(path).size, startLine: 1 };
  for await (const r of readRecords(path, m.outputFormat, range, delimiterOf(path), m.outputQuote ?? true)) {
    let row: Record<string, unknown> | undefined;
    if (r.kind === "jsonl") {
      const v = JSON.parse(r.text) as Record<string, unknown>;
      row = (v._input as Record<string, unknown> | undefined) && typeof v._input === "object" ? (v._input as Record<string, unknown>) : v;
    } else if (r.kind === "csv") {
      if (!header) {
        header = r.fields;
        keys = csvKeys(header);
        continue;
      }
      row = {};
      for (const [i, k] of keys.entries()) row[k] = r.fields[i];
    }
    if (row) byCheck.row(row, (f) => row![f] !== undefined);
    const refs = JSON.stringify(m.fields.references.map((f) => row?.[f] ?? null));
    out.push({ refs, slices: by.map((f) => (row?.[f] === undefined || row?.[f] === null ? "(none)" : String(row[f]))) });
  }
  byCheck.check(new Set(m.metrics.map((x) => x.name)));
  return out;
}

/**
 * Check that two score runs can be compared row by row (same metrics, same rows, same references) and
 * return the baseline's row info (slice values for `by`).
 */
export async function pairedRows(a: LoadedRun, b: LoadedRun, by: readonly string[]): Promise<RowInfo[]> {
  if (JSON.stringify(a.summary!.metricSpecs) !== JSON.stringify(b.summary!.metricSpecs)) {
    throw usageError(
      `the two runs used different metrics or options (${a.manifest.metrics.map((m) => m.name).join(", ")} vs ` +
        `${b.manifest.metrics.map((m) => m.name).join(", ")}): score both with the same --metric flags`,
    );
  }
  const infoA = await rowInfo(a, by);
  const infoB = await rowInfo(b, by);
  if (infoA.length !== infoB.length)
    throw inputError(
      `the two files have different numbers of rows (${infoA.length} vs ${infoB.length}): a paired test needs the same rows in ` +
        `the same order`,
    );
  for (let i = 0; i < infoA.length; i++) {
    if (infoA[i]!.refs !== infoB[i]!.refs)
      throw inputError(`row ${i + 1} has different references in the two files: a paired test needs the same references row by row`);
  }
  return infoA;
}
