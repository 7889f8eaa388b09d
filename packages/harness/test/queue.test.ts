// Distributed scoring on a real BullMQ queue: a real redis-server on a loopback port, worker processes
// (test/fixtures/queue-worker.mjs) and producer processes (queue-producer.mjs). The files a distributed
// run writes must be byte-identical to a local `scoreFile` run's, whatever dies on the way: a worker
// SIGKILLed mid-chunk, the producer SIGKILLed and restarted with the same job name, Redis restarted
// (without persistence: every job lost). A chunk that crashes its workers again and again ends the run
// with ChunkFailedError naming its lines; jobs naming plug-in code are refused; passwords never show.
//
// No wall-clock races: the test acts on what the processes print (READY, STARTED, CHUNK) and on the
// checkpoint file; timeouts are generous (the machine may have 2 busy cores).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkpointPath, scoreFile, statisticsPath, summaryPath } from "../src/index.js";
import {
  QueueConnectionError,
  QueueJobRejectedError,
  parseQueueUrl,
  runWorker,
  scoreFileDistributed,
  validateRemoteConfig,
} from "../src/node/queue/index.js";
import { makePairs, tempDir } from "./helpers.js";
import { freePort, REDIS_SKIP_MESSAGE, RedisServer, redisAvailable } from "./redis.js";
import { PRODUCER, procs, start, WORKER, type Proc } from "./queue-procs.js";

const available = redisAvailable();
if (!available) console.warn(REDIS_SKIP_MESSAGE);

const METRICS = ["bleu", { metric: "chrf", options: { wordOrder: 2 } }, "ter", "rougeL"];
const CHUNK = 16 << 10;
const BOOT = { resamples: 100, seed: 7 };
/** Small locks and stall checks so a dead worker's chunk moves on in seconds (never below what a loaded machine renews in time). */
const FAST = { concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000, maxStalledCount: 5 };

async function startWorker(url: string, extra: object = {}): Promise<Proc> {
  const w = start(WORKER, { queue: url, ...FAST, ...extra });
  await w.waitFor(/^READY$/);
  return w;
}

/** The files of a run, for byte comparison (the summary without its timing and run-specific fields). */
function runFiles(output: string): { output: Buffer; stats: Buffer; summary: Record<string, unknown> } {
  const summary = JSON.parse(readFileSync(summaryPath(output), "utf8")) as Record<string, unknown>;
  for (const k of ["elapsedMs", "output", "statistics", "resumed", "diagnostics"]) delete summary[k];
  return { output: readFileSync(output), stats: readFileSync(statisticsPath(output)), summary };
}

function expectSameRun(local: string, distributed: string): void {
  const a = runFiles(local);
  const b = runFiles(distributed);
  expect(b.output.equals(a.output)).toBe(true);
  expect(b.stats.equals(a.stats)).toBe(true);
  expect(b.summary).toEqual(a.summary);
}

/** Keys of a run left in Redis (its jobs and id set). */
async function runKeys(url: string, run: string): Promise<string[]> {
  const r = new Redis(parseQueueUrl(url).options);
  try {
    return (await r.keys(`*${run}*`)).sort();
  } finally {
    r.disconnect();
  }
}

describe.skipIf(!available)("scoreFileDistributed on BullMQ/Redis", () => {
  let dir: string;
  let input: string;
  let local: string;
  let redis: RedisServer;

  beforeAll(async () => {
    dir = tempDir("evalkern-queue-");
    input = makePairs(dir, 31, 4000);
    local = join(dir, "local.jsonl");
    await scoreFile({ input, output: local, metrics: METRICS, chunkBytes: CHUNK, bootstrap: BOOT });
    redis = new RedisServer(await freePort(), dir);
    await redis.start();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill()));
    await redis?.stop();
  });

  it("three workers, one SIGKILLed mid-chunk: its chunk is redelivered and the files are byte-identical to a local run", async () => {
    const victim = await startWorker(redis.url, { hangOnFirstChunk: true });
    const producer = start(PRODUCER, {
      input,
      output: join(dir, "kill-worker.jsonl"),
      metrics: METRICS,
      chunkBytes: CHUNK,
      bootstrap: BOOT,
      queue: redis.url,
      job: "kill-worker",
      pollIntervalMs: 200,
    });
    await victim.waitFor(/^STARTED$/);
    const held = victim.chunks()[0]!;
    await victim.kill("SIGKILL"); // mid-chunk: it holds the chunk's lock and never finishes it
    const others = [await startWorker(redis.url), await startWorker(redis.url)];
    await producer.waitFor(/^DONE /, 150_000);
    expect((await producer.exited).code).toBe(0);
    expectSameRun(local, join(dir, "kill-worker.jsonl"));
    // the killed worker's chunk was scored by another worker
    expect(others.flatMap((w) => w.chunks())).toContain(held);
    // the run's jobs are gone from Redis
    expect(await runKeys(redis.url, "kill-worker")).toEqual([]);
    await Promise.all(others.map((w) => w.kill("SIGTERM")));
  }, 200_000);

  it("the bootstrap's super-blocks run on the workers: one SIGKILLed mid-super-block, the CIs are still the local run's", async () => {
    // three super-blocks (2 × 32768 usable rows and a short one), so the producer adds sums from several workers
    const big = makePairs(dir, 41, 2 * 32768 + 3000, true);
    const metrics = ["bleu", "tokenF1"];
    const boot = { resamples: 40, seed: 3 };
    const bigLocal = join(dir, "big-local.jsonl");
    await scoreFile({ input: big, output: bigLocal, metrics, chunkBytes: 1 << 20, bootstrap: boot });
    const victim = await startWorker(redis.url, { hangOnFirstSuperBlock: true });
    const producer = start(PRODUCER, {
      input: big,
      output: join(dir, "big-queue.jsonl"),
      metrics,
      chunkBytes: 1 << 20,
      bootstrap: boot,
      queue: redis.url,
      job: "kill-boot",
      pollIntervalMs: 200,
    });
    await victim.waitFor(/^SUPERSTARTED$/, 150_000); // it scored every chunk, then took a super-block
    const held = Number(victim.lines.find((l) => l.startsWith("SUPERBLOCK "))!.split(" ")[1]);
    await victim.kill("SIGKILL");
    const others = [await startWorker(redis.url), await startWorker(redis.url)];
    await producer.waitFor(/^DONE /, 150_000);
    expect((await producer.exited).code).toBe(0);
    expectSameRun(bigLocal, join(dir, "big-queue.jsonl"));
    const computed = others.flatMap((w) => w.lines.filter((l) => l.startsWith("SUPERBLOCK ")).map((l) => Number(l.split(" ")[1])));
    expect(computed).toContain(held);
    expect(new Set(computed)).toEqual(new Set([0, 1, 2]));
    expect(await runKeys(redis.url, "kill-boot")).toEqual([]);
    await Promise.all(others.map((w) => w.kill("SIGTERM")));
  }, 300_000);

  it("the producer SIGKILLed and restarted with the same job resumes without scoring finished chunks again", async () => {
    const workers = [await startWorker(redis.url, { delayMs: 40 }), await startWorker(redis.url, { delayMs: 40 })];
    const output = join(dir, "kill-producer.jsonl");
    const options = {
      input,
      output,
      metrics: METRICS,
      chunkBytes: CHUNK,
      bootstrap: BOOT,
      queue: redis.url,
      job: "kill-producer",
      pollIntervalMs: 200,
      checkpointIntervalMs: 0,
    };
    const first = start(PRODUCER, options);
    // SIGKILL once a checkpoint covers some rows but not all
    for (;;) {
      const ck = existsSync(checkpointPath(output))
        ? (JSON.parse(readFileSync(checkpointPath(output), "utf8")) as { nextLine: number; complete: boolean })
        : undefined;
      if (ck && ck.nextLine > 1000 && !ck.complete) break;
      if (first.proc.exitCode !== null) throw new Error(`the producer finished before it could be killed: ${first.stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await first.kill("SIGKILL");
    const second = start(PRODUCER, options);
    const done = await second.waitFor(/^DONE /, 150_000);
    expect(JSON.parse(done.slice(5))).toMatchObject({ records: 4000, resumed: true });
    expectSameRun(local, output);
    // every chunk was scored exactly once across the workers
    const scored = workers.flatMap((w) => w.chunks()).sort((a, b) => a - b);
    expect(new Set(scored).size).toBe(scored.length);
    expect(await runKeys(redis.url, "kill-producer")).toEqual([]);
    await Promise.all(workers.map((w) => w.kill("SIGTERM")));
  }, 200_000);

  it("Redis restarted mid-run (every job lost): the run goes on and writes the same files", async () => {
    const workers = [await startWorker(redis.url, { delayMs: 40 }), await startWorker(redis.url, { delayMs: 40 })];
    const output = join(dir, "restart-redis.jsonl");
    const producer = start(PRODUCER, {
      input,
      output,
      metrics: METRICS,
      chunkBytes: CHUNK,
      bootstrap: BOOT,
      queue: redis.url,
      job: "restart-redis",
      pollIntervalMs: 200,
      checkpointIntervalMs: 0,
    });
    for (;;) {
      const ck = existsSync(checkpointPath(output))
        ? (JSON.parse(readFileSync(checkpointPath(output), "utf8")) as { nextLine: number; complete: boolean })
        : undefined;
      if (ck && ck.nextLine > 500 && !ck.complete) break;
      if (producer.proc.exitCode !== null) throw new Error(`the producer finished before Redis could be restarted: ${producer.stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await redis.stop();
    await new Promise((r) => setTimeout(r, 500));
    await redis.start();
    await producer.waitFor(/^DONE /, 150_000);
    expect((await producer.exited).code).toBe(0);
    expectSameRun(local, output);
    expect(producer.stderr).toMatch(/lost from Redis; added again/);
    await Promise.all(workers.map((w) => w.kill("SIGTERM")));
  }, 200_000);

  const redisGone =
    "Redis gone for longer than connectionTimeoutMs: QueueConnectionError naming the URL; the same job resumes once it is back";
  it(redisGone, async () => {
    const workers = [await startWorker(redis.url, { delayMs: 40 }), await startWorker(redis.url, { delayMs: 40 })];
    const output = join(dir, "redis-gone.jsonl");
    const options = {
      input,
      output,
      metrics: METRICS,
      chunkBytes: CHUNK,
      bootstrap: BOOT,
      queue: redis.url,
      job: "redis-gone",
      pollIntervalMs: 200,
      checkpointIntervalMs: 0,
      connectionTimeoutMs: 3000,
    };
    const first = start(PRODUCER, options);
    for (;;) {
      const ck = existsSync(checkpointPath(output))
        ? (JSON.parse(readFileSync(checkpointPath(output), "utf8")) as { nextLine: number; complete: boolean })
        : undefined;
      if (ck && ck.nextLine > 500 && !ck.complete) break;
      if (first.proc.exitCode !== null) throw new Error(`the producer finished before Redis could be stopped: ${first.stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await redis.stop();
    const exit = await first.exited;
    expect(exit.code).toBe(1);
    expect(first.stderr).toMatch(
      new RegExp(`FAILED QUEUE_CONNECTION lost the connection to the queue redis://127\\.0\\.0\\.1:${redis.port}/0 for more than 3 s`),
    );
    await redis.start();
    const second = start(PRODUCER, options);
    const done = await second.waitFor(/^DONE /, 150_000);
    expect(JSON.parse(done.slice(5))).toMatchObject({ records: 4000, resumed: true });
    expectSameRun(local, output);
    await Promise.all(workers.map((w) => w.kill("SIGTERM")));
  }, 200_000);

  const killsEveryWorker =
    "a chunk that SIGKILLs every worker that takes it ends with ChunkFailedError naming its lines and saying the workers died";
  it(killsEveryWorker, async () => {
    // workers are restarted as they die, like a service manager would
    let stop = false;
    const supervise = async (): Promise<void> => {
      while (!stop) {
        const w = await startWorker(redis.url, { crashOnLine: 2000, maxStalledCount: 1 });
        await w.exited;
      }
    };
    const loops = [supervise(), supervise()];
    const producer = start(PRODUCER, {
      input,
      output: join(dir, "poison.jsonl"),
      metrics: METRICS,
      chunkBytes: CHUNK,
      queue: redis.url,
      job: "poison",
      pollIntervalMs: 200,
    });
    const exit = await producer.exited;
    stop = true;
    await Promise.all(procs.map((p) => p.kill()));
    await Promise.all(loops);
    expect(exit.code).toBe(1);
    // the workers died (SIGKILL), the lines are fine: the message must say so, not send the user to fix them
    const m = new RegExp(
      "FAILED CHUNK_FAILED the workers that took the chunk of input lines (\\d+)–(\\d+) died before finishing it " +
        "\\(2 times: killed, out of memory",
    ).exec(producer.stderr);
    expect(m, producer.stderr).not.toBeNull();
    expect(producer.stderr).not.toMatch(/fix or remove those lines/);
    expect(Number(m![1])).toBeLessThanOrEqual(2000);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2000);
  }, 200_000);

  it("sharedInput: workers allowed to read the file take byte ranges instead of bytes; others refuse them", async () => {
    const output = join(dir, "shared.jsonl");
    const reader = await runWorker({ queue: redis.url, concurrency: 1, sharedInputDirs: [dir] });
    try {
      await scoreFileDistributed({
        input,
        output,
        metrics: METRICS,
        chunkBytes: CHUNK,
        bootstrap: BOOT,
        queue: redis.url,
        job: "shared",
        pollIntervalMs: 200,
        sharedInput: input,
      });
      expect(reader.scored()).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
    expectSameRun(local, output);
    const blind = await runWorker({ queue: redis.url, concurrency: 1 });
    try {
      const e = await scoreFileDistributed({
        input,
        output: join(dir, "shared2.jsonl"),
        metrics: METRICS,
        chunkBytes: CHUNK,
        queue: redis.url,
        job: "shared2",
        pollIntervalMs: 200,
        sharedInput: input,
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(QueueJobRejectedError);
      expect((e as Error).message).toMatch(/reads none \(start it with sharedInputDirs/);
    } finally {
      await blind.close();
    }
  }, 120_000);

  it("workers refuse jobs that name plug-in modules (no code through the queue)", async () => {
    const worker = await runWorker({ queue: redis.url, concurrency: 1 });
    try {
      await expect(
        scoreFileDistributed({
          input,
          output: join(dir, "module.jsonl"),
          metrics: [{ metric: "module", name: "evil", module: "file:///tmp/evil.mjs", call: "pair" }],
          queue: redis.url,
          job: "module",
          pollIntervalMs: 200,
        }),
      ).rejects.toBeInstanceOf(QueueJobRejectedError);
    } finally {
      await worker.close();
    }
    expect(() =>
      validateRemoteConfig({
        metrics: [{ metric: "bleu", name: "bleu", options: { tokenize: "rm -rf" } }],
        fields: { hypothesis: "hyp", references: ["refs"] },
        keepStatistics: false,
        strictUtf8: false,
        rowTimeoutMs: 0,
      }),
    ).toThrow(/job refused/);
    expect(() =>
      validateRemoteConfig({
        metrics: [{ metric: "nope", name: "nope", options: {} }],
        fields: { hypothesis: "hyp", references: ["refs"] },
        keepStatistics: false,
        strictUtf8: false,
        rowTimeoutMs: 0,
      }),
    ).toThrow(/job refused/);
  }, 120_000);
});

describe.skipIf(!available)("queue URLs with passwords", () => {
  it("accepts redis://:password@host, never prints the password, and names the URL without it when it cannot connect", async () => {
    const dir = tempDir("evalkern-queue-auth-");
    const secret = "s3cr3t-PASS";
    const redis = new RedisServer(await freePort(), dir, secret);
    await redis.start();
    const lines: string[] = [];
    try {
      const input = makePairs(dir, 5, 300);
      const worker = await runWorker({ queue: redis.url, concurrency: 1, log: (l) => lines.push(l) });
      const summary = await scoreFileDistributed({
        input,
        output: join(dir, "out.jsonl"),
        metrics: ["bleu"],
        chunkBytes: 8 << 10,
        queue: redis.url,
        job: "auth",
        log: (l) => lines.push(l),
        onQueueProgress: (p) => lines.push(JSON.stringify(p)),
        progressIntervalMs: 100,
      });
      expect(summary.rows.records).toBe(300);
      await worker.close();
      const wrong = redis.url.replace(secret, "wrong-PASS");
      const e = await scoreFileDistributed({
        input,
        output: join(dir, "out2.jsonl"),
        metrics: ["bleu"],
        queue: wrong,
        job: "auth2",
        connectionTimeoutMs: 3000,
      }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(QueueConnectionError);
      expect((e as Error).message).not.toContain("wrong-PASS");
      expect((e as QueueConnectionError).url).toBe(`redis://:***@127.0.0.1:${redis.port}/0`);
    } finally {
      await redis.stop();
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).not.toContain(secret);
  }, 120_000);

  it("parses rediss:// as TLS and redacts any copy of the password", () => {
    const c = parseQueueUrl("rediss://user:p%40ss@redis.example:6380/3");
    expect(c.options).toMatchObject({
      host: "redis.example",
      port: 6380,
      db: 3,
      username: "user",
      password: "p@ss",
      tls: { servername: "redis.example" },
    });
    expect(c.safeUrl).toBe("rediss://user:***@redis.example:6380/3");
    expect(c.redact("auth p@ss failed for rediss://user:p%40ss@redis.example:6380/3")).toBe(
      "auth *** failed for rediss://user:***@redis.example:6380/3",
    );
    expect(() => parseQueueUrl("http://x")).toThrow(/redis:\/\//);
    expect(() => parseQueueUrl("redis://:pw@host/x")).toThrow(/database/);
  });
});

it.skipIf(available)("queue tests need redis-server", () => {
  console.warn(REDIS_SKIP_MESSAGE);
});
