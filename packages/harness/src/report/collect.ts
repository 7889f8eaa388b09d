// Gathering what the HTML report shows from a run's per-row output (one streaming pass, memory bounded
// by the number of bins, slices and kept rows, not by the file): score histograms per metric column,
// per-slice scores (corpus scores from the run's statistics for `score` runs, means for judge runs), the
// worst-scoring rows with their texts, and the signatures. No I/O here (browser-safe): the caller gives
// the rows (`ReportRun.rows`, read from a file by the CLI, from memory or a Blob by the web app) and the
// per-slice corpus scores (`ReportRun.sliceScores`).
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { pathValue } from "../bulk/records.js";
import type { PairedScore, PairedTestResult, ScoreTable, SliceKeys, SliceScore } from "../bulk/statistics-core.js";
import type { ReportManifest, RunMetric } from "./manifest.js";

/** One record of a run's output: its line, and the row (null when the line is no object, e.g. a CSV header). */
export interface OutputRow {
  readonly line: number;
  readonly row: Record<string, unknown> | null;
}

/** A run to report on: its manifest, its output rows and (score runs with statistics) per-slice corpus scores. */
export interface ReportRun {
  readonly manifest: ReportManifest;
  /** The output rows in order; each call starts a new pass. CSV output yields its header as `{ line: 1, row: null }`. */
  rows(): AsyncIterable<OutputRow>;
  /** Corpus scores per slice from the run's statistics (`slices`: one value per record), as the harness's `sliceScores`. */
  sliceScores?(
    slices: Record<string, SliceKeys>,
    options: { readonly bootstrap?: { readonly resamples: number; readonly seed: number } },
  ): Promise<Record<string, SliceScore[]>>;
}

/** How a metric column is named in tables: `bleu`, `rouge1` (not "rouge rouge1"), `byob-f1.precision`. */
export function columnLabel(m: Pick<RunMetric, "name" | "columns">, key: string): string {
  if (m.columns.length === 0) return m.name;
  return key.startsWith(m.name) ? key : `${m.name}.${key}`;
}

export const BINS = 20;

export interface SeriesData {
  /** `bleu`, `rouge rouge1` ... */
  readonly label: string;
  readonly metric: string;
  readonly column: string;
  readonly key: string;
  readonly scale: number;
  readonly corpus: number | undefined;
  readonly ci: { readonly lower: number; readonly upper: number } | undefined;
  readonly counts: number[];
  readonly n: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly higherIsBetter: boolean;
}

export interface RowSample {
  readonly line: number;
  readonly id: string | undefined;
  readonly score: number;
  readonly hypothesis: string;
  readonly references: readonly string[];
  readonly input: string | undefined;
  readonly slices: Readonly<Record<string, string>>;
  readonly reason: string | undefined;
}

export interface SliceTable {
  readonly field: string;
  /** "corpus" (from summed statistics) or "mean" (of row scores). */
  readonly aggregation: "corpus" | "mean";
  readonly values: {
    readonly value: string;
    readonly rows: number;
    readonly scored: number;
    readonly scores: Record<string, number | undefined>;
    /** 95% bootstrap CI per column (score runs with statistics, unless turned off). */
    readonly ci?: Record<string, { readonly lower: number; readonly upper: number } | undefined>;
  }[];
}

export interface ReportData {
  readonly title: string;
  readonly kind: "score" | "judge";
  readonly tool: string;
  readonly createdAt: string;
  readonly input: string;
  readonly output: string;
  readonly rows: { readonly records: number; readonly scored: number; readonly bad: number };
  readonly series: readonly SeriesData[];
  readonly slices: readonly SliceTable[];
  /** `referenceLabel`: what the rows are judged against when it is not the reference/expected output. */
  readonly worst: readonly {
    readonly label: string;
    readonly scale: number;
    readonly rows: readonly RowSample[];
    readonly referenceLabel?: string;
    /** Rows that share the worst score (when more than are shown, `rows` holds a deterministic sample of them). */
    readonly tie?: { readonly score: number; readonly count: number };
  }[];
  readonly signatures: readonly {
    readonly name: string;
    readonly signature: string;
    readonly scoringPaths?: Readonly<Record<string, number>>;
  }[];
  readonly notes: readonly string[];
  readonly judge?: Readonly<Record<string, unknown>>;
  /** The slice fields used (given with --by or detected). */
  readonly sliceFields: readonly string[];
  /** Two-system reports: this run (the system) against a baseline, paired per metric and slice. */
  readonly comparison?: ComparisonData;
}

/** One metric column of a paired test, ready to print. */
export interface PairedRow {
  readonly label: string;
  readonly scale: number;
  readonly higherIsBetter: boolean;
  readonly baseline: number;
  readonly system: number;
  /** system − baseline. */
  readonly difference: number;
  readonly pValue: number;
}

export interface ComparisonData {
  readonly baseline: string;
  readonly system: string;
  readonly rows: number;
  readonly resamples: number;
  readonly seed: number;
  readonly metrics: readonly PairedRow[];
  readonly slices: readonly {
    readonly field: string;
    readonly values: readonly { readonly value: string; readonly rows: number; readonly metrics: readonly PairedRow[] }[];
  }[];
}

export interface CollectOptions {
  /** Slice fields; undefined = detect (string fields with 2–50 distinct values). */
  readonly by?: readonly string[] | undefined;
  /** Worst rows kept per metric (default 15). */
  readonly worst?: number;
  readonly title?: string;
  /** Field shown as the row's id (default: the run's --id-field, else `id` when the rows have one). */
  readonly idField?: string | undefined;
  /** Per-slice bootstrap CIs (score runs): resamples and seed; false turns them off (default 1000, 12345). */
  readonly sliceCi?: false | { readonly resamples: number; readonly seed: number };
  /** Called with every output row that is an object (e.g. to check `--by` fields), then once after the last. */
  readonly onRow?: (row: Record<string, unknown>) => void;
  readonly onRowsDone?: () => void;
  /** The error thrown when the output has no rows (default an `InvalidArgumentError`). */
  readonly noRowsError?: (message: string) => Error;
}

/** FNV-1a of a row's line: a deterministic, evenly spread order among rows with the same score. */
function tieOrder(line: number): number {
  let h = 0x811c9dc5;
  const t = String(line);
  for (let i = 0; i < t.length; i++) {
    h ^= t.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A row's field by name, or by dotted path (`meta.lang`) when no field has that name (`pathValue`). */
export function rowField(obj: unknown, path: string): unknown {
  return pathValue(obj, path);
}

function text(v: unknown): string {
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

function refsOf(row: Record<string, unknown>, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const v = rowField(row, p);
    if (Array.isArray(v)) for (const x of v) out.push(text(x));
    else if (v !== undefined && v !== null && v !== "") out.push(text(v));
  }
  return out;
}

/** A metric column's value in an output row (JSONL: row[metric][key]; CSV: row["metric"] or row["metric.key"]). */
function valueOf(row: Record<string, unknown>, m: RunMetric, key: string): number | undefined {
  const obj = row[m.name];
  let v: unknown;
  if (typeof obj === "object" && obj !== null) v = (obj as Record<string, unknown>)[key];
  else if (key === "score" && obj !== undefined) v = obj;
  else v = row[`${m.name}.${key}`];
  if (typeof v === "string") v = v === "" ? undefined : Number(v);
  if (typeof v === "boolean") v = v ? 1 : 0;
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function reasonOf(row: Record<string, unknown>, m: RunMetric): string | undefined {
  const obj = row[m.name];
  if (typeof obj === "object" && obj !== null && typeof (obj as Record<string, unknown>).reason === "string")
    return (obj as Record<string, unknown>).reason as string;
  const v = row[`${m.name}.reason`];
  return typeof v === "string" && v ? v : undefined;
}

interface Series {
  readonly metric: RunMetric;
  readonly key: string;
  readonly column: string;
  readonly counts: number[];
  n: number;
  sum: number;
  min: number;
  max: number;
}

function binOf(v: number, scale: number): number {
  const b = Math.floor((v / scale) * BINS);
  return Math.max(0, Math.min(BINS - 1, b));
}

async function detectSlices(run: ReportRun, exclude: Set<string>): Promise<string[]> {
  const distinct = new Map<string, Set<string>>();
  const bad = new Set<string>();
  let n = 0;
  for await (const { row } of run.rows()) {
    if (!row) continue;
    n++;
    for (const [k, v] of Object.entries(row)) {
      if (exclude.has(k) || k.startsWith("_") || bad.has(k)) continue;
      if (typeof v !== "string" && typeof v !== "boolean" && !(typeof v === "number" && Number.isInteger(v))) {
        bad.add(k);
        continue;
      }
      const s = String(v);
      if (s.length > 40) {
        bad.add(k);
        continue;
      }
      let set = distinct.get(k);
      if (!set) distinct.set(k, (set = new Set()));
      set.add(s);
      if (set.size > 50) bad.add(k);
    }
    if (n >= 5000) break;
  }
  const out: string[] = [];
  for (const [k, set] of distinct) if (!bad.has(k) && set.size >= 2 && set.size <= Math.max(2, n / 2)) out.push(k);
  return out.slice(0, 4);
}

/** The histogram series of a run: per metric its headline, then its other columns. */
function newSeries(metrics: readonly RunMetric[]): Series[] {
  const series: Series[] = [];
  for (const metric of metrics) {
    const headline = { column: metric.headline, key: "score" };
    const cols = metric.columns.length ? [headline, ...metric.columns.filter((c) => c.column !== metric.headline)] : [headline];
    for (const c of cols) {
      series.push({
        metric,
        key: c.key,
        column: c.column,
        counts: new Array<number>(BINS).fill(0),
        n: 0,
        sum: 0,
        min: Infinity,
        max: -Infinity,
      });
    }
  }
  return series;
}

function addToSeries(series: readonly Series[], row: Record<string, unknown>): void {
  for (const s of series) {
    const v = valueOf(row, s.metric, s.key);
    if (v === undefined) continue;
    s.n++;
    s.sum += v;
    if (v < s.min) s.min = v;
    if (v > s.max) s.max = v;
    s.counts[binOf(v, s.metric.scale)]!++;
  }
}

/** Per slice field, per value: its rows, scored rows and the sums of each series (for means of row scores). */
type SliceMeans = Map<string, Map<string, { rows: number; scored: number; sums: Map<string, { s: number; n: number }> }>>;

const seriesLabel = (s: Series): string => `${s.metric.name}\u0000${s.column}`;

function addToMeans(
  means: SliceMeans,
  by: readonly string[],
  sliceValues: Readonly<Record<string, string>>,
  series: readonly Series[],
  row: Record<string, unknown>,
): void {
  const hasError = row._error !== undefined && row._error !== "" && row._error !== null;
  for (const f of by) {
    const table = means.get(f)!;
    let e = table.get(sliceValues[f]!);
    if (!e) table.set(sliceValues[f]!, (e = { rows: 0, scored: 0, sums: new Map() }));
    e.rows++;
    if (!hasError) e.scored++;
    for (const s of series) {
      const v = valueOf(row, s.metric, s.key);
      if (v === undefined) continue;
      const label = seriesLabel(s);
      const a = e.sums.get(label) ?? { s: 0, n: 0 };
      a.s += v;
      a.n++;
      e.sums.set(label, a);
    }
  }
}

/** The worst-scoring rows of one metric: the `keep` worst (a deterministic sample among ties) and the worst score's count. */
class WorstRows {
  readonly rows: RowSample[] = [];
  score = NaN;
  count = 0;
  constructor(
    readonly metric: RunMetric,
    readonly keep: number,
  ) {}

  add(sample: RowSample): void {
    const v = sample.score;
    if (Number.isNaN(this.score) || (this.metric.higherIsBetter ? v < this.score : v > this.score)) {
      this.score = v;
      this.count = 1;
    } else if (v === this.score) this.count++;
    this.rows.push(sample);
    if (this.rows.length > 2 * this.keep) this.trim();
  }

  /** Keep the worst; among rows with the same score, a deterministic sample (hash of the line), not the file's first ones. */
  trim(): void {
    const higher = this.metric.higherIsBetter;
    this.rows.sort((a, b) => (higher ? a.score - b.score : b.score - a.score) || tieOrder(a.line) - tieOrder(b.line) || a.line - b.line);
    this.rows.length = Math.min(this.rows.length, this.keep);
  }
}

/** A row's own `id` field, when it is a plain value. */
function ownId(row: Record<string, unknown>): string | undefined {
  return row.id !== undefined && row.id !== null && typeof row.id !== "object" ? text(row.id) : undefined;
}

/** What one pass over the output rows gathers. */
interface RowPass {
  readonly rows: number;
  readonly series: Series[];
  readonly means: SliceMeans;
  /** Per slice field, each record's value (null for a line that is no object): for corpus slice scores. */
  readonly keys: Map<string, (string | null)[]>;
  readonly worst: WorstRows[];
}

/** The one pass over a run's output rows: histograms, slice values and means, worst rows. */
async function passRows(run: ReportRun, by: readonly string[], useStats: boolean, options: CollectOptions): Promise<RowPass> {
  const m = run.manifest;
  const fields = m.fields;
  const idField = options.idField ?? fields.id;
  const judgedAgainst = m.metrics.map((metric) => (m.kind === "judge" ? metric.judgedAgainst : undefined));
  const pass: RowPass = {
    rows: 0,
    series: newSeries(m.metrics),
    means: new Map(by.map((f) => [f, new Map()])),
    keys: new Map(by.map((f) => [f, []])),
    worst: m.metrics.map((metric) => new WorstRows(metric, options.worst ?? 15)),
  };
  let rows = 0;
  for await (const { line, row } of run.rows()) {
    if (row === null && m.outputFormat === "csv" && rows === 0 && line === 1) continue; // the header
    rows++;
    if (!row) {
      if (useStats) for (const f of by) pass.keys.get(f)!.push(null);
      continue;
    }
    options.onRow?.(row);
    const sliceValues: Record<string, string> = {};
    for (const f of by) {
      const v = rowField(row, f);
      sliceValues[f] = v === undefined || v === null || v === "" ? "(none)" : text(v);
    }
    if (useStats) for (const f of by) pass.keys.get(f)!.push(sliceValues[f]!);
    addToSeries(pass.series, row);
    addToMeans(pass.means, by, sliceValues, pass.series, row);
    m.metrics.forEach((metric, i) => {
      const v = valueOf(row, metric, "score");
      if (v === undefined) return;
      pass.worst[i]!.add({
        line,
        id: idField ? text(rowField(row, idField)) || undefined : ownId(row),
        score: v,
        hypothesis: text(rowField(row, fields.hypothesis)),
        references: refsOf(row, judgedAgainst[i]?.paths ?? fields.references),
        input: m.kind === "judge" ? text(rowField(row, "input")) || undefined : undefined,
        slices: sliceValues,
        reason: reasonOf(row, metric),
      });
    });
  }
  for (const w of pass.worst) w.trim();
  return { ...pass, rows };
}

/** Corpus scores per slice from the run's statistics (score runs), or undefined (with a note) when they cannot be had. */
async function corpusSliceScores(
  run: ReportRun,
  by: readonly string[],
  keys: Map<string, (string | null)[]>,
  options: CollectOptions,
  notes: string[],
): Promise<Map<string, Map<string, SliceScore>> | undefined> {
  try {
    const ciOpts = options.sliceCi === false ? undefined : (options.sliceCi ?? { resamples: 1000, seed: 12345 });
    const res = await run.sliceScores!(Object.fromEntries(keys), ciOpts ? { bootstrap: ciOpts } : {});
    return new Map(by.map((f) => [f, new Map(res[f]!.map((e) => [e.value, e]))]));
  } catch {
    notes.push("Slice scores are means of row scores: the statistics file did not match the run's corpus scores.");
    return undefined;
  }
}

/** A slice field's table: corpus scores (with CIs) when there are, else means of row scores. */
function sliceTable(field: string, means: SliceMeans, series: readonly Series[], corpus: Map<string, SliceScore> | undefined): SliceTable {
  const values = [...means.get(field)!.entries()]
    .map(([value, e]) => {
      const scores: Record<string, number | undefined> = {};
      const ci: Record<string, { lower: number; upper: number } | undefined> = {};
      for (const s of series) {
        const label = seriesLabel(s);
        const c = corpus?.get(value)?.ci?.[s.metric.name]?.[s.column];
        if (c) ci[label] = { lower: c.lower, upper: c.upper };
        if (corpus) scores[label] = corpus.get(value)?.scores[s.metric.name]?.[s.column];
        else {
          const a = e.sums.get(label);
          scores[label] = a && a.n > 0 ? a.s / a.n : undefined;
        }
      }
      return { value, rows: e.rows, scored: e.scored, scores, ...(Object.keys(ci).length ? { ci } : {}) };
    })
    .sort((a, b) => b.rows - a.rows || a.value.localeCompare(b.value));
  return { field, aggregation: corpus ? "corpus" : "mean", values };
}

function seriesData(s: Series): SeriesData {
  const key = s.key === "score" ? (s.metric.columns.find((c) => c.column === s.column)?.key ?? s.key) : s.key;
  return {
    label: s.metric.columns.length === 0 ? s.metric.name : columnLabel(s.metric, key),
    metric: s.metric.name,
    column: s.column,
    key: s.key,
    scale: s.metric.scale,
    corpus: s.metric.corpus[s.column],
    ci: s.metric.ci?.[s.column],
    counts: s.counts,
    n: s.n,
    mean: s.n ? s.sum / s.n : 0,
    min: s.n ? s.min : 0,
    max: s.n ? s.max : 0,
    higherIsBetter: s.metric.higherIsBetter,
  };
}

/** Read a run's output rows and summarise them for the report (`renderReport` draws it). */
export async function collectReportData(run: ReportRun, options: CollectOptions = {}): Promise<ReportData> {
  const m = run.manifest;
  const fields = m.fields;
  const metricKeys = m.metrics.flatMap((x) => [
    x.name,
    ...x.columns.map((c) => `${x.name}.${c.key}`),
    `${x.name}.score`,
    `${x.name}.reason`,
  ]);
  const exclude = new Set<string>([
    fields.hypothesis,
    ...fields.references,
    ...(fields.id ? [fields.id] : []),
    ...metricKeys,
    "input",
    "_error",
  ]);
  const by = options.by ?? (await detectSlices(run, exclude));
  // slices: corpus scores from the harness over the run's statistics (score runs), else means of row
  // scores; the pass over the rows only records each row's slice value
  const useStats = m.kind === "score" && run.sliceScores !== undefined;
  const pass = await passRows(run, by, useStats, options);
  if (pass.rows === 0) {
    const message = `${m.output} has no rows`;
    throw options.noRowsError ? options.noRowsError(message) : new InvalidArgumentError(message, { argument: "run" });
  }
  options.onRowsDone?.();
  const notes: string[] = [];
  const corpusSlices = useStats && by.length ? await corpusSliceScores(run, by, pass.keys, options, notes) : undefined;
  return {
    title: options.title ?? `evalkern ${m.kind} report`,
    kind: m.kind,
    tool: m.tool,
    createdAt: m.createdAt,
    input: m.input,
    output: m.output,
    rows: m.rows,
    series: pass.series.map(seriesData),
    slices: by.map((field) => sliceTable(field, pass.means, pass.series, corpusSlices?.get(field))),
    worst: pass.worst.map((w) => {
      const shownAtWorst = w.rows.filter((r) => r.score === w.score).length;
      const judgedAgainst = m.kind === "judge" ? w.metric.judgedAgainst : undefined;
      return {
        label: w.metric.name,
        scale: w.metric.scale,
        rows: w.rows,
        ...(judgedAgainst ? { referenceLabel: judgedAgainst.label } : {}),
        ...(w.count > shownAtWorst ? { tie: { score: w.score, count: w.count } } : {}),
      };
    }),
    signatures: m.metrics.map((x) => ({
      name: x.name,
      signature: x.signature,
      ...(x.scoringPaths ? { scoringPaths: x.scoringPaths } : {}),
    })),
    notes,
    ...(m.judge ? { judge: m.judge } : {}),
    sliceFields: by,
  };
}

/** The rows of a paired-test table (one per metric column), labelled as the report shows them. */
export function pairedReportRows(metrics: readonly RunMetric[], table: ScoreTable<PairedScore>): PairedRow[] {
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

/** A two-system report's comparison section from a paired test (`slices`: the fields it was run with). */
export function comparisonData(
  baseline: string,
  system: string,
  metrics: readonly RunMetric[],
  result: PairedTestResult,
  slices: readonly string[],
): ComparisonData {
  return {
    baseline,
    system,
    rows: result.rows,
    resamples: result.resamples,
    seed: result.seed,
    metrics: pairedReportRows(metrics, result.metrics),
    slices: slices.map((field) => ({
      field,
      values: [...(result.slices?.[field] ?? [])]
        .sort((x, y) => y.rows - x.rows || x.value.localeCompare(y.value))
        .map((s) => ({ value: s.value, rows: s.rows, metrics: pairedReportRows(metrics, s.metrics) })),
    })),
  };
}
