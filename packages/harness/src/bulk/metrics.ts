// The rule metrics bulk scoring can run, as sufficient-statistics producers. Every metric turns a chunk
// of (hypothesis, references) pairs into an n × width matrix of statistics with one batch call, gives
// per-row values from those statistics, and a corpus score from *summed* statistics (sacreBLEU's design:
// corpus BLEU/chrF are scores of summed counts, not means of sentence scores; for ROUGE, token F1,
// exact match and plug-in metrics the statistics are the per-row values and the corpus score is their
// mean). Bootstrap resampling sums resampled rows and calls the same corpus function.
//
// Specs are plain JSON so they can be sent to worker threads; `createBulkMetric` builds the
// implementation on either side.
import {
  DEFAULT_ROUGE_TYPES,
  InvalidArgumentError,
  bleuFromStatistics,
  bleuScoresFromStatisticsBatch,
  bleuSignature,
  bleuStatisticsBatch,
  bleuStatisticsWidth,
  chrfFromStatistics,
  chrfScoresFromStatisticsBatch,
  chrfSignature,
  chrfStatisticsBatch,
  chrfStatisticsWidth,
  kernelSignature,
  resolveBleuOptions,
  resolveChrfOptions,
  rougeBatch,
  tokenF1Batch,
  type BleuOptions,
  type ChrfOptions,
  type RougeOptions,
  type RougeType,
  type TokenF1Options,
} from "@evalkern/core-wasm";
import { HARNESS_VERSION } from "../version.js";

/** A metric by name with default options. `"chrf++"` is chrF with word order 2; `"rougeL"` etc. pick one ROUGE type. */
export type MetricName =
  | "bleu"
  | "chrf"
  | "chrf++"
  | "rouge"
  | "rouge1"
  | "rouge2"
  | "rougeL"
  | "rougeLsum"
  | "tokenF1"
  | "exactMatch"
  | "levenshtein";

/**
 * A plug-in metric loaded by module specifier inside each worker, e.g. any `@evalkern/metrics` rule
 * metric that is a pure function of (hypothesis, references):
 * - `call: "batch"`: `fn(hypotheses: string[], references: string[][], options) => ArrayLike<number | boolean>`
 *   (e.g. `@evalkern/metrics/dspy` `F1Batch`, `EMBatch`);
 * - `call: "pair"`: `fn(hypothesis, references, options) => number | boolean | Record<string, number | boolean>`;
 * - `call: "byob"`: a NeMo BYOB scorer, `fn({ response: hypothesis, target: references[0], metadata: {}, config: options })`
 *   returning a dict (e.g. `@evalkern/metrics/byob` `bleu`, `rouge`, `exactMatch`).
 * Record-returning metrics need `columns` (the keys to keep). The corpus score of each column is its mean.
 */
export interface ModuleMetricConfig {
  readonly metric: "module";
  readonly name: string;
  /** Module specifier resolvable from @evalkern/harness (a package subpath or a file URL). */
  readonly module: string;
  /** Export name (default "default"). */
  readonly export?: string;
  /** Calling convention (default "pair"). */
  readonly call?: "pair" | "batch" | "byob";
  /** Keys of a record result to keep, in order. */
  readonly columns?: readonly string[];
  /** Passed to the function (must be JSON-serialisable: it travels to worker threads). */
  readonly options?: unknown;
  /** Recorded in the signature (e.g. the package version). */
  readonly version?: string;
  /** The column key reported as `score` in output rows when the metric has several (see `MetricConfig`). */
  readonly headline?: string;
}

/**
 * A metric with options. `headline` is the column key written as `score` in output rows
 * (`outputRows: "rows"`) when the metric has several columns and none is named after it, e.g. `"rougeL"`
 * for ROUGE (default: the first column).
 */
export type MetricConfig =
  | { readonly metric: "bleu"; readonly name?: string; readonly options?: BleuOptions; readonly headline?: string }
  | { readonly metric: "chrf"; readonly name?: string; readonly options?: ChrfOptions; readonly headline?: string }
  | { readonly metric: "rouge"; readonly name?: string; readonly options?: RougeOptions; readonly headline?: string }
  | { readonly metric: "tokenF1"; readonly name?: string; readonly options?: TokenF1Options; readonly headline?: string }
  | { readonly metric: "exactMatch"; readonly name?: string; readonly headline?: string }
  | { readonly metric: "levenshtein"; readonly name?: string; readonly headline?: string }
  | ModuleMetricConfig;

export type MetricSpec = MetricName | MetricConfig;

/** A validated spec (plain JSON), as sent to workers and recorded in summaries. */
export interface NormalizedMetric {
  readonly metric: MetricConfig["metric"];
  readonly name: string;
  readonly options: Record<string, unknown>;
  readonly module?: string;
  readonly export?: string;
  readonly call?: "pair" | "batch" | "byob";
  readonly columns?: readonly string[];
  readonly version?: string;
  /** Column key shown as `score` in output rows (when given). */
  readonly headline?: string;
}

export interface BulkMetric {
  readonly spec: NormalizedMetric;
  /** Statistics per row. */
  readonly width: number;
  /** Per-row output keys, in order. */
  readonly columns: readonly string[];
  /** Corpus score keys, in order. */
  readonly scoreNames: readonly string[];
  /**
   * The statistics columns (0-based, within this metric's `width`) that `corpusScores` reads; the
   * others may be anything (bootstrap resampling sums only these).
   */
  readonly corpusColumns: readonly number[];
  /** n × width statistics for n valid pairs (one batch call). Throws if any pair fails. */
  statistics(hyps: readonly string[], refs: readonly (readonly string[])[]): Float64Array;
  /** n × columns.length per-row values from n statistics rows. */
  rowValues(stats: Float64Array, n: number): Float64Array;
  /** k × scoreNames.length corpus scores from k rows of summed statistics over `count` rows each. */
  corpusScores(sums: Float64Array, k: number, count: number): Float64Array;
  /** Details of the corpus result (BLEU precisions, brevity penalty, ROUGE P/R, ...). */
  corpusDetails(sum: Float64Array, count: number): Record<string, unknown>;
  /** Every option and version, sacreBLEU style. */
  signature(nrefs: number | "var"): string;
}

const ROUGE_TYPES = new Set<string>(["rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rouge6", "rouge7", "rouge8", "rouge9", "rougeL", "rougeLsum"]);

function bad(message: string, argument: string): never {
  throw new InvalidArgumentError(message, { argument });
}

function plainJson(value: unknown, argument: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) bad(`${argument} must be an options object`, argument);
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch {
    return bad(`${argument} must be JSON-serialisable (it is sent to worker threads)`, argument);
  }
}

/** Validate metric specs (throws `InvalidArgumentError` with the offending option) and give them names. */
export function normalizeMetrics(specs: readonly MetricSpec[] | undefined): NormalizedMetric[] {
  if (!Array.isArray(specs) || specs.length === 0) bad("metrics must be a non-empty array of metric specs", "metrics");
  const out: NormalizedMetric[] = [];
  specs.forEach((spec, i) => {
    const where = `metrics[${i}]`;
    if (typeof spec === "string") {
      switch (spec) {
        case "bleu":
        case "chrf":
        case "tokenF1":
        case "exactMatch":
        case "levenshtein":
          out.push(normalizeOne({ metric: spec } as MetricConfig, where));
          return;
        case "chrf++":
          out.push(normalizeOne({ metric: "chrf", name: "chrf++", options: { wordOrder: 2 } }, where));
          return;
        case "rouge":
          out.push(normalizeOne({ metric: "rouge" }, where));
          return;
        case "rouge1":
        case "rouge2":
        case "rougeL":
        case "rougeLsum":
          out.push(normalizeOne({ metric: "rouge", name: spec, options: { types: [spec] } }, where));
          return;
        default:
          bad(`${where}: unknown metric ${JSON.stringify(spec)}; use one of bleu, chrf, chrf++, rouge, rouge1, rouge2, rougeL, rougeLsum, tokenF1, exactMatch, levenshtein, or a { metric: "module", ... } spec`, where);
      }
    }
    if (typeof spec !== "object" || spec === null) bad(`${where} must be a metric name or a { metric, options } object`, where);
    const m = normalizeOne(spec, where);
    if (spec.headline === undefined) out.push(m);
    else {
      if (typeof spec.headline !== "string" || spec.headline.length === 0) bad(`${where}.headline must be a non-empty column key`, `${where}.headline`);
      out.push({ ...m, headline: spec.headline });
    }
  });
  const seen = new Map<string, string>();
  for (const m of out) {
    if (seen.has(m.name)) bad(`two metrics are named ${JSON.stringify(m.name)}: give one a distinct \`name\``, "metrics");
    seen.set(m.name, m.name);
  }
  // output columns must not clash either
  const cols = new Set<string>(["line", "index", "id", "error"]);
  for (const m of out) {
    for (const c of columnsOf(m)) {
      if (cols.has(c)) bad(`output column ${JSON.stringify(c)} is used twice (or is reserved): rename a metric`, "metrics");
      cols.add(c);
    }
  }
  return out;
}

function normalizeOne(spec: MetricConfig, where: string): NormalizedMetric {
  const name = spec.name ?? (spec.metric === "chrf" && (spec.options as ChrfOptions | undefined)?.wordOrder ? "chrf++" : spec.metric);
  if (typeof name !== "string" || name.length === 0) bad(`${where}.name must be a non-empty string`, `${where}.name`);
  switch (spec.metric) {
    case "bleu": {
      const options = plainJson(spec.options, `${where}.options`);
      resolveBleuOptions(options as BleuOptions, false); // validates
      return { metric: "bleu", name, options };
    }
    case "chrf": {
      const options = plainJson(spec.options, `${where}.options`);
      resolveChrfOptions(options as ChrfOptions);
      return { metric: "chrf", name, options };
    }
    case "rouge": {
      const options = plainJson(spec.options, `${where}.options`);
      const types = (options.types as unknown[] | undefined) ?? [...DEFAULT_ROUGE_TYPES];
      if (!Array.isArray(types) || types.length === 0) bad(`${where}.options.types must be a non-empty array`, `${where}.options.types`);
      for (const t of types) if (typeof t !== "string" || !ROUGE_TYPES.has(t)) bad(`${where}.options.types: unknown ROUGE type ${JSON.stringify(t)}`, `${where}.options.types`);
      if (new Set(types).size !== types.length) bad(`${where}.options.types has duplicates`, `${where}.options.types`);
      if (options.useStemmer !== undefined && typeof options.useStemmer !== "boolean") bad(`${where}.options.useStemmer must be a boolean`, `${where}.options.useStemmer`);
      return { metric: "rouge", name, options: { types, useStemmer: options.useStemmer === true } };
    }
    case "tokenF1": {
      const options = plainJson(spec.options, `${where}.options`);
      const mode = options.mode ?? "dspy";
      if (mode !== "dspy" && mode !== "byob") bad(`${where}.options.mode must be "dspy" or "byob"`, `${where}.options.mode`);
      const hotpot = options.hotpot ?? false;
      if (typeof hotpot !== "boolean") bad(`${where}.options.hotpot must be a boolean`, `${where}.options.hotpot`);
      if (hotpot && mode !== "dspy") bad(`${where}.options.hotpot applies to mode "dspy" only`, `${where}.options.hotpot`);
      return { metric: "tokenF1", name, options: { mode, hotpot } };
    }
    case "exactMatch":
    case "levenshtein":
      return { metric: spec.metric, name, options: {} };
    case "module": {
      if (typeof spec.module !== "string" || spec.module.length === 0) bad(`${where}.module must be a module specifier`, `${where}.module`);
      const call = spec.call ?? "pair";
      if (call !== "pair" && call !== "batch" && call !== "byob") bad(`${where}.call must be "pair", "batch" or "byob"`, `${where}.call`);
      if (spec.columns !== undefined) {
        if (!Array.isArray(spec.columns) || spec.columns.length === 0 || spec.columns.some((c) => typeof c !== "string" || c.length === 0)) {
          bad(`${where}.columns must be a non-empty array of keys`, `${where}.columns`);
        }
      }
      if (call === "byob" && spec.columns === undefined) bad(`${where}.columns is required for call "byob" (the score keys to keep)`, `${where}.columns`);
      const options = spec.options === undefined ? {} : (JSON.parse(JSON.stringify({ v: spec.options })) as { v: Record<string, unknown> }).v;
      return {
        metric: "module",
        name,
        options,
        module: spec.module,
        export: spec.export ?? "default",
        call,
        ...(spec.columns ? { columns: [...spec.columns] } : {}),
        ...(spec.version ? { version: spec.version } : {}),
      };
    }
    default:
      return bad(`${where}.metric: unknown metric ${JSON.stringify((spec as { metric: unknown }).metric)}`, `${where}.metric`);
  }
}

/** Per-row output keys of a normalized metric. */
export function columnsOf(m: NormalizedMetric): string[] {
  if (m.metric === "rouge") {
    const types = m.options.types as string[];
    // a single-type ROUGE named after its type ("rougeL") keeps that key; otherwise keys are the types,
    // prefixed with the metric name when the user named it
    if (types.length === 1 && m.name === types[0]) return [m.name];
    return m.name === "rouge" ? [...types] : types.map((t) => `${m.name}.${t}`);
  }
  if (m.metric === "module" && m.columns) return m.columns.map((c) => `${m.name}.${c}`);
  return [m.name];
}

const kernel = (): string => `${kernelSignature()}|harness:${HARNESS_VERSION}`;

/** Stable JSON (sorted keys) for signatures. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function meanScores(sums: Float64Array, k: number, width: number, cols: readonly number[], count: number): Float64Array {
  const out = new Float64Array(k * cols.length);
  for (let r = 0; r < k; r++) for (let c = 0; c < cols.length; c++) out[r * cols.length + c] = count > 0 ? sums[r * width + cols[c]!]! / count : 0;
  return out;
}

function asNumber(v: unknown, what: string): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw new InvalidArgumentError(`${what} returned ${typeof v === "number" ? String(v) : typeof v}, not a boolean or finite number`, { argument: what });
}

interface Loaded {
  fn?: (...args: unknown[]) => unknown;
}

/**
 * Build a metric. With `load` (workers), plug-in modules and `@evalkern/metrics` functions are imported;
 * without it (main thread) only signatures and corpus scores work, which need no import.
 */
export async function createBulkMetric(spec: NormalizedMetric, options: { load: boolean }): Promise<BulkMetric> {
  const columns = columnsOf(spec);
  switch (spec.metric) {
    case "bleu": {
      const o = spec.options as BleuOptions;
      const N = resolveBleuOptions(o, false).maxNgramOrder;
      const width = bleuStatisticsWidth(N);
      const corpusOptions: BleuOptions = { ...o, effectiveOrder: o.effectiveOrder ?? false };
      const rowEff = resolveBleuOptions(o, true).effectiveOrder;
      return {
        spec,
        width,
        columns,
        scoreNames: [spec.name],
        corpusColumns: Array.from({ length: width }, (_, c) => c), // sysLen, refLen, counts, totals
        statistics: (h, r) => bleuStatisticsBatch(h, r, o),
        rowValues: (stats) => bleuScoresFromStatisticsBatch(stats, o),
        corpusScores: (sums) => bleuScoresFromStatisticsBatch(sums, corpusOptions),
        corpusDetails(sum) {
          const res = bleuFromStatistics(
            { sysLen: sum[0]!, refLen: sum[1]!, counts: Array.from(sum.subarray(2, 2 + N)), totals: Array.from(sum.subarray(2 + N, 2 + 2 * N)) },
            o,
          );
          return { score: res.score, precisions: res.precisions, bp: res.bp, ratio: res.refLen > 0 ? res.sysLen / res.refLen : 0, sysLen: res.sysLen, refLen: res.refLen, counts: res.counts, totals: res.totals };
        },
        signature: (nrefs) => `BLEU|${bleuSignature(o, nrefs, false)}|row:sentence-eff:${rowEff ? "yes" : "no"}|${kernel()}`,
      };
    }
    case "chrf": {
      const o = spec.options as ChrfOptions;
      const r = resolveChrfOptions(o);
      const width = chrfStatisticsWidth(r);
      const label = `chrF${r.beta}${r.wordOrder > 0 ? "+".repeat(r.wordOrder) : ""}`;
      return {
        spec,
        width,
        columns,
        scoreNames: [spec.name],
        corpusColumns: Array.from({ length: width }, (_, c) => c), // per order: hypothesis, reference, match counts
        statistics: (h, rf) => chrfStatisticsBatch(h, rf, o),
        rowValues: (stats) => chrfScoresFromStatisticsBatch(stats, o),
        corpusScores: (sums) => chrfScoresFromStatisticsBatch(sums, o),
        corpusDetails: (sum) => ({ score: chrfFromStatistics(sum, o) }),
        signature: (nrefs) => `${label}|${chrfSignature(o, nrefs)}|${kernel()}`,
      };
    }
    case "rouge": {
      const types = spec.options.types as RougeType[];
      const useStemmer = spec.options.useStemmer === true;
      const T = types.length;
      const fCols = types.map((_, t) => 3 * t + 2);
      return {
        spec,
        width: 3 * T,
        columns,
        scoreNames: columns,
        corpusColumns: fCols, // the corpus score is the mean F-measure per type
        statistics: (h, r) => rougeBatch(h, r, { types, useStemmer }),
        rowValues(stats, n) {
          const out = new Float64Array(n * T);
          for (let i = 0; i < n; i++) for (let t = 0; t < T; t++) out[i * T + t] = stats[i * 3 * T + 3 * t + 2]!;
          return out;
        },
        corpusScores: (sums, k, count) => meanScores(sums, k, 3 * T, fCols, count),
        corpusDetails(sum, count) {
          const d: Record<string, unknown> = {};
          types.forEach((t, i) => {
            d[t] = count > 0 ? { precision: sum[3 * i]! / count, recall: sum[3 * i + 1]! / count, fmeasure: sum[3 * i + 2]! / count } : { precision: 0, recall: 0, fmeasure: 0 };
          });
          return d;
        },
        signature: (nrefs) =>
          `ROUGE|nrefs:${nrefs}|types:${types.join(",")}|stemmer:${useStemmer ? "porter" : "no"}|tok:rouge-score-default|multiref:max-f|agg:mean|version:rouge-score-0.1.2|${kernel()}`,
      };
    }
    case "tokenF1": {
      const o = spec.options as TokenF1Options;
      return {
        spec,
        width: 3,
        columns,
        scoreNames: [spec.name],
        corpusColumns: [0], // f1 (precision and recall are details)
        statistics: (h, r) => tokenF1Batch(h, r, o),
        rowValues(stats, n) {
          const out = new Float64Array(n);
          for (let i = 0; i < n; i++) out[i] = stats[3 * i]!;
          return out;
        },
        corpusScores: (sums, k, count) => meanScores(sums, k, 3, [0], count),
        corpusDetails: (sum, count) => (count > 0 ? { f1: sum[0]! / count, precision: sum[1]! / count, recall: sum[2]! / count } : { f1: 0, precision: 0, recall: 0 }),
        signature: (nrefs) =>
          `TokenF1|nrefs:${nrefs}|mode:${o.mode === "byob" ? "nemo-byob" : "dspy"}|hotpot:${o.hotpot ? "yes" : "no"}|multiref:max|agg:mean|${kernel()}`,
      };
    }
    case "exactMatch":
    case "levenshtein": {
      const loaded: Loaded = {};
      if (options.load) {
        if (spec.metric === "exactMatch") {
          const mod = (await import("@evalkern/metrics/dspy")) as unknown as { EMBatch: (...a: unknown[]) => unknown };
          loaded.fn = mod.EMBatch;
        } else {
          const mod = (await import("@evalkern/metrics/common")) as unknown as { levenshteinSimilarityBatch: (...a: unknown[]) => unknown };
          loaded.fn = mod.levenshteinSimilarityBatch;
        }
      }
      const em = spec.metric === "exactMatch";
      return {
        spec,
        width: 1,
        columns,
        scoreNames: [spec.name],
        corpusColumns: [0],
        statistics(h, r) {
          if (!loaded.fn) throw new Error("metric not loaded in this thread");
          if (em) return Float64Array.from(loaded.fn(h, r) as ArrayLike<number>);
          // similarity against each reference, best one kept
          const a: string[] = [];
          const b: string[] = [];
          for (let i = 0; i < h.length; i++) for (const ref of r[i]!) (a.push(h[i]!), b.push(ref));
          const sims = loaded.fn(a, b) as ArrayLike<number>;
          const out = new Float64Array(h.length);
          let k = 0;
          for (let i = 0; i < h.length; i++) {
            let best = -Infinity;
            for (let j = 0; j < r[i]!.length; j++) best = Math.max(best, sims[k++]!);
            out[i] = best;
          }
          return out;
        },
        rowValues: (stats) => stats.slice(),
        corpusScores: (sums, k, count) => meanScores(sums, k, 1, [0], count),
        corpusDetails: (sum, count) => ({ mean: count > 0 ? sum[0]! / count : 0 }),
        signature: (nrefs) =>
          em
            ? `EM|nrefs:${nrefs}|normalize:dspy-normalize_text|multiref:any|agg:mean|version:dspy-3.3.1|${kernel()}`
            : `LevenshteinSimilarity|nrefs:${nrefs}|unit:codepoint|multiref:max|agg:mean|${kernel()}`,
      };
    }
    case "module": {
      const loaded: Loaded = {};
      if (options.load) {
        const mod = (await import(spec.module!)) as Record<string, unknown>;
        const fn = mod[spec.export!];
        if (typeof fn !== "function") throw new InvalidArgumentError(`module ${spec.module} has no function export ${JSON.stringify(spec.export)}`, { argument: "metrics" });
        loaded.fn = fn as (...args: unknown[]) => unknown;
      }
      const keys = spec.columns;
      const width = keys ? keys.length : 1;
      const call = spec.call!;
      const opt = spec.options;
      const take = (value: unknown, row: Float64Array, at: number): void => {
        if (!keys) {
          row[at] = asNumber(value, spec.name);
          return;
        }
        if (typeof value !== "object" || value === null) throw new InvalidArgumentError(`${spec.name} returned ${typeof value}, not a record`, { argument: spec.name });
        keys.forEach((key, c) => {
          row[at + c] = asNumber((value as Record<string, unknown>)[key], `${spec.name}.${key}`);
        });
      };
      return {
        spec,
        width,
        columns,
        scoreNames: columns,
        corpusColumns: Array.from({ length: width }, (_, c) => c),
        statistics(h, r) {
          const fn = loaded.fn;
          if (!fn) throw new Error("metric not loaded in this thread");
          const out = new Float64Array(h.length * width);
          if (call === "batch") {
            const values = fn(h, r, opt) as ArrayLike<unknown>;
            if (values === null || typeof values !== "object" || values.length !== h.length) {
              throw new InvalidArgumentError(`${spec.name} must return one value per hypothesis`, { argument: spec.name });
            }
            for (let i = 0; i < h.length; i++) take(values[i], out, i * width);
          } else {
            for (let i = 0; i < h.length; i++) {
              const value = call === "pair" ? fn(h[i], r[i], opt) : fn({ response: h[i], target: r[i]![0], metadata: {}, config: opt });
              take(value, out, i * width);
            }
          }
          return out;
        },
        rowValues: (stats) => stats.slice(),
        corpusScores: (sums, k, count) => meanScores(sums, k, width, Array.from({ length: width }, (_, c) => c), count),
        corpusDetails(sum, count) {
          const d: Record<string, number> = {};
          columns.forEach((c, j) => (d[c] = count > 0 ? sum[j]! / count : 0));
          return d;
        },
        signature: (nrefs) =>
          `${spec.name}|nrefs:${nrefs}|module:${spec.module}#${spec.export}|call:${call}|options:${stableJson(opt)}|version:${spec.version ?? "unversioned"}|agg:mean|harness:${HARNESS_VERSION}`,
      };
    }
  }
}
