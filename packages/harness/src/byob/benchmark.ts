// NeMo Evaluator BYOB (`nemo_evaluator.contrib.byob`, main-legacy): `@benchmark(...)` + `@scorer` as
// `benchmark({...}, scorer)`, and the runner: load the dataset, render prompts (with a few-shot prefix),
// call an OpenAI-compatible endpoint (chat, completions, or per-choice log-likelihoods), score each
// sample, and aggregate into BYOB's JSON report (`aggregate_scores`).
import { InvalidArgumentError, ready } from "@evalkern/core-wasm";
import { aggregateScores, checkScoreDict, type AggregateResult, type ScoreDict, type ScorerInput } from "@evalkern/metrics/byob";
import { errorMessage } from "../errors.js";
import { createProgress } from "../progress.js";
import { PyRandom } from "@evalkern/metrics/python";
import { pyStr } from "@evalkern/metrics/python";
import { runtime } from "../runtime/runtime.js";
import { getPath } from "../bulk/records.js";
import { OpenAICompatibleClient, type EndpointOptions } from "./client.js";
import { BenchmarkRunError, EndpointUnreachableError } from "./errors.js";
import { loadDataset, type Row } from "./dataset.js";
import { MissingFieldError, compileTemplate, type Template } from "./template.js";

export type EndpointType = "chat" | "completions" | "completions_logprob";

/** A BYOB scorer: one `ScorerInput`, a dict of booleans/numbers (sync or async). */
export type BenchmarkScorer = (
  sample: ScorerInput,
) => ScoreDict | Readonly<Record<string, unknown>> | Promise<ScoreDict | Readonly<Record<string, unknown>>>;

export interface BenchmarkDefinition {
  /** Human-readable name; the report key is its normalized form (lowercase, [a-z0-9_], ≤ 50 chars). */
  readonly name: string;
  /** Local JSONL/CSV/TSV path, an `hf://` URI, or the rows themselves. */
  readonly dataset: string | readonly Row[];
  /** Python format template with `{field}` placeholders (dotted paths allowed). */
  readonly prompt: string;
  /** Dataset field with the ground truth (default "target"). */
  readonly targetField?: string;
  /** "chat" (default), "completions" or "completions_logprob" (multiple choice by log-likelihood). */
  readonly endpointType?: EndpointType;
  /** Static candidate continuations for "completions_logprob". */
  readonly choices?: readonly string[];
  /** Per-row candidates (dotted path; a {text: [...]} object uses its text) for "completions_logprob". */
  readonly choicesField?: string;
  /** Few-shot examples prepended to every prompt (default 0). */
  readonly numFewshot?: number;
  /** Split to draw few-shot examples from (hf:// datasets only). */
  readonly fewshotSplit?: string;
  /** Template of one few-shot example (default: the prompt, a space, then the target). */
  readonly fewshotTemplate?: string;
  /** Separator between few-shot examples (default "\n\n"). */
  readonly fewshotSeparator?: string;
  /** System prompt (a template too). */
  readonly systemPrompt?: string;
  /** Rename dataset fields: { sourceKey: targetKey }. */
  readonly fieldMapping?: Readonly<Record<string, string>>;
  /** Eval-only mode: score this dataset field instead of calling a model. */
  readonly responseField?: string;
  /** Framework-specific parameters, passed to the scorer as `config`. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface BenchmarkRunOptions extends Partial<EndpointOptions> {
  /** Evaluate only the first `limit` rows. */
  readonly limit?: number;
  /** Samples in flight at once (default 1). */
  readonly parallelism?: number;
  /** Stop after this many consecutive failed samples (0 = never; default 0). */
  readonly maxConsecutiveErrors?: number;
  /** Throw on the first skipped sample. */
  readonly failOnSkip?: boolean;
  /** Write the aggregated report (BYOB's byob_results.json) here. */
  readonly outputPath?: string;
  /** Write every sample (BYOB's byob_predictions.jsonl) here. */
  readonly predictionsPath?: string;
  /** Seed of the few-shot sample (default 42, as BYOB). */
  readonly fewshotSeed?: number;
  /** Datasets-server URL and token for hf:// datasets. */
  readonly hubUrl?: string;
  readonly hfToken?: string;
  readonly displayProgress?: boolean;
}

export type SampleStatus = "scored" | "skipped_missing_field" | "skipped_model_error" | "skipped_scorer_error";

/** One sample's record (BYOB `SampleResult`). */
export interface SampleResult {
  readonly sampleId: number;
  readonly prompt: string;
  readonly response: string | null;
  readonly target: unknown;
  readonly scores: Readonly<Record<string, unknown>> | null;
  readonly status: SampleStatus;
  readonly error?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export interface BenchmarkRunResult {
  /** `aggregate_scores(scores, normalizedName)`: `{ tasks: { name: { metrics: { "pass@1": { scores } } } } }`. */
  readonly report: AggregateResult;
  /** Scores of the scored samples, in dataset order. */
  readonly scores: readonly Readonly<Record<string, unknown>>[];
  readonly samples: readonly SampleResult[];
  readonly scored: number;
  readonly skipped: number;
  /** HTTP requests sent (retries included). */
  readonly requests: number;
  /** Tokens the endpoint reported (as judge runs report them); null in eval-only mode or for an injected endpoint. */
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number } | null;
}

export interface Benchmark {
  readonly definition: BenchmarkDefinition;
  readonly normalizedName: string;
  readonly scorer: BenchmarkScorer;
  run(options?: BenchmarkRunOptions): Promise<BenchmarkRunResult>;
}

/** BYOB `_normalize_name`. */
export function normalizeBenchmarkName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 50);
}

const PY_WS = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;

/** BYOB `_resolve_choices_from_row`: dotted path, then literal key; a dict gives its "text"; list items as str. */
export function resolveChoices(row: Row, field: string): string[] | undefined {
  let raw = getPath(row, field);
  if (typeof raw === "symbol") raw = undefined;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) raw = (raw as Row).text;
  return Array.isArray(raw) ? raw.map((c) => pyStr(c)) : undefined;
}

function checkDefinition(def: BenchmarkDefinition): void {
  if (typeof def !== "object" || def === null)
    throw new InvalidArgumentError("benchmark definition must be an object", { argument: "definition" });
  if (typeof def.name !== "string") throw new InvalidArgumentError("name must be a string", { argument: "name" });
  if (!normalizeBenchmarkName(def.name)) {
    throw new InvalidArgumentError(
      `Benchmark name '${def.name}' normalizes to an empty string. Use a name containing at least one alphanumeric character.`,
      { argument: "name" },
    );
  }
  if (typeof def.dataset !== "string" && !Array.isArray(def.dataset))
    throw new InvalidArgumentError("dataset must be a path, an hf:// URI or an array of rows", { argument: "dataset" });
  const type = def.endpointType ?? "chat";
  if (!["chat", "completions", "completions_logprob"].includes(type))
    throw new InvalidArgumentError(`endpointType must be "chat", "completions" or "completions_logprob", got ${JSON.stringify(type)}`, {
      argument: "endpointType",
    });
  if (type === "completions_logprob" && !def.choices?.length && !def.choicesField) {
    throw new InvalidArgumentError('endpointType "completions_logprob" needs `choices` or `choicesField`', { argument: "choices" });
  }
  if (def.choices !== undefined && (!Array.isArray(def.choices) || def.choices.some((c) => typeof c !== "string")))
    throw new InvalidArgumentError("choices must be an array of strings", { argument: "choices" });
  if (def.numFewshot !== undefined && (!Number.isSafeInteger(def.numFewshot) || def.numFewshot < 0))
    throw new InvalidArgumentError("numFewshot must be an integer ≥ 0", { argument: "numFewshot" });
}

/**
 * Define a BYOB benchmark (NeMo's `@benchmark(...)` over a `@scorer`), then `run()` it against any
 * OpenAI-compatible endpoint.
 *
 * @example
 * import { exactMatch } from "@evalkern/metrics/byob";
 * const qa = benchmark({ name: "my-qa", dataset: "qa.jsonl", prompt: "Q: {question}\nA:", targetField: "answer" }, exactMatch);
 * const { report } = await qa.run({ baseUrl: "http://localhost:8000/v1", model: "my-model" });
 */
export function benchmark(definition: BenchmarkDefinition, scorer: BenchmarkScorer): Benchmark {
  checkDefinition(definition);
  if (typeof scorer !== "function")
    throw new InvalidArgumentError("scorer must be a function (sample: ScorerInput) => dict", { argument: "scorer" });
  if (scorer.length === 0 || scorer.length >= 3) {
    // BYOB `_validate_scorer_signature`
    throw new InvalidArgumentError(
      scorer.length === 0
        ? "BYOB scorers must accept at least one argument — the ScorerInput"
        : "BYOB scorers now accept a single ScorerInput argument: migrate from (response, target, metadata) to (sample: ScorerInput)",
      { argument: "scorer" },
    );
  }
  const prompt = compileTemplate(definition.prompt, "prompt");
  const system = definition.systemPrompt !== undefined ? compileTemplate(definition.systemPrompt, "systemPrompt") : undefined;
  const fewshot = definition.fewshotTemplate !== undefined ? compileTemplate(definition.fewshotTemplate, "fewshotTemplate") : undefined;
  const normalizedName = normalizeBenchmarkName(definition.name);
  return {
    definition,
    normalizedName,
    scorer,
    // the built-in BYOB scorers run on the WebAssembly kernels: load them first (idempotent)
    run: async (options = {}) => {
      await ready();
      return runBenchmark(definition, normalizedName, scorer, { prompt, system, fewshot }, options);
    },
  };
}

interface Templates {
  readonly prompt: Template;
  readonly system: Template | undefined;
  readonly fewshot: Template | undefined;
}

function fewshotText(def: BenchmarkDefinition, t: Templates, row: Row): string | undefined {
  try {
    if (t.fewshot) return t.fewshot.render(row);
    const target = def.targetField ?? "target";
    const value = Object.prototype.hasOwnProperty.call(row, target) ? row[target] : "";
    return `${t.prompt.render(row)} ${pyStr(value)}`.replace(PY_WS, "");
  } catch (e) {
    if (e instanceof MissingFieldError) return undefined;
    throw e;
  }
}

/** BYOB `build_fewshot_examples`: a seeded sample from the fewshot split, else the dataset's tail. */
async function fewshotExamples(def: BenchmarkDefinition, dataset: readonly Row[], options: BenchmarkRunOptions): Promise<Row[]> {
  const n = def.numFewshot ?? 0;
  if (n <= 0) return [];
  let pool: readonly Row[] = [];
  if (def.fewshotSplit && typeof def.dataset === "string" && def.dataset.startsWith("hf://")) {
    const base = def.dataset.split("?")[0]!;
    try {
      pool = await loadDataset(`${base}?split=${def.fewshotSplit}`, {
        limit: Math.max(n * 4, 16),
        ...(def.fieldMapping ? { fieldMapping: def.fieldMapping } : {}),
        ...hubOptions(options),
      });
    } catch {
      pool = [];
    }
  }
  if (pool.length === 0) {
    const size = Math.max(n * 4, n);
    pool = dataset.length > size ? dataset.slice(-size) : dataset.slice();
  }
  if (pool.length <= n) return pool.slice();
  return new PyRandom(options.fewshotSeed ?? 42).sample(pool, n);
}

function hubOptions(o: BenchmarkRunOptions): { hubUrl?: string; hfToken?: string; fetch?: typeof fetch; signal?: AbortSignal } {
  return {
    ...(o.hubUrl ? { hubUrl: o.hubUrl } : {}),
    ...(o.hfToken ? { hfToken: o.hfToken } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  };
}

/** JSON with sorted keys and 2-space indent (Python's `json.dump(..., indent=2, sort_keys=True)`). */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Row)[k])]),
          )
        : v;
  return JSON.stringify(sort(value), null, 2);
}

async function runBenchmark(
  def: BenchmarkDefinition,
  name: string,
  scorer: BenchmarkScorer,
  t: Templates,
  options: BenchmarkRunOptions,
): Promise<BenchmarkRunResult> {
  const evalOnly = def.responseField !== undefined;
  const parallelism = options.parallelism ?? 1;
  if (!Number.isSafeInteger(parallelism) || parallelism < 1)
    throw new InvalidArgumentError("parallelism must be a positive integer", { argument: "parallelism" });
  const client = evalOnly ? undefined : new OpenAICompatibleClient(options as EndpointOptions);
  const dataset = await loadRows(def, options);
  const prefix = await fewshotPrefix(def, t, dataset, options);
  const type = def.endpointType ?? "chat";
  const context: SampleContext = { def, t, scorer, client, prefix, evalOnly, type, targetField: def.targetField ?? "target" };
  const samples = await runSamples(dataset, (idx, row) => evaluateSample(context, idx, row), parallelism, options);

  const scores = samples.filter((s) => s.status === "scored").map((s) => s.scores!);
  const report = aggregateScores(scores as Readonly<Record<string, unknown>>[], name);
  // a run where every sample failed is a failed run: no report is written as if it succeeded
  const failed = samples.length > 0 && scores.length === 0;
  if (options.outputPath && !failed) await runtime().writeFile(options.outputPath, `${sortedJson(report)}\n`);
  if (options.predictionsPath) await writePredictions(options.predictionsPath, samples);
  const result: BenchmarkRunResult = {
    report,
    scores,
    samples,
    scored: scores.length,
    skipped: samples.length - scores.length,
    requests: client?.requests ?? 0,
    usage: client?.usage ?? null,
  };
  if (failed) throw new BenchmarkRunError(result);
  return result;
}

/** The benchmark's rows (at most `options.limit`), with the field mapping applied. */
async function loadRows(def: BenchmarkDefinition, options: BenchmarkRunOptions): Promise<Row[]> {
  if (typeof def.dataset === "string") {
    const limit = options.limit ? { limit: options.limit } : {};
    return loadDataset(def.dataset, { ...limit, ...(def.fieldMapping ? { fieldMapping: def.fieldMapping } : {}), ...hubOptions(options) });
  }
  const mapping = def.fieldMapping;
  const rows = options.limit ? def.dataset.slice(0, options.limit) : def.dataset;
  return rows.map((r) => (mapping ? Object.fromEntries(Object.entries(r).map(([k, v]) => [mapping[k] ?? k, v])) : { ...r }));
}

/** The rendered few-shot examples, each followed by the separator ("" without examples). */
async function fewshotPrefix(
  def: BenchmarkDefinition,
  t: Templates,
  dataset: readonly Row[],
  options: BenchmarkRunOptions,
): Promise<string> {
  const examples = await fewshotExamples(def, dataset, options);
  const rendered = examples.map((e) => fewshotText(def, t, e)).filter((x): x is string => x !== undefined);
  const sep = def.fewshotSeparator ?? "\n\n";
  return rendered.length ? rendered.join(sep) + sep : "";
}

/** What every sample of a run shares. */
interface SampleContext {
  readonly def: BenchmarkDefinition;
  readonly t: Templates;
  readonly scorer: BenchmarkScorer;
  /** undefined for an eval-only benchmark (`responseField`). */
  readonly client: OpenAICompatibleClient | undefined;
  readonly prefix: string;
  readonly evalOnly: boolean;
  readonly type: string;
  readonly targetField: string;
}

/**
 * Runs `evaluate` over the rows with `parallelism` workers, in order of index; stops handing out samples
 * when one throws (that error rejects the run) or when `failOnSkip`/`maxConsecutiveErrors` say so.
 */
async function runSamples(
  dataset: readonly Row[],
  evaluate: (idx: number, row: Row) => Promise<SampleResult>,
  parallelism: number,
  options: BenchmarkRunOptions,
): Promise<SampleResult[]> {
  const samples = new Array<SampleResult>(dataset.length);
  const progress = options.displayProgress ? createProgress({ total: dataset.length, unit: "samples" }) : undefined;
  let next = 0;
  let done = 0;
  let consecutive = 0;
  let abort: Error | undefined;
  const worker = async () => {
    while (abort === undefined && next < dataset.length) {
      const idx = next++;
      let s: SampleResult;
      try {
        s = await evaluate(idx, dataset[idx]!);
      } catch (e) {
        // a dead endpoint (or a bug): stop handing out samples; the run rejects with it
        abort ??= e as Error;
        return;
      }
      samples[idx] = s;
      done++;
      progress?.update(done);
      if (s.status !== "scored") {
        consecutive++;
        if (options.failOnSkip && !abort) abort = new Error(`Sample ${idx} failed: ${s.error}`);
        if (options.maxConsecutiveErrors && consecutive >= options.maxConsecutiveErrors && !abort) {
          abort = new Error(`Aborting: ${consecutive} consecutive errors reached limit of ${options.maxConsecutiveErrors}`);
        }
      } else consecutive = 0;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallelism, Math.max(1, dataset.length)) }, worker));
  progress?.finish();
  if (abort) throw abort;
  return samples;
}

/** One sample: prompt, model response (or the row's own for eval-only), scores; a failure is a skipped sample. */
async function evaluateSample(c: SampleContext, idx: number, row: Row): Promise<SampleResult> {
  const { def, t } = c;
  const target = Object.prototype.hasOwnProperty.call(row, c.targetField) ? row[c.targetField] : "";
  type Skip = (status: SampleStatus, error: unknown, prompt: string, response?: string | null, metadata?: Row) => SampleResult;
  const skip: Skip = (status, error, prompt, response = null, metadata = row) => ({
    sampleId: idx,
    prompt,
    response,
    target,
    scores: null,
    status,
    error: error instanceof MissingFieldError ? error.message : errorMessage(error),
    metadata,
  });
  let prompt = "";
  if (c.evalOnly) {
    try {
      prompt = t.prompt.render(row);
    } catch {
      prompt = "";
    }
    if (!Object.prototype.hasOwnProperty.call(row, def.responseField!)) {
      return skip("skipped_missing_field", `Response field '${def.responseField}' not found in row`, "");
    }
  } else {
    try {
      prompt = c.prefix + t.prompt.render(row);
    } catch (e) {
      if (e instanceof MissingFieldError) return skip("skipped_missing_field", e, "");
      throw e;
    }
  }
  let systemPrompt: string | undefined;
  if (t.system) {
    try {
      systemPrompt = t.system.render(row);
    } catch {
      systemPrompt = undefined; // BYOB logs and goes on without it
    }
  }
  const answer = await modelAnswer(c, row, prompt, systemPrompt);
  if ("skip" in answer) return skip(answer.skip, answer.error, prompt);
  const { response, metadata } = answer;
  let scores: Readonly<Record<string, unknown>>;
  try {
    // the same check as `scorer()` applies whether or not the function was wrapped: a plain object of
    // booleans and finite numbers, else a ScorerResultError on this sample (never a NaN/null score)
    const scorer = c.scorer;
    const modelCallFn = (p: string, endpointType: string): Promise<string> => modelCall(c, p, endpointType);
    scores = checkScoreDict(scorer.name || "scorer", await scorer({ response, target, metadata, modelCallFn, config: def.extra ?? {} }));
  } catch (e) {
    return skip("skipped_scorer_error", e, prompt, response, metadata);
  }
  return { sampleId: idx, prompt, response, target, scores, status: "scored", metadata };
}

/** The scorer's `modelCallFn`: one more call to the benchmark's endpoint. */
async function modelCall(c: SampleContext, prompt: string, endpointType: string): Promise<string> {
  if (!c.client) throw new InvalidArgumentError("eval-only benchmark: no model endpoint configured", { argument: "baseUrl" });
  return endpointType === "chat" ? c.client.chat(prompt) : c.client.completion(prompt);
}

type Answer = { readonly response: string; readonly metadata: Row } | { readonly skip: SampleStatus; readonly error: unknown };

/** The response to score and the metadata the scorer sees; an unreachable endpoint throws (it ends the run). */
async function modelAnswer(c: SampleContext, row: Row, prompt: string, systemPrompt: string | undefined): Promise<Answer> {
  if (c.evalOnly) return { response: pyStr(row[c.def.responseField!]), metadata: row };
  if (c.type === "completions_logprob") return logprobAnswer(c, row, systemPrompt ? `${systemPrompt}\n${prompt}` : prompt);
  try {
    const response = c.type === "chat" ? await c.client!.chat(prompt, systemPrompt) : await c.client!.completion(prompt, systemPrompt);
    return { response, metadata: row };
  } catch (e) {
    if (e instanceof EndpointUnreachableError) throw e; // ends the run
    return { skip: "skipped_model_error", error: e };
  }
}

/** `completions_logprob`: the choice of highest log-likelihood after `context` (the first on ties). */
async function logprobAnswer(c: SampleContext, row: Row, context: string): Promise<Answer> {
  const def = c.def;
  let choices = def.choicesField ? resolveChoices(row, def.choicesField) : undefined;
  if (!choices?.length && def.choices?.length) choices = [...def.choices];
  if (!choices?.length) {
    return {
      skip: "skipped_missing_field",
      error: `No choices available: choices_field '${def.choicesField}' missing from row and no static choices declared on benchmark.`,
    };
  }
  const logprobs: number[] = [];
  const greedy: boolean[] = [];
  try {
    for (const choice of choices) {
      const ll = await c.client!.loglikelihood(context, choice);
      logprobs.push(ll.logprob);
      greedy.push(ll.isGreedy);
    }
  } catch (e) {
    if (e instanceof EndpointUnreachableError) throw e; // ends the run
    return { skip: "skipped_model_error", error: e };
  }
  let best = 0;
  for (let i = 1; i < logprobs.length; i++) if (logprobs[i]! > logprobs[best]!) best = i;
  return { response: choices[best]!, metadata: { ...row, _choices: choices, _choices_logprobs: logprobs, _choices_is_greedy: greedy } };
}

/** BYOB's predictions file: one JSON line per sample, in sample order. */
async function writePredictions(path: string, samples: readonly SampleResult[]): Promise<void> {
  const lines = samples.map((s) =>
    JSON.stringify({
      sample_id: s.sampleId,
      prompt: s.prompt,
      response: s.response,
      target: s.target,
      scores: s.scores,
      status: s.status,
      error: s.error ?? null,
      metadata: s.metadata,
    }),
  );
  await runtime().writeFile(path, lines.join("\n") + (lines.length ? "\n" : ""));
}
