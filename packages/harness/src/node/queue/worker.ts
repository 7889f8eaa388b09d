// A queue worker of a distributed run: takes chunk jobs from the BullMQ queue and scores each with the
// same per-chunk code as a local `scoreFile` (the worker-thread pool of `pool.ts` running `scoreChunk`),
// returning the chunk's output bytes, statistics rows and exact sums through the queue. It needs no
// shared file system: the chunk's bytes are in the job.
//
// Only built-in registry metrics run: every job's metric specs are normalized again here and must come
// out unchanged (names, options), plug-in modules are refused unless they name a registry rule, and the
// row settings must be what the specs give. No code travels through the queue. A job signed by a producer
// of another build (another kernel, harness or metric version: `queueSignature`) is refused too, and so
// are jobs of runs whose producer is gone (`leftovers.ts`); results are stored signed with this worker's
// own signature.
import { realpathSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import { loadQueueEngine, redactClientDebug } from "./engine.js";
import { sweepAbandonedRuns } from "./leftovers.js";
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { ruleForModule } from "@evalkern/metrics/registry";
import type { ChunkInput, ChunkResult } from "../../bulk/chunk.js";
import { runSuperBlock, type SuperBlockJob } from "../../bulk/statistics-core.js";
import { normalizeMetrics, stableJson, type MetricSpec, type NormalizedMetric } from "../../bulk/metrics.js";
import { resolveFields } from "../../bulk/records.js";
import { rowsOutput } from "../../bulk/rows.js";
import { QueueConnectionError, QueueJobRejectedError } from "../../errors.js";
import { createPool, defaultWorkers, type WorkerPool } from "../pool.js";
import type { WorkerConfig } from "../worker.js";
import {
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  EVENTS_MAX_LEN,
  WIRE_VERSION,
  decodeInput,
  decodeSuperBlock,
  encodeResult,
  encodeSums,
  parseQueueUrl,
  queueKeys,
  queueSignature,
  safeMessage,
  sha256Hex,
  type ChunkJobData,
  type QueueKeys,
  type RemoteConfig,
  type SharedRange,
  type WireInput,
} from "./wire.js";
import { readRange } from "../geometry.js";
import { closeWithin } from "./producer.js";

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
  readonly beforeChunk?: (chunk: {
    readonly run: string;
    readonly lines: readonly [number, number];
    readonly attempt: number;
  }) => void | Promise<void>;
  /** Called before each bootstrap super-block is computed (logging; tests use it to crash a worker on purpose). */
  readonly beforeSuperBlock?: (superBlock: {
    readonly run: string;
    readonly index: number;
    readonly attempt: number;
  }) => void | Promise<void>;
  /** Lines about the worker (connected, chunks refused or failed), the password removed. */
  readonly log?: (line: string) => void;
  /**
   * Directories whose files this worker may read when a producer sends byte ranges of a shared input
   * (`sharedInput`) instead of bytes (default: none, such jobs are refused). Paths are resolved
   * (symlinks too) before the check.
   */
  readonly sharedInputDirs?: readonly string[];
  /**
   * While stopping (`close()`), how long Redis may be unreachable before the worker stops without it
   * (default 10 000 ms): `close()` then rejects with `QueueConnectionError`.
   */
  readonly closeTimeoutMs?: number;
}

export interface QueueWorker {
  /** Chunks scored by this worker so far. */
  readonly scored: () => number;
  /**
   * Finish the chunks being scored, deliver them, then disconnect. When Redis stays unreachable for
   * `closeTimeoutMs` meanwhile, it stops anyway and rejects with `QueueConnectionError`: the chunks it
   * held were not delivered, and other workers take them over once their locks expire.
   */
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
      reject(
        `metric ${JSON.stringify(m.name)} is a plug-in module (${JSON.stringify(m.module)}); queue workers run built-in registry ` +
          `metrics only`,
      );
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
    if (
      !r ||
      typeof r !== "object" ||
      (r.format !== "jsonl" && r.format !== "csv") ||
      typeof r.delimiter !== "string" ||
      !Array.isArray(r.inputColumns) ||
      typeof r.escapeFormulas !== "boolean" ||
      typeof r.quote !== "boolean"
    ) {
      reject("malformed rows output settings");
    }
    const again = rowsOutput(specs, r.format, r.delimiter, r.inputColumns as string[], r.escapeFormulas, r.quote);
    if (canon(again) !== canon(r)) reject("the rows output settings do not match the metrics");
  }
  const output = c.rows ? { kind: "rows" as const, rows: c.rows } : { kind: "scores" as const, positionKey: "line" as const };
  return { metrics: specs, fields, output, keepStatistics: c.keepStatistics, strictUtf8: c.strictUtf8 };
}

/**
 * Read a shared input range, if its file is inside an allowed directory, and check its length and sha256
 * (the file the worker sees must be the producer's). Refused paths fail the job at once; a mismatch is an
 * ordinary failure (retried: the file may still be arriving).
 */
function readShared(r: SharedRange, allowedDirs: readonly string[]): Uint8Array {
  if (allowedDirs.length === 0)
    reject("the job names a shared input file, and this worker reads none (start it with sharedInputDirs / --shared-dir)");
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

/** What the chunk processor needs besides the job. */
interface ProcessorContext {
  readonly redis: Redis;
  readonly keys: QueueKeys;
  readonly concurrency: number;
  readonly allowedDirs: readonly string[];
  readonly beforeChunk: RunWorkerOptions["beforeChunk"];
  readonly beforeSuperBlock: RunWorkerOptions["beforeSuperBlock"];
}

/** The job's settings as a worker config, and this worker's signature for them. */
async function checkJob(
  data: ChunkJobData,
  signatureOf: (config: WorkerConfig) => Promise<string>,
): Promise<{ config: WorkerConfig; sig: string }> {
  if (!data || typeof data !== "object") reject("malformed job data");
  if (data.v !== WIRE_VERSION) {
    reject(
      `the job is of format ${JSON.stringify(data.v)} and this worker reads format ${WIRE_VERSION}: ` +
        "its producer is another evalkern version; run workers and producer of the same version",
    );
  }
  const ttlOk = typeof data.ttlMs === "number" && Number.isSafeInteger(data.ttlMs) && data.ttlMs >= 1000;
  if (typeof data.run !== "string" || !Array.isArray(data.lines) || typeof data.sig !== "string" || !ttlOk) reject("malformed job data");
  const config = validateRemoteConfig(data.config);
  const sig = await signatureOf(config);
  if (data.sig !== sig) {
    reject(
      `version mismatch: this worker is ${sig}, the producer is ${data.sig}; its numbers would not be the producer's: ` +
        "run workers and producer of the same evalkern version",
    );
  }
  return { config, sig };
}

/** The BullMQ processor: check the job, score its chunk on a thread pool, store the signed result. */
interface ChunkProcessor {
  readonly processJob: (job: Job<ChunkJobData>) => Promise<string>;
  readonly scored: () => number;
  readonly close: () => Promise<void>;
}

function chunkProcessor(ctx: ProcessorContext): ChunkProcessor {
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
    pool = createPool(ctx.concurrency, config);
    pools.set(key, pool);
    while (pools.size > 2) {
      const [oldKey, old] = pools.entries().next().value as [string, WorkerPool];
      pools.delete(oldKey);
      void old.destroy();
    }
    return pool;
  };
  // the signature of each set of metric specs, computed once
  const signatures = new Map<string, Promise<string>>();
  const signatureOf = (config: WorkerConfig): Promise<string> => {
    const key = stableJson(config.metrics);
    let sig = signatures.get(key);
    if (!sig) {
      if (signatures.size >= 64) signatures.clear();
      sig = queueSignature(config.metrics);
      signatures.set(key, sig);
    }
    return sig;
  };

  let scored = 0;
  const processJob = async (job: Job<ChunkJobData>): Promise<string> => {
    const data = job.data;
    const { config, sig } = await checkJob(data, signatureOf);
    if ((await ctx.redis.exists(ctx.keys.alive(data.run))) !== 1) {
      reject(`the run ${data.run} was abandoned: its producer is gone (its jobs expired); nothing was scored`);
    }
    if (data.superBlock !== undefined) {
      await superBlockJob(ctx, job, sig);
      return sig;
    }
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
      chunk = { ...rest, bytes: readShared(shared, ctx.allowedDirs) } as ChunkInput;
    } else chunk = input;
    const lines = [data.lines[0], data.lines[1]] as const;
    await ctx.beforeChunk?.({ run: data.run, lines, attempt: job.attemptsStarted ?? job.attemptsMade + 1 });
    const pool = poolFor(config);
    const budget = data.config.rowTimeoutMs > 0 ? data.config.rowTimeoutMs * (1 + (lines[1] - lines[0] + 1) / 1000) : 0;
    const controller = new AbortController();
    const timer = budget > 0 ? setTimeout(() => controller.abort(), budget) : undefined;
    let result: ChunkResult;
    try {
      const transfer = chunk.kind === "jsonl" || chunk.kind === "csv" ? [chunk.bytes.buffer] : [];
      result = await pool.run<ChunkResult>({ type: "chunk", input: chunk }, transfer, controller.signal);
    } catch (e) {
      if (controller.signal.aborted)
        throw new Error(
          `the chunk of lines ${lines[0]}–${lines[1]} was not scored within its time budget of ${Math.round(budget)} ms (rowTimeoutMs)`,
        );
      throw e;
    } finally {
      if (timer) clearTimeout(timer);
    }
    // the result in a key of its own (BullMQ copies return values into its event stream), expiring on
    // its own if the producer never takes it; the return value is the signature only
    await ctx.redis.set(ctx.keys.result(job.id!), encodeResult(sig, result), "PX", data.ttlMs);
    scored++;
    return sig;
  };
  const close = async () => {
    await Promise.all([...pools.values()].map((p) => p.destroy()));
    pools.clear();
  };
  return { processJob, scored: () => scored, close };
}

/**
 * A bootstrap super-block job: its statistics rows and counts from the payload key, its sums (computed
 * here, `runSuperBlock`) stored signed in the job's result key. A payload gone from Redis fails the
 * attempt (retried; the producer adds the job again when Redis lost it).
 */
async function superBlockJob(ctx: ProcessorContext, job: Job<ChunkJobData>, sig: string): Promise<void> {
  const { data } = job;
  const want = data.superBlock!;
  const raw = await ctx.redis.getBuffer(ctx.keys.payload(job.id!));
  if (raw === null) throw new Error(`the statistics of bootstrap super-block ${want.index} are not in Redis (expired or lost)`);
  let sb: SuperBlockJob;
  try {
    sb = decodeSuperBlock(raw);
  } catch (e) {
    reject(e instanceof Error ? e.message : String(e));
  }
  if (sb.index !== want.index || raw.length !== want.bytes) reject("the super-block payload is not the job's");
  await ctx.beforeSuperBlock?.({ run: data.run, index: sb.index, attempt: job.attemptsStarted ?? job.attemptsMade + 1 });
  const sums = runSuperBlock(sb);
  await ctx.redis.set(ctx.keys.result(job.id!), encodeSums(sig, sb.index, sums), "PX", data.ttlMs);
}

/** Resolves once `redis` has not been connected for `ms` in a row (checked every 200 ms); `stop()` ends the watch. */
function unreachableFor(redis: Redis, ms: number): { readonly gone: Promise<void>; readonly stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let since: number | undefined;
  const gone = new Promise<void>((resolve) => {
    timer = setInterval(() => {
      if (redis.status === "ready") since = undefined;
      else if ((since ??= Date.now()) + ms <= Date.now()) resolve();
    }, 200);
  });
  return { gone, stop: () => clearInterval(timer) };
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
  if (typeof options !== "object" || options === null)
    throw new InvalidArgumentError("runWorker(options): options must be an object", { argument: "options" });
  const conn = parseQueueUrl(options.queue);
  const {
    bullmq: { Worker: BullWorker, Queue, UnrecoverableError },
    ioredis: { Redis },
  } = await loadQueueEngine();
  Unrecoverable = UnrecoverableError;
  redactClientDebug(conn.redact);
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const int = (v: unknown, name: string, dflt: number, min = 1): number => {
    if (v === undefined) return dflt;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
      throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}`, { argument: name });
    return v;
  };
  const concurrency = int(options.concurrency, "concurrency", defaultWorkers());
  const lockDuration = int(options.lockDurationMs, "lockDurationMs", 30_000, 100);
  const stalledInterval = int(options.stalledIntervalMs, "stalledIntervalMs", 30_000, 100);
  const maxStalledCount = int(options.maxStalledCount, "maxStalledCount", 1, 0);
  const closeTimeoutMs = int(options.closeTimeoutMs, "closeTimeoutMs", 10_000, 100);
  const log = (line: string) => options.log?.(conn.redact(line));
  const allowedDirs = (options.sharedInputDirs ?? []).map((d) => {
    if (typeof d !== "string" || d.length === 0)
      throw new InvalidArgumentError("sharedInputDirs must be directory paths", { argument: "sharedInputDirs" });
    try {
      return realpathSync(resolve(d));
    } catch {
      throw new InvalidArgumentError(`sharedInputDirs: ${d} does not exist`, { argument: "sharedInputDirs" });
    }
  });

  const keys = queueKeys(prefix, queueName);
  const redis = new Redis({ ...conn.options });
  redis.on("error", () => undefined); // reconnects by itself; the worker's own error events are logged
  // for sweeping what abandoned runs left (same event-stream length as the producers')
  const queue = new Queue(queueName, { connection: conn.options, prefix, streams: { events: { maxLen: EVENTS_MAX_LEN } } });
  queue.on("error", () => undefined);
  const processor = chunkProcessor({
    redis,
    keys,
    concurrency,
    allowedDirs,
    beforeChunk: options.beforeChunk,
    beforeSuperBlock: options.beforeSuperBlock,
  });
  const worker = new BullWorker<ChunkJobData, string>(queueName, processor.processJob, {
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
    if (job)
      log(`chunk of lines ${job.data?.lines?.[0]}–${job.data?.lines?.[1]} (run ${job.data?.run}) failed: ${safeMessage(e, conn.redact)}`);
  });
  try {
    await Promise.race([
      Promise.all([worker.waitUntilReady(), queue.waitUntilReady(), redis.ping()]),
      new Promise((_, rej) => setTimeout(() => rej(new Error("timed out after 30 s")), 30_000).unref()),
    ]);
  } catch (e) {
    await Promise.race([worker.close(true).catch(() => undefined), new Promise((r) => setTimeout(r, 2000).unref())]);
    await worker.disconnect().catch(() => undefined);
    await closeWithin([queue], redis, 1000);
    throw new QueueConnectionError(`cannot reach the queue ${conn.safeUrl}: ${safeMessage(e, conn.redact)}`, conn.safeUrl);
  }
  void worker.run().catch((e: unknown) => log(`queue ${conn.safeUrl}: the worker stopped: ${safeMessage(e, conn.redact)}`));
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepAbandonedRuns(queue, redis, keys)
      .then((runs) => runs.length > 0 && log(`removed what ${runs.length} abandoned run(s) left in Redis (${runs.join(", ")})`))
      .catch(() => undefined) // Redis away: the next round tries again
      .finally(() => (sweeping = false));
  }, stalledInterval);
  sweeper.unref();
  log(`worker connected to ${conn.safeUrl} (queue ${queueName}, ${concurrency} at a time)`);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    clearInterval(sweeper);
    // BullMQ's close waits for Redis to take the last results, forever when it is gone: watch it
    const watch = unreachableFor(redis, closeTimeoutMs);
    const r = await Promise.race([worker.close().then(() => "closed" as const), watch.gone.then(() => "unreachable" as const)]);
    watch.stop();
    if (r === "unreachable") {
      void worker.close(true).catch(() => undefined);
      await Promise.race([worker.disconnect().catch(() => undefined), new Promise((res) => setTimeout(res, 1000).unref())]);
    }
    await processor.close();
    await closeWithin([queue], redis, r === "unreachable" ? 100 : 2000);
    if (r === "unreachable") {
      throw new QueueConnectionError(
        `stopped without the queue ${conn.safeUrl}: Redis was unreachable for ${Math.round(closeTimeoutMs / 1000)} s (closeTimeoutMs); ` +
          "the chunks this worker held were not delivered, and other workers take them over once their locks expire",
        conn.safeUrl,
      );
    }
  };
  return { scored: processor.scored, close: () => (closing ??= close()) };
}
