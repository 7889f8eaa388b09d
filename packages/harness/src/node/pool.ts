// The worker pool (piscina over worker_threads). Under vitest the sources run as TypeScript, which
// worker threads cannot load, so the compiled worker in dist/ is used then.
//
// Thread lifecycle. Threads start on demand (a run of one chunk starts one thread) and are never
// terminated while they boot: a booting thread compiles WebAssembly (Node's ESM loader compiles its
// CommonJS lexer when worker.js imports a CommonJS package; our kernels compile on the first task), and
// terminating a thread in the middle of a compilation can kill the whole process by a signal
// (nodejs/node#33377), so `destroy()` first waits until every thread has booted and none is compiling.
// A thread whose memory grew past `RECYCLE_EXTERNAL_BYTES` (a huge row: V8 keeps WebAssembly memories
// it has given up) is retired: later tasks go to fresh threads, and the old ones end once idle.
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { MEMORY_RESET_BYTES } from "@evalkern/core-wasm";
import type { WorkerConfig, WorkerTask } from "./worker.js";

export function workerFilename(): string {
  const here = import.meta.url;
  const url = here.endsWith(".ts") ? new URL("../../dist/node/worker.js", here) : new URL("./worker.js", here);
  return fileURLToPath(url);
}

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

/** A worker whose isolate holds more external memory than this after a task is retired (see above). */
export const RECYCLE_EXTERNAL_BYTES = 4 * MEMORY_RESET_BYTES;
/** How long `destroy()` waits for booting or compiling threads before terminating them anyway. */
const BOOT_WAIT_MS = 60_000;

/** Messages a worker thread posts to the pool (besides piscina's own). */
export type WorkerNotice =
  | { readonly evalkern: "booted"; readonly threadId: number }
  | { readonly evalkern: "memory"; readonly threadId: number; readonly externalBytes: number };

/** The slot of the shared lifecycle counters (`WorkerConfig.lifecycle`): threads inside a WebAssembly compilation. */
export const COMPILING = 0;

export interface PoolStats {
  /** Threads started so far (fresh threads after a time-out or a retirement included). */
  readonly started: number;
  /** Threads retired because their memory grew past `RECYCLE_EXTERNAL_BYTES`. */
  readonly retired: number;
}

export interface WorkerPool {
  /**
   * Run a task. Aborting `signal` rejects the call; a task already running is stopped by terminating
   * its worker thread (piscina starts a fresh one), which ends even a metric stuck in a loop.
   */
  run<R>(task: WorkerTask, transfer?: ArrayBufferLike[], signal?: AbortSignal): Promise<R>;
  destroy(): Promise<void>;
  readonly threads: number;
  /**
   * `run` reads a chunk's bytes before it returns and never transfers them (the queue pool hashes or
   * encodes them at once): the pipeline then hands it views of its read buffers instead of copies.
   */
  readonly consumesInputAtOnce?: boolean;
  /** Thread counts of a local pool (a queue-backed pool has none). */
  stats?(): PoolStats;
}

/** One piscina instance and what its threads told us. */
interface Generation {
  readonly piscina: Piscina;
  readonly booted: Set<number>;
  retiring: boolean;
}

/**
 * A pool of up to `threads` worker threads, at most one per available core: more only cost memory (each
 * thread holds its own isolate and WASM instance, ~11 MB) and, past a few thousand, abort the process.
 */
export function createPool(requested: number, config: WorkerConfig): WorkerPool {
  const threads = Math.max(1, Math.min(requested, defaultWorkers()));
  const lifecycle = new Int32Array(new SharedArrayBuffer(4));
  let started = 0;
  let retired = 0;
  const generations = new Set<Generation>();
  const spawn = (): Generation => {
    const piscina = new Piscina({
      filename: workerFilename(),
      // on demand: a thread that would have nothing to do is never started (nor terminated while booting)
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
      workerData: { ...config, lifecycle: lifecycle.buffer } satisfies WorkerConfig,
      // a queue bounded by our own window; piscina's default would reject beyond maxQueue
      maxQueue: Infinity,
    });
    const g: Generation = { piscina, booted: new Set(), retiring: false };
    piscina.on("message", (m: WorkerNotice) => {
      if (m?.evalkern === "booted") {
        g.booted.add(m.threadId);
        started++;
      } else if (m?.evalkern === "memory" && m.externalBytes > RECYCLE_EXTERNAL_BYTES && !g.retiring) {
        // at once, not at the next task: the last task of a run may be the huge one
        g.retiring = true;
        retired++;
        if (current === g) current = spawn(); // no thread starts until a task comes
        retire(g);
      }
    });
    generations.add(g);
    return g;
  };
  const retire = (g: Generation): void => {
    // ends the threads once their running and queued tasks are done
    void safeEnd(g, lifecycle, () => g.piscina.close({ force: false })).finally(() => generations.delete(g));
  };
  let current = spawn();
  return {
    threads,
    run: <R>(task: WorkerTask, transfer?: ArrayBufferLike[], signal?: AbortSignal) => {
      return current.piscina.run(task, {
        ...(transfer && transfer.length
          ? { transferList: transfer as unknown as NonNullable<Parameters<Piscina["run"]>[1]>["transferList"] }
          : {}),
        ...(signal ? { signal } : {}),
      }) as Promise<R>;
    },
    destroy: async () => {
      await Promise.all([...generations].map((g) => safeEnd(g, lifecycle, () => g.piscina.destroy())));
      generations.clear();
    },
    stats: () => ({ started, retired }),
  };
}

/** Run `end` (which terminates `g`'s threads) once no thread of `g` is booting and none is compiling. */
async function safeEnd(g: Generation, lifecycle: Int32Array, end: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + BOOT_WAIT_MS;
  const settled = () => Atomics.load(lifecycle, COMPILING) === 0 && g.piscina.threads.every((w) => g.booted.has(w.threadId));
  while (!settled() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  await end();
}
