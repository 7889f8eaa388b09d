// Stage 3 of `scoreFile`: start fresh or restore a checkpoint, and the files of a run.
//
// Crash safety: output (and statistics) files are append-only; every `checkpointIntervalMs` the main
// thread fsyncs them and atomically replaces a checkpoint recording the input offset, the line number,
// the byte lengths of the outputs and the exact running sums. `resume` truncates the outputs back to
// the checkpoint's lengths and continues from its input offset: rows after the checkpoint are scored
// again and written once; rows before it are never rewritten. A checkpoint is bound to the job (its
// fingerprint) and to the content of the input it covers (a running sha256, re-hashed on resume).
//
// What resume reads is checksummed: the checkpoint carries a sha256 of its own text (a truncated or
// edited checkpoint is refused), and running sha256s of the output and statistics bytes committed so
// far, fed as chunks are appended (no re-read while scoring); resume re-hashes those prefixes once, as it
// does the input's, and refuses a file that no longer matches, naming it (`ResumeDamagedError`).
import { createHash, type Hash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from "node:fs";
import { ResumeDamagedError, ResumeMismatchError } from "../errors.js";
import type { ChunkResult } from "../bulk/chunk.js";
import { RunTally, type TallyJson } from "../bulk/tally.js";
import { acquireLock, fileSystemError, openFile, syncFile, truncateFile, writeAt, writeFileAtomic } from "./files.js";
import { READ_BLOCK, type InputGeometry } from "./geometry.js";

const CHECKPOINT_VERSION = 3;

/** A checkpoint: where the run is, then its tally's members (`RunTally.toJSON`), then whether it is done. */
interface Checkpoint extends TallyJson {
  readonly version: typeof CHECKPOINT_VERSION;
  readonly job: string;
  /** What the fingerprint `job` was computed from: on a mismatch, the settings that changed are named. */
  readonly jobParts?: Record<string, unknown>;
  readonly nextOffset: number;
  /** sha256 of the CSV header and the input bytes [shard start, nextOffset): resume re-hashes them. */
  readonly contentHash: string;
  readonly nextLine: number;
  readonly outputBytes: number;
  readonly statisticsBytes: number;
  /** sha256 of the output's bytes [0, outputBytes) and of the statistics file's [0, statisticsBytes). */
  readonly outputHash: string;
  readonly statisticsHash: string;
  readonly complete: boolean;
  readonly elapsedMs: number;
}

/** The running state of a run: where scoring goes on in the input and outputs, and the totals so far. */
export interface State {
  nextOffset: number;
  nextLine: number;
  outputBytes: number;
  statisticsBytes: number;
  /** The totals of the rows committed so far. */
  tally: RunTally;
  elapsedMs: number;
  contentHash: string;
}

/** The running hash a checkpoint binds to: the CSV header, then every input byte scored, in order. */
export function contentHasher(geometry: InputGeometry): Hash {
  return createHash("sha256").update(`evalkern-input-v1\0${JSON.stringify(geometry.header)}\0`);
}

/**
 * The checkpoint's text: its JSON with a last member `"checksum"`, the sha256 of the JSON without it
 * (`{…}` as written, so the check needs no re-serialisation).
 */
export function checkpointText(ck: object): string {
  const body = JSON.stringify(ck);
  return `${body.slice(0, -1)},"checksum":"${createHash("sha256").update(body).digest("hex")}"}`;
}

const CHECKSUM_TAIL = /,"checksum":"([0-9a-f]{64})"\}$/;

/**
 * Read the checkpoint at `path` (undefined when there is none). A checkpoint that is not JSON (cut
 * short) or whose text does not match its checksum is `ResumeDamagedError`; one of an older version
 * (no checksum) is `ResumeMismatchError`.
 */
export function readCheckpoint(path: string): Checkpoint | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw fileSystemError(e, "read", path);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ResumeDamagedError(`${path} is damaged (truncated or edited: ${(e as Error).message}); start over without resume`, path);
  }
  const version = typeof parsed === "object" && parsed !== null ? (parsed as { version?: unknown }).version : undefined;
  if (typeof version === "number" && version < CHECKPOINT_VERSION) {
    throw new ResumeMismatchError(`${path} was written by an older version of evalkern (no checksums); start over without resume`);
  }
  const tail = CHECKSUM_TAIL.exec(text);
  const body = tail ? `${text.slice(0, tail.index)}}` : "";
  if (!tail || version !== CHECKPOINT_VERSION || createHash("sha256").update(body).digest("hex") !== tail[1]) {
    const why = "its content does not match its checksum (edited or partly written)";
    throw new ResumeDamagedError(`${path} is damaged: ${why}; start over without resume`, path);
  }
  return parsed as Checkpoint;
}

/** The job fingerprint of the checkpoint at `path`, or undefined when there is none (a damaged one throws). */
export function checkpointJob(path: string): string | undefined {
  return readCheckpoint(path)?.job;
}

/** The top-level settings that differ between two fingerprints' parts (for the mismatch message). */
function changedSettings(before: Record<string, unknown> | undefined, now: Record<string, unknown>): string[] {
  if (!before) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]));
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

/**
 * The content hash a finished run of `geometry` records (`ScoreSummary.contentHash`): the CSV header and
 * every input byte of its range, as the pipeline hashes them while scoring. Reads the whole range.
 */
export function inputContentHash(input: string, geometry: InputGeometry): string {
  const hash = contentHasher(geometry);
  hashFileRange(input, geometry.start, geometry.end, hash);
  return hash.digest("hex");
}

/** A run's starting point: a fresh state, or the one restored from a checkpoint of the same job. */
export interface RunStart {
  readonly state: State;
  /** The content hash of the input up to `state.nextOffset`, to be continued by the pipeline. */
  readonly hasher: Hash;
  /** Running hashes of the output and statistics bytes up to the state's lengths, continued by `RunFiles`. */
  readonly outputHasher: Hash;
  readonly statisticsHasher: Hash;
  readonly resumed: boolean;
  /** The checkpoint says the scoring is complete: only the corpus results and summary are left. */
  readonly complete: boolean;
}

/**
 * The hash of bytes [0, bytes) of a partial output or statistics file, checked against the checkpoint's;
 * returns the hasher to continue. A file shorter than that or with other bytes is refused by name.
 */
function verifiedPrefix(path: string, bytes: number, expected: string): Hash {
  const size = existsSync(path) ? statSync(path).size : -1;
  if (size < bytes) {
    const why = `shorter (${size} bytes) than its checkpoint says (${bytes}): it was modified or lost`;
    throw new ResumeDamagedError(`${path} is ${why}; start over without resume`, path);
  }
  const hash = createHash("sha256");
  hashFileRange(path, 0, bytes, hash);
  if (hash.copy().digest("hex") !== expected) {
    const why = `its first ${bytes} bytes differ from what was written (edited?)`;
    throw new ResumeDamagedError(`${path} was modified since its checkpoint: ${why}; start over without resume`, path);
  }
  return hash;
}

/**
 * Start fresh, or (with `resume` and a checkpoint at `ckptPath`) restore the checkpoint after checking it
 * is intact (`ResumeDamagedError`), belongs to this job and that the input bytes it covers hash to what
 * was scored (`ResumeMismatchError`), and that the output and statistics bytes it covers are the ones
 * written (`ResumeDamagedError`).
 */
export function startOrRestore(o: {
  readonly resume: boolean | undefined;
  readonly job: string;
  readonly jobParts: Record<string, unknown>;
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
    tally: new RunTally(totalWidth),
    elapsedMs: 0,
    contentHash: "",
  };
  const hasher = contentHasher(geometry);
  state.contentHash = hasher.copy().digest("hex");
  let outputHasher = createHash("sha256");
  let statisticsHasher = createHash("sha256");
  let resumed = false;
  let complete = false;
  const previous = o.resume ? readCheckpoint(ckptPath) : undefined;
  if (previous) {
    if (previous.job !== job) {
      const changed = changedSettings(previous.jobParts, o.jobParts);
      const what =
        changed.length > 0
          ? `changed: ${changed.join(", ")}`
          : "input file, its size/mtime, format, metrics, fields, shard, row limits or statistics setting changed";
      throw new ResumeMismatchError(`${ckptPath} belongs to a different job (${what}). Remove it or run without resume to start over.`);
    }
    // bind to content, not to size and mtime: an in-place edit with a restored mtime is caught here
    hashFileRange(input, geometry.start, previous.nextOffset, hasher);
    if (hasher.copy().digest("hex") !== previous.contentHash) {
      throw new ResumeMismatchError(
        `${input} changed since the checkpoint: its first ${previous.nextOffset - geometry.start} scored bytes (to line ` +
          `${previous.nextLine - 1}) differ from what was scored, although its size and modification time are the same ` +
          `(edited in place?). Start over ` +
          `without resume.`,
      );
    }
    outputHasher = verifiedPrefix(output, previous.outputBytes, previous.outputHash);
    if (keepStatistics) statisticsHasher = verifiedPrefix(statsPath, previous.statisticsBytes, previous.statisticsHash);
    state = {
      nextOffset: previous.nextOffset,
      nextLine: previous.nextLine,
      outputBytes: previous.outputBytes,
      statisticsBytes: previous.statisticsBytes,
      tally: RunTally.fromJSON(totalWidth, previous),
      elapsedMs: previous.elapsedMs,
      contentHash: previous.contentHash,
    };
    resumed = true;
    complete = previous.complete;
  }
  return { state, hasher, outputHasher, statisticsHasher, resumed, complete };
}

interface RunFilesOptions {
  readonly output: string;
  readonly statsPath: string;
  readonly ckptPath: string;
  readonly job: string;
  readonly jobParts: Record<string, unknown>;
  readonly resumed: boolean;
  readonly keepStatistics: boolean;
  readonly t0: number;
  /** The running hashes of what the files hold (from `startOrRestore`), fed as bytes are written. */
  readonly outputHasher: Hash;
  readonly statisticsHasher: Hash;
}

/**
 * The files of one run, held from `open` to `close`/`release`: the output lock, the output and
 * statistics files (appended to in input order) and the checkpoint.
 */
export class RunFiles {
  /** Called after each checkpoint is written (the queue producer drops the chunk results it covers). */
  onCheckpoint: ((state: Readonly<State>) => void) | undefined;

  private constructor(
    private readonly o: RunFilesOptions,
    readonly outFd: number,
    /** -1 without statistics. */
    readonly statsFd: number,
    private readonly releaseLock: () => void,
  ) {}

  /** Take the output's lock (a second run on this output fails here, at once) and open the files. */
  static open(o: RunFilesOptions): RunFiles {
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
      this.o.outputHasher.update(header);
      state.outputBytes = header.length;
    }
  }

  /** Append a chunk's output and statistics rows at the state's lengths. */
  append(state: State, result: ChunkResult): void {
    const { output, statsPath } = this.o;
    const { outFd, statsFd } = this;
    if (result.output) {
      writeAt(outFd, result.output, state.outputBytes, output);
      this.o.outputHasher.update(result.output);
      state.outputBytes += result.output.length;
    }
    if (result.statistics && statsFd >= 0) {
      const bytes = new Uint8Array(result.statistics.buffer, result.statistics.byteOffset, result.statistics.byteLength);
      writeAt(statsFd, bytes, state.statisticsBytes, statsPath);
      this.o.statisticsHasher.update(bytes);
      state.statisticsBytes += bytes.length;
    }
  }

  /** Fsync the outputs, then atomically replace the checkpoint with `state` (`done`: scoring is complete). */
  writeCheckpoint(state: State, done: boolean): void {
    const { output, statsPath, ckptPath, job, jobParts, t0 } = this.o;
    const { outFd, statsFd } = this;
    syncFile(outFd, output);
    if (statsFd >= 0) syncFile(statsFd, statsPath);
    const ck: Checkpoint = {
      version: CHECKPOINT_VERSION,
      job,
      jobParts,
      nextOffset: state.nextOffset,
      contentHash: state.contentHash,
      nextLine: state.nextLine,
      outputBytes: state.outputBytes,
      statisticsBytes: state.statisticsBytes,
      outputHash: this.o.outputHasher.copy().digest("hex"),
      statisticsHash: this.o.statisticsHasher.copy().digest("hex"),
      ...state.tally.toJSON(),
      complete: done,
      elapsedMs: state.elapsedMs + (performance.now() - t0),
    };
    writeFileAtomic(ckptPath, checkpointText(ck));
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
