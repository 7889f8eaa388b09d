// `evalkern report`: one self-contained HTML file from a run's results; with two score runs
// (`evalkern report base.jsonl new.jsonl`), the second's report with a paired comparison against the
// first (Δ and paired-bootstrap p per metric and per slice, from the harness's `pairedTest`).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pairedTest, type PairedScore, type ScoreTable } from "@evalkern/harness";
import { inputError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { collectReport, type ComparisonData, type PairedRow } from "../report/collect.js";
import { renderReport } from "../report/html.js";
import { loadRun, type LoadedRun, type RunMetric } from "../results.js";
import { columnLabel } from "../results.js";
import { pairedRows } from "../paired-rows.js";

export interface ReportOptions {
  /** Per-row output of `evalkern score` or `evalkern judge`. */
  readonly results: string;
  /** A baseline run's per-row output (score runs): the report then compares `results` with it. */
  readonly baseline?: string | undefined;
  /** The HTML file to write. */
  readonly output: string;
  readonly by?: readonly string[] | undefined;
  readonly worst?: number | undefined;
  readonly title?: string | undefined;
  /** Field shown as each row's id (default: the run's --id-field, else `id`). */
  readonly idField?: string | undefined;
  /** Per-slice bootstrap CIs: resamples and seed, or false (default 1000, 12345). */
  readonly sliceCi?: false | { readonly resamples: number; readonly seed: number } | undefined;
  /** Resamples and seed of the paired test (two-system reports; default 1000, 12345). */
  readonly paired?: { readonly resamples: number; readonly seed: number } | undefined;
}

function scoreRun(path: string): LoadedRun {
  const run = loadRun(path);
  if (run.manifest.kind !== "score" || !run.summary) throw inputError(`${path}: a two-system report needs two outputs of \`evalkern score\``);
  return run;
}

function pairedRowsOf(metrics: readonly RunMetric[], table: ScoreTable<PairedScore>): PairedRow[] {
  const out: PairedRow[] = [];
  for (const m of metrics) {
    const per = table[m.name];
    if (!per) continue;
    for (const [column, r] of Object.entries(per)) {
      const key = m.columns.find((c) => c.column === column)?.key ?? "score";
      out.push({
        label: m.columns.length === 0 ? m.name : columnLabel(m, key),
        scale: m.scale,
        higherIsBetter: m.higherIsBetter,
        baseline: r.baseline.score,
        system: r.system.score,
        difference: r.difference,
        pValue: r.pValue,
      });
    }
  }
  return out;
}

async function comparison(base: LoadedRun, system: LoadedRun, by: readonly string[], opts: { resamples: number; seed: number }): Promise<ComparisonData> {
  const info = await pairedRows(base, system, by);
  let result;
  try {
    result = await pairedTest({
      baseline: base.summary!,
      system: system.summary!,
      resamples: opts.resamples,
      seed: opts.seed,
      ...(by.length ? { slices: Object.fromEntries(by.map((field, f) => [field, info.map((r) => r.slices[f]!)])) } : {}),
    });
  } catch (e) {
    throw mapHarnessError(e);
  }
  const metrics = system.manifest.metrics;
  return {
    baseline: base.manifest.output,
    system: system.manifest.output,
    rows: result.rows,
    resamples: result.resamples,
    seed: result.seed,
    metrics: pairedRowsOf(metrics, result.metrics),
    slices: by.map((field) => ({
      field,
      values: [...(result.slices?.[field] ?? [])]
        .sort((x, y) => y.rows - x.rows || x.value.localeCompare(y.value))
        .map((s) => ({ value: s.value, rows: s.rows, metrics: pairedRowsOf(metrics, s.metrics) })),
    })),
  };
}

/**
 * Write the HTML report of a run (with `baseline`, compared with that run).
 *
 * @example
 * await writeReport({ results: "out.jsonl", output: "report.html", by: ["lang"] });
 * await writeReport({ baseline: "base.scored.jsonl", results: "new.scored.jsonl", output: "ab.html" });
 */
export async function writeReport(options: ReportOptions): Promise<{ path: string; bytes: number }> {
  const base = options.baseline !== undefined ? scoreRun(options.baseline) : undefined;
  const run = base ? scoreRun(options.results) : loadRun(options.results);
  let data = await collectReport(run, {
    ...(options.by ? { by: options.by } : {}),
    ...(options.worst !== undefined ? { worst: options.worst } : {}),
    ...(options.title ? { title: options.title } : {}),
    ...(options.idField ? { idField: options.idField } : {}),
    ...(options.sliceCi !== undefined ? { sliceCi: options.sliceCi } : {}),
  });
  if (base) {
    const c = await comparison(base, run, data.sliceFields, options.paired ?? { resamples: 1000, seed: 12345 });
    data = { ...data, comparison: c, ...(options.title ? {} : { title: "evalkern comparison report" }) };
  }
  const html = renderReport(data);
  const path = resolve(options.output);
  writeFileSync(path, html);
  return { path, bytes: Buffer.byteLength(html) };
}
