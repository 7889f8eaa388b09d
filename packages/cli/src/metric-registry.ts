// The metric names the command line knows: the rule metrics of the @evalkern/metrics registry
// (`@evalkern/metrics/registry`), each mapped to a bulk-scoring spec of @evalkern/harness. Names, option
// help, scale and headline all come from the registry; this file only adds the command line's messages.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import type { MetricSpec } from "@evalkern/harness/bulk";
import { checkOptions, didYouMean, findMetric, listMetrics, type LexicalMetric } from "@evalkern/metrics/registry";
import { usageError } from "./errors.js";
import type { MetricArgument } from "./metric-options.js";

/** Output scale of a metric's scores: sacreBLEU's 0–100 or a 0–1 fraction. */
export type Scale = 100 | 1;

export interface MetricDefinition {
  readonly name: string;
  readonly family: "sacrebleu" | "rouge-score" | "dspy" | "nemo-byob" | "evalwire" | "autoevals" | "evalkern" | (string & {});
  readonly description: string;
  /** Option keys accepted after `name:` (besides `name=` to rename the output column), with their help. */
  readonly options: Readonly<Record<string, string>>;
  readonly scale: Scale;
  /** Direction of the scores (from the registry): false for error rates and distances (TER, levenshtein). */
  readonly higherIsBetter: boolean;
  /** Column shown as the metric's `score` when it has several (ROUGE → rougeL). */
  readonly headline?: string;
  /** The harness spec; `name` is the output key. */
  spec(options: Readonly<Record<string, unknown>>, name: string): MetricSpec;
}

const definitions = new WeakMap<LexicalMetric, MetricDefinition>();

function definitionOf(m: LexicalMetric): MetricDefinition {
  let d = definitions.get(m);
  if (!d) {
    d = {
      name: m.name,
      family: m.family,
      description: m.description,
      options: Object.fromEntries(Object.entries(m.options).map(([k, s]) => [k, s.help])),
      scale: m.scale,
      higherIsBetter: m.higherIsBetter,
      ...(m.headline ? { headline: m.headline } : {}),
      spec: (o, name) => m.spec(o, name) as MetricSpec,
    };
    definitions.set(m, d);
  }
  return d;
}

/** Every metric `--metric` accepts, in help order (the registry's, plug-ins included). */
export function metricDefinitions(): readonly MetricDefinition[] {
  return listMetrics().map(definitionOf);
}

/** The metrics `evalkern score` uses without `--metric`. */
export const DEFAULT_METRICS: readonly string[] = ["bleu", "chrf", "chrf++", "rouge", "f1", "em"];

/** One resolved `--metric`: the definition, the output key and the harness spec. */
export interface ResolvedMetric {
  readonly definition: MetricDefinition;
  /** Output key (the metric name unless renamed with `name=`). */
  readonly name: string;
  readonly options: Readonly<Record<string, unknown>>;
  readonly spec: MetricSpec;
}

/** Check a parsed `--metric` against the registry and build its spec (option ranges are checked by the harness). */
export function resolveMetric(arg: MetricArgument): ResolvedMetric {
  const metric = findMetric(arg.name);
  if (!metric) {
    const all = listMetrics().map((d) => d.name);
    const hint = didYouMean(arg.name, all);
    throw usageError(
      `unknown metric ${JSON.stringify(arg.name)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}; known metrics: ` +
        `${all.join(", ")} (see evalkern score --help)`,
    );
  }
  const definition = definitionOf(metric);
  const options: Record<string, unknown> = {};
  let name = definition.name;
  for (const [key, value] of Object.entries(arg.options)) {
    if (key === "name") {
      if (typeof value !== "string" || !/^[A-Za-z_][\w+.-]*$/.test(value))
        throw usageError(`--metric ${arg.raw}: name= must be a word (letters, digits, _ - + .)`);
      name = value;
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(definition.options, key)) {
      const keys = Object.keys(definition.options);
      const hint = didYouMean(key, keys);
      throw usageError(
        `--metric ${arg.raw}: ${definition.name} has no option ${JSON.stringify(key)}; ` +
          `${keys.length ? `its options are ${keys.join(", ")}` : "it takes no options"} (and ` +
          `name=)${hint ? `; did you mean ${JSON.stringify(hint)}?` : ""}`,
      );
    }
    options[key] = value;
  }
  if (metric.options.types?.type === "string[]" && typeof options.types === "string") options.types = [options.types];
  try {
    checkOptions(metric.name, metric.options, options);
  } catch (e) {
    if (e instanceof InvalidArgumentError) throw usageError(`--metric ${arg.raw}: ${e.message}`);
    throw e;
  }
  return { definition, name, options, spec: definition.spec(options, name) };
}

/** Help text listing every metric and its options. */
export function metricsHelp(): string {
  const defs = metricDefinitions();
  const width = Math.max(...defs.map((d) => d.name.length));
  const lines = ["Metrics (--metric NAME[:key=value[:key=value...]], repeatable; rename with name=...):"];
  for (const d of defs) {
    lines.push(`  ${d.name.padEnd(width)}  ${d.description}`);
    for (const [k, v] of Object.entries(d.options)) lines.push(`  ${"".padEnd(width)}    ${k}=${v}`);
  }
  lines.push(`Default: ${DEFAULT_METRICS.join(", ")}.`);
  return lines.join("\n");
}
