// `evalkern compare a b`: sacreBLEU's paired bootstrap test between two systems on the same references,
// for the whole set and per slice (`--by lang`), both from the harness's `pairedTest` (one pass over the
// statistics; this command only supplies each row's slice value).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pairedTest, type PairedScore, type PairedTestResult } from "@evalkern/harness";
import { EXIT, inputError, usageError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { existsSync } from "node:fs";
import { log } from "../log.js";
import { loadRun, sidecarDir, type LoadedRun, type RunMetric } from "../results.js";
import { formatScore, formatTable } from "../table.js";
import { scoreCommand, type ScoreIo } from "./score.js";
import { pairedRows } from "../paired-rows.js";
export { pairedRows, rowInfo, type RowInfo } from "../paired-rows.js";

export interface CompareOptions {
  readonly a: string;
  readonly b: string;
  readonly by: readonly string[];
  readonly metrics: readonly string[];
  readonly hypField: string;
  readonly refsField: readonly string[];
  readonly resamples: number;
  readonly seed: number;
  readonly workers?: number | undefined;
  readonly json: boolean;
  /** Progress on stderr while raw input files are scored (default true; never under --quiet). */
  readonly progress?: boolean;
  readonly progressInterval?: number;
}

/** A scored run for `path`: its own when it is an `evalkern score` output, else scored now into `tmp`. */
async function scoredRun(path: string, options: CompareOptions, tmp: () => string, label: string, io: ScoreIo): Promise<LoadedRun> {
  if (!existsSync(resolve(path))) throw inputError(`${label} not found: ${path}`);
  if (existsSync(join(sidecarDir(path), "run.json"))) {
    const run = loadRun(path);
    if (run.manifest.kind !== "score" || !run.summary) throw inputError(`${path} is not the output of \`evalkern score\``);
    if (options.metrics.length) throw usageError(`${path} is already scored: --metric applies to raw input files only`);
    return run;
  }
  const output = join(tmp(), `${label}-${basename(path)}`);
  // the scoring's table goes nowhere (the comparison is the result); its progress, bad-row and
  // UTF-8 notes go to stderr like those of `evalkern score`
  log.info(`${label === "a" ? "baseline" : "system"} ${path} is not a scored output: scoring it first`);
  const code = await scoreCommand(
    {
      input: path,
      output,
      metrics: options.metrics,
      hypField: options.hypField,
      refsField: options.refsField,
      workers: options.workers,
      ci: false,
      resamples: options.resamples,
      seed: options.seed,
      progress: options.progress !== false,
      ...(options.progressInterval !== undefined ? { progressInterval: options.progressInterval } : {}),
      allowBadRows: true,
      json: true,
    },
    { stdout: { write: () => true }, stderr: io.stderr },
  );
  if (code !== EXIT.ok) throw inputError(`could not score ${path}`);
  return loadRun(output);
}

function metricsOf(run: LoadedRun): RunMetric[] {
  return [...run.manifest.metrics];
}

function stars(p: number): string {
  return p < 0.001 ? "***" : p < 0.01 ? "**" : p < 0.05 ? "*" : "";
}

function scoreCell(score: number, ci: { ci: number } | undefined, scale: number): string {
  return `${formatScore(score, scale)}${ci ? ` ±${formatScore(ci.ci, scale)}` : ""}`;
}

function signed(x: number, scale: number): string {
  return `${x >= 0 ? "+" : "−"}${formatScore(Math.abs(x), scale)}`;
}

export async function compareCommand(options: CompareOptions, io: ScoreIo): Promise<number> {
  let tmpDir: string | undefined;
  const tmp = () => (tmpDir ??= mkdtempSync(join(tmpdir(), "evalkern-compare-")));
  try {
    const a = await scoredRun(options.a, options, tmp, "a", io);
    const b = await scoredRun(options.b, options, tmp, "b", io);
    const infoA = await pairedRows(a, b, options.by);
    let whole: PairedTestResult;
    try {
      whole = await pairedTest({
        baseline: a.summary!,
        system: b.summary!,
        resamples: options.resamples,
        seed: options.seed,
        ...(options.workers ? { workers: options.workers } : {}),
        ...(options.by.length ? { slices: Object.fromEntries(options.by.map((field, f) => [field, infoA.map((r) => r.slices[f]!)])) } : {}),
      });
    } catch (e) {
      throw mapHarnessError(e);
    }

    // per slice: rows valid in both systems, largest slices first
    const slices: { field: string; value: string; rows: number; result: Record<string, Record<string, PairedScore>> }[] = [];
    for (const field of options.by) {
      const entries = [...(whole.slices?.[field] ?? [])].sort((x, y) => y.rows - x.rows || x.value.localeCompare(y.value));
      for (const s of entries) slices.push({ field, value: s.value, rows: s.rows, result: s.metrics });
    }

    if (options.json) {
      io.stdout.write(`${JSON.stringify({ baseline: a.manifest.output, system: b.manifest.output, test: whole.test, resamples: whole.resamples, seed: whole.seed, rows: whole.rows, metrics: whole.metrics, signatures: whole.signatures, slices }, null, 2)}\n`);
      return EXIT.ok;
    }
    const scaleOf = new Map(metricsOf(a).map((m) => [m.name, m.scale] as const));
    const label = (metric: string, score: string) =>
      metric === score ? metric : score.startsWith(`${metric}.`) ? score : score.startsWith(metric) ? score : `${metric}.${score}`;
    const rows: string[][] = [];
    for (const [metric, per] of Object.entries(whole.metrics)) {
      const scale = scaleOf.get(metric) ?? 1;
      for (const [score, r] of Object.entries(per)) {
        rows.push([label(metric, score), scoreCell(r.baseline.score, r.baseline.ci, scale), scoreCell(r.system.score, r.system.ci, scale), signed(r.difference, scale), r.pValue.toFixed(4), stars(r.pValue)]);
      }
    }
    let text = `evalkern compare · baseline ${options.a} vs system ${options.b}\n${whole.rows.toLocaleString("en-US")} paired rows · paired bootstrap (sacreBLEU paired-bs), ${whole.resamples} resamples, seed ${whole.seed}\n\n`;
    text += formatTable(["metric", "baseline", "system", "Δ", "p", ""], rows, { align: ["l", "r", "r", "r", "r", "l"] });
    for (const field of options.by) {
      const srows: string[][] = [];
      for (const s of slices.filter((x) => x.field === field)) {
        let first = true;
        for (const [metric, per] of Object.entries(s.result)) {
          const scale = scaleOf.get(metric) ?? 1;
          for (const [score, r] of Object.entries(per)) {
            srows.push([first ? s.value : "", first ? String(s.rows) : "", label(metric, score), formatScore(r.baseline.score, scale), formatScore(r.system.score, scale), signed(r.difference, scale), r.pValue.toFixed(4), stars(r.pValue)]);
            first = false;
          }
        }
      }
      text += `\n\nby ${field}\n${formatTable([field, "rows", "metric", "baseline", "system", "Δ", "p", ""], srows, { align: ["l", "r", "l", "r", "r", "r", "r", "l"] })}`;
    }
    text += "\n\np: probability of a difference at least this large by chance (* < 0.05, ** < 0.01, *** < 0.001)\n";
    io.stdout.write(text);
    return EXIT.ok;
  } finally {
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  }
}
