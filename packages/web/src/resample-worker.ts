// A resampling helper of the statistics worker: holds a copy of the runs' statistics rows and computes
// whole resamples [from, to) with the harness's `bootstrapSumsOf` (each resample whole in one worker, so
// the sums do not depend on how the ranges are spread: the same as scoreFile's worker pool).
import { bootstrapSumsOf, type ResampleRange } from "@evalkern/harness/browser";

declare const self: DedicatedWorkerGlobalScope;

export type ToResampleWorker =
  | { readonly type: "data"; readonly key: string; readonly blocks: readonly Float32Array[] }
  | { readonly type: "range"; readonly seq: number; readonly a: string; readonly b?: string; readonly task: ResampleRange };

export type FromResampleWorker =
  | { readonly type: "sums"; readonly seq: number; readonly sums: Float64Array }
  | { readonly type: "error"; readonly seq: number; readonly message: string };

const data = new Map<string, readonly Float32Array[]>();

self.onmessage = (ev: MessageEvent<ToResampleWorker>) => {
  const m = ev.data;
  if (m.type === "data") {
    data.set(m.key, m.blocks);
    return;
  }
  try {
    const a = data.get(m.a);
    const b = m.b !== undefined ? data.get(m.b) : undefined;
    if (!a || (m.b !== undefined && !b)) throw new Error(`internal: no statistics ${m.a}/${m.b ?? ""}`);
    const sums = bootstrapSumsOf(a, b, m.task);
    self.postMessage({ type: "sums", seq: m.seq, sums } satisfies FromResampleWorker, [sums.buffer]);
  } catch (e) {
    self.postMessage({ type: "error", seq: m.seq, message: (e as Error)?.message ?? String(e) } satisfies FromResampleWorker);
  }
};
