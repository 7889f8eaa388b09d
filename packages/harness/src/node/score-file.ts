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
import { createHash, type Hash } from "node:crypto";
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { ResumeMismatchError, RunAbortedError } from "../errors.js";
import { createProgress } from "../progress.js";
import { resolveBootstrap, type BootstrapOptions } from "../bulk/bootstrap.js";
import type { ChunkInput, ChunkResult, BadRow, PresetError } from "../bulk/chunk.js";
import { ColumnSums } from "../bulk/fsum.js";
import { normalizeMetrics, type MetricSpec, type NormalizedMetric } from "../bulk/metrics.js";
import { Csv, csvNext, firstRecordBoundary, lastRecordBoundary, countNewlines, parseCsv, resolveFields, type FieldMap, type ResolvedFields } from "../bulk/records.js";
import { mainThreadMetrics, nrefsLabel, summarizeMetrics, type MetricSummary } from "../bulk/summary.js";
import { HARNESS_VERSION } from "../version.js";
import { acquireLock, openFile, readJson, syncFile, truncateFile, writeAt, writeFileAtomic } from "./files.js";
import { createPool, defaultWorkers, type WorkerPool } from "./pool.js";
import { resolveRowsOutput, type RowsOutputOptions } from "./output-rows.js";
import { bootstrapFromFiles } from "./statistics.js";

export interface ShardSpec {
  /** 0-based shard index. */
  readonly index: number;
  /** Number of shards the input is split into. */
  readonly count: number;
}

export { resolveBootstrap, type BootstrapOptions } from "../bulk/bootstrap.js";

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

interface Checkpoint {
  readonly version: 2;
  readonly job: string;
  readonly nextOffset: number;
  /** sha256 of the CSV header and the input bytes [shard start, nextOffset): resume re-hashes them. */
  readonly contentHash: string;
  readonly nextLine: number;
  readonly outputBytes: number;
  readonly statisticsBytes: number;
  readonly records: number;
  readonly blank: number;
  readonly valid: number;
  readonly badByCode: Record<string, number>;
  readonly badSamples: BadRow[];
  readonly invalidUtf8: { readonly count: number; readonly lines: number[] };
  readonly partials: number[][];
  /** Left-to-right sums of the metrics' sequential columns (by column index), see `ChunkResult.sequential`. */
  readonly sequential?: Record<number, number>;
  readonly nrefsMin: number;
  readonly nrefsMax: number;
  readonly complete: boolean;
  readonly elapsedMs: number;
}

const MAX_BAD_SAMPLES = 100;
const READ_BLOCK = 4 << 20;
const MAX_RECORD_BYTES = 256 << 20;
const DEFAULT_MAX_ROW_BYTES = 16 << 20;
const DEFAULT_ROW_TIMEOUT_MS = 60_000;
/** The rejection of a task stopped by its time budget. */
const TIMED_OUT = Symbol("timed out");

/**
 * From a point inside a record (CSV quote state `state`), the end of that record: the position after
 * its terminating newline, or -1 when it goes on past `to`; the newlines seen; the state at the end.
 */
function scanRecord(buf: Uint8Array, from: number, to: number, format: "jsonl" | "csv", delimiter: number, state: Csv): { end: number; lines: number; state: Csv } {
  if (format === "jsonl") {
    const q = buf.indexOf(10, from);
    return q < 0 || q >= to ? { end: -1, lines: 0, state } : { end: q + 1, lines: 1, state };
  }
  let lines = 0;
  for (let p = from; p < to; p++) {
    const c = buf[p]!;
    if (c === 10) {
      lines++;
      if (state !== Csv.Quoted) return { end: p + 1, lines, state: Csv.FieldStart };
      continue;
    }
    state = csvNext(state, c, delimiter);
  }
  return { end: -1, lines, state };
}

/** Bytes [start, end) of a file. */
function readRange(path: string, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  const fd = openSync(path, "r");
  try {
    let off = 0;
    while (off < out.length) {
      const got = readSync(fd, out, off, out.length - off, start + off);
      if (got === 0) break;
      off += got;
    }
    return out.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

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
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) throw new InvalidArgumentError(`${arg} must be a positive integer`, { argument: arg });
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

// ------------------------------------------------------------------------------ input geometry

/**
 * Scan the file from a record start (`from`, on line `line`) to the first record start at or after
 * `target`. Returns that position and its line number.
 */
function nextRecordStart(fd: number, size: number, format: "jsonl" | "csv", delimiter: number, from: number, line: number, target: number): { pos: number; line: number } {
  if (target <= from) return { pos: from, line };
  const buf = new Uint8Array(READ_BLOCK);
  let abs = from;
  let state = Csv.FieldStart;
  while (abs < size) {
    const got = readSync(fd, buf, 0, Math.min(buf.length, size - abs), abs);
    if (got === 0) break;
    if (format === "jsonl") {
      // every newline ends a record: count those before target-1, then the next one is the boundary
      let p = 0;
      for (;;) {
        const q = buf.indexOf(10, p);
        if (q < 0 || q >= got) break;
        line++;
        if (abs + q + 1 >= target) return { pos: abs + q + 1, line };
        p = q + 1;
      }
    } else {
      for (let p = 0; p < got; p++) {
        const c = buf[p]!;
        if (c === 10) {
          line++;
          if (state !== Csv.Quoted) {
            state = Csv.FieldStart;
            if (abs + p + 1 >= target) return { pos: abs + p + 1, line };
          }
          continue;
        }
        state = csvNext(state, c, delimiter);
      }
    }
    abs += got;
  }
  return { pos: size, line };
}

export interface InputGeometry {
  readonly size: number;
  readonly mtimeMs: number;
  /** Byte offset of the first data record of the whole file (after a BOM and the CSV header). */
  readonly dataStart: number;
  readonly dataStartLine: number;
  readonly header: readonly string[] | null;
  /** This shard's records: [start, end) bytes, first record on `startLine`. */
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
}

export function inputGeometry(path: string, format: "jsonl" | "csv", delimiter: string, shard: ShardSpec | null): InputGeometry {
  const fd = openSync(path, "r");
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const head = new Uint8Array(Math.min(3, size));
    readSync(fd, head, 0, head.length, 0);
    const bom = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    const d = delimiter.charCodeAt(0);
    let dataStart = bom;
    let dataStartLine = 1;
    let header: string[] | null = null;
    if (format === "csv") {
      const h = nextRecordStart(fd, size, format, d, bom, 1, bom + 1);
      const bytes = new Uint8Array(h.pos - bom);
      readSync(fd, bytes, 0, bytes.length, bom);
      const recs = parseCsv(new TextDecoder().decode(bytes), delimiter, 1);
      const first = recs[0];
      if (!first || "error" in first) throw new InvalidArgumentError(`${path}: the CSV header row is missing or malformed`, { argument: "input" });
      header = first.fields;
      dataStart = h.pos;
      dataStartLine = h.line;
    }
    let start = dataStart;
    let startLine = dataStartLine;
    let end = size;
    if (shard && shard.count > 1) {
      const span = size - dataStart;
      const rawStart = dataStart + Math.floor((shard.index * span) / shard.count);
      const rawEnd = dataStart + Math.floor(((shard.index + 1) * span) / shard.count);
      const s = nextRecordStart(fd, size, format, d, dataStart, dataStartLine, rawStart);
      start = s.pos;
      startLine = s.line;
      end = shard.index === shard.count - 1 ? size : nextRecordStart(fd, size, format, d, start, startLine, rawEnd).pos;
    }
    return { size, mtimeMs: st.mtimeMs, dataStart, dataStartLine, header, start, end, startLine };
  } finally {
    closeSync(fd);
  }
}

// ------------------------------------------------------------------------------------ the run

interface State {
  nextOffset: number;
  nextLine: number;
  outputBytes: number;
  statisticsBytes: number;
  records: number;
  blank: number;
  valid: number;
  badByCode: Record<string, number>;
  badSamples: BadRow[];
  invalidUtf8: { count: number; lines: number[] };
  sums: ColumnSums;
  /** Left-to-right float sums of sequential columns, in input order (the reference's summation). */
  sequential: Record<number, number>;
  nrefsMin: number;
  nrefsMax: number;
  elapsedMs: number;
  contentHash: string;
}

/** The running hash a checkpoint binds to: the CSV header, then every input byte scored, in order. */
function contentHasher(geometry: InputGeometry): Hash {
  return createHash("sha256").update(`evalkern-input-v1\0${JSON.stringify(geometry.header)}\0`);
}

/** Feed bytes [start, end) of `path` to `hash`. */
function hashFileRange(path: string, start: number, end: number, hash: Hash): void {
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(Math.min(READ_BLOCK, Math.max(1, end - start)));
    let pos = start;
    while (pos < end) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
      if (got === 0) break;
      hash.update(buf.subarray(0, got));
      pos += got;
    }
  } finally {
    closeSync(fd);
  }
}

function jobFingerprint(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

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
  const t0 = performance.now();
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("scoreFile(options): options must be an object", { argument: "options" });
  if (typeof options.input !== "string" || !options.input) throw new InvalidArgumentError("input must be a file path", { argument: "input" });
  if (typeof options.output !== "string" || !options.output) throw new InvalidArgumentError("output must be a file path", { argument: "output" });
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
  const specs = normalizeMetrics(options.metrics);
  const fields = resolveFields(options.fields);
  const shard = resolveShard(options.shard);
  const bootstrap = resolveBootstrap(options.bootstrap);
  const keepStatistics = options.keepStatistics ?? bootstrap !== null;
  if (bootstrap && !keepStatistics) throw new InvalidArgumentError("bootstrap needs keepStatistics (the per-row statistics file)", { argument: "keepStatistics" });
  // capped at the cores: more threads only cost memory (~11 MB each), and 1e9 aborts the process
  const workersRequested = checkPositiveInt(options.workers, "workers", defaultWorkers());
  const workers = Math.min(workersRequested, defaultWorkers());
  const strictUtf8 = options.strictUtf8 ?? false;
  if (typeof strictUtf8 !== "boolean") throw new InvalidArgumentError("strictUtf8 must be a boolean", { argument: "strictUtf8" });
  const maxRowBytes = checkPositiveInt(options.maxRowBytes, "maxRowBytes", DEFAULT_MAX_ROW_BYTES);
  if (maxRowBytes > MAX_RECORD_BYTES) throw new InvalidArgumentError(`maxRowBytes must be at most ${MAX_RECORD_BYTES}`, { argument: "maxRowBytes" });
  // a chunk holds whole records of at most chunkBytes: with chunkBytes ≤ maxRowBytes every longer record takes the refusal path
  const chunkBytes = Math.min(checkPositiveInt(options.chunkBytes, "chunkBytes", 512 << 10), maxRowBytes);
  const rowTimeoutMs = options.rowTimeoutMs ?? DEFAULT_ROW_TIMEOUT_MS;
  if (typeof rowTimeoutMs !== "number" || !(rowTimeoutMs >= 0) || !Number.isFinite(rowTimeoutMs)) {
    throw new InvalidArgumentError("rowTimeoutMs must be a finite number ≥ 0 (0: no budget)", { argument: "rowTimeoutMs" });
  }
  const window = checkPositiveInt(options.window, "window", 4 * workers);
  const checkpointMs = options.checkpointIntervalMs ?? 2000;
  if (typeof checkpointMs !== "number" || !(checkpointMs >= 0)) throw new InvalidArgumentError("checkpointIntervalMs must be ≥ 0", { argument: "checkpointIntervalMs" });
  if (!existsSync(input)) throw new InvalidArgumentError(`input file not found: ${input}`, { argument: "input" });

  const geometry = inputGeometry(input, format, delimiter, shard);
  const metrics = await mainThreadMetrics(specs);
  const rowsOut = resolveRowsOutput(options, output, specs, { path: input, format, header: geometry.header, start: geometry.start, end: geometry.end });
  const totalWidth = metrics.reduce((a, m) => a + m.width, 0);
  const rowWidth = 1 + totalWidth;
  const job = jobFingerprint({
    v: HARNESS_VERSION,
    input,
    size: geometry.size,
    mtimeMs: geometry.mtimeMs,
    format,
    delimiter,
    specs,
    fields,
    shard,
    keepStatistics,
    ...(rowsOut ? { rows: rowsOut.rows } : {}),
    ...(strictUtf8 ? { strictUtf8 } : {}),
  });

  const ckptPath = checkpointPath(output);
  const statsPath = statisticsPath(output);
  const sumPath = options.summary ? resolve(options.summary) : summaryPath(output);

  // ---- start fresh or resume
  let state: State = {
    nextOffset: geometry.start,
    nextLine: geometry.startLine,
    outputBytes: 0,
    statisticsBytes: 0,
    records: 0,
    blank: 0,
    valid: 0,
    badByCode: {},
    badSamples: [],
    invalidUtf8: { count: 0, lines: [] },
    sums: new ColumnSums(totalWidth),
    sequential: {},
    nrefsMin: Infinity,
    nrefsMax: 0,
    elapsedMs: 0,
    contentHash: "",
  };
  const hasher = contentHasher(geometry);
  state.contentHash = hasher.copy().digest("hex");
  let resumed = false;
  let complete = false;
  const previous = options.resume ? readJson<Checkpoint>(ckptPath) : undefined;
  if (previous) {
    if (previous.job !== job) {
      throw new ResumeMismatchError(
        `${ckptPath} belongs to a different job (input file, its size/mtime, format, metrics, fields, shard or statistics setting changed). Remove it or run without resume to start over.`,
      );
    }
    if (previous.version !== 2 || typeof previous.contentHash !== "string") {
      throw new ResumeMismatchError(`${ckptPath} was written by an older version of evalkern (no content hash); start over without resume`);
    }
    // bind to content, not to size and mtime: an in-place edit with a restored mtime is caught here
    hashFileRange(input, geometry.start, previous.nextOffset, hasher);
    if (hasher.copy().digest("hex") !== previous.contentHash) {
      throw new ResumeMismatchError(
        `${input} changed since the checkpoint: its first ${previous.nextOffset - geometry.start} scored bytes (to line ${previous.nextLine - 1}) differ from what was scored, although its size and modification time are the same (edited in place?). Start over without resume.`,
      );
    }
    for (const [path, bytes] of [[output, previous.outputBytes], ...(keepStatistics ? [[statsPath, previous.statisticsBytes]] : [])] as [string, number][]) {
      const size = existsSync(path) ? statSync(path).size : -1;
      if (size < bytes) throw new ResumeMismatchError(`${path} is shorter (${size} bytes) than its checkpoint says (${bytes}): it was modified or lost; start over without resume`);
    }
    state = {
      nextOffset: previous.nextOffset,
      nextLine: previous.nextLine,
      outputBytes: previous.outputBytes,
      statisticsBytes: previous.statisticsBytes,
      records: previous.records,
      blank: previous.blank,
      valid: previous.valid,
      badByCode: { ...previous.badByCode },
      badSamples: previous.badSamples.slice(),
      invalidUtf8: { count: previous.invalidUtf8?.count ?? 0, lines: previous.invalidUtf8?.lines.slice() ?? [] },
      sums: new ColumnSums(totalWidth, previous.partials),
      sequential: { ...previous.sequential },
      nrefsMin: previous.nrefsMin,
      nrefsMax: previous.nrefsMax,
      elapsedMs: previous.elapsedMs,
      contentHash: previous.contentHash,
    };
    resumed = true;
    complete = previous.complete;
  }

  options.signal?.throwIfAborted();
  const releaseLock = acquireLock(output); // a second run on this output fails here, at once
  let outFd = -1;
  let statsFd = -1;
  try {
    outFd = openFile(output, resumed ? "r+" : "w");
    statsFd = keepStatistics ? openFile(statsPath, resumed ? "r+" : "w") : -1;
  } catch (e) {
    if (outFd >= 0) closeSync(outFd);
    releaseLock();
    throw e;
  }
  if (!keepStatistics && !resumed) rmSync(statsPath, { force: true });
  let pool: WorkerPool | undefined;
  let maxInFlight = 0;
  let chunks = 0;
  try {
    // drop whatever was written after the checkpoint: those rows are scored again below
    truncateFile(outFd, state.outputBytes, output);
    if (statsFd >= 0) truncateFile(statsFd, state.statisticsBytes, statsPath);
    if (!resumed) rmSync(ckptPath, { force: true });
    if (!resumed && rowsOut?.header) {
      const header = new TextEncoder().encode(rowsOut.header);
      writeAt(outFd, header, 0, output);
      state.outputBytes = header.length;
    }

    const writeCheckpoint = (done: boolean): void => {
      syncFile(outFd, output);
      if (statsFd >= 0) syncFile(statsFd, statsPath);
      const ck: Checkpoint = {
        version: 2,
        job,
        nextOffset: state.nextOffset,
        contentHash: state.contentHash,
        nextLine: state.nextLine,
        outputBytes: state.outputBytes,
        statisticsBytes: state.statisticsBytes,
        records: state.records,
        blank: state.blank,
        valid: state.valid,
        badByCode: state.badByCode,
        badSamples: state.badSamples,
        invalidUtf8: state.invalidUtf8,
        partials: state.sums.partials,
        sequential: state.sequential,
        nrefsMin: state.nrefsMin,
        nrefsMax: state.nrefsMax,
        complete: done,
        elapsedMs: state.elapsedMs + (performance.now() - t0),
      };
      writeFileAtomic(ckptPath, JSON.stringify(ck));
    };

    if (!complete && state.nextOffset < geometry.end) {
      pool = createPool(workers, { metrics: specs, fields, jsonOutput: true, keepStatistics, positionKey: "line", rows: rowsOut?.rows, strictUtf8 });
      const progress = options.displayProgress ? createProgress({ total: (geometry.end - geometry.start) / 1e6, unit: "MB", format: (n) => n.toFixed(1) }) : undefined;
      let lastCheckpoint = performance.now();
      let failure: unknown;
      let inFlight = 0;
      let nextSeq = 0;
      let submitted = 0;
      const pending = new Map<number, { result: ChunkResult; endOffset: number; endLine: number; endHash: string }>();
      let wake: (() => void) | undefined;
      const signal = () => {
        const w = wake;
        wake = undefined;
        w?.();
      };
      let aborted: RunAbortedError | undefined;
      const onAbort = () => {
        aborted ??= new RunAbortedError(`scoring of ${input} was stopped (${String(options.signal?.reason ?? "aborted")}); rows written so far are checkpointed`);
        failure ??= aborted;
        signal();
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });

      const commit = (result: ChunkResult, endOffset: number, endLine: number, endHash: string): void => {
        if (result.output) {
          writeAt(outFd, result.output, state.outputBytes, output);
          state.outputBytes += result.output.length;
        }
        if (result.statistics && statsFd >= 0) {
          const bytes = new Uint8Array(result.statistics.buffer, result.statistics.byteOffset, result.statistics.byteLength);
          writeAt(statsFd, bytes, state.statisticsBytes, statsPath);
          state.statisticsBytes += bytes.length;
        }
        state.nextOffset = endOffset;
        state.nextLine = endLine;
        state.contentHash = endHash;
        state.records += result.records;
        state.blank += result.blank;
        state.valid += result.valid;
        for (const [code, n] of Object.entries(result.badByCode)) state.badByCode[code] = (state.badByCode[code] ?? 0) + n;
        for (const b of result.badSamples) if (state.badSamples.length < MAX_BAD_SAMPLES) state.badSamples.push(b);
        if (result.invalidUtf8) {
          state.invalidUtf8.count += result.invalidUtf8.count;
          for (const l of result.invalidUtf8.lines) if (state.invalidUtf8.lines.length < MAX_BAD_SAMPLES) state.invalidUtf8.lines.push(l);
        }
        state.sums.merge(result.partials);
        for (const [col, values] of Object.entries(result.sequential ?? {})) {
          let acc = state.sequential[Number(col)] ?? 0;
          for (const v of values) acc += v;
          state.sequential[Number(col)] = acc;
        }
        if (result.valid > 0) {
          state.nrefsMin = Math.min(state.nrefsMin, result.nrefsMin);
          state.nrefsMax = Math.max(state.nrefsMax, result.nrefsMax);
        }
        chunks++;
        progress?.update((endOffset - geometry.start) / 1e6);
        options.onProgress?.({ bytes: endOffset - geometry.start, totalBytes: geometry.end - geometry.start, records: state.records });
        if (performance.now() - lastCheckpoint >= checkpointMs) {
          writeCheckpoint(false);
          lastCheckpoint = performance.now();
        }
      };

      // ---- time budgets: a task's clock starts when a worker starts it (a shared stamp), not when queued
      const timed = new Set<{ readonly started: Float64Array; readonly budget: number; readonly controller: AbortController }>();
      let watchdog: NodeJS.Timeout | undefined;
      const tick = () => {
        const now = Date.now();
        for (const t of timed) if (t.started[0]! > 0 && now - t.started[0]! > t.budget) t.controller.abort(TIMED_OUT);
        if (timed.size === 0 && watchdog) {
          clearInterval(watchdog);
          watchdog = undefined;
        }
      };
      const runTimed = async (input: ChunkInput, transfer: ArrayBufferLike[], budget: number): Promise<ChunkResult> => {
        if (!(rowTimeoutMs > 0)) return pool!.run<ChunkResult>({ type: "chunk", input }, transfer);
        const started = new SharedArrayBuffer(8);
        const t = { started: new Float64Array(started), budget, controller: new AbortController() };
        timed.add(t);
        watchdog ??= setInterval(tick, Math.max(50, Math.min(1000, rowTimeoutMs / 4))).unref();
        try {
          return await pool!.run<ChunkResult>({ type: "chunk", input, started }, transfer, t.controller.signal);
        } catch (e) {
          throw t.controller.signal.aborted ? TIMED_OUT : e;
        } finally {
          timed.delete(t);
        }
      };
      const chunkInput = (bytes: Uint8Array, firstLine: number, presetErrors?: readonly PresetError[]): ChunkInput =>
        format === "jsonl"
          ? { kind: "jsonl", bytes, firstLine, ...(presetErrors ? { presetErrors } : {}) }
          : { kind: "csv", bytes, firstLine, header: geometry.header!, delimiter, ...(presetErrors ? { presetErrors } : {}) };
      /**
       * A chunk over its budget: re-read its bytes, run each record alone (fresh workers replace the
       * terminated ones) to find the rows over the row budget, then run the chunk again with those
       * rows reported as `row_timeout` instead of scored.
       */
      const recoverTimedOut = async (start: number, endOffset: number, firstLine: number, lines: number): Promise<ChunkResult> => {
        const bytes = readRange(input, start, endOffset);
        const d = delimiter.charCodeAt(0);
        const rows: { bytes: Uint8Array; line: number }[] = [];
        for (let off = 0, line = firstLine; off < bytes.length; ) {
          const r = scanRecord(bytes, off, bytes.length, format, d, Csv.FieldStart);
          const stop = r.end >= 0 ? r.end : bytes.length;
          rows.push({ bytes: bytes.slice(off, stop), line });
          line += r.end >= 0 ? r.lines : countNewlines(bytes, off, stop);
          off = stop;
        }
        const slow: PresetError[] = [];
        const message = `not scored within the time budget of ${rowTimeoutMs} ms per row (rowTimeoutMs)`;
        await Promise.all(
          rows.map(async (r) => {
            try {
              await runTimed(chunkInput(r.bytes, r.line), [r.bytes.buffer], rowTimeoutMs);
            } catch (e) {
              if (e !== TIMED_OUT) throw e;
              slow.push({ position: r.line, code: "row_timeout", message });
            }
          }),
        );
        slow.sort((a, b) => a.position - b.position);
        try {
          return await runTimed(chunkInput(bytes.slice(), firstLine, slow), [], rowTimeoutMs * (1 + lines / 1000));
        } catch (e) {
          if (e !== TIMED_OUT) throw e;
          // every row passed alone but not together: report the chunk's rows rather than stop the run
          const all = rows.filter((r) => new TextDecoder().decode(r.bytes).trim() !== "").map((r) => ({ position: r.line, code: "row_timeout" as const, message }));
          return runTimed({ kind: "errors", errors: all }, [], rowTimeoutMs);
        }
      };

      const submit = (bytes: Uint8Array, firstLine: number, endOffset: number, endLine: number, tooLarge?: { readonly bytes: number }): void => {
        const seq = submitted++;
        hasher.update(bytes); // in input order, before the bytes are transferred to a worker
        const endHash = hasher.copy().digest("hex");
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const lines = endLine - firstLine;
        const start = endOffset - bytes.length;
        const task: Promise<ChunkResult> = tooLarge
          ? runTimed(
              {
                kind: "errors",
                errors: [{ position: firstLine, code: "row_too_large", message: `the row is ${tooLarge.bytes} bytes, over maxRowBytes (${maxRowBytes}): not read or scored` }],
              },
              [],
              rowTimeoutMs,
            )
          : runTimed(chunkInput(bytes, firstLine), [bytes.buffer], rowTimeoutMs * (1 + lines / 1000)).catch((e: unknown) => {
              if (e !== TIMED_OUT) throw e;
              return recoverTimedOut(start, endOffset, firstLine, lines);
            });
        task
          .then((result) => {
            pending.set(seq, { result, endOffset, endLine, endHash });
            while (failure === undefined && pending.has(nextSeq)) {
              const p = pending.get(nextSeq)!;
              pending.delete(nextSeq);
              nextSeq++;
              try {
                commit(p.result, p.endOffset, p.endLine, p.endHash);
              } catch (e) {
                failure = e;
              }
              inFlight--;
            }
          })
          .catch((e: unknown) => {
            failure ??= e;
          })
          .finally(signal);
      };

      // ---- read and cut
      const fh = await open(input, "r");
      try {
        let pos = state.nextOffset;
        let line = state.nextLine;
        let carry = new Uint8Array(0);
        const end = geometry.end;
        // the rest of a record over maxRowBytes being skipped (hashed, never kept): its first line,
        // bytes and newlines so far, CSV quote state
        let skipping: { line: number; bytes: number; lines: number; state: Csv } | undefined;
        const EMPTY = new Uint8Array(0);
        while (failure === undefined && (pos < end || carry.length > 0)) {
          const want = Math.max(READ_BLOCK, 2 * chunkBytes);
          const data = new Uint8Array(carry.length + Math.min(want, end - pos));
          data.set(carry, 0);
          let filled = carry.length;
          while (filled < data.length) {
            const { bytesRead } = await fh.read(data, filled, data.length - filled, pos);
            if (bytesRead === 0) break;
            filled += bytesRead;
            pos += bytesRead;
          }
          const eof = pos >= end;
          const buf = data.subarray(0, filled);
          const bufStart = pos - filled; // absolute offset of buf[0]
          const d = delimiter.charCodeAt(0);
          let off = 0;
          if (skipping) {
            const r = scanRecord(buf, 0, buf.length, format, d, skipping.state);
            const stop = r.end >= 0 ? r.end : buf.length;
            hasher.update(buf.subarray(0, stop));
            skipping.bytes += stop;
            skipping.lines += r.end >= 0 ? r.lines : countNewlines(buf, 0, stop);
            skipping.state = r.state;
            if (r.end < 0 && !eof) {
              carry = EMPTY;
              continue;
            }
            while (inFlight >= window && failure === undefined) await new Promise<void>((r) => (wake = r));
            if (failure !== undefined) break;
            submit(EMPTY, skipping.line, bufStart + stop, skipping.line + skipping.lines, { bytes: skipping.bytes });
            line = skipping.line + skipping.lines;
            off = stop;
            skipping = undefined;
          }
          while (failure === undefined && off < buf.length) {
            // keep chunks full-size: read more first unless this is the end
            if (!eof && buf.length - off < chunkBytes) break;
            let cut: number;
            let lines: number;
            const last = lastRecordBoundary(buf, off, Math.min(off + chunkBytes, buf.length), format, d);
            if (last.end >= 0) ({ end: cut, lines } = last);
            else {
              // one record longer than a chunk: cut after it
              const first = firstRecordBoundary(buf, off, buf.length, format, d);
              if (first.end >= 0) ({ end: cut, lines } = first);
              else if (eof) {
                cut = buf.length; // the last record, without a trailing newline
                lines = countNewlines(buf, off, cut);
              } else if (buf.length - off > maxRowBytes) {
                // a record over maxRowBytes with no end in sight: skip the rest as it streams by
                const r = scanRecord(buf, off, buf.length, format, d, Csv.FieldStart);
                hasher.update(buf.subarray(off));
                skipping = { line, bytes: buf.length - off, lines: r.lines, state: r.state };
                off = buf.length;
                break;
              } else break; // need more bytes for a whole record
            }
            while (inFlight >= window && failure === undefined) await new Promise<void>((r) => (wake = r));
            if (failure !== undefined) break;
            if (cut - off > maxRowBytes) {
              // refused unread: only its line and size travel (its bytes are hashed for resume)
              hasher.update(buf.subarray(off, cut));
              submit(EMPTY, line, bufStart + cut, line + lines, { bytes: cut - off });
            } else submit(buf.slice(off, cut), line, bufStart + cut, line + lines); // slice: an own buffer to transfer
            line += lines;
            off = cut;
          }
          carry = buf.slice(off);
          if (eof && carry.length === 0) break;
        }
      } finally {
        await fh.close();
      }
      while (inFlight > 0 && failure === undefined) await new Promise<void>((r) => (wake = r));
      if (watchdog) clearInterval(watchdog);
      options.signal?.removeEventListener("abort", onAbort);
      if (failure !== undefined) {
        if (failure === aborted) writeCheckpoint(false); // every committed row, so resume loses none
        throw failure;
      }
      progress?.finish();
    }
    if (!complete) writeCheckpoint(true);
    state.elapsedMs += performance.now() - t0;

    // ---- corpus results
    await ready();
    const nrefs = nrefsLabel(state.nrefsMin === Infinity ? 0 : state.nrefsMin, state.nrefsMax);
    const metricSummaries = summarizeMetrics(metrics, state.sums.partials, state.valid, nrefs, state.sequential);
    if (bootstrap && state.valid > 0) {
      pool ??= createPool(workers, { metrics: specs, fields, jsonOutput: true, keepStatistics, positionKey: "line", rows: rowsOut?.rows });
      fsyncSync(statsFd);
      const onPhase = options.onPhaseProgress;
      onPhase?.({ phase: "bootstrap", done: 0, total: bootstrap.resamples });
      const ci = await bootstrapFromFiles(metrics, [statsPath], rowWidth, state.valid, bootstrap, pool, onPhase ? (done, total) => onPhase({ phase: "bootstrap", done, total }) : undefined);
      for (const m of metrics) (metricSummaries[m.spec.name] as { ci?: unknown }).ci = ci[m.spec.name]!;
    }
    const summary: ScoreSummary = {
      version: 1,
      job,
      input,
      output,
      format,
      shard,
      rows: {
        records: state.records,
        scored: state.valid,
        bad: state.records - state.valid,
        blank: state.blank,
        badByCode: state.badByCode,
        badSamples: state.badSamples,
        invalidUtf8: state.invalidUtf8,
      },
      nrefs: { min: state.nrefsMin === Infinity ? 0 : state.nrefsMin, max: state.nrefsMax },
      metrics: metricSummaries,
      metricSpecs: specs,
      partials: state.sums.partials,
      ...(Object.keys(state.sequential).length > 0 ? { sequential: state.sequential } : {}),
      fields,
      statistics: keepStatistics ? { files: [statsPath], rowWidth } : null,
      resumed,
      elapsedMs: state.elapsedMs,
      workers,
      diagnostics: { chunks, window, maxInFlight, ...(workersRequested > workers ? { workersRequested } : {}) },
    };
    writeFileAtomic(sumPath, `${JSON.stringify(summary, null, 2)}\n`);
    return summary;
  } finally {
    closeSync(outFd);
    if (statsFd >= 0) closeSync(statsFd);
    await pool?.destroy();
    releaseLock();
  }
}

export type { ResolvedFields };
