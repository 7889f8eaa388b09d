// The statistics functions without any I/O (no node: import): corpus scores of summed statistics rows,
// corpus scores per slice, bootstrap CIs and sacreBLEU's paired bootstrap test, over statistics rows
// (f32 [valid, ...statistics] per record) given as streams of blocks. Where the rows come from (files
// written by scoreFile in Node, arrays in memory in a browser) and where the resamples run (a worker
// pool, Web Workers, this thread) is the caller's: `RowStream` and `Resampler`.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import {
  addSuperBlock,
  estimateCi,
  pairedBootstrapPValue,
  ResampleAccumulator,
  SUPER_ROWS,
  superBlockCounts,
  superBlocksOf,
  superBlockSums,
  type ConfidenceInterval,
} from "./bootstrap.js";
import { ColumnSums } from "./fsum.js";
import type { BulkMetric } from "./metrics.js";
import { summarizeMetrics, type MetricSummary } from "./summary.js";

/** The slice value of every record, in record order (`null`/`undefined`: in no slice). */
export type SliceKeys = ArrayLike<string | null | undefined>;

/** metric name → score name → value (the keys of `summary.metrics[m].scores`). */
export type ScoreTable<T> = Record<string, Record<string, T>>;

/** A restartable stream of blocks of whole statistics rows, in record order. */
export type RowStream = () => Iterable<Float32Array>;

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
export function scoreGathered(
  layout: CorpusLayout,
  sums: Float64Array,
  base: number,
  k: number,
  stride: number,
  shift: number,
  count: number,
): ScoreTable<Float64Array> {
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

export function first(t: ScoreTable<Float64Array>): ScoreTable<number> {
  const out: ScoreTable<number> = {};
  for (const [m, per] of Object.entries(t)) {
    out[m] = {};
    for (const [s, v] of Object.entries(per)) out[m]![s] = v[0]!;
  }
  return out;
}

export function cis(t: ScoreTable<Float64Array>, seed: number): ScoreTable<ConfidenceInterval> {
  const out: ScoreTable<ConfidenceInterval> = {};
  for (const [m, per] of Object.entries(t)) {
    out[m] = {};
    for (const [s, v] of Object.entries(per)) out[m]![s] = estimateCi(v, seed);
  }
  return out;
}

// ------------------------------------------------------------------------------- row visiting

/**
 * Visit every record of one or two row streams in order: `visit(a, atA, b, atB, record)`, where `atX`
 * is the offset of the record's row (its validity flag) in the current block.
 */
export function forEachRowOf(
  blocksA: Iterable<Float32Array>,
  blocksB: Iterable<Float32Array> | undefined,
  rowWidth: number,
  visit: (a: Float32Array, atA: number, b: Float32Array | undefined, atB: number, record: number) => void,
): number {
  const ib = blocksB?.[Symbol.iterator]();
  let record = 0;
  let xb: Float32Array | undefined;
  let atB = 0;
  for (const xa of blocksA) {
    const rows = Math.floor(xa.length / rowWidth);
    for (let r = 0; r < rows; r++) {
      if (ib && (xb === undefined || atB >= xb.length)) {
        const next = ib.next();
        if (next.done) return record;
        xb = next.value;
        atB = 0;
      }
      visit(xa, r * rowWidth, xb, atB, record);
      atB += rowWidth;
      record++;
    }
  }
  return record;
}

/** What one resampling task computes: resamples [from, to) of every group (see `bootstrapSumsOf`). */
export interface ResampleRange {
  readonly rowWidth: number;
  /** Offsets within a row (1 + statistics column) of the columns the corpus scores read. */
  readonly columns: readonly number[];
  /** Usable rows per group (valid, in both systems when paired). */
  readonly sizes: readonly number[];
  /** Group 0 holds every usable row (the whole corpus). */
  readonly all: boolean;
  /** Per grouping (slice field), the group of every record in row order (−1: none). */
  readonly groupings: readonly Int32Array[];
  readonly seed: number;
  readonly from: number;
  readonly to: number;
}

/** Summed gathered columns of resamples [from, to): groups × (to − from) × columns (× 2 when paired). */
export function bootstrapSumsOf(
  blocksA: Iterable<Float32Array>,
  blocksB: Iterable<Float32Array> | undefined,
  task: ResampleRange,
): Float64Array {
  const paired = blocksB !== undefined;
  const acc = new ResampleAccumulator(task.sizes, task.columns, paired ? 2 : 1, task.seed, task.from, task.to);
  const groupings = task.groupings;
  const records = forEachRowOf(blocksA, blocksB, task.rowWidth, (a, atA, b, atB, record) => {
    if (a[atA] !== 1 || (paired && b![atB] !== 1)) return;
    if (task.all) acc.add(0, a, atA, b, atB);
    for (const g of groupings) {
      const id = g[record]!;
      if (id >= 0) acc.add(id, a, atA, b, atB);
    }
  });
  for (const g of groupings)
    if (g.length !== records) throw new RangeError(`bootstrap: ${g.length} slice keys for ${records} statistics rows`);
  return acc.finish();
}

/** All resamples asked of a `Resampler` (it knows the rows; paired when the job has two systems). */
export interface ResampleJob {
  readonly layout: CorpusLayout;
  readonly sizes: readonly number[];
  readonly all: boolean;
  readonly groupings: readonly Int32Array[];
  readonly resamples: number;
  readonly seed: number;
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * Computes every resample of a job over its rows: groups × resamples × gathered columns (× 2 when
 * paired). Each resample must be computed whole (`bootstrapSumsOf` over a range), so the result does
 * not depend on how the resamples are spread.
 */
export type Resampler = (job: ResampleJob) => Promise<Float64Array>;

/** How `resampleInRanges` cuts the resamples: into `tasks` near-equal ranges run at once, or ranges of `step` run in turn. */
export type ResampleCut = { readonly tasks: number } | { readonly step: number };

/**
 * The one splitter of the three resamplers (this thread, Node worker threads, the web app's Web Workers):
 * cuts the resamples [0, B) of `job` into ranges, computes each with `run(from, to, index)` (groups × (to − from)
 * × `width` sums), places them in the whole result (groups × B × `width`) and reports progress. `{ tasks }`
 * runs the ranges at once (a pool); `{ step }` one after the other, yielding between them. Each resample
 * is computed whole by one call, so the result does not depend on the cut.
 */
export async function resampleInRanges(
  job: {
    readonly sizes: readonly number[];
    readonly resamples: number;
    readonly onProgress?: ((done: number, total: number) => void) | undefined;
  },
  width: number,
  cut: ResampleCut,
  run: (from: number, to: number, index: number) => Promise<Float64Array> | Float64Array,
): Promise<Float64Array> {
  const G = job.sizes.length;
  const B = job.resamples;
  const out = new Float64Array(G * B * width);
  if (G === 0 || B === 0) return out;
  let done = 0;
  const place = (from: number, to: number, sums: Float64Array): void => {
    const K = to - from;
    for (let g = 0; g < G; g++) out.set(sums.subarray(g * K * width, (g + 1) * K * width), (g * B + from) * width);
    done += K;
    job.onProgress?.(done, B);
  };
  if ("step" in cut) {
    for (let from = 0; from < B; from += cut.step) {
      const to = Math.min(B, from + cut.step);
      place(from, to, await run(from, to, from / cut.step));
      await Promise.resolve();
    }
    return out;
  }
  const tasks = Math.max(1, Math.min(cut.tasks, B));
  const jobs: Promise<void>[] = [];
  for (let t = 0; t < tasks; t++) {
    const from = Math.floor((t * B) / tasks);
    const to = Math.floor(((t + 1) * B) / tasks);
    if (to > from) jobs.push(Promise.resolve(run(from, to, t)).then((sums) => place(from, to, sums)));
  }
  await Promise.all(jobs);
  return out;
}

/**
 * A `Resampler` running in this thread over row streams (`b`: the second system of a paired test),
 * in ranges of `step` resamples so that progress moves.
 */
export function localResampler(rowWidth: number, a: RowStream, b?: RowStream, step = 100): Resampler {
  return (job) =>
    resampleInRanges(job, job.layout.columns.length * (b ? 2 : 1), { step }, (from, to) =>
      bootstrapSumsOf(a(), b?.(), {
        rowWidth,
        columns: job.layout.columns,
        sizes: job.sizes,
        all: job.all,
        groupings: job.groupings,
        seed: job.seed,
        from,
        to,
      }),
    );
}

// ------------------------------------------------------------------------- super-block jobs

/** One super-block of a corpus bootstrap, as a cluster worker receives it (`runSuperBlock`). */
export interface SuperBlockJob {
  /** The super-block's index in the corpus. */
  readonly index: number;
  readonly rowWidth: number;
  /** Offsets within a row of the gathered columns (`CorpusLayout.columns`). */
  readonly columns: readonly number[];
  readonly seed: number;
  /** First resample of `counts`. */
  readonly from: number;
  /** Its usable (valid) rows. */
  readonly usable: number;
  /** The statistics rows [valid, ...statistics] of its records, usable or not, in order. */
  readonly rows: Float32Array;
  /** T_b,s of resamples [from, from + counts.length): how many draws of each fall into this super-block. */
  readonly counts: Float64Array;
}

/** A super-block's sums for its resamples: counts.length × columns.length (see `superBlockSums`). */
export function runSuperBlock(job: SuperBlockJob): Float64Array {
  const C = job.columns.length;
  const W = job.rowWidth;
  const cols = Int32Array.from(job.columns);
  const gathered = new Float64Array(job.usable * C);
  let u = 0;
  for (let at = 0; at + W <= job.rows.length; at += W) {
    if (job.rows[at] !== 1) continue;
    if (u === job.usable) throw new RangeError(`bootstrap: super-block ${job.index} holds more than ${job.usable} usable rows`);
    for (let j = 0; j < C; j++) gathered[u * C + j] = job.rows[at + cols[j]!]!;
    u++;
  }
  if (u !== job.usable) throw new RangeError(`bootstrap: super-block ${job.index} holds ${u} usable rows, ${job.usable} announced`);
  return superBlockSums(gathered, C, job.seed, job.from, job.index, job.counts);
}

/**
 * The statistics rows of each super-block of the usable rows, as copies (a block of `blocks` may be
 * reused by its reader): byte runs of whole rows, cut where a super-block has its `SUPER_ROWS` usable rows.
 * Each row is copied once, into a buffer sized for a super-block of usable rows (grown when unusable rows
 * make it longer), and handed out as a view of it: the super-blocks of a cluster run are tens of MB each,
 * and every copy of them is memory the garbage collector has to reclaim.
 */
export function* superBlockRows(
  blocks: Iterable<Float32Array>,
  rowWidth: number,
  n: number,
): Generator<{ rows: Float32Array; usable: number }> {
  let rows = new Float32Array(0);
  let fill = 0;
  let usable = 0;
  let seen = 0;
  const target = () => Math.min(SUPER_ROWS, n - seen);
  const keep = (from: Float32Array) => {
    if (fill + from.length > rows.length) {
      const grown = new Float32Array(Math.max(fill + from.length, target() * rowWidth, 2 * rows.length));
      grown.set(rows.subarray(0, fill));
      rows = grown;
    }
    rows.set(from, fill);
    fill += from.length;
  };
  const emit = () => {
    const out = { rows: rows.subarray(0, fill), usable };
    seen += usable;
    rows = new Float32Array(0); // the next super-block gets a buffer of its own: this one is handed out
    fill = 0;
    usable = 0;
    return out;
  };
  for (const block of blocks) {
    let start = 0;
    for (let at = 0; at + rowWidth <= block.length; at += rowWidth) {
      if (seen >= n || block[at] !== 1) continue;
      if (++usable === target()) {
        keep(block.subarray(start, at + rowWidth));
        start = at + rowWidth;
        yield emit();
      }
    }
    if (start < block.length && seen < n) keep(block.subarray(start));
  }
  if (seen !== n) throw new RangeError(`bootstrap: the statistics hold ${seen + usable} usable rows, ${n} announced`);
}

/**
 * A `Resampler` of the whole corpus (no slices, one system) that cuts the usable rows into super-blocks
 * and has `run` compute each (a cluster worker: `runSuperBlock`), at most `window` at once; the sums come
 * back in any order and are added in super-block order, so the result is the one-pass resampler's, bit
 * for bit.
 */
export function superBlockResampler(
  rowWidth: number,
  rows: RowStream,
  run: (job: SuperBlockJob) => Promise<Float64Array>,
  window = 16,
): Resampler {
  return async (job) => {
    if (job.sizes.length !== 1 || !job.all || job.groupings.length !== 0)
      throw new InvalidArgumentError("super-block resampling covers the whole corpus only", { argument: "job" });
    const n = job.sizes[0]!;
    const B = job.resamples;
    const C = job.layout.columns.length;
    const S = superBlocksOf(n);
    const counts = superBlockCounts(n, job.seed, 0, B);
    const parts = new Array<Float64Array>(S);
    const running = new Set<Promise<void>>();
    let index = 0;
    let done = 0;
    for (const block of superBlockRows(rows(), rowWidth, n)) {
      const s = index++;
      const p = run({
        index: s,
        rowWidth,
        columns: job.layout.columns,
        seed: job.seed,
        from: 0,
        usable: block.usable,
        rows: block.rows,
        counts: counts.slice(s * B, (s + 1) * B),
      }).then((sums) => {
        if (sums.length !== B * C)
          throw new RangeError(`bootstrap: super-block ${s} came back with ${sums.length} sums, ${B * C} expected`);
        parts[s] = sums;
        job.onProgress?.(Math.floor((++done * B) / S), B);
      });
      running.add(p);
      void p.then(
        () => running.delete(p),
        () => undefined,
      );
      if (running.size >= window) await Promise.race(running);
    }
    await Promise.all(running);
    const totals = new Float64Array(B * C);
    for (const part of parts) addSuperBlock(totals, 0, part, 0, B * C);
    return totals;
  };
}

// ----------------------------------------------------------------------------------- the functions

/** Bootstrap CIs of every corpus score over `n` usable (valid) rows. */
export async function bootstrapCiOf(
  metrics: readonly BulkMetric[],
  n: number,
  opts: { resamples: number; seed: number },
  resample: Resampler,
  onProgress?: (done: number, total: number) => void,
): Promise<ScoreTable<ConfidenceInterval>> {
  const layout = corpusLayout(metrics);
  const sums = await resample({
    layout,
    sizes: [n],
    all: true,
    groupings: [],
    resamples: opts.resamples,
    seed: opts.seed,
    ...(onProgress ? { onProgress } : {}),
  });
  return cis(scoreGathered(layout, sums, 0, opts.resamples, layout.columns.length, 0, n), opts.seed);
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
    if (keys === null || typeof keys !== "object" || typeof keys.length !== "number")
      throw new InvalidArgumentError(`${arg}.${field} must be an array of slice values`, { argument: arg });
    if (keys.length !== records) {
      throw new InvalidArgumentError(
        `${arg}.${field} has ${keys.length} values but the run has ${records} statistics rows (one value per record, bad rows included)`,
        { argument: arg },
      );
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

/** The statistics rows of one run, as the functions below read them. */
export interface RowsOfRun {
  readonly rowWidth: number;
  readonly records: number;
  readonly rows: RowStream;
}

/** Corpus scores per slice (see the Node `sliceScores`), with optional bootstrap CIs per slice. */
export async function sliceScoresOf(
  metrics: readonly BulkMetric[],
  run: RowsOfRun,
  slices: Record<string, SliceKeys>,
  boot: { resamples: number; seed: number } | null,
  resample: Resampler,
): Promise<Record<string, SliceScore[]>> {
  if (slices === null || typeof slices !== "object")
    throw new InvalidArgumentError("slices must be { field: values }", { argument: "slices" });
  const layout = corpusLayout(metrics);
  const C = layout.columns.length;
  const groups = buildGroups(slices, run.records, "slices", 0);
  const G = groups.rows.length;
  const scored = new Array<number>(G).fill(0);
  const sums = new Float64Array(G * C);
  const cols = layout.columns;
  const records = forEachRowOf(run.rows(), undefined, run.rowWidth, (a, at, _b, _atB, record) => {
    if (a[at] !== 1) return;
    for (const g of groups.groupings) {
      const id = g[record]!;
      if (id < 0) continue;
      scored[id]!++;
      const o = id * C;
      for (let j = 0; j < C; j++) sums[o + j] = sums[o + j]! + a[at + cols[j]!]!;
    }
  });
  if (records !== run.records)
    throw new InvalidArgumentError(`run: the statistics files hold ${records} rows, the summary says ${run.records}`, { argument: "run" });
  let ci: Float64Array | undefined;
  if (boot)
    ci = await resample({ layout, sizes: scored, all: false, groupings: groups.groupings, resamples: boot.resamples, seed: boot.seed });
  const out: Record<string, SliceScore[]> = {};
  Object.keys(slices).forEach((field, f) => {
    const list: SliceScore[] = [];
    for (const [value, id] of groups.values[f]!) {
      const scores = first(scoreGathered(layout, sums, id * C, 1, C, 0, scored[id]!));
      const entry: SliceScore = { value, rows: groups.rows[id]!, scored: scored[id]!, scores };
      if (ci && boot && scored[id]! > 0)
        (entry as { ci?: unknown }).ci = cis(
          scoreGathered(layout, ci, id * boot.resamples * C, boot.resamples, C, 0, scored[id]!),
          boot.seed,
        );
      list.push(entry);
    }
    out[field] = sorted(list);
  });
  return out;
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

function pairedScores(
  layout: CorpusLayout,
  sums: Float64Array,
  base: number,
  B: number,
  C2: number,
  n: number,
  real: { a: ScoreTable<number>; b: ScoreTable<number> },
  seed: number,
): ScoreTable<PairedScore> {
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

/** One side of a paired test: its rows and its corpus results over all of its valid rows. */
export interface PairedSide extends RowsOfRun {
  /** Valid rows. */
  readonly scored: number;
  readonly metrics: Readonly<Record<string, MetricSummary>>;
}

/** The paired bootstrap test between two runs' statistics rows (see the Node `pairedTest`). */
export async function pairedTestOf(
  metrics: readonly BulkMetric[],
  a: PairedSide,
  b: PairedSide,
  slices: Record<string, SliceKeys> | undefined,
  opts: { resamples: number; seed: number },
  resample: Resampler,
): Promise<PairedTestResult> {
  const rowWidth = a.rowWidth;
  const W = rowWidth - 1;
  const layout = corpusLayout(metrics);
  const nc = layout.columns.length;
  const C2 = 2 * nc;
  const groups = buildGroups(slices ?? {}, a.records, "slices", 1);
  const G = 1 + groups.rows.length;
  const usable = new Array<number>(G).fill(0);
  const sliceSums = new Float64Array(G * C2);
  const cols = layout.columns;

  // rows valid in both; exact real scores on them (the summaries' own when nothing differs)
  const allValid = a.scored === a.records && b.scored === b.records;
  const sa = new ColumnSums(W);
  const sb = new ColumnSums(W);
  const records = forEachRowOf(a.rows(), b.rows(), rowWidth, (x, atA, y, atB, record) => {
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
  if (records !== a.records)
    throw new InvalidArgumentError(`the statistics files hold ${records} rows, the summaries say ${a.records}`, { argument: "baseline" });
  const n = usable[0]!;
  const scoresOf = (m: Readonly<Record<string, MetricSummary>>): ScoreTable<number> =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.scores]));
  const real = allValid
    ? { a: scoresOf(a.metrics), b: scoresOf(b.metrics) }
    : { a: scoresOf(summarizeMetrics(metrics, sa.partials, n, 1)), b: scoresOf(summarizeMetrics(metrics, sb.partials, n, 1)) };
  const B = opts.resamples;
  const sums = await resample({ layout, sizes: usable, all: true, groupings: groups.groupings, resamples: B, seed: opts.seed });
  const signatures: Record<string, string> = {};
  for (const m of metrics) signatures[m.spec.name] = b.metrics[m.spec.name]!.signature;
  const result: PairedTestResult = {
    test: "paired-bs",
    resamples: B,
    seed: opts.seed,
    rows: n,
    metrics: pairedScores(layout, sums, 0, B, C2, n, real, opts.seed),
    signatures,
  };
  if (slices) {
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
