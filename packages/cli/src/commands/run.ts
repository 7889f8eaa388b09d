// `evalkern run <benchmark>`: a NeMo-BYOB-style benchmark (@evalkern/harness `benchmark`) from a JS/TS
// module or a JSON/YAML definition, run against an OpenAI-compatible endpoint; prints BYOB's aggregated
// scores and writes its report and predictions.
import { readFileSync } from "node:fs";
import { dirname, extname, isAbsolute, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CliError, EXIT, inputError, usageError } from "../errors.js";
import { mapHarnessError } from "../harness-errors.js";
import { checkOutputPaths } from "../io/output-paths.js";
import { requireFile } from "../io/records.js";
import { log } from "../log.js";
import { createRowProgress } from "../progress.js";
import { formatTable } from "../table.js";
import type { ScoreIo } from "./score.js";

export interface RunCommandOptions {
  readonly file: string;
  readonly baseUrl?: string;
  readonly model?: string;
  readonly apiKey?: string;
  readonly limit?: number;
  readonly parallelism?: number;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly timeout?: number;
  readonly maxRetries?: number;
  readonly output?: string;
  readonly predictions?: string;
  readonly failOnSkip?: boolean;
  readonly json?: boolean;
  readonly progress?: boolean;
}

type Row = Record<string, unknown>;
type Scorer = (sample: Row) => unknown;

/** The part of @evalkern/harness's BYOB API used here. */
interface Benchmark {
  readonly definition: Row & { readonly name: string; readonly dataset: string | readonly Row[] };
  readonly normalizedName: string;
  readonly scorer: Scorer;
  run(options?: Row): Promise<{
    readonly report: {
      readonly tasks?: Record<
        string,
        {
          readonly metrics: {
            readonly "pass@1": {
              readonly scores: Record<string, { value: number; stats: { count: number; stderr: number; stddev: number } }>;
            };
          };
        }
      >;
    };
    readonly samples: readonly { readonly status: string; readonly error?: string; readonly sampleId: number }[];
    readonly scored: number;
    readonly skipped: number;
    readonly requests: number;
    readonly usage?: { readonly inputTokens: number; readonly outputTokens: number } | null;
  }>;
}
type BenchmarkFactory = (definition: Row, scorer: Scorer) => Benchmark;

async function benchmarkFactory(): Promise<BenchmarkFactory> {
  const harness = (await import("@evalkern/harness")) as unknown as { benchmark?: BenchmarkFactory };
  if (typeof harness.benchmark !== "function") {
    throw new Error(
      "this build of @evalkern/harness does not export benchmark() yet: rebuild the workspace (npx --yes pnpm@12.21.0 run build)",
    );
  }
  return harness.benchmark;
}

/** BYOB scorers of @evalkern/metrics/byob by name (camelCase or the Python snake_case name). */
const BUILTIN_SCORERS: Readonly<Record<string, string>> = {
  exactMatch: "exactMatch",
  exact_match: "exactMatch",
  contains: "contains",
  f1Token: "f1Token",
  f1_token: "f1Token",
  regexMatch: "regexMatch",
  regex_match: "regexMatch",
  bleu: "bleu",
  rouge: "rouge",
  chrf: "chrf",
  mcqLetterExtract: "mcqLetterExtract",
  mcq_letter_extract: "mcqLetterExtract",
  gsm8kAnswer: "gsm8kAnswer",
  gsm8k_answer: "gsm8kAnswer",
  booleanYesno: "booleanYesno",
  boolean_yesno: "booleanYesno",
  multipleChoiceAcc: "multipleChoiceAcc",
  multiple_choice_acc: "multipleChoiceAcc",
};

async function importModule(path: string): Promise<Record<string, unknown>> {
  const ext = extname(path).toLowerCase();
  if (ext === ".ts" || ext === ".mts" || ext === ".cts") {
    // Node 20 cannot import TypeScript itself; jiti transpiles it on the fly
    const { createJiti } = await import("jiti");
    const jiti = createJiti(import.meta.url, { interopDefault: false, moduleCache: false });
    return (await jiti.import(path)) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
}

async function resolveScorer(spec: unknown, base: string): Promise<Scorer> {
  if (typeof spec === "function") return spec as Scorer;
  if (typeof spec !== "string" || spec === "")
    throw usageError(
      'the benchmark definition needs "scorer": a built-in name (exactMatch, contains, f1Token, bleu, rouge, chrf, ...) or ' +
        '"./file.js#export"',
    );
  const builtin = BUILTIN_SCORERS[spec];
  if (builtin) {
    const byob = (await import("@evalkern/metrics/byob")) as unknown as Record<string, Scorer>;
    return byob[builtin]!;
  }
  const [file, exportName = "default"] = spec.split("#") as [string, string?];
  if (!file.startsWith(".") && !isAbsolute(file)) {
    throw usageError(
      `unknown scorer ${JSON.stringify(spec)}: use a built-in (${Object.keys(BUILTIN_SCORERS)
        .filter((k) => !k.includes("_"))
        .join(", ")}) or a path such as ./scorer.js#myScorer`,
    );
  }
  const path = resolve(base, file);
  requireFile(path, "scorer module");
  const mod = await importModule(path);
  const fn = mod[exportName];
  if (typeof fn !== "function") throw usageError(`${file} has no function export ${JSON.stringify(exportName)}`);
  return fn as Scorer;
}

function isBenchmark(v: unknown): v is Benchmark {
  return (
    typeof v === "object" && v !== null && typeof (v as Benchmark).run === "function" && typeof (v as Benchmark).definition === "object"
  );
}

/** Dataset paths in a definition are relative to the definition's file. */
function rebase(definition: Row, base: string): Row {
  const d = definition.dataset;
  if (typeof d === "string" && !d.includes("://")) {
    const path = isAbsolute(d) ? d : resolve(base, d);
    requireFile(path, `dataset of benchmark ${JSON.stringify(definition.name)}`);
    return { ...definition, dataset: path };
  }
  return definition;
}

/** Load the benchmarks a file defines. */
export async function loadBenchmarks(file: string): Promise<Benchmark[]> {
  const path = resolve(file);
  requireFile(path, "benchmark file");
  const base = dirname(path);
  const ext = extname(path).toLowerCase();
  const factory = await benchmarkFactory();
  const fromDefinition = async (def: unknown, where: string): Promise<Benchmark> => {
    if (typeof def !== "object" || def === null || Array.isArray(def))
      throw inputError(`${where}: a benchmark definition must be an object with name, dataset, prompt and scorer`);
    const { scorer, ...definition } = def as Row;
    try {
      return factory(rebase(definition, base), await resolveScorer(scorer, base));
    } catch (e) {
      throw mapHarnessError(e);
    }
  };
  if (ext === ".json" || ext === ".yaml" || ext === ".yml") {
    let parsed: unknown;
    const text = readFileSync(path, "utf8");
    try {
      parsed = ext === ".json" ? JSON.parse(text) : (await import("yaml")).parse(text);
    } catch (e) {
      throw inputError(`${file}: not valid ${ext === ".json" ? "JSON" : "YAML"}: ${(e as Error).message}`);
    }
    const list = Array.isArray(parsed)
      ? parsed
      : typeof parsed === "object" && parsed !== null && Array.isArray((parsed as Row).benchmarks)
        ? ((parsed as Row).benchmarks as unknown[])
        : [parsed];
    return Promise.all(list.map((d, i) => fromDefinition(d, `${file}${list.length > 1 ? `[${i}]` : ""}`)));
  }
  if (![".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"].includes(ext))
    throw usageError(`${file}: a benchmark is a .js/.mjs/.ts/.mts module or a .json/.yaml definition`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path);
  } catch (e) {
    throw inputError(`${file}: could not load the module: ${(e as Error).message}`);
  }
  const exported = mod.default ?? mod.benchmarks ?? mod.benchmark;
  if (exported === undefined)
    throw inputError(`${file}: export a benchmark (export default benchmark({...}, scorer)) or a definition with a scorer function`);
  const items = Array.isArray(exported) ? exported : [exported];
  return Promise.all(
    items.map(async (item, i) => {
      if (isBenchmark(item)) return factory(rebase(item.definition, base), item.scorer);
      return fromDefinition(item, `${file}${items.length > 1 ? `[${i}]` : ""}`);
    }),
  );
}

export async function runCommand(options: RunCommandOptions, io: ScoreIo): Promise<number> {
  const benchmarks = await loadBenchmarks(options.file);
  const inputs = [{ role: "the benchmark file", path: options.file }];
  for (const {
    definition: { dataset },
  } of benchmarks) {
    if (typeof dataset === "string" && !dataset.includes("://")) inputs.push({ role: "the dataset", path: dataset });
  }
  checkOutputPaths(inputs, [
    { role: "-o", path: options.output },
    { role: "--predictions", path: options.predictions },
  ]);
  // the built-in BYOB scorers (and user scorers calling them) run on the WebAssembly kernels
  await (await import("@evalkern/core-wasm")).ready();
  const env = process.env;
  const baseUrl = options.baseUrl ?? env.EVALKERN_BASE_URL ?? env.OPENAI_BASE_URL;
  const model = options.model ?? env.EVALKERN_MODEL;
  const apiKey = options.apiKey ?? env.EVALKERN_API_KEY ?? env.OPENAI_API_KEY;
  const needsEndpoint = benchmarks.some((b) => b.definition.responseField === undefined);
  if (needsEndpoint && !baseUrl)
    throw usageError("no endpoint: pass --base-url (or set EVALKERN_BASE_URL), e.g. --base-url http://localhost:8000/v1");
  if (needsEndpoint && !model) throw usageError("no model: pass --model (or set EVALKERN_MODEL)");
  if (benchmarks.length > 1 && (options.output || options.predictions)) {
    throw usageError("this file defines several benchmarks: -o/--predictions take one; run them one at a time or drop the flags");
  }
  const reports: Record<string, unknown>[] = [];
  let anySkipped = false;
  let anyFailed = false;
  for (const b of benchmarks) {
    const progress =
      options.progress !== false && !log.quiet ? createRowProgress({ sink: io.stderr, label: `run ${b.normalizedName}` }) : undefined;
    let result: Awaited<ReturnType<Benchmark["run"]>>;
    let allFailed = false;
    const started = performance.now();
    try {
      result = await b.run({
        ...(baseUrl ? { baseUrl } : {}),
        ...(model ? { model } : {}),
        ...(apiKey ? { apiKey } : {}),
        ...(options.limit ? { limit: options.limit } : {}),
        parallelism: options.parallelism ?? 4,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
        ...(options.timeout !== undefined ? { requestTimeoutMs: options.timeout } : {}),
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
        ...(options.output ? { outputPath: resolve(options.output) } : {}),
        ...(options.predictions ? { predictionsPath: resolve(options.predictions) } : {}),
      });
    } catch (e) {
      const mapped = mapHarnessError(e);
      if (mapped !== e) throw mapped;
      const err = e as Error & { status?: number; url?: string; code?: string; result?: Awaited<ReturnType<Benchmark["run"]>> };
      // a dead endpoint ends the run at once (one probe), with a non-zero exit
      if (err.name === "EndpointUnreachableError") throw new CliError(`${b.definition.name}: ${err.message}`, EXIT.failure);
      if (err.name === "NoNetworkError" || err.name === "EndpointError") throw inputError(`${b.definition.name}: ${err.message}`);
      // every sample failed: report what happened, write no report, exit non-zero
      if (err.name === "BenchmarkRunError" && err.result) {
        result = err.result;
        allFailed = true;
      } else throw e;
    }
    progress?.finish(result.samples.length, `${((performance.now() - started) / 1000).toFixed(1)} s, ${result.requests} requests`);
    if (result.skipped > 0) anySkipped = true;
    if (allFailed) anyFailed = true;
    reports.push({
      name: b.definition.name,
      key: b.normalizedName,
      scored: result.scored,
      skipped: result.skipped,
      requests: result.requests,
      ...(result.usage ? { usage: result.usage } : {}),
      ...(allFailed ? { failed: true } : {}),
      report: result.report,
    });
    if (!options.json) {
      const task = result.report.tasks?.[b.normalizedName];
      const scores = task ? task.metrics["pass@1"].scores : {};
      const rows = Object.entries(scores).map(([k, v]) => [k, v.value.toFixed(4), `±${v.stats.stderr.toFixed(4)}`, String(v.stats.count)]);
      io.stdout.write(
        `evalkern run · ${b.definition.name} (${b.normalizedName})${model ? ` · model ${model}` : ""}\n${result.scored} scored, ` +
          `${result.skipped} skipped · ${result.requests} requests` +
          `${result.usage ? ` · ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens` : ""}\n\n` +
          (rows.length ? formatTable(["metric", "value", "stderr", "n"], rows, { align: ["l", "r", "r", "r"] }) : "(no scores)") +
          "\n",
      );
      const skipped = result.samples.filter((s) => s.status !== "scored").slice(0, 5);
      if (skipped.length)
        io.stderr.write(
          `skipped samples:\n${skipped.map((s) => `  sample ${s.sampleId}: ${s.status}${s.error ? `: ${s.error}` : ""}`).join("\n")}\n`,
        );
      if (allFailed) io.stderr.write(`error: ${b.definition.name}: every sample failed; no report written\n`);
      else if (options.output) io.stdout.write(`report: ${relative(process.cwd(), resolve(options.output))}\n`);
      if (options.predictions) io.stdout.write(`predictions: ${relative(process.cwd(), resolve(options.predictions))}\n`);
    }
  }
  if (options.json) io.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  if (anyFailed) return EXIT.failure;
  if (anySkipped && options.failOnSkip) return EXIT.failure;
  return EXIT.ok;
}
