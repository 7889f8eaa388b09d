// What a run leaves in Redis, and how it leaves. Every run registers itself in the queue's set of runs
// and keeps an "alive" key whose expiry its producer renews while it runs. A run whose producer stopped
// without cleaning up (killed, crashed, lost its machine) loses that key after `expireAfterMs`; from
// then on workers refuse its remaining chunks, and the next sweep (by any producer starting, and by every
// worker about every `stalledIntervalMs`) removes its jobs, results and keys. Results (the bulk of the
// bytes) carry a Redis expiry of their own as well, so they go even when nothing sweeps; the small sets
// that list runs and jobs have none, so that a sweep always finds what is left.
import type { Queue } from "bullmq";
import type { ChainableCommander, Redis } from "ioredis";
import type { QueueKeys } from "./wire.js";

/**
 * Send the commands of a pipeline in one write (each command is a loopback round trip otherwise, which
 * costs the producer more CPU than its own work on a chunk); rejects with the first command's error.
 */
export async function sendAll(pipeline: ChainableCommander): Promise<unknown[]> {
  const replies = (await pipeline.exec()) ?? [];
  for (const [e] of replies) if (e) throw e;
  return replies.map(([, r]) => r);
}

/** Remove one chunk (or super-block) job, its result and payload; false when a worker holds the job (it is removed later). */
export async function removeChunkJob(queue: Queue, redis: Redis, keys: QueueKeys, run: string, id: string): Promise<boolean> {
  if ((await queue.remove(id)) !== 1) return false;
  await sendAll(redis.pipeline().del(keys.result(id), keys.payload(id)).srem(keys.runJobs(run), id));
  return true;
}

/** Remove a run's jobs, results and keys; false when some job is held by a worker (try again later). */
export async function removeRunKeys(queue: Queue, redis: Redis, keys: QueueKeys, run: string): Promise<boolean> {
  let left = 0;
  for (const id of await redis.smembers(keys.runJobs(run))) {
    if (!(await removeChunkJob(queue, redis, keys, run, id))) left++;
  }
  if (left > 0) return false;
  await redis.del(keys.runJobs(run), keys.alive(run));
  await redis.srem(keys.runs, run);
  return true;
}

/** Remove what runs whose producers are gone left behind (their alive key expired); returns those runs. */
export async function sweepAbandonedRuns(queue: Queue, redis: Redis, keys: QueueKeys): Promise<string[]> {
  const swept: string[] = [];
  for (const run of await redis.smembers(keys.runs)) {
    if ((await redis.exists(keys.alive(run))) === 1) continue;
    if (await removeRunKeys(queue, redis, keys, run)) swept.push(run);
  }
  return swept;
}

/** Mark a run alive for `ttlMs` more (and register it). */
export async function keepRunAlive(redis: Redis, keys: QueueKeys, run: string, ttlMs: number): Promise<void> {
  await sendAll(redis.pipeline().set(keys.alive(run), "1", "PX", ttlMs).sadd(keys.runs, run));
}
