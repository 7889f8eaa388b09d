// Library functions over a scored run's statistics (the per-row statistics file that scoreFile keeps,
// f32 rows [valid, ...statistics], and the metric specs recorded in its summary): corpus scores, corpus
// scores per slice, bootstrap confidence intervals (overall and per slice) and sacreBLEU's paired
// bootstrap test between two runs. Callers never decode the statistics layout themselves.
import { resolve } from "node:path";
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { estimateCi, pairedBootstrapPValue, resolveBootstrap, type BootstrapOptions, type ConfidenceInterval } from "../bulk/bootstrap.js";
import { ColumnSums } from "../bulk/fsum.js";
import { stableJson, type BulkMetric } from "../bulk/metrics.js";
import { mainThreadMetrics, summarizeMetrics, type MetricSummary } from "../bulk/summary.js";
import { bootstrapSums, forEachRow, type BootstrapTask } from "./bootstrap-files.js";
import { readJson } from "./files.js";
import { createPool, defaultWorkers, type WorkerPool } from "./pool.js";
import type { ScoreSummary } from "./score-file.js";

/** A scoreFile summary, or the path of its `.summary.json`. */
export type ScoredRun = ScoreSummary | string;

/**
 * The slice value of every record of a run, in record order (one per statistics row: the scored file's
 * rows, bad rows included). `null`/`undefined` puts the record in no slice.
 */
export type SliceKeys = ArrayLike<string | null | undefined>;

/** metric name → score name → value (the keys of `summary.metrics[m].scores`). */
export type ScoreTable<T> = Record<string, Record<string, T>>;

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
  if (typeof run !== "object" || run === null || run.version !== 1) throw new InvalidArgumentError(`${arg} must be a scoreFile summary or its path`, { argument: arg });
  return run;
}

function statisticsOf(s: ScoreSummary, arg: string): { files: readonly string[]; rowWidth: number } {
  if (!s.statistics) throw new InvalidArgumentError(`${arg}: the run kept no statistics (scoreFile with keepStatistics: true or bootstrap)`, { argument: arg });
  return s.statistics;
}

// ------------------------------------------------------------------------------------- layout

/** Which row offsets the corpus scores read, and where each metric's columns land among them. */
export interface CorpusLayout {
  readonly metrics: readonly BulkMetric[];
  /** Offsets within a statistics row (1 + column: after the validity flag). */
  readonly columns: readonly number[];
  /** Per metric, the index in `columns` of each of its `corpusColumns`. */
  readonly positions: readonly (readonly number[])[];
}

export function corpusLayout(metrics: readonly BulkMetric[]): CorpusLayout {
  const columns: number[] = [];
  const positions: number[][] = [];
  let offset = 0;
  for (const m of metrics) {
    positions.push(m.corpusColumns.map((c) => (columns.push(1 + offset + c), columns.length - 1)));
    offset += m.width;
  }
  return { metrics, columns, positions };
}

/**
 * Corpus scores of k rows of gathered sums: row r's sums are at `sums[base + r·stride + shift + i]`
 * for gathered column i, each over `count` rows. Returns metric → score → k values.
 */
export function scoreGathered(layout: CorpusLayout, sums: Float64Array, base: number, k: number, stride: number, shift: number, count: number): ScoreTable<Float64Array> {
  const out: ScoreTable<Float64Array> = {};
  layout.metrics.forEach((m, mi) => {
    const pos = layout.positions[mi]!;
    const v = new Float64Array(k * m.width);
    for (let r = 0; r < k; r++) m.corpusColumns.forEach((c, i) => (v[r * m.width + c] = sums[base + r * stride + shift + pos[i]!]!));
    const values = m.corpusScores(v, k, count);
    const per: Record<string, Float64Array> = {};
    const S = m.scoreNames.length;
    m.scoreNames.forEach((name, i) => {
      const col = new Float64Array(k);
      for (let r = 0; r < k; r++) col[r] = values[r * S + i]!;
      per[name] = col;
    });
    out[m.spec.name] = per;
  });
  return out;
}

function first(t: ScoreTable<Float64Array>): ScoreTable<number> {
  const out: ScoreTable<number> = {};
  for (const [m, per] of Object.entries(t)) {
    out[m] = {};
    for (const [s, v] of Object.entries(per)) out[m]![s] = v[0]!;
  }
  return out;
}

function cis(t: ScoreTable<Float64Array>, seed: number): ScoreTable<ConfidenceInterval> {
  const out: ScoreTable<ConfidenceInterval> = {};
  for (const [m, per] of Object.entries(t)) {
    out[m] = {};
    for (const [s, v] of Object.entries(per)) out[m]![s] = estimateCi(v, seed);
  }
  return out;
}

// ---------------------------------------------------------------------------------- resampling

export interface ResampleJob {
  readonly files: readonly string[];
  readonly pairedFiles?: readonly string[] | undefined;
  readonly rowWidth: number;
  readonly layout: CorpusLayout;
  readonly sizes: readonly number[];
  readonly all: boolean;
  readonly groupings: readonly Int32Array[];
  readonly resamples: number;
  readonly seed: number;
  /**
   * Called as resamples complete (`done` of `resamples`); the resample ranges are then cut finer (a few
   * per worker) so that progress moves. The results do not depend on how the ranges are cut.
   */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * All resamples of every group, as groups × resamples × gathered columns (× 2 when paired). Resample
 * ranges are spread over the pool's workers, one pass over the statistics per worker; each resample
 * is computed whole by one worker, so the result does not depend on the number of workers.
 */
export async function resampleStatistics(job: ResampleJob, pool: WorkerPool | { workers: number; config: Parameters<typeof createPool>[1] }): Promise<Float64Array> {
  const G = job.sizes.length;
  const B = job.resamples;
  const C = job.layout.columns.length * (job.pairedFiles ? 2 : 1);
  const out = new Float64Array(G * B * C);
  if (G === 0 || B === 0) return out;
  const own = "run" in pool ? undefined : createPool(pool.workers, pool.config);
  const p = "run" in pool ? pool : own!;
  try {
    const tasks = Math.max(1, Math.min(job.onProgress ? p.threads * 4 : p.threads, B));
    let done = 0;
    const jobs: Promise<void>[] = [];
    for (let t = 0; t < tasks; t++) {
      const from = Math.floor((t * B) / tasks);
      const to = Math.floor(((t + 1) * B) / tasks);
      if (to <= from) continue;
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
      jobs.push(
        p.run<{ sums: Float64Array }>({ type: "bootstrap", ...task }).then(({ sums }) => {
          const K = to - from;
          for (let g = 0; g < G; g++) out.set(sums.subarray(g * K * C, (g + 1) * K * C), (g * B + from) * C);
          done += K;
          job.onProgress?.(done, B);
        }),
      );
    }
    await Promise.all(jobs);
  } finally {
    await own?.destroy();
  }
  return out;
}

function poolFor(s: ScoreSummary, workers: number | undefined): { workers: number; config: Parameters<typeof createPool>[1] } {
  return { workers: workers ?? defaultWorkers(), config: { metrics: s.metricSpecs, fields: s.fields, jsonOutput: true, keepStatistics: true, positionKey: "line" } };
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
  const layout = corpusLayout(metrics);
  const sums = await resampleStatistics(
    { files, rowWidth, layout, sizes: [n], all: true, groupings: [], resamples: opts.resamples, seed: opts.seed, ...(onProgress ? { onProgress } : {}) },
    pool,
  );
  return cis(scoreGathered(layout, sums, 0, opts.resamples, layout.columns.length, 0, n), opts.seed);
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
  for (const [name, m] of Object.entries(summarizeMetrics(metrics, s.partials, s.rows.scored, 1, s.sequential))) out[name] = { ...m.scores };
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
  const opts = resolveBootstrap({ ...(options.resamples !== undefined ? { resamples: options.resamples } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) })!;
  const metrics = await mainThreadMetrics(s.metricSpecs);
  if (s.rows.scored === 0) throw new InvalidArgumentError("run: no scored rows to resample", { argument: "run" });
  return bootstrapFromFiles(metrics, st.files, st.rowWidth, s.rows.scored, opts, poolFor(s, options.workers));
}

export interface SliceScore {
  /** The slice value. */
  readonly value: string;
  /** Records with this value (bad rows included). */
  readonly rows: number;
  /** Of them, scored rows (the corpus scores and resamples are over these). */
  readonly scored: number;
  /** Corpus scores of the slice's summed statistics: metric → score name → value. */
  readonly scores: ScoreTable<number>;
  /** Bootstrap CIs over the slice's rows, when asked for (and the slice has scored rows). */
  readonly ci?: ScoreTable<ConfidenceInterval>;
}

export interface SliceScoresOptions {
  /** Also bootstrap CIs per slice (each slice resampled on its own rows). */
  readonly bootstrap?: boolean | BootstrapOptions;
  readonly workers?: number;
}

interface Groups {
  /** Per field: value → group id. */
  readonly values: Map<string, number>[];
  readonly groupings: Int32Array[];
  /** Per group: records. */
  readonly rows: number[];
}

function buildGroups(slices: Record<string, SliceKeys>, records: number, arg: string, firstId: number): Groups {
  const values: Map<string, number>[] = [];
  const groupings: Int32Array[] = [];
  const rows: number[] = [];
  let next = firstId;
  for (const [field, keys] of Object.entries(slices)) {
    if (keys === null || typeof keys !== "object" || typeof keys.length !== "number") throw new InvalidArgumentError(`${arg}.${field} must be an array of slice values`, { argument: arg });
    if (keys.length !== records) {
      throw new InvalidArgumentError(`${arg}.${field} has ${keys.length} values but the run has ${records} statistics rows (one value per record, bad rows included)`, { argument: arg });
    }
    const map = new Map<string, number>();
    const ids = new Int32Array(records);
    for (let r = 0; r < records; r++) {
      const k = keys[r];
      if (k === null || k === undefined) {
        ids[r] = -1;
        continue;
      }
      const key = String(k);
      let id = map.get(key);
      if (id === undefined) {
        id = next++;
        map.set(key, id);
        rows[id - firstId] = 0;
      }
      ids[r] = id;
      rows[id - firstId]!++;
    }
    values.push(map);
    groupings.push(ids);
  }
  return { values, groupings, rows };
}

/** Slice entries sorted by rows (descending), then value. */
function sorted<T extends { value: string; rows: number }>(list: T[]): T[] {
  return list.sort((a, b) => b.rows - a.rows || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
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
export async function sliceScores(run: ScoredRun, slices: Record<string, SliceKeys>, options: SliceScoresOptions = {}): Promise<Record<string, SliceScore[]>> {
  const s = loadRun(run);
  const st = statisticsOf(s, "run");
  if (slices === null || typeof slices !== "object") throw new InvalidArgumentError("slices must be { field: values }", { argument: "slices" });
  const boot = resolveBootstrap(options.bootstrap);
  const metrics = await mainThreadMetrics(s.metricSpecs);
  await ready();
  const layout = corpusLayout(metrics);
  const C = layout.columns.length;
  const groups = buildGroups(slices, s.rows.records, "slices", 0);
  const G = groups.rows.length;
  const scored = new Array<number>(G).fill(0);
  const sums = new Float64Array(G * C);
  const cols = layout.columns;
  const records = forEachRow(st.files, undefined, st.rowWidth, (a, at, _b, _atB, record) => {
    if (a[at] !== 1) return;
    for (const g of groups.groupings) {
      const id = g[record]!;
      if (id < 0) continue;
      scored[id]!++;
      const o = id * C;
      for (let j = 0; j < C; j++) sums[o + j] = sums[o + j]! + a[at + cols[j]!]!;
    }
  });
  if (records !== s.rows.records) throw new InvalidArgumentError(`run: the statistics files hold ${records} rows, the summary says ${s.rows.records}`, { argument: "run" });
  let ci: Float64Array | undefined;
  if (boot) {
    ci = await resampleStatistics(
      { files: st.files, rowWidth: st.rowWidth, layout, sizes: scored, all: false, groupings: groups.groupings, resamples: boot.resamples, seed: boot.seed },
      poolFor(s, options.workers),
    );
  }
  const out: Record<string, SliceScore[]> = {};
  Object.keys(slices).forEach((field, f) => {
    const list: SliceScore[] = [];
    for (const [value, id] of groups.values[f]!) {
      const scores = first(scoreGathered(layout, sums, id * C, 1, C, 0, scored[id]!));
      const entry: SliceScore = { value, rows: groups.rows[id]!, scored: scored[id]!, scores };
      if (ci && boot && scored[id]! > 0) (entry as { ci?: unknown }).ci = cis(scoreGathered(layout, ci, id * boot.resamples * C, boot.resamples, C, 0, scored[id]!), boot.seed);
      list.push(entry);
    }
    out[field] = sorted(list);
  });
  return out;
}

export interface PairedTestOptions extends StatisticsOptions {
  /** The baseline system's scoreFile summary (or its path); it must have kept statistics. */
  readonly baseline: ScoredRun;
  /** The compared system's summary, scored with the same metrics on the same references and rows. */
  readonly system: ScoredRun;
  /** Also test each slice: field → the slice value of every record (rows valid in both systems count). */
  readonly slices?: Record<string, SliceKeys>;
}

export interface PairedScore {
  readonly baseline: { readonly score: number; readonly ci: ConfidenceInterval };
  readonly system: { readonly score: number; readonly ci: ConfidenceInterval };
  /** system − baseline. */
  readonly difference: number;
  /** Paired bootstrap p-value (sacreBLEU `paired-bs`): small means the difference is unlikely by chance. */
  readonly pValue: number;
}

export interface PairedSlice {
  readonly value: string;
  /** Rows of the slice valid in both systems. */
  readonly rows: number;
  /** metric → score name → result. */
  readonly metrics: ScoreTable<PairedScore>;
}

export interface PairedTestResult {
  readonly test: "paired-bs";
  readonly resamples: number;
  readonly seed: number;
  /** Rows used: valid in both systems. */
  readonly rows: number;
  /** metric → score name → result. */
  readonly metrics: ScoreTable<PairedScore>;
  readonly signatures: Record<string, string>;
  /** With `slices`: field → per-slice results, sorted by rows (descending), then value. */
  readonly slices?: Record<string, PairedSlice[]>;
}

function pairedScores(layout: CorpusLayout, sums: Float64Array, base: number, B: number, C2: number, n: number, real: { a: ScoreTable<number>; b: ScoreTable<number> }, seed: number): ScoreTable<PairedScore> {
  const nc = layout.columns.length;
  const sa = scoreGathered(layout, sums, base, B, C2, 0, n);
  const sb = scoreGathered(layout, sums, base, B, C2, nc, n);
  const out: ScoreTable<PairedScore> = {};
  for (const m of layout.metrics) {
    const name = m.spec.name;
    out[name] = {};
    for (const s of m.scoreNames) {
      const x = real.a[name]![s]!;
      const y = real.b[name]![s]!;
      out[name]![s] = {
        baseline: { score: x, ci: estimateCi(sa[name]![s]!, seed) },
        system: { score: y, ci: estimateCi(sb[name]![s]!, seed) },
        difference: y - x,
        pValue: pairedBootstrapPValue(sa[name]![s]!, sb[name]![s]!, Math.abs(x - y)),
      };
    }
  }
  return out;
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
  if (!a.statistics || !b.statistics) throw new InvalidArgumentError("both runs must keep statistics (scoreFile with keepStatistics: true or bootstrap)", { argument: "baseline" });
  if (stableJson(a.metricSpecs) !== stableJson(b.metricSpecs)) throw new InvalidArgumentError("the two runs used different metrics or options", { argument: "system" });
  if (a.rows.records !== b.rows.records) throw new InvalidArgumentError(`the two runs have different row counts (${a.rows.records} vs ${b.rows.records}): they must score the same references row by row`, { argument: "system" });
  const opts = resolveBootstrap({ ...(options.resamples !== undefined ? { resamples: options.resamples } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) })!;
  const metrics = await mainThreadMetrics(a.metricSpecs);
  const rowWidth = a.statistics.rowWidth;
  const W = rowWidth - 1;
  await ready();
  const layout = corpusLayout(metrics);
  const nc = layout.columns.length;
  const C2 = 2 * nc;
  const slices = options.slices ?? {};
  const groups = buildGroups(slices, a.rows.records, "slices", 1);
  const G = 1 + groups.rows.length;
  const usable = new Array<number>(G).fill(0);
  const sliceSums = new Float64Array(G * C2);
  const cols = layout.columns;

  // rows valid in both; exact real scores on them (the summaries' own when nothing differs)
  const allValid = a.rows.scored === a.rows.records && b.rows.scored === b.rows.records;
  const sa = new ColumnSums(W);
  const sb = new ColumnSums(W);
  const records = forEachRow(a.statistics.files, b.statistics.files, rowWidth, (x, atA, y, atB, record) => {
    if (x[atA] !== 1 || y![atB] !== 1) return;
    usable[0]!++;
    if (!allValid) {
      sa.addRow(x, atA + 1);
      sb.addRow(y!, atB + 1);
    }
    for (const g of groups.groupings) {
      const id = g[record]!;
      if (id < 0) continue;
      usable[id]!++;
      const o = id * C2;
      for (let j = 0; j < nc; j++) {
        sliceSums[o + j] = sliceSums[o + j]! + x[atA + cols[j]!]!;
        sliceSums[o + nc + j] = sliceSums[o + nc + j]! + y![atB + cols[j]!]!;
      }
    }
  });
  if (records !== a.rows.records) throw new InvalidArgumentError(`the statistics files hold ${records} rows, the summaries say ${a.rows.records}`, { argument: "baseline" });
  const n = usable[0]!;
  const scoresOf = (m: Record<string, MetricSummary>): ScoreTable<number> => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.scores]));
  const real = allValid
    ? { a: scoresOf(a.metrics), b: scoresOf(b.metrics) }
    : { a: scoresOf(summarizeMetrics(metrics, sa.partials, n, 1)), b: scoresOf(summarizeMetrics(metrics, sb.partials, n, 1)) };
  const B = opts.resamples;
  const sums = await resampleStatistics(
    { files: a.statistics.files, pairedFiles: b.statistics.files, rowWidth, layout, sizes: usable, all: true, groupings: groups.groupings, resamples: B, seed: opts.seed },
    poolFor(a, options.workers),
  );
  const signatures: Record<string, string> = {};
  for (const m of metrics) signatures[m.spec.name] = b.metrics[m.spec.name]!.signature;
  const result: PairedTestResult = { test: "paired-bs", resamples: B, seed: opts.seed, rows: n, metrics: pairedScores(layout, sums, 0, B, C2, n, real, opts.seed), signatures };
  if (options.slices) {
    const out: Record<string, PairedSlice[]> = {};
    Object.keys(slices).forEach((field, f) => {
      const list: PairedSlice[] = [];
      for (const [value, id] of groups.values[f]!) {
        const k = usable[id]!;
        if (k === 0) continue; // no row valid in both systems
        const realSlice = {
          a: first(scoreGathered(layout, sliceSums, id * C2, 1, C2, 0, k)),
          b: first(scoreGathered(layout, sliceSums, id * C2, 1, C2, nc, k)),
        };
        list.push({ value, rows: k, metrics: pairedScores(layout, sums, id * B * C2, B, C2, k, realSlice, opts.seed) });
      }
      out[field] = sorted(list);
    });
    (result as { slices?: unknown }).slices = out;
  }
  return result;
}
