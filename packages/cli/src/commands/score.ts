// `evalkern score`: bulk-score a JSONL/CSV file with rule metrics through @evalkern/harness `scoreFile`
// (worker threads, checkpoints, shards, bootstrap CIs). The harness writes the output rows themselves
// (the input's fields kept, one object per metric added) in its scoring pass, into the sidecar; the
// finished file is renamed into place, so a killed run never leaves half an output under its name.
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, extname, join, relative, resolve } from "node:path";
import {
  checkpointPath,
  csvKeys,
  fileSystemError,
  inputGeometry,
  normalizeMetrics,
  removeStaleTemporaries,
  runMetrics,
  scoreFile,
  type MetricSpec,
  type ScoreSummary,
  type StreamSummary,
} from "@evalkern/harness/bulk";
import { EvalkernError } from "@evalkern/core-wasm";
import { CliError, EXIT, inputError, usageError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import {
  checkLooksLikeJsonl,
  delimiterOf,
  formatOf,
  quoteOf,
  readRecords,
  requireFile,
  type ByteRange,
  type Format,
} from "../io/records.js";
import { checkOutputPaths, mainOutput } from "../io/output-paths.js";
import { RunGuard } from "../io/run-guard.js";
import { scoreTextPairs } from "../io/text-pairs.js";
import { fileIdentity, finishedRecord, finishedRun, type DoneCheck } from "./score-done.js";
import { parseMetricArgument, type MetricArgument } from "../metric-options.js";
import { DEFAULT_METRICS, resolveMetric, type ResolvedMetric } from "../metric-registry.js";
import { createRowProgress, formatCount, formatElapsed, type ProgressSink } from "../progress.js";
import { CLI_VERSION, columnLabel, ensureSidecar, type RunManifest, type RunMetric } from "../results.js";
import { gateCorpusScores, parseFloors } from "../fail-under.js";
import { log, colorEnabled, style } from "../log.js";
import { shortSignature, type SignatureStyle } from "../signatures.js";
export { columnLabel } from "../results.js";
import { formatScore, formatTable } from "../table.js";

export interface ShardArgument {
  /** 0-based, as the harness counts. */
  readonly index: number;
  readonly count: number;
}

/** `--shard i/n`, 1-based as vitest, jest and Playwright count shards. */
export function parseShard(text: string): ShardArgument {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw usageError(`--shard ${JSON.stringify(text)}: expected i/n, e.g. --shard 1/4 (shards are numbered 1..n)`);
  const i = Number(m[1]);
  const n = Number(m[2]);
  if (n < 1 || i < 1 || i > n)
    throw usageError(`--shard ${text}: i must be from 1 to n (shards are numbered 1..n, as in vitest and Playwright)`);
  return { index: i - 1, count: n };
}

export interface ScoreCommandOptions {
  /** JSONL/CSV/TSV input; absent with `hyp` (plain-text files). */
  readonly input?: string | undefined;
  /** Plain-text hypothesis file, one segment per line (`-`: stdin); needs `refs`. */
  readonly hyp?: string | undefined;
  /** Plain-text reference files, line-aligned with `hyp`. */
  readonly refs?: readonly string[] | undefined;
  /** Print the corpus scores only: no output rows, no sidecar (sacreBLEU's habit). */
  readonly scoreOnly?: boolean | undefined;
  /** Decimals of 0–100 scores in the table (sacreBLEU's --width). */
  readonly width?: number | undefined;
  readonly output?: string | undefined;
  readonly metrics: readonly string[];
  readonly hypField: string;
  readonly refsField: readonly string[];
  readonly idField?: string | undefined;
  readonly workers?: number | undefined;
  readonly resume?: boolean;
  readonly shard?: ShardArgument | undefined;
  readonly ci: boolean;
  readonly resamples: number;
  readonly seed: number;
  /** undefined = on (bar on a terminal, lines otherwise). */
  readonly progress?: boolean | undefined;
  readonly progressInterval?: number | undefined;
  readonly checkpointInterval?: number | undefined;
  /** Rows longer than this (bytes) are bad rows, never read (scoreFile maxRowBytes). */
  readonly maxRowBytes?: number | undefined;
  /** CSV output: neutralise text cells starting with = + - @ tab CR (default true; --no-csv-escape). */
  readonly csvEscapeFormulas?: boolean | undefined;
  /** Rows with bytes that are not UTF-8 are bad rows (scoreFile strictUtf8). */
  readonly strictUtf8?: boolean | undefined;
  /** Read .tsv input (and write .tsv output) with CSV quoting (scoreFile quote); by default a `"` in TSV is text. */
  readonly tsvQuotes?: boolean | undefined;
  /** Time budget per row in ms (scoreFile rowTimeoutMs). */
  readonly rowTimeout?: number | undefined;
  readonly report?: string | undefined;
  readonly allowBadRows: boolean;
  /** `--fail-under bleu=30,chrf=50`: exit 1 when a corpus score is below its floor. */
  readonly failUnder?: string;
  readonly json: boolean;
  /** Signatures in the table: short (default) or full. */
  readonly signatures?: SignatureStyle | undefined;
  /** Score on a cluster: chunks go to `evalkern worker`s through this BullMQ/Redis queue (redis:// or rediss://). */
  readonly queue?: string | undefined;
  /** The queue run's name; rerunning with it resumes (queue mode). */
  readonly job?: string | undefined;
  /** BullMQ queue name shared with the workers (default "evalkern"). */
  readonly queueName?: string | undefined;
  /** Attempts of a failing chunk before the run stops (queue mode, default 3). */
  readonly attempts?: number | undefined;
  /** The input's path as queue workers see it (they read byte ranges of it instead of receiving bytes). */
  readonly sharedInput?: string | undefined;
}

export interface ScoreIo {
  readonly stdout: ProgressSink;
  readonly stderr: ProgressSink;
}

/** The default output name: `<input stem>.scored<ext>` in the working directory (with the shard in it). */
export function defaultOutput(input: string, shard: ShardArgument | undefined): string {
  const ext = extname(input) || ".jsonl";
  const stem = basename(input, extname(input));
  const part = shard && shard.count > 1 ? `.shard-${shard.index + 1}-of-${shard.count}` : "";
  return resolve(`${stem}.scored${part}${ext === ".tsv" ? ".tsv" : ext === ".csv" ? ".csv" : ".jsonl"}`);
}

/** The harness spec of a `--metric`, with the registry's headline column (ROUGE → rougeL). */
function harnessSpec(m: ResolvedMetric): MetricSpec {
  return m.definition.headline && typeof m.spec === "object" ? { ...m.spec, headline: m.definition.headline } : m.spec;
}

// ------------------------------------------------------------------------------------ summary

/** How a scale is written in tables: `0–100` (sacreBLEU's BLEU, chrF, TER) or `0–1`. */
export function scaleLabel(scale: number): string {
  return scale === 100 ? "0–100" : "0–1";
}

export interface SummaryTableOptions {
  /** Short signatures (default) or the full form. */
  readonly signatures?: SignatureStyle;
  /** Decimals of 0–100 scores (default 2; 0–1 scores get two more), sacreBLEU's --width. */
  readonly width?: number;
  /** ANSI bold/dim (see `colorEnabled`). */
  readonly color?: boolean;
}

/**
 * The summary table: corpus scores, 95% CIs and each column's scale and direction, then each metric's
 * signature (short by default: the full form is in run.json and the report).
 */
export function summaryTable(metrics: readonly RunMetric[], options: SummaryTableOptions = {}): string {
  const st = style(options.color === true);
  const rows: string[][] = [];
  for (const m of metrics) {
    const cols = m.columns.length ? m.columns : [{ column: m.headline, key: "score" }];
    for (const c of cols) {
      const ci = m.ci?.[c.column];
      rows.push([
        columnLabel(m, c.key),
        formatScore(m.corpus[c.column], m.scale, options.width),
        ci ? `${formatScore(ci.lower, m.scale, options.width)} – ${formatScore(ci.upper, m.scale, options.width)}` : "–",
        ci ? `±${formatScore(ci.ci, m.scale, options.width)}` : "",
        `${scaleLabel(m.scale)} ${m.higherIsBetter === false ? "↓" : "↑"}`,
      ]);
    }
  }
  const table = formatTable(["metric", "score", "95% CI", "", "scale"], rows, { align: ["l", "r", "r", "r", "l"] });
  const [head, ...body] = table.split("\n");
  const width = Math.max(...metrics.map((m) => m.name.length));
  const full = options.signatures === "full";
  const sigs = metrics.map((m) => `  ${m.name.padEnd(width)}  ${full ? m.signature : shortSignature(m.signature)}`);
  const scales = "scale: BLEU, chrF and TER on sacreBLEU's 0–100, the other metrics on 0–1; ↑ higher is better, ↓ lower is better";
  const more = full
    ? ""
    : `\n${st.dim("  (short form: metric options, then #hash of the full signature; --signatures full prints it, run.json keeps it)")}`;
  return `${st.bold(head!)}\n${body.join("\n")}\n${st.dim(scales)}\n\n${st.bold("signatures")}\n${sigs.join("\n")}${more}`;
}

function badRowsNote(summary: ScoreSummary, input: string): string {
  const lines = [
    `${formatCount(summary.rows.bad)} of ${formatCount(summary.rows.records)} rows could not be scored (${Object.entries(
      summary.rows.badByCode,
    )
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ")}):`,
  ];
  for (const b of summary.rows.badSamples.slice(0, 5)) lines.push(`  ${input}:${b.line}: ${b.message}`);
  if (summary.rows.badSamples.length > 5) lines.push(`  … (every bad row carries "_error" in the output)`);
  return lines.join("\n");
}

/** The first input row's fields (read only when no row could be scored). */
async function firstRowHint(
  input: string,
  format: Format,
  range: ByteRange,
  header: readonly string[] | null,
  delimiter: string,
  quote: boolean,
): Promise<string> {
  for await (const r of readRecords(input, format, range, delimiter, quote)) {
    let keys: string[] | undefined;
    if (r.kind === "jsonl") {
      try {
        const v = JSON.parse(r.text) as unknown;
        if (typeof v === "object" && v !== null && !Array.isArray(v)) keys = Object.keys(v);
      } catch {
        keys = undefined;
      }
    } else if (r.kind === "csv" && header && r.fields.length === header.length) keys = csvKeys(header);
    if (keys) return ` The first row's fields are: ${keys.join(", ") || "(none)"}; choose them with --hyp-field and --refs-field.`;
    break;
  }
  return "";
}

/** What a stopped run kept and how to continue it, from its checkpoint (empty when there is none). */
export function resumeNote(raw: string): string {
  let ck: { records?: number; nextLine?: number; complete?: boolean } | undefined;
  try {
    ck = JSON.parse(readFileSync(checkpointPath(raw), "utf8")) as typeof ck;
  } catch {
    return "";
  }
  if (!ck || typeof ck.records !== "number") return "";
  const where = ck.complete
    ? "all rows are scored"
    : ck.records === 0
      ? "no row was scored yet"
      : `${formatCount(ck.records)} rows up to input line ${formatCount(Math.max(0, (ck.nextLine ?? 1) - 1))} are kept`;
  return `${where} (checkpoint ${checkpointPath(raw)}); run the same command with --resume to continue`;
}

/** A file-system failure during scoring (disk full, permissions) ends with what was kept and how to resume. */
function withResumeHint(error: unknown, raw: string): unknown {
  if (!EvalkernError.isInstance(error) || (error as Error).name !== "FileSystemError") return error;
  const note = resumeNote(raw);
  return new CliError(`${(error as Error).message}${note ? `\n${note}` : ""}`, EXIT.failure);
}

/**
 * `scoreFileDistributed` bound to the --queue options (loaded only in queue mode: BullMQ and ioredis
 * are not imported by a local run). Queue lines (connection lost/restored, cluster progress) go to
 * stderr with the password removed.
 */
async function distributed(
  options: ScoreCommandOptions,
  io: ScoreIo,
  showProgress: boolean,
): Promise<(o: Parameters<typeof scoreFile>[0]) => Promise<ScoreSummary>> {
  const { scoreFileDistributed } = await import("@evalkern/harness/queue");
  const intervalMs = options.progressInterval ?? 5000;
  return (o) =>
    scoreFileDistributed({
      ...o,
      queue: options.queue!,
      ...(options.job ? { job: options.job } : {}),
      ...(options.queueName ? { queueName: options.queueName } : {}),
      ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
      ...(options.sharedInput ? { sharedInput: options.sharedInput } : {}),
      progressIntervalMs: intervalMs,
      log: (line) => log.warn(line),
      ...(showProgress
        ? {
            onQueueProgress: (p) =>
              io.stderr.write(
                `queue: ${formatCount(p.chunksDone)} chunks done, ${formatCount(p.chunksInFlight)} queued or being ` +
                  `scored${p.workers !== undefined ? `, ${p.workers} worker${p.workers === 1 ? "" : "s"} connected` : ""}` +
                  `${p.chunksRequeued ? `, ${p.chunksRequeued} requeued` : ""}\n`,
              ),
          }
        : {}),
    });
}

/**
 * Run `evalkern score`; returns the exit code. One run per output (a second fails at once); SIGINT/
 * SIGTERM stop it with what was kept and how to resume, exit 130/143.
 */
export async function scoreCommand(options: ScoreCommandOptions, io: ScoreIo): Promise<number> {
  if (options.failUnder !== undefined) parseFloors(options.failUnder); // a malformed flag fails before any scoring
  let raw = "";
  const guard = new RunGuard({ stderr: io.stderr, note: () => (raw ? resumeNote(raw) : "") });
  try {
    return await runScore(options, io, guard, (path) => (raw = path));
  } finally {
    guard.close();
  }
}

/** The `--metric` arguments resolved against the registry (the defaults when none), each output key once. */
function resolveMetrics(metrics: readonly string[]): { metricArgs: MetricArgument[]; resolved: ResolvedMetric[] } {
  const metricArgs = (metrics.length ? metrics : DEFAULT_METRICS).map(parseMetricArgument);
  const resolved = metricArgs.map(resolveMetric);
  const seen = new Set<string>();
  for (const m of resolved) {
    if (seen.has(m.name))
      throw usageError(
        `two metrics write the key ${JSON.stringify(m.name)}: rename one with name=..., e.g. --metric ${m.definition.name}:name=${m.name}2`,
      );
    seen.add(m.name);
  }
  return { metricArgs, resolved };
}

/** --score-only prints corpus scores and writes nothing: flags that name files or resume runs do not apply. */
function checkScoreOnly(options: ScoreCommandOptions): void {
  const clash = options.output
    ? "-o/--output"
    : options.report
      ? "--report"
      : options.resume
        ? "--resume"
        : options.queue
          ? "--queue"
          : undefined;
  if (clash) throw usageError(`--score-only writes no file, so ${clash} does not apply: drop one of them`);
}

async function runScore(options: ScoreCommandOptions, io: ScoreIo, guard: RunGuard, setRaw: (raw: string) => void): Promise<number> {
  if (options.hyp !== undefined || options.refs?.length) return runTextScore(options, io, guard);
  if (options.input === undefined)
    throw usageError("give an input file (JSONL, CSV or TSV), or plain-text files with --hyp hyp.txt --ref ref.txt");
  const input = resolve(options.input);
  requireFile(input);
  if (statSync(input).size === 0) throw inputError(`input file is empty: ${options.input}`);
  const scoreOnly = options.scoreOnly === true;
  if (scoreOnly) checkScoreOnly(options);
  if (formatOf(input) === "jsonl") checkLooksLikeJsonl(input, options.input);
  // --score-only: the run's files (score lines without the input's text, statistics for the CIs) live in a
  // private temporary directory, removed when the scores are printed
  const scratch = scoreOnly ? mkdtempSync(join(tmpdir(), "evalkern-score-only-")) : undefined;
  try {
    return await scoreInput(options, io, guard, setRaw, input, scratch);
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `score --hyp hyp.txt --ref ref1.txt [--ref ref2.txt]`: plain-text files read in lockstep and scored by
 * the streaming bulk scorer (io/text-pairs.ts); rows go to a JSONL output unless --score-only.
 */
async function runTextScore(options: ScoreCommandOptions, io: ScoreIo, guard: RunGuard): Promise<number> {
  const refs = options.refs ?? [];
  if (options.hyp === undefined || refs.length === 0)
    throw usageError("plain-text input needs --hyp <file> and at least one --ref <file> (one per reference)");
  if (options.input !== undefined)
    throw usageError(`give either an input file (${options.input}) or --hyp/--ref plain-text files, not both`);
  const unsupported = options.shard
    ? "--shard"
    : options.queue
      ? "--queue"
      : options.resume
        ? "--resume"
        : options.report
          ? "--report"
          : undefined;
  if (unsupported) throw usageError(`${unsupported} needs a JSONL/CSV input file; plain-text --hyp/--ref runs are scored in one pass`);
  const scoreOnly = options.scoreOnly === true;
  if (scoreOnly) checkScoreOnly(options);
  if (!scoreOnly && options.hyp === "-" && !options.output)
    throw usageError("with --hyp - (stdin), give -o <file.jsonl> for the scored rows, or --score-only");
  const output = scoreOnly
    ? undefined
    : resolve(options.output ?? defaultOutput(options.hyp === "-" ? "stdin.jsonl" : options.hyp, undefined));
  if (output && formatOf(output) !== "jsonl") throw usageError(`-o ${options.output}: plain-text runs write JSONL rows (.jsonl)`);
  const inputs = [options.hyp, ...refs]
    .filter((f) => f !== "-")
    .map((path, i) => ({ role: i === 0 && options.hyp !== "-" ? "--hyp" : "--ref", path }));
  if (output) {
    checkOutputPaths(inputs, [mainOutput(options.output, output)]);
    guard.lock(output);
  }
  const { metricArgs, resolved } = resolveMetrics(options.metrics);
  const specs = resolved.map(harnessSpec);
  const started = performance.now();
  let summary: StreamSummary;
  guard.setAbortable(true);
  try {
    summary = await scoreTextPairs({
      hyp: options.hyp,
      refs,
      metrics: specs,
      workers: options.workers,
      bootstrap: options.ci ? { resamples: options.resamples, seed: options.seed } : false,
      output,
    });
  } catch (e) {
    if (guard.interrupted) return guard.stopped();
    throw mapHarnessError(e, metricArgs);
  } finally {
    guard.setAbortable(false);
  }
  const shownHyp = options.hyp === "-" ? "stdin" : options.hyp;
  if (summary.rows.records === 0) throw inputError(`${shownHyp} has no lines to score`);
  const metrics = runMetrics(resolved, { metrics: summary.metrics, metricSpecs: normalizeMetrics(specs) });
  const rows = { records: summary.rows.records, scored: summary.rows.scored, bad: summary.rows.bad };
  if (options.json) {
    io.stdout.write(
      JSON.stringify(
        { output: output ?? null, rows, metrics: metrics.map(({ name, signature, corpus, ci }) => ({ name, signature, corpus, ci })) },
        null,
        2,
      ) + "\n",
    );
  } else {
    const files = [shownHyp, ...refs.map((r) => (r === "-" ? "stdin" : r))].join(" + ");
    const where = output ? `${files} → ${relative(process.cwd(), output) || output}` : `${files} (score only, no file written)`;
    io.stdout.write(
      `evalkern score · ${where}\n${formatCount(rows.scored)} lines scored${rows.bad ? `, ${formatCount(rows.bad)} bad` : ""} · ` +
        `${formatElapsed(performance.now() - started)}\n\n`,
    );
    if (rows.scored > 0)
      io.stdout.write(
        summaryTable(metrics, {
          signatures: options.signatures ?? "short",
          color: colorEnabled(io.stdout),
          ...(options.width !== undefined ? { width: options.width } : {}),
        }) + "\n",
      );
  }
  if (rows.bad > 0) {
    const lines = summary.rows.badSamples.slice(0, 5).map((b) => `  ${shownHyp}:${b.line + 1}: ${b.message}`);
    io.stderr.write(`${formatCount(rows.bad)} of ${formatCount(rows.records)} lines could not be scored:\n${lines.join("\n")}\n`);
    if (!options.allowBadRows) return EXIT.input;
  }
  return EXIT.ok;
}

type HarnessOptions = Parameters<typeof scoreFile>[0];

/** A file run as planned before any row is scored: where everything goes and what the harness is asked to do. */
interface ScorePlan {
  /** The input as the user named it (messages). */
  readonly name: string;
  readonly input: string;
  readonly output: string;
  /** The sidecar directory of `output`. */
  readonly dir: string;
  /** The rows being written (renamed to `output` when complete); checkpoint, statistics and summary are named after it. */
  readonly raw: string;
  readonly format: Format;
  readonly delimiter: string;
  readonly quote: boolean;
  readonly outputFormat: Format;
  readonly outputQuote: boolean | undefined;
  readonly fields: RunManifest["fields"];
  readonly metricArgs: MetricArgument[];
  readonly resolved: ResolvedMetric[];
  readonly bootstrap: { resamples: number; seed: number } | false;
  /** What the harness scores (the progress callbacks and signal aside): also what a finished run is compared by. */
  readonly harnessOptions: HarnessOptions;
}

async function scoreInput(
  options: ScoreCommandOptions,
  io: ScoreIo,
  guard: RunGuard,
  setRaw: (raw: string) => void,
  input: string,
  scratch: string | undefined,
): Promise<number> {
  const inputBefore = fileIdentity(input);
  const plan = planScoreRun(options, guard, setRaw, input, scratch);
  const { name, output, dir, raw, format, delimiter, quote } = plan;
  const showProgress = options.progress !== false && !log.quiet;
  const intervalMs = options.progressInterval ?? 5000;
  const progress = showProgress ? createRowProgress({ sink: io.stderr, label: "score", intervalMs }) : undefined;
  if (options.resume && !options.queue && !scratch) {
    const done = await finishedRun({ harnessOptions: plan.harnessOptions, output, raw, bootstrap: plan.bootstrap });
    if (done.done) return alreadyDone(options, io, { input, output, dir, ...done });
    log.detail(`--resume: the finished run at ${output} is not the answer (${done.why}); scoring`);
  }
  const workers = `workers requested ${options.workers ?? "all"} of ${availableParallelism()} cores`;
  log.debug(`phase score: input ${input} (${format}), output ${output}, ${plan.resolved.length} metrics, ${workers}`);
  const summary = await scorePlannedRun(options, io, guard, plan, { showProgress, progress });
  if (typeof summary === "number") return summary;

  const { manifest, joinMs } = await recordFinishedRun(options, plan, summary, inputBefore, scratch);
  const metrics = manifest.metrics;
  if (options.json) {
    io.stdout.write(
      JSON.stringify(
        {
          output: scratch ? null : output,
          rows: manifest.rows,
          timings: { totalMs: Math.round(log.elapsedMs()), scoreMs: Math.round(summary.elapsedMs), joinMs: Math.round(joinMs) },
          metrics: metrics.map(({ name, signature, corpus, ci }) => ({ name, signature, corpus, ci })),
        },
        null,
        2,
      ) + "\n",
    );
  } else {
    const shown = relative(process.cwd(), input) || input;
    const where = scratch ? `${shown} (score only, no file written)` : `${shown} → ${relative(process.cwd(), output) || output}`;
    const shardNote = options.shard ? `, shard ${options.shard.index + 1}/${options.shard.count}` : "";
    io.stdout.write(
      `evalkern score · ${where}\n${formatCount(summary.rows.scored)} rows scored` +
        `${summary.rows.bad ? `, ${formatCount(summary.rows.bad)} bad` : ""}${shardNote} · ${formatElapsed(log.elapsedMs())} ` +
        `· ${summary.workers} worker${summary.workers === 1 ? "" : "s"}${summary.resumed ? " · resumed" : ""}\n\n`,
    );
    if (summary.rows.scored > 0)
      io.stdout.write(
        summaryTable(metrics, {
          signatures: options.signatures ?? "short",
          color: colorEnabled(io.stdout),
          ...(options.width !== undefined ? { width: options.width } : {}),
        }) + "\n",
      );
  }

  if (options.report) {
    const { writeReport } = await import("./report.js");
    const reportPath = resolve(options.report);
    await writeReport({ results: output, output: reportPath });
    if (!options.json) io.stdout.write(`\nreport: ${relative(process.cwd(), reportPath) || reportPath}\n`);
  }

  if (summary.rows.scored === 0 && summary.rows.records > 0) {
    const geometry = inputGeometry(input, format, delimiter, options.shard ?? null, quote);
    const range: ByteRange = { start: geometry.start, end: geometry.end, startLine: geometry.startLine };
    const hint = await firstRowHint(input, format, range, geometry.header, delimiter, quote);
    throw inputError(`no row could be scored.\n${badRowsNote(summary, name)}${hint}`);
  }
  if (summary.rows.records === 0) throw inputError(`${name} has no rows${options.shard ? " in this shard" : ""}`);
  const utf8 = summary.rows.invalidUtf8;
  if (utf8 && utf8.count > 0 && !options.strictUtf8) {
    const where = utf8.lines
      .slice(0, 5)
      .map((l) => `${name}:${l}`)
      .join(", ");
    io.stderr.write(
      `${formatCount(utf8.count)} row${utf8.count === 1 ? " has" : "s have"} bytes that are not UTF-8, scored with U+FFFD in ` +
        `their place (--strict-utf8 makes them bad rows): ${where}${utf8.count > 5 ? ", …" : ""}\n`,
    );
  }
  if (summary.rows.bad > 0) {
    io.stderr.write(`${badRowsNote(summary, name)}\n`);
    if (!options.allowBadRows) {
      io.stderr.write("exiting with code 3 because of bad rows (pass --allow-bad-rows to accept them)\n");
      return EXIT.input;
    }
  }
  return gateCorpusScores(options.failUnder !== undefined ? parseFloors(options.failUnder) : undefined, metrics, io.stderr);
}

/**
 * Check the paths, resolve the metrics, take the output's lock and name the run's files; nothing is scored
 * yet. The lock comes before anything is written next to the output, so a second run fails here, naming its pid.
 */
function planScoreRun(
  options: ScoreCommandOptions,
  guard: RunGuard,
  setRaw: (raw: string) => void,
  input: string,
  scratch: string | undefined,
): ScorePlan {
  const name = options.input ?? input;
  const output = scratch ? join(scratch, "scores.jsonl") : resolve(options.output ?? defaultOutput(input, options.shard));
  if (!scratch)
    checkOutputPaths([{ role: "the input", path: name }], [mainOutput(options.output, output), { role: "--report", path: options.report }]);
  const { metricArgs, resolved } = resolveMetrics(options.metrics);
  const format = formatOf(input);
  const delimiter = delimiterOf(input);
  const quote = quoteOf(input, options.tsvQuotes);
  const outputFormat = formatOf(output);
  const outputQuote = outputFormat === "csv" ? quoteOf(output, options.tsvQuotes || format === "jsonl" || quote) : undefined;
  const dir = ensureSidecar(output);
  const raw = join(dir, "rows.jsonl");
  guard.lock(output); // another run on this output fails here, naming its pid
  setRaw(raw);
  removeStaleTemporaries(output); // `<output>.tmp-<pid>` of a run killed while writing it
  const fields = { hypothesis: options.hypField, references: [...options.refsField], ...(options.idField ? { id: options.idField } : {}) };

  const cores = availableParallelism();
  if (options.workers !== undefined && options.workers > cores)
    log.warn(`--workers ${options.workers} is more than the ${cores} available cores: using ${cores}`);
  const bootstrap = options.ci ? { resamples: options.resamples, seed: options.seed } : (false as const);
  const harnessOptions: HarnessOptions = {
    input,
    output: raw,
    ...(scratch ? {} : { outputRows: "rows" as const }),
    outputFormat,
    outputDelimiter: delimiterOf(output),
    outputEscapeFormulas: options.csvEscapeFormulas !== false,
    ...(outputQuote !== undefined ? { outputQuote } : {}),
    metrics: resolved.map(harnessSpec),
    fields,
    format,
    delimiter,
    quote,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    // queue mode with --job: a checkpoint of the same job resumes without --resume
    ...(options.queue && options.job && !options.resume ? {} : { resume: options.resume === true }),
    ...(options.shard ? { shard: options.shard } : {}),
    bootstrap,
    keepStatistics: true,
    ...(options.checkpointInterval !== undefined ? { checkpointIntervalMs: options.checkpointInterval } : {}),
    ...(options.maxRowBytes !== undefined ? { maxRowBytes: options.maxRowBytes } : {}),
    ...(options.rowTimeout !== undefined ? { rowTimeoutMs: options.rowTimeout } : {}),
    ...(options.strictUtf8 ? { strictUtf8: true } : {}),
  };
  return {
    ...{ name, input, output, dir, raw, format, delimiter, quote, outputFormat, outputQuote, fields },
    ...{ metricArgs, resolved, bootstrap, harnessOptions },
  };
}

/**
 * Score the planned run, locally or on the queue, with the row progress and then the CIs' progress; returns
 * the summary, or the exit code of a run stopped by SIGINT/SIGTERM.
 */
async function scorePlannedRun(
  options: ScoreCommandOptions,
  io: ScoreIo,
  guard: RunGuard,
  plan: ScorePlan,
  shown: { showProgress: boolean; progress: ReturnType<typeof createRowProgress> | undefined },
): Promise<ScoreSummary | number> {
  const { showProgress, progress } = shown;
  // the CIs phase (bootstrap resamples over the statistics) has its own progress
  let ciProgress: ReturnType<typeof createRowProgress> | undefined;
  let scoredAt = 0;
  let lastRecords = 0;
  let summary: ScoreSummary;
  guard.setAbortable(true);
  try {
    const score: (o: HarnessOptions) => Promise<ScoreSummary> = options.queue ? await distributed(options, io, showProgress) : scoreFile;
    summary = await score({
      ...plan.harnessOptions,
      onProgress: (p) => {
        lastRecords = p.records;
        progress?.update(p.records, p.totalBytes > 0 ? p.bytes / p.totalBytes : undefined);
      },
      onPhaseProgress: (p) => {
        if (p.done === 0) {
          scoredAt = performance.now();
          log.debug(`phase score done; phase ci: ${p.total} bootstrap resamples`);
          if (showProgress) {
            progress?.finish(lastRecords);
            const intervalMs = options.progressInterval ?? 5000;
            ciProgress = createRowProgress({ sink: io.stderr, label: "95% CIs", unit: "resamples", intervalMs });
          }
        }
        ciProgress?.update(p.done, p.done / p.total);
      },
      signal: guard.signal,
    });
  } catch (e) {
    if (guard.interrupted) return guard.stopped();
    throw withResumeHint(mapHarnessError(e, plan.metricArgs), plan.raw);
  } finally {
    guard.setAbortable(false);
  }
  if (guard.interrupted) return guard.stopped();
  if (ciProgress) ciProgress.finish(options.resamples, summary.resumed ? "resumed from a checkpoint" : undefined);
  else progress?.finish(summary.rows.records, summary.resumed ? "resumed from a checkpoint" : undefined);
  log.detail(
    `phases: scoring ${Math.round(summary.elapsedMs)} ms on ${summary.workers} worker${summary.workers === 1 ? "" : "s"}` +
      `${scoredAt ? `, 95% CIs ${Math.round(performance.now() - scoredAt)} ms (${options.resamples} resamples)` : ""}`,
  );
  return summary;
}

/** Move the finished rows into place, drop the checkpoint and write the run's manifest (`run.json`). */
async function recordFinishedRun(
  options: ScoreCommandOptions,
  plan: ScorePlan,
  summary: ScoreSummary,
  inputBefore: ReturnType<typeof fileIdentity>,
  scratch: string | undefined,
): Promise<{ manifest: RunManifest; joinMs: number }> {
  const { input, output, dir, raw, harnessOptions, bootstrap } = plan;
  const metrics = runMetrics(plan.resolved, summary);
  const joinStarted = performance.now();
  // the rows are complete: move them into place; the finished run needs no checkpoint any more
  try {
    renameSync(raw, output);
  } catch (e) {
    throw fileSystemError(e, "move the finished rows into place at", output);
  }
  rmSync(checkpointPath(raw), { force: true });
  const joinMs = performance.now() - joinStarted;

  let manifest: RunManifest = {
    version: 1,
    kind: "score",
    tool: `evalkern ${CLI_VERSION}`,
    createdAt: new Date().toISOString(),
    input,
    output,
    inputFormat: plan.format,
    outputFormat: plan.outputFormat,
    ...(plan.outputQuote !== undefined ? { outputQuote: plan.outputQuote } : {}),
    fields: plan.fields,
    metrics,
    rows: { records: summary.rows.records, scored: summary.rows.scored, bad: summary.rows.bad },
    shard: options.shard ?? null,
    summary: relative(dir, `${raw}.summary.json`),
    elapsedMs: summary.elapsedMs,
  };
  // a local run records what it was computed from, so that `--resume` can answer "already done"
  const finished =
    options.queue || scratch ? undefined : await finishedRecord({ harnessOptions, summary, inputBefore, output, raw, bootstrap });
  if (finished) manifest = { ...manifest, finished };
  writeFileSync(join(dir, "run.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, joinMs };
}

/**
 * `--resume` of a finished run with the same input and settings: nothing is scored; it prints what the run
 * printed (from its manifest and summary) with "already done", and exits as it did.
 */
async function alreadyDone(
  options: ScoreCommandOptions,
  io: ScoreIo,
  run: { readonly input: string; readonly output: string; readonly dir: string } & Extract<DoneCheck, { done: true }>,
): Promise<number> {
  const { input, output, manifest, summary } = run;
  const how = run.hashed ? "its input's bytes are the ones scored" : "its input, output and settings are unchanged";
  if (run.hashed && manifest.finished) {
    // the input was touched or copied back: record its new identity, so the next --resume reads nothing
    const finished = { ...manifest.finished, input: fileIdentity(input) };
    writeFileSync(join(run.dir, "run.json"), `${JSON.stringify({ ...manifest, finished }, null, 2)}\n`);
  }
  if (options.json) {
    const { rows, metrics } = manifest;
    const summaries = metrics.map(({ name, signature, corpus, ci }) => ({ name, signature, corpus, ci }));
    const json = { output, alreadyDone: true, rows, metrics: summaries };
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const where = `${relative(process.cwd(), input) || input} → ${relative(process.cwd(), output) || output}`;
    const shardNote = options.shard ? `, shard ${options.shard.index + 1}/${options.shard.count}` : "";
    const bad = manifest.rows.bad ? `, ${formatCount(manifest.rows.bad)} bad` : "";
    const done = `already done (${how}; finished ${manifest.createdAt})`;
    io.stdout.write(`evalkern score · ${where}\n${formatCount(manifest.rows.scored)} rows scored${bad}${shardNote} · ${done}\n\n`);
    const table = summaryTable(manifest.metrics, { signatures: options.signatures ?? "short", color: colorEnabled(io.stdout) });
    if (manifest.rows.scored > 0) io.stdout.write(`${table}\n`);
  }
  if (options.report) {
    const { writeReport } = await import("./report.js");
    const reportPath = resolve(options.report);
    await writeReport({ results: output, output: reportPath });
    if (!options.json) io.stdout.write(`\nreport: ${relative(process.cwd(), reportPath) || reportPath}\n`);
  }
  if (summary.rows.bad > 0) {
    io.stderr.write(`${badRowsNote(summary, options.input ?? input)}\n`);
    if (!options.allowBadRows) {
      io.stderr.write("exiting with code 3 because of bad rows (pass --allow-bad-rows to accept them)\n");
      return EXIT.input;
    }
  }
  return gateCorpusScores(options.failUnder !== undefined ? parseFloors(options.failUnder) : undefined, manifest.metrics, io.stderr);
}
