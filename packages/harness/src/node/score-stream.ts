// The streaming form of bulk scoring: rows in (objects or JSONL strings, from any iterable or async
// iterable), per-row scores out in input order, corpus results at the end. Same workers, chunking and
// window as scoreFile; nothing is written to disk.
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { ResampleAccumulator, estimateCi } from "../bulk/bootstrap.js";
import type { BadRow, ChunkResult } from "../bulk/chunk.js";
import { RunTally } from "../bulk/tally.js";
import { normalizeMetrics, type MetricSpec } from "../bulk/metrics.js";
import { resolveFields, type FieldMap } from "../bulk/records.js";
import { mainThreadMetrics, summarizeMetrics, type MetricSummary } from "../bulk/summary.js";
import { createPool, defaultWorkers } from "./pool.js";
import { resolveBootstrap, type BootstrapOptions } from "../bulk/bootstrap.js";
import { corpusLayout, scoreGathered } from "./statistics.js";

export interface ScoreStreamOptions {
  readonly metrics: readonly MetricSpec[];
  readonly fields?: FieldMap;
  readonly workers?: number;
  /** Rows per chunk sent to a worker (default 1024). */
  readonly chunkRows?: number;
  /** Maximum chunks in flight (default 4 × workers). */
  readonly window?: number;
  /**
   * Bootstrap CIs in the summary. Statistics rows are then kept in memory (about 4 × (1 + width) bytes
   * per row); use scoreFile for inputs that do not fit.
   */
  readonly bootstrap?: boolean | BootstrapOptions;
}

/** One row's result: scores, or why the row could not be scored (a value, never a thrown error). */
export type RowScore =
  | { readonly index: number; readonly id?: unknown; readonly ok: true; readonly scores: Readonly<Record<string, number>> }
  | {
      readonly index: number;
      readonly id?: unknown;
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string };
    };

export interface StreamSummary {
  readonly rows: {
    readonly records: number;
    readonly scored: number;
    readonly bad: number;
    readonly badByCode: Record<string, number>;
    readonly badSamples: readonly BadRow[];
  };
  readonly nrefs: { readonly min: number; readonly max: number };
  readonly metrics: Record<string, MetricSummary>;
  readonly partials: number[][];
}

export interface ScoreStream extends AsyncIterable<RowScore> {
  /** Resolves when the iteration has finished (iterate the stream to drive it). */
  readonly summary: Promise<StreamSummary>;
}

function positive(v: unknown, arg: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1)
    throw new InvalidArgumentError(`${arg} must be a positive integer`, { argument: arg });
  return v;
}

/**
 * Score rows as they come. Iterate the result for per-row scores (input order); `await stream.summary`
 * afterwards for corpus scores and signatures.
 *
 * @example
 * const stream = scoreStream(rows, { metrics: ["bleu", "tokenF1"] });
 * for await (const row of stream) if (row.ok) console.log(row.index, row.scores.bleu);
 * const { metrics } = await stream.summary;
 */
export function scoreStream(rows: Iterable<unknown> | AsyncIterable<unknown>, options: ScoreStreamOptions): ScoreStream {
  if (rows === null || typeof rows !== "object" || (!(Symbol.iterator in rows) && !(Symbol.asyncIterator in rows))) {
    throw new InvalidArgumentError("rows must be an iterable or async iterable", { argument: "rows" });
  }
  const specs = normalizeMetrics(options.metrics);
  const fields = resolveFields(options.fields);
  const workers = positive(options.workers, "workers", defaultWorkers());
  const chunkRows = positive(options.chunkRows, "chunkRows", 1024);
  const window = positive(options.window, "window", 4 * workers);
  const bootstrap = resolveBootstrap(options.bootstrap);

  let resolveSummary!: (s: StreamSummary) => void;
  let rejectSummary!: (e: unknown) => void;
  const summary = new Promise<StreamSummary>((res, rej) => {
    resolveSummary = res;
    rejectSummary = rej;
  });
  summary.catch(() => undefined); // the iterator reports the error

  async function* run(): AsyncGenerator<RowScore> {
    const metrics = await mainThreadMetrics(specs);
    const columns = metrics.flatMap((m) => m.columns);
    const totalWidth = metrics.reduce((a, m) => a + m.width, 0);
    const pool = createPool(workers, { metrics: specs, fields, output: { kind: "values" }, keepStatistics: bootstrap !== null });
    const tally = new RunTally(totalWidth);
    const statsBlocks: Float32Array[] = [];
    const queue: Promise<ChunkResult>[] = [];
    try {
      let batch: unknown[] = [];
      let index = 0;
      const flushBatch = () => {
        const rowsChunk = batch;
        queue.push(
          pool.run<ChunkResult>({ type: "chunk", input: { kind: "rows", rows: rowsChunk, firstIndex: index - rowsChunk.length } }),
        );
        batch = [];
      };
      const emit = function* (r: ChunkResult): Generator<RowScore> {
        tally.absorb(r);
        if (r.statistics) statsBlocks.push(r.statistics);
        const C = columns.length;
        for (let i = 0; i < r.records; i++) {
          const idx = r.positions![i]!;
          const id = fields.id !== undefined ? { id: r.ids![i] } : {};
          const e = r.errors![i];
          if (e) yield { index: idx, ...id, ok: false, error: { code: e.code, message: e.message } };
          else {
            const scores: Record<string, number> = {};
            for (let c = 0; c < C; c++) scores[columns[c]!] = r.values![i * C + c]!;
            yield { index: idx, ...id, ok: true, scores };
          }
        }
      };
      const iterable: AsyncIterable<unknown> =
        Symbol.asyncIterator in rows
          ? (rows as AsyncIterable<unknown>)
          : (async function* () {
              yield* rows as Iterable<unknown>;
            })();
      for await (const row of iterable) {
        batch.push(row);
        index++;
        if (batch.length >= chunkRows) {
          flushBatch();
          while (queue.length >= window) yield* emit(await queue.shift()!);
        }
      }
      if (batch.length) flushBatch();
      while (queue.length) yield* emit(await queue.shift()!);

      await ready();
      const { valid } = tally;
      const metricSummaries = summarizeMetrics(metrics, tally.sums.partials, valid, tally.nrefsLabel(), tally.sequential);
      if (bootstrap && valid > 0) {
        // one pass over the kept rows, in order (the same resamples as scoreFile's for the same rows)
        const rowWidth = 1 + totalWidth;
        const layout = corpusLayout(metrics);
        const acc = new ResampleAccumulator([valid], layout.columns, 1, bootstrap.seed, 0, bootstrap.resamples);
        for (const block of statsBlocks) for (let at = 0; at < block.length; at += rowWidth) if (block[at] === 1) acc.add(0, block, at);
        const scores = scoreGathered(layout, acc.finish(), 0, bootstrap.resamples, layout.columns.length, 0, valid);
        for (const m of metrics) {
          const ci: Record<string, ReturnType<typeof estimateCi>> = {};
          for (const name of m.scoreNames) ci[name] = estimateCi(scores[m.spec.name]![name]!, bootstrap.seed);
          (metricSummaries[m.spec.name] as { ci?: unknown }).ci = ci;
        }
      }
      const { records, scored, bad, badByCode, badSamples } = tally.rows();
      resolveSummary({
        rows: { records, scored, bad, badByCode, badSamples },
        nrefs: tally.nrefs(),
        metrics: metricSummaries,
        partials: tally.sums.partials,
      });
    } catch (e) {
      rejectSummary(e);
      throw e;
    } finally {
      await Promise.allSettled(queue);
      await pool.destroy();
    }
  }

  let started = false;
  return {
    summary,
    [Symbol.asyncIterator]() {
      if (started) throw new InvalidArgumentError("a score stream can be iterated once", { argument: "stream" });
      started = true;
      return run();
    },
  };
}

/**
 * Score an in-memory array of rows: every row's result and the summary.
 *
 * @example
 * const { rows, summary } = await scoreRows([{ hyp: "a cat", refs: ["the cat"] }], { metrics: ["bleu"] });
 */
export async function scoreRows(
  rows: Iterable<unknown> | AsyncIterable<unknown>,
  options: ScoreStreamOptions,
): Promise<{ rows: RowScore[]; summary: StreamSummary }> {
  const stream = scoreStream(rows, options);
  const out: RowScore[] = [];
  for await (const r of stream) out.push(r);
  return { rows: out, summary: await stream.summary };
}
