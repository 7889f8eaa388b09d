// `evalkern judge`: LLM-as-judge metrics of @evalkern/judge over the rows of a file, with the configured
// OpenAI-compatible model, a cost summary from the judge's usage ledger, and its content-addressed cache
// (`--cache` records, `--replay` answers from the cache only and never sends a request).
import { writeFileSync } from "node:fs";
import { basename, extname, join, relative, resolve } from "node:path";
import { estimateCi, pathValue } from "@evalkern/harness/bulk";
import { EXIT, usageError } from "../errors.js";
import { csvCell, csvLine } from "../io/csv.js";
import { checkOutputPaths, mainOutput } from "../io/output-paths.js";
import { delimiterOf, formatOf, readObjects } from "../io/records.js";
import { AtomicWriter } from "../io/writer.js";
import { checkJudgeMetric, createJudgeRunner, judgeMetricNames, type JudgeCase, type JudgeRunner } from "../judge-metrics.js";
import { parseMetricArgument, type MetricArgument } from "../metric-options.js";
import { createRowProgress, formatCount } from "../progress.js";
import { CLI_VERSION, ensureSidecar, type RunManifest, type RunMetric } from "../results.js";
import type { JudgedAgainst } from "@evalkern/harness/report";
import { formatScore, formatTable } from "../table.js";
import type { ScoreIo } from "./score.js";
import { log } from "../log.js";
import { checkFloorNames, floorFailures, parseFloors } from "../fail-under.js";

export interface JudgeCommandOptions {
  readonly input: string;
  readonly metric?: string[];
  readonly output?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly cache?: string;
  readonly replay?: boolean;
  readonly concurrency: number;
  readonly priceInput?: number;
  readonly priceOutput?: number;
  readonly timeout?: number;
  readonly inputField: string;
  readonly outputField: string;
  readonly expectedField: string;
  readonly contextField: string;
  readonly retrievalContextField: string;
  readonly limit?: number;
  readonly report?: string;
  readonly allowFailures?: boolean;
  /** `--fail-under faithfulness=0.8`: exit 1 when a metric's pass rate is below its floor. */
  readonly failUnder?: string;
  readonly json?: boolean;
  readonly progress?: boolean;
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A field by its name or dotted path, in snake_case or DeepEval's camelCase (`expected_output` or `expectedOutput`). */
function field(row: Record<string, unknown>, path: string): unknown {
  const value = pathValue(row, path);
  return value !== undefined ? value : pathValue(row, camel(path));
}

/**
 * What the report shows as a judge metric's reference when the metric does not read the expected output:
 * the retrieval context it checks against (faithfulness, contextual relevancy), or the context
 * (hallucination); the row fields the command read it from.
 */
function judgedAgainst(
  fields: readonly (keyof JudgeCase)[],
  options: Pick<JudgeCommandOptions, "contextField" | "retrievalContextField">,
): JudgedAgainst | undefined {
  if (fields.includes("expectedOutput")) return undefined;
  const paths = (path: string) => [...new Set([path, camel(path)])];
  if (fields.includes("retrievalContext")) return { paths: paths(options.retrievalContextField), label: "retrieval context" };
  if (fields.includes("context")) return { paths: paths(options.contextField), label: "context" };
  return undefined;
}

function str(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === "string" ? v : JSON.stringify(v);
}

function list(v: unknown): string[] | null {
  if (v === undefined || v === null || v === "") return null;
  if (Array.isArray(v)) return v.map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
  if (typeof v === "string") {
    const t = v.trim();
    if (t.startsWith("[")) {
      try {
        const parsed = JSON.parse(t) as unknown;
        if (Array.isArray(parsed)) return parsed.map((x) => String(x));
      } catch {
        // a CSV cell that merely starts with "[" is one document
      }
    }
    return [v];
  }
  return [JSON.stringify(v)];
}

/** Mean and bootstrap 95% CI of per-row scores. */
export function meanWithCi(
  values: readonly number[],
  resamples = 1000,
  seed = 12345,
): { mean: number; ci: { lower: number; upper: number; ci: number } | undefined } {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, ci: undefined };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, ci: undefined };
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += values[Math.floor(next() * n)]!;
    means[r] = s / n;
  }
  const e = estimateCi(means, seed);
  return { mean, ci: { lower: e.lower, upper: e.upper, ci: e.ci } };
}

export interface Cell {
  readonly ok: boolean;
  readonly score?: number | null;
  readonly success?: boolean | null;
  readonly reason?: string | null;
  readonly scoringPath?: string | null;
  readonly error?: string;
}

type JudgeModule = typeof import("@evalkern/judge");
type JudgeModel = InstanceType<JudgeModule["OpenAICompatibleJudge"]>;
type JudgeCacheInstance = InstanceType<JudgeModule["JudgeCache"]>;
type Row = { line: number; value: Record<string, unknown> };

export async function judgeCommand(options: JudgeCommandOptions, io: ScoreIo): Promise<number> {
  const { metricArgs, floors, modelName, input, output } = checkJudgeArguments(options);
  const rows = (await readObjects(input)).slice(0, options.limit ?? Infinity);

  const judge = await import("@evalkern/judge");
  // keep-alive sockets over node:http, one per call in flight (Node's fetch costs twice the CPU per call)
  const fetch = options.replay ? undefined : (await import("@evalkern/judge/node")).nodeFetch({ maxSockets: options.concurrency });
  const { model, cache } = createJudgeModel(judge, options, modelName, fetch);
  const runners: JudgeRunner[] = await Promise.all(metricArgs.map((a) => createJudgeRunner(judge, model, a, CLI_VERSION)));
  const seen = new Set<string>();
  for (const r of runners) {
    if (seen.has(r.name)) throw usageError(`two metrics are named ${JSON.stringify(r.name)}: rename one with name=...`);
    seen.add(r.name);
  }
  if (floors)
    checkFloorNames(
      floors,
      runners.map((r) => r.name),
      "judge metric",
    );

  const cases: JudgeCase[] = rows.map(({ value }) => judgeCase(value, options));
  const results = await judgeAll(cases, runners, options, io);
  writeJudgedRows(output, rows, runners, results);

  const metrics = judgeRunMetrics(runners, results, metricArgs, options);
  const failures = results.flatMap((r, i) => r.map((c, j) => ({ c, i, j }))).filter((x) => !x.c.ok);
  const badRows = new Set(failures.map((f) => f.i)).size;
  const judgeInfo = {
    model: model.name,
    baseURL: options.replay ? null : model.baseURL,
    replay: options.replay === true,
    cache: cache ? { path: resolve(options.cache!), ...cache.stats } : null,
    cost: model.ledger.total(),
    byMetric: Object.fromEntries(model.ledger.byMetric()),
  };
  const manifest: RunManifest = {
    version: 1,
    kind: "judge",
    tool: `evalkern ${CLI_VERSION}`,
    createdAt: new Date().toISOString(),
    input,
    output,
    inputFormat: formatOf(input),
    outputFormat: formatOf(output),
    fields: { hypothesis: options.outputField, references: [options.expectedField], id: undefined },
    metrics,
    rows: { records: rows.length, scored: rows.length - badRows, bad: badRows },
    shard: null,
    elapsedMs: 0,
    judge: judgeInfo,
  };
  writeFileSync(join(ensureSidecar(output), "run.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  if (options.json) {
    const summary = metrics.map(({ name, signature, corpus, ci }) => ({ name, signature, mean: corpus[name], ci: ci?.[name] }));
    io.stdout.write(`${JSON.stringify({ output, rows: manifest.rows, metrics: summary, judge: judgeInfo }, null, 2)}\n`);
  } else {
    printJudgeSummary(io, { input, output, rows: rows.length, runners, results, metrics, model, cache, options });
  }
  if (options.report) {
    const { writeReport } = await import("./report.js");
    await writeReport({ results: output, output: options.report });
    if (!options.json) io.stdout.write(`\nreport: ${relative(process.cwd(), resolve(options.report))}\n`);
  }
  if (failures.length) {
    const first = failures.slice(0, 5).map((f) => `  ${options.input} row ${f.i + 1}, ${runners[f.j]!.name}: ${f.c.error}`);
    io.stderr.write(`${failures.length} judge evaluation(s) failed (no score is made up for them):\n${first.join("\n")}\n`);
    if (!options.allowFailures) return EXIT.failure;
  }
  if (floors) {
    const rates = Object.fromEntries(runners.map((m, j) => [m.name, passRate(results.map((r) => r[j]!))]));
    const lines = floorFailures(floors, rates, "pass rate");
    if (lines.length) {
      io.stderr.write(`${lines.join("\n")}\n`);
      return EXIT.failure;
    }
  }
  return EXIT.ok;
}

/** The usage checks that need no file and no model: metrics, floors, --replay, the model's name, the paths. */
function checkJudgeArguments(options: JudgeCommandOptions) {
  const metricArgs = (options.metric ?? []).map(parseMetricArgument);
  if (metricArgs.length === 0) throw usageError(`give at least one --metric (${judgeMetricNames().join(", ")})`);
  metricArgs.forEach(checkJudgeMetric);
  const floors = options.failUnder !== undefined ? parseFloors(options.failUnder) : undefined;
  for (const a of metricArgs)
    if (a.options.as !== undefined) log.warn(`--metric ${a.raw}: as= is deprecated, rename with name= (as in \`evalkern score\`)`);
  if (options.replay && !options.cache) throw usageError("--replay needs --cache <file> (the recorded judge calls)");
  const modelName = options.model ?? process.env.EVALKERN_JUDGE_MODEL;
  if (!modelName) throw usageError("no judge model: pass --model or set EVALKERN_JUDGE_MODEL");
  const input = resolve(options.input);
  const output = resolve(
    options.output ?? `${basename(input, extname(input))}.judged${formatOf(input) === "csv" ? extname(input) : ".jsonl"}`,
  );
  checkOutputPaths(
    [{ role: "the input", path: options.input }],
    [mainOutput(options.output, output), { role: "--cache", path: options.cache }, { role: "--report", path: options.report }],
  );
  return { metricArgs, floors, modelName, input, output };
}

/** The OpenAI-compatible judge with its cache, prices and limits; in --replay it can never reach a network. */
function createJudgeModel(
  judge: JudgeModule,
  options: JudgeCommandOptions,
  modelName: string,
  fetch: typeof globalThis.fetch | undefined,
): { model: JudgeModel; cache: JudgeCacheInstance | undefined } {
  const cache = options.cache
    ? new judge.JudgeCache({
        store: new judge.FileCacheStore({ path: resolve(options.cache) }),
        mode: options.replay ? "read-only" : "read-write",
      })
    : undefined;
  const price =
    options.priceInput !== undefined || options.priceOutput !== undefined
      ? { inputPerMTok: options.priceInput ?? 0, outputPerMTok: options.priceOutput ?? 0 }
      : undefined;
  const baseURL = options.baseUrl ?? process.env.EVALKERN_JUDGE_BASE_URL;
  try {
    const model = new judge.OpenAICompatibleJudge({
      model: modelName,
      // in replay no request is sent: the URL and key only have to satisfy the client (the cache key
      // does not contain the URL, so a cache recorded against any host replays)
      ...(baseURL ? { baseURL } : options.replay ? { baseURL: "http://replay.invalid/v1" } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : options.replay ? { apiKey: "replay" } : {}),
      ...(cache ? { cache } : {}),
      ...(price ? { price } : {}),
      ...(options.timeout ? { timeoutMs: options.timeout } : {}),
      maxConcurrency: options.concurrency,
      // replay must never reach a network, whatever the cache holds
      ...(options.replay
        ? {
            fetch: (async () => {
              throw new Error("replay mode: no request is sent (the call is not in the cache)");
            }) as typeof globalThis.fetch,
          }
        : fetch
          ? { fetch }
          : {}),
    });
    return { model, cache };
  } catch (e) {
    throw usageError((e as Error).message);
  }
}

/** A row's fields as the judge metrics read them. */
function judgeCase(value: Record<string, unknown>, options: JudgeCommandOptions): JudgeCase {
  return {
    input: str(field(value, options.inputField)) ?? "",
    actualOutput: str(field(value, options.outputField)),
    expectedOutput: str(field(value, options.expectedField)),
    context: list(field(value, options.contextField)),
    retrievalContext: list(field(value, options.retrievalContextField)),
  };
}

/**
 * Measurements in progress per judge call in flight. A measurement's calls are sequential, and between
 * two of them (reading a reply, building the next prompt) it holds no call slot: with only as many
 * measurements as slots, each such gap leaves a slot idle. Twice as many keeps a measurement waiting at
 * the judge's limiter, which still caps the calls in flight at `--concurrency`, to take every freed slot.
 */
export const MEASUREMENTS_PER_SLOT = 2;

/**
 * Measurements in progress in `--replay`. Nothing is sent, every call is answered from the cache, so more
 * of them in progress only keeps more objects alive across young-generation collections (copied, then
 * promoted): a replay of 14,000 calls spent about 0.25 CPU-s more at 128 in progress than at 2.
 */
export const REPLAY_MEASUREMENTS = 2;

/** Every row × metric, a bounded number in flight; a failed evaluation is a cell with its error, never a score. */
export async function judgeAll(
  cases: readonly JudgeCase[],
  runners: readonly JudgeRunner[],
  options: Pick<JudgeCommandOptions, "concurrency" | "progress" | "replay">,
  io: ScoreIo,
): Promise<Cell[][]> {
  const results: Cell[][] = cases.map(() => runners.map(() => ({ ok: false })));
  const progress = options.progress !== false && !log.quiet ? createRowProgress({ sink: io.stderr, label: "judge" }) : undefined;
  const tasks: [number, number][] = [];
  for (let i = 0; i < cases.length; i++) for (let j = 0; j < runners.length; j++) tasks.push([i, j]);
  let nextTask = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const t = tasks[nextTask++];
      if (!t) return;
      const [i, j] = t;
      try {
        const r = await runners[j]!.measure(cases[i]!);
        results[i]![j] = { ok: true, score: r.score, success: r.success, reason: r.reason, scoringPath: r.scoringPath };
      } catch (e) {
        results[i]![j] = { ok: false, error: (e as Error)?.message ?? String(e) };
      }
      done++;
      progress?.update(Math.floor(done / runners.length), done / tasks.length);
    }
  };
  const inProgress = options.replay ? Math.min(REPLAY_MEASUREMENTS, options.concurrency) : options.concurrency * MEASUREMENTS_PER_SLOT;
  const workers = Math.max(1, Math.min(inProgress, tasks.length));
  await Promise.all(Array.from({ length: workers }, worker));
  progress?.finish(cases.length);
  return results;
}

/** The input rows with each metric's score, verdict, reason or error: four columns per metric in CSV, an object in JSONL. */
function writeJudgedRows(output: string, rows: readonly Row[], runners: readonly JudgeRunner[], results: readonly Cell[][]): void {
  const writer = new AtomicWriter(output);
  const cell = (c: Cell) =>
    c.ok
      ? { score: c.score ?? null, success: c.success ?? null, reason: c.reason ?? null, scoringPath: c.scoringPath ?? null }
      : { score: null, error: c.error };
  if (formatOf(output) === "csv") {
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r.value)))];
    const d = delimiterOf(output);
    writer.write(
      csvLine([...keys, ...runners.flatMap((r) => [`${r.name}.score`, `${r.name}.success`, `${r.name}.reason`, `${r.name}.error`])], d),
    );
    rows.forEach((r, i) => {
      const cells = keys.map((k) => csvCell(r.value[k]));
      results[i]!.forEach((c) =>
        cells.push(
          csvCell(c.ok ? c.score : null),
          csvCell(c.ok ? c.success : null),
          csvCell(c.ok ? c.reason : null),
          csvCell(c.ok ? null : c.error),
        ),
      );
      writer.write(csvLine(cells, d));
    });
  } else {
    rows.forEach((r, i) => {
      const o: Record<string, unknown> = { ...r.value };
      runners.forEach((m, j) => (o[m.name] = cell(results[i]![j]!)));
      writer.write(`${JSON.stringify(o)}\n`);
    });
  }
  writer.commit();
}

/** Each judge metric's entry of the run manifest: the mean with its bootstrap CI and how the rows were scored. */
function judgeRunMetrics(
  runners: readonly JudgeRunner[],
  results: readonly Cell[][],
  metricArgs: readonly MetricArgument[],
  options: JudgeCommandOptions,
): RunMetric[] {
  return runners.map((m, j) => {
    const scores = results
      .map((r) => r[j]!)
      .filter((c) => c.ok && typeof c.score === "number")
      .map((c) => c.score as number);
    const { mean, ci } = meanWithCi(scores);
    const scoringPaths: Record<string, number> = {};
    for (const r of results) {
      const c = r[j]!;
      if (c.ok && c.scoringPath) scoringPaths[c.scoringPath] = (scoringPaths[c.scoringPath] ?? 0) + 1;
    }
    const against = judgedAgainst(m.fields, options);
    return {
      name: m.name,
      metric: m.name,
      options: metricArgs[j]!.options,
      scale: 1,
      columns: [],
      headline: m.name,
      higherIsBetter: m.higherIsBetter,
      signature: m.signature,
      corpus: { [m.name]: mean },
      ...(ci ? { ci: { [m.name]: ci } } : {}),
      ...(Object.keys(scoringPaths).length > 0 ? { scoringPaths } : {}),
      ...(against ? { judgedAgainst: against } : {}),
    };
  });
}

/** The table of means, CIs and pass rates, the cost and cache lines, and the signatures. */
function printJudgeSummary(
  io: ScoreIo,
  s: {
    input: string;
    output: string;
    rows: number;
    runners: readonly JudgeRunner[];
    results: readonly Cell[][];
    metrics: readonly RunMetric[];
    model: JudgeModel;
    cache: JudgeCacheInstance | undefined;
    options: JudgeCommandOptions;
  },
): void {
  const { input, output, runners, results, metrics, model, cache, options } = s;
  const total = model.ledger.total();
  const table = formatTable(
    ["metric", "mean", "95% CI", "pass", "failed"],
    runners.map((m, j) => {
      const cells = results.map((r) => r[j]!);
      const ok = cells.filter((c) => c.ok && typeof c.score === "number");
      const decided = ok.filter((c) => c.success !== null && c.success !== undefined);
      const pass = decided.length ? `${((100 * decided.filter((c) => c.success).length) / decided.length).toFixed(0)}%` : "–";
      const metric = metrics[j]!;
      const ci = metric.ci?.[m.name];
      return [
        `${m.name}${m.higherIsBetter ? "" : " (lower is better)"}`,
        formatScore(metric.corpus[m.name], 1),
        ci ? `${formatScore(ci.lower, 1)} – ${formatScore(ci.upper, 1)}` : "–",
        pass,
        String(cells.length - ok.length),
      ];
    }),
    { align: ["l", "r", "r", "r", "r"] },
  );
  const usd =
    total.costUsd === null
      ? `unknown (${total.unpricedCalls} unpriced calls: pass --price-input/--price-output)`
      : `$${total.costUsd.toFixed(6)}`;
  const cacheLine = cache
    ? `\ncache  ${relative(process.cwd(), resolve(options.cache!))}: ${cache.stats.hits} hits, ${cache.stats.misses} misses, ` +
      `${cache.stats.writes} written${options.replay ? " (replay: nothing sent)" : ""}`
    : "";
  const width = Math.max(...runners.map((r) => r.name.length));
  io.stdout.write(
    `evalkern judge · ${relative(process.cwd(), input) || input} → ${relative(process.cwd(), output) || output}\n` +
      `${formatCount(s.rows)} rows · model ${model.name}\n\n${table}\n\n` +
      `cost   ${usd} · ${formatCount(total.calls)} judge calls (${formatCount(total.cachedCalls)} cached, ` +
      `${formatCount(total.failedCalls)} failed) · ${formatCount(total.requests)} HTTP requests · ` +
      `${formatCount(total.inputTokens)} input + ${formatCount(total.outputTokens)} output tokens${cacheLine}\n\n` +
      `signatures\n${runners.map((r) => `  ${r.name.padEnd(width)}  ${r.signature}`).join("\n")}\n`,
  );
}

/** The share of decided rows (a judge verdict of pass or fail) that passed; null when none was decided. */
function passRate(cells: readonly Cell[]): number | null {
  const decided = cells.filter((c) => c.ok && typeof c.score === "number" && c.success !== null && c.success !== undefined);
  return decided.length ? decided.filter((c) => c.success).length / decided.length : null;
}
