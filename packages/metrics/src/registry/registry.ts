// One registry of every lexical rule metric, by canonical name (aliases resolve to it). Adding a built-in
// metric is one file with its `LexicalMetric` plus an entry in the list below (a pair-callable rule: one
// entry in `rules.ts`); plug-ins call `registerMetric` at run time (ARCHITECTURE.md, "Adding a metric").
import { bleu } from "./bleu.js";
import { callableMetric } from "./callable.js";
import { chrf, chrfPlusPlus } from "./chrf.js";
import type { LexicalMetric, MetricInstance, MetricSpecJson } from "./contract.js";
import { MetricOptionError, UnknownMetricError } from "./errors.js";
import { em } from "./exact-match.js";
import { levenshtein } from "./levenshtein.js";
import { checkOptions, didYouMean, plainOptions } from "./options.js";
import { rouge, rougeSingle } from "./rouge.js";
import { RULE_METRICS, type RuleEntry } from "./rules.js";
import type { RuleFunction } from "./callable.js";
import { ter } from "./ter.js";
import { f1, hotpotF1 } from "./token-f1.js";

const ordered: LexicalMetric[] = [];
const byName = new Map<string, LexicalMetric>();
const byTarget = new Map<string, RuleEntry>();

const targetKey = (module: string, exportName: string, call: string) => `${module}#${exportName}#${call}`;

/**
 * Add a metric to the registry (plug-ins, or a new built-in). Its name and aliases must be new, unless
 * `replace` is set (then an entry of the same canonical name is replaced).
 */
export function registerMetric(metric: LexicalMetric, options: { replace?: boolean } = {}): void {
  if (
    typeof metric !== "object" ||
    metric === null ||
    typeof metric.name !== "string" ||
    metric.name === "" ||
    typeof metric.spec !== "function"
  ) {
    throw new UnknownMetricError(
      "registerMetric: a metric needs a non-empty name and a spec() function",
      String((metric as { name?: unknown } | null)?.name),
      undefined,
      "metric",
    );
  }
  if (metric.name === "module")
    throw new UnknownMetricError('registerMetric: "module" is reserved for plug-in module specs', metric.name, undefined, "metric");
  const names = [metric.name, ...(metric.aliases ?? [])];
  const existing = byName.get(metric.name);
  if (existing && options.replace && existing.name === metric.name) {
    for (const n of [existing.name, ...(existing.aliases ?? [])]) byName.delete(n);
    ordered.splice(ordered.indexOf(existing), 1, metric);
  } else {
    for (const n of names) {
      if (byName.has(n))
        throw new UnknownMetricError(
          `registerMetric: the name ${JSON.stringify(n)} is taken by ${byName.get(n)!.name}`,
          n,
          undefined,
          "metric",
        );
    }
    ordered.push(metric);
  }
  for (const n of names) byName.set(n, metric);
  const rule = metric as Partial<RuleEntry>;
  if (rule.target && typeof rule.loaded === "function")
    byTarget.set(targetKey(rule.target.module, rule.target.export, rule.target.call), rule as RuleEntry);
}

const builtins = new Set<LexicalMetric>();
for (const m of [
  bleu,
  chrf,
  chrfPlusPlus,
  ter,
  rouge,
  rougeSingle("rouge1"),
  rougeSingle("rouge2"),
  rougeSingle("rougeL"),
  rougeSingle("rougeLsum"),
  f1,
  hotpotF1,
  em,
  levenshtein,
  ...RULE_METRICS,
]) {
  registerMetric(m);
  builtins.add(m);
}

/**
 * Whether `name` is one of @evalkern/metrics' own metrics (registered in every thread that imports the
 * registry), not a plug-in registered at run time by `registerMetric` — which other threads do not see.
 */
export function isBuiltinMetric(name: string): boolean {
  const m = byName.get(name);
  return m !== undefined && builtins.has(m);
}

/** Every registered metric, in registration (help) order. */
export function listMetrics(): readonly LexicalMetric[] {
  return [...ordered];
}

/** The metric of a name or alias, or undefined. */
export function findMetric(name: string): LexicalMetric | undefined {
  return byName.get(name);
}

/** The metric of a name or alias; an unknown name is an `UnknownMetricError` with a did-you-mean. */
export function getMetric(name: string, argument = "metric"): LexicalMetric {
  const m = typeof name === "string" ? byName.get(name) : undefined;
  if (m) return m;
  const hint =
    typeof name === "string"
      ? didYouMean(
          name,
          ordered.map((d) => d.name),
        )
      : undefined;
  throw new UnknownMetricError(
    `unknown metric ${JSON.stringify(name)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}` +
      `; known metrics: ${ordered.map((d) => d.name).join(", ")}`,
    String(name),
    hint,
    argument,
  );
}

/**
 * The spec of metric `name` (a name or alias) with `options` and output name `as` (default: the
 * canonical name), as a caller writes it (see `LexicalMetric.spec`). Unknown option keys and wrong types
 * are `MetricOptionError`s naming the metric and the key.
 */
export function metricSpec(name: string, options: unknown = {}, as?: string, where = "options"): MetricSpecJson {
  const def = getMetric(name);
  const opts = plainOptions(def.name, options, where);
  checkOptions(def.name, def.options, opts, where);
  return def.spec(opts, as ?? def.name);
}

/**
 * A normalized spec (defaults filled in, values validated) of a `{ metric, name, options }` spec naming a
 * registry metric: presets resolve to the metric they fix options of; rule metrics to their module spec.
 */
export function normalizeMetricSpec(
  spec: { readonly metric: string; readonly name: string; readonly options?: unknown },
  where = "options",
): MetricSpecJson {
  const first = metricSpec(spec.metric, spec.options, spec.name, where);
  if (first.metric === "module") return first;
  const base = getMetric(first.metric);
  if (!base.resolve || !base.create)
    throw new UnknownMetricError(
      `metric ${JSON.stringify(first.metric)} has no implementation (a preset must name a metric that has one)`,
      first.metric,
      undefined,
    );
  if (base !== findMetric(spec.metric)) checkOptions(base.name, base.options, first.options, where);
  return { metric: first.metric, name: first.name, options: base.resolve(first.options) };
}

/** The registry's rule metric behind a module spec naming one of its public functions, if any. */
export function ruleForModule(spec: Pick<MetricSpecJson, "module" | "export" | "call">): RuleEntry | undefined {
  if (!spec.module) return undefined;
  return byTarget.get(targetKey(spec.module, spec.export ?? "default", spec.call ?? "pair"));
}

/**
 * Load what the metrics of `names` (default: every registered metric) need on first use — the modules of
 * rule metrics. Idempotent; kernel metrics need only core-wasm's `ready()`.
 */
export async function loadMetrics(names?: readonly string[]): Promise<void> {
  const defs = names ? names.map((n) => getMetric(n)) : ordered;
  await Promise.all(defs.map((d) => d.load?.()));
}

/**
 * Build a metric from a normalized spec. Module specs that name a registry rule are built in process
 * (after `loadMetrics`, else a `MetricNotLoadedError`); other module specs (user plug-ins) are built with
 * `fn` when given (else without: signatures and corpus scores only).
 */
export function createMetric(spec: MetricSpecJson, fn?: RuleFunction): MetricInstance {
  if (spec.metric === "module") {
    const rule = ruleForModule(spec);
    if (rule)
      return rule.loaded()
        ? rule.create(spec)
        : callableMetric(spec, fn, {
            metric: rule.name,
            higherIsBetter: rule.higherIsBetter,
            ...(rule.headline ? { headline: rule.headline } : {}),
          });
    return callableMetric(spec, fn);
  }
  const def = getMetric(spec.metric);
  if (!def.create)
    throw new MetricOptionError(`${def.name}: not a normalized spec (normalize it with normalizeMetricSpec first)`, {
      metric: def.name,
      key: "",
      argument: "metric",
    });
  return def.create(spec);
}

/**
 * A metric by name (or alias) and options, ready to score: `metricSpec` + `normalizeMetricSpec` +
 * `createMetric`.
 *
 * @example
 * const m = lexicalMetric("bleu", { tokenize: "intl" });
 * const stats = m.statistics(["the cat sat"], [["the cat sat down"]]);
 * m.corpusScores(stats, 1, 1)[0]; // corpus BLEU (0–100)
 */
export function lexicalMetric(name: string, options: unknown = {}, as?: string): MetricInstance {
  const spec = normalizeMetricSpec({ metric: name, name: as ?? getMetric(name).name, options });
  const rule = spec.metric === "module" ? ruleForModule(spec) : undefined;
  return rule ? rule.create(spec) : createMetric(spec);
}
