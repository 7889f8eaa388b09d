// The producer of a distributed run: `scoreFile`'s own pipeline (chunking by byte ranges, commit in
// input order, checkpoints, corpus scores, bootstrap CIs, summary), with the chunks scored by
// `runWorker` processes through a BullMQ queue on Redis instead of local worker threads. The files
// written are those of a one-machine run, byte for byte.
//
// Each chunk is one job whose id binds the run's identity (its name and a random tag kept beside the
// output, see `newRunId`) to the chunk's content (see `chunkJobId`): a producer killed and restarted with
// the same job name resumes from its checkpoint and picks up the results of chunks the workers already
// finished, without scoring them again, while no other run can take them or hand over its own. A job lost
// from Redis (a Redis restart without persistence) is added again; a job that failed on every attempt (a
// poison chunk) stops the run with `ChunkFailedError` naming its lines; a Redis unreachable for longer
// than `connectionTimeoutMs` stops it with `QueueConnectionError` (rows committed so far are checkpointed).
//
// Jobs carry the producer's code signature (`queueSignature`); workers of another build refuse them, and
// the producer commits only results signed with its own signature. Results travel in keys of their own
// (not in BullMQ's return values, which BullMQ also copies into its event stream) and are removed once a
// checkpoint covers them; the run's jobs go when it completes, and what a dead producer left expires
// (`leftovers.ts`).
import type { Job as BullJob, Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { rmSync } from "node:fs";
import { loadQueueEngine, redactClientDebug } from "./engine.js";
import { keepRunAlive, removeChunkJob, removeRunKeys, sendAll, sweepAbandonedRuns } from "./leftovers.js";
import type { ChunkResult } from "../../bulk/chunk.js";
import type { SuperBlockJob } from "../../bulk/statistics-core.js";
import { ChunkFailedError, QueueConnectionError, QueueJobRejectedError, ResumeMismatchError } from "../../errors.js";
import { checkpointJob } from "../checkpoint.js";
import { readJson, writeFileAtomic } from "../files.js";
import type { WorkerPool } from "../pool.js";
import { scoreFileWith, type ScoreFileOptions, type ScoreSummary } from "../score-file.js";
import type { WorkerTask } from "../worker.js";
import {
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  EVENTS_MAX_LEN,
  WIRE_VERSION,
  checkRunName,
  chunkJobId,
  decodeResult,
  decodeSums,
  encode,
  encodeSuperBlock,
  encodeInput,
  newRunId,
  queueKeys,
  queueSignature,
  sha256Hex,
  parseQueueUrl,
  safeMessage,
  type ChunkJobData,
  type QueueConnection,
  type QueueKeys,
  type RemoteConfig,
} from "./wire.js";
import { InvalidArgumentError } from "@evalkern/core-wasm";

export interface QueueProgress {
  /** Chunks whose results came back (this producer run). */
  readonly chunksDone: number;
  /** Chunks queued or being scored. */
  readonly chunksInFlight: number;
  /** Chunks added to the queue again (lost from Redis). */
  readonly chunksRequeued: number;
  /** Workers connected to the queue (undefined when Redis does not tell). */
  readonly workers: number | undefined;
}

export interface DistributedScoreOptions extends ScoreFileOptions {
  /** The queue: `redis://[:password@]host[:port][/db]` or `rediss://…` (TLS). The password is never logged. */
  readonly queue: string;
  /**
   * The run's name: letters, digits, `.`, `_`, `-` (default: the job's fingerprint). Rerunning with the
   * same name after the producer was stopped resumes (unless `resume: false`), reusing the chunks the
   * workers finished meanwhile.
   */
  readonly job?: string;
  /** BullMQ queue name shared with the workers (default "evalkern"). */
  readonly queueName?: string;
  /** Redis key prefix (default "bull"). */
  readonly prefix?: string;
  /** Attempts of a chunk whose scoring throws or exceeds its time budget (default 3). Stalls are counted by the workers
   * (`maxStalledCount`). */
  readonly attempts?: number;
  /** How often in-flight chunks are checked besides the queue's events (default 1000 ms). */
  readonly pollIntervalMs?: number;
  /** How long Redis may be unreachable before the run stops with `QueueConnectionError` (default 60 000 ms). */
  readonly connectionTimeoutMs?: number;
  /**
   * How long what this run leaves in Redis outlives its producer when that is killed (default 900 000 ms,
   * at least 1000): until then a producer restarted with the same `job` reuses the chunks workers finished;
   * after it the run's jobs are refused by workers and removed, and its results expire.
   */
  readonly expireAfterMs?: number;
  /** Called about every `progressIntervalMs` (default 5000) with the cluster's progress. */
  readonly onQueueProgress?: (progress: QueueProgress) => void;
  readonly progressIntervalMs?: number;
  /** Lines about the queue (connection lost/restored, chunks requeued), the password removed. */
  readonly log?: (line: string) => void;
  /**
   * The input's path as the workers see it, when they can read it (shared storage): jobs then carry
   * a byte range and its sha256 instead of the bytes, and workers started with `sharedInputDirs`
   * holding that path read the range themselves (default: the bytes travel through Redis).
   */
  readonly sharedInput?: string;
}

function positiveInt(v: unknown, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1)
    throw new InvalidArgumentError(`${name} must be a positive integer`, { argument: name });
  return v;
}

interface InFlight {
  readonly id: string;
  readonly data: ChunkJobData;
  /** A super-block job's payload (statistics rows and counts), stored beside the job. */
  readonly payload?: Buffer;
  readonly resolve: (r: ChunkResult | Float64Array) => void;
  readonly reject: (e: unknown) => void;
  checking: boolean;
  /** A failure left from an earlier producer run was retried once. */
  retried: boolean;
}

/** Newlines of a chunk not counting a final one: its last line is its first plus this (memchr, not a byte loop). */
function linesAfterFirst(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  for (let i = buf.indexOf(10); i >= 0 && i < buf.length - 1; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

/** What to do about Redis's out-of-memory refusal (`maxmemory` reached under `noeviction`). */
function oomHint(e: unknown): string {
  const text = typeof e === "string" ? e : String((e as Error | null)?.message);
  return /\bOOM\b/.test(text) ? " (Redis is out of memory: raise its maxmemory, or run fewer producers at once)" : "";
}

/** The chunk pool of a distributed run: `run` adds a job and resolves with its result. */
class QueuePool implements WorkerPool {
  readonly threads = 1;
  /** `run` hashes (shared input) or encodes a chunk's bytes before it returns. */
  readonly consumesInputAtOnce = true;
  private readonly inFlight = new Map<string, InFlight>();
  /** Jobs whose results were taken, by last line, to drop once a checkpoint covers them. */
  private readonly fetched: { id: string; lastLine: number }[] = [];
  private lastContact = Date.now();
  private readonly started = Date.now();
  private poller: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private disconnected = false;
  private closed = false;
  private failed: unknown;
  done = 0;
  requeued = 0;

  constructor(
    private readonly Job: typeof BullJob,
    private readonly queue: Queue,
    events: QueueEvents,
    private readonly redis: Redis,
    private readonly conn: QueueConnection,
    private readonly o: {
      readonly run: string;
      readonly fingerprint: string;
      readonly config: RemoteConfig;
      /** The producer's code signature (`queueSignature`). */
      readonly sig: string;
      readonly attempts: number;
      readonly pollMs: number;
      readonly connectionTimeoutMs: number;
      readonly ttlMs: number;
      readonly keys: QueueKeys;
      readonly sharedInput: string | undefined;
      readonly log: (line: string) => void;
      readonly onProgress: ((p: QueueProgress) => void) | undefined;
      readonly progressMs: number;
    },
  ) {
    events.on("completed", ({ jobId }) => this.check(jobId, true));
    events.on("failed", ({ jobId }) => this.check(jobId));
    this.poller = setInterval(() => {
      for (const id of this.inFlight.keys()) this.check(id);
    }, o.pollMs);
    this.poller.unref();
    this.watchdog = setInterval(() => this.watch(), Math.min(1000, o.pollMs)).unref();
    // the run is alive while this producer renews its key; a killed producer's run expires after ttlMs
    const renew = () => void keepRunAlive(redis, o.keys, o.run, o.ttlMs).catch(() => undefined);
    this.heartbeat = setInterval(renew, Math.max(50, Math.min(o.pollMs, o.ttlMs / 4)));
    this.heartbeat.unref();
    if (o.onProgress) {
      this.progressTimer = setInterval(() => void this.reportProgress(), o.progressMs);
      this.progressTimer.unref();
    }
  }

  private async reportProgress(): Promise<void> {
    let workers: number | undefined;
    try {
      workers = await this.queue.getWorkersCount();
    } catch {
      workers = undefined;
    }
    this.o.onProgress?.({ chunksDone: this.done, chunksInFlight: this.inFlight.size, chunksRequeued: this.requeued, workers });
  }

  /** Fail every waiting chunk when Redis has not answered for `connectionTimeoutMs`. */
  private watch(): void {
    if (this.inFlight.size === 0 || this.closed) {
      this.lastContact = Date.now();
      return;
    }
    const silent = Date.now() - this.lastContact;
    if (silent > 3 * this.o.pollMs + 2000 && !this.disconnected) {
      this.disconnected = true;
      this.o.log(
        `queue ${this.conn.safeUrl}: no answer from Redis for ${Math.round(silent / 1000)} s; waiting up to ` +
          `${Math.round(this.o.connectionTimeoutMs / 1000)} s for it to come back`,
      );
    }
    if (silent > this.o.connectionTimeoutMs) {
      this.fail(
        new QueueConnectionError(
          `lost the connection to the queue ${this.conn.safeUrl} for more than ${Math.round(this.o.connectionTimeoutMs / 1000)} s ` +
            `(connectionTimeoutMs); the rows scored so far are checkpointed: run the same command with the same job name ` +
            `to resume`,
          this.conn.safeUrl,
        ),
      );
    }
  }

  private contact(): void {
    this.lastContact = Date.now();
    if (this.disconnected) {
      this.disconnected = false;
      this.o.log(`queue ${this.conn.safeUrl}: Redis answers again`);
    }
  }

  private fail(e: unknown): void {
    this.failed ??= e;
    for (const f of this.inFlight.values()) f.reject(this.failed);
    this.inFlight.clear();
  }

  private async add(f: InFlight): Promise<void> {
    // alive before any worker can see the job (Redis may have restarted and lost the key), and listed
    // first: a sweep must find every job of the run
    const { keys, run, ttlMs } = this.o;
    const p = this.redis.pipeline().set(keys.alive(run), "1", "PX", ttlMs).sadd(keys.runs, run).sadd(keys.runJobs(run), f.id);
    await sendAll(p);
    // a super-block's payload (tens of MB) by itself: in the pipeline the client would copy it once more
    if (f.payload) await this.redis.set(keys.payload(f.id), f.payload, "PX", ttlMs);
    await this.queue.add("chunk", f.data, {
      jobId: f.id,
      attempts: this.o.attempts,
      backoff: { type: "fixed", delay: 500 },
      removeOnComplete: false,
      removeOnFail: false,
    });
    this.contact();
  }

  /**
   * Redis answered with an error (it refuses writes once `maxmemory` is reached under `noeviction`, for
   * one): waiting would not help, so the run stops and says what Redis said.
   */
  private refused(e: unknown): boolean {
    if ((e as { name?: unknown } | null)?.name !== "ReplyError") return false;
    const message = `the queue ${this.conn.safeUrl} refused a command: ${safeMessage(e, this.conn.redact)}${oomHint(e)}`;
    this.fail(new QueueConnectionError(message, this.conn.safeUrl));
    return true;
  }

  /** A worker of another build scored a chunk: stop without committing its rows. */
  private foreign(f: InFlight, sig: string | undefined): void {
    const [a, b] = f.data.lines;
    const unsigned = "a worker that did not sign its result (an evalkern worker older than this producer?)";
    const who = sig === undefined ? unsigned : `a worker of another version (${sig})`;
    this.fail(
      new QueueJobRejectedError(
        `the chunk of input lines ${a}–${b} was scored by ${who}; this producer is ${this.o.sig}. Its rows were not committed: ` +
          "run workers of the producer's version on this queue, then run the same command again.",
      ),
    );
  }

  /**
   * Take a completed job's result: check its signature, then hand it to the pipeline. False when the job
   * has no return value yet (not completed, or removed meanwhile).
   */
  private async take(id: string, f: InFlight): Promise<boolean> {
    // the worker's return value is its signature only; the result itself is in its own key (both in one round trip)
    const [rv, raw] = (await sendAll(
      this.redis.pipeline().hget(`${this.o.keys.jobPrefix}${id}`, "returnvalue").getBuffer(this.o.keys.result(id)),
    )) as [string | null, Buffer | null];
    this.contact();
    if (rv === null) return false; // not completed, or removed meanwhile: the next check adds it again
    if (!this.inFlight.has(id)) return true;
    await this.taken(id, f, rv, raw);
    return true;
  }

  /** A completed job's return value and stored result: check the signature, then hand the result over. */
  private async taken(id: string, f: InFlight, rv: string, raw: Buffer | null): Promise<void> {
    let signed: unknown;
    try {
      signed = JSON.parse(rv);
    } catch {
      signed = undefined;
    }
    if (typeof signed !== "string" || !signed.startsWith("evalkern-queue:")) return this.foreign(f, undefined);
    if (signed !== this.o.sig) return this.foreign(f, signed);
    if (raw === null) {
      // expired before this producer came back for it (or lost): score the chunk again
      this.requeued++;
      const [a, b] = f.data.lines;
      this.o.log(`queue ${this.conn.safeUrl}: the result of the chunk of lines ${a}–${b} expired before it was taken; added again`);
      if (await removeChunkJob(this.queue, this.redis, this.o.keys, this.o.run, id)) await this.add(f);
      return;
    }
    if (f.data.superBlock) return this.takeSums(id, f, raw);
    let decoded: ReturnType<typeof decodeResult>;
    try {
      decoded = decodeResult(raw, this.o.sig);
    } catch (e) {
      const [a, b] = f.data.lines;
      const message = `the result of the chunk of input lines ${a}–${b} is malformed (${safeMessage(e, this.conn.redact)})`;
      this.fail(new ChunkFailedError(message, { lines: [a, b], attempts: 1, reason: "malformed result" }));
      return;
    }
    if (!decoded.result) return this.foreign(f, decoded.sig);
    this.inFlight.delete(id);
    this.done++;
    this.fetched.push({ id, lastLine: f.data.lines[1] });
    f.resolve(decoded.result);
  }

  /** Take a super-block job's sums, then remove the job (nothing of it is needed again). */
  private takeSums(id: string, f: InFlight, raw: Buffer): void {
    const index = f.data.superBlock!.index;
    let decoded: ReturnType<typeof decodeSums>;
    try {
      decoded = decodeSums(raw, this.o.sig, index);
    } catch (e) {
      const message = `the bootstrap sums of super-block ${index} are malformed (${safeMessage(e, this.conn.redact)})`;
      this.fail(new ChunkFailedError(message, { lines: [0, 0], attempts: 1, reason: "malformed result" }));
      return;
    }
    if (!decoded.sums) return this.foreign(f, decoded.sig);
    this.inFlight.delete(id);
    f.resolve(decoded.sums);
    void removeChunkJob(this.queue, this.redis, this.o.keys, this.o.run, id).catch(() => undefined);
  }

  /** A job failed on every attempt: a refusal, workers that died, or a chunk whose scoring throws. */
  private failedJob(f: InFlight, job: BullJob<ChunkJobData, string>): void {
    const [a, b] = f.data.lines;
    const reason = this.conn.redact(job.failedReason ?? "unknown failure");
    const attempts = Math.max(job.attemptsMade, job.attemptsStarted ?? 0, 1);
    if (reason.startsWith("job refused:")) {
      const why = reason.slice("job refused:".length).trim();
      this.fail(new QueueJobRejectedError(`a queue worker refused the chunk of input lines ${a}–${b}: ${why}`));
      return;
    }
    if (/\bOOM\b/.test(reason)) {
      const message = `the queue ${this.conn.safeUrl} refused to store the chunk of lines ${a}–${b}: ${reason}${oomHint(reason)}`;
      this.fail(new QueueConnectionError(message, this.conn.safeUrl));
      return;
    }
    if (/stalled more than allowable limit/.test(reason)) {
      // BullMQ's word for "the worker holding it stopped renewing its lock": it died, the lines are not to blame
      const stalls = Math.max(job.stalledCounter ?? 0, 1);
      this.fail(
        new ChunkFailedError(
          `the workers that took the chunk of input lines ${a}–${b} died before finishing it (${stalls} ` +
            `time${stalls === 1 ? "" : "s"}: killed, out of memory, or their machine went away; BullMQ: "${reason}"). ` +
            "The lines themselves may be fine: look at the " +
            "workers' logs and memory, then run the same command to resume (the rows before it are checkpointed).",
          { lines: [a, b], attempts, reason },
        ),
      );
      return;
    }
    this.fail(
      new ChunkFailedError(
        `the chunk of input lines ${a}–${b} failed on every attempt (${attempts}; a "poison" chunk): ${reason}. ` +
          "The rows before it are checkpointed; fix or remove those lines, then run again.",
        { lines: [a, b], attempts, reason },
      ),
    );
  }

  /** Look at a job (`completed`: the queue said it completed): take its result, report its failure, or add it again when Redis lost it. */
  private check(id: string, completed = false): void {
    const f = this.inFlight.get(id);
    if (!f || f.checking) return;
    f.checking = true;
    void (async () => {
      try {
        // announced as completed: take it in one round trip, without asking for its state first
        if (completed && (await this.take(id, f))) return;
        const state = await this.queue.getJobState(id);
        this.contact();
        if (state === "completed") {
          await this.take(id, f);
        } else if (state === "failed") {
          const job = await this.Job.fromId<ChunkJobData, string>(this.queue, id);
          this.contact();
          if (!job || !this.inFlight.has(id)) return;
          if (!f.retried && (job.finishedOn ?? 0) < this.started) {
            // failed before this producer started (an earlier producer of this run): try it again once
            f.retried = true;
            this.o.log(
              `queue ${this.conn.safeUrl}: the chunk of lines ${f.data.lines[0]}–${f.data.lines[1]} had failed in an earlier run; ` +
                `retrying it`,
            );
            await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
          } else this.failedJob(f, job);
        } else if (state === "unknown") {
          // lost (Redis restarted without persistence, or the job was removed): add it again
          this.requeued++;
          this.o.log(
            `queue ${this.conn.safeUrl}: the chunk of lines ${f.data.lines[0]}–${f.data.lines[1]} was lost from Redis; added again`,
          );
          await this.add(f);
        }
      } catch (e) {
        // Redis unreachable: the watchdog decides when that is too long
        this.refused(e);
      } finally {
        f.checking = false;
      }
    })();
  }

  run<R>(task: WorkerTask): Promise<R> {
    if (task.type !== "chunk") return Promise.reject(new Error("the queue pool scores chunks only"));
    if (this.failed !== undefined) return Promise.reject(this.failed);
    const input = task.input;
    const firstLine = input.kind === "errors" ? input.errors[0]!.position : input.kind === "rows" ? input.firstIndex : input.firstLine;
    const lastLine = input.kind === "jsonl" || input.kind === "csv" ? firstLine + linesAfterFirst(input.bytes) : firstLine;
    const shared = this.o.sharedInput;
    const encoded =
      shared !== undefined && task.offset !== undefined && (input.kind === "jsonl" || input.kind === "csv")
        ? encode({
            ...input,
            bytes: undefined,
            shared: { path: shared, start: task.offset, length: input.bytes.length, sha256: sha256Hex(input.bytes) },
          })
        : encodeInput(input);
    const id = chunkJobId(this.o.run, this.o.fingerprint, this.o.config, encoded, firstLine);
    const { run, sig, ttlMs, config } = this.o;
    const data: ChunkJobData = { v: WIRE_VERSION, run, sig, ttlMs, config, lines: [firstLine, lastLine], input: encoded };
    return new Promise<R>((resolve, reject) => {
      // "checking" until the job is added: a poll meanwhile would find it missing and add it again
      const f: InFlight = { id, data, resolve: resolve as (r: unknown) => void, reject, checking: true, retried: false };
      this.inFlight.set(id, f);
      this.add(f).then(
        () => {
          f.checking = false;
          this.check(id); // finished already (a restarted producer): take it now
        },
        (e: unknown) => {
          f.checking = false;
          this.refused(e); // unreachable: the poller adds it once Redis is back (state "unknown")
        },
      );
    });
  }

  /**
   * Have a worker compute one super-block of the bootstrap (`runSuperBlock`): its statistics rows and
   * counts travel in a key beside the job, its sums come back signed like a chunk's result.
   */
  superBlock(job: SuperBlockJob): Promise<Float64Array> {
    if (this.failed !== undefined) return Promise.reject(this.failed);
    const { run, sig, ttlMs, config } = this.o;
    const payload = encodeSuperBlock(job);
    // the counts depend on (rows, resamples, seed) only: a restarted producer's identical job may reuse a result
    const id = `${run}.boot-${job.seed}-${job.counts.length}-${job.from}-${job.index}-${job.usable}`;
    const data: ChunkJobData = {
      v: WIRE_VERSION,
      run,
      sig,
      ttlMs,
      config,
      lines: [0, 0],
      input: "",
      superBlock: { index: job.index, bytes: payload.length },
    };
    return new Promise<Float64Array>((resolve, reject) => {
      const f: InFlight = { id, data, payload, resolve: resolve as (r: unknown) => void, reject, checking: true, retried: false };
      this.inFlight.set(id, f);
      this.add(f).then(
        () => {
          f.checking = false;
          this.check(id);
        },
        (e: unknown) => {
          f.checking = false;
          this.refused(e);
        },
      );
    });
  }

  /** A checkpoint covers every line before `nextLine`: drop those chunks' results from Redis. */
  dropCommitted(nextLine: number): void {
    const keep: { id: string; lastLine: number }[] = [];
    const drop: string[] = [];
    for (const f of this.fetched) {
      if (f.lastLine < nextLine) drop.push(f.id);
      else keep.push(f);
    }
    if (drop.length === 0) return;
    this.fetched.splice(0, this.fetched.length, ...keep);
    void this.removeJobs(drop).catch(() => undefined); // best effort: the run's clean-up removes the rest
  }

  private async removeJobs(ids: readonly string[]): Promise<void> {
    for (const id of ids) await removeChunkJob(this.queue, this.redis, this.o.keys, this.o.run, id);
  }

  async destroy(): Promise<void> {
    this.closed = true;
    if (this.poller) clearInterval(this.poller);
    if (this.watchdog) clearInterval(this.watchdog);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.fail(this.failed ?? new Error("the queue pool was closed"));
  }
}

/**
 * Close the queue's connections: gracefully when Redis answers, else (unreachable, wrong password: a
 * graceful close would wait for it forever) dropped after `ms`.
 */
export async function closeWithin(
  items: readonly ({ close(): Promise<void>; disconnect(): Promise<void> } | undefined)[],
  redis: Redis | undefined,
  ms: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const graceful = Promise.allSettled([...items.map((i) => i?.close()), redis?.quit()]);
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  const r = await Promise.race([graceful, late]);
  clearTimeout(timer);
  redis?.disconnect();
  if (r === "late")
    await Promise.race([
      Promise.allSettled(items.map((i) => i?.disconnect())),
      new Promise((resolve) => setTimeout(resolve, 1000).unref()),
    ]);
}

/**
 * Remove a run's jobs, results and keys. A job a worker still holds cannot be removed: the run's alive key
 * is then left to expire, and a later sweep removes the rest.
 */
async function removeRun(queue: Queue | undefined, client: Redis | undefined, keys: QueueKeys, run: string): Promise<void> {
  if (!queue || !client || !run) return;
  if (!(await removeRunKeys(queue, client, keys, run))) await client.pexpire(keys.alive(run), 1);
}

/** Where a run's identity is kept beside its output (a resumed run goes on under the same one). */
export function queueRunPath(output: string): string {
  return `${output}.queue-run.json`;
}

/** The run identity to use: the saved one when resuming the same job under the same name, else a new one. */
function runIdentity(path: string, name: string, fingerprint: string, resuming: boolean): string {
  let saved: { job?: unknown; run?: unknown } | undefined;
  try {
    saved = resuming ? readJson<{ job?: unknown; run?: unknown }>(path) : undefined;
  } catch {
    saved = undefined;
  }
  const same = saved?.job === fingerprint && typeof saved.run === "string" && saved.run.startsWith(`${name.slice(0, 80)}.`);
  const run = same ? (saved!.run as string) : newRunId(name);
  writeFileAtomic(path, `${JSON.stringify({ job: fingerprint, run })}\n`);
  return run;
}

/**
 * Whether the checkpoint beside the output belongs to this job (then a named run resumes). A damaged
 * checkpoint is refused (`ResumeDamagedError`), not silently replaced; one of an older version is not ours.
 */
function checkpointOfJob(ckptPath: string, fingerprint: string): boolean {
  try {
    return checkpointJob(ckptPath) === fingerprint;
  } catch (e) {
    if (e instanceof ResumeMismatchError) return false;
    throw e;
  }
}

/**
 * Score a JSONL/CSV file on a cluster: chunks go through a BullMQ queue on Redis to `runWorker`
 * processes (on any machines that reach the Redis), and the output, statistics file and summary are
 * written here exactly as `scoreFile` writes them on one machine (same rows in input order, same corpus
 * scores and CIs, byte-identical files). Needs at least one worker running.
 *
 * @example
 * const summary = await scoreFileDistributed({
 *   input: "big.jsonl", output: "scores.jsonl", metrics: ["bleu", "chrf"],
 *   queue: "redis://:secret@10.0.0.5:6379/0", job: "nightly-2026-11-25",
 * });
 */
export async function scoreFileDistributed(options: DistributedScoreOptions): Promise<ScoreSummary> {
  if (typeof options !== "object" || options === null)
    throw new InvalidArgumentError("scoreFileDistributed(options): options must be an object", { argument: "options" });
  const conn = parseQueueUrl(options.queue);
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  if (typeof queueName !== "string" || !/^[A-Za-z0-9._-]{1,100}$/.test(queueName))
    throw new InvalidArgumentError("queueName must be 1–100 letters, digits, '.', '_' or '-'", { argument: "queueName" });
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== "string" || !/^[A-Za-z0-9._-]{1,100}$/.test(prefix))
    throw new InvalidArgumentError("prefix must be 1–100 letters, digits, '.', '_' or '-'", { argument: "prefix" });
  const named = options.job !== undefined ? checkRunName(options.job) : undefined;
  const attempts = positiveInt(options.attempts, "attempts", 3);
  const pollMs = positiveInt(options.pollIntervalMs, "pollIntervalMs", 1000);
  const connectionTimeoutMs = positiveInt(options.connectionTimeoutMs, "connectionTimeoutMs", 60_000);
  const progressMs = positiveInt(options.progressIntervalMs, "progressIntervalMs", 5000);
  const log = (line: string) => options.log?.(conn.redact(line));
  const sharedInput = options.sharedInput;
  if (sharedInput !== undefined && (typeof sharedInput !== "string" || sharedInput.length === 0))
    throw new InvalidArgumentError("sharedInput must be the input's path as the workers see it", { argument: "sharedInput" });

  const expireAfterMs = positiveInt(options.expireAfterMs, "expireAfterMs", 900_000);
  if (expireAfterMs < 1000) throw new InvalidArgumentError("expireAfterMs must be at least 1000", { argument: "expireAfterMs" });

  const engine = await loadQueueEngine();
  redactClientDebug(conn.redact);
  const keys = queueKeys(prefix, queueName);
  let c: Connections | undefined;
  let pool: QueuePool | undefined;
  let run = "";
  let resuming = false;
  try {
    const summary = await scoreFileWith(options, {
      override: { rowTimeoutMs: 0, ...(options.window === undefined ? { window: 16 } : {}) },
      resume: (fingerprint, ckptPath) => (resuming = options.resume ?? (named !== undefined && checkpointOfJob(ckptPath, fingerprint))),
      onCheckpoint: (state) => pool?.dropCommitted(state.nextLine),
      // the bootstrap's super-blocks are computed by the workers too; the producer adds their sums
      superBlocks: (job) => (pool ? pool.superBlock(job) : Promise.reject(new Error("the queue is not connected"))),
      chunkPool: async ({ opts, job, rows }) => {
        c = await connect(engine, conn, queueName, prefix, connectionTimeoutMs);
        const opened = c;
        run = runIdentity(queueRunPath(options.output), named ?? job, job, resuming);
        try {
          // what killed producers of this queue left behind (this run's too, when it expired) goes first
          const swept = await sweepAbandonedRuns(opened.queue, opened.redis, keys);
          const runs = `${swept.length} abandoned run${swept.length === 1 ? "" : "s"}`;
          if (swept.length > 0) log(`queue ${conn.safeUrl}: removed what ${runs} left in Redis`);
          await keepRunAlive(opened.redis, keys, run, expireAfterMs);
        } catch (e) {
          const message = `the queue ${conn.safeUrl} refused a command: ${safeMessage(e, conn.redact)}${oomHint(e)}`;
          throw new QueueConnectionError(message, conn.safeUrl);
        }
        const config: RemoteConfig = {
          metrics: opts.specs,
          fields: opts.fields,
          keepStatistics: opts.keepStatistics,
          ...(rows ? { rows: rows.rows } : {}),
          strictUtf8: opts.strictUtf8,
          rowTimeoutMs: options.rowTimeoutMs ?? 60_000,
        };
        const sig = await queueSignature(opts.specs);
        const ttlMs = expireAfterMs;
        const o = { run, fingerprint: job, config, sig, attempts, pollMs, connectionTimeoutMs, ttlMs, keys, sharedInput, log };
        const progress = { onProgress: options.onQueueProgress, progressMs };
        pool = new QueuePool(engine.bullmq.Job, opened.queue, opened.events, opened.redis, conn, { ...o, ...progress });
        return pool;
      },
    });
    // the run is complete: remove its jobs, results and keys from Redis, and its identity
    await removeRun(c?.queue, c?.redis, keys, run);
    rmSync(queueRunPath(options.output), { force: true });
    return summary;
  } catch (e) {
    if (e instanceof ChunkFailedError || e instanceof QueueJobRejectedError) {
      // the run cannot complete: take its other chunks off the queue too (resuming re-adds them)
      await pool?.destroy();
      await removeRun(c?.queue, c?.redis, keys, run).catch(() => undefined);
      throw e;
    }
    if (e instanceof QueueConnectionError) throw e;
    if (e instanceof Error && conn.redact(e.message) !== e.message) e.message = conn.redact(e.message);
    throw e;
  } finally {
    await pool?.destroy();
    await closeWithin([c?.events, c?.queue], c?.redis, 5000);
  }
}

interface Connections {
  readonly queue: Queue;
  readonly events: QueueEvents;
  readonly redis: Redis;
}

/** Open the producer's three connections (queue, its events, plain commands) and wait until Redis answers. */
async function connect(
  engine: Awaited<ReturnType<typeof loadQueueEngine>>,
  conn: QueueConnection,
  queueName: string,
  prefix: string,
  timeoutMs: number,
): Promise<Connections> {
  const {
    bullmq: { Queue, QueueEvents },
    ioredis: { Redis },
  } = engine;
  const swallow = () => undefined; // connection errors surface through the watchdog, not as crashes
  // the event stream is trimmed short: results never travel in it, and the producer polls besides
  const queue = new Queue(queueName, { connection: conn.options, prefix, streams: { events: { maxLen: EVENTS_MAX_LEN } } });
  queue.on("error", swallow);
  const events = new QueueEvents(queueName, { connection: conn.options, prefix });
  events.on("error", swallow);
  const redis = new Redis({ ...conn.options, lazyConnect: false });
  redis.on("error", swallow);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.all([queue.waitUntilReady(), events.waitUntilReady(), redis.ping()]),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), timeoutMs))),
    ]);
  } catch (e) {
    await closeWithin([events, queue], redis, 1000);
    throw new QueueConnectionError(`cannot reach the queue ${conn.safeUrl}: ${safeMessage(e, conn.redact)}`, conn.safeUrl);
  } finally {
    clearTimeout(timer);
  }
  return { queue, events, redis };
}
