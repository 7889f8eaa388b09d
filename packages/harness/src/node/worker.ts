// The worker-thread entry of the bulk scorer (run by piscina). Each worker instantiates the WASM kernels
// once, builds the metrics from the job's specs (importing plug-in modules), then scores chunks and
// bootstrap batches. Results travel back with their buffers transferred, not copied.
import { ready } from "@evalkern/core-wasm";
import { move, transferableSymbol, valueSymbol, workerData } from "piscina";
import { scoreChunk, type ChunkContext, type ChunkInput, type ChunkResult } from "../bulk/chunk.js";
import { createBulkMetric, type NormalizedMetric } from "../bulk/metrics.js";
import type { ResolvedFields } from "../bulk/records.js";
import type { RowsOutput } from "../bulk/rows.js";
import { bootstrapSums, type BootstrapTask } from "./bootstrap-files.js";

export interface WorkerConfig {
  readonly metrics: readonly NormalizedMetric[];
  readonly fields: ResolvedFields;
  readonly jsonOutput: boolean;
  readonly keepStatistics: boolean;
  readonly positionKey: "line" | "index";
  /** Write the input rows with their scores (scoreFile `outputRows: "rows"`). */
  readonly rows?: RowsOutput | undefined;
  readonly strictUtf8?: boolean;
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

function chunkContext(): Promise<ChunkContext> {
  return (contextPromise ??= (async () => {
    await ready();
    const config = workerData as WorkerConfig;
    const metrics = await Promise.all(config.metrics.map((m) => createBulkMetric(m, { load: true })));
    return {
      metrics,
      fields: config.fields,
      jsonOutput: config.jsonOutput,
      keepStatistics: config.keepStatistics,
      positionKey: config.positionKey,
      rows: config.rows,
      strictUtf8: config.strictUtf8 === true,
    };
  })());
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
    const sums = bootstrapSums(task);
    return transferable({ sums }, [sums.buffer]);
  }
  const ctx = await chunkContext();
  if (task.started) new Float64Array(task.started)[0] = Date.now(); // the budget starts now, not when queued
  const result: ChunkResult = scoreChunk(task.input, ctx);
  const buffers: ArrayBufferLike[] = [];
  for (const b of [result.output, result.statistics, result.values, result.positions]) if (b) buffers.push(b.buffer);
  return transferable(result, buffers);
}
