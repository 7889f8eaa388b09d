// Stage 3 of `scoreFile`: start fresh or restore a checkpoint, and the files of a run.
//
// Crash safety: output (and statistics) files are append-only; every `checkpointIntervalMs` the main
// thread fsyncs them and atomically replaces a checkpoint recording the input offset, the line number,
// the byte lengths of the outputs and the exact running sums. `resume` truncates the outputs back to
// the checkpoint's lengths and continues from its input offset: rows after the checkpoint are scored
// again and written once; rows before it are never rewritten. A checkpoint is bound to the job (its
// fingerprint) and to the content of the input it covers (a running sha256, re-hashed on resume).
import { createHash, type Hash } from "node:crypto";
import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { ResumeMismatchError } from "../errors.js";
import type { BadRow, ChunkResult } from "../bulk/chunk.js";
import { ColumnSums } from "../bulk/fsum.js";
import { acquireLock, openFile, readJson, syncFile, truncateFile, writeAt, writeFileAtomic } from "./files.js";
import { READ_BLOCK, type InputGeometry } from "./geometry.js";

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

/** The running state of a run: where scoring goes on in the input and outputs, and the totals so far. */
export interface State {
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
export function contentHasher(geometry: InputGeometry): Hash {
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

/** A run's starting point: a fresh state, or the one restored from a checkpoint of the same job. */
export interface RunStart {
  readonly state: State;
  /** The content hash of the input up to `state.nextOffset`, to be continued by the pipeline. */
  readonly hasher: Hash;
  readonly resumed: boolean;
  /** The checkpoint says the scoring is complete: only the corpus results and summary are left. */
  readonly complete: boolean;
}

/**
 * Start fresh, or (with `resume` and a checkpoint at `ckptPath`) restore the checkpoint after checking it
 * belongs to this job, that the input bytes it covers hash to what was scored and that the outputs
 * are at least as long as it says; `ResumeMismatchError` when not.
 */
export function startOrRestore(o: {
  readonly resume: boolean | undefined;
  readonly job: string;
  readonly ckptPath: string;
  readonly input: string;
  readonly output: string;
  readonly statsPath: string;
  readonly keepStatistics: boolean;
  readonly geometry: InputGeometry;
  readonly totalWidth: number;
}): RunStart {
  const { job, ckptPath, input, output, statsPath, keepStatistics, geometry, totalWidth } = o;
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
  const previous = o.resume ? readJson<Checkpoint>(ckptPath) : undefined;
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
  return { state, hasher, resumed, complete };
}

/**
 * The files of one run, held from `open` to `close`/`release`: the output lock, the output and
 * statistics files (appended to in input order) and the checkpoint.
 */
export class RunFiles {
  /** Called after each checkpoint is written (the queue producer drops the chunk results it covers). */
  onCheckpoint: ((state: Readonly<State>) => void) | undefined;

  private constructor(
    private readonly o: { readonly output: string; readonly statsPath: string; readonly ckptPath: string; readonly job: string; readonly resumed: boolean; readonly t0: number },
    readonly outFd: number,
    /** -1 without statistics. */
    readonly statsFd: number,
    private readonly releaseLock: () => void,
  ) {}

  /** Take the output's lock (a second run on this output fails here, at once) and open the files. */
  static open(o: { readonly output: string; readonly statsPath: string; readonly ckptPath: string; readonly job: string; readonly resumed: boolean; readonly keepStatistics: boolean; readonly t0: number }): RunFiles {
    const { output, statsPath, resumed, keepStatistics } = o;
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
    return new RunFiles(o, outFd, statsFd, releaseLock);
  }

  /** Drop whatever was written after the checkpoint (those rows are scored again); a fresh run writes `header` first. */
  rewind(state: State, rowsHeader: string | undefined): void {
    const { output, statsPath, ckptPath, resumed } = this.o;
    const { outFd, statsFd } = this;
    truncateFile(outFd, state.outputBytes, output);
    if (statsFd >= 0) truncateFile(statsFd, state.statisticsBytes, statsPath);
    if (!resumed) rmSync(ckptPath, { force: true });
    if (!resumed && rowsHeader) {
      const header = new TextEncoder().encode(rowsHeader);
      writeAt(outFd, header, 0, output);
      state.outputBytes = header.length;
    }
  }

  /** Append a chunk's output and statistics rows at the state's lengths. */
  append(state: State, result: ChunkResult): void {
    const { output, statsPath } = this.o;
    const { outFd, statsFd } = this;
    if (result.output) {
      writeAt(outFd, result.output, state.outputBytes, output);
      state.outputBytes += result.output.length;
    }
    if (result.statistics && statsFd >= 0) {
      const bytes = new Uint8Array(result.statistics.buffer, result.statistics.byteOffset, result.statistics.byteLength);
      writeAt(statsFd, bytes, state.statisticsBytes, statsPath);
      state.statisticsBytes += bytes.length;
    }
  }

  /** Fsync the outputs, then atomically replace the checkpoint with `state` (`done`: scoring is complete). */
  writeCheckpoint(state: State, done: boolean): void {
    const { output, statsPath, ckptPath, job, t0 } = this.o;
    const { outFd, statsFd } = this;
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
    this.onCheckpoint?.(state);
  }

  /** Close the output and statistics files. */
  close(): void {
    closeSync(this.outFd);
    if (this.statsFd >= 0) closeSync(this.statsFd);
  }

  /** Release the output's lock. */
  release(): void {
    this.releaseLock();
  }
}
