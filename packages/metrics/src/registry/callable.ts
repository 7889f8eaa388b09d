// Rule functions as metrics, by calling convention (what a `{ metric: "module" }` spec names):
// - `call: "batch"`: `fn(hypotheses, references, options) => ArrayLike<number | boolean>`;
// - `call: "pair"`: `fn(hypothesis, references, options, row) => number | boolean | Record<string, number | boolean>`
//   (`row`: the input row's fields when the caller has them, see `RowFields`);
// - `call: "byob"`: a NeMo BYOB scorer, `fn({ response, target: references[0], metadata: {}, config: options })`
//   returning a dict.
// Record results need `columns` (the keys kept). The statistics are the per-row values; the corpus score
// of each column is its mean.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { headlineColumn, meanColumns, type MetricInstance, type MetricScale, type MetricSpecJson } from "./contract.js";
import { stableJson } from "./options.js";

export type RuleFunction = (...args: never[]) => unknown;

function asNumber(v: unknown, what: string): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw new InvalidArgumentError(`${what} returned ${typeof v === "number" ? String(v) : typeof v}, not a boolean or finite number`, {
    argument: what,
  });
}

/** Output keys of a callable spec: its name, or `name.key` per kept record key. */
export function callableColumns(spec: Pick<MetricSpecJson, "name" | "columns">): string[] {
  return spec.columns ? spec.columns.map((c) => `${spec.name}.${c}`) : [spec.name];
}

/**
 * A metric from a rule function and a module spec (`module`, `export`, `call`, `columns`, `options`,
 * `version` as in `{ metric: "module" }` specs). Without `fn` only signatures and corpus scores work
 * (what a main thread needs); `statistics` then throws.
 */
export function callableMetric(
  spec: MetricSpecJson,
  fn: RuleFunction | undefined,
  extra: { metric?: string; headline?: string; scale?: MetricScale; higherIsBetter?: boolean } = {},
): MetricInstance {
  const columns = callableColumns(spec);
  const keys = spec.columns;
  const width = keys ? keys.length : 1;
  const call = spec.call ?? "pair";
  const opt = spec.options;
  const f = fn as ((...args: unknown[]) => unknown) | undefined;
  const take = (value: unknown, row: Float64Array, at: number): void => {
    if (!keys) {
      row[at] = asNumber(value, spec.name);
      return;
    }
    if (typeof value !== "object" || value === null)
      throw new InvalidArgumentError(`${spec.name} returned ${typeof value}, not a record`, { argument: spec.name });
    keys.forEach((key, c) => {
      row[at + c] = asNumber((value as Record<string, unknown>)[key], `${spec.name}.${key}`);
    });
  };
  return {
    metric: extra.metric ?? "module",
    name: spec.name,
    options: opt,
    width,
    columns,
    scoreNames: columns,
    headline: headlineColumn(spec.name, columns, extra.headline),
    corpusColumns: Array.from({ length: width }, (_, c) => c),
    scale: extra.scale ?? 1,
    higherIsBetter: extra.higherIsBetter ?? true,
    statistics(h, r, rows) {
      if (!f) throw new Error("metric not loaded in this thread");
      const out = new Float64Array(h.length * width);
      if (call === "batch") {
        const values = f(h, r, opt) as ArrayLike<unknown>;
        if (values === null || typeof values !== "object" || values.length !== h.length) {
          throw new InvalidArgumentError(`${spec.name} must return one value per hypothesis`, { argument: spec.name });
        }
        for (let i = 0; i < h.length; i++) take(values[i], out, i * width);
      } else {
        for (let i = 0; i < h.length; i++) {
          const value =
            call === "pair" ? f(h[i], r[i], opt, rows?.[i]) : f({ response: h[i], target: r[i]![0], metadata: {}, config: opt });
          take(value, out, i * width);
        }
      }
      return out;
    },
    rowValues: (stats) => stats.slice(),
    corpusScores: (sums, k, count) =>
      meanColumns(
        sums,
        k,
        width,
        Array.from({ length: width }, (_, c) => c),
        count,
      ),
    corpusDetails(sum, count) {
      const d: Record<string, number> = {};
      columns.forEach((c, j) => (d[c] = count > 0 ? sum[j]! / count : 0));
      return d;
    },
    signature: (nrefs, tool) =>
      `${spec.name}|nrefs:${nrefs}|module:${spec.module}#${spec.export}|call:${call}` +
      `|options:${stableJson(opt)}|version:${spec.version ?? "unversioned"}` +
      `|agg:mean${tool ? `|${tool}` : ""}`,
  };
}
