// The worker pool (piscina over worker_threads). Under vitest the sources run as TypeScript, which
// worker threads cannot load, so the compiled worker in dist/ is used then.
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import type { WorkerConfig, WorkerTask } from "./worker.js";

export function workerFilename(): string {
  const here = import.meta.url;
  const url = here.endsWith(".ts") ? new URL("../../dist/node/worker.js", here) : new URL("./worker.js", here);
  return fileURLToPath(url);
}

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

export interface WorkerPool {
  /**
   * Run a task. Aborting `signal` rejects the call; a task already running is stopped by terminating
   * its worker thread (piscina starts a fresh one), which ends even a metric stuck in a loop.
   */
  run<R>(task: WorkerTask, transfer?: ArrayBufferLike[], signal?: AbortSignal): Promise<R>;
  destroy(): Promise<void>;
  readonly threads: number;
}

/**
 * A pool of `threads` worker threads, at most one per available core: more only cost memory (each
 * thread holds its own isolate and WASM instance, ~11 MB) and, past a few thousand, abort the process.
 */
export function createPool(requested: number, config: WorkerConfig): WorkerPool {
  const threads = Math.max(1, Math.min(requested, defaultWorkers()));
  const pool = new Piscina({
    filename: workerFilename(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    workerData: config,
    // a queue bounded by our own window; piscina's default would reject beyond maxQueue
    maxQueue: Infinity,
  });
  return {
    threads,
    run: <R>(task: WorkerTask, transfer?: ArrayBufferLike[], signal?: AbortSignal) =>
      pool.run(task, {
        ...(transfer && transfer.length ? { transferList: transfer as unknown as NonNullable<Parameters<Piscina["run"]>[1]>["transferList"] } : {}),
        ...(signal ? { signal } : {}),
      }) as Promise<R>,
    destroy: () => pool.destroy(),
  };
}
