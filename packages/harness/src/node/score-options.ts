// Stage 1 of `scoreFile`: its options, checked and resolved (paths absolute, defaults applied), and the
// names of the files a run writes beside its output.
import { resolve } from "node:path";
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { resolveBootstrap, type BootstrapOptions } from "../bulk/bootstrap.js";
import { normalizeMetrics, type MetricSpec, type NormalizedMetric } from "../bulk/metrics.js";
import { defaultQuote, resolveFields, type FieldMap, type ResolvedFields } from "../bulk/records.js";
import { checkInputFile } from "./files.js";
import { defaultWorkers } from "./pool.js";
import type { RowsOutputOptions } from "./output-rows.js";

export interface ShardSpec {
  /** 0-based shard index. */
  readonly index: number;
  /** Number of shards the input is split into. */
  readonly count: number;
}

export interface ScoreFileOptions extends RowsOutputOptions {
  /** Input JSONL (one object per line) or CSV (header row) file. */
  readonly input: string;
  /**
   * Output: one line per input row, in input order; `{"line":…,"<metric>":…}` JSONL by default, or with
   * `outputRows: "rows"` the input rows with one object per metric added (JSONL) or CSV with the input's
   * columns, the metric columns and `_error`.
   */
  readonly output: string;
  readonly metrics: readonly MetricSpec[];
  /** Field paths of hypothesis, references and id (default { hypothesis: "hyp", references: "refs" }). */
  readonly fields?: FieldMap;
  /** Input format (default from the extension: .csv/.tsv → csv, anything else → jsonl). */
  readonly format?: "jsonl" | "csv";
  /** CSV delimiter (default "," or a tab for .tsv). */
  readonly delimiter?: string;
  /**
   * Whether a `"` at the start of a CSV field quotes it (RFC 4180: delimiters, newlines and `""` inside).
   * Default true, except for tab-separated input (`.tsv` or a tab delimiter), where a quote is a literal
   * character, as `paste` and most TSV writers mean it; pass true to read TSV written with CSV quoting.
   */
  readonly quote?: boolean;
  /** Worker threads (default and maximum: available parallelism; more are capped, see `diagnostics.workersRequested`). */
  readonly workers?: number;
  /** Target chunk size in bytes (default 512 KiB). Rows go to workers in chunks. */
  readonly chunkBytes?: number;
  /**
   * Rows longer than this many bytes are not read into memory or scored: each is a bad row
   * (`row_too_large`) with its line number, and the run goes on (default 16 MiB, at most 256 MiB).
   */
  readonly maxRowBytes?: number;
  /**
   * Time budget of one row, in ms (default 60 000; 0: none). A chunk gets this plus a thousandth of
   * it per line; a worker that exceeds its chunk's budget is terminated, the chunk's rows are re-run
   * one by one in fresh workers, rows over the row budget become bad rows (`row_timeout`) and the run
   * goes on.
   */
  readonly rowTimeoutMs?: number;
  /**
   * Rows holding bytes that are not UTF-8 are bad rows (`invalid_utf8`) instead of being scored with
   * U+FFFD in their place (default false; either way they are counted in `rows.invalidUtf8`).
   */
  readonly strictUtf8?: boolean;
  /** Maximum chunks in flight, i.e. the memory window (default 4 × workers). */
  readonly window?: number;
  /** Continue from the last checkpoint of the same job instead of starting over. */
  readonly resume?: boolean;
  /** Score only this deterministic slice of the input (see README: sharding). */
  readonly shard?: ShardSpec;
  /** Bootstrap 95% confidence intervals for every corpus score (needs the statistics file). */
  readonly bootstrap?: boolean | BootstrapOptions;
  /** Keep per-row statistics in `${output}.stats.f32` (default: on when bootstrap is on). */
  readonly keepStatistics?: boolean;
  /** Summary path (default `${output}.summary.json`). */
  readonly summary?: string;
  /** Checkpoint interval (default 2000 ms). */
  readonly checkpointIntervalMs?: number;
  /** Progress on stderr: a live bar on a terminal, periodic lines otherwise. */
  readonly displayProgress?: boolean;
  /**
   * Stops the run: rows already written are checkpointed, then the call rejects with
   * `RunAbortedError` (resume continues from there).
   */
  readonly signal?: AbortSignal;
  /** Called after each chunk is written. */
  readonly onProgress?: (progress: { readonly bytes: number; readonly totalBytes: number; readonly records: number }) => void;
  /**
   * Called in the phases after scoring: `bootstrap` as the CI resamples complete (`done` of `total`
   * resamples; first with done 0).
   */
  readonly onPhaseProgress?: (progress: { readonly phase: "bootstrap"; readonly done: number; readonly total: number }) => void;
}

const MAX_RECORD_BYTES = 256 << 20;
const DEFAULT_MAX_ROW_BYTES = 16 << 20;
const DEFAULT_ROW_TIMEOUT_MS = 60_000;

export function checkpointPath(output: string): string {
  return `${output}.ckpt.json`;
}
export function statisticsPath(output: string): string {
  return `${output}.stats.f32`;
}
export function summaryPath(output: string): string {
  return `${output}.summary.json`;
}

function checkPositiveInt(v: unknown, arg: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1)
    throw new InvalidArgumentError(`${arg} must be a positive integer`, { argument: arg });
  return v;
}

export function resolveShard(shard: ShardSpec | undefined): ShardSpec | null {
  if (shard === undefined) return null;
  if (typeof shard !== "object" || shard === null) throw new InvalidArgumentError("shard must be { index, count }", { argument: "shard" });
  const count = checkPositiveInt(shard.count, "shard.count", 1);
  if (typeof shard.index !== "number" || !Number.isSafeInteger(shard.index) || shard.index < 0 || shard.index >= count) {
    throw new InvalidArgumentError(`shard.index must be an integer from 0 to ${count - 1}`, { argument: "shard.index" });
  }
  return { index: shard.index, count };
}

/** `ScoreFileOptions` checked, with every default applied. */
export interface ResolvedScoreOptions {
  readonly input: string;
  readonly output: string;
  readonly format: "jsonl" | "csv";
  readonly delimiter: string;
  /** CSV: whether `"` quotes fields (see `ScoreFileOptions.quote`). */
  readonly quote: boolean;
  readonly specs: readonly NormalizedMetric[];
  readonly fields: ResolvedFields;
  readonly shard: ShardSpec | null;
  readonly bootstrap: ReturnType<typeof resolveBootstrap>;
  readonly keepStatistics: boolean;
  readonly workersRequested: number;
  readonly workers: number;
  readonly strictUtf8: boolean;
  readonly maxRowBytes: number;
  readonly chunkBytes: number;
  readonly rowTimeoutMs: number;
  readonly window: number;
  readonly checkpointMs: number;
}

/** Check `scoreFile`'s options (throwing `InvalidArgumentError` on the first bad one) and apply the defaults. */
export function resolveScoreOptions(options: ScoreFileOptions): ResolvedScoreOptions {
  if (typeof options !== "object" || options === null)
    throw new InvalidArgumentError("scoreFile(options): options must be an object", { argument: "options" });
  if (typeof options.input !== "string" || !options.input)
    throw new InvalidArgumentError("input must be a file path", { argument: "input" });
  if (typeof options.output !== "string" || !options.output)
    throw new InvalidArgumentError("output must be a file path", { argument: "output" });
  const input = resolve(options.input);
  const output = resolve(options.output);
  if (input === output) throw new InvalidArgumentError("output must differ from input", { argument: "output" });
  const lower = input.toLowerCase();
  const format = options.format ?? (lower.endsWith(".csv") || lower.endsWith(".tsv") ? "csv" : "jsonl");
  if (format !== "jsonl" && format !== "csv") throw new InvalidArgumentError('format must be "jsonl" or "csv"', { argument: "format" });
  const delimiter = options.delimiter ?? (lower.endsWith(".tsv") ? "\t" : ",");
  if (typeof delimiter !== "string" || delimiter.length !== 1 || delimiter.charCodeAt(0) > 127 || delimiter === '"' || delimiter === "\n") {
    throw new InvalidArgumentError("delimiter must be one ASCII character (not a quote or newline)", { argument: "delimiter" });
  }
  const quote = options.quote ?? defaultQuote(delimiter);
  if (typeof quote !== "boolean") throw new InvalidArgumentError("quote must be a boolean", { argument: "quote" });
  const specs = normalizeMetrics(options.metrics);
  const fields = resolveFields(options.fields);
  const shard = resolveShard(options.shard);
  const bootstrap = resolveBootstrap(options.bootstrap);
  const keepStatistics = options.keepStatistics ?? bootstrap !== null;
  if (bootstrap && !keepStatistics)
    throw new InvalidArgumentError("bootstrap needs keepStatistics (the per-row statistics file)", { argument: "keepStatistics" });
  // capped at the cores: more threads only cost memory (~11 MB each), and 1e9 aborts the process
  const workersRequested = checkPositiveInt(options.workers, "workers", defaultWorkers());
  const workers = Math.min(workersRequested, defaultWorkers());
  const strictUtf8 = options.strictUtf8 ?? false;
  if (typeof strictUtf8 !== "boolean") throw new InvalidArgumentError("strictUtf8 must be a boolean", { argument: "strictUtf8" });
  const maxRowBytes = checkPositiveInt(options.maxRowBytes, "maxRowBytes", DEFAULT_MAX_ROW_BYTES);
  if (maxRowBytes > MAX_RECORD_BYTES)
    throw new InvalidArgumentError(`maxRowBytes must be at most ${MAX_RECORD_BYTES}`, { argument: "maxRowBytes" });
  // a chunk holds whole records of at most chunkBytes: with chunkBytes ≤ maxRowBytes every longer record takes the refusal path
  const chunkBytes = Math.min(checkPositiveInt(options.chunkBytes, "chunkBytes", 512 << 10), maxRowBytes);
  const rowTimeoutMs = options.rowTimeoutMs ?? DEFAULT_ROW_TIMEOUT_MS;
  if (typeof rowTimeoutMs !== "number" || !(rowTimeoutMs >= 0) || !Number.isFinite(rowTimeoutMs)) {
    throw new InvalidArgumentError("rowTimeoutMs must be a finite number ≥ 0 (0: no budget)", { argument: "rowTimeoutMs" });
  }
  const window = checkPositiveInt(options.window, "window", 4 * workers);
  const checkpointMs = options.checkpointIntervalMs ?? 2000;
  if (typeof checkpointMs !== "number" || !(checkpointMs >= 0))
    throw new InvalidArgumentError("checkpointIntervalMs must be ≥ 0", { argument: "checkpointIntervalMs" });
  checkInputFile(input); // a regular file: not a directory, a FIFO (which would block) or a device
  return {
    input,
    output,
    format,
    delimiter,
    quote,
    specs,
    fields,
    shard,
    bootstrap,
    keepStatistics,
    workersRequested,
    workers,
    strictUtf8,
    maxRowBytes,
    chunkBytes,
    rowTimeoutMs,
    window,
    checkpointMs,
  };
}
