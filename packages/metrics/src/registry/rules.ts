// The pair-callable rule metrics of DSPy, NeMo BYOB, evalwire and autoevals that bulk scoring offers:
// each is a function of (hypothesis, references), run row by row. Their specs are `{ metric: "module" }`
// specs naming a public subpath of @evalkern/metrics (`/byob`, `/registry/rules`), so worker threads
// build them by name. Their modules load on first use (`load()`), one group at a time (`./groups/`), so
// importing the registry stays light and a rule loads only what its group needs.
import { callableMetric, type RuleFunction } from "./callable.js";
import type { LexicalMetric, MetricFamily, MetricInstance, MetricSpecJson } from "./contract.js";
import { MetricNotLoadedError } from "./errors.js";
import type { OptionSchemas } from "./options.js";
import { PACKAGE_VERSION } from "../version.generated.js";

/** The version recorded in the signatures of the rule metrics below (package.json's, at build time). */
export const RULES_VERSION = `@evalkern/metrics@${PACKAGE_VERSION}`;

/** Where a rule function lives publicly, and how it is called. */
export interface RuleTarget {
  readonly module: string;
  readonly export: string;
  readonly call: "pair" | "batch" | "byob";
  readonly columns?: readonly string[];
}

/** A registry entry of a rule function: where it lives, and the function once loaded. */
export interface RuleEntry extends LexicalMetric {
  readonly target: RuleTarget;
  /** The group whose module `load()` imports (`registry/groups/<group>.ts`); plug-in rules have none. */
  readonly group?: string;
  /** The function, once loaded in this thread. */
  loaded(): RuleFunction | undefined;
  load(): Promise<void>;
  /** Throws `MetricNotLoadedError` before `load()`. */
  create(spec: MetricSpecJson): MetricInstance;
}

/**
 * A rule metric from a function of (hypothesis, references): its specs are module specs naming `target`
 * (so worker threads can import it by name). Give the same function as `fn`, or `load` to import it on
 * first use (then `await loadMetrics([name])` before scoring in process).
 */
export function ruleMetric(init: {
  name: string;
  family: MetricFamily;
  description: string;
  target: RuleTarget;
  fn?: RuleFunction;
  load?: (() => Promise<RuleFunction>) & { readonly group?: string };
  options?: OptionSchemas;
  headline?: string;
  aliases?: readonly string[];
  /** Default true; false for rules whose value is a cost (promptfoo's `cost`, `latency`, `perplexity`). */
  higherIsBetter?: boolean;
}): RuleEntry {
  const { target } = init;
  let fn = init.fn;
  let loading: Promise<void> | undefined;
  const higherIsBetter = init.higherIsBetter ?? true;
  const extra = { metric: init.name, higherIsBetter, ...(init.headline ? { headline: init.headline } : {}) };
  return {
    name: init.name,
    ...(init.aliases ? { aliases: init.aliases } : {}),
    family: init.family,
    description: init.description,
    options: init.options ?? {},
    scale: 1,
    higherIsBetter,
    ...(init.headline ? { headline: init.headline } : {}),
    target,
    ...(init.load?.group ? { group: init.load.group } : {}),
    loaded: () => fn,
    load() {
      if (fn) return Promise.resolve();
      if (!init.load) return Promise.reject(new MetricNotLoadedError(init.name, `${init.name}: a rule metric needs fn or load`));
      return (loading ??= init.load().then((f) => {
        if (typeof f !== "function")
          throw new MetricNotLoadedError(init.name, `${init.name}: ${target.module} has no function ${target.export}`);
        fn = f;
      }));
    },
    spec: (options, name): MetricSpecJson => ({
      metric: "module",
      name,
      module: target.module,
      export: target.export,
      call: target.call,
      ...(target.columns ? { columns: target.columns } : {}),
      options: { ...options },
      version: RULES_VERSION,
    }),
    create(spec) {
      if (!fn)
        throw new MetricNotLoadedError(
          init.name,
          `${init.name} is not loaded in this thread: await loadMetrics(${JSON.stringify([init.name])}) first`,
        );
      return callableMetric(spec, fn, extra);
    },
  };
}

const RULES = "@evalkern/metrics/registry/rules";
const BYOB = "@evalkern/metrics/byob";
const pair = (exportName: string) => ({ module: RULES, export: exportName, call: "pair" as const });
const byob = (exportName: string, columns: readonly string[]) => ({ module: BYOB, export: exportName, call: "byob" as const, columns });

/**
 * A rule group: one module (`./groups/<group>.ts`) imported on the first use of any of its rules, so that
 * loading a rule fetches only its group. What a group imports is what every rule in it pays: the Python
 * `re` port (with re2js), the Unicode name table and `ast.literal_eval` stay in the groups that need them
 * (the browser bundle test checks which groups may hold them). `group(name, m)("fn")` is a `load` for `fn`.
 */
const group =
  <M extends object>(name: string, importGroup: () => Promise<M>) =>
  (exportName: keyof M & string) =>
    Object.assign((): Promise<RuleFunction> => importGroup().then((m) => m[exportName] as RuleFunction), { group: name });
const dspyGroup = group("dspy", () => import("./groups/dspy.js"));
const autoevalsGroup = group("autoevals", () => import("./groups/autoevals.js"));
const autoevalsJsonGroup = group("autoevals-json", () => import("./groups/autoevals-json.js"));
const evalwireGroup = group("evalwire", () => import("./groups/evalwire.js"));
const evalwireRegexGroup = group("evalwire-regex", () => import("./groups/evalwire-regex.js"));
const byobGroup = group("byob", () => import("./groups/byob.js"));
const byobRegexGroup = group("byob-regex", () => import("./groups/byob-regex.js"));
const PROMPTFOO = "@evalkern/metrics/promptfoo";
const promptfoo = (exportName: string) => ({ module: PROMPTFOO, export: exportName, call: "pair" as const });

// promptfoo's rules load by group, so the XML/HTML parsers and the SQL parser load only with their own rules
const promptfooTextGroup = group("promptfoo-text", () => import("./groups/promptfoo-text.js"));
const promptfooJsonGroup = group("promptfoo-json", () => import("./groups/promptfoo-json.js"));
const promptfooMarkupGroup = group("promptfoo-markup", () => import("./groups/promptfoo-markup.js"));
const promptfooSqlGroup = group("promptfoo-sql", () => import("./groups/promptfoo-sql.js"));

const VALUE = { type: "json", help: "promptfoo's assertion value (default: the references)" } as const;
const LIST = { value: { ...VALUE, help: "list of strings, or one comma-separated string (default: the references)" } } as const;
const SQL = {
  value: { ...VALUE, help: "{ databaseType, allowedTables, allowedColumns } (default: the first reference)" },
  databaseType: {
    type: "string",
    default: "MySQL",
    help: "node-sql-parser database: MySQL, PostgresQL, BigQuery, Sqlite, TransactSQL, ...",
  },
  dialect: { type: "string", help: "alias of databaseType" },
  allowedTables: { type: "string[]", help: "whitelist, node-sql-parser form: {type}::{db}::{table}, e.g. select::null::users" },
  allowedColumns: { type: "string[]", help: "whitelist, node-sql-parser form: {type}::{table}::{column}, e.g. select::users::name" },
} as const;
const XML = {
  value: { ...VALUE, help: "required elements: dotted paths, comma-separated or a list (default: the references)" },
  requiredElements: { type: "string[]", help: "as value" },
} as const;
const fromRow = (field: string) => `(from the row's ${field})`;

/** promptfoo's deterministic assertion types, under promptfoo's names (src/assertions/*.ts of promptfoo/promptfoo). */
const PROMPTFOO_RULES = [
  ruleMetric({
    name: "contains-any",
    family: "promptfoo",
    description: "promptfoo contains-any: the output contains one of the values",
    target: promptfoo("containsAny"),
    load: promptfooTextGroup("containsAny"),
    options: LIST,
  }),
  ruleMetric({
    name: "icontains-any",
    family: "promptfoo",
    description: "promptfoo icontains-any: contains-any ignoring case",
    target: promptfoo("icontainsAny"),
    load: promptfooTextGroup("icontainsAny"),
    options: LIST,
  }),
  ruleMetric({
    name: "contains-all",
    family: "promptfoo",
    description: "promptfoo contains-all: every value (all or nothing)",
    target: promptfoo("containsAll"),
    load: promptfooTextGroup("containsAll"),
    options: LIST,
  }),
  ruleMetric({
    name: "icontains-all",
    family: "promptfoo",
    description: "promptfoo icontains-all: contains-all ignoring case",
    target: promptfoo("icontainsAll"),
    load: promptfooTextGroup("icontainsAll"),
    options: LIST,
  }),
  ruleMetric({
    name: "starts-with",
    family: "promptfoo",
    description: "promptfoo starts-with: the output starts with the value",
    target: promptfoo("startsWith"),
    load: promptfooTextGroup("startsWith"),
    options: { value: VALUE },
  }),
  ruleMetric({
    name: "word-count",
    family: "promptfoo",
    description: "promptfoo word-count: whitespace-separated words equal the value, or lie in [min, max]",
    target: promptfoo("wordCount"),
    load: promptfooTextGroup("wordCount"),
    options: {
      value: { ...VALUE, help: "a number, or { min, max } (default: the first reference)" },
      min: { type: "integer", help: "at least" },
      max: { type: "integer", help: "at most" },
    },
  }),
  ruleMetric({
    name: "contains-json",
    family: "promptfoo",
    description: "promptfoo contains-json: a JSON object/array in the output (conforming to a JSON schema when given)",
    target: promptfoo("containsJson"),
    load: promptfooJsonGroup("containsJson"),
    options: {
      value: { ...VALUE, help: "JSON schema (default: the first reference, if any)" },
      schema: { type: "json", help: "as value" },
    },
  }),
  ruleMetric({
    name: "is-xml",
    family: "promptfoo",
    description: "promptfoo is-xml: the output is well-formed XML with the required elements",
    target: promptfoo("isXml"),
    load: promptfooMarkupGroup("isXml"),
    options: XML,
  }),
  ruleMetric({
    name: "contains-xml",
    family: "promptfoo",
    description: "promptfoo contains-xml: an XML element in the output, with the required elements",
    target: promptfoo("containsXml"),
    load: promptfooMarkupGroup("containsXml"),
    options: XML,
  }),
  ruleMetric({
    name: "is-html",
    family: "promptfoo",
    description: "promptfoo is-html: the output is HTML (parse5)",
    target: promptfoo("isHtml"),
    load: promptfooMarkupGroup("isHtml"),
  }),
  ruleMetric({
    name: "contains-html",
    family: "promptfoo",
    description: "promptfoo contains-html: the output has HTML in it",
    target: promptfoo("containsHtml"),
    load: promptfooMarkupGroup("containsHtml"),
  }),
  ruleMetric({
    name: "is-sql",
    family: "promptfoo",
    description: "promptfoo is-sql: the output is SQL of the dialect (node-sql-parser, optional peer)",
    target: promptfoo("isSql"),
    load: promptfooSqlGroup("isSql"),
    options: SQL,
  }),
  ruleMetric({
    name: "contains-sql",
    family: "promptfoo",
    description: "promptfoo contains-sql: is-sql on the output's ```sql block, else the output",
    target: promptfoo("containsSql"),
    load: promptfooSqlGroup("containsSql"),
    options: SQL,
  }),
  ruleMetric({
    name: "is-valid-openai-function-call",
    family: "promptfoo",
    description: "promptfoo is-valid-openai-function-call: a call of a declared function, arguments valid",
    target: promptfoo("isValidOpenaiFunctionCall"),
    load: promptfooJsonGroup("isValidOpenaiFunctionCall"),
    options: {
      functions: { type: "json", help: "the functions offered: [{ name, parameters }]" },
      value: { ...VALUE, help: "as functions" },
    },
  }),
  ruleMetric({
    name: "is-valid-openai-tools-call",
    family: "promptfoo",
    description: "promptfoo is-valid-openai-tools-call: calls of declared tools, arguments valid",
    target: promptfoo("isValidOpenaiToolsCall"),
    load: promptfooJsonGroup("isValidOpenaiToolsCall"),
    options: {
      tools: { type: "json", help: 'the tools offered: [{ type: "function", function: { name, parameters } }]' },
      value: { ...VALUE, help: "as tools" },
    },
  }),
  ruleMetric({
    name: "is-refusal",
    family: "promptfoo",
    description: "promptfoo is-refusal: the output refuses (or is empty)",
    target: promptfoo("isRefusal"),
    load: promptfooTextGroup("isRefusal"),
  }),
  ruleMetric({
    name: "finish-reason",
    family: "promptfoo",
    description: `promptfoo finish-reason: the finish reason equals the value, ignoring case ${fromRow("finishReason")}`,
    target: promptfoo("finishReason"),
    load: promptfooTextGroup("finishReason"),
    options: { value: { ...VALUE, help: "stop, length, tool_calls, content_filter, ... (default: the first reference)" } },
  }),
  ruleMetric({
    name: "perplexity",
    family: "promptfoo",
    description: `promptfoo perplexity: exp(−mean logprob), lower is better ${fromRow("logprobs")}`,
    target: promptfoo("perplexity"),
    load: promptfooTextGroup("perplexity"),
    higherIsBetter: false,
  }),
  ruleMetric({
    name: "perplexity-score",
    family: "promptfoo",
    description: `promptfoo perplexity-score: 1 / (1 + perplexity) ${fromRow("logprobs")}`,
    target: promptfoo("perplexityScore"),
    load: promptfooTextGroup("perplexityScore"),
  }),
  ruleMetric({
    name: "cost",
    family: "promptfoo",
    description: `promptfoo cost: the call's cost in USD, lower is better ${fromRow("cost")}`,
    target: promptfoo("cost"),
    load: promptfooTextGroup("cost"),
    higherIsBetter: false,
  }),
  ruleMetric({
    name: "latency",
    family: "promptfoo",
    description: `promptfoo latency: the call's latency in ms, lower is better ${fromRow("latencyMs")}`,
    target: promptfoo("latency"),
    load: promptfooTextGroup("latency"),
    higherIsBetter: false,
  }),
];

/** The pair-callable rule metrics, in help order. */
export const RULE_METRICS = [
  ruleMetric({
    name: "answer-exact-match",
    family: "dspy",
    description: "DSPy answer_exact_match (frac < 1: token F1 ≥ frac)",
    target: pair("answerExactMatch"),
    load: dspyGroup("answerExactMatch"),
    options: { frac: { type: "number", default: 1, help: "number in (0, 1] (default 1)" } },
  }),
  ruleMetric({
    name: "answer-passage-match",
    family: "dspy",
    description: "DSPy answer_passage_match (a reference occurs in the hypothesis as a passage)",
    target: pair("answerPassageMatch"),
    load: dspyGroup("answerPassageMatch"),
  }),
  ruleMetric({
    name: "byob-exact-match",
    family: "nemo-byob",
    description: "NeMo BYOB exact_match (first reference as target)",
    target: byob("exactMatch", ["correct"]),
    load: byobGroup("exactMatch"),
  }),
  ruleMetric({
    name: "byob-contains",
    family: "nemo-byob",
    description: "NeMo BYOB contains",
    target: byob("contains", ["correct"]),
    load: byobGroup("contains"),
  }),
  ruleMetric({
    name: "byob-f1",
    family: "nemo-byob",
    description: "NeMo BYOB f1_token (f1, precision, recall)",
    target: byob("f1Token", ["f1", "precision", "recall"]),
    load: byobGroup("f1Token"),
    headline: "f1",
  }),
  ruleMetric({
    name: "byob-regex",
    family: "nemo-byob",
    description: "NeMo BYOB regex_match (the reference is the pattern)",
    target: byob("regexMatch", ["correct"]),
    load: byobRegexGroup("regexMatch"),
  }),
  ruleMetric({
    name: "byob-bleu",
    family: "nemo-byob",
    description: "NeMo BYOB bleu (bleu_1..bleu_4)",
    target: byob("bleu", ["bleu_1", "bleu_2", "bleu_3", "bleu_4"]),
    load: byobGroup("bleu"),
    headline: "bleu_4",
  }),
  ruleMetric({
    name: "byob-rouge",
    family: "nemo-byob",
    description: "NeMo BYOB rouge (rouge_1, rouge_2, rouge_l)",
    target: byob("rouge", ["rouge_1", "rouge_2", "rouge_l"]),
    load: byobGroup("rouge"),
    headline: "rouge_l",
  }),
  ruleMetric({
    name: "byob-chrf",
    family: "nemo-byob",
    description: "NeMo BYOB chrf (chrf, chrf_pp)",
    target: byob("chrf", ["chrf", "chrf_pp"]),
    load: byobGroup("chrf"),
    headline: "chrf",
  }),
  ruleMetric({
    name: "mcq-letter",
    family: "nemo-byob",
    description: "NeMo BYOB mcq_letter_extract (correct, parsed)",
    target: byob("mcqLetterExtract", ["correct", "parsed"]),
    load: byobRegexGroup("mcqLetterExtract"),
    headline: "correct",
  }),
  ruleMetric({
    name: "gsm8k",
    family: "nemo-byob",
    description: "NeMo BYOB gsm8k_answer (correct, parsed)",
    target: byob("gsm8kAnswer", ["correct", "parsed"]),
    load: byobGroup("gsm8kAnswer"),
    headline: "correct",
  }),
  ruleMetric({
    name: "yes-no",
    family: "nemo-byob",
    description: "NeMo BYOB boolean_yesno (correct, parsed)",
    target: byob("booleanYesno", ["correct", "parsed"]),
    load: byobGroup("booleanYesno"),
    headline: "correct",
  }),
  ruleMetric({
    name: "evalwire-exact-match",
    family: "evalwire",
    description: "evalwire exact_match (first reference, Python equality)",
    target: pair("evalwireExactMatch"),
    load: evalwireGroup("evalwireExactMatch"),
  }),
  ruleMetric({
    name: "evalwire-contains",
    family: "evalwire",
    description: "evalwire contains (first reference in the hypothesis)",
    target: pair("evalwireContains"),
    load: evalwireGroup("evalwireContains"),
  }),
  ruleMetric({
    name: "evalwire-membership",
    family: "evalwire",
    description: "evalwire is_in (the hypothesis is one of the references)",
    target: pair("evalwireMembership"),
    load: evalwireGroup("evalwireMembership"),
  }),
  ruleMetric({
    name: "evalwire-regex",
    family: "evalwire",
    description: "evalwire regex_match (first reference as a Python regex)",
    target: pair("evalwireRegex"),
    load: evalwireRegexGroup("evalwireRegex"),
  }),
  ruleMetric({
    name: "evalwire-json-match",
    family: "evalwire",
    description: "evalwire json_match (share of matching keys)",
    target: pair("evalwireJsonMatch"),
    load: evalwireGroup("evalwireJsonMatch"),
    options: { keys: { type: "string[]", help: "list of keys (default: the reference's keys)" } },
  }),
  ruleMetric({
    name: "evalwire-numeric",
    family: "evalwire",
    description: "evalwire numeric_close (|h − r| ≤ atol + rtol·|r|)",
    target: pair("evalwireNumericTolerance"),
    load: evalwireGroup("evalwireNumericTolerance"),
    options: {
      atol: { type: "number", default: 1e-6, help: "number (default 1e-6)" },
      rtol: { type: "number", default: 0, help: "number (default 0)" },
    },
  }),
  ruleMetric({
    name: "numeric-diff",
    family: "autoevals",
    description: "autoevals NumericDiff (hypothesis and references read as numbers)",
    target: pair("numericDiff"),
    load: autoevalsGroup("numericDiff"),
  }),
  ruleMetric({
    name: "json-diff",
    family: "autoevals",
    description: "autoevals JSONDiff (hypothesis and references parsed as JSON)",
    target: pair("jsonDiff"),
    load: autoevalsGroup("jsonDiff"),
  }),
  ruleMetric({
    name: "autoevals-exact-match",
    family: "autoevals",
    description: "autoevals ExactMatch (the hypothesis equals a reference as text or as JSON)",
    target: pair("autoevalsExactMatch"),
    load: autoevalsJsonGroup("autoevalsExactMatch"),
  }),
  ruleMetric({
    name: "valid-json",
    family: "autoevals",
    description: "autoevals ValidJSON (the hypothesis is a JSON object or array, or satisfies a JSON Schema)",
    target: pair("validJson"),
    load: autoevalsJsonGroup("validJson"),
    options: { schema: { type: "string", help: "JSON Schema as JSON text (default: none)" } },
  }),
  ...PROMPTFOO_RULES,
] as const;
