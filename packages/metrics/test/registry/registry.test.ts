// The metric registry: names and aliases, option schemas with typed errors, numbers equal to the
// kernels' per-call functions, signatures, plug-in registration, and the README's examples.
import {
  InvalidArgumentError,
  corpusBleu,
  corpusChrf,
  kernelSignature,
  ready,
  rougeScore,
  sentenceBleu,
  sentenceChrf,
  tokenF1,
} from "@evalkern/core-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import readme from "../../README.md?raw";
import { f1Token } from "../../src/byob/index.js";
import { EM } from "../../src/dspy/answers.js";
import * as registry from "../../src/registry/index.js";
import * as pairRules from "../../src/registry/pair-rules.js";
import * as byob from "../../src/byob/index.js";
import * as promptfoo from "../../src/promptfoo/index.js";
import {
  MetricNotLoadedError,
  MetricOptionError,
  UnknownOptionError,
  UnknownMetricError,
  createMetric,
  getMetric,
  lexicalMetric,
  listMetrics,
  metricSpec,
  normalizeMetricSpec,
  loadMetrics,
  registerMetric,
  ruleMetric,
  type RuleEntry,
} from "../../src/registry/index.js";
import { PAIRS } from "./pairs.js";

beforeAll(async () => {
  await ready();
  await loadMetrics();
});

const hyps = PAIRS.map((p) => p[0]);
const refs = PAIRS.map((p) => p[1]);

describe("registry: names", () => {
  it("lists every kernel metric and the pair rules the CLI offers, in help order", () => {
    const names = listMetrics().map((m) => m.name);
    expect(names.slice(0, 13)).toEqual([
      "bleu",
      "chrf",
      "chrf++",
      "ter",
      "rouge",
      "rouge1",
      "rouge2",
      "rougeL",
      "rougeLsum",
      "f1",
      "hotpot-f1",
      "em",
      "levenshtein",
    ]);
    for (const n of [
      "answer-exact-match",
      "byob-f1",
      "byob-bleu",
      "gsm8k",
      "evalwire-regex",
      "evalwire-numeric",
      "numeric-diff",
      "json-diff",
    ])
      expect(names).toContain(n);
    expect(new Set(names).size).toBe(names.length);
  });

  it("resolves aliases to one canonical entry", () => {
    expect(getMetric("tokenF1")).toBe(getMetric("f1"));
    expect(getMetric("exactMatch")).toBe(getMetric("em"));
    expect(lexicalMetric("tokenF1").metric).toBe("f1");
  });

  it("an unknown name is a typed error with a did-you-mean", () => {
    const e = (() => {
      try {
        getMetric("rogue");
      } catch (err) {
        return err;
      }
    })() as UnknownMetricError;
    expect(e).toBeInstanceOf(UnknownMetricError);
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.code).toBe("UNKNOWN_METRIC");
    expect(e.suggestion).toBe("rouge");
    expect(e.message).toContain('did you mean "rouge"');
  });

  it("scale, direction, headline and corpus columns", () => {
    expect(getMetric("bleu").scale).toBe(100);
    expect(getMetric("chrf++").scale).toBe(100);
    expect(getMetric("rouge").scale).toBe(1);
    // every rule metric is higher-is-better but TER, an error rate, and promptfoo's measured costs
    const lowerIsBetter = new Set(["ter", "perplexity", "cost", "latency"]);
    for (const m of listMetrics()) expect(m.higherIsBetter, m.name).toBe(!lowerIsBetter.has(m.name));
    expect(lexicalMetric("rouge").headline).toBe("rougeL");
    expect(lexicalMetric("rouge", { types: ["rouge1", "rouge2"] }).headline).toBe("rouge1");
    expect(lexicalMetric("rouge", {}, "r").headline).toBe("r.rougeL");
    expect(lexicalMetric("rougeL").columns).toEqual(["rougeL"]);
    expect(lexicalMetric("byob-f1").headline).toBe("byob-f1.f1");
    expect(lexicalMetric("byob-bleu").headline).toBe("byob-bleu.bleu_4");
    expect(lexicalMetric("f1").corpusColumns).toEqual([0]);
    expect(lexicalMetric("bleu").corpusColumns).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lexicalMetric("rouge").corpusColumns).toEqual([2, 5, 8, 11]);
  });
});

describe("registry: options", () => {
  const error = (f: () => unknown): MetricOptionError & UnknownOptionError => {
    try {
      f();
    } catch (e) {
      return e as MetricOptionError & UnknownOptionError;
    }
    throw new Error("no error");
  };

  it("unknown or misspelled keys name the metric and the key, with a did-you-mean", () => {
    const e = error(() => lexicalMetric("bleu", { tokenise: "intl" }));
    expect(e).toBeInstanceOf(UnknownOptionError);
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect([e.code, e.metric, e.key, e.suggestion]).toEqual(["UNKNOWN_OPTION", "bleu", "tokenise", "tokenize"]);
    expect(e.message).toContain('bleu: unknown option "tokenise" (did you mean "tokenize"?)');
    expect(error(() => lexicalMetric("em", { x: 1 })).message).toContain("known options: none");
    // aliases report the canonical name; presets their own schema
    expect(error(() => lexicalMetric("tokenF1", { hotpott: true })).metric).toBe("f1");
    expect(error(() => lexicalMetric("rougeL", { types: ["rouge1"] })).key).toBe("types");
    expect(error(() => lexicalMetric("answer-exact-match", { fraction: 0.5 })).suggestion).toBeUndefined();
  });

  it("wrong types and values are MetricOptionErrors (INVALID_OPTION)", () => {
    expect(error(() => lexicalMetric("bleu", { lowercase: "yes" }))).toMatchObject({
      code: "INVALID_OPTION",
      metric: "bleu",
      key: "lowercase",
    });
    expect(error(() => lexicalMetric("bleu", { lowercase: "yes" }))).toBeInstanceOf(MetricOptionError);
    expect(error(() => lexicalMetric("bleu", { tokenize: "13b" })).message).toContain('did you mean "13a"');
    expect(error(() => lexicalMetric("chrf", { charOrder: 2.5 })).key).toBe("charOrder");
    expect(error(() => lexicalMetric("f1", { mode: "nemo" })).key).toBe("mode");
    expect(error(() => lexicalMetric("rouge", { types: ["rougeX"] })).key).toBe("types");
    expect(error(() => lexicalMetric("evalwire-numeric", { atol: "0.1" })).key).toBe("atol");
    expect(error(() => lexicalMetric("f1", { mode: "byob", hotpot: true })).key).toBe("hotpot");
    // ranges stay with the kernels
    expect(() => lexicalMetric("chrf", { wordOrder: -1 })).toThrow(InvalidArgumentError);
  });

  it("specs: as written by callers, then normalized with defaults", () => {
    expect(metricSpec("chrf++")).toEqual({ metric: "chrf", name: "chrf++", options: { wordOrder: 2 } });
    expect(metricSpec("rougeL", { useStemmer: true })).toEqual({
      metric: "rouge",
      name: "rougeL",
      options: { useStemmer: true, types: ["rougeL"] },
    });
    expect(metricSpec("f1", { mode: "byob" }, "nemo_f1")).toEqual({ metric: "tokenF1", name: "nemo_f1", options: { mode: "byob" } });
    expect(normalizeMetricSpec({ metric: "f1", name: "f1" })).toEqual({
      metric: "tokenF1",
      name: "f1",
      options: { mode: "dspy", hotpot: false },
    });
    expect(normalizeMetricSpec({ metric: "rouge", name: "rouge" })).toEqual({
      metric: "rouge",
      name: "rouge",
      options: { types: ["rouge1", "rouge2", "rougeL", "rougeLsum"], useStemmer: false },
    });
    expect(metricSpec("byob-f1")).toEqual({
      metric: "module",
      name: "byob-f1",
      module: "@evalkern/metrics/byob",
      export: "f1Token",
      call: "byob",
      columns: ["f1", "precision", "recall"],
      options: {},
      version: "@evalkern/metrics@0.1.0",
    });
    expect(metricSpec("json-diff")).toMatchObject({
      metric: "module",
      module: "@evalkern/metrics/registry/rules",
      export: "jsonDiff",
      call: "pair",
    });
    // the module a rule spec names exports the function it names
    const modules: Record<string, Record<string, unknown>> = {
      "@evalkern/metrics/registry/rules": pairRules,
      "@evalkern/metrics/byob": byob,
      "@evalkern/metrics/promptfoo": promptfoo,
    };
    let rules = 0;
    for (const m of listMetrics()) {
      const s = metricSpec(m.name);
      if (s.metric !== "module" || m.name.startsWith("test-")) continue;
      rules++;
      expect(typeof modules[s.module!]![s.export!], `${m.name}: ${s.module}#${s.export}`).toBe("function");
    }
    expect(rules).toBe(43); // 22 of DSPy, BYOB, evalwire and autoevals; 21 of promptfoo
  });

  it("every built-in rule loads from a group module, and that is the public module's own function", async () => {
    const modules: Record<string, Record<string, unknown>> = {
      "@evalkern/metrics/registry/rules": pairRules,
      "@evalkern/metrics/byob": byob,
      "@evalkern/metrics/promptfoo": promptfoo,
    };
    for (const m of listMetrics()) {
      const rule = m as Partial<RuleEntry>;
      if (!rule.target || m.name.startsWith("test-")) continue;
      // a group names a module of its own (registry/groups/<group>.ts): what loading the rule imports
      expect(rule.group, m.name).toMatch(/^[a-z][a-z0-9-]*$/);
      await rule.load!();
      expect(rule.loaded!(), m.name).toBe(modules[rule.target.module]![rule.target.export]);
    }
  });
});

describe("registry: numbers equal the kernels' per-call functions", () => {
  it("sentence and corpus BLEU / chrF / chrF++", () => {
    for (const [name, sentence, corpus] of [
      ["bleu", (h: string, r: string[]) => sentenceBleu(h, r).score, () => corpusBleu(hyps, refs).score],
      ["chrf", (h: string, r: string[]) => sentenceChrf(h, r).score, () => corpusChrf(hyps, refs).score],
      [
        "chrf++",
        (h: string, r: string[]) => sentenceChrf(h, r, { wordOrder: 2 }).score,
        () => corpusChrf(hyps, refs, { wordOrder: 2 }).score,
      ],
    ] as const) {
      const m = lexicalMetric(name);
      const stats = m.statistics(hyps, refs);
      const rows = m.rowValues(stats, hyps.length);
      hyps.forEach((h, i) => expect(rows[i], `${name} row ${i}`).toBe(sentence(h, refs[i]!)));
      const sums = new Float64Array(m.width);
      for (let i = 0; i < hyps.length; i++) for (let j = 0; j < m.width; j++) sums[j] = sums[j]! + stats[i * m.width + j]!;
      expect(m.corpusScores(sums, 1, hyps.length)[0]).toBe(corpus());
    }
  });

  it("ROUGE, token F1, EM and the BYOB rule", () => {
    const r = lexicalMetric("rouge", { useStemmer: true });
    const rows = r.rowValues(r.statistics(hyps, refs), hyps.length);
    hyps.forEach((h, i) => {
      const want = rougeScore(h, refs[i]!, { types: ["rouge1", "rouge2", "rougeL", "rougeLsum"], useStemmer: true }) as unknown as Record<
        string,
        { fmeasure: number }
      >;
      expect(Array.from(rows.subarray(4 * i, 4 * i + 4))).toEqual([
        want.rouge1!.fmeasure,
        want.rouge2!.fmeasure,
        want.rougeL!.fmeasure,
        want.rougeLsum!.fmeasure,
      ]);
    });
    const f = lexicalMetric("f1", { mode: "byob" });
    f.rowValues(f.statistics(hyps, refs), hyps.length).forEach((v, i) => expect(v).toBe(tokenF1(hyps[i]!, refs[i]!, { mode: "byob" }).f1));
    const em = lexicalMetric("em");
    em.rowValues(em.statistics(hyps, refs), hyps.length).forEach((v, i) => expect(v).toBe(EM(hyps[i]!, refs[i]!) ? 1 : 0));
    const b = lexicalMetric("byob-f1");
    const bs = b.statistics(hyps, refs);
    hyps.forEach((h, i) => {
      const d = f1Token({ response: h, target: refs[i]![0]!, metadata: {} }) as Record<string, number>;
      expect(Array.from(bs.subarray(3 * i, 3 * i + 3))).toEqual([d.f1, d.precision, d.recall]);
    });
  });

  it("signatures record every option and the kernel build, then the calling tool", () => {
    const k = kernelSignature();
    expect(lexicalMetric("rouge").signature(1, "harness:0.1.0")).toBe(
      `ROUGE|nrefs:1|types:rouge1,rouge2,rougeL,rougeLsum|stemmer:no` +
        `|tok:rouge-score-default|multiref:max-f|agg:mean|version:rouge-score-0.1.2|${k}|harness:0.1.0`,
    );
    expect(lexicalMetric("f1").signature("var")).toBe(`TokenF1|nrefs:var|mode:dspy|hotpot:no|multiref:max|agg:mean|${k}`);
    expect(lexicalMetric("chrf++").signature(2, "t")).toMatch(/^chrF2\+\+\|.*nc:6\|nw:2.*\|t$/);
    expect(lexicalMetric("byob-f1").signature(1, "harness:0.1.0")).toBe(
      "byob-f1|nrefs:1|module:@evalkern/metrics/byob#f1Token|call:byob|options:{}|version:@evalkern/metrics@0.1.0|agg:mean|harness:0.1.0",
    );
  });

  it("corpus scores take one count per row of sums", () => {
    const m = lexicalMetric("f1");
    const sums = Float64Array.of(1.5, 0, 0, 3, 0, 0);
    expect(Array.from(m.corpusScores(sums, 2, [3, 4]))).toEqual([0.5, 0.75]);
    expect(Array.from(m.corpusScores(sums, 2, 0))).toEqual([0, 0]);
  });
});

describe("registry: plug-ins", () => {
  it("registerMetric rejects taken names; createMetric builds module specs of registry rules in process", () => {
    expect(() => registerMetric({ ...getMetric("bleu"), aliases: [] })).toThrow(/taken/);
    expect(() => registerMetric({ ...getMetric("bleu"), name: "bleu2", aliases: ["tokenF1"] })).toThrow(/taken by f1/);
    const spec = metricSpec("gsm8k", {}, "g");
    const m = createMetric(spec);
    expect(m.columns).toEqual(["g.correct", "g.parsed"]);
    expect(m.metric).toBe("gsm8k");
  });

  it("a rule that loads on first use is a typed error before loadMetrics, and scores after", async () => {
    registerMetric(
      ruleMetric({
        name: "test-lazy",
        family: "evalkern",
        description: "loaded on first use",
        target: { module: "file:///nowhere/lazy.js", export: "one", call: "pair" },
        load: async () => () => 1,
      }),
    );
    expect(() => lexicalMetric("test-lazy")).toThrow(MetricNotLoadedError);
    expect(() => lexicalMetric("test-lazy")).toThrow('await loadMetrics(["test-lazy"])');
    await loadMetrics(["test-lazy"]);
    expect(Array.from(lexicalMetric("test-lazy").statistics(["a"], [["b"]]))).toEqual([1]);
  });

  it("a rule registered by a plug-in is listed and scores", () => {
    registerMetric(
      ruleMetric({
        name: "test-len",
        family: "evalkern",
        description: "hypothesis length",
        target: { module: "file:///nowhere/test-len.js", export: "len", call: "pair" },
        fn: (h: string) => h.length,
      }),
    );
    expect(listMetrics().at(-1)!.name).toBe("test-len");
    expect(listMetrics().some((m) => m.name === "test-lazy")).toBe(true);
    expect(Array.from(lexicalMetric("test-len").statistics(["ab", "c"], [["x"], ["y"]]))).toEqual([2, 1]);
  });
});

describe("README.md registry examples", () => {
  const fence = /```js\n([\s\S]*?)\n```\s*```text\n([\s\S]*?)\n```/g;
  const examples = [...readme.matchAll(fence)].map((m) => ({ code: m[1]!, expected: m[2]! }));
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;

  it("has the two registry examples", () => expect(examples.length).toBe(2));

  for (const [i, ex] of examples.entries()) {
    it(`example ${i + 1} prints what the README says`, async () => {
      const lines: string[] = [];
      const code = ex.code
        .replace(/^import \{([^}]*)\} from "@evalkern\/metrics\/registry";$/m, (_, names: string) => `const {${names}} = registry;`)
        .replace(/^export function /gm, "function ");
      const log = (...args: unknown[]) => lines.push(args.map(String).join(" "));
      await new AsyncFunction("registry", "console", code)(registry, { log });
      expect(lines.join("\n")).toBe(ex.expected);
    });
  }
});
