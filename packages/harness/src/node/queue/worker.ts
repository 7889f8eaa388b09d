// A queue worker of a distributed run: takes chunk jobs from the BullMQ queue and scores each with the
// same per-chunk code as a local `scoreFile` (the worker-thread pool of `pool.ts` running `scoreChunk`),
// returning the chunk's output bytes, statistics rows and exact sums through the queue. It needs no
// shared file system: the chunk's bytes are in the job.
//
// Only built-in registry metrics run: every job's metric specs are normalized again here and must come
// out unchanged (names, options), plug-in modules are refused unless they name a registry rule, and the
// row settings must be what the specs give. No code travels through the queue.
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { Job } from "bullmq";
import { loadQueueEngine } from "./engine.js";
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { ruleForModule } from "@evalkern/metrics/registry";
import type { ChunkInput, ChunkResult } from "../../bulk/chunk.js";
import { normalizeMetrics, stableJson, type MetricSpec, type NormalizedMetric } from "../../bulk/metrics.js";
import { resolveFields } from "../../bulk/records.js";
import { rowsOutput } from "../../bulk/rows.js";
import { QueueConnectionError, QueueJobRejectedError } from "../../errors.js";
import { createPool, defaultWorkers, type WorkerPool } from "../pool.js";
import type { WorkerConfig } from "../worker.js";
import { DEFAULT_PREFIX, DEFAULT_QUEUE_NAME, decodeInput, encodeResult, parseQueueUrl, safeMessage, sha256Hex, type ChunkJobData, type RemoteConfig, type SharedRange, type WireInput } from "./wire.js";
import { readRange } from "../geometry.js";

export interface RunWorkerOptions {
  /** The queue: `redis://[:password@]host[:port][/db]` or `rediss://…`. The password is never logged. */
  readonly queue: string;
  /** BullMQ queue name (default "evalkern"). */
  readonly queueName?: string;
  /** Redis key prefix (default "bull"). */
  readonly prefix?: string;
  /** Chunks scored at once, each on its own worker thread (default: available cores). */
  readonly concurrency?: number;
  /**
   * A chunk's lock in Redis (default 30 000 ms, renewed every half of it while the chunk is scored). A
   * worker that dies loses its lock; the chunk is then given to another worker (BullMQ's stalled jobs).
   */
  readonly lockDurationMs?: number;
  /** How often this worker looks for stalled chunks of dead workers (default 30 000 ms). */
  readonly stalledIntervalMs?: number;
  /** Times a chunk may stall (its worker died) before it fails as a poison chunk (default 1). */
  readonly maxStalledCount?: number;
  /** Called before each chunk is scored (logging; tests use it to crash a worker on purpose). */
  readonly beforeChunk?: (chunk: { readonly run: string; readonly lines: readonly [number, number]; readonly attempt: number }) => void | Promise<void>;
  /** Lines about the worker (connected, chunks refused or failed), the password removed. */
  readonly log?: (line: string) => void;
  /**
   * Directories whose files this worker may read when a producer sends byte ranges of a shared input
   * (`sharedInput`) instead of bytes (default: none, such jobs are refused). Paths are resolved
   * (symlinks too) before the check.
   */
  readonly sharedInputDirs?: readonly string[];
}

export interface QueueWorker {
  /** Chunks scored by this worker so far. */
  readonly scored: () => number;
  /** Finish the chunks being scored, then disconnect. */
  close(): Promise<void>;
}

/** Canonical JSON of plain data as it travels (undefined members dropped), for comparisons. */
const canon = (v: unknown): string => stableJson(JSON.parse(JSON.stringify(v ?? null)) as unknown);

/** bullmq's `UnrecoverableError` (a job that fails at once, without retries), once the engine is loaded. */
let Unrecoverable: new (message: string) => Error = Error;

function reject(message: string): never {
  throw new Unrecoverable(new QueueJobRejectedError(`job refused: ${message}`).message);
}

/**
 * Check a job's settings against the registry; throws an `UnrecoverableError` (the job fails at once,
 * without retries) with a `QueueJobRejectedError` message when anything is off.
 */
export function validateRemoteConfig(config: unknown): WorkerConfig {
  if (!config || typeof config !== "object") reject("no settings");
  const c = config as RemoteConfig;
  if (!Array.isArray(c.metrics) || c.metrics.length === 0) reject("no metrics");
  for (const m of c.metrics as readonly NormalizedMetric[]) {
    if (!m || typeof m !== "object") reject("a metric spec is not an object");
    if (m.metric === "module" && !ruleForModule(m)) {
      reject(`metric ${JSON.stringify(m.name)} is a plug-in module (${JSON.stringify(m.module)}); queue workers run built-in registry metrics only`);
    }
  }
  let specs: NormalizedMetric[];
  try {
    specs = normalizeMetrics(c.metrics as unknown as MetricSpec[]);
  } catch (e) {
    reject(e instanceof Error ? e.message : String(e));
  }
  if (canon(specs) !== canon(c.metrics)) reject("the metric specs are not normalized registry specs (unknown options or names?)");
  let fields;
  try {
    fields = resolveFields(c.fields as never);
  } catch (e) {
    reject(e instanceof Error ? e.message : String(e));
  }
  if (canon(fields) !== canon(c.fields)) reject("malformed fields");
  if (typeof c.keepStatistics !== "boolean" || typeof c.strictUtf8 !== "boolean") reject("malformed settings");
  if (typeof c.rowTimeoutMs !== "number" || !(c.rowTimeoutMs >= 0) || !Number.isFinite(c.rowTimeoutMs)) reject("malformed rowTimeoutMs");
  if (c.rows !== undefined) {
    const r = c.rows;
    if (!r || typeof r !== "object" || (r.format !== "jsonl" && r.format !== "csv") || typeof r.delimiter !== "string" || !Array.isArray(r.inputColumns) || typeof r.escapeFormulas !== "boolean" || typeof r.quote !== "boolean") {
      reject("malformed rows output settings");
    }
    const again = rowsOutput(specs, r.format, r.delimiter, r.inputColumns as string[], r.escapeFormulas, r.quote);
    if (canon(again) !== canon(r)) reject("the rows output settings do not match the metrics");
  }
  return { metrics: specs, fields, jsonOutput: true, keepStatistics: c.keepStatistics, positionKey: "line", rows: c.rows, strictUtf8: c.strictUtf8 };
}

/**
 * Read a shared input range, if its file is inside an allowed directory, and check its length and sha256
 * (the file the worker sees must be the producer's). Refused paths fail the job at once; a mismatch is an
 * ordinary failure (retried: the file may still be arriving).
 */
function readShared(r: SharedRange, allowedDirs: readonly string[]): Uint8Array {
  if (allowedDirs.length === 0) reject("the job names a shared input file, and this worker reads none (start it with sharedInputDirs / --shared-dir)");
  let real: string;
  try {
    real = realpathSync(resolve(r.path));
  } catch {
    throw new Error(`the shared input ${r.path} cannot be read on this worker`);
  }
  if (!allowedDirs.some((d) => real === d || real.startsWith(d.endsWith(sep) ? d : d + sep))) {
    reject(`the shared input ${r.path} is outside the directories this worker may read (sharedInputDirs / --shared-dir)`);
  }
  const bytes = readRange(real, r.start, r.start + r.length);
  if (bytes.length !== r.length || sha256Hex(bytes) !== r.sha256) {
    throw new Error(`the shared input ${r.path} on this worker differs from the producer's (bytes ${r.start}–${r.start + r.length})`);
  }
  return bytes.slice(); // an own buffer to transfer
}

/**
 * Run a queue worker: take chunk jobs from the queue and score them until `close()`. Resolves once
 * connected to Redis (rejects with `QueueConnectionError` when it cannot be reached).
 *
 * @example
 * const worker = await runWorker({ queue: "redis://:secret@10.0.0.5:6379/0", concurrency: 8 });
 * process.on("SIGTERM", () => void worker.close());
 */
export async function runWorker(options: RunWorkerOptions): Promise<QueueWorker> {
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("runWorker(options): options must be an object", { argument: "options" });
  const conn = parseQueueUrl(options.queue);
  const { Worker: BullWorker, UnrecoverableError } = (await loadQueueEngine()).bullmq;
  Unrecoverable = UnrecoverableError;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const int = (v: unknown, name: string, dflt: number, min = 1): number => {
    if (v === undefined) return dflt;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`, { argument: name });
    return v;
  };
  const concurrency = int(options.concurrency, "concurrency", defaultWorkers());
  const lockDuration = int(options.lockDurationMs, "lockDurationMs", 30_000, 100);
  const stalledInterval = int(options.stalledIntervalMs, "stalledIntervalMs", 30_000, 100);
  const maxStalledCount = int(options.maxStalledCount, "maxStalledCount", 1, 0);
  const log = (line: string) => options.log?.(conn.redact(line));
  const allowedDirs = (options.sharedInputDirs ?? []).map((d) => {
    if (typeof d !== "string" || d.length === 0) throw new InvalidArgumentError("sharedInputDirs must be directory paths", { argument: "sharedInputDirs" });
    try {
      return realpathSync(resolve(d));
    } catch {
      throw new InvalidArgumentError(`sharedInputDirs: ${d} does not exist`, { argument: "sharedInputDirs" });
    }
  });

  // one thread pool per run settings (a worker serves runs one after another; keep the last two)
  const pools = new Map<string, WorkerPool>();
  const poolFor = (config: WorkerConfig): WorkerPool => {
    const key = stableJson(config);
    let pool = pools.get(key);
    if (pool) {
      pools.delete(key);
      pools.set(key, pool); // most recent last
      return pool;
    }
    pool = createPool(concurrency, config);
    pools.set(key, pool);
    while (pools.size > 2) {
      const [oldKey, old] = pools.entries().next().value as [string, WorkerPool];
      pools.delete(oldKey);
      void old.destroy();
    }
    return pool;
  };

  let scored = 0;
  const processor = async (job: Job<ChunkJobData>): Promise<string> => {
    const data = job.data;
    if (!data || data.v !== 1 || typeof data.run !== "string" || !Array.isArray(data.lines)) reject("malformed job data");
    const config = validateRemoteConfig(data.config);
    let input: WireInput;
    try {
      input = decodeInput(data.input);
    } catch (e) {
      reject(e instanceof Error ? e.message : String(e));
    }
    if (input.kind === "rows") reject("row-object chunks are not taken from the queue");
    let chunk: ChunkInput;
    if ("shared" in input) {
      const { shared, ...rest } = input;
      chunk = { ...rest, bytes: readShared(shared, allowedDirs) } as ChunkInput;
    } else chunk = input;
    const lines = [data.lines[0], data.lines[1]] as const;
    await options.beforeChunk?.({ run: data.run, lines, attempt: job.attemptsStarted ?? job.attemptsMade + 1 });
    const pool = poolFor(config);
    const budget = data.config.rowTimeoutMs > 0 ? data.config.rowTimeoutMs * (1 + (lines[1] - lines[0] + 1) / 1000) : 0;
    const controller = new AbortController();
    const timer = budget > 0 ? setTimeout(() => controller.abort(), budget) : undefined;
    try {
      const transfer = chunk.kind === "jsonl" || chunk.kind === "csv" ? [chunk.bytes.buffer] : [];
      const result = await pool.run<ChunkResult>({ type: "chunk", input: chunk }, transfer, controller.signal);
      scored++;
      return encodeResult(result);
    } catch (e) {
      if (controller.signal.aborted) throw new Error(`the chunk of lines ${lines[0]}–${lines[1]} was not scored within its time budget of ${Math.round(budget)} ms (rowTimeoutMs)`);
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
    }
  };

  const worker = new BullWorker<ChunkJobData, string>(queueName, processor, {
    connection: conn.options,
    prefix,
    concurrency,
    lockDuration,
    stalledInterval,
    maxStalledCount,
    autorun: false,
  });
  worker.on("error", (e) => log(`queue ${conn.safeUrl}: ${safeMessage(e, conn.redact)}`));
  worker.on("failed", (job, e) => {
    if (job) log(`chunk of lines ${job.data?.lines?.[0]}–${job.data?.lines?.[1]} (run ${job.data?.run}) failed: ${safeMessage(e, conn.redact)}`);
  });
  try {
    await Promise.race([worker.waitUntilReady(), new Promise((_, rej) => setTimeout(() => rej(new Error("timed out after 30 s")), 30_000).unref())]);
  } catch (e) {
    await Promise.race([worker.close(true).catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
    await worker.disconnect().catch(() => undefined);
    throw new QueueConnectionError(`cannot reach the queue ${conn.safeUrl}: ${safeMessage(e, conn.redact)}`, conn.safeUrl);
  }
  void worker.run().catch((e: unknown) => log(`queue ${conn.safeUrl}: the worker stopped: ${safeMessage(e, conn.redact)}`));
  log(`worker connected to ${conn.safeUrl} (queue ${queueName}, ${concurrency} at a time)`);
  return {
    scored: () => scored,
    async close() {
      await worker.close();
      await Promise.all([...pools.values()].map((p) => p.destroy()));
      pools.clear();
    },
  };
}
