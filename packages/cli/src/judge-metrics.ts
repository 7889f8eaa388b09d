// The judge metrics `evalkern judge --metric` knows: those of `@evalkern/judge/registry` (names, option
// help, checks and the metrics themselves come from there). This file only adds the command line's
// messages, `name=` renaming and the run signature. Cheap at import (for --help): the registry loads
// the metric classes only when a run creates its metrics.
import type { JudgeModel } from "@evalkern/judge";
import { checkJudgeMetricOptions, createJudgeMetric, findJudgeMetric, listJudgeMetrics, type JudgeCase } from "@evalkern/judge/registry";
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { didYouMean } from "@evalkern/metrics/registry";
import { usageError } from "./errors.js";
import type { MetricArgument } from "./metric-options.js";

export type { JudgeCase };

export interface JudgeOutcome {
  readonly score: number | null;
  readonly success: boolean | null;
  readonly reason: string | null;
  /** How the judge reached the score: structured, repaired-and-re-asked, logprob-weighted or raw-score. */
  readonly scoringPath: string | null;
}

/** A ready judge metric: measure one case (throws on failure; one call per case, safe to run concurrently). */
export interface JudgeRunner {
  readonly name: string;
  readonly higherIsBetter: boolean;
  readonly threshold: number | null;
  /** Every option, the model and the prompt family. */
  readonly signature: string;
  /** The test-case fields the metric reads (the registry's). */
  readonly fields: readonly (keyof JudgeCase)[];
  measure(c: JudgeCase, signal?: AbortSignal): Promise<JudgeOutcome>;
}

export function judgeMetricNames(): string[] {
  return listJudgeMetrics().map((d) => d.name);
}

export function judgeMetricsHelp(): string {
  const definitions = listJudgeMetrics();
  const width = Math.max(...definitions.map((d) => d.name.length));
  const lines = ["Judge metrics (evalkern judge --metric NAME[:key=value...]):"];
  for (const d of definitions) {
    lines.push(`  ${d.name.padEnd(width)}  ${d.description}`);
    for (const [k, v] of Object.entries(d.options)) lines.push(`  ${"".padEnd(width)}    ${k}=${v.help}`);
  }
  lines.push("Rows: input, actual_output, expected_output, context (list), retrieval_context (list); camelCase names work too.");
  return lines.join("\n");
}

/** The metric's own options of a `--metric` (without `name=` / `as=`, which rename the output key). */
function metricOptions(arg: MetricArgument): Record<string, unknown> {
  const { as: _as, name: _name, ...options } = arg.options as Record<string, unknown>;
  return options;
}

/** Check a `--metric` of `evalkern judge` (names and option keys) before anything is loaded. */
export function checkJudgeMetric(arg: MetricArgument): void {
  const d = findJudgeMetric(arg.name);
  if (!d) {
    const hint = didYouMean(arg.name, judgeMetricNames());
    throw usageError(
      `unknown judge metric ${JSON.stringify(arg.name)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}; ` +
        `known: ${judgeMetricNames().join(", ")} (rule metrics such as bleu belong to \`evalkern score\`)`,
    );
  }
  if (arg.options.as !== undefined && arg.options.name !== undefined) {
    throw usageError(`--metric ${arg.raw}: give name= only (as= is its deprecated spelling)`);
  }
  for (const key of ["name", "as"]) {
    const v = arg.options[key];
    if (v !== undefined && (typeof v !== "string" || !/^[A-Za-z_][\w+.-]*$/.test(v))) {
      throw usageError(`--metric ${arg.raw}: ${key}= must be a word (letters, digits, _ - + .)`);
    }
  }
  try {
    checkJudgeMetricOptions(d.name, metricOptions(arg));
  } catch (e) {
    if (e instanceof InvalidArgumentError) throw usageError(`--metric ${arg.raw}: ${e.message}`);
    throw e;
  }
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${k}:${stable((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return String(value);
}

/** Build a runner for one `--metric` with the judge module's `withMetricTag` and the model. */
export async function createJudgeRunner(
  judge: { withMetricTag(model: JudgeModel, metric: string): JudgeModel },
  model: JudgeModel,
  arg: MetricArgument,
  version: string,
): Promise<JudgeRunner> {
  checkJudgeMetric(arg);
  const d = findJudgeMetric(arg.name)!;
  // name= renames the output key (as in `score`); as= is its deprecated spelling. G-Eval's own `name`
  // option is the same name, so it is passed on to G-Eval too.
  const alias = (arg.options.name ?? arg.options.as) as string | undefined;
  const options = metricOptions(arg);
  if (d.name === "g-eval" && typeof arg.options.name === "string") options.name = arg.options.name;
  const name = alias ?? d.name;
  let metric: Awaited<ReturnType<typeof createJudgeMetric>>;
  try {
    metric = await createJudgeMetric(d.name, judge.withMetricTag(model, name), options);
  } catch (e) {
    throw usageError(`--metric ${arg.raw}: ${(e as Error).message}`);
  }
  return {
    name,
    higherIsBetter: d.higherIsBetter,
    threshold: metric.threshold,
    signature: `${d.name}|options:${stable(options)}|model:${model.name}|prompts:${d.family}|judge:@evalkern/judge@${version}`,
    fields: d.fields,
    measure: (c, signal) => metric.measure(c, signal ? { signal } : {}),
  };
}
