// Scoring one input in the page: the input is read in blocks (Blob.slice, never whole), cut at record
// boundaries into chunks by the harness's `RecordCutter` (as scoreFile cuts files), and the chunks are
// scored by a pool of Web Workers (one per core) running the harness's `scoreChunk`; results are folded
// in input order (`InOrderCommitter`) into the harness's `RunTally`, as scoreFile folds its workers'
// (exact partial sums, left-to-right sequential sums, counts, the first bad rows). What is kept: the
// scored rows as Blob parts (for the download and the report, which streams them back) and the
// statistics rows (for CIs, slices and the paired test) — no parsed row and no text in JS memory.
import {
  EvalkernError,
  InOrderCommitter,
  RecordCutter,
  RunTally,
  firstRecordBoundary,
  countNewlines,
  type ChunkInput,
  type ChunkResult,
  type Cut,
  type MemoryRun,
  type NormalizedMetric,
  type ResolvedFields,
  type RowCounts,
  type RowsOutput,
} from "@evalkern/harness/browser";
import type { FromScoreWorker, ScoreInit } from "./protocol.js";

/** Bytes per chunk (scoreFile's default). */
export const CHUNK_BYTES = 512 << 10;
/** Rows longer than this are bad rows `row_too_large`, not scored (scoreFile's default `maxRowBytes`). */
export const MAX_ROW_BYTES = 16 << 20;
const READ_BLOCK = 4 << 20;

export interface ScoreProgress {
  readonly bytes: number;
  readonly totalBytes: number;
  readonly records: number;
  readonly elapsedMs: number;
}

/** A scored input: its run for the statistics, its output rows, and the tally's counts and first bad rows. */
export interface ScoredBlob extends Pick<RowCounts, "records" | "scored" | "bad" | "badByCode" | "badSamples"> {
  readonly run: MemoryRun;
  readonly output: Blob;
  readonly elapsedMs: number;
}

/** A run stopped by the Cancel button (not a failure: the page shows "cancelled"). */
export class Cancelled extends EvalkernError {
  override name = "Cancelled";
  override readonly code: string = "CANCELLED";
}

/** A pool of scoring workers, started once (so the page keeps working offline) and re-initialised per run. */
export class WorkerPool {
  readonly workers: Worker[] = [];
  readonly #make: () => Worker;
  #warm: Promise<void>;

  constructor(size: number, make: () => Worker) {
    this.#make = make;
    for (let i = 0; i < size; i++) this.workers.push(make());
    this.#warm = Promise.all(this.workers.map((w) => this.#ask(w, { type: "warm" }))).then(() => undefined);
  }

  get size(): number {
    return this.workers.length;
  }

  warm(): Promise<void> {
    return this.#warm;
  }

  #ask(w: Worker, msg: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      w.onmessage = (ev: MessageEvent<FromScoreWorker>) =>
        ev.data.type === "ready" ? resolve() : ev.data.type === "error" ? reject(new Error(ev.data.message)) : undefined;
      w.onerror = (ev) => reject(new Error(ev.message || "worker failed to start"));
      w.postMessage(msg);
    });
  }

  init(msg: ScoreInit): Promise<void> {
    return Promise.all(this.workers.map((w) => this.#ask(w, msg))).then(() => undefined);
  }

  /** Stop every worker (cancel) and start fresh ones. */
  restart(): void {
    for (let i = 0; i < this.workers.length; i++) {
      this.workers[i]!.terminate();
      this.workers[i] = this.#make();
    }
    this.#warm = Promise.all(this.workers.map((w) => this.#ask(w, { type: "warm" }))).then(() => undefined);
  }
}

export interface ScoreJob {
  readonly blob: Blob;
  readonly format: "jsonl" | "csv";
  readonly delimiter: string;
  readonly specs: readonly NormalizedMetric[];
  readonly widths: readonly number[];
  readonly fields: ResolvedFields;
  readonly rows: RowsOutput;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: ScoreProgress) => void;
}

/** The byte offset and line of the first data record (after a BOM and the CSV header), and the header. */
export async function dataStart(
  blob: Blob,
  format: "jsonl" | "csv",
  delimiter: string,
  parseHeader: (text: string) => string[],
): Promise<{ offset: number; line: number; header: string[] | null }> {
  const head = new Uint8Array(await blob.slice(0, 3).arrayBuffer());
  const bom = head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  if (format === "jsonl") return { offset: bom, line: 1, header: null };
  let want = 1 << 16;
  for (;;) {
    const buf = new Uint8Array(await blob.slice(bom, bom + want).arrayBuffer());
    const r = firstRecordBoundary(buf, 0, buf.length, "csv", delimiter.charCodeAt(0));
    if (r.end >= 0 || bom + buf.length >= blob.size) {
      const end = r.end >= 0 ? r.end : buf.length;
      const header = parseHeader(new TextDecoder().decode(buf.subarray(0, end)));
      return { offset: bom + end, line: 1 + (r.end >= 0 ? r.lines : countNewlines(buf, 0, end)), header };
    }
    want *= 4;
  }
}

/** The bad-row message of a row over MAX_ROW_BYTES (scoreFile's). */
const tooLarge = (size: number): string => `the row is ${size} bytes, over maxRowBytes (${MAX_ROW_BYTES}): not read or scored`;

/** The bytes of `blob` from `start`, read in blocks (Blob.slice, never whole), each with whether it is the last. */
async function* blobBlocks(blob: Blob, start: number): AsyncGenerator<{ bytes: Uint8Array; eof: boolean }> {
  for (let pos = start; pos < blob.size; ) {
    const bytes = new Uint8Array(await blob.slice(pos, pos + Math.min(READ_BLOCK, blob.size - pos)).arrayBuffer());
    pos += bytes.length;
    yield { bytes, eof: pos >= blob.size };
  }
}

/** Score a Blob on the pool (already initialised with the job's metrics). */
export async function scoreBlob(
  pool: WorkerPool,
  job: ScoreJob,
  start: { offset: number; line: number },
  header: readonly string[] | null,
): Promise<ScoredBlob> {
  const t0 = performance.now();
  const { blob, format, delimiter } = job;
  const totalWidth = job.widths.reduce((a, b) => a + b, 0);
  const tally = new RunTally(totalWidth);
  const outputParts: Blob[] = [];
  const statistics: Float32Array[] = [];

  // results may arrive out of order: they are folded in input order
  let committedBytes = start.offset;
  const committer = new InOrderCommitter<{ readonly result: ChunkResult; readonly end: number }>(({ result, end }) => {
    if (result.output) outputParts.push(new Blob([result.output as Uint8Array<ArrayBuffer>]));
    if (result.statistics) statistics.push(result.statistics);
    tally.absorb(result);
    committedBytes = end;
  });
  const chunkEnds = new Map<number, number>();

  let failure: unknown;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const idle: Worker[] = [...pool.workers];
  const busy = new Map<Worker, number>();
  for (const w of pool.workers) {
    w.onmessage = (ev: MessageEvent<FromScoreWorker>) => {
      const m = ev.data;
      if (m.type === "result") {
        const end = chunkEnds.get(m.id)!;
        chunkEnds.delete(m.id);
        committer.settle(m.id, { result: m.result, end });
      } else if (m.type === "error") failure ??= new Error(m.message);
      busy.delete(w);
      idle.push(w);
      signal();
    };
    w.onerror = (ev) => {
      failure ??= new Error(ev.message || "a scoring worker failed");
      signal();
    };
  }
  const onAbort = () => {
    failure ??= new Cancelled("cancelled");
    signal();
  };
  job.signal?.addEventListener("abort", onAbort, { once: true });
  if (job.signal?.aborted) onAbort();

  let lastProgress = 0;
  const progress = (force = false) => {
    const now = performance.now();
    if (!force && now - lastProgress < 100) return;
    lastProgress = now;
    job.onProgress?.({ bytes: committedBytes, totalBytes: blob.size, records: tally.records, elapsedMs: now - t0 });
  };

  const submit = async (cut: Cut) => {
    while (idle.length === 0 && failure === undefined) await new Promise<void>((r) => (wake = r));
    if (failure !== undefined) return;
    const w = idle.pop()!;
    const input: ChunkInput =
      cut.kind === "too-large"
        ? { kind: "errors", errors: [{ position: cut.firstLine, code: "row_too_large", message: tooLarge(cut.size) }] }
        : format === "jsonl"
          ? { kind: "jsonl", bytes: cut.bytes, firstLine: cut.firstLine }
          : { kind: "csv", bytes: cut.bytes, firstLine: cut.firstLine, header: header!, delimiter };
    const id = committer.submit();
    chunkEnds.set(id, cut.endOffset);
    busy.set(w, id);
    w.postMessage({ type: "chunk", id, input }, input.kind === "errors" ? [] : [input.bytes.buffer]);
    progress();
  };

  const cutter = new RecordCutter({ syntax: format, delimiter, chunkBytes: CHUNK_BYTES, maxRowBytes: MAX_ROW_BYTES, ...start });
  read: for await (const block of blobBlocks(blob, start.offset)) {
    for (const cut of cutter.push(block.bytes, block.eof)) {
      await submit(cut);
      if (failure !== undefined) break read;
    }
    if (failure !== undefined) break;
  }
  while (busy.size > 0 && failure === undefined) await new Promise<void>((r) => (wake = r));
  job.signal?.removeEventListener("abort", onAbort);
  if (failure !== undefined) throw failure;
  progress(true);
  const rowWidth = 1 + totalWidth;
  const { records, scored, bad, badByCode, badSamples } = tally.rows();
  return {
    run: {
      metricSpecs: job.specs,
      rowWidth,
      statistics,
      records,
      scored,
      partials: tally.sums.partials,
      ...(tally.hasSequential() ? { sequential: tally.sequential } : {}),
      nrefs: tally.nrefs(),
    },
    output: new Blob(outputParts, { type: "application/x-ndjson" }),
    records,
    scored,
    bad,
    badByCode,
    badSamples,
    elapsedMs: performance.now() - t0,
  };
}
