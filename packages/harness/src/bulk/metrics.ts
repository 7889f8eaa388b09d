// The metrics bulk scoring runs: a thin layer over @evalkern/metrics' registry (`@evalkern/metrics/registry`,
// one contract for every rule metric: statistics through the core-wasm batch kernels, per-row values,
// corpus scores from summed statistics, signatures), plus plug-in modules loaded by specifier.
//
// Specs are plain JSON so they can be sent to worker threads; `createBulkMetric` builds the
// implementation on either side, from the registry by name and options.
import { InvalidArgumentError, type BleuOptions, type ChrfOptions, type RougeOptions, type TokenF1Options } from "@evalkern/core-wasm";
import {
  UnknownMetricError,
  callableColumns,
  callableMetric,
  createMetric,
  findMetric,
  isBuiltinMetric,
  listMetrics,
  normalizeMetricSpec,
  ruleForModule,
  stableJson,
  type BuiltinMetricName,
  type MetricInstance,
  type RuleFunction,
} from "@evalkern/metrics/registry";
import { HARNESS_VERSION } from "../version.js";

export { stableJson };

/**
 * A metric by name with default options: any name or alias of the @evalkern/metrics registry
 * (`listMetrics()`); the kernel metrics' names complete in editors (`BUILTIN_METRIC_NAMES`). `"chrf++"` is
 * chrF with word order 2; `"rougeL"` etc. pick one ROUGE type.
 */
export type MetricName = BuiltinMetricName | (string & {});

/**
 * A plug-in metric loaded by module specifier inside each worker, e.g. any `@evalkern/metrics` rule
 * metric that is a pure function of (hypothesis, references):
 * - `call: "batch"`: `fn(hypotheses: string[], references: string[][], options) => ArrayLike<number | boolean>`
 *   (e.g. `@evalkern/metrics/dspy` `F1Batch`, `EMBatch`);
 * - `call: "pair"`: `fn(hypothesis, references, options) => number | boolean | Record<string, number | boolean>`;
 * - `call: "byob"`: a NeMo BYOB scorer, `fn({ response: hypothesis, target: references[0], metadata: {}, config: options })`
 *   returning a dict (e.g. `@evalkern/metrics/byob` `bleu`, `rouge`, `exactMatch`).
 * Record-returning metrics need `columns` (the keys to keep). The corpus score of each column is its mean.
 */
export interface ModuleMetricConfig {
  readonly metric: "module";
  readonly name: string;
  /** Module specifier resolvable from @evalkern/harness (a package subpath or a file URL). */
  readonly module: string;
  /** Export name (default "default"). */
  readonly export?: string;
  /** Calling convention (default "pair"). */
  readonly call?: "pair" | "batch" | "byob";
  /** Keys of a record result to keep, in order. */
  readonly columns?: readonly string[];
  /** Passed to the function (must be JSON-serialisable: it travels to worker threads). */
  readonly options?: unknown;
  /** Recorded in the signature (e.g. the package version). */
  readonly version?: string;
  /** The column key reported as `score` in output rows when the metric has several (see `MetricConfig`). */
  readonly headline?: string;
}

/**
 * A metric with options. `headline` is the column key written as `score` in output rows
 * (`outputRows: "rows"`) when the metric has several columns and none is named after it, e.g. `"rougeL"`
 * for ROUGE (default: the first column; the registry's `headline` is the usual choice).
 */
export type MetricConfig =
  | { readonly metric: "bleu"; readonly name?: string; readonly options?: BleuOptions; readonly headline?: string }
  | { readonly metric: "chrf"; readonly name?: string; readonly options?: ChrfOptions; readonly headline?: string }
  | { readonly metric: "rouge"; readonly name?: string; readonly options?: RougeOptions; readonly headline?: string }
  | { readonly metric: "tokenF1"; readonly name?: string; readonly options?: TokenF1Options; readonly headline?: string }
  | { readonly metric: "exactMatch"; readonly name?: string; readonly headline?: string }
  | { readonly metric: "levenshtein"; readonly name?: string; readonly headline?: string }
  | ModuleMetricConfig
  /** Any other registry metric by name or alias, with its options. */
  | {
      readonly metric: Exclude<MetricName, "module">;
      readonly name?: string;
      readonly options?: Readonly<Record<string, unknown>>;
      readonly headline?: string;
    };

export type MetricSpec = MetricName | MetricConfig;

/** A validated spec (plain JSON), as sent to workers and recorded in summaries. */
export interface NormalizedMetric {
  /** The registry metric the spec names (`bleu`, `chrf`, `rouge`, `tokenF1`, ...) or `"module"`. */
  readonly metric: string;
  readonly name: string;
  readonly options: Record<string, unknown>;
  readonly module?: string;
  readonly export?: string;
  readonly call?: "pair" | "batch" | "byob";
  readonly columns?: readonly string[];
  readonly version?: string;
  /** Column key shown as `score` in output rows (when given). */
  readonly headline?: string;
}

/** A registry metric bound to its spec, with the harness's version in its signature. */
export interface BulkMetric extends Omit<MetricInstance, "signature"> {
  readonly spec: NormalizedMetric;
  /** Every option and version, sacreBLEU style. */
  signature(nrefs: number | "var"): string;
}

function bad(message: string, argument: string): never {
  throw new InvalidArgumentError(message, { argument });
}

/** Validate metric specs (throws `InvalidArgumentError` with the offending option) and give them names. */
export function normalizeMetrics(specs: readonly MetricSpec[] | undefined): NormalizedMetric[] {
  if (!Array.isArray(specs) || specs.length === 0) bad("metrics must be a non-empty array of metric specs", "metrics");
  const out: NormalizedMetric[] = [];
  specs.forEach((spec, i) => {
    const where = `metrics[${i}]`;
    if (typeof spec === "string") {
      out.push(normalizeOne({ metric: spec } as MetricConfig, where));
      return;
    }
    if (typeof spec !== "object" || spec === null) bad(`${where} must be a metric name or a { metric, options } object`, where);
    const m = normalizeOne(spec, where);
    if (spec.headline === undefined) out.push(m);
    else {
      if (typeof spec.headline !== "string" || spec.headline.length === 0)
        bad(`${where}.headline must be a non-empty column key`, `${where}.headline`);
      out.push({ ...m, headline: spec.headline });
    }
  });
  const seen = new Map<string, string>();
  for (const m of out) {
    if (seen.has(m.name)) bad(`two metrics are named ${JSON.stringify(m.name)}: give one a distinct \`name\``, "metrics");
    seen.set(m.name, m.name);
  }
  // output columns must not clash either
  const cols = new Set<string>(["line", "index", "id", "error"]);
  for (const m of out) {
    for (const c of columnsOf(m)) {
      if (cols.has(c)) bad(`output column ${JSON.stringify(c)} is used twice (or is reserved): rename a metric`, "metrics");
      cols.add(c);
    }
  }
  return out;
}

function normalizeOne(spec: MetricConfig, where: string): NormalizedMetric {
  const metric = (spec as { metric: unknown }).metric;
  if (metric === "module") return normalizeModule(spec as ModuleMetricConfig, where);
  if (typeof metric !== "string" || !findMetric(metric)) {
    throw new UnknownMetricError(
      `${where}${typeof spec === "object" ? ".metric" : ""}: unknown metric ${JSON.stringify(metric)}; use one of ${listMetrics()
        .map((m) => m.name)
        .join(", ")} (or an alias such as tokenF1, exactMatch), or a { metric: "module", ... } spec`,
      String(metric),
      undefined,
      `${where}.metric`,
    );
  }
  const options = (spec as { options?: unknown }).options;
  const name = spec.name ?? (metric === "chrf" && (options as ChrfOptions | undefined)?.wordOrder ? "chrf++" : metric);
  if (typeof name !== "string" || name.length === 0) bad(`${where}.name must be a non-empty string`, `${where}.name`);
  const normalized = normalizeMetricSpec({ metric, name, options }, `${where}.options`);
  if (normalized.metric === "module") return normalizeModule(normalized as ModuleMetricConfig, where);
  if (!isBuiltinMetric(normalized.metric)) {
    // worker threads import the registry afresh: a metric registered at run time in this thread is not there
    throw new InvalidArgumentError(
      `${where}: metric ${JSON.stringify(metric)} was registered with registerMetric in this thread only, and worker threads ` +
        `cannot build it; make it a ruleMetric (a ` +
        `module spec workers import by name) or a { metric: "module", ... } spec`,
      { argument: `${where}.metric` },
    );
  }
  return normalized;
}

function normalizeModule(spec: ModuleMetricConfig, where: string): NormalizedMetric {
  const name = spec.name;
  if (typeof name !== "string" || name.length === 0) bad(`${where}.name must be a non-empty string`, `${where}.name`);
  if (typeof spec.module !== "string" || spec.module.length === 0) bad(`${where}.module must be a module specifier`, `${where}.module`);
  const call = spec.call ?? "pair";
  if (call !== "pair" && call !== "batch" && call !== "byob") bad(`${where}.call must be "pair", "batch" or "byob"`, `${where}.call`);
  if (spec.columns !== undefined) {
    if (!Array.isArray(spec.columns) || spec.columns.length === 0 || spec.columns.some((c) => typeof c !== "string" || c.length === 0)) {
      bad(`${where}.columns must be a non-empty array of keys`, `${where}.columns`);
    }
  }
  if (call === "byob" && spec.columns === undefined)
    bad(`${where}.columns is required for call "byob" (the score keys to keep)`, `${where}.columns`);
  const options = spec.options === undefined ? {} : (JSON.parse(JSON.stringify({ v: spec.options })) as { v: Record<string, unknown> }).v;
  return {
    metric: "module",
    name,
    options,
    module: spec.module,
    export: spec.export ?? "default",
    call,
    ...(spec.columns ? { columns: [...spec.columns] } : {}),
    ...(spec.version ? { version: spec.version } : {}),
  };
}

/** Per-row output keys of a normalized metric. */
export function columnsOf(m: NormalizedMetric): string[] {
  if (m.metric === "module") return callableColumns(m);
  return [...createMetric(m).columns];
}

/**
 * Build a metric. Registry metrics (and module specs naming a registry rule) are built from the registry;
 * with `load` (workers), rule modules are loaded and other plug-in modules imported; without it (main
 * thread) only their signatures and corpus scores work, which need no import.
 */
export async function createBulkMetric(spec: NormalizedMetric, options: { load: boolean }): Promise<BulkMetric> {
  let instance: MetricInstance;
  const rule = spec.metric === "module" ? ruleForModule(spec) : undefined;
  if (rule && options.load) await rule.load(); // the rule's module (BYOB, evalwire, ...) loads on first use
  if (spec.metric === "module" && !rule) {
    let fn: RuleFunction | undefined;
    if (options.load) {
      const mod = (await import(spec.module!)) as Record<string, unknown>;
      const f = mod[spec.export!];
      if (typeof f !== "function")
        throw new InvalidArgumentError(`module ${spec.module} has no function export ${JSON.stringify(spec.export)}`, {
          argument: "metrics",
        });
      fn = f as RuleFunction;
    }
    instance = callableMetric(spec, fn);
  } else {
    instance = createMetric(spec);
  }
  const tool = `harness:${HARNESS_VERSION}`;
  return { ...instance, spec, signature: (nrefs) => instance.signature(nrefs, tool) };
}
