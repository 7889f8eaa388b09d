// Combining independent runs: shard summaries merge exactly (exact partial sums add; outputs
// concatenate in shard order). The paired test between two systems lives in ./statistics.ts.
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { resolveBootstrap, type BootstrapOptions } from "../bulk/bootstrap.js";
import { stableJson } from "../bulk/metrics.js";
import { mainThreadMetrics, summarizeMetrics } from "../bulk/summary.js";
import { RunTally } from "../bulk/tally.js";
import { writeFileAtomic } from "./files.js";
import { defaultWorkers } from "./pool.js";
import { summaryPath, type ScoreSummary } from "./score-file.js";
import { bootstrapFromFiles, loadRun } from "./statistics.js";

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
  if (!Array.isArray(shards) || shards.length === 0)
    throw new InvalidArgumentError("shards must be a non-empty array of summaries or paths", { argument: "shards" });
  const list = shards.map((s, i) => loadRun(s, `shards[${i}]`));
  const first = list[0]!;
  const count = first.shard?.count ?? 1;
  for (const [i, s] of list.entries()) {
    if (stableJson(s.metricSpecs) !== stableJson(first.metricSpecs))
      throw new InvalidArgumentError(`shards[${i}] used different metrics`, { argument: "shards" });
    if (stableJson(s.fields) !== stableJson(first.fields) || s.format !== first.format)
      throw new InvalidArgumentError(`shards[${i}] used different fields or format`, { argument: "shards" });
    if ((s.shard?.count ?? 1) !== count)
      throw new InvalidArgumentError(`shards[${i}] is from a split into ${s.shard?.count ?? 1} shards, not ${count}`, {
        argument: "shards",
      });
    if ((s.statistics === null) !== (first.statistics === null))
      throw new InvalidArgumentError("either every shard or none kept statistics", { argument: "shards" });
  }
  const sorted = [...list].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const indices = sorted.map((s) => s.shard?.index ?? 0);
  if (indices.length !== count || indices.some((x, i) => x !== i)) {
    throw new InvalidArgumentError(`expected shards 0..${count - 1} exactly once, got ${indices.join(", ")}`, { argument: "shards" });
  }
  const metrics = await mainThreadMetrics(first.metricSpecs);
  const totalWidth = metrics.reduce((a, m) => a + m.width, 0);
  // shards in input order: a sequential column adds each shard's left-to-right sum
  const tally = new RunTally(totalWidth);
  for (const s of sorted) tally.merge(RunTally.fromSummary(totalWidth, s));
  const scored = tally.valid;
  await ready();
  const metricSummaries = summarizeMetrics(metrics, tally.sums.partials, scored, tally.nrefsLabel(), tally.sequential);
  const files = first.statistics ? sorted.flatMap((s) => s.statistics!.files) : [];
  const bootstrap = resolveBootstrap(options.bootstrap);
  if (bootstrap && scored > 0) {
    if (!first.statistics)
      throw new InvalidArgumentError("bootstrap needs the shards' statistics files (run them with keepStatistics or bootstrap)", {
        argument: "bootstrap",
      });
    const pool = {
      workers: options.workers ?? defaultWorkers(),
      config: {
        metrics: first.metricSpecs,
        fields: first.fields,
        output: { kind: "scores" as const, positionKey: "line" as const },
        keepStatistics: true,
      },
    };
    const ci = await bootstrapFromFiles(metrics, files, first.statistics.rowWidth, scored, bootstrap, pool);
    for (const m of metrics) (metricSummaries[m.spec.name] as { ci?: unknown }).ci = ci[m.spec.name];
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
    rows: tally.rows(),
    nrefs: tally.nrefs(),
    metrics: metricSummaries,
    metricSpecs: first.metricSpecs,
    partials: tally.sums.partials,
    ...(tally.hasSequential() ? { sequential: tally.sequential } : {}),
    fields: first.fields,
    statistics: first.statistics ? { files, rowWidth: first.statistics.rowWidth } : null,
    resumed: sorted.some((s) => s.resumed),
    elapsedMs: Math.max(...sorted.map((s) => s.elapsedMs)),
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
