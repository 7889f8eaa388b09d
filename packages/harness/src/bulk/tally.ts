// The running totals of one scoring run, folded from its chunks' results in input order: record counts,
// bad rows by code and the first of them, invalid UTF-8, exact column sums, left-to-right sums of the
// sequential columns and the range of reference counts. One home for every place that folds chunks
// (scoreFile's pipeline, scoreStream, the web app's engine) or runs (mergeShards), and for the JSON form
// a checkpoint keeps (its members are the checkpoint's own, so the on-disk format does not move).
// Browser-safe: no `node:` import.
import type { BadRow, ChunkResult } from "./chunk.js";
import { ColumnSums } from "./fsum.js";

/** How many bad rows (and lines with invalid UTF-8) a run keeps as samples. */
export const RUN_SAMPLES = 100;

/** A tally as JSON: the members a checkpoint holds, in its order. */
export interface TallyJson {
  readonly records: number;
  readonly blank: number;
  readonly valid: number;
  readonly badByCode: Readonly<Record<string, number>>;
  readonly badSamples: readonly BadRow[];
  /** Absent in checkpoints written before it was counted. */
  readonly invalidUtf8?: { readonly count: number; readonly lines: readonly number[] };
  readonly partials: readonly (readonly number[])[];
  /** Left-to-right sums of sequential columns by column index (absent in checkpoints written before them). */
  readonly sequential?: Readonly<Record<number, number>>;
  /** `null` is how JSON writes the Infinity of a tally without a scored row. */
  readonly nrefsMin: number | null;
  readonly nrefsMax: number;
}

/** The row counts of a run's summary (`ScoreSummary.rows`). */
export interface RowCounts {
  /** Records seen (non-blank JSONL lines / CSV records). */
  readonly records: number;
  /** Records scored. */
  readonly scored: number;
  /** Records reported as errors. */
  readonly bad: number;
  /** Blank lines skipped. */
  readonly blank: number;
  readonly badByCode: Record<string, number>;
  /** The first bad rows (up to 100), with line numbers. */
  readonly badSamples: readonly BadRow[];
  /**
   * Records holding bytes that are not UTF-8, and the first 100 of their lines. They were scored with
   * U+FFFD in place of those bytes, or are bad rows (`invalid_utf8`) under `strictUtf8`.
   */
  readonly invalidUtf8: { readonly count: number; readonly lines: readonly number[] };
}

/** What a finished run's summary holds of its tally (`ScoreSummary`), for merging runs. */
export interface SummaryTally {
  readonly rows: Omit<RowCounts, "invalidUtf8"> & { readonly invalidUtf8?: RowCounts["invalidUtf8"] };
  readonly nrefs: { readonly min: number; readonly max: number };
  readonly partials: readonly (readonly number[])[];
  readonly sequential?: Readonly<Record<number, number>>;
}

function addCounts(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [code, n] of Object.entries(from)) into[code] = (into[code] ?? 0) + n;
}

function addSamples<T>(into: T[], from: readonly T[]): void {
  for (const x of from) {
    if (into.length >= RUN_SAMPLES) return;
    into.push(x);
  }
}

/** The totals of a run so far. */
export class RunTally {
  records = 0;
  blank = 0;
  /** Records scored. */
  valid = 0;
  readonly badByCode: Record<string, number> = {};
  readonly badSamples: BadRow[] = [];
  readonly invalidUtf8: { count: number; readonly lines: number[] } = { count: 0, lines: [] };
  readonly sums: ColumnSums;
  /** Left-to-right float sums of sequential columns, in input order (the reference's summation). */
  readonly sequential: Record<number, number> = {};
  nrefsMin = Infinity;
  nrefsMax = 0;

  /** `width`: the statistics columns of all metrics. */
  constructor(width: number, partials?: readonly (readonly number[])[]) {
    this.sums = new ColumnSums(width, partials);
  }

  /** Fold in the next chunk's result (chunks in input order: sequential columns add row by row). */
  absorb(r: ChunkResult): void {
    this.addRows(r);
    if (r.invalidUtf8) {
      this.invalidUtf8.count += r.invalidUtf8.count;
      addSamples(this.invalidUtf8.lines, r.invalidUtf8.lines);
    }
    this.sums.merge(r.partials);
    for (const [col, values] of Object.entries(r.sequential ?? {})) {
      let acc = this.sequential[Number(col)] ?? 0;
      for (const v of values) acc += v;
      this.sequential[Number(col)] = acc;
    }
    if (r.valid > 0) this.widenNrefs(r.nrefsMin, r.nrefsMax);
  }

  /**
   * Fold in the tally of the run that follows this one in input order (a later shard). Exact sums add
   * exactly; a sequential column adds the other run's left-to-right total, so a merged corpus TER can
   * differ in the last bit from one run's row-by-row sum.
   */
  merge(o: RunTally): void {
    this.addRows(o);
    this.invalidUtf8.count += o.invalidUtf8.count;
    addSamples(this.invalidUtf8.lines, o.invalidUtf8.lines);
    this.sums.merge(o.sums.partials);
    for (const [col, v] of Object.entries(o.sequential)) this.sequential[Number(col)] = (this.sequential[Number(col)] ?? 0) + v;
    if (o.valid > 0) this.widenNrefs(o.nrefsMin, o.nrefsMax);
  }

  /** The counts and bad rows a chunk result and a tally both carry. */
  private addRows(r: Pick<RunTally, "records" | "blank" | "valid" | "badByCode" | "badSamples">): void {
    this.records += r.records;
    this.blank += r.blank;
    this.valid += r.valid;
    addCounts(this.badByCode, r.badByCode);
    addSamples(this.badSamples, r.badSamples);
  }

  private widenNrefs(min: number, max: number): void {
    this.nrefsMin = Math.min(this.nrefsMin, min);
    this.nrefsMax = Math.max(this.nrefsMax, max);
  }

  /** The JSON a checkpoint keeps (member order is the checkpoint's). */
  toJSON(): TallyJson {
    return {
      records: this.records,
      blank: this.blank,
      valid: this.valid,
      badByCode: this.badByCode,
      badSamples: this.badSamples,
      invalidUtf8: this.invalidUtf8,
      partials: this.sums.partials,
      sequential: this.sequential,
      nrefsMin: this.nrefsMin,
      nrefsMax: this.nrefsMax,
    };
  }

  /** A tally from its JSON (a checkpoint's), with copies of its lists. */
  static fromJSON(width: number, j: TallyJson): RunTally {
    const t = new RunTally(width, j.partials);
    t.records = j.records;
    t.blank = j.blank;
    t.valid = j.valid;
    addCounts(t.badByCode, j.badByCode);
    t.badSamples.push(...j.badSamples);
    t.invalidUtf8.count = j.invalidUtf8?.count ?? 0;
    t.invalidUtf8.lines.push(...(j.invalidUtf8?.lines ?? []));
    Object.assign(t.sequential, j.sequential);
    t.nrefsMin = j.nrefsMin ?? Infinity;
    t.nrefsMax = j.nrefsMax;
    return t;
  }

  /** The tally of a finished run's summary (a shard's), for `merge`. */
  static fromSummary(width: number, s: SummaryTally): RunTally {
    const scored = s.rows.scored > 0;
    const { records, scored: valid, blank, badByCode, badSamples, invalidUtf8 } = s.rows;
    return RunTally.fromJSON(width, {
      records,
      blank,
      valid,
      badByCode,
      badSamples,
      ...(invalidUtf8 ? { invalidUtf8 } : {}),
      partials: s.partials,
      ...(s.sequential ? { sequential: s.sequential } : {}),
      nrefsMin: scored ? s.nrefs.min : Infinity,
      nrefsMax: scored ? s.nrefs.max : 0,
    });
  }

  /** The row counts of a summary. */
  rows(): RowCounts {
    const { records, valid, blank, badByCode, badSamples, invalidUtf8 } = this;
    return { records, scored: valid, bad: records - valid, blank, badByCode, badSamples, invalidUtf8 };
  }

  /** The range of reference counts of the scored rows (0–0 when none was scored). */
  nrefs(): { readonly min: number; readonly max: number } {
    return { min: this.nrefsMin === Infinity ? 0 : this.nrefsMin, max: this.nrefsMax };
  }

  /** The `nrefs:` of a signature: the count, or `var` when rows differ. */
  nrefsLabel(): number | "var" {
    const { min, max } = this.nrefs();
    return min === max ? min : "var";
  }

  /** Whether the metrics have sequential columns (summaries leave `sequential` out when not). */
  hasSequential(): boolean {
    return Object.keys(this.sequential).length > 0;
  }
}
