// What a run leaves beside its per-row output: `<output>.evalkern/run.json` (the manifest read by
// `report`, `compare` and `merge`) and, for `score`, the bulk scorer's files (raw rows, statistics,
// checkpoint, summary).
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { makeDirectory, type ScoreSummary } from "@evalkern/harness";
import { inputError } from "./errors.js";
import type { Format } from "./io/records.js";
import type { Scale } from "./metric-registry.js";

export const CLI_VERSION = "0.1.0";

/** One output column of a metric: the raw scorer column and its key in the metric's output object. */
export interface MetricColumn {
  readonly column: string;
  readonly key: string;
}

export interface RunMetric {
  /** Output key of the metric's object in every row. */
  readonly name: string;
  /** Registry name (`bleu`, `faithfulness`, ...). */
  readonly metric: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly scale: Scale;
  /** Keys of the metric's row object besides `score` (empty for one-number metrics). */
  readonly columns: readonly MetricColumn[];
  /** The column reported as `score`. */
  readonly headline: string;
  readonly higherIsBetter: boolean;
  readonly signature: string;
  /** Corpus-level score per column (BLEU/chrF from summed statistics, others means). */
  readonly corpus: Readonly<Record<string, number>>;
  /** 95% bootstrap CI per column. */
  readonly ci?: Readonly<Record<string, { readonly lower: number; readonly upper: number; readonly ci: number }>>;
  /** Judge runs: how many measurements took each scoring path (a fallback is never silent). */
  readonly scoringPaths?: Readonly<Record<string, number>>;
}

/** What identifies a file without reading it. */
export interface FileIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly dev: number;
}

/** What a finished score run was computed from (`RunManifest.finished`, see commands/score-done.ts). */
export interface FinishedRecord {
  readonly job: string;
  readonly jobParts: Readonly<Record<string, unknown>>;
  readonly contentHash: string;
  readonly input: FileIdentity;
  readonly output: FileIdentity;
  readonly statistics: FileIdentity | null;
  readonly bootstrap: { readonly resamples: number; readonly seed: number } | false;
}

export interface RunManifest {
  readonly version: 1;
  readonly kind: "score" | "judge";
  readonly tool: string;
  readonly createdAt: string;
  readonly input: string;
  readonly output: string;
  readonly inputFormat: Format;
  readonly outputFormat: Format;
  /** CSV/TSV output: written with CSV quoting (absent: yes; TSV output of TSV input is written without). */
  readonly outputQuote?: boolean;
  readonly fields: { readonly hypothesis: string; readonly references: readonly string[]; readonly id?: string | undefined };
  readonly metrics: readonly RunMetric[];
  readonly rows: { readonly records: number; readonly scored: number; readonly bad: number };
  readonly shard: { readonly index: number; readonly count: number } | null;
  /** Bulk scorer summary file (score runs), relative to the sidecar directory. */
  readonly summary?: string;
  readonly elapsedMs: number;
  /** Score runs that finished: what they were computed from, so `--resume` can answer "already done". */
  readonly finished?: FinishedRecord;
  /** Judge runs: the model and usage totals. */
  readonly judge?: Readonly<Record<string, unknown>>;
}

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
    throw inputError(`${output} has no run manifest (${manifestPath}): pass a file written by \`evalkern score -o\` or \`evalkern judge -o\``);
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
    summary = { ...summary, statistics: { ...summary.statistics, files: summary.statistics.files.map((f) => relocate(f, recorded, path)) } };
  }
  manifest = { ...manifest, output: path };
  return { manifest, dir, ...(summary ? { summary } : {}) };
}

/** How a metric column is named in tables: `bleu`, `rouge1` (not "rouge rouge1"), `byob-f1.precision`. */
export { columnLabel } from "@evalkern/harness/report";
