// The worker-thread entry of the bulk scorer (run by piscina). Each worker instantiates the WASM kernels
// once, builds the metrics from the job's specs (importing plug-in modules), then scores chunks and
// bootstrap batches. Results travel back with their buffers transferred, not copied.
import { ready } from "@evalkern/core-wasm";
import { parentPort, threadId } from "node:worker_threads";
import { move, transferableSymbol, valueSymbol, workerData } from "piscina";
import { scoreChunk, type ChunkContext, type ChunkInput, type ChunkOutput, type ChunkResult } from "../bulk/chunk.js";
import { createBulkMetric, type NormalizedMetric } from "../bulk/metrics.js";
import type { ResolvedFields } from "../bulk/records.js";
import { bootstrapSums, type BootstrapTask } from "./bootstrap-files.js";
import { COMPILING, type WorkerNotice } from "./pool.js";

export interface WorkerConfig {
  readonly metrics: readonly NormalizedMetric[];
  readonly fields: ResolvedFields;
  /** The output's rendering: score lines, the input rows with their scores (scoreFile `outputRows: "rows"`), or values (streams). */
  readonly output: ChunkOutput;
  readonly keepStatistics: boolean;
  readonly strictUtf8?: boolean;
  /** Shared counters of the pool (`COMPILING`): threads inside a WebAssembly compilation. */
  readonly lifecycle?: SharedArrayBuffer;
}

export type WorkerTask =
  | {
      readonly type: "chunk";
      readonly input: ChunkInput;
      /** 8 bytes shared with the main thread: the worker writes `Date.now()` when scoring starts (time budgets). */
      readonly started?: SharedArrayBuffer;
      /** Byte offset of the chunk in the input file (not used here; the queue pool may send workers a file range). */
      readonly offset?: number;
    }
  | ({ readonly type: "bootstrap" } & BootstrapTask);

let contextPromise: Promise<ChunkContext> | undefined;

const lifecycle = (workerData as WorkerConfig | undefined)?.lifecycle ? new Int32Array((workerData as WorkerConfig).lifecycle!) : undefined;
const notify = (m: WorkerNotice): void => parentPort?.postMessage(m);

/** Run `fn` counted as a compilation: the pool does not terminate this thread until it is over. */
async function compiling<T>(fn: () => Promise<T> | T): Promise<T> {
  if (lifecycle) Atomics.add(lifecycle, COMPILING, 1);
  try {
    return await fn();
  } finally {
    if (lifecycle) Atomics.sub(lifecycle, COMPILING, 1);
  }
}

// every import is loaded (and the loader's own WebAssembly compiled): from here on the pool may end this thread
notify({ evalkern: "booted", threadId });

function chunkContext(): Promise<ChunkContext> {
  return (contextPromise ??= compiling(async () => {
    await ready();
    const config = workerData as WorkerConfig;
    const metrics = await Promise.all(config.metrics.map((m) => createBulkMetric(m, { load: true })));
    return {
      metrics,
      fields: config.fields,
      output: config.output,
      keepStatistics: config.keepStatistics,
      strictUtf8: config.strictUtf8 === true,
    };
  }));
}

function transferable<T extends object>(value: T, buffers: ArrayBufferLike[]): unknown {
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return value;
    },
  } as unknown as Parameters<typeof move>[0]);
}

export default async function run(task: WorkerTask): Promise<unknown> {
  if (task.type === "bootstrap") {
    const sums = await compiling(() => bootstrapSums(task)); // the first one compiles the resampling kernel
    return transferable({ sums }, [sums.buffer]);
  }
  const ctx = await chunkContext();
  if (task.started) new Float64Array(task.started)[0] = Date.now(); // the budget starts now, not when queued
  const result: ChunkResult = scoreChunk(task.input, ctx);
  const buffers: ArrayBufferLike[] = [];
  for (const b of [result.output, result.statistics, result.values, result.positions]) if (b) buffers.push(b.buffer);
  // memory V8 kept after a huge row (WebAssembly memories given up but not returned): the pool retires this thread
  notify({ evalkern: "memory", threadId, externalBytes: process.memoryUsage().external });
  return transferable(result, buffers);
}
