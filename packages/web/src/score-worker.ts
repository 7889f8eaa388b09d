// A scoring worker: the harness's `scoreChunk` (the same function scoreFile's worker threads run) over
// chunks of whole records, with the registry's metrics built from the same normalized specs, on the
// same WebAssembly kernels. One per core; the page hands out the chunks and merges the results in order.
import { ready } from "@evalkern/core-wasm";
import { createBulkMetric, scoreChunk, type BulkMetric, type ChunkContext } from "@evalkern/harness/browser";
import { listMetrics, loadMetrics } from "@evalkern/metrics/registry";
import type { FromScoreWorker, ToScoreWorker } from "./protocol.js";

declare const self: DedicatedWorkerGlobalScope;

let ctx: ChunkContext | undefined;
// everything the worker needs, loaded when it starts (so scoring works offline once the page is open)
const warm = ready().then(() => loadMetrics(listMetrics().map((m) => m.name)));

function post(msg: FromScoreWorker, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

self.onmessage = async (ev: MessageEvent<ToScoreWorker>) => {
  const msg = ev.data;
  try {
    if (msg.type === "warm") {
      await warm;
      post({ type: "ready" });
    } else if (msg.type === "init") {
      await warm;
      const metrics: BulkMetric[] = await Promise.all(msg.specs.map((s) => createBulkMetric(s, { load: true })));
      ctx = { metrics, fields: msg.fields, output: { kind: "rows", rows: msg.rows }, keepStatistics: true };
      post({ type: "ready" });
    } else if (msg.type === "chunk") {
      if (!ctx) throw new Error("internal: chunk before init");
      const result = scoreChunk(msg.input, ctx);
      const transfer: Transferable[] = [];
      if (result.output) transfer.push(result.output.buffer);
      if (result.statistics) transfer.push(result.statistics.buffer);
      post({ type: "result", id: msg.id, result }, transfer);
    }
  } catch (e) {
    post({ type: "error", ...("id" in msg ? { id: msg.id } : {}), message: (e as Error)?.message ?? String(e) });
  }
};
