// `evalkern compare base sys1 [sys2 …]`: sacreBLEU's paired bootstrap test of systems on the same references
// against a baseline (as `sacrebleu -i base sys1 sys2 --paired-bs`: each system against the baseline alone),
// for the whole set and per slice (`--by lang`), from the harness's `pairedTests` (one pass over the
// statistics per system; this command only supplies each row's slice value).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pairedTests, type PairedScore, type PairedTestResult } from "@evalkern/harness/bulk";
import { CliError, EXIT, inputError, usageError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { existsSync } from "node:fs";
import { log } from "../log.js";
import { loadRun, sidecarDir, type LoadedRun, type RunMetric } from "../results.js";
import { formatScore, formatTable } from "../table.js";
import { scoreCommand, type ScoreIo } from "./score.js";
import { pairedRows } from "../paired-rows.js";
export { pairedRows, rowInfo, type RowInfo } from "../paired-rows.js";

export interface CompareOptions {
  /** The baseline. */
  readonly a: string;
  /** The first system compared with it. */
  readonly b: string;
  /** More systems, each compared with the baseline as `b` is (sacreBLEU's `-i base sys1 sys2 …`). */
  readonly more?: readonly string[];
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

/** How a score of a metric is named in the tables: `bleu`, `rouge1`, `byob-f1.precision`. */
function label(metric: string, score: string): string {
  return metric === score ? metric : score.startsWith(`${metric}.`) ? score : score.startsWith(metric) ? score : `${metric}.${score}`;
}

interface SliceResult {
  readonly field: string;
  readonly value: string;
  readonly rows: number;
  readonly result: Record<string, Record<string, PairedScore>>;
}

/** Per slice: rows valid in both systems, largest slices first. */
function sliceList(r: PairedTestResult, by: readonly string[]): SliceResult[] {
  const slices: SliceResult[] = [];
  for (const field of by) {
    const entries = [...(r.slices?.[field] ?? [])].sort((x, y) => y.rows - x.rows || x.value.localeCompare(y.value));
    for (const s of entries) slices.push({ field, value: s.value, rows: s.rows, result: s.metrics });
  }
  return slices;
}

/** Several systems as JSON: the baseline, then each system's test against it (the two-system JSON's fields). */
function severalJson(options: CompareOptions, a: LoadedRun, systems: readonly LoadedRun[], results: readonly PairedTestResult[]): string {
  const tests = results.map((r, k) => ({
    system: systems[k]!.manifest.output,
    test: r.test,
    resamples: r.resamples,
    seed: r.seed,
    rows: r.rows,
    metrics: r.metrics,
    signatures: r.signatures,
    slices: sliceList(r, options.by),
  }));
  return `${JSON.stringify({ baseline: a.manifest.output, systems: tests }, null, 2)}\n`;
}

/**
 * Several systems as text, as sacreBLEU prints them: per metric, the baseline's row, then one row per system
 * with its score, Δ to the baseline and its own p-value (each system is tested against the baseline alone).
 */
function severalText(
  options: CompareOptions,
  paths: readonly string[],
  results: readonly PairedTestResult[],
  scaleOf: ReadonlyMap<string, number>,
): string {
  const first = results[0]!;
  const rowCounts = [...new Set(results.map((r) => r.rows))];
  const count = (n: number) => n.toLocaleString("en-US");
  const each = results.map((r, k) => `${paths[k]} ${count(r.rows)}`).join(", ");
  const paired = rowCounts.length === 1 ? `${count(first.rows)} paired rows` : `paired rows ${each}`;
  let text = `evalkern compare · baseline ${options.a} vs ${paths.length} systems: ${paths.join(", ")}\n`;
  const test = `paired bootstrap (sacreBLEU paired-bs), ${first.resamples} resamples, seed ${first.seed}`;
  text += `${paired} · ${test}; each system against the baseline\n\n`;
  const rows: string[][] = [];
  for (const [metric, per] of Object.entries(first.metrics)) {
    const scale = scaleOf.get(metric) ?? 1;
    for (const [score, r0] of Object.entries(per)) {
      rows.push([label(metric, score), `baseline: ${options.a}`, scoreCell(r0.baseline.score, r0.baseline.ci, scale), "", "", ""]);
      results.forEach((res, k) => {
        const r = res.metrics[metric]![score]!;
        const cells = [scoreCell(r.system.score, r.system.ci, scale), signed(r.difference, scale), r.pValue.toFixed(4), stars(r.pValue)];
        rows.push(["", paths[k]!, ...cells]);
      });
    }
  }
  text += formatTable(["metric", "system", "score", "Δ", "p", ""], rows, { align: ["l", "l", "r", "r", "r", "l"] });
  const perSystem = results.map((r) => sliceList(r, options.by));
  for (const field of options.by) {
    const srows: string[][] = [];
    for (const s0 of perSystem[0]!.filter((x) => x.field === field)) {
      let firstRow = true;
      for (const [metric, per] of Object.entries(s0.result)) {
        const scale = scaleOf.get(metric) ?? 1;
        for (const [score, r0] of Object.entries(per)) {
          const baseline = formatScore(r0.baseline.score, scale);
          srows.push([firstRow ? s0.value : "", label(metric, score), `baseline: ${options.a}`, "", baseline, "", "", ""]);
          firstRow = false;
          perSystem.forEach((slices, k) => {
            const s = slices.find((x) => x.field === field && x.value === s0.value);
            const r = s?.result[metric]?.[score];
            // a slice with no row valid in both the baseline and this system has no test
            if (!s || !r) srows.push(["", "", paths[k]!, "0", "–", "", "", ""]);
            else {
              const cells = [formatScore(r.system.score, scale), signed(r.difference, scale), r.pValue.toFixed(4), stars(r.pValue)];
              srows.push(["", "", paths[k]!, String(s.rows), ...cells]);
            }
          });
        }
      }
    }
    const align = ["l", "l", "l", "r", "r", "r", "r", "l"] as const;
    text += `\n\nby ${field}\n${formatTable([field, "metric", "system", "rows", "score", "Δ", "p", ""], srows, { align: [...align] })}`;
  }
  return `${text}\n\np: probability of a difference at least this large by chance (* < 0.05, ** < 0.01, *** < 0.001)\n`;
}

export async function compareCommand(options: CompareOptions, io: ScoreIo): Promise<number> {
  let tmpDir: string | undefined;
  const tmp = () => (tmpDir ??= mkdtempSync(join(tmpdir(), "evalkern-compare-")));
  try {
    const a = await scoredRun(options.a, options, tmp, "a", io);
    const paths = [options.b, ...(options.more ?? [])];
    const systems: LoadedRun[] = [];
    for (const [k, path] of paths.entries()) systems.push(await scoredRun(path, options, tmp, k === 0 ? "b" : `b${k + 1}`, io));
    // every system must hold the baseline's rows and references; the slice values are the baseline's
    let infoA: Awaited<ReturnType<typeof pairedRows>> = [];
    for (const [k, b] of systems.entries()) {
      try {
        infoA = await pairedRows(a, b, options.by);
      } catch (e) {
        // with several systems, say which one does not pair with the baseline
        if (systems.length === 1 || !(e instanceof CliError)) throw e;
        throw new CliError(`${paths[k]} (system ${k + 1}) and the baseline ${options.a}: ${e.message}`, e.exitCode);
      }
    }
    let results: PairedTestResult[];
    try {
      results = await pairedTests({
        baseline: a.summary!,
        systems: systems.map((b) => b.summary!),
        resamples: options.resamples,
        seed: options.seed,
        ...(options.workers ? { workers: options.workers } : {}),
        ...(options.by.length ? { slices: Object.fromEntries(options.by.map((field, f) => [field, infoA.map((r) => r.slices[f]!)])) } : {}),
      });
    } catch (e) {
      throw mapHarnessError(e);
    }
    if (systems.length > 1) {
      const scales = new Map(metricsOf(a).map((m) => [m.name, m.scale] as const));
      io.stdout.write(options.json ? severalJson(options, a, systems, results) : severalText(options, paths, results, scales));
      return EXIT.ok;
    }
    const b = systems[0]!;
    const whole = results[0]!;
    const slices = sliceList(whole, options.by);

    if (options.json) {
      io.stdout.write(
        JSON.stringify(
          {
            baseline: a.manifest.output,
            system: b.manifest.output,
            test: whole.test,
            resamples: whole.resamples,
            seed: whole.seed,
            rows: whole.rows,
            metrics: whole.metrics,
            signatures: whole.signatures,
            slices,
          },
          null,
          2,
        ) + "\n",
      );
      return EXIT.ok;
    }
    const scaleOf = new Map(metricsOf(a).map((m) => [m.name, m.scale] as const));
    const rows: string[][] = [];
    for (const [metric, per] of Object.entries(whole.metrics)) {
      const scale = scaleOf.get(metric) ?? 1;
      for (const [score, r] of Object.entries(per)) {
        rows.push([
          label(metric, score),
          scoreCell(r.baseline.score, r.baseline.ci, scale),
          scoreCell(r.system.score, r.system.ci, scale),
          signed(r.difference, scale),
          r.pValue.toFixed(4),
          stars(r.pValue),
        ]);
      }
    }
    let text =
      `evalkern compare · baseline ${options.a} vs system ${options.b}\n${whole.rows.toLocaleString("en-US")} paired ` +
      `rows · paired bootstrap (sacreBLEU paired-bs), ${whole.resamples} resamples, seed ${whole.seed}\n\n`;
    text += formatTable(["metric", "baseline", "system", "Δ", "p", ""], rows, { align: ["l", "r", "r", "r", "r", "l"] });
    for (const field of options.by) {
      const srows: string[][] = [];
      for (const s of slices.filter((x) => x.field === field)) {
        let first = true;
        for (const [metric, per] of Object.entries(s.result)) {
          const scale = scaleOf.get(metric) ?? 1;
          for (const [score, r] of Object.entries(per)) {
            srows.push([
              first ? s.value : "",
              first ? String(s.rows) : "",
              label(metric, score),
              formatScore(r.baseline.score, scale),
              formatScore(r.system.score, scale),
              signed(r.difference, scale),
              r.pValue.toFixed(4),
              stars(r.pValue),
            ]);
            first = false;
          }
        }
      }
      text +=
        `\n\nby ${field}\n` +
        formatTable([field, "rows", "metric", "baseline", "system", "Δ", "p", ""], srows, {
          align: ["l", "r", "l", "r", "r", "r", "r", "l"],
        });
    }
    text += "\n\np: probability of a difference at least this large by chance (* < 0.05, ** < 0.01, *** < 0.001)\n";
    io.stdout.write(text);
    return EXIT.ok;
  } finally {
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  }
}
