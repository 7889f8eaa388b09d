// What a run leaves beside its per-row output: `<output>.evalkern/run.json` (the manifest read by
// `report`, `compare` and `merge`) and, for `score`, the bulk scorer's files (raw rows, statistics,
// checkpoint, summary).
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { makeDirectory, type ScoreSummary } from "@evalkern/harness/bulk";
import { inputError } from "./errors.js";
import type { RunManifest } from "@evalkern/harness/report";
import { PACKAGE_VERSION } from "./version.generated.js";

/** Version of @evalkern/cli (its package.json's, written into version.generated.ts at build time). */
export const CLI_VERSION: string = PACKAGE_VERSION;

// The manifest's types live with the report that reads them (harness/src/report/manifest.ts).
export type { FileIdentity, FinishedRecord, MetricColumn, RunManifest, RunMetric } from "@evalkern/harness/report";

export function sidecarDir(output: string): string {
  return `${resolve(output)}.evalkern`;
}

export function ensureSidecar(output: string): string {
  const dir = sidecarDir(output);
  makeDirectory(dir); // bounded, typed errors (Node's mkdir -p loops forever under /proc)
  return dir;
}

export interface LoadedRun {
  readonly manifest: RunManifest;
  readonly dir: string;
  readonly summary?: ScoreSummary;
}

/**
 * A path recorded by the run that wrote `recordedOutput`, for the results file now at `output`: when the
 * results were copied or moved (with their sidecar, and for merged runs the shards' sidecars beside
 * them), the same place relative to the results file; the recorded path when nothing is there.
 */
function relocate(file: string, recordedOutput: string, output: string): string {
  if (!isAbsolute(recordedOutput) || recordedOutput === output) return file;
  const moved = resolve(dirname(output), relative(dirname(recordedOutput), file));
  return existsSync(moved) || !existsSync(file) ? moved : file;
}

/**
 * Load the manifest (and bulk summary) of a results file written by `evalkern score` or `evalkern judge`.
 * A results file plus its sidecar is self-describing: the manifest's `output` is the file given here,
 * and the statistics files are found relative to it wherever the files were copied.
 */
export function loadRun(output: string): LoadedRun {
  const path = resolve(output);
  if (!existsSync(path)) throw inputError(`results file not found: ${output}`);
  const dir = sidecarDir(path);
  const manifestPath = join(dir, "run.json");
  if (!existsSync(manifestPath)) {
    throw inputError(
      `${output} has no run manifest (${manifestPath}): pass a file written by \`evalkern score -o\` or \`evalkern judge -o\``,
    );
  }
  let manifest: RunManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as RunManifest;
  } catch (e) {
    throw inputError(`${manifestPath}: not valid JSON (${(e as Error).message})`);
  }
  if (manifest.version !== 1 || !Array.isArray(manifest.metrics)) throw inputError(`${manifestPath}: not an evalkern run manifest`);
  let summary: ScoreSummary | undefined;
  if (manifest.summary) {
    const p = join(dir, manifest.summary);
    if (existsSync(p)) summary = JSON.parse(readFileSync(p, "utf8")) as ScoreSummary;
  }
  const recorded = typeof manifest.output === "string" ? manifest.output : path;
  if (summary?.statistics) {
    summary = {
      ...summary,
      statistics: { ...summary.statistics, files: summary.statistics.files.map((f) => relocate(f, recorded, path)) },
    };
  }
  manifest = { ...manifest, output: path };
  return { manifest, dir, ...(summary ? { summary } : {}) };
}

/** How a metric column is named in tables: `bleu`, `rouge1` (not "rouge rouge1"), `byob-f1.precision`. */
export { columnLabel } from "@evalkern/harness/report";
