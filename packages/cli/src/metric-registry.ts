// The metric names the command line knows, each mapped to a bulk-scoring spec of @evalkern/harness:
// the harness's own kernels (BLEU, chrF, ROUGE, token F1, EM, Levenshtein) and every other rule metric
// of @evalkern/metrics that is a function of (hypothesis, references), as plug-in modules.
import type { MetricSpec } from "@evalkern/harness";
import { usageError } from "./errors.js";
import type { MetricArgument } from "./metric-options.js";

/** Output scale of a metric's scores: sacreBLEU's 0–100 or a 0–1 fraction. */
export type Scale = 100 | 1;

export interface MetricDefinition {
  readonly name: string;
  readonly family: "sacrebleu" | "rouge-score" | "dspy" | "nemo-byob" | "evalwire" | "autoevals" | "evalkern";
  readonly description: string;
  /** Option keys accepted after `name:` (besides `name=` to rename the output column). */
  readonly options: Readonly<Record<string, string>>;
  readonly scale: Scale;
  /** Column shown as the metric's `score` when it has several (ROUGE → rougeL). */
  readonly headline?: string;
  /** The harness spec; `name` is the output key. */
  spec(options: Readonly<Record<string, unknown>>, name: string): MetricSpec;
}

function adaptersUrl(): string {
  // tests import the TypeScript sources, which worker threads cannot load: use the build then
  const here = import.meta.url;
  return (here.endsWith(".ts") ? new URL("../dist/metric-adapters.js", here) : new URL("./metric-adapters.js", here)).href;
}

const BLEU_OPTIONS = {
  tokenize: "13a (default) | intl | zh | char | none",
  lowercase: "true | false",
  smoothMethod: "exp (default) | floor | add-k | none",
  smoothValue: "number (floor / add-k)",
  maxNgramOrder: "integer (default 4)",
  effectiveOrder: "true | false (corpus level; rows always use sentence-BLEU's effective order)",
};
const CHRF_OPTIONS = {
  charOrder: "integer (default 6)",
  wordOrder: "integer (default 0; 2 = chrF++)",
  beta: "integer (default 2)",
  lowercase: "true | false",
  whitespace: "true | false",
  epsSmoothing: "true | false",
};
const ROUGE_OPTIONS = { types: "list of rouge1..rouge9, rougeL, rougeLsum", useStemmer: "true | false (Porter stemmer)" };

const rougeSingle = (type: string): MetricDefinition => ({
  name: type,
  family: "rouge-score",
  description: `${type.replace("rouge", "ROUGE-")} F-measure (rouge-score, max over references)`,
  options: { useStemmer: ROUGE_OPTIONS.useStemmer },
  scale: 1,
  spec: (o, name) => ({ metric: "rouge", name, options: { ...o, types: [type] } as never }),
});

const module = (
  name: string,
  family: MetricDefinition["family"],
  description: string,
  target: { module?: string; export: string; call: "pair" | "byob"; columns?: readonly string[] },
  extra: Partial<Pick<MetricDefinition, "options" | "headline">> = {},
): MetricDefinition => ({
  name,
  family,
  description,
  options: extra.options ?? {},
  scale: 1,
  ...(extra.headline ? { headline: extra.headline } : {}),
  spec: (o, outName) => ({
    metric: "module",
    name: outName,
    module: target.module ?? adaptersUrl(),
    export: target.export,
    call: target.call,
    ...(target.columns ? { columns: target.columns } : {}),
    options: o,
    version: "@evalkern/metrics@0.1.0",
  }),
});

const BYOB = "@evalkern/metrics/byob";

const DEFINITIONS: readonly MetricDefinition[] = [
  {
    name: "bleu",
    family: "sacrebleu",
    description: "sacreBLEU BLEU (corpus score from summed statistics; rows: sentence BLEU)",
    options: BLEU_OPTIONS,
    scale: 100,
    spec: (o, name) => ({ metric: "bleu", name, options: o as never }),
  },
  {
    name: "chrf",
    family: "sacrebleu",
    description: "sacreBLEU chrF (wordOrder=2 gives chrF++)",
    options: CHRF_OPTIONS,
    scale: 100,
    spec: (o, name) => ({ metric: "chrf", name, options: o as never }),
  },
  {
    name: "chrf++",
    family: "sacrebleu",
    description: "sacreBLEU chrF++ (chrF with word bigrams)",
    options: CHRF_OPTIONS,
    scale: 100,
    spec: (o, name) => ({ metric: "chrf", name, options: { wordOrder: 2, ...o } as never }),
  },
  {
    name: "rouge",
    family: "rouge-score",
    description: "rouge-score ROUGE-1/2/L/Lsum F-measures (score = ROUGE-L)",
    options: ROUGE_OPTIONS,
    scale: 1,
    headline: "rougeL",
    spec: (o, name) => ({ metric: "rouge", name, options: o as never }),
  },
  rougeSingle("rouge1"),
  rougeSingle("rouge2"),
  rougeSingle("rougeL"),
  rougeSingle("rougeLsum"),
  {
    name: "f1",
    family: "dspy",
    description: "token F1 (DSPy / SQuAD normalisation; mode=byob for NeMo's), max over references",
    options: { mode: "dspy (default) | byob", hotpot: "true | false (HotPotQA yes/no/noanswer rule)" },
    scale: 1,
    spec: (o, name) => ({ metric: "tokenF1", name, options: o as never }),
  },
  {
    name: "hotpot-f1",
    family: "dspy",
    description: "DSPy HotPotF1 (token F1 with HotPotQA's yes/no/noanswer rule)",
    options: {},
    scale: 1,
    spec: (_o, name) => ({ metric: "tokenF1", name, options: { hotpot: true } }),
  },
  {
    name: "em",
    family: "dspy",
    description: "DSPy exact match after normalize_text, any reference",
    options: {},
    scale: 1,
    spec: (_o, name) => ({ metric: "exactMatch", name }),
  },
  {
    name: "levenshtein",
    family: "autoevals",
    description: "Levenshtein similarity over code points (autoevals), best reference",
    options: {},
    scale: 1,
    spec: (_o, name) => ({ metric: "levenshtein", name }),
  },
  module("answer-exact-match", "dspy", "DSPy answer_exact_match (frac < 1: token F1 ≥ frac)", { export: "answerExactMatch", call: "pair" }, { options: { frac: "number in (0, 1] (default 1)" } }),
  module("answer-passage-match", "dspy", "DSPy answer_passage_match (a reference occurs in the hypothesis as a passage)", { export: "answerPassageMatch", call: "pair" }),
  module("byob-exact-match", "nemo-byob", "NeMo BYOB exact_match (first reference as target)", { module: BYOB, export: "exactMatch", call: "byob", columns: ["correct"] }),
  module("byob-contains", "nemo-byob", "NeMo BYOB contains", { module: BYOB, export: "contains", call: "byob", columns: ["correct"] }),
  module("byob-f1", "nemo-byob", "NeMo BYOB f1_token (f1, precision, recall)", { module: BYOB, export: "f1Token", call: "byob", columns: ["f1", "precision", "recall"] }, { headline: "f1" }),
  module("byob-regex", "nemo-byob", "NeMo BYOB regex_match (the reference is the pattern)", { module: BYOB, export: "regexMatch", call: "byob", columns: ["correct"] }),
  module("byob-bleu", "nemo-byob", "NeMo BYOB bleu (bleu_1..bleu_4)", { module: BYOB, export: "bleu", call: "byob", columns: ["bleu_1", "bleu_2", "bleu_3", "bleu_4"] }, { headline: "bleu_4" }),
  module("byob-rouge", "nemo-byob", "NeMo BYOB rouge (rouge_1, rouge_2, rouge_l)", { module: BYOB, export: "rouge", call: "byob", columns: ["rouge_1", "rouge_2", "rouge_l"] }, { headline: "rouge_l" }),
  module("byob-chrf", "nemo-byob", "NeMo BYOB chrf (chrf, chrf_pp)", { module: BYOB, export: "chrf", call: "byob", columns: ["chrf", "chrf_pp"] }, { headline: "chrf" }),
  module("mcq-letter", "nemo-byob", "NeMo BYOB mcq_letter_extract (correct, parsed)", { module: BYOB, export: "mcqLetterExtract", call: "byob", columns: ["correct", "parsed"] }, { headline: "correct" }),
  module("gsm8k", "nemo-byob", "NeMo BYOB gsm8k_answer (correct, parsed)", { module: BYOB, export: "gsm8kAnswer", call: "byob", columns: ["correct", "parsed"] }, { headline: "correct" }),
  module("yes-no", "nemo-byob", "NeMo BYOB boolean_yesno (correct, parsed)", { module: BYOB, export: "booleanYesno", call: "byob", columns: ["correct", "parsed"] }, { headline: "correct" }),
  module("evalwire-exact-match", "evalwire", "evalwire exact_match (first reference, Python equality)", { export: "evalwireExactMatch", call: "pair" }),
  module("evalwire-contains", "evalwire", "evalwire contains (first reference in the hypothesis)", { export: "evalwireContains", call: "pair" }),
  module("evalwire-membership", "evalwire", "evalwire is_in (the hypothesis is one of the references)", { export: "evalwireMembership", call: "pair" }),
  module("evalwire-regex", "evalwire", "evalwire regex_match (first reference as a Python regex)", { export: "evalwireRegex", call: "pair" }),
  module("evalwire-json-match", "evalwire", "evalwire json_match (share of matching keys)", { export: "evalwireJsonMatch", call: "pair" }, { options: { keys: "list of keys (default: the reference's keys)" } }),
  module("evalwire-numeric", "evalwire", "evalwire numeric_close (|h − r| ≤ atol + rtol·|r|)", { export: "evalwireNumericTolerance", call: "pair" }, { options: { atol: "number (default 1e-6)", rtol: "number (default 0)" } }),
  module("numeric-diff", "autoevals", "autoevals NumericDiff (hypothesis and references read as numbers)", { export: "numericDiff", call: "pair" }),
  module("json-diff", "autoevals", "autoevals JSONDiff (hypothesis and references parsed as JSON)", { export: "jsonDiff", call: "pair" }),
];

const BY_NAME = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** Every metric `--metric` accepts, in help order. */
export function metricDefinitions(): readonly MetricDefinition[] {
  return DEFINITIONS;
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

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

function closest(name: string): string | undefined {
  const lower = name.toLowerCase().replace(/[-_]/g, "");
  let best: { name: string; d: number } | undefined;
  for (const d of DEFINITIONS) {
    const dist = editDistance(lower, d.name.toLowerCase().replace(/[-_]/g, ""));
    if (dist <= 2 && (!best || dist < best.d)) best = { name: d.name, d: dist };
  }
  return best?.name;
}

/** Check a parsed `--metric` against the registry and build its spec (option values are checked by the harness). */
export function resolveMetric(arg: MetricArgument): ResolvedMetric {
  const definition = BY_NAME.get(arg.name);
  if (!definition) {
    const hint = closest(arg.name);
    throw usageError(
      `unknown metric ${JSON.stringify(arg.name)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ""}; known metrics: ${DEFINITIONS.map((d) => d.name).join(", ")} (see evalkern score --help)`,
    );
  }
  const options: Record<string, unknown> = {};
  let name = definition.name;
  for (const [key, value] of Object.entries(arg.options)) {
    if (key === "name") {
      if (typeof value !== "string" || !/^[A-Za-z_][\w+.-]*$/.test(value)) throw usageError(`--metric ${arg.raw}: name= must be a word (letters, digits, _ - + .)`);
      name = value;
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(definition.options, key)) {
      const keys = Object.keys(definition.options);
      throw usageError(
        `--metric ${arg.raw}: ${definition.name} has no option ${JSON.stringify(key)}; ${keys.length ? `its options are ${keys.join(", ")}` : "it takes no options"} (and name=)`,
      );
    }
    options[key] = value;
  }
  if (definition.name === "rouge" && typeof options.types === "string") options.types = [options.types];
  return { definition, name, options, spec: definition.spec(options, name) };
}

/** Help text listing every metric and its options. */
export function metricsHelp(): string {
  const width = Math.max(...DEFINITIONS.map((d) => d.name.length));
  const lines = ["Metrics (--metric NAME[:key=value[:key=value...]], repeatable; rename with name=...):"];
  for (const d of DEFINITIONS) {
    lines.push(`  ${d.name.padEnd(width)}  ${d.description}`);
    for (const [k, v] of Object.entries(d.options)) lines.push(`  ${"".padEnd(width)}    ${k}=${v}`);
  }
  lines.push(`Default: ${DEFAULT_METRICS.join(", ")}.`);
  return lines.join("\n");
}
