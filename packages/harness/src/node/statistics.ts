// Library functions over a scored run's statistics (the per-row statistics file that scoreFile keeps,
// f32 rows [valid, ...statistics], and the metric specs recorded in its summary): corpus scores, corpus
// scores per slice, bootstrap confidence intervals (overall and per slice) and sacreBLEU's paired
// bootstrap test between two runs. Callers never decode the statistics layout themselves.
import { resolve } from "node:path";
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { resolveBootstrap, type BootstrapOptions, type ConfidenceInterval } from "../bulk/bootstrap.js";
import { stableJson, type BulkMetric } from "../bulk/metrics.js";
import {
  bootstrapCiOf,
  corpusLayout,
  pairedTestOf,
  resampleInRanges,
  scoreGathered,
  sliceScoresOf,
  type CorpusLayout,
  type PairedScore,
  type PairedSlice,
  type PairedTestResult,
  type ResampleJob as RowsResampleJob,
  type Resampler,
  type ScoreTable,
  type SliceKeys,
  type SliceScore,
} from "../bulk/statistics-core.js";
import { mainThreadMetrics, summarizeMetrics } from "../bulk/summary.js";
import { fileRows, type BootstrapTask } from "./bootstrap-files.js";
import { readJson } from "./files.js";
import { createPool, defaultWorkers, type WorkerPool } from "./pool.js";
import type { ScoreSummary } from "./score-file.js";

/** A scoreFile summary, or the path of its `.summary.json`. */
export type ScoredRun = ScoreSummary | string;

export {
  corpusLayout,
  scoreGathered,
  type CorpusLayout,
  type PairedScore,
  type PairedSlice,
  type PairedTestResult,
  type ScoreTable,
  type SliceKeys,
  type SliceScore,
};

export interface StatisticsOptions {
  /** Resamples (default 1000, as sacreBLEU). */
  readonly resamples?: number;
  /** Seed (default 12345, sacreBLEU's). */
  readonly seed?: number;
  /** Worker threads for resampling (default: available parallelism). Results do not depend on it. */
  readonly workers?: number;
}

export function loadRun(run: ScoredRun, arg = "run"): ScoreSummary {
  if (typeof run === "string") {
    const v = readJson<ScoreSummary>(resolve(run));
    if (!v) throw new InvalidArgumentError(`${arg}: no summary at ${run}`, { argument: arg });
    return v;
  }
  if (typeof run !== "object" || run === null || run.version !== 1)
    throw new InvalidArgumentError(`${arg} must be a scoreFile summary or its path`, { argument: arg });
  return run;
}

function statisticsOf(s: ScoreSummary, arg: string): { files: readonly string[]; rowWidth: number } {
  if (!s.statistics)
    throw new InvalidArgumentError(`${arg}: the run kept no statistics (scoreFile with keepStatistics: true or bootstrap)`, {
      argument: arg,
    });
  return s.statistics;
}

// ---------------------------------------------------------------------------------- resampling

/**
 * A `Resampler` job over statistics files. With `onProgress` the resample ranges are cut finer (a few per
 * worker) so that progress moves; the results do not depend on how the ranges are cut.
 */
export interface ResampleJob extends RowsResampleJob {
  readonly files: readonly string[];
  readonly pairedFiles?: readonly string[] | undefined;
  readonly rowWidth: number;
}

/**
 * All resamples of every group, as groups × resamples × gathered columns (× 2 when paired). Resample
 * ranges are spread over the pool's workers, one pass over the statistics per worker; each resample
 * is computed whole by one worker, so the result does not depend on the number of workers.
 */
export async function resampleStatistics(
  job: ResampleJob,
  pool: WorkerPool | { workers: number; config: Parameters<typeof createPool>[1] },
): Promise<Float64Array> {
  const width = job.layout.columns.length * (job.pairedFiles ? 2 : 1);
  if (job.sizes.length === 0 || job.resamples === 0) return new Float64Array(job.sizes.length * job.resamples * width);
  const own = "run" in pool ? undefined : createPool(pool.workers, pool.config);
  const p = "run" in pool ? pool : own!;
  try {
    return await resampleInRanges(job, width, { tasks: job.onProgress ? p.threads * 4 : p.threads }, async (from, to) => {
      const task: BootstrapTask = {
        files: job.files,
        ...(job.pairedFiles ? { pairedFiles: job.pairedFiles } : {}),
        rowWidth: job.rowWidth,
        columns: job.layout.columns,
        sizes: job.sizes,
        all: job.all,
        groupings: job.groupings,
        seed: job.seed,
        from,
        to,
      };
      return (await p.run<{ sums: Float64Array }>({ type: "bootstrap", ...task })).sums;
    });
  } finally {
    await own?.destroy();
  }
}

function poolFor(s: ScoreSummary, workers: number | undefined): { workers: number; config: Parameters<typeof createPool>[1] } {
  return {
    workers: workers ?? defaultWorkers(),
    config: { metrics: s.metricSpecs, fields: s.fields, output: { kind: "scores", positionKey: "line" }, keepStatistics: true },
  };
}

/** A `Resampler` over statistics files, on a worker pool. */
function fileResampler(
  files: readonly string[],
  pairedFiles: readonly string[] | undefined,
  rowWidth: number,
  pool: Parameters<typeof resampleStatistics>[1],
): Resampler {
  return (job) => resampleStatistics({ files, ...(pairedFiles ? { pairedFiles } : {}), rowWidth, ...job }, pool);
}

/** Bootstrap CIs of every corpus score from statistics files (`n` usable = valid rows). */
export async function bootstrapFromFiles(
  metrics: readonly BulkMetric[],
  files: readonly string[],
  rowWidth: number,
  n: number,
  opts: { resamples: number; seed: number },
  pool: Parameters<typeof resampleStatistics>[1],
  onProgress?: (done: number, total: number) => void,
): Promise<ScoreTable<ConfidenceInterval>> {
  await ready();
  return bootstrapCiOf(metrics, n, opts, fileResampler(files, undefined, rowWidth, pool), onProgress);
}

// ------------------------------------------------------------------------------------ the API

/**
 * Corpus scores of a scored run, recomputed from its exact statistics sums (BLEU/chrF from summed
 * counts, the others as means): metric → score name → value.
 */
export async function corpusScores(run: ScoredRun): Promise<ScoreTable<number>> {
  const s = loadRun(run);
  const metrics = await mainThreadMetrics(s.metricSpecs);
  await ready();
  const out: ScoreTable<number> = {};
  for (const [name, m] of Object.entries(summarizeMetrics(metrics, s.partials, s.rows.scored, 1, s.sequential)))
    out[name] = { ...m.scores };
  return out;
}

/**
 * sacreBLEU-style bootstrap 95% confidence intervals of every corpus score of a run (n rows drawn with
 * replacement, `resamples` times, scored like the corpus): metric → score name → interval.
 *
 * @example
 * const ci = await bootstrapCi("out.jsonl.summary.json", { resamples: 1000, seed: 12345 });
 * ci.bleu.bleu.ci; // half-width, sacreBLEU's "μ ± ci"
 */
export async function bootstrapCi(run: ScoredRun, options: StatisticsOptions = {}): Promise<ScoreTable<ConfidenceInterval>> {
  const s = loadRun(run);
  const st = statisticsOf(s, "run");
  const opts = resolveBootstrap({
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  })!;
  const metrics = await mainThreadMetrics(s.metricSpecs);
  if (s.rows.scored === 0) throw new InvalidArgumentError("run: no scored rows to resample", { argument: "run" });
  return bootstrapFromFiles(metrics, st.files, st.rowWidth, s.rows.scored, opts, poolFor(s, options.workers));
}

export interface SliceScoresOptions {
  /** Also bootstrap CIs per slice (each slice resampled on its own rows). */
  readonly bootstrap?: boolean | BootstrapOptions;
  readonly workers?: number;
}

/**
 * Corpus scores per slice of a run (e.g. per language): each slice's statistics are summed and scored
 * like the whole corpus (BLEU/chrF from summed counts, not means of sentence scores), and optionally
 * bootstrapped on the slice's own rows. `slices` maps a field name to the slice value of every record.
 * Returns field → slices sorted by rows (descending), then value.
 *
 * @example
 * const bySlice = await sliceScores(summary, { lang: rows.map((r) => r.lang) }, { bootstrap: true });
 * bySlice.lang[0].scores.bleu.bleu;
 */
export async function sliceScores(
  run: ScoredRun,
  slices: Record<string, SliceKeys>,
  options: SliceScoresOptions = {},
): Promise<Record<string, SliceScore[]>> {
  const s = loadRun(run);
  const st = statisticsOf(s, "run");
  if (slices === null || typeof slices !== "object")
    throw new InvalidArgumentError("slices must be { field: values }", { argument: "slices" });
  const boot = resolveBootstrap(options.bootstrap);
  const metrics = await mainThreadMetrics(s.metricSpecs);
  await ready();
  return sliceScoresOf(
    metrics,
    { rowWidth: st.rowWidth, records: s.rows.records, rows: () => fileRows(st.files, st.rowWidth) },
    slices,
    boot,
    fileResampler(st.files, undefined, st.rowWidth, poolFor(s, options.workers)),
  );
}

export interface PairedTestOptions extends StatisticsOptions {
  /** The baseline system's scoreFile summary (or its path); it must have kept statistics. */
  readonly baseline: ScoredRun;
  /** The compared system's summary, scored with the same metrics on the same references and rows. */
  readonly system: ScoredRun;
  /** Also test each slice: field → the slice value of every record (rows valid in both systems count). */
  readonly slices?: Record<string, SliceKeys>;
}

/**
 * Paired bootstrap resampling test between two systems' outputs on the same references (sacreBLEU's
 * `--paired-bs`): the same resampled rows are scored for both; p = (#{|Δ*| − mean|Δ*| > |Δ|} + 1)/(B + 1).
 * With `slices`, the same test runs on the rows of every slice, in the same pass.
 *
 * @example
 * const r = await pairedTest({ baseline: "a.jsonl.summary.json", system: "b.jsonl.summary.json" });
 * r.metrics.bleu.bleu.pValue;
 */
export async function pairedTest(options: PairedTestOptions): Promise<PairedTestResult> {
  const a = loadRun(options.baseline, "baseline");
  const b = loadRun(options.system, "system");
  if (!a.statistics || !b.statistics)
    throw new InvalidArgumentError("both runs must keep statistics (scoreFile with keepStatistics: true or bootstrap)", {
      argument: "baseline",
    });
  if (stableJson(a.metricSpecs) !== stableJson(b.metricSpecs))
    throw new InvalidArgumentError("the two runs used different metrics or options", { argument: "system" });
  if (a.rows.records !== b.rows.records)
    throw new InvalidArgumentError(
      `the two runs have different row counts (${a.rows.records} vs ${b.rows.records}): they must score the same references row by row`,
      { argument: "system" },
    );
  const opts = resolveBootstrap({
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  })!;
  const metrics = await mainThreadMetrics(a.metricSpecs);
  const rowWidth = a.statistics.rowWidth;
  await ready();
  const fa = a.statistics.files;
  const fb = b.statistics.files;
  return pairedTestOf(
    metrics,
    { rowWidth, records: a.rows.records, scored: a.rows.scored, metrics: a.metrics, rows: () => fileRows(fa, rowWidth) },
    { rowWidth, records: b.rows.records, scored: b.rows.scored, metrics: b.metrics, rows: () => fileRows(fb, rowWidth) },
    options.slices,
    opts,
    fileResampler(fa, fb, rowWidth, poolFor(a, options.workers)),
  );
}

export interface PairedTestsOptions extends StatisticsOptions {
  /** The baseline system's scoreFile summary (or its path); it must have kept statistics. */
  readonly baseline: ScoredRun;
  /** The systems compared with the baseline (one or more), each scored with its metrics on the same rows. */
  readonly systems: readonly ScoredRun[];
  /** Also test each slice: field → the slice value of every record (see `pairedTest`). */
  readonly slices?: Record<string, SliceKeys>;
}

/**
 * sacreBLEU's paired test of several systems (`sacrebleu ref.txt -i base.txt sys1.txt sys2.txt --paired-bs`):
 * the first is the baseline and every other system is tested against it alone, on the same resampled rows
 * (the same seed), so each system's result is the two-system `pairedTest` of (baseline, system). One
 * result per system, in order.
 *
 * @example
 * const [r1, r2] = await pairedTests({ baseline: "base.jsonl.summary.json", systems: ["a.jsonl.summary.json", "b.jsonl.summary.json"] });
 * r2.metrics.bleu.bleu.pValue;
 */
export async function pairedTests(options: PairedTestsOptions): Promise<PairedTestResult[]> {
  if (!Array.isArray(options.systems) || options.systems.length === 0) {
    throw new InvalidArgumentError("systems must list at least one system to compare with the baseline", { argument: "systems" });
  }
  const { systems, ...common } = options;
  const results: PairedTestResult[] = [];
  // one after another: each test already uses every worker
  for (const system of systems) results.push(await pairedTest({ ...common, system }));
  return results;
}
