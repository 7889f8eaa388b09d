// Combining independent runs: shard summaries merge exactly (exact partial sums add; outputs
// concatenate in shard order), and two systems scored on the same references are compared with
// sacreBLEU's paired bootstrap test.
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { estimateCi, pairedBootstrapPValue, type ConfidenceInterval } from "../bulk/bootstrap.js";
import type { BadRow } from "../bulk/chunk.js";
import { ColumnSums } from "../bulk/fsum.js";
import { stableJson } from "../bulk/metrics.js";
import { mainThreadMetrics, nrefsLabel, summarizeMetrics } from "../bulk/summary.js";
import { readJson, writeFileAtomic } from "./files.js";
import { createPool, defaultWorkers } from "./pool.js";
import { bootstrapFiles, bootstrapScores, resampleAll, resolveBootstrap, summaryPath, type BootstrapOptions, type ScoreSummary } from "./score-file.js";
import { fileRows } from "./bootstrap-files.js";

function load(s: ScoreSummary | string, arg: string): ScoreSummary {
  if (typeof s === "string") {
    const v = readJson<ScoreSummary>(resolve(s));
    if (!v) throw new InvalidArgumentError(`${arg}: no summary at ${s}`, { argument: arg });
    return v;
  }
  if (typeof s !== "object" || s === null || s.version !== 1) throw new InvalidArgumentError(`${arg} must be a scoreFile summary or its path`, { argument: arg });
  return s;
}

export interface MergeShardsOptions {
  /** Concatenate the shards' per-row outputs into this file (shard order = input order). */
  readonly output?: string;
  /** Where to write the merged summary (default `${output}.summary.json` when `output` is given). */
  readonly summary?: string;
  /** Bootstrap CIs over all shards' statistics files (kept by the shard runs). */
  readonly bootstrap?: boolean | BootstrapOptions;
  readonly workers?: number;
}

/**
 * Merge the summaries of `shard: { index, count }` runs into the summary of the whole input: exact
 * partial sums are added, so corpus scores are bit-identical to a single run's; counts add; outputs are
 * concatenated in shard order (which is input order) when `output` is given.
 *
 * @example
 * const merged = await mergeShards(["s0.jsonl.summary.json", "s1.jsonl.summary.json"], { output: "all.jsonl" });
 */
export async function mergeShards(shards: readonly (ScoreSummary | string)[], options: MergeShardsOptions = {}): Promise<ScoreSummary> {
  if (!Array.isArray(shards) || shards.length === 0) throw new InvalidArgumentError("shards must be a non-empty array of summaries or paths", { argument: "shards" });
  const list = shards.map((s, i) => load(s, `shards[${i}]`));
  const first = list[0]!;
  const count = first.shard?.count ?? 1;
  for (const [i, s] of list.entries()) {
    if (stableJson(s.metricSpecs) !== stableJson(first.metricSpecs)) throw new InvalidArgumentError(`shards[${i}] used different metrics`, { argument: "shards" });
    if (stableJson(s.fields) !== stableJson(first.fields) || s.format !== first.format) throw new InvalidArgumentError(`shards[${i}] used different fields or format`, { argument: "shards" });
    if ((s.shard?.count ?? 1) !== count) throw new InvalidArgumentError(`shards[${i}] is from a split into ${s.shard?.count ?? 1} shards, not ${count}`, { argument: "shards" });
    if ((s.statistics === null) !== (first.statistics === null)) throw new InvalidArgumentError("either every shard or none kept statistics", { argument: "shards" });
  }
  const sorted = [...list].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const indices = sorted.map((s) => s.shard?.index ?? 0);
  if (indices.length !== count || indices.some((x, i) => x !== i)) {
    throw new InvalidArgumentError(`expected shards 0..${count - 1} exactly once, got ${indices.join(", ")}`, { argument: "shards" });
  }
  const metrics = await mainThreadMetrics(first.metricSpecs);
  const totalWidth = metrics.reduce((a, m) => a + m.width, 0);
  const sums = new ColumnSums(totalWidth);
  let records = 0;
  let scored = 0;
  let blank = 0;
  let nrefsMin = Infinity;
  let nrefsMax = 0;
  let elapsed = 0;
  const badByCode: Record<string, number> = {};
  const badSamples: BadRow[] = [];
  const invalidUtf8 = { count: 0, lines: [] as number[] };
  for (const s of sorted) {
    sums.merge(s.partials);
    records += s.rows.records;
    scored += s.rows.scored;
    blank += s.rows.blank;
    elapsed = Math.max(elapsed, s.elapsedMs);
    if (s.rows.scored > 0) {
      nrefsMin = Math.min(nrefsMin, s.nrefs.min);
      nrefsMax = Math.max(nrefsMax, s.nrefs.max);
    }
    for (const [c, n] of Object.entries(s.rows.badByCode)) badByCode[c] = (badByCode[c] ?? 0) + n;
    for (const b of s.rows.badSamples) if (badSamples.length < 100) badSamples.push(b);
    invalidUtf8.count += s.rows.invalidUtf8?.count ?? 0;
    for (const l of s.rows.invalidUtf8?.lines ?? []) if (invalidUtf8.lines.length < 100) invalidUtf8.lines.push(l);
  }
  await ready();
  const metricSummaries = summarizeMetrics(metrics, sums.partials, scored, nrefsLabel(nrefsMin === Infinity ? 0 : nrefsMin, nrefsMax));
  const files = first.statistics ? sorted.flatMap((s) => s.statistics!.files) : [];
  const bootstrap = resolveBootstrap(options.bootstrap);
  if (bootstrap && scored > 0) {
    if (!first.statistics) throw new InvalidArgumentError("bootstrap needs the shards' statistics files (run them with keepStatistics or bootstrap)", { argument: "bootstrap" });
    const pool = createPool(options.workers ?? defaultWorkers(), { metrics: first.metricSpecs, fields: first.fields, jsonOutput: true, keepStatistics: true, positionKey: "line" });
    try {
      const ci = await bootstrapFiles(pool, metrics, files, undefined, first.statistics.rowWidth, scored, bootstrap);
      for (const m of metrics) (metricSummaries[m.spec.name] as { ci?: unknown }).ci = ci[m.spec.name];
    } finally {
      await pool.destroy();
    }
  }
  const output = options.output ? resolve(options.output) : "";
  if (output) {
    const out = createWriteStream(output);
    for (const s of sorted) {
      if (!existsSync(s.output)) throw new InvalidArgumentError(`shard output not found: ${s.output}`, { argument: "shards" });
      await pipeline(createReadStream(s.output), out, { end: false });
    }
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  }
  const merged: ScoreSummary = {
    version: 1,
    job: sorted.map((s) => s.job).join("+"),
    input: first.input,
    output,
    format: first.format,
    shard: null,
    rows: { records, scored, bad: records - scored, blank, badByCode, badSamples, invalidUtf8 },
    nrefs: { min: nrefsMin === Infinity ? 0 : nrefsMin, max: nrefsMax },
    metrics: metricSummaries,
    metricSpecs: first.metricSpecs,
    partials: sums.partials,
    fields: first.fields,
    statistics: first.statistics ? { files, rowWidth: first.statistics.rowWidth } : null,
    resumed: sorted.some((s) => s.resumed),
    elapsedMs: elapsed,
    workers: Math.max(...sorted.map((s) => s.workers)),
    diagnostics: {
      chunks: sorted.reduce((a, s) => a + s.diagnostics.chunks, 0),
      window: Math.max(...sorted.map((s) => s.diagnostics.window)),
      maxInFlight: Math.max(...sorted.map((s) => s.diagnostics.maxInFlight)),
    },
  };
  const sumPath = options.summary ? resolve(options.summary) : output ? summaryPath(output) : "";
  if (sumPath) writeFileAtomic(sumPath, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}

export interface PairedTestOptions {
  /** The baseline system's scoreFile summary (or its path); it must have kept statistics. */
  readonly baseline: ScoreSummary | string;
  /** The compared system's summary, scored with the same metrics on the same references and rows. */
  readonly system: ScoreSummary | string;
  /** Resamples (default 1000). */
  readonly resamples?: number;
  /** Seed (default 12345). */
  readonly seed?: number;
  readonly workers?: number;
}

export interface PairedScore {
  readonly baseline: { readonly score: number; readonly ci: ConfidenceInterval };
  readonly system: { readonly score: number; readonly ci: ConfidenceInterval };
  /** system − baseline. */
  readonly difference: number;
  /** Paired bootstrap p-value (sacreBLEU `paired-bs`): small means the difference is unlikely by chance. */
  readonly pValue: number;
}

export interface PairedTestResult {
  readonly test: "paired-bs";
  readonly resamples: number;
  readonly seed: number;
  /** Rows used: valid in both systems. */
  readonly rows: number;
  /** metric → score name → result. */
  readonly metrics: Record<string, Record<string, PairedScore>>;
  readonly signatures: Record<string, string>;
}

/**
 * Paired bootstrap resampling test between two systems' outputs on the same references (sacreBLEU's
 * `--paired-bs`): the same resampled rows are scored for both; p = (#{|Δ*| − mean|Δ*| > |Δ|} + 1)/(B + 1).
 *
 * @example
 * const r = await pairedTest({ baseline: "a.jsonl.summary.json", system: "b.jsonl.summary.json" });
 * r.metrics.bleu.bleu.pValue;
 */
export async function pairedTest(options: PairedTestOptions): Promise<PairedTestResult> {
  const a = load(options.baseline, "baseline");
  const b = load(options.system, "system");
  if (!a.statistics || !b.statistics) throw new InvalidArgumentError("both runs must keep statistics (scoreFile with keepStatistics: true or bootstrap)", { argument: "baseline" });
  if (stableJson(a.metricSpecs) !== stableJson(b.metricSpecs)) throw new InvalidArgumentError("the two runs used different metrics or options", { argument: "system" });
  if (a.rows.records !== b.rows.records) throw new InvalidArgumentError(`the two runs have different row counts (${a.rows.records} vs ${b.rows.records}): they must score the same references row by row`, { argument: "system" });
  const opts = resolveBootstrap({ ...(options.resamples !== undefined ? { resamples: options.resamples } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) })!;
  const metrics = await mainThreadMetrics(a.metricSpecs);
  const rowWidth = a.statistics.rowWidth;
  const W = rowWidth - 1;
  await ready();

  // rows valid in both, and the exact real scores on them (the summaries' own when nothing differs)
  let n = a.rows.scored;
  let realA = a.metrics;
  let realB = b.metrics;
  if (a.rows.scored !== a.rows.records || b.rows.scored !== b.rows.records) {
    const ia = fileRows(a.statistics.files, rowWidth).blocks(8192)[Symbol.iterator]();
    const ib = fileRows(b.statistics.files, rowWidth).blocks(8192)[Symbol.iterator]();
    const sa = new ColumnSums(W);
    const sb = new ColumnSums(W);
    n = 0;
    for (;;) {
      const x = ia.next();
      const y = ib.next();
      if (x.done || y.done) break;
      const rows = x.value.length / rowWidth;
      for (let r = 0; r < rows; r++) {
        if (x.value[r * rowWidth] !== 1 || y.value[r * rowWidth] !== 1) continue;
        n++;
        sa.addRow(x.value, r * rowWidth + 1);
        sb.addRow(y.value, r * rowWidth + 1);
      }
    }
    realA = summarizeMetrics(metrics, sa.partials, n, 1);
    realB = summarizeMetrics(metrics, sb.partials, n, 1);
  }
  const pool = createPool(options.workers ?? defaultWorkers(), { metrics: a.metricSpecs, fields: a.fields, jsonOutput: true, keepStatistics: true, positionKey: "line" });
  let sums: Float64Array;
  try {
    sums = await resampleAll(pool, a.statistics.files, b.statistics.files, rowWidth, n, opts);
  } finally {
    await pool.destroy();
  }
  const scoresA = bootstrapScores(metrics, sums, opts.resamples, 2, W, n, 0);
  const scoresB = bootstrapScores(metrics, sums, opts.resamples, 2, W, n, 1);
  const out: Record<string, Record<string, PairedScore>> = {};
  const signatures: Record<string, string> = {};
  for (const m of metrics) {
    const name = m.spec.name;
    signatures[name] = b.metrics[name]!.signature;
    out[name] = {};
    for (const s of m.scoreNames) {
      const base = realA[name]!.scores[s]!;
      const sys = realB[name]!.scores[s]!;
      out[name]![s] = {
        baseline: { score: base, ci: estimateCi(scoresA[name]![s]!, opts.seed) },
        system: { score: sys, ci: estimateCi(scoresB[name]![s]!, opts.seed) },
        difference: sys - base,
        pValue: pairedBootstrapPValue(scoresA[name]![s]!, scoresB[name]![s]!, Math.abs(base - sys)),
      };
    }
  }
  return { test: "paired-bs", resamples: opts.resamples, seed: opts.seed, rows: n, metrics: out, signatures };
}
