// The statistics functions over a run held in memory (a browser, a test): the same corpus scores, slice
// scores, bootstrap CIs and paired test as the Node functions over scoreFile's statistics files, with the
// statistics rows given as arrays. Resampling runs in this thread unless a `Resampler` is given (e.g.
// one spreading resample ranges over Web Workers); results do not depend on it.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { resolveBootstrap, type BootstrapOptions, type ConfidenceInterval } from "./bootstrap.js";
import { stableJson, type NormalizedMetric } from "./metrics.js";
import {
  bootstrapCiOf,
  localResampler,
  pairedTestOf,
  sliceScoresOf,
  type PairedTestResult,
  type Resampler,
  type ScoreTable,
  type SliceKeys,
  type SliceScore,
} from "./statistics-core.js";
import { mainThreadMetrics, summarizeMetrics, type MetricSummary } from "./summary.js";

/** A scored run in memory: what a scoreFile summary records, with the statistics rows themselves. */
export interface MemoryRun {
  readonly metricSpecs: readonly NormalizedMetric[];
  /** 1 + the metrics' statistics width. */
  readonly rowWidth: number;
  /** Blocks of whole statistics rows ([valid, ...statistics] f32 per record), in record order. */
  readonly statistics: readonly Float32Array[];
  /** Records (bad rows included) and valid rows. */
  readonly records: number;
  readonly scored: number;
  /** Exact partial sums per statistics column over valid rows (as `ColumnSums.partials`). */
  readonly partials: readonly (readonly number[])[];
  /** Left-to-right sums of the metrics' sequential columns (TER), by column index. */
  readonly sequential?: Readonly<Record<number, number>>;
  /** min and max references per valid row (for signatures). */
  readonly nrefs?: { readonly min: number; readonly max: number };
}

export interface MemoryStatisticsOptions {
  readonly resamples?: number;
  readonly seed?: number;
  /** Where resamples run (default: this thread). */
  readonly resample?: Resampler;
  readonly onProgress?: (done: number, total: number) => void;
}

function rowsOf(run: MemoryRun): () => Iterable<Float32Array> {
  return () => run.statistics;
}

function check(run: MemoryRun, arg: string): void {
  if (
    typeof run !== "object" ||
    run === null ||
    !Array.isArray(run.statistics) ||
    !Number.isSafeInteger(run.rowWidth) ||
    run.rowWidth < 1
  ) {
    throw new InvalidArgumentError(`${arg} must be a MemoryRun { metricSpecs, rowWidth, statistics, records, scored, partials }`, {
      argument: arg,
    });
  }
}

/** Corpus results of every metric (scores, details, signatures) from the run's exact sums. */
export async function corpusSummary(run: MemoryRun): Promise<Record<string, MetricSummary>> {
  check(run, "run");
  const metrics = await mainThreadMetrics(run.metricSpecs);
  const nrefs = run.nrefs ? (run.nrefs.min === run.nrefs.max ? run.nrefs.min : "var") : 1;
  return summarizeMetrics(metrics, run.partials, run.scored, nrefs, run.sequential);
}

/** Corpus scores of the run: metric → score name → value. */
export async function corpusScores(run: MemoryRun): Promise<ScoreTable<number>> {
  const out: ScoreTable<number> = {};
  for (const [name, m] of Object.entries(await corpusSummary(run))) out[name] = { ...m.scores };
  return out;
}

/** sacreBLEU-style bootstrap 95% CIs of every corpus score (the same as `bootstrapCi` over the run's files). */
export async function bootstrapCi(run: MemoryRun, options: MemoryStatisticsOptions = {}): Promise<ScoreTable<ConfidenceInterval>> {
  check(run, "run");
  const opts = resolveBootstrap({
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  })!;
  if (run.scored === 0) throw new InvalidArgumentError("run: no scored rows to resample", { argument: "run" });
  const metrics = await mainThreadMetrics(run.metricSpecs);
  return bootstrapCiOf(metrics, run.scored, opts, options.resample ?? localResampler(run.rowWidth, rowsOf(run)), options.onProgress);
}

/** Corpus scores per slice (`slices`: field → one value per record), optionally with bootstrap CIs per slice. */
export async function sliceScores(
  run: MemoryRun,
  slices: Record<string, SliceKeys>,
  options: { readonly bootstrap?: boolean | BootstrapOptions; readonly resample?: Resampler } = {},
): Promise<Record<string, SliceScore[]>> {
  check(run, "run");
  const boot = resolveBootstrap(options.bootstrap);
  const metrics = await mainThreadMetrics(run.metricSpecs);
  return sliceScoresOf(
    metrics,
    { rowWidth: run.rowWidth, records: run.records, rows: rowsOf(run) },
    slices,
    boot,
    options.resample ?? localResampler(run.rowWidth, rowsOf(run)),
  );
}

export interface MemoryPairedTestOptions extends MemoryStatisticsOptions {
  readonly baseline: MemoryRun;
  readonly system: MemoryRun;
  readonly slices?: Record<string, SliceKeys>;
}

/** sacreBLEU's paired bootstrap test between two runs of the same rows (the same as the Node `pairedTest`). */
export async function pairedTest(options: MemoryPairedTestOptions): Promise<PairedTestResult> {
  const a = options.baseline;
  const b = options.system;
  check(a, "baseline");
  check(b, "system");
  if (stableJson(a.metricSpecs) !== stableJson(b.metricSpecs))
    throw new InvalidArgumentError("the two runs used different metrics or options", { argument: "system" });
  if (a.records !== b.records)
    throw new InvalidArgumentError(
      `the two runs have different row counts (${a.records} vs ${b.records}): they must score the same references row by row`,
      { argument: "system" },
    );
  const opts = resolveBootstrap({
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  })!;
  const metrics = await mainThreadMetrics(a.metricSpecs);
  const [ma, mb] = [await corpusSummary(a), await corpusSummary(b)];
  return pairedTestOf(
    metrics,
    { rowWidth: a.rowWidth, records: a.records, scored: a.scored, metrics: ma, rows: rowsOf(a) },
    { rowWidth: b.rowWidth, records: b.records, scored: b.scored, metrics: mb, rows: rowsOf(b) },
    options.slices,
    opts,
    options.resample ?? localResampler(a.rowWidth, rowsOf(a), rowsOf(b)),
  );
}
