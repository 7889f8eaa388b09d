// The statistics worker: bootstrap CIs of the corpus scores, the report (the same collector and renderer
// as `evalkern report`, from `@evalkern/harness/report`) over the scored rows, and with a baseline the
// paired bootstrap test. It holds the statistics rows (transferred from the page, never copied) and reads
// the scored rows back from their Blob as a stream, so the page's thread stays free.
import { ready } from "@evalkern/core-wasm";
import { bootstrapCi, pairedTest, sliceScores, type MemoryRun, type SliceKeys } from "@evalkern/harness/browser";
import { collectReportData, comparisonData, renderReport, type OutputRow, type ReportRun } from "@evalkern/harness/report";
import { listMetrics, loadMetrics } from "@evalkern/metrics/registry";
import type { FromStatsWorker, ScoredInput, StatsRequest } from "./protocol.js";

declare const self: DedicatedWorkerGlobalScope;

const warm = ready().then(() => loadMetrics(listMetrics().map((m) => m.name)));

function post(msg: FromStatsWorker): void {
  self.postMessage(msg);
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

async function cisOf(input: ScoredInput, resamples: number, seed: number, phase: string): Promise<Ci> {
  if (input.run.scored === 0) return {};
  const t = await bootstrapCi(input.run, { resamples, seed, onProgress: (done, total) => post({ type: "progress", phase, done, total }) });
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
    sliceScores: (slices: Record<string, SliceKeys>, opts) => sliceScores(run, slices, opts.bootstrap ? { bootstrap: opts.bootstrap } : {}),
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
      if (!x.done || !y.done) throw new Error(`the two files have different numbers of rows: a paired test needs the same rows in the same order`);
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

self.onmessage = async (ev: MessageEvent<StatsRequest>) => {
  const req = ev.data;
  try {
    await warm;
    const ci = await cisOf(req.system, req.resamples, req.seed, "95% CIs");
    const baselineCi = req.baseline ? await cisOf(req.baseline, req.resamples, req.seed, "95% CIs (baseline)") : undefined;
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
        onProgress: (done, total) => post({ type: "progress", phase: "paired test", done, total }),
      });
      data = { ...data, comparison: comparisonData(base.manifest.output, system.manifest.output, system.manifest.metrics, result, by), ...(req.title ? {} : { title: "evalkern comparison report" }) };
    }
    post({ type: "done", ci, ...(baselineCi ? { baselineCi } : {}), html: renderReport(data), sliceFields: data.sliceFields });
  } catch (e) {
    post({ type: "error", message: (e as Error)?.message ?? String(e) });
  }
};
