// Stage 4 of `scoreFile`, the scoring pipeline: the main thread reads the input in large blocks and cuts
// it at record boundaries into chunks (no parsing: bulk/cutter.ts), and sends each chunk's bytes
// (transferred, not copied) to a worker; the worker parses the rows, calls each metric's batch kernel
// once for the chunk and returns the chunk's JSONL output, statistics rows and exact column sums. Results
// are committed strictly in input order (bulk/committer.ts: output, statistics, running content hash,
// sums) and checkpointed every `checkpointIntervalMs`; at most `window` chunks are uncommitted, so memory
// depends on the window, not on the file. A chunk over its time budget is re-run row by row to find the
// rows over the row budget (time-budget.ts).
import type { Hash } from "node:crypto";
import { open } from "node:fs/promises";
import { FileSystemError, RunAbortedError } from "../errors.js";
import { createProgress, type Progress } from "../progress.js";
import type { ChunkResult } from "../bulk/chunk.js";
import { InOrderCommitter } from "../bulk/committer.js";
import { RecordCutter, type Cut } from "../bulk/cutter.js";
import { recordSyntax } from "../bulk/records.js";
import type { RunFiles, State } from "./checkpoint.js";
import { READ_BLOCK, type InputGeometry } from "./geometry.js";
import type { WorkerPool } from "./pool.js";
import type { ResolvedScoreOptions, ScoreFileOptions } from "./score-options.js";
import { TIMED_OUT, TimeBudget, type ChunkInputOf } from "./time-budget.js";

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

/** A chunk's results (one, or one per record when it was re-run record by record) and where it ends. */
interface Scored {
  readonly result: ChunkResult | readonly ChunkResult[];
  readonly endOffset: number;
  readonly endLine: number;
  /** The input's content hash up to `endOffset`. */
  readonly endHash: string;
}

/**
 * Score the input from `state.nextOffset` to the end of the shard, committing every chunk in input order.
 * Rejects with the first failure (after checkpointing every committed row when it is `RunAbortedError`).
 */
export async function runPipeline(p: PipelineInput): Promise<{ readonly chunks: number; readonly maxInFlight: number }> {
  const { opts, options, geometry, state, hasher } = p;
  const { input, format, delimiter, quote, chunkBytes, maxRowBytes, window } = opts;
  const total = (geometry.end - geometry.start) / 1e6;
  const progress = options.displayProgress ? createProgress({ total, unit: "MB", format: (n) => n.toFixed(1) }) : undefined;
  let chunks = 0;
  let lastCheckpoint = performance.now();
  const committer = new InOrderCommitter<Scored>((s) => {
    commitChunk(p, s, progress);
    chunks++;
    if (performance.now() - lastCheckpoint >= opts.checkpointMs) {
      p.files.writeCheckpoint(state, false);
      lastCheckpoint = performance.now();
    }
  });
  const budget = new TimeBudget(p.pool, opts.rowTimeoutMs);
  let failure: unknown;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const fail = (e: unknown) => {
    failure ??= e;
    committer.halt();
    signal();
  };
  let aborted: RunAbortedError | undefined;
  const onAbort = () => {
    const reason = String(options.signal?.reason ?? "aborted");
    aborted ??= new RunAbortedError(`scoring of ${input} was stopped (${reason}); rows written so far are checkpointed`);
    fail(aborted);
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });

  let maxInFlight = 0;
  const submit = (cut: Cut): void => {
    const seq = committer.submit();
    const endHash = hasher.copy().digest("hex"); // the cutter hashed the chunk's bytes, in input order
    maxInFlight = Math.max(maxInFlight, committer.uncommitted);
    scoreCut(p, budget, cut)
      .then((result) => committer.settle(seq, { result, endOffset: cut.endOffset, endLine: cut.endLine, endHash }))
      .catch(fail)
      .finally(signal);
  };
  const syntax = recordSyntax(format, delimiter, quote); // where records end: TSV without quotes at every newline
  const onBytes = (b: Uint8Array) => hasher.update(b);
  const views = p.pool.consumesInputAtOnce === true; // no copy of each chunk for a pool that reads it at once
  const at = { offset: state.nextOffset, line: state.nextLine };
  const cutter = new RecordCutter({ syntax, delimiter, chunkBytes, maxRowBytes, ...at, onBytes, views });
  read: for await (const block of readBlocks(input, state.nextOffset, geometry.end, Math.max(READ_BLOCK, 2 * chunkBytes))) {
    for (const cut of cutter.push(block.bytes, block.eof)) {
      while (committer.uncommitted >= window && failure === undefined) await new Promise<void>((r) => (wake = r));
      if (failure !== undefined) break read;
      submit(cut); // before the next block is read or pushed: a cut that is a view (`views`) is still intact
    }
    if (failure !== undefined) break;
  }
  while (committer.uncommitted > 0 && failure === undefined) await new Promise<void>((r) => (wake = r));
  budget.close();
  options.signal?.removeEventListener("abort", onAbort);
  if (failure !== undefined) {
    if (failure === aborted) p.files.writeCheckpoint(state, false); // every committed row, so resume loses none
    throw failure;
  }
  progress?.finish();
  return { chunks, maxInFlight };
}

/** Commit one chunk: its result, or the results of its records run one by one (all before the checkpoint). */
function commitChunk(p: PipelineInput, s: Scored, progress: Progress | undefined): void {
  const { state, files, geometry, options } = p;
  for (const result of Array.isArray(s.result) ? s.result : [s.result]) {
    files.append(state, result as ChunkResult);
    state.tally.absorb(result as ChunkResult);
  }
  state.nextOffset = s.endOffset;
  state.nextLine = s.endLine;
  state.contentHash = s.endHash;
  progress?.update((s.endOffset - geometry.start) / 1e6);
  options.onProgress?.({ bytes: s.endOffset - geometry.start, totalBytes: geometry.end - geometry.start, records: state.tally.records });
}

/** Score one cut on the pool: a refused record as a bad row, a chunk within its time budget. */
function scoreCut(p: PipelineInput, budget: TimeBudget, cut: Cut): Promise<ChunkResult | ChunkResult[]> {
  const { input, format, delimiter, quote, maxRowBytes } = p.opts;
  if (cut.kind === "too-large") {
    // a refused row is no work for a metric: it runs without a time budget
    const message = `the row is ${cut.size} bytes, over maxRowBytes (${maxRowBytes}): not read or scored`;
    const errors = [{ position: cut.firstLine, code: "row_too_large" as const, message }];
    return p.pool.run<ChunkResult>({ type: "chunk", input: { kind: "errors", errors } });
  }
  const inputOf: ChunkInputOf = (bytes, firstLine, presetErrors) =>
    format === "jsonl"
      ? { kind: "jsonl", bytes, firstLine, ...(presetErrors ? { presetErrors } : {}) }
      : { kind: "csv", bytes, firstLine, header: p.geometry.header!, delimiter, quote, ...(presetErrors ? { presetErrors } : {}) };
  const start = cut.endOffset - cut.bytes.length; // before the bytes are transferred
  const range = { start, end: cut.endOffset, firstLine: cut.firstLine };
  const within = budget.forLines(cut.endLine - cut.firstLine);
  const transfer = p.pool.consumesInputAtOnce ? [] : [cut.bytes.buffer]; // a view's buffer is the reader's
  return budget.run(inputOf(cut.bytes, cut.firstLine), transfer, within, start).catch((e: unknown) => {
    if (e !== TIMED_OUT) throw e;
    return budget.runRecordsAlone(input, range, recordSyntax(format, delimiter, quote), delimiter, inputOf);
  });
}

/**
 * The bytes `[from, end)` of a file in blocks of `size`, each with whether it is the last. Every block is
 * read into the same buffer (the cutter copies what it keeps), so reading allocates nothing per block.
 */
async function* readBlocks(path: string, from: number, end: number, size: number): AsyncGenerator<{ bytes: Uint8Array; eof: boolean }> {
  const fh = await open(path, "r");
  const buffer = new Uint8Array(Math.max(0, Math.min(size, end - from)));
  try {
    for (let pos = from; pos < end; ) {
      const bytes = buffer.subarray(0, Math.min(size, end - pos));
      for (let filled = 0; filled < bytes.length; ) {
        const { bytesRead } = await fh.read(bytes, filled, bytes.length - filled, pos);
        if (bytesRead === 0) {
          const message = `${path} ended at byte ${pos}, before byte ${end} where it ended when scoring started: it changed`;
          throw new FileSystemError(message, { osCode: "EIO", path, operation: "read" });
        }
        filled += bytesRead;
        pos += bytesRead;
      }
      yield { bytes, eof: pos >= end };
    }
  } finally {
    await fh.close();
  }
}
