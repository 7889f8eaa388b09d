// Typed errors of @evalkern/harness. They share core-wasm's base (`EvalkernError`: a `Symbol.for`
// marker, so `isInstance` works across duplicate package copies).
import { EvalkernError, InvalidArgumentError } from "@evalkern/core-wasm";

export { EvalkernError, InvalidArgumentError };

/** An option DSPy removed was passed; the message says what to use instead. */
export class MigrationError extends EvalkernError {
  override name = "MigrationError";
  override readonly code: string = "MIGRATION";
  readonly option: string;
  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/** One failed example, program call or metric call, kept on its row instead of being lost. */
export interface RowFailure {
  /** Position in the dev set. */
  readonly index: number;
  /** Where it failed: the program, or the metric (threw, or returned nothing / not a score). */
  readonly stage: "program" | "metric";
  readonly error: unknown;
}

/** `Evaluate` stopped because `maxErrors` failures were reached. */
export class MaxErrorsExceededError extends EvalkernError {
  override name = "MaxErrorsExceededError";
  override readonly code: string = "MAX_ERRORS_EXCEEDED";
  readonly maxErrors: number;
  readonly failures: readonly RowFailure[];
  constructor(maxErrors: number, failures: readonly RowFailure[]) {
    const first = failures[0];
    const why = first ? ` First failure (example ${first.index}, ${first.stage}): ${errorMessage(first.error)}` : "";
    super(`Evaluation stopped: ${failures.length} failure(s) reached maxErrors (${maxErrors}).${why}`);
    this.maxErrors = maxErrors;
    this.failures = failures;
  }
}

/** A metric returned null/undefined or something that is not a score. */
export class MetricResultError extends EvalkernError {
  override name = "MetricResultError";
  override readonly code: string = "METRIC_RESULT";
  readonly value: unknown;
  constructor(message: string, value: unknown) {
    super(message);
    this.value = value;
  }
}

/** An OpenAI-compatible endpoint failed (HTTP error after retries, or a malformed body). */
export class EndpointError extends EvalkernError {
  override name = "EndpointError";
  override readonly code: string = "ENDPOINT";
  /** HTTP status, when there was a response. */
  readonly status: number | undefined;
  readonly url: string;
  constructor(message: string, url: string, status?: number) {
    super(message);
    this.url = url;
    this.status = status;
  }
}

/** A remote resource (an `hf://` dataset) is unreachable: no network access from here. */
export class NoNetworkError extends EvalkernError {
  override name = "NoNetworkError";
  override readonly code: string = "NO_NETWORK";
  readonly url: string;
  constructor(message: string, url: string) {
    super(message);
    this.url = url;
  }
}

/** A checkpoint exists but was written by a different job (input, metrics, fields or shard differ). */
export class ResumeMismatchError extends EvalkernError {
  override name = "ResumeMismatchError";
  override readonly code: string = "RESUME_MISMATCH";
}

/**
 * `resume` found a file it restores from damaged or edited since it was written: a checkpoint that is
 * truncated or whose checksum does not match, or a partial output or statistics file whose bytes no
 * longer hash to what the checkpoint recorded. Names the file; start over without resume.
 */
export class ResumeDamagedError extends EvalkernError {
  override name = "ResumeDamagedError";
  override readonly code: string = "RESUME_DAMAGED";
  /** The damaged file. */
  readonly path: string;
  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}

/**
 * A CSV/TSV header names a column used as a field (hypothesis, references or id) more than once.
 * Pick one occurrence as `name#n` (the n-th column of that name, from 1), or rename the columns.
 */
export class AmbiguousColumnError extends EvalkernError {
  override name = "AmbiguousColumnError";
  override readonly code: string = "AMBIGUOUS_COLUMN";
  /** The repeated header name. */
  readonly column: string;
  /** Its 1-based column positions. */
  readonly positions: readonly number[];
  constructor(message: string, column: string, positions: readonly number[]) {
    super(message);
    this.column = column;
    this.positions = positions;
  }
}

/**
 * A file or directory could not be created, opened, written, synced or renamed: no space left, no
 * permission, a read-only or special file system (`/proc`), a missing folder. The run stops at once;
 * a bulk run keeps its last checkpoint, so `resume` continues once the cause is fixed.
 */
export class FileSystemError extends EvalkernError {
  override name = "FileSystemError";
  override readonly code: string = "FILE_SYSTEM";
  /** The operating system's error code: `ENOSPC`, `EACCES`, `EROFS`, `ENOENT`, `ENOTDIR`, ... */
  readonly osCode: string;
  /** The file or directory at fault. */
  readonly path: string;
  /** What was attempted, in words ("create directory", "open for writing", "write", ...). */
  readonly operation: string;
  constructor(message: string, context: { readonly osCode: string; readonly path: string; readonly operation: string }) {
    super(message);
    this.osCode = context.osCode;
    this.path = context.path;
    this.operation = context.operation;
  }
}

/** Another live process is writing the same output (it holds `<output>.lock`). */
export class OutputLockedError extends EvalkernError {
  override name = "OutputLockedError";
  override readonly code: string = "OUTPUT_LOCKED";
  /** The output that is held. */
  readonly path: string;
  /** Process id of the holder. */
  readonly pid: number;
  constructor(message: string, context: { readonly path: string; readonly pid: number }) {
    super(message);
    this.path = context.path;
    this.pid = context.pid;
  }
}

/** A bulk run was stopped through its `signal` (SIGINT/SIGTERM in the CLI); its checkpoint is kept. */
export class RunAbortedError extends EvalkernError {
  override name = "RunAbortedError";
  override readonly code: string = "RUN_ABORTED";
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** One failed metric of `assertTest`, as listed in its message. */
export interface FailedMetric {
  readonly name: string;
  readonly score: number | null;
  readonly threshold: number | null;
  readonly strictMode: boolean;
  readonly reason: string | null;
  readonly error: string | null;
}

/**
 * `assertTest` found failed metrics (DeepEval's `AssertionError`): the message lists each with its
 * score, threshold and reason (or error). An `Error`, so vitest and jest report it as a test failure.
 */
export class MetricAssertionError extends EvalkernError {
  override name = "MetricAssertionError";
  override readonly code: string = "METRIC_ASSERTION";
  readonly failed: readonly FailedMetric[];
  /** The full per-metric results of the test case (`evaluate`'s `TestResult`). */
  readonly result: unknown;
  constructor(message: string, failed: readonly FailedMetric[], result: unknown) {
    super(message);
    this.failed = failed;
    this.result = result;
  }
}

/** A dataset file (JSON, JSONL, CSV) could not be read as goldens; names the file and the line or row. */
export class DatasetError extends EvalkernError {
  override name = "DatasetError";
  override readonly code: string = "DATASET";
  readonly path: string | null;
  /** 1-based line (JSONL) or data row (CSV, JSON array index + 1), when one row is at fault. */
  readonly row: number | null;
  constructor(message: string, options: { path?: string | null; row?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path ?? null;
    this.row = options.row ?? null;
  }
}

/**
 * The BullMQ/Redis queue of a distributed run (`scoreFileDistributed`, `runWorker`) could not be reached,
 * or was lost for longer than allowed. The URL in the message has its password removed. Rows committed
 * before are checkpointed: rerun with the same job name to resume.
 */
export class QueueConnectionError extends EvalkernError {
  override name = "QueueConnectionError";
  override readonly code: string = "QUEUE_CONNECTION";
  /** The queue URL without its password. */
  readonly url: string;
  constructor(message: string, url: string) {
    super(message);
    this.url = url;
  }
}

/**
 * `@evalkern/harness/queue` needs the queue engine, `bullmq` and `ioredis`, which are optional peer
 * dependencies of the harness (they are not installed for users who never run on a cluster). The message
 * says what to install. The evalkern CLI package depends on both, so `evalkern score --queue` / `evalkern worker`
 * work out of the box.
 */
export class QueueEngineNotInstalledError extends EvalkernError {
  override name = "QueueEngineNotInstalledError";
  override readonly code: string = "QUEUE_ENGINE_NOT_INSTALLED";
  /** The missing packages. */
  readonly packages: readonly string[];
  constructor(packages: readonly string[], options?: { cause?: unknown }) {
    super(
      `distributed scoring needs ${packages.join(" and ")}, optional peer dependencies of @evalkern/harness: install them with ` +
        `\`npm i bullmq@^6.7.0 ioredis@^6.0.0\``,
      options,
    );
    this.packages = packages;
  }
}

/**
 * A chunk of a distributed run failed on every attempt (a "poison" chunk: it crashed or stalled its
 * workers, or exceeded its time budget, `attempts` times). Names the chunk's input lines.
 */
export class ChunkFailedError extends EvalkernError {
  override name = "ChunkFailedError";
  override readonly code: string = "CHUNK_FAILED";
  /** First and last input line of the chunk (1-based, inclusive). */
  readonly lines: readonly [number, number];
  readonly attempts: number;
  /** The last failure, as the worker or the queue reported it. */
  readonly reason: string;
  constructor(message: string, o: { readonly lines: readonly [number, number]; readonly attempts: number; readonly reason: string }) {
    super(message);
    this.lines = o.lines;
    this.attempts = o.attempts;
    this.reason = o.reason;
  }
}

/**
 * A queue worker refused a job: it named a metric that is not a built-in registry metric, a plug-in
 * module, invalid options, or was malformed. Workers run only built-in metrics; no code travels
 * through the queue.
 */
export class QueueJobRejectedError extends EvalkernError {
  override name = "QueueJobRejectedError";
  override readonly code: string = "QUEUE_JOB_REJECTED";
}

/**
 * Parallel plain-text files (one hypothesis file, one file per reference, a segment per line) do not
 * have the same number of lines. Names every file with its line count.
 */
export class LineCountMismatchError extends EvalkernError {
  override name = "LineCountMismatchError";
  override readonly code: string = "LINE_COUNT_MISMATCH";
  /** Each file (as named by the caller) with its number of lines, hypothesis first. */
  readonly counts: readonly { readonly name: string; readonly lines: number }[];
  constructor(message: string, counts: readonly { readonly name: string; readonly lines: number }[]) {
    super(message);
    this.counts = counts;
  }
}

/** A suite file (`evalkern test`) that cannot be run as written: bad YAML/JSON, an unknown assertion type, a missing var... */
export class SuiteError extends EvalkernError {
  override name = "SuiteError";
  override readonly code: string = "SUITE_INVALID";
  /** Where in the suite (`evals.yaml tests[2].assert[0]`). */
  readonly where: string;
  constructor(where: string, message: string) {
    super(`${where}: ${message}`);
    this.where = where;
  }
}
