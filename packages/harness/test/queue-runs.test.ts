// Runs on a shared queue stay apart and leave nothing behind (issue 19, items 10–12 and 14), on a real
// redis-server started here:
// - a worker of another build is refused: a job signed by a producer of another version fails with a
//   message naming both signatures, and a result a worker did not sign with the producer's signature is
//   never committed;
// - a killed producer's jobs and results expire, and a later run under the same name takes none of them;
// - ten back-to-back runs leave Redis as they found it (keys, event stream, memory);
// - a worker asked to stop while Redis is gone stops within seconds and says what it could not deliver.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Queue, Worker as BullWorker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreFile } from "../src/index.js";
import { normalizeMetrics } from "../src/bulk/metrics.js";
import { resolveFields } from "../src/bulk/records.js";
import type { ChunkResult } from "../src/bulk/chunk.js";
import { createPool } from "../src/node/pool.js";
import {
  QueueConnectionError,
  QueueJobRejectedError,
  parseQueueUrl,
  runWorker,
  scoreFileDistributed,
  validateRemoteConfig,
} from "../src/node/queue/index.js";
import { decodeInput, encode, encodeInput, queueSignature, EVENTS_MAX_LEN, WIRE_VERSION } from "../src/node/queue/wire.js";
import { makePairs, tempDir } from "./helpers.js";
import { PRODUCER, procs, start } from "./queue-procs.js";
import { freePort, REDIS_SKIP_MESSAGE, RedisServer, redisAvailable } from "./redis.js";

const available = redisAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);

const METRICS = ["bleu", "chrf"];
const CHUNK = 8 << 10;

/** What `promise` settles with, or `late` when it has not settled after `ms` (a hang is a failure, not a stuck test). */
function within(promise: Promise<unknown>, ms: number, late: string): Promise<unknown> {
  return Promise.race([
    promise.then(
      (v) => v,
      (e: unknown) => e,
    ),
    new Promise((r) => setTimeout(() => r(late), ms)),
  ]);
}

/** Poll `fn` every 200 ms until it returns true; false after `ms`. */
async function eventually(fn: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await fn()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!available)("runs on a shared queue", () => {
  let dir: string;
  let input: string;
  let redis: RedisServer;
  let client: Redis;

  beforeAll(async () => {
    dir = tempDir("evalkern-queue-runs-");
    input = makePairs(dir, 41, 600);
    redis = new RedisServer(await freePort(), dir);
    await redis.start();
    client = new Redis(parseQueueUrl(redis.url).options);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill()));
    client?.disconnect();
    await redis?.stop();
  });

  it("a job still being added is not polled: no spurious 'lost from Redis; added again' while Queue.add is slow", async () => {
    // Deterministic: every Queue.add waits until a poll of its job's state has come back (the race the
    // old order lost: the poller saw "unknown", logged the job as lost and added it again) or, when no
    // such poll comes (the fixed order), for five poll intervals.
    const pollIntervalMs = 100;
    const polled = new Map<string, () => void>();
    const origState = Queue.prototype.getJobState;
    const origAdd = Queue.prototype.add;
    Queue.prototype.getJobState = async function (this: Queue, id: string) {
      const state = await origState.call(this, id);
      polled.get(id)?.();
      return state;
    } as typeof origState;
    Queue.prototype.add = async function (this: Queue, ...args: Parameters<typeof origAdd>) {
      const id = args[2]?.jobId;
      if (id !== undefined && args[0] === "chunk") {
        await new Promise<void>((resolve) => {
          polled.set(id, resolve);
          setTimeout(resolve, 5 * pollIntervalMs);
        });
        polled.delete(id);
      }
      return origAdd.apply(this, args);
    } as typeof origAdd;
    const lines: string[] = [];
    let requeued = -1;
    const worker = await runWorker({ queue: redis.url, queueName: "slow-add", concurrency: 1 });
    try {
      await scoreFileDistributed({
        input,
        output: join(dir, "slow-add.jsonl"),
        metrics: METRICS,
        chunkBytes: CHUNK,
        queue: redis.url,
        queueName: "slow-add",
        pollIntervalMs,
        log: (l) => lines.push(l),
        progressIntervalMs: 50,
        onQueueProgress: (p) => (requeued = p.chunksRequeued),
      });
    } finally {
      Queue.prototype.getJobState = origState;
      Queue.prototype.add = origAdd;
      await worker.close();
    }
    expect(lines.filter((l) => /added again/.test(l))).toEqual([]);
    expect(requeued).toBe(0);
    const local = join(dir, "slow-add-local.jsonl");
    await scoreFile({ input, output: local, metrics: METRICS, chunkBytes: CHUNK });
    expect(readFileSync(join(dir, "slow-add.jsonl")).equals(readFileSync(local))).toBe(true);
  }, 60_000);

  it("a worker refuses a job signed by a producer of another build, naming both signatures in the failure and its log", async () => {
    const lines: string[] = [];
    const worker = await runWorker({ queue: redis.url, queueName: "sig", concurrency: 1, log: (l) => lines.push(l) });
    const queue = new Queue("sig", { connection: parseQueueUrl(redis.url).options });
    try {
      const metrics = normalizeMetrics(["bleu"]);
      const ours = await queueSignature(metrics);
      const theirs = ours.replace(/harness:[^|]+/, "harness:0.0.9").replace(/wasm:[0-9a-f]+/, "wasm:0123456789ab");
      expect(theirs).not.toBe(ours);
      const fields = resolveFields({ hypothesis: "hyp", references: ["refs"] });
      const config = { metrics, fields, keepStatistics: true, strictUtf8: false, rowTimeoutMs: 0 };
      const bytes = new TextEncoder().encode(`${JSON.stringify({ hyp: "a b c", refs: ["a b c"] })}\n`);
      const chunk = encodeInput({ kind: "jsonl", bytes, firstLine: 1 });
      const data = {
        v: WIRE_VERSION,
        run: "other-build.0011223344556677",
        sig: theirs,
        ttlMs: 60_000,
        config,
        lines: [1, 1],
        input: chunk,
      };
      await queue.add("chunk", data, { jobId: "other-build.1.x", attempts: 3 });
      expect(await eventually(async () => (await queue.getJobState("other-build.1.x")) === "failed", 30_000)).toBe(true);
      const job = await queue.getJob("other-build.1.x");
      expect(job!.failedReason).toContain(`version mismatch: this worker is ${ours}, the producer is ${theirs}`);
      expect(job!.attemptsMade).toBe(1); // refused at once, not retried
      expect(lines.join("\n")).toContain(`failed: job refused: version mismatch: this worker is ${ours}`);
      expect(worker.scored()).toBe(0);
    } finally {
      await queue.close();
      await worker.close();
    }
  }, 60_000);

  it("the producer commits no result a worker did not sign with the producer's signature", async () => {
    // a worker of an earlier build: it scores the chunk with the same per-chunk code, and returns the
    // result as the job's return value without any signature (what evalkern workers did before signatures)
    const connection = parseQueueUrl(redis.url).options;
    let taken = 0;
    const old = new BullWorker(
      "unsigned",
      async (job: Job) => {
        const config = validateRemoteConfig((job.data as { config: unknown }).config);
        const chunk = decodeInput((job.data as { input: unknown }).input);
        const pool = createPool(1, config);
        try {
          const result = await pool.run<ChunkResult>({ type: "chunk", input: chunk as never }, []);
          taken++;
          return encode(result);
        } finally {
          await pool.destroy();
        }
      },
      { connection, concurrency: 1 },
    );
    try {
      const output = join(dir, "unsigned.jsonl");
      const options = {
        input,
        output,
        metrics: METRICS,
        chunkBytes: CHUNK,
        queue: redis.url,
        queueName: "unsigned",
        job: "unsigned",
        pollIntervalMs: 200,
      };
      const error = await scoreFileDistributed(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueueJobRejectedError);
      expect((error as Error).message).toMatch(
        new RegExp(`was scored by a worker that did not sign its result .* this producer is evalkern-queue:${WIRE_VERSION}\\|harness:`),
      );
      expect(taken).toBeGreaterThan(0);
      expect(readFileSync(output).length).toBe(0); // not one of its rows was committed
    } finally {
      await old.close();
    }
  }, 120_000);

  it("a killed producer's jobs and results expire, and a later run under the same name takes none of them", async () => {
    const runs: string[] = [];
    const worker = await runWorker({
      queue: redis.url,
      queueName: "iso",
      concurrency: 1,
      lockDurationMs: 4000,
      stalledIntervalMs: 1000,
      beforeChunk: async ({ run }) => {
        runs.push(run);
        await new Promise((r) => setTimeout(r, 100));
      },
    });
    try {
      const base = { input, metrics: METRICS, chunkBytes: 4 << 10, queue: redis.url, queueName: "iso", job: "iso", pollIntervalMs: 200 };
      // nothing checkpointed: the chunks it finished stay in Redis when it is killed
      const first = start(PRODUCER, { ...base, output: join(dir, "iso-a.jsonl"), checkpointIntervalMs: 600_000, expireAfterMs: 2000 });
      expect(await eventually(async () => runs.length >= 3, 60_000)).toBe(true);
      await first.kill("SIGKILL");
      // nothing of the killed run stays: its jobs, results and keys go once its expiry passed
      const isoKeys = async () => {
        const registered = (await client.smembers("bull:iso:evalkern-runs")).filter((r) => r.startsWith("iso."));
        return [...(await client.keys("*iso.*")), ...registered];
      };
      expect(await isoKeys()).not.toEqual([]);
      const gone = await eventually(async () => (await isoKeys()).length === 0, 30_000);
      expect(gone, `left in Redis: ${(await isoKeys()).join(", ")}`).toBe(true);
      // a new run under the same name (not resuming): its chunks are its own, scored for it
      const before = runs.length;
      const output = join(dir, "iso-b.jsonl");
      const summary = await scoreFileDistributed({ ...base, output, resume: false });
      const second = runs.slice(before);
      expect(new Set(second).size).toBe(1);
      expect(second[0]).toMatch(/^iso\.[0-9a-f]{16}$/);
      expect(second[0]).not.toBe(runs[0]);
      expect(second.length).toBe(summary.diagnostics.chunks);
      const local = join(dir, "iso-local.jsonl");
      await scoreFile({ input, output: local, metrics: METRICS, chunkBytes: 4 << 10 });
      expect(readFileSync(output).equals(readFileSync(local))).toBe(true);
      expect(await isoKeys()).toEqual([]);
    } finally {
      await worker.close();
    }
  }, 150_000);

  it("ten back-to-back runs leave Redis flat: no results, the same keys, a short event stream, memory within 256 KiB", async () => {
    const worker = await runWorker({ queue: redis.url, queueName: "soak", concurrency: 1 });
    const memory = async () => Number(/used_memory:(\d+)/.exec(await client.info("memory"))![1]);
    const snapshot: { memory: number; keys: string }[] = [];
    // the queue's keys that do not expire by themselves (locks and BullMQ's stalled-check marker do)
    const lasting = async () => {
      const names = (await client.keys("bull:soak:*")).sort();
      const ttls = await Promise.all(names.map((k) => client.pttl(k)));
      return names.filter((_, i) => ttls[i] === -1).join(" ");
    };
    try {
      for (let i = 0; i < 10; i++) {
        const output = join(dir, `soak-${i}.jsonl`);
        const summary = await scoreFileDistributed({
          input,
          output,
          metrics: METRICS,
          chunkBytes: CHUNK,
          queue: redis.url,
          queueName: "soak",
          job: "soak",
          pollIntervalMs: 200,
        });
        expect(summary.rows.records).toBe(600);
        expect(await client.keys("*evalkern-result:*")).toEqual([]);
        snapshot.push({ memory: await memory(), keys: await lasting() });
      }
      const events = await client.xlen("bull:soak:events");
      // results never travel in the event stream; it is trimmed (approximately: whole stream nodes of 100)
      expect(events).toBeLessThanOrEqual(EVENTS_MAX_LEN + 100);
      const entries = await client.xrange("bull:soak:events", "-", "+");
      const longest = Math.max(...entries.map(([, fields]) => fields.join("").length));
      expect(longest).toBeLessThan(1000);
      // the same keys after every run: the queue's own (meta, id counter, events), no job, result or run key
      expect(snapshot[0]!.keys).toBe("bull:soak:events bull:soak:id bull:soak:meta");
      for (const s of snapshot) expect(s.keys).toBe(snapshot[0]!.keys);
      const growth = snapshot[9]!.memory - snapshot[1]!.memory;
      expect(growth, `used_memory per run: ${snapshot.map((s) => s.memory).join(", ")}`).toBeLessThan(256 << 10);
    } finally {
      await worker.close();
    }
  }, 240_000);

  it("Redis out of memory under noeviction: the run stops with QueueConnectionError saying so, it does not hang", async () => {
    const own = new RedisServer(await freePort(), dir);
    await own.start();
    const admin = new Redis(parseQueueUrl(own.url).options);
    const worker = await runWorker({ queue: own.url, concurrency: 1, closeTimeoutMs: 1000 });
    try {
      // room for about two chunks more than an idle queue needs
      const used = Number(/used_memory:(\d+)/.exec(await admin.info("memory"))![1]);
      await admin.config("SET", "maxmemory-policy", "noeviction");
      await admin.config("SET", "maxmemory", String(used + (256 << 10)));
      const run = scoreFileDistributed({
        input,
        output: join(dir, "oom.jsonl"),
        metrics: METRICS,
        chunkBytes: 64 << 10,
        queue: own.url,
        job: "oom",
        pollIntervalMs: 200,
      });
      const outcome = await within(run, 60_000, "still running after 60 s");
      expect(outcome).toBeInstanceOf(QueueConnectionError);
      expect((outcome as Error).message).toMatch(
        /OOM command not allowed .*\(Redis is out of memory: raise its maxmemory, or run fewer producers at once\)/,
      );
    } finally {
      await admin.config("SET", "maxmemory", "0");
      admin.disconnect();
      await worker.close().catch(() => undefined);
      await own.stop();
    }
  }, 120_000);

  it("a worker stopped while Redis is gone stops within seconds, with QueueConnectionError", async () => {
    const own = new RedisServer(await freePort(), dir);
    await own.start();
    const worker = await runWorker({ queue: own.url, concurrency: 1, closeTimeoutMs: 1000 });
    await own.stop();
    const t0 = Date.now();
    const outcome = await within(worker.close(), 30_000, "still closing after 30 s");
    expect(outcome).toBeInstanceOf(QueueConnectionError);
    expect((outcome as Error).message).toMatch(
      /Redis was unreachable for 1 s \(closeTimeoutMs\); the chunks this worker held were not delivered/,
    );
    expect(Date.now() - t0).toBeLessThan(30_000);
  }, 60_000);
});

it.skipIf(available)("queue run tests need redis-server", () => {
  console.warn(REDIS_SKIP_MESSAGE);
});
