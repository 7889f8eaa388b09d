// `evalkern merge`: the outputs of `score --shard i/n` runs as one run. Statistics add exactly (the
// harness's `mergeShards`), the per-row outputs are concatenated in shard order (= input order).
import { createReadStream, createWriteStream, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { corpusEntry, mergeShards } from "@evalkern/harness/bulk";
import { EXIT, inputError, usageError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { checkOutputPaths } from "../io/output-paths.js";
import { CLI_VERSION, ensureSidecar, loadRun, type RunManifest, type RunMetric } from "../results.js";
import type { ScoreIo } from "./score.js";
import { colorEnabled } from "../log.js";
import { summaryTable } from "./score.js";

export interface MergeOptions {
  readonly outputs: readonly string[];
  readonly output: string;
  readonly ci: boolean;
  readonly workers?: number | undefined;
  readonly json: boolean;
  /** Signatures in the table: short (default) or full. */
  readonly signatures?: "short" | "full" | undefined;
}

export async function mergeCommand(options: MergeOptions, io: ScoreIo): Promise<number> {
  checkOutputPaths(
    options.outputs.map((path) => ({ role: "the shard", path })),
    [{ role: "-o", path: options.output, sidecar: true }],
  );
  const runs = options.outputs.map((o) => ({ path: resolve(o), run: loadRun(o) }));
  for (const r of runs) {
    if (r.run.manifest.kind !== "score" || !r.run.summary) throw inputError(`${r.path} is not the output of \`evalkern score\``);
    if (!r.run.manifest.shard) throw inputError(`${r.path} is not a shard (it was scored without --shard)`);
  }
  const first = runs[0]!.run.manifest;
  for (const r of runs) {
    if (r.run.manifest.outputFormat !== first.outputFormat) throw usageError("the shards have different output formats (jsonl/csv)");
  }
  runs.sort((x, y) => x.run.manifest.shard!.index - y.run.manifest.shard!.index);
  const output = resolve(options.output);
  const dir = ensureSidecar(output);
  let merged;
  try {
    merged = await mergeShards(
      runs.map((r) => r.run.summary!),
      // the shards' rows are concatenated below (their own output files); the harness merges statistics only
      { summary: join(dir, "rows.jsonl.summary.json"), bootstrap: options.ci, ...(options.workers ? { workers: options.workers } : {}) },
    );
  } catch (e) {
    throw mapHarnessError(e);
  }
  // per-row outputs in shard order (a CSV output keeps the first shard's header only)
  const out = createWriteStream(output);
  for (const [i, r] of runs.entries()) {
    if (first.outputFormat === "csv" && i > 0) {
      const text = createReadStream(r.run.manifest.output, { encoding: "utf8" });
      let skipped = false;
      for await (const chunk of text) {
        let c = chunk as string;
        if (!skipped) {
          const nl = c.indexOf("\n");
          if (nl < 0) continue;
          c = c.slice(nl + 1);
          skipped = true;
        }
        if (!out.write(c)) await new Promise<void>((res) => out.once("drain", () => res()));
      }
    } else await pipeline(createReadStream(r.run.manifest.output), out, { end: false });
  }
  await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));

  const metrics: RunMetric[] = first.metrics.map((m) => {
    const { ci: _old, ...rest } = m;
    return { ...rest, ...corpusEntry(merged.metrics[m.name]!) };
  });
  const manifest: RunManifest = {
    ...first,
    createdAt: new Date().toISOString(),
    tool: `evalkern ${CLI_VERSION}`,
    output,
    metrics,
    rows: { records: merged.rows.records, scored: merged.rows.scored, bad: merged.rows.bad },
    shard: null,
    summary: relative(dir, join(dir, "rows.jsonl.summary.json")),
    elapsedMs: merged.elapsedMs,
  };
  writeFileSync(join(dir, "run.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.json) io.stdout.write(`${JSON.stringify({ output, rows: manifest.rows, metrics }, null, 2)}\n`);
  else
    io.stdout.write(
      `evalkern merge · ${runs.length} shards → ${relative(process.cwd(), output) || output}\n` +
        `${merged.rows.scored.toLocaleString("en-US")} rows scored\n\n` +
        `${summaryTable(metrics, { signatures: options.signatures ?? "short", color: colorEnabled(io.stdout) })}\n`,
    );
  return EXIT.ok;
}
