// `evalkern score --resume` on a finished run: answer "already done" without scoring again.
//
// A finished run records in its manifest (`run.json`, `finished`) what it was computed from: the harness
// job (its fingerprint and the settings behind it), the content hash of the input, the identity (size,
// modification time, inode, device) of the input, the output and the statistics file, and the bootstrap
// settings. `--resume` takes that run as the answer when all of these hold:
//   - the settings are the same: the harness job's parts except the input's size and mtime, and the CIs';
//   - the output and statistics files are the ones the run left (same size, mtime and inode);
//   - the input is the same: same size, mtime, inode and device, read no further (milliseconds); when only
//     its mtime, inode or device differ (touched, copied back, restored), its bytes are hashed once and
//     compared with the recorded content hash; a different size means a different input.
// Otherwise the run is scored again as any run. The one change this cannot see is an in-place edit that
// keeps the size, restores the mtime and keeps the inode: the cheap test trusts those three, as make and
// rsync do. (An interrupted run's checkpoint, by contrast, re-hashes the bytes it covers.)
import { existsSync, statSync } from "node:fs";
import { inputContentHash, scoreJob, statisticsPath, summaryPath } from "@evalkern/harness/bulk";
import type { ScoreFileOptions, ScoreJob, ScoreSummary } from "@evalkern/harness/bulk";
import { loadRun, type FileIdentity, type FinishedRecord, type RunManifest } from "../results.js";

export function fileIdentity(path: string): FileIdentity {
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
}

function sameIdentity(a: FileIdentity | null | undefined, b: FileIdentity | null): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev;
}

function identityOrNull(path: string): FileIdentity | null {
  return existsSync(path) ? fileIdentity(path) : null;
}

/** The settings that differ between two jobs, the input's size and mtime aside (they are checked apart). */
function changedSettings(before: Readonly<Record<string, unknown>>, now: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(now)]);
  keys.delete("size");
  keys.delete("mtimeMs");
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]));
}

/** The record a run that just finished writes into its manifest; undefined when its input changed during the run. */
export async function finishedRecord(o: {
  readonly harnessOptions: ScoreFileOptions;
  readonly summary: ScoreSummary;
  readonly inputBefore: FileIdentity;
  readonly output: string;
  readonly raw: string;
  readonly bootstrap: FinishedRecord["bootstrap"];
}): Promise<FinishedRecord | undefined> {
  const planned: ScoreJob = await scoreJob(o.harnessOptions);
  const input = fileIdentity(o.harnessOptions.input);
  if (planned.job !== o.summary.job || !o.summary.contentHash || !sameIdentity(o.inputBefore, input)) return undefined;
  return {
    job: planned.job,
    jobParts: planned.jobParts,
    contentHash: o.summary.contentHash,
    input,
    output: fileIdentity(o.output),
    statistics: identityOrNull(statisticsPath(o.raw)),
    bootstrap: o.bootstrap,
  };
}

/** A finished run that answers `--resume`, or why there is none (for `--verbose`). */
export type DoneCheck =
  | { readonly done: true; readonly manifest: RunManifest; readonly summary: ScoreSummary; readonly hashed: boolean }
  | { readonly done: false; readonly why: string };

/** Whether the finished run at `output` (its rows in the sidecar's `raw` name) is the answer to these options. */
export async function finishedRun(o: {
  readonly harnessOptions: ScoreFileOptions;
  readonly output: string;
  readonly raw: string;
  readonly bootstrap: FinishedRecord["bootstrap"];
}): Promise<DoneCheck> {
  const { output, raw } = o;
  if (!existsSync(output) || !existsSync(summaryPath(raw))) return { done: false, why: "no finished run" };
  let manifest: RunManifest;
  let summary: ScoreSummary | undefined;
  try {
    ({ manifest, summary } = loadRun(output));
  } catch {
    return { done: false, why: "no readable run manifest" };
  }
  const rec = manifest.finished;
  if (manifest.kind !== "score" || !rec || !summary) return { done: false, why: "the run did not record how it finished" };
  if (manifest.rows.scored === 0) return { done: false, why: "the run scored no row" };
  if (!sameIdentity(rec.output, fileIdentity(output))) return { done: false, why: `${output} was modified since the run finished` };
  if (rec.statistics !== null && !sameIdentity(rec.statistics, identityOrNull(statisticsPath(raw)))) {
    return { done: false, why: "the run's statistics file was modified since it finished" };
  }
  if (JSON.stringify(rec.bootstrap) !== JSON.stringify(o.bootstrap)) return { done: false, why: "changed: confidence interval settings" };
  const planned = await scoreJob(o.harnessOptions);
  const changed = changedSettings(rec.jobParts, planned.jobParts);
  if (changed.length > 0) return { done: false, why: `changed: ${changed.join(", ")}` };
  const input = fileIdentity(o.harnessOptions.input);
  if (sameIdentity(rec.input, input)) return { done: true, manifest, summary, hashed: false };
  if (input.size !== rec.input.size) return { done: false, why: `the input changed (${rec.input.size} → ${input.size} bytes)` };
  // same size, another mtime or file: hash the bytes to tell a touched or copied file from an edited one
  if (inputContentHash(o.harnessOptions.input, planned.geometry) !== rec.contentHash) {
    return { done: false, why: "the input's content changed" };
  }
  return { done: true, manifest, summary, hashed: true };
}
