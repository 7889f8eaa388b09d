// Bulk scoring builds every metric from the @evalkern/metrics registry by name and options: canonical
// names, aliases, presets and the pair-callable rules (run in worker threads without importing anything
// of the CLI), with the registry's typed option errors before any work starts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ready } from "@evalkern/core-wasm";
import {
  BUILTIN_METRIC_NAMES,
  MetricOptionError,
  UnknownMetricError,
  UnknownOptionError,
  getMetric,
  lexicalMetric,
  loadMetrics,
  registerMetric,
  ruleMetric,
} from "@evalkern/metrics/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { scoreFile, type MetricName } from "../src/index.js";
import { makePairs, readJsonl, tempDir } from "./helpers.js";

let dir: string;
let pairsPath: string;
let pairs: { id: string; hyp: string; refs: string[] }[];

beforeAll(async () => {
  await ready();
  await loadMetrics();
  dir = tempDir();
  pairsPath = makePairs(dir, 3, 400);
  pairs = readJsonl(readFileSync(pairsPath, "utf8")) as typeof pairs;
});

describe("scoreFile: metrics from the registry", () => {
  it("canonical names, aliases, presets and rule metrics score in workers as the registry does in process", async () => {
    const output = join(dir, "registry.jsonl");
    const summary = await scoreFile({
      input: pairsPath,
      output,
      metrics: [
        "f1",
        "em",
        "hotpot-f1",
        "exactMatch",
        "byob-f1",
        { metric: "answer-exact-match", name: "aem", options: { frac: 0.5 } },
        "evalwire-contains",
      ],
      fields: { hypothesis: "hyp", references: "refs", id: "id" },
      workers: 2,
      chunkBytes: 8 << 10,
      bootstrap: false,
    });
    expect(summary.rows.bad).toBe(0);
    expect(summary.metricSpecs.map((s) => [s.metric, s.name])).toEqual([
      ["tokenF1", "f1"],
      ["exactMatch", "em"],
      ["tokenF1", "hotpot-f1"],
      ["exactMatch", "exactMatch"],
      ["module", "byob-f1"],
      ["module", "aem"],
      ["module", "evalwire-contains"],
    ]);
    expect(summary.metricSpecs[5]).toMatchObject({ module: "@evalkern/metrics/registry/rules", export: "answerExactMatch" });
    const rows = readJsonl(readFileSync(output, "utf8"));
    const h = pairs.map((p) => p.hyp);
    const r = pairs.map((p) => p.refs);
    for (const [metric, options, name, column] of [
      ["f1", {}, "f1", "f1"],
      ["hotpot-f1", {}, "hotpot-f1", "hotpot-f1"],
      ["em", {}, "em", "em"],
      ["byob-f1", {}, "byob-f1", "byob-f1.recall"],
      ["answer-exact-match", { frac: 0.5 }, "aem", "aem"],
      ["evalwire-contains", {}, "evalwire-contains", "evalwire-contains"],
    ] as const) {
      const m = lexicalMetric(metric, options, name);
      const values = m.rowValues(m.statistics(h, r), h.length);
      const c = m.columns.indexOf(column);
      rows.forEach((row, i) => expect(row[column], `${column} row ${i}`).toBe(values[i * m.columns.length + c]));
    }
    expect(summary.metrics["byob-f1"]!.signature).toMatch(
      new RegExp(
        "^byob-f1\\|nrefs:(\\d+|var)\\|module:@evalkern/metrics/byob#f1Token\\|call:byob\\|options:\\{\\}" +
          "\\|version:@evalkern/metrics@0\\.1\\.0\\|agg:mean\\|harness:",
      ),
    );
  });

  it("unknown metrics and misspelled or mistyped options are typed errors before any work", async () => {
    const base = { input: pairsPath, output: join(dir, "bad.jsonl"), fields: { hypothesis: "hyp", references: "refs" } };
    await expect(scoreFile({ ...base, metrics: ["tokenF2"] })).rejects.toBeInstanceOf(UnknownMetricError);
    const e = await scoreFile({ ...base, metrics: [{ metric: "chrf", options: { word_order: 2 } }] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnknownOptionError);
    expect(e).toMatchObject({
      code: "UNKNOWN_OPTION",
      metric: "chrf",
      key: "word_order",
      suggestion: "wordOrder",
      argument: "metrics[0].options.word_order",
    });
    await expect(scoreFile({ ...base, metrics: [{ metric: "rouge", options: { useStemmer: "yes" } }] })).rejects.toBeInstanceOf(
      MetricOptionError,
    );
    await expect(scoreFile({ ...base, metrics: [{ metric: "rouge", options: { useStemmer: "yes" } }] })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      key: "useStemmer",
    });
    await expect(scoreFile({ ...base, metrics: [{ metric: "gsm8k", options: { x: 1 } }] })).rejects.toMatchObject({
      code: "UNKNOWN_OPTION",
      metric: "gsm8k",
    });
  });

  it("plug-ins: a rule metric runs in workers through its module spec; a metric registered only in this thread is refused", async () => {
    const module = new URL("./fixtures/starts-with.mjs", import.meta.url).href;
    const { startsWithReference } = (await import(module)) as { startsWithReference: (h: string, r: string[]) => boolean };
    registerMetric(
      ruleMetric({
        name: "plug-prefix",
        family: "evalkern",
        description: "prefix",
        target: { module, export: "startsWithReference", call: "pair" },
        fn: startsWithReference,
      }),
    );
    const output = join(dir, "plugin.jsonl");
    const summary = await scoreFile({
      input: pairsPath,
      output,
      metrics: ["plug-prefix"],
      fields: { hypothesis: "hyp", references: "refs" },
      workers: 2,
      bootstrap: false,
    });
    const rows = readJsonl(readFileSync(output, "utf8"));
    rows.forEach((row, i) => expect(row["plug-prefix"]).toBe(pairs[i]!.refs.some((r) => pairs[i]!.hyp.startsWith(r)) ? 1 : 0));
    expect(summary.metrics["plug-prefix"]!.signature).toContain(`module:${module}#startsWithReference|call:pair`);

    // a preset of a built-in (its spec names the built-in) runs; a metric with its own implementation does not
    registerMetric({ ...getMetric("levenshtein"), name: "lev-preset", aliases: [] });
    await scoreFile({
      input: pairsPath,
      output: join(dir, "preset.jsonl"),
      metrics: ["lev-preset"],
      fields: { hypothesis: "hyp", references: "refs" },
      bootstrap: false,
    });
    registerMetric({
      ...getMetric("levenshtein"),
      name: "thread-local-lev",
      aliases: [],
      spec: (_o, name) => ({ metric: "thread-local-lev", name, options: {} }),
    });
    const base = { input: pairsPath, output: join(dir, "local.jsonl"), fields: { hypothesis: "hyp", references: "refs" } };
    await expect(scoreFile({ ...base, metrics: ["thread-local-lev"] })).rejects.toThrow(
      /registered with registerMetric in this thread only/,
    );
  });
});

describe("MetricName", () => {
  it("derives from the registry's BUILTIN_METRIC_NAMES (TER included)", () => {
    const names: readonly MetricName[] = BUILTIN_METRIC_NAMES;
    const ter: Extract<MetricName, "ter"> = "ter";
    const hotpot: Extract<MetricName, "hotpot-f1"> = "hotpot-f1";
    expect([ter, hotpot].every((n) => names.includes(n))).toBe(true);
  });
});
