// Stage 4 of `scoreFile`, the scoring pipeline: the main thread reads the input in large blocks and cuts
// it at record boundaries into chunks (no parsing), and sends each chunk's bytes (transferred, not
// copied) to a worker; the worker parses the rows, calls each metric's batch kernel once for the chunk
// and returns the chunk's JSONL output, statistics rows and exact column sums. Results are committed
// strictly in input order (output, statistics, running content hash, sums) and checkpointed every
// `checkpointIntervalMs`; at most `window` chunks are in flight, so memory depends on the window, not
// on the file. A chunk over its time budget is re-run row by row to find the rows over the row budget.
import type { Hash } from "node:crypto";
import { open } from "node:fs/promises";
import { RunAbortedError } from "../errors.js";
import { createProgress } from "../progress.js";
import type { ChunkInput, ChunkResult, PresetError } from "../bulk/chunk.js";
import { Csv, firstRecordBoundary, lastRecordBoundary, countNewlines, recordSyntax } from "../bulk/records.js";
import type { RunFiles, State } from "./checkpoint.js";
import { READ_BLOCK, readRange, scanRecord, type InputGeometry } from "./geometry.js";
import type { WorkerPool } from "./pool.js";
import type { ResolvedScoreOptions, ScoreFileOptions } from "./score-options.js";

/** The rejection of a task stopped by its time budget. */
const TIMED_OUT = Symbol("timed out");

export interface PipelineInput {
  readonly opts: ResolvedScoreOptions;
  /** For its `signal`, `displayProgress` and `onProgress`. */
  readonly options: ScoreFileOptions;
  readonly geometry: InputGeometry;
  /** Advanced as chunks are committed. */
  readonly state: State;
  /** The input's content hash up to `state.nextOffset`, continued here in input order. */
  readonly hasher: Hash;
  readonly files: RunFiles;
  readonly pool: WorkerPool;
}

/**
 * Score the input from `state.nextOffset` to the end of the shard, committing every chunk in input order.
 * Rejects with the first failure (after checkpointing every committed row when it is `RunAbortedError`).
 */
export async function runPipeline(p: PipelineInput): Promise<{ readonly chunks: number; readonly maxInFlight: number }> {
  const { opts, options, geometry, state, hasher, files, pool } = p;
  const { input, format, delimiter, quote, chunkBytes, maxRowBytes, rowTimeoutMs, window, checkpointMs } = opts;
  const syntax = recordSyntax(format, delimiter, quote); // where records end: TSV without quotes at every newline
  let maxInFlight = 0;
  let chunks = 0;
  const progress = options.displayProgress ? createProgress({ total: (geometry.end - geometry.start) / 1e6, unit: "MB", format: (n) => n.toFixed(1) }) : undefined;
  let lastCheckpoint = performance.now();
  let failure: unknown;
  let inFlight = 0;
  let nextSeq = 0;
  let submitted = 0;
  const pending = new Map<number, { result: ChunkResult | ChunkResult[]; endOffset: number; endLine: number; endHash: string }>();
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  let aborted: RunAbortedError | undefined;
  const onAbort = () => {
    aborted ??= new RunAbortedError(`scoring of ${input} was stopped (${String(options.signal?.reason ?? "aborted")}); rows written so far are checkpointed`);
    failure ??= aborted;
    signal();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });

  /** Commit one chunk: its result, or the results of its records run one by one (all before the checkpoint). */
  const commit = (results: ChunkResult | readonly ChunkResult[], endOffset: number, endLine: number, endHash: string): void => {
    for (const result of Array.isArray(results) ? results : [results]) {
      files.append(state, result as ChunkResult);
      state.tally.absorb(result as ChunkResult);
    }
    state.nextOffset = endOffset;
    state.nextLine = endLine;
    state.contentHash = endHash;
    chunks++;
    progress?.update((endOffset - geometry.start) / 1e6);
    options.onProgress?.({ bytes: endOffset - geometry.start, totalBytes: geometry.end - geometry.start, records: state.tally.records });
    if (performance.now() - lastCheckpoint >= checkpointMs) {
      files.writeCheckpoint(state, false);
      lastCheckpoint = performance.now();
    }
  };

  // ---- time budgets: a task's clock starts when a worker starts it (a shared stamp), not when queued
  const timed = new Set<{ readonly started: Float64Array; readonly budget: number; readonly controller: AbortController }>();
  let watchdog: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = Date.now();
    for (const t of timed) if (t.started[0]! > 0 && now - t.started[0]! > t.budget) t.controller.abort(TIMED_OUT);
    if (timed.size === 0 && watchdog) {
      clearInterval(watchdog);
      watchdog = undefined;
    }
  };
  /** `offset`: the chunk's byte offset in the input (the queue pool can send workers a range of a shared file). */
  const runTimed = async (input: ChunkInput, transfer: ArrayBufferLike[], budget: number, offset?: number): Promise<ChunkResult> => {
    if (!(rowTimeoutMs > 0)) return pool.run<ChunkResult>({ type: "chunk", input, ...(offset !== undefined ? { offset } : {}) }, transfer);
    const started = new SharedArrayBuffer(8);
    const t = { started: new Float64Array(started), budget, controller: new AbortController() };
    timed.add(t);
    watchdog ??= setInterval(tick, Math.max(50, Math.min(1000, rowTimeoutMs / 4))).unref();
    try {
      return await pool.run<ChunkResult>({ type: "chunk", input, started, ...(offset !== undefined ? { offset } : {}) }, transfer, t.controller.signal);
    } catch (e) {
      throw t.controller.signal.aborted ? TIMED_OUT : e;
    } finally {
      timed.delete(t);
    }
  };
  const chunkInput = (bytes: Uint8Array, firstLine: number, presetErrors?: readonly PresetError[]): ChunkInput =>
    format === "jsonl"
      ? { kind: "jsonl", bytes, firstLine, ...(presetErrors ? { presetErrors } : {}) }
      : { kind: "csv", bytes, firstLine, header: geometry.header!, delimiter, quote, ...(presetErrors ? { presetErrors } : {}) };
  /**
   * A chunk over its budget: re-read its bytes and run each record alone (fresh workers replace the
   * terminated ones). A record within the row budget keeps its own result; one over it becomes a bad row
   * (`row_timeout`) that keeps its text in the output. Every record of the chunk comes back, in order,
   * whatever the budget: a chunk is never dropped.
   */
  const recoverTimedOut = async (start: number, endOffset: number, firstLine: number): Promise<ChunkResult[]> => {
    const bytes = readRange(input, start, endOffset);
    const d = delimiter.charCodeAt(0);
    const rows: { bytes: Uint8Array; line: number }[] = [];
    for (let off = 0, line = firstLine; off < bytes.length; ) {
      const r = scanRecord(bytes, off, bytes.length, syntax, d, Csv.FieldStart);
      const stop = r.end >= 0 ? r.end : bytes.length;
      rows.push({ bytes: bytes.subarray(off, stop), line });
      line += r.end >= 0 ? r.lines : countNewlines(bytes, off, stop);
      off = stop;
    }
    const message = `not scored within the time budget of ${rowTimeoutMs} ms per row (rowTimeoutMs)`;
    return Promise.all(
      rows.map(async (r) => {
        const own = r.bytes.slice(); // a buffer of its own to transfer; `r.bytes` stays readable
        try {
          return await runTimed(chunkInput(own, r.line), [own.buffer], rowTimeoutMs);
        } catch (e) {
          if (e !== TIMED_OUT) throw e;
          // parsed only (no metric runs), so no budget: the row is kept and marked
          return pool.run<ChunkResult>({ type: "chunk", input: chunkInput(r.bytes.slice(), r.line, [{ position: r.line, code: "row_timeout", message }]) });
        }
      }),
    );
  };

  const submit = (bytes: Uint8Array, firstLine: number, endOffset: number, endLine: number, tooLarge?: { readonly bytes: number }): void => {
    const seq = submitted++;
    hasher.update(bytes); // in input order, before the bytes are transferred to a worker
    const endHash = hasher.copy().digest("hex");
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const lines = endLine - firstLine;
    const start = endOffset - bytes.length;
    // a refused row is no work for a metric: it runs without a time budget
    const task: Promise<ChunkResult | ChunkResult[]> = tooLarge
      ? pool.run<ChunkResult>({
          type: "chunk",
          input: { kind: "errors", errors: [{ position: firstLine, code: "row_too_large", message: `the row is ${tooLarge.bytes} bytes, over maxRowBytes (${maxRowBytes}): not read or scored` }] },
        })
      : runTimed(chunkInput(bytes, firstLine), [bytes.buffer], rowTimeoutMs * (1 + lines / 1000), start).catch((e: unknown) => {
          if (e !== TIMED_OUT) throw e;
          return recoverTimedOut(start, endOffset, firstLine);
        });
    task
      .then((result) => {
        pending.set(seq, { result, endOffset, endLine, endHash });
        while (failure === undefined && pending.has(nextSeq)) {
          const p = pending.get(nextSeq)!;
          pending.delete(nextSeq);
          nextSeq++;
          try {
            commit(p.result, p.endOffset, p.endLine, p.endHash);
          } catch (e) {
            failure = e;
          }
          inFlight--;
        }
      })
      .catch((e: unknown) => {
        failure ??= e;
      })
      .finally(signal);
  };

  // ---- read and cut
  const fh = await open(input, "r");
  try {
    let pos = state.nextOffset;
    let line = state.nextLine;
    let carry = new Uint8Array(0);
    const end = geometry.end;
    // the rest of a record over maxRowBytes being skipped (hashed, never kept): its first line,
    // bytes and newlines so far, CSV quote state
    let skipping: { line: number; bytes: number; lines: number; state: Csv } | undefined;
    const EMPTY = new Uint8Array(0);
    while (failure === undefined && (pos < end || carry.length > 0)) {
      const want = Math.max(READ_BLOCK, 2 * chunkBytes);
      const data = new Uint8Array(carry.length + Math.min(want, end - pos));
      data.set(carry, 0);
      let filled = carry.length;
      while (filled < data.length) {
        const { bytesRead } = await fh.read(data, filled, data.length - filled, pos);
        if (bytesRead === 0) break;
        filled += bytesRead;
        pos += bytesRead;
      }
      const eof = pos >= end;
      const buf = data.subarray(0, filled);
      const bufStart = pos - filled; // absolute offset of buf[0]
      const d = delimiter.charCodeAt(0);
      let off = 0;
      if (skipping) {
        const r = scanRecord(buf, 0, buf.length, syntax, d, skipping.state);
        const stop = r.end >= 0 ? r.end : buf.length;
        hasher.update(buf.subarray(0, stop));
        skipping.bytes += stop;
        skipping.lines += r.end >= 0 ? r.lines : countNewlines(buf, 0, stop);
        skipping.state = r.state;
        if (r.end < 0 && !eof) {
          carry = EMPTY;
          continue;
        }
        while (inFlight >= window && failure === undefined) await new Promise<void>((r) => (wake = r));
        if (failure !== undefined) break;
        submit(EMPTY, skipping.line, bufStart + stop, skipping.line + skipping.lines, { bytes: skipping.bytes });
        line = skipping.line + skipping.lines;
        off = stop;
        skipping = undefined;
      }
      while (failure === undefined && off < buf.length) {
        // keep chunks full-size: read more first unless this is the end
        if (!eof && buf.length - off < chunkBytes) break;
        let cut: number;
        let lines: number;
        const last = lastRecordBoundary(buf, off, Math.min(off + chunkBytes, buf.length), syntax, d);
        if (last.end >= 0) ({ end: cut, lines } = last);
        else {
          // one record longer than a chunk: cut after it
          const first = firstRecordBoundary(buf, off, buf.length, syntax, d);
          if (first.end >= 0) ({ end: cut, lines } = first);
          else if (eof) {
            cut = buf.length; // the last record, without a trailing newline
            lines = countNewlines(buf, off, cut);
          } else if (buf.length - off > maxRowBytes) {
            // a record over maxRowBytes with no end in sight: skip the rest as it streams by
            const r = scanRecord(buf, off, buf.length, syntax, d, Csv.FieldStart);
            hasher.update(buf.subarray(off));
            skipping = { line, bytes: buf.length - off, lines: r.lines, state: r.state };
            off = buf.length;
            break;
          } else break; // need more bytes for a whole record
        }
        while (inFlight >= window && failure === undefined) await new Promise<void>((r) => (wake = r));
        if (failure !== undefined) break;
        if (cut - off > maxRowBytes) {
          // refused unread: only its line and size travel (its bytes are hashed for resume)
          hasher.update(buf.subarray(off, cut));
          submit(EMPTY, line, bufStart + cut, line + lines, { bytes: cut - off });
        } else submit(buf.slice(off, cut), line, bufStart + cut, line + lines); // slice: an own buffer to transfer
        line += lines;
        off = cut;
      }
      carry = buf.slice(off);
      if (eof && carry.length === 0) break;
    }
  } finally {
    await fh.close();
  }
  while (inFlight > 0 && failure === undefined) await new Promise<void>((r) => (wake = r));
  if (watchdog) clearInterval(watchdog);
  options.signal?.removeEventListener("abort", onAbort);
  if (failure !== undefined) {
    if (failure === aborted) files.writeCheckpoint(state, false); // every committed row, so resume loses none
    throw failure;
  }
  progress?.finish();
  return { chunks, maxInFlight };
}
