// The lexical-metric contract: what a rule metric of (hypothesis, references) *is*, in one place.
//
// A metric turns a batch of (hypothesis, references) pairs into an n × width matrix of sufficient
// statistics with one call (a core-wasm batch kernel, or a pair-callable rule function row by row),
// derives per-row values from those statistics, and a corpus score from *summed* statistics
// (sacreBLEU's design: corpus BLEU/chrF are scores of summed counts; for ROUGE, token F1, exact match
// and the pair rules the statistics are per-row values and the corpus score is their mean). Bootstrap
// resampling sums resampled rows and calls the same corpus function over `corpusColumns`.
import type { OptionSchemas } from "./options.js";

/** Where a metric's rules come from. */
export type MetricFamily = "sacrebleu" | "rouge-score" | "dspy" | "nemo-byob" | "evalwire" | "autoevals" | "evalkern" | (string & {});

/** Output scale of a metric's scores: sacreBLEU's 0–100 or a 0–1 fraction. */
export type MetricScale = 100 | 1;

/**
 * A metric as a plain-JSON spec: what travels to worker threads and is recorded in summaries.
 * `metric` is a registry name (or alias), or `"module"` for a plug-in module.
 */
export interface MetricSpecJson {
  readonly metric: string;
  /** Output key. */
  readonly name: string;
  /** Resolved options (plain JSON). */
  readonly options: Record<string, unknown>;
  readonly module?: string;
  readonly export?: string;
  readonly call?: "pair" | "batch" | "byob";
  readonly columns?: readonly string[];
  readonly version?: string;
}

/**
 * The other fields of an input row (a JSONL object or a CSV record), for the rules that read more than the
 * pair: promptfoo's `finish-reason`, `perplexity`, `cost` and `latency` read `finishReason`, `logprobs`,
 * `cost` and `latencyMs` from it. Kernel metrics ignore it.
 */
export type RowFields = Readonly<Record<string, unknown>>;

/** A metric bound to resolved options and an output name: statistics in, scores out. */
export interface MetricInstance {
  /** Canonical registry name of the metric (for plug-in modules: `"module"`). */
  readonly metric: string;
  /** Output key (the metric's name unless renamed). */
  readonly name: string;
  /** The resolved options (plain JSON). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Statistics per row. */
  readonly width: number;
  /** Per-row output keys, in order (`rowValues` columns). */
  readonly columns: readonly string[];
  /** Corpus score keys, in order (`corpusScores` columns). */
  readonly scoreNames: readonly string[];
  /** The output key shown as the row's `score` (one of `columns`). */
  readonly headline: string;
  /** The statistics columns the corpus scores read (what a bootstrap must resample). */
  readonly corpusColumns: readonly number[];
  /**
   * Float columns whose corpus sum is the left-to-right float sum over rows in input order, as the
   * reference sums them (sacreBLEU's TER average reference lengths); every other column is summed exactly.
   */
  readonly sequentialColumns?: readonly number[];
  readonly scale: MetricScale;
  readonly higherIsBetter: boolean;
  /**
   * n × width statistics for n pairs (one batch call). Throws if any pair fails. `rows` (optional, one per
   * pair) are the input rows' fields, which pair rules receive as their fourth argument.
   */
  statistics(hyps: readonly string[], refs: readonly (readonly string[])[], rows?: readonly (RowFields | undefined)[]): Float64Array;
  /** n × columns.length per-row values from n statistics rows. */
  rowValues(stats: Float64Array, n: number): Float64Array;
  /**
   * k × scoreNames.length corpus scores from k rows of summed statistics (k × width), each over
   * `count` rows (one number for all, or one per row of sums).
   */
  corpusScores(sums: Float64Array, k: number, count: number | ArrayLike<number>): Float64Array;
  /** Details of the corpus result (BLEU precisions and brevity penalty, ROUGE P/R, …). */
  corpusDetails(sum: Float64Array, count: number): Record<string, unknown>;
  /**
   * Every option and version, sacreBLEU style. `tool` (e.g. `harness:0.1.0`) is appended after the
   * kernel signature, as the caller that produced the numbers.
   */
  signature(nrefs: number | "var", tool?: string): string;
}

/** A lexical metric: one registry entry. */
export interface LexicalMetric {
  /** Canonical name (what `--metric` takes and `evalkern metrics` lists). */
  readonly name: string;
  /** Other spellings accepted wherever a name is (e.g. `tokenF1` for `f1`). */
  readonly aliases?: readonly string[];
  readonly family: MetricFamily;
  readonly description: string;
  /** The option schema (types, values, defaults, help). */
  readonly options: OptionSchemas;
  readonly scale: MetricScale;
  /** Direction: every rule metric here is higher-is-better. */
  readonly higherIsBetter: boolean;
  /** Output key shown as the row's `score` when the metric has several (ROUGE → `rougeL`). */
  readonly headline?: string;
  /**
   * The spec of this metric with `options` (already checked against the schema) and output name, as a
   * caller writes it: a metric with its own implementation names itself (`{ metric: "bleu", ... }`); a
   * preset names the metric it fixes options of (`chrf++` → `{ metric: "chrf", options: { wordOrder: 2 } }`);
   * a rule run as a plug-in module gives the module spec. Options are not resolved here.
   */
  spec(options: Readonly<Record<string, unknown>>, name: string): MetricSpecJson;
  /**
   * Metrics with an implementation: the options with defaults filled in and values validated (kernel
   * range checks throw `InvalidArgumentError`), as recorded in normalized specs.
   */
  resolve?(options: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * Metrics with an implementation: build it from a normalized spec (`spec.metric` is this metric's name
   * or an alias, `spec.options` came from `resolve`). Presets have none: their specs name the base.
   */
  create?(spec: MetricSpecJson): MetricInstance;
  /** Load what `create` needs on first use (a rule's module); idempotent. See `loadMetrics`. */
  load?(): Promise<void>;
}

/** Mean of statistics column `col` over `count` rows, for k rows of sums. */
export function meanColumns(
  sums: Float64Array,
  k: number,
  width: number,
  cols: readonly number[],
  count: number | ArrayLike<number>,
): Float64Array {
  const out = new Float64Array(k * cols.length);
  for (let r = 0; r < k; r++) {
    const n = typeof count === "number" ? count : count[r]!;
    for (let c = 0; c < cols.length; c++) out[r * cols.length + c] = n > 0 ? sums[r * width + cols[c]!]! / n : 0;
  }
  return out;
}

/** The headline output column: the column named `name`, else `name.headline` / `headline`, else the first. */
export function headlineColumn(name: string, columns: readonly string[], headline: string | undefined): string {
  const keyOf = (c: string) => (c === name ? "score" : c.startsWith(`${name}.`) ? c.slice(name.length + 1) : c);
  return (
    columns.find((c) => keyOf(c) === "score") ??
    (headline !== undefined ? columns.find((c) => keyOf(c) === headline) : undefined) ??
    columns[0]!
  );
}

/**
 * A metric whose row value is statistics column 0 and whose corpus score is that column's mean (exact
 * match, Levenshtein, token F1): everything but the statistics, the details and the signature.
 */
export function meanOfColumnZero(
  spec: MetricSpecJson,
  parts: {
    readonly metric: string;
    readonly width: number;
    readonly statistics: MetricInstance["statistics"];
    readonly signature: MetricInstance["signature"];
    /** Corpus details from the summed statistics (default `{ mean }`). */
    readonly details?: (sum: Float64Array, count: number) => Record<string, unknown>;
  },
): MetricInstance {
  const { width } = parts;
  const columns = [spec.name];
  return {
    metric: parts.metric,
    name: spec.name,
    options: spec.options,
    width,
    columns,
    scoreNames: columns,
    headline: headlineColumn(spec.name, columns, undefined),
    corpusColumns: [0],
    scale: 1,
    higherIsBetter: true,
    statistics: parts.statistics,
    rowValues(stats, n) {
      if (width === 1) return stats.slice(0, n);
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = stats[width * i]!;
      return out;
    },
    corpusScores: (sums, k, count) => meanColumns(sums, k, width, [0], count),
    corpusDetails: parts.details ?? ((sum, count) => ({ mean: count > 0 ? sum[0]! / count : 0 })),
    signature: parts.signature,
  };
}

/**
 * A sacreBLEU-style metric of one score column whose row and corpus scores are functions of (summed)
 * statistics, every statistics column feeding the corpus score (BLEU, chrF, TER): everything but the
 * kernel calls, the details and the signature. Scale 0–100.
 */
export function summedStatistics(
  spec: MetricSpecJson,
  parts: {
    readonly metric: string;
    readonly width: number;
    readonly higherIsBetter: boolean;
    readonly statistics: MetricInstance["statistics"];
    /** Scores of k rows of (summed) statistics. */
    readonly scores: (stats: Float64Array) => Float64Array;
    /** Corpus scores when they differ from row scores (BLEU's corpus-level effective order). */
    readonly corpusScores?: (sums: Float64Array) => Float64Array;
    readonly details: MetricInstance["corpusDetails"];
    readonly signature: MetricInstance["signature"];
    readonly sequentialColumns?: readonly number[];
  },
): MetricInstance {
  const columns = [spec.name];
  const corpus = parts.corpusScores ?? parts.scores;
  return {
    metric: parts.metric,
    name: spec.name,
    options: spec.options,
    width: parts.width,
    columns,
    scoreNames: columns,
    headline: headlineColumn(spec.name, columns, undefined),
    corpusColumns: Array.from({ length: parts.width }, (_, i) => i),
    ...(parts.sequentialColumns ? { sequentialColumns: parts.sequentialColumns } : {}),
    scale: 100,
    higherIsBetter: parts.higherIsBetter,
    statistics: parts.statistics,
    rowValues: (stats) => parts.scores(stats),
    corpusScores: (sums) => corpus(sums),
    corpusDetails: parts.details,
    signature: parts.signature,
  };
}
