// The time budget of scoreFile's chunks (`rowTimeoutMs`): a chunk's clock starts when a worker starts
// it (a shared stamp the worker writes), not when it is queued, and a watchdog aborts the task once it
// is over budget (the pool terminates that worker and starts a fresh one). A chunk over its budget is
// re-run record by record: a record within the row budget keeps its result, one over it becomes a bad
// row `row_timeout` that keeps its text in the output.
import type { ChunkInput, ChunkResult, PresetError } from "../bulk/chunk.js";
import { Csv, countNewlines, scanRecord, type RecordSyntax } from "../bulk/records.js";
import { readRange } from "./geometry.js";
import type { WorkerPool } from "./pool.js";

/** The rejection of a task stopped by its time budget. */
export const TIMED_OUT = Symbol("timed out");

/** Builds a chunk's input from its bytes, first line and rows already found bad. */
export type ChunkInputOf = (bytes: Uint8Array, firstLine: number, presetErrors?: readonly PresetError[]) => ChunkInput;

/** Runs chunks on the pool, each within a time budget (none when `rowTimeoutMs` is not positive). */
export class TimeBudget {
  readonly #pool: WorkerPool;
  readonly #rowTimeoutMs: number;
  readonly #timed = new Set<{ readonly started: Float64Array; readonly budget: number; readonly controller: AbortController }>();
  #watchdog: NodeJS.Timeout | undefined;

  constructor(pool: WorkerPool, rowTimeoutMs: number) {
    this.#pool = pool;
    this.#rowTimeoutMs = rowTimeoutMs;
  }

  /** The budget of a chunk of `lines` lines: the row budget, plus a little per line. */
  forLines(lines: number): number {
    return this.#rowTimeoutMs * (1 + lines / 1000);
  }

  /**
   * Run one chunk within `budget` ms; rejects with TIMED_OUT when it is over. `offset`: the chunk's byte
   * offset in the input (the queue pool can send workers a range of a shared file).
   */
  async run(input: ChunkInput, transfer: ArrayBufferLike[], budget: number, offset?: number): Promise<ChunkResult> {
    const at = offset !== undefined ? { offset } : {};
    if (!(this.#rowTimeoutMs > 0)) return this.#pool.run<ChunkResult>({ type: "chunk", input, ...at }, transfer);
    const started = new SharedArrayBuffer(8);
    const t = { started: new Float64Array(started), budget, controller: new AbortController() };
    this.#timed.add(t);
    this.#watchdog ??= setInterval(() => this.#tick(), Math.max(50, Math.min(1000, this.#rowTimeoutMs / 4))).unref();
    try {
      return await this.#pool.run<ChunkResult>({ type: "chunk", input, started, ...at }, transfer, t.controller.signal);
    } catch (e) {
      throw t.controller.signal.aborted ? TIMED_OUT : e;
    } finally {
      this.#timed.delete(t);
    }
  }

  /**
   * A chunk over its budget: re-read its bytes `[start, end)` of `path` and run each record alone (fresh
   * workers replace the terminated ones). Every record of the chunk comes back, in order, whatever the
   * budget: a chunk is never dropped.
   */
  async runRecordsAlone(
    path: string,
    range: { readonly start: number; readonly end: number; readonly firstLine: number },
    syntax: RecordSyntax,
    delimiter: string,
    inputOf: ChunkInputOf,
  ): Promise<ChunkResult[]> {
    const bytes = readRange(path, range.start, range.end);
    const d = delimiter.charCodeAt(0);
    const rows: { bytes: Uint8Array; line: number }[] = [];
    for (let off = 0, line = range.firstLine; off < bytes.length; ) {
      const r = scanRecord(bytes, off, bytes.length, syntax, d, Csv.FieldStart);
      const stop = r.end >= 0 ? r.end : bytes.length;
      rows.push({ bytes: bytes.subarray(off, stop), line });
      line += r.end >= 0 ? r.lines : countNewlines(bytes, off, stop);
      off = stop;
    }
    const message = `not scored within the time budget of ${this.#rowTimeoutMs} ms per row (rowTimeoutMs)`;
    return Promise.all(
      rows.map(async (r) => {
        const own = r.bytes.slice(); // a buffer of its own to transfer; `r.bytes` stays readable
        try {
          return await this.run(inputOf(own, r.line), [own.buffer], this.#rowTimeoutMs);
        } catch (e) {
          if (e !== TIMED_OUT) throw e;
          // parsed only (no metric runs), so no budget: the row is kept and marked
          const preset = [{ position: r.line, code: "row_timeout" as const, message }];
          return this.#pool.run<ChunkResult>({ type: "chunk", input: inputOf(r.bytes.slice(), r.line, preset) });
        }
      }),
    );
  }

  /** Stop the watchdog (the run is over). */
  close(): void {
    if (this.#watchdog) clearInterval(this.#watchdog);
    this.#watchdog = undefined;
  }

  #tick(): void {
    const now = Date.now();
    for (const t of this.#timed) if (t.started[0]! > 0 && now - t.started[0]! > t.budget) t.controller.abort(TIMED_OUT);
    if (this.#timed.size === 0) this.close();
  }
}
