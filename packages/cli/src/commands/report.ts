// `evalkern report`: one self-contained HTML file from a run's results.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { collectReport } from "../report/collect.js";
import { renderReport } from "../report/html.js";
import { loadRun } from "../results.js";

export interface ReportOptions {
  /** Per-row output of `evalkern score` or `evalkern judge`. */
  readonly results: string;
  /** The HTML file to write. */
  readonly output: string;
  readonly by?: readonly string[] | undefined;
  readonly worst?: number | undefined;
  readonly title?: string | undefined;
}

/**
 * Write the HTML report of a run.
 *
 * @example
 * await writeReport({ results: "out.jsonl", output: "report.html", by: ["lang"] });
 */
export async function writeReport(options: ReportOptions): Promise<{ path: string; bytes: number }> {
  const run = loadRun(options.results);
  const data = await collectReport(run, {
    ...(options.by ? { by: options.by } : {}),
    ...(options.worst !== undefined ? { worst: options.worst } : {}),
    ...(options.title ? { title: options.title } : {}),
  });
  const html = renderReport(data);
  const path = resolve(options.output);
  writeFileSync(path, html);
  return { path, bytes: Buffer.byteLength(html) };
}
