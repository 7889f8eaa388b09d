// The statistics worker: bootstrap CIs of the corpus scores, the report (the same collector and renderer
// as `evalkern report`, from `@evalkern/harness/report`) over the scored rows, and with a baseline the
// paired bootstrap test. It holds the statistics rows (transferred from the page, never copied) and reads
// the scored rows back from their Blob as a stream, so the page's thread stays free.
import { ready } from "@evalkern/core-wasm";
import {
  bootstrapCi,
  localResampler,
  pairedTest,
  resampleInRanges,
  sliceScores,
  type MemoryRun,
  type Resampler,
  type SliceKeys,
} from "@evalkern/harness/browser";
import { collectReportData, comparisonData, renderReport, type OutputRow, type ReportRun } from "@evalkern/harness/report";
import { listMetrics, loadMetrics } from "@evalkern/metrics/registry";
import type { FromStatsWorker, ScoredInput, StatsRequest } from "./protocol.js";
import type { FromResampleWorker, ToResampleWorker } from "./resample-worker.js";

declare const self: DedicatedWorkerGlobalScope;

const warm = ready().then(() => loadMetrics(listMetrics().map((m) => m.name)));

function post(msg: FromStatsWorker): void {
  self.postMessage(msg);
}

// ---- resampling on helper workers (one per core), each with a copy of the statistics rows; in this
// thread when the copies would take too much memory. The results are the same either way.
const COPY_BUDGET = 512 << 20;
let helpers: Worker[] = [];
let seq = 0;
const waiting = new Map<number, { resolve: (s: Float64Array) => void; reject: (e: Error) => void }>();

function startHelpers(n: number): void {
  for (const h of helpers) h.terminate();
  helpers = [];
  for (let i = 0; i < n; i++) {
    const w = new Worker(new URL("./resample-worker.ts", import.meta.url), { type: "module" });
    w.onmessage = (ev: MessageEvent<FromResampleWorker>) => {
      const m = ev.data;
      const p = waiting.get(m.seq);
      waiting.delete(m.seq);
      if (m.type === "sums") p?.resolve(m.sums);
      else p?.reject(new Error(m.message));
    };
    w.onerror = (ev) => {
      for (const p of waiting.values()) p.reject(new Error(ev.message || "a resampling worker failed"));
      waiting.clear();
    };
    helpers.push(w);
  }
}

function bytesOf(blocks: readonly Float32Array[]): number {
  return blocks.reduce((a, b) => a + b.byteLength, 0);
}

/** A Resampler over the runs `a` (and `b`, paired) given to the helpers under these keys. */
function helperResampler(rowWidth: number, a: string, b?: string): Resampler {
  return (job) =>
    resampleInRanges(job, job.layout.columns.length * (b ? 2 : 1), { tasks: helpers.length * 4 }, (from, to, t) => {
      const id = seq++;
      const w = helpers[t % helpers.length]!;
      return new Promise<Float64Array>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        const msg: ToResampleWorker = {
          type: "range",
          seq: id,
          a,
          ...(b ? { b } : {}),
          task: {
            rowWidth,
            columns: job.layout.columns,
            sizes: job.sizes,
            all: job.all,
            groupings: job.groupings,
            seed: job.seed,
            from,
            to,
          },
        };
        w.postMessage(msg);
      });
    });
}

let resamplers: { system: Resampler; baseline?: Resampler; paired?: Resampler } | undefined;

/** Give the runs' statistics to the helpers (copies), or fall back to this thread. */
function prepareResampling(req: StatsRequest): void {
  const n = Math.max(1, req.workers ?? 1);
  const sys = req.system.run;
  const base = req.baseline?.run;
  const bytes = bytesOf(sys.statistics) + (base ? bytesOf(base.statistics) : 0);
  if (n < 2 || bytes * n > COPY_BUDGET) {
    const rows = (r: MemoryRun) => () => r.statistics;
    resamplers = {
      system: localResampler(sys.rowWidth, rows(sys)),
      ...(base ? { baseline: localResampler(base.rowWidth, rows(base)), paired: localResampler(sys.rowWidth, rows(base), rows(sys)) } : {}),
    };
    return;
  }
  if (helpers.length !== n) startHelpers(n);
  for (const h of helpers) {
    h.postMessage({ type: "data", key: "system", blocks: sys.statistics } satisfies ToResampleWorker);
    if (base) h.postMessage({ type: "data", key: "baseline", blocks: base.statistics } satisfies ToResampleWorker);
  }
  resamplers = {
    system: helperResampler(sys.rowWidth, "system"),
    ...(base ? { baseline: helperResampler(base.rowWidth, "baseline"), paired: helperResampler(sys.rowWidth, "baseline", "system") } : {}),
  };
}

/** The lines of a Blob of text, streamed. */
async function* blobLines(blob: Blob): AsyncGenerator<string> {
  const reader = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
  let carry = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const parts = (carry + value).split("\n");
    carry = parts.pop()!;
    for (const p of parts) yield p;
  }
  if (carry !== "") yield carry;
}

/** The scored JSONL's rows, numbered by line as `evalkern report` numbers an output file's. */
async function* outputRows(blob: Blob): AsyncGenerator<OutputRow> {
  let line = 0;
  for await (const raw of blobLines(blob)) {
    line++;
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (text.trim() === "") continue;
    try {
      const v = JSON.parse(text) as unknown;
      yield { line, row: typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null };
    } catch {
      yield { line, row: null };
    }
  }
}

type Ci = Record<string, Record<string, { lower: number; upper: number; ci: number }>>;

async function cisOf(input: ScoredInput, resamples: number, seed: number, phase: string, resample: Resampler): Promise<Ci> {
  if (input.run.scored === 0) return {};
  const t = await bootstrapCi(input.run, {
    resamples,
    seed,
    resample,
    onProgress: (done, total) => post({ type: "progress", phase, done, total }),
  });
  const out: Ci = {};
  for (const [m, per] of Object.entries(t)) {
    out[m] = {};
    for (const [k, v] of Object.entries(per)) out[m]![k] = { lower: v.lower, upper: v.upper, ci: v.ci };
  }
  return out;
}

function withCi(input: ScoredInput, ci: Ci): ScoredInput {
  const metrics = input.manifest.metrics.map((m) => (ci[m.name] ? { ...m, ci: ci[m.name]! } : m));
  return { ...input, manifest: { ...input.manifest, metrics } };
}

function reportRun(input: ScoredInput): ReportRun {
  const run: MemoryRun = input.run;
  return {
    manifest: input.manifest,
    rows: () => outputRows(input.output),
    sliceScores: (slices: Record<string, SliceKeys>, opts) =>
      sliceScores(run, slices, { ...(opts.bootstrap ? { bootstrap: opts.bootstrap } : {}), resample: resamplers!.system }),
  };
}

/** Slice values of every record of the baseline, and the check that both inputs hold the same references row by row. */
async function pairedRows(base: ScoredInput, system: ScoredInput, by: readonly string[]): Promise<string[][]> {
  const refsOf = (v: Record<string, unknown> | null, fields: readonly string[]) => JSON.stringify(fields.map((f) => v?.[f] ?? null));
  const rowOf = (text: string): Record<string, unknown> | null => {
    try {
      const v = JSON.parse(text) as Record<string, unknown>;
      return v._input && typeof v._input === "object" ? (v._input as Record<string, unknown>) : v;
    } catch {
      return null;
    }
  };
  const slices: string[][] = by.map(() => []);
  const a = blobLines(base.output);
  const b = blobLines(system.output);
  let i = 0;
  for (;;) {
    const [x, y] = await Promise.all([a.next(), b.next()]);
    if (x.done || y.done) {
      if (!x.done || !y.done)
        throw new Error(`the two files have different numbers of rows: a paired test needs the same rows in the same order`);
      break;
    }
    i++;
    const ra = rowOf(x.value);
    const rb = rowOf(y.value);
    if (refsOf(ra, base.manifest.fields.references) !== refsOf(rb, system.manifest.fields.references)) {
      throw new Error(`row ${i} has different references in the two files: a paired test needs the same references row by row`);
    }
    by.forEach((f, k) => slices[k]!.push(ra?.[f] === undefined || ra?.[f] === null ? "(none)" : String(ra[f])));
  }
  return slices;
}

self.onmessage = async (ev: MessageEvent<StatsRequest | { type: "warm"; workers: number }>) => {
  const req = ev.data;
  if (req.type === "warm") {
    // start the helpers now, so that scoring needs nothing more from the network
    if (req.workers > 1) startHelpers(req.workers);
    await warm;
    post({ type: "warm" });
    return;
  }
  try {
    await warm;
    prepareResampling(req);
    const ci = await cisOf(req.system, req.resamples, req.seed, "95% CIs", resamplers!.system);
    const baselineCi = req.baseline
      ? await cisOf(req.baseline, req.resamples, req.seed, "95% CIs (baseline)", resamplers!.baseline!)
      : undefined;
    const system = withCi(req.system, ci);
    post({ type: "progress", phase: "report", done: 0, total: 1 });
    let data = await collectReportData(reportRun(system), {
      ...(req.by && req.by.length ? { by: req.by } : {}),
      ...(req.title ? { title: req.title } : {}),
    });
    if (req.baseline) {
      const base = withCi(req.baseline, baselineCi!);
      const by = data.sliceFields;
      const keys = await pairedRows(base, system, by);
      const result = await pairedTest({
        baseline: base.run,
        system: system.run,
        resamples: req.resamples,
        seed: req.seed,
        ...(by.length ? { slices: Object.fromEntries(by.map((f, k) => [f, keys[k]!])) } : {}),
        resample: resamplers!.paired!,
      });
      data = {
        ...data,
        comparison: comparisonData(base.manifest.output, system.manifest.output, system.manifest.metrics, result, by),
        ...(req.title ? {} : { title: "evalkern comparison report" }),
      };
    }
    resamplers = undefined;
    post({ type: "done", ci, ...(baselineCi ? { baselineCi } : {}), html: renderReport(data), sliceFields: data.sliceFields });
  } catch (e) {
    post({ type: "error", message: (e as Error)?.message ?? String(e) });
  }
};
