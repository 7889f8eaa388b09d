// `evalkern report`: one self-contained HTML file from a run's results; with two score runs
// (`evalkern report base.jsonl new.jsonl`), the second's report with a paired comparison against the
// first (Δ and paired-bootstrap p per metric and per slice, from the harness's `pairedTest`).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pairedTest } from "@evalkern/harness/bulk";
import { comparisonData } from "@evalkern/harness/report";
import { inputError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { checkOutputPaths } from "../io/output-paths.js";
import { collectReport, type ComparisonData } from "../report/collect.js";
import { renderReport } from "../report/html.js";
import { loadRun, type LoadedRun } from "../results.js";
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
  if (run.manifest.kind !== "score" || !run.summary)
    throw inputError(`${path}: a two-system report needs two outputs of \`evalkern score\``);
  return run;
}

async function comparison(
  base: LoadedRun,
  system: LoadedRun,
  by: readonly string[],
  opts: { resamples: number; seed: number },
): Promise<ComparisonData> {
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
  return comparisonData(base.manifest.output, system.manifest.output, system.manifest.metrics, result, by);
}

/**
 * Write the HTML report of a run (with `baseline`, compared with that run).
 *
 * @example
 * await writeReport({ results: "out.jsonl", output: "report.html", by: ["lang"] });
 * await writeReport({ baseline: "base.scored.jsonl", results: "new.scored.jsonl", output: "ab.html" });
 */
export async function writeReport(options: ReportOptions): Promise<{ path: string; bytes: number }> {
  const inputs = [{ role: "the results file", path: options.results }];
  if (options.baseline !== undefined) inputs.push({ role: "the baseline", path: options.baseline });
  checkOutputPaths(inputs, [{ role: "-o", path: options.output }]);
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
