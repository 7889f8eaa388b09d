// Bulk scoring of a JSONL/CSV file of any size on worker threads.
//
// Pipeline: the main thread reads the input in large blocks and cuts it at record boundaries into
// chunks (no parsing), and sends each chunk's bytes (transferred, not copied) to a worker; the worker
// parses the rows, calls each metric's batch kernel once for the chunk and returns the chunk's JSONL
// output, statistics rows and exact column sums. Results are written strictly in input order; at most
// `window` chunks are in flight, so memory depends on the window, not on the file.
//
// Crash safety: output (and statistics) files are append-only; every `checkpointIntervalMs` the main
// thread fsyncs them and atomically replaces a checkpoint recording the input offset, the line number,
// the byte lengths of the outputs and the exact running sums. `resume` truncates the outputs back to
// the checkpoint's lengths and continues from its input offset: rows after the checkpoint are scored
// again and written once; rows before it are never rewritten.
//
// `scoreFile` runs in stages: (1) resolve and check the options (`score-options.ts`); (2) measure the
// input and fingerprint the job (`geometry.ts`, `planJob` here); (3) start fresh or restore a checkpoint,
// lock and open the run's files (`checkpoint.ts`); (4) the scoring pipeline (`pipeline.ts`); (5) corpus
// scores and bootstrap CIs and (6) the summary (`corpusResults` and `writeSummary` here).
import { createHash } from "node:crypto";
import { fsyncSync } from "node:fs";
import { resolve } from "node:path";
import { ready } from "@evalkern/core-wasm";
import type { ChunkOutput } from "../bulk/chunk.js";
import type { NormalizedMetric } from "../bulk/metrics.js";
import { checkCsvHeader, type ResolvedFields } from "../bulk/records.js";
import { mainThreadMetrics, summarizeMetrics, type MetricSummary } from "../bulk/summary.js";
import type { RowCounts } from "../bulk/tally.js";
import { HARNESS_VERSION } from "../version.js";
import { RunFiles, startOrRestore, type State } from "./checkpoint.js";
import { writeFileAtomic } from "./files.js";
import { inputGeometry, type InputGeometry } from "./geometry.js";
import { runPipeline } from "./pipeline.js";
import { createPool, type WorkerPool } from "./pool.js";
import { resolveRowsOutput } from "./output-rows.js";
import {
  checkpointPath,
  resolveScoreOptions,
  statisticsPath,
  summaryPath,
  type ResolvedScoreOptions,
  type ScoreFileOptions,
  type ShardSpec,
} from "./score-options.js";
import { bootstrapCiOf, superBlockResampler, type SuperBlockJob } from "../bulk/statistics-core.js";
import { fileRows } from "./bootstrap-files.js";
import { bootstrapFromFiles } from "./statistics.js";

export { resolveBootstrap, type BootstrapOptions } from "../bulk/bootstrap.js";
export { checkpointPath, resolveShard, statisticsPath, summaryPath, type ScoreFileOptions, type ShardSpec } from "./score-options.js";
export { inputGeometry, type InputGeometry } from "./geometry.js";
export { inputContentHash } from "./checkpoint.js";
export type { RowCounts } from "../bulk/tally.js";

export interface ScoreSummary {
  readonly version: 1;
  readonly job: string;
  readonly input: string;
  readonly output: string;
  readonly format: "jsonl" | "csv";
  readonly shard: ShardSpec | null;
  readonly rows: RowCounts;
  readonly nrefs: { readonly min: number; readonly max: number };
  readonly metrics: Record<string, MetricSummary>;
  /** Normalized metric specs (for merging and paired tests). */
  readonly metricSpecs: readonly NormalizedMetric[];
  /** Exact partial sums of every statistics column (merge these to combine shards exactly). */
  readonly partials: number[][];
  /** Left-to-right sums of the metrics' sequential columns (TER's reference lengths), by column index. */
  readonly sequential?: Record<number, number>;
  /** Field paths used. */
  readonly fields: ResolvedFields;
  /** Per-row statistics files, in row order (f32 little-endian rows [valid, ...statistics]), when kept. */
  readonly statistics: { readonly files: readonly string[]; readonly rowWidth: number } | null;
  readonly resumed: boolean;
  /**
   * sha256 of the CSV header and every input byte scored (`inputContentHash`): what a finished run was
   * computed from. Absent on merged runs.
   */
  readonly contentHash?: string;
  readonly elapsedMs: number;
  readonly workers: number;
  readonly diagnostics: {
    readonly chunks: number;
    readonly window: number;
    readonly maxInFlight: number;
    /** The `workers` asked for, when more than the available cores (`workers` is then capped at the cores). */
    readonly workersRequested?: number;
  };
}

// ------------------------------------------------------------------- stage 2: the job

/** What a run scores and where it writes, fixed before any file is touched. */
interface JobPlan {
  readonly geometry: InputGeometry;
  /** The metrics' main-thread halves (corpus scores, widths). */
  readonly metrics: Awaited<ReturnType<typeof mainThreadMetrics>>;
  readonly rowsOut: ReturnType<typeof resolveRowsOutput>;
  /** Statistics columns of all metrics, and a statistics row's width (with the leading `valid`). */
  readonly totalWidth: number;
  readonly rowWidth: number;
  /** The job's fingerprint: a checkpoint resumes only the same job. */
  readonly job: string;
  /** What the fingerprint is computed from (kept in the checkpoint to name what changed). */
  readonly jobParts: Record<string, unknown>;
  readonly ckptPath: string;
  readonly statsPath: string;
  readonly sumPath: string;
}

function jobFingerprint(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/**
 * Measure the input (BOM, CSV header, shard range), load the metrics and fingerprint the job. The
 * fingerprint covers every setting that changes which rows are scored or what they become (row limits
 * too): a checkpoint of other settings is not resumed. `opts.rowTimeoutMs` is the user's budget (the
 * queue producer overrides its own to 0 and passes the user's to its workers).
 */
async function planJob(opts: ResolvedScoreOptions, options: ScoreFileOptions): Promise<JobPlan> {
  const { input, output, format, delimiter, quote, specs, fields, shard, keepStatistics, strictUtf8, maxRowBytes, rowTimeoutMs } = opts;
  const geometry = inputGeometry(input, format, delimiter, shard, quote);
  if (geometry.header) checkCsvHeader(geometry.header, fields, `${input}: the header`);
  const metrics = await mainThreadMetrics(specs);
  const rowsOut = resolveRowsOutput(options, output, specs, {
    path: input,
    format,
    quote,
    header: geometry.header,
    start: geometry.start,
    end: geometry.end,
  });
  const totalWidth = metrics.reduce((a, m) => a + m.width, 0);
  const rowWidth = 1 + totalWidth;
  const jobParts: Record<string, unknown> = {
    v: HARNESS_VERSION,
    input,
    size: geometry.size,
    mtimeMs: geometry.mtimeMs,
    format,
    delimiter,
    ...(format === "csv" ? { quote } : {}),
    specs,
    fields,
    shard,
    keepStatistics,
    maxRowBytes,
    rowTimeoutMs,
    ...(rowsOut ? { rows: rowsOut.rows } : {}),
    ...(strictUtf8 ? { strictUtf8 } : {}),
  };
  const job = jobFingerprint(jobParts);

  const ckptPath = checkpointPath(output);
  const statsPath = statisticsPath(output);
  const sumPath = options.summary ? resolve(options.summary) : summaryPath(output);
  return { geometry, metrics, rowsOut, totalWidth, rowWidth, job, jobParts, ckptPath, statsPath, sumPath };
}

/** What `scoreFile` of some options would score: its job fingerprint, what it is computed from, and the input's geometry. */
export interface ScoreJob {
  readonly job: string;
  readonly jobParts: Readonly<Record<string, unknown>>;
  readonly geometry: InputGeometry;
}

/**
 * The job `scoreFile(options)` would run, without touching a file but the input's first bytes (BOM, CSV
 * header, shard boundaries): a caller compares it with a finished run's `ScoreSummary.job` to tell
 * whether that run is already the answer.
 */
export async function scoreJob(options: ScoreFileOptions): Promise<ScoreJob> {
  const { job, jobParts, geometry } = await planJob(resolveScoreOptions(options), options);
  return { job, jobParts, geometry };
}

// --------------------------------------------------------- stage 5: corpus scores and bootstrap CIs

/** Corpus scores from the summed statistics; with bootstrap, CIs from one pass over the statistics file. */
async function corpusResults(
  opts: ResolvedScoreOptions,
  plan: JobPlan,
  state: State,
  files: RunFiles,
  workerPool: () => WorkerPool,
  options: ScoreFileOptions,
  superBlocks: ScoreFileHooks["superBlocks"],
): Promise<Record<string, MetricSummary>> {
  const { bootstrap } = opts;
  const { metrics, statsPath, rowWidth } = plan;
  await ready();
  const { tally } = state;
  const metricSummaries = summarizeMetrics(metrics, tally.sums.partials, tally.valid, tally.nrefsLabel(), tally.sequential);
  if (bootstrap && tally.valid > 0) {
    fsyncSync(files.statsFd);
    const onPhase = options.onPhaseProgress;
    onPhase?.({ phase: "bootstrap", done: 0, total: bootstrap.resamples });
    const onResample = onPhase ? (done: number, total: number) => onPhase({ phase: "bootstrap", done, total }) : undefined;
    const ci = superBlocks
      ? await bootstrapCiOf(
          metrics,
          tally.valid,
          bootstrap,
          superBlockResampler(rowWidth, () => fileRows([statsPath], rowWidth), superBlocks),
          onResample,
        )
      : await bootstrapFromFiles(metrics, [statsPath], rowWidth, tally.valid, bootstrap, workerPool(), onResample);
    for (const m of metrics) (metricSummaries[m.spec.name] as { ci?: unknown }).ci = ci[m.spec.name]!;
  }
  return metricSummaries;
}

// ------------------------------------------------------------------------ stage 6: the summary

/** The run's summary, written atomically to its summary path. */
function writeSummary(
  opts: ResolvedScoreOptions,
  plan: JobPlan,
  state: State,
  metricSummaries: Record<string, MetricSummary>,
  run: { readonly resumed: boolean; readonly chunks: number; readonly maxInFlight: number },
): ScoreSummary {
  const { input, output, format, shard, specs, fields, keepStatistics, workers, workersRequested, window } = opts;
  const { job, statsPath, rowWidth, sumPath } = plan;
  const { resumed, chunks, maxInFlight } = run;
  const summary: ScoreSummary = {
    version: 1,
    job,
    input,
    output,
    format,
    shard,
    rows: state.tally.rows(),
    nrefs: state.tally.nrefs(),
    metrics: metricSummaries,
    metricSpecs: specs,
    partials: state.tally.sums.partials,
    ...(state.tally.hasSequential() ? { sequential: state.tally.sequential } : {}),
    fields,
    statistics: keepStatistics ? { files: [statsPath], rowWidth } : null,
    resumed,
    contentHash: state.contentHash,
    elapsedMs: state.elapsedMs,
    workers,
    diagnostics: { chunks, window, maxInFlight, ...(workersRequested > workers ? { workersRequested } : {}) },
  };
  writeFileAtomic(sumPath, `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

// ------------------------------------------------------------------------------------ the run

/**
 * Score every row of a JSONL or CSV file with rule metrics on all cores; write per-row results in input
 * order, corpus results from summed statistics, a signature per metric, and (optionally) bootstrap
 * confidence intervals. Killed at any point, `resume: true` continues without losing or repeating rows.
 *
 * @example
 * const summary = await scoreFile({
 *   input: "pairs.jsonl", output: "scores.jsonl",
 *   metrics: ["bleu", { metric: "chrf", options: { wordOrder: 2 } }, "rougeL", "tokenF1"],
 *   fields: { hypothesis: "hyp", references: "refs", id: "id" },
 *   resume: true,
 * });
 * summary.metrics.bleu.scores.bleu; // corpus BLEU
 */
export async function scoreFile(options: ScoreFileOptions): Promise<ScoreSummary> {
  return scoreFileWith(options, {});
}

/**
 * How a run other than the local one (the BullMQ producer, `queue/producer.ts`) plugs into `scoreFile`:
 * where chunks are scored, and whether to resume. Everything else (chunking, ordering, checkpoints,
 * corpus scores, CIs, summary) is the same code.
 * @internal
 */
export interface ScoreFileHooks {
  /**
   * The pool that scores the chunks (default: worker threads on this machine). Bootstrap CIs always
   * run on local worker threads.
   */
  readonly chunkPool?: (run: {
    readonly opts: ResolvedScoreOptions;
    readonly job: string;
    readonly rows: ReturnType<typeof resolveRowsOutput>;
  }) => Promise<WorkerPool>;
  /** Decide `resume` once the job's fingerprint is known (default: `options.resume`). */
  readonly resume?: (job: string, ckptPath: string) => boolean;
  /** Called after each checkpoint is written, with the committed state. */
  readonly onCheckpoint?: (state: Readonly<State>) => void;
  /**
   * Where the super-blocks of the bootstrap are computed (the cluster's workers), the sums added here in
   * super-block order (default: the one-pass resampler on local worker threads; the same numbers).
   */
  readonly superBlocks?: (job: SuperBlockJob) => Promise<Float64Array>;
  /** Overrides of the resolved options (e.g. no time budget on the producer). */
  readonly override?: Partial<Pick<ResolvedScoreOptions, "rowTimeoutMs" | "window">>;
}

/** `scoreFile` with its chunk pool and resume decision supplied by the caller. @internal */
export async function scoreFileWith(options: ScoreFileOptions, hooks: ScoreFileHooks): Promise<ScoreSummary> {
  const t0 = performance.now();
  const requested = resolveScoreOptions(options);
  const opts: ResolvedScoreOptions = { ...requested, ...hooks.override };
  const plan = await planJob(requested, options); // the fingerprint holds the settings asked for
  const resume = hooks.resume ? hooks.resume(plan.job, plan.ckptPath) : options.resume;
  const { state, hasher, outputHasher, statisticsHasher, resumed, complete } = startOrRestore({ resume, ...opts, ...plan });

  options.signal?.throwIfAborted();
  const files = RunFiles.open({ ...opts, ...plan, resumed, t0, outputHasher, statisticsHasher });
  if (hooks.onCheckpoint) files.onCheckpoint = hooks.onCheckpoint;
  let pool: WorkerPool | undefined;
  let chunkPool: WorkerPool | undefined;
  let run = { chunks: 0, maxInFlight: 0 };
  const rows = plan.rowsOut?.rows;
  const output: ChunkOutput = rows ? { kind: "rows", rows } : { kind: "scores", positionKey: "line" };
  const config = { metrics: opts.specs, fields: opts.fields, output, keepStatistics: opts.keepStatistics, strictUtf8: opts.strictUtf8 };
  const localPool = () => (pool ??= createPool(opts.workers, config));
  try {
    files.rewind(state, plan.rowsOut?.header);
    if (!complete && state.nextOffset < plan.geometry.end) {
      chunkPool = hooks.chunkPool ? await hooks.chunkPool({ opts, job: plan.job, rows: plan.rowsOut }) : localPool();
      run = await runPipeline({ opts, options, geometry: plan.geometry, state, hasher, files, pool: chunkPool });
    }
    if (!complete) files.writeCheckpoint(state, true);
    state.elapsedMs += performance.now() - t0;
    const metricSummaries = await corpusResults(opts, plan, state, files, localPool, options, hooks.superBlocks);
    return writeSummary(opts, plan, state, metricSummaries, { resumed, ...run });
  } finally {
    files.close();
    if (chunkPool !== pool) await chunkPool?.destroy();
    await pool?.destroy();
    files.release();
  }
}

export type { ResolvedFields };
