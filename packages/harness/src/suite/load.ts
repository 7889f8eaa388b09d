// Loading a suite file (YAML or JSON, promptfoo's `prompts` / `providers` / `tests` / `defaultTest` /
// `assert` shape): tests from CSV/JSONL files (`tests: file://tests.csv`, one test per row, columns are vars,
// promptfoo's `__expected`, `__description`, `__threshold`, `__metric`, `__output` columns), `defaultTest`
// merged into every test as promptfoo merges it (vars under the test's, assertions first, threshold as
// default), and everything checked before anything runs: unknown keys and types, bad templates, tests
// that would need a prompt or a provider the suite lacks. Every problem is a `SuiteError` naming where.
import { readFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { csvObjects } from "../bulk/records.js";
import { SuiteError } from "../errors.js";
import { resolveAssertionType, unknownTypeMessage } from "./assertions.js";
import { missingVar, templateProblem } from "./template.js";
import type { Suite, SuiteAssertion, SuiteAssertionOrSet, SuitePrompt, SuiteProvider, SuiteTest } from "./types.js";

type Raw = Record<string, unknown>;
type Partial = Omit<SuiteTest, "description"> & { readonly description?: string };

const SUITE_KEYS = ["description", "prompts", "providers", "provider", "tests", "defaultTest"];
const TEST_KEYS = ["description", "vars", "assert", "threshold", "metadata", "output", "providerOutput"];
const ASSERT_KEYS = ["type", "value", "threshold", "weight", "metric", "config"];
const SET_KEYS = ["type", "assert", "threshold", "weight", "metric"];

const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

function keysOnly(where: string, value: Raw, allowed: readonly string[]): void {
  for (const k of Object.keys(value))
    if (!allowed.includes(k)) throw new SuiteError(where, `unknown key ${JSON.stringify(k)} (known: ${allowed.join(", ")})`);
}

function optionalNumber(where: string, value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new SuiteError(where, `${key} must be a number, got ${JSON.stringify(value)}`);
  return value;
}

function parseAssertion(where: string, raw: unknown): SuiteAssertionOrSet {
  if (!isObject(raw) || typeof raw.type !== "string") throw new SuiteError(where, "an assertion is an object with a string type");
  if (raw.type === "assert-set") {
    keysOnly(where, raw, SET_KEYS);
    if (!Array.isArray(raw.assert)) throw new SuiteError(where, "an assert-set needs an assert list");
    const children = raw.assert.map((c, i) => parseAssertion(`${where}.assert[${i}]`, c));
    if (children.some((c) => c.type === "assert-set"))
      throw new SuiteError(where, "an assert-set may not hold another assert-set (promptfoo's rule)");
    return {
      type: "assert-set",
      assert: children as SuiteAssertion[],
      ...numbers(where, raw),
      ...(typeof raw.metric === "string" ? { metric: raw.metric } : {}),
    };
  }
  keysOnly(where, raw, ASSERT_KEYS);
  if (!resolveAssertionType(raw.type)) throw new SuiteError(where, unknownTypeMessage(raw.type));
  if (raw.config !== undefined && !isObject(raw.config)) throw new SuiteError(where, "config must be an object of options");
  if (typeof raw.value === "string" && templateProblem(raw.value)) throw new SuiteError(`${where}.value`, templateProblem(raw.value)!);
  return {
    type: raw.type,
    ...(raw.value !== undefined ? { value: raw.value } : {}),
    ...numbers(where, raw),
    ...(typeof raw.metric === "string" ? { metric: raw.metric } : {}),
    ...(raw.config !== undefined ? { config: raw.config as Raw } : {}),
  };
}

function numbers(where: string, raw: Raw): { threshold?: number; weight?: number } {
  const threshold = optionalNumber(where, raw.threshold, "threshold");
  const weight = optionalNumber(where, raw.weight, "weight");
  if (weight !== undefined && weight < 0) throw new SuiteError(where, "weight must be ≥ 0");
  return { ...(threshold !== undefined ? { threshold } : {}), ...(weight !== undefined ? { weight } : {}) };
}

/** promptfoo's `__expected` cell: `type:value`, `type(threshold):value`, `grade:rubric`, else `equals`. */
export function assertionFromString(expected: string): SuiteAssertion {
  if (expected.startsWith("grade:")) return { type: "llm-rubric", value: expected.slice(6) };
  const m = /^((?:not-)?[a-z][a-z0-9-]*)(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?$/.exec(expected);
  if (m && resolveAssertionType(m[1]!)) {
    const base = m[1]!.replace(/^not-/, "");
    const value = m[3];
    const listed = ["contains-all", "contains-any", "icontains-all", "icontains-any"].includes(base);
    return {
      type: m[1]!,
      ...(value !== undefined ? { value: listed ? value.split(",").map((s) => s.trim()) : value } : {}),
      ...(m[2] !== undefined ? { threshold: Number.parseFloat(m[2]) } : {}),
    };
  }
  return { type: "equals", value: expected };
}

function parseTest(where: string, raw: unknown): Partial {
  if (!isObject(raw)) throw new SuiteError(where, "a test is an object (vars, assert, output...)");
  keysOnly(where, raw, TEST_KEYS);
  if (raw.vars !== undefined && !isObject(raw.vars)) throw new SuiteError(`${where}.vars`, "vars must be an object");
  if (raw.assert !== undefined && !Array.isArray(raw.assert)) throw new SuiteError(`${where}.assert`, "assert must be a list");
  if (raw.metadata !== undefined && !isObject(raw.metadata)) throw new SuiteError(`${where}.metadata`, "metadata must be an object");
  const output = raw.output ?? raw.providerOutput;
  if (output !== undefined && typeof output !== "string") throw new SuiteError(`${where}.output`, "a given output must be a string");
  if (raw.description !== undefined && typeof raw.description !== "string")
    throw new SuiteError(`${where}.description`, "must be a string");
  const threshold = optionalNumber(where, raw.threshold, "threshold");
  return {
    source: where,
    vars: (raw.vars as Raw | undefined) ?? {},
    assert: ((raw.assert as unknown[] | undefined) ?? []).map((a, i) => parseAssertion(`${where}.assert[${i}]`, a)),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(raw.metadata !== undefined ? { metadata: raw.metadata as Raw } : {}),
  };
}

function csvTest(where: string, row: Record<string, string>): Partial {
  const vars: Raw = {};
  const assert: SuiteAssertion[] = [];
  let description: string | undefined;
  let threshold: number | undefined;
  let metric: string | undefined;
  let output: string | undefined;
  for (const [key, cell] of Object.entries(row)) {
    if (key.startsWith("__expected")) {
      if (cell.trim() === "") continue;
      const a = assertionFromString(cell);
      if (!resolveAssertionType(a.type)) throw new SuiteError(`${where} ${key}`, unknownTypeMessage(a.type));
      assert.push(a);
    } else if (key === "__description") description = cell;
    else if (key === "__threshold")
      threshold = cell.trim() === "" ? undefined : optionalNumber(`${where} ${key}`, Number(cell), "__threshold");
    else if (key === "__metric") metric = cell || undefined;
    else if (key === "__output" || key === "__providerOutput") output = cell;
    else vars[key] = cell;
  }
  return {
    source: where,
    vars,
    assert: metric ? assert.map((a) => ({ ...a, metric })) : assert,
    ...(description ? { description } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(output !== undefined ? { output } : {}),
  };
}

function readText(where: string, path: string): string {
  try {
    return readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  } catch (e) {
    throw new SuiteError(where, `cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The tests of a `file://` reference: CSV/TSV rows, JSONL lines, or a JSON/YAML list of tests. */
function testsFromFile(where: string, ref: string, baseDir: string): Partial[] {
  const path = resolve(baseDir, ref.slice("file://".length));
  const text = readText(where, path);
  const ext = extname(path).toLowerCase();
  if (ext === ".csv" || ext === ".tsv") {
    let rows: Record<string, string>[];
    try {
      // the one CSV/TSV reader of the harness (quoted cells, CRLF); blank lines are no tests
      rows = csvObjects(text, ref, { delimiter: ext === ".tsv" ? "\t" : ",", columns: "relaxed" })
        .map((r) => r.value)
        .filter((row) => Object.values(row).some((v) => v !== ""));
    } catch (e) {
      throw new SuiteError(ref, `not valid CSV: ${(e as Error).message}`);
    }
    return rows.map((row, i) => csvTest(`${ref} row ${i + 2}`, row));
  }
  if (ext === ".jsonl") {
    return text.split(/\r?\n/).flatMap((line, i) => {
      if (line.trim() === "") return [];
      try {
        return [parseTest(`${ref} line ${i + 1}`, JSON.parse(line))];
      } catch (e) {
        if (e instanceof SuiteError) throw e;
        throw new SuiteError(`${ref} line ${i + 1}`, `not valid JSON: ${(e as Error).message}`);
      }
    });
  }
  if (ext === ".json" || ext === ".yaml" || ext === ".yml") {
    const list = parseDocument(ref, text, ext);
    if (!Array.isArray(list)) throw new SuiteError(ref, "a tests file holds a list of tests");
    return list.map((t, i) => parseTest(`${ref}[${i}]`, t));
  }
  throw new SuiteError(where, `${ref}: tests files are .csv, .tsv, .jsonl, .json or .yaml`);
}

function parseDocument(where: string, text: string, ext: string): unknown {
  try {
    return ext === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new SuiteError(where, `not valid ${ext === ".json" ? "JSON" : "YAML"}: ${(e as Error).message}`);
  }
}

function expandTests(where: string, raw: unknown, baseDir: string): Partial[] {
  if (raw === undefined) return [];
  const entries = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(entries)) throw new SuiteError(where, "tests is a list of tests, or file:// references to CSV/JSONL/JSON/YAML files");
  return entries.flatMap((t, i) =>
    typeof t === "string" && t.startsWith("file://") ? testsFromFile(`${where}[${i}]`, t, baseDir) : [parseTest(`${where}[${i}]`, t)],
  );
}

/** promptfoo's merge of `defaultTest` into a test. */
function mergeDefault(test: Partial, base: Partial | undefined): Partial {
  if (!base) return test;
  const threshold = test.threshold ?? base.threshold;
  const output = test.output ?? base.output;
  const metadata = base.metadata || test.metadata ? { ...base.metadata, ...test.metadata } : undefined;
  return {
    ...test,
    vars: { ...base.vars, ...test.vars },
    assert: [...base.assert, ...test.assert],
    ...(threshold !== undefined ? { threshold } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(metadata ? { metadata } : {}),
  };
}

function describe(test: Partial, index: number): string {
  if (test.description) return test.description;
  const vars = Object.entries(test.vars)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
  const text = `#${index + 1}${vars ? ` ${vars}` : ""}`;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function providerFromId(where: string, id: string): Pick<SuiteProvider, "id" | "model" | "kind"> {
  const m = /^openai:(?:(chat|completion):)?(.+)$/.exec(id);
  if (!m)
    throw new SuiteError(
      where,
      `provider ${JSON.stringify(id)}: only OpenAI-compatible providers are supported (openai:chat:<model>, openai:completion:<model>)`,
    );
  return { id, model: m[2]!, kind: m[1] === "completion" ? "completion" : "chat" };
}

function providerOptions(
  where: string,
  c: Raw,
  names: { baseUrl: string; maxTokens: string },
): Omit<SuiteProvider, "id" | "label" | "model" | "kind"> {
  const baseUrl = c[names.baseUrl];
  if (baseUrl !== undefined && (typeof baseUrl !== "string" || !/^https?:\/\//.test(baseUrl)))
    throw new SuiteError(where, `${names.baseUrl} must be an http(s) URL`);
  if (c.apiKey !== undefined && typeof c.apiKey !== "string") throw new SuiteError(where, "apiKey must be a string");
  const temperature = optionalNumber(where, c.temperature, "temperature");
  const maxTokens = optionalNumber(where, c[names.maxTokens], names.maxTokens);
  return {
    ...(baseUrl !== undefined ? { baseUrl: baseUrl as string } : {}),
    ...(c.apiKey !== undefined ? { apiKey: c.apiKey as string } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

function parseProviders(where: string, raw: Raw): SuiteProvider[] {
  const out: SuiteProvider[] = [];
  if (raw.provider !== undefined) {
    const p = raw.provider;
    if (!isObject(p) || typeof p.model !== "string")
      throw new SuiteError(
        `${where} provider`,
        "provider is { model, baseUrl?, type?: chat | completion, apiKey?, temperature?, maxTokens? }",
      );
    keysOnly(`${where} provider`, p, ["model", "baseUrl", "type", "apiKey", "temperature", "maxTokens", "label"]);
    if (p.type !== undefined && p.type !== "chat" && p.type !== "completion")
      throw new SuiteError(`${where} provider`, "type is chat or completion");
    const kind = p.type === "completion" ? "completion" : "chat";
    const id = `openai:${kind}:${p.model}`;
    out.push({
      id,
      label: typeof p.label === "string" ? p.label : id,
      model: p.model,
      kind,
      ...providerOptions(`${where} provider`, p, { baseUrl: "baseUrl", maxTokens: "maxTokens" }),
    });
  }
  const list = raw.providers === undefined ? [] : Array.isArray(raw.providers) ? raw.providers : [raw.providers];
  list.forEach((p, i) => {
    const at = `${where} providers[${i}]`;
    if (typeof p === "string") return void out.push({ ...providerFromId(at, p), label: p });
    if (!isObject(p) || typeof p.id !== "string")
      throw new SuiteError(at, "a provider is an id (openai:chat:<model>) or { id, label?, config: { apiBaseUrl, ... } }");
    keysOnly(at, p, ["id", "label", "config"]);
    const config = p.config ?? {};
    if (!isObject(config)) throw new SuiteError(at, "config must be an object");
    keysOnly(`${at}.config`, config, ["apiBaseUrl", "apiKey", "temperature", "max_tokens"]);
    out.push({
      ...providerFromId(at, p.id),
      label: typeof p.label === "string" ? p.label : p.id,
      ...providerOptions(at, config, { baseUrl: "apiBaseUrl", maxTokens: "max_tokens" }),
    });
  });
  return out;
}

function parsePrompts(where: string, raw: unknown, baseDir: string): SuitePrompt[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((p, i) => {
    const at = `${where} prompts[${i}]`;
    const entry = typeof p === "string" ? { raw: p } : p;
    if (!isObject(entry) || typeof entry.raw !== "string")
      throw new SuiteError(at, "a prompt is a string, file://prompt.txt, or { raw, label }");
    const text = entry.raw.startsWith("file://") ? readText(at, resolve(baseDir, entry.raw.slice(7))) : entry.raw;
    const problem = templateProblem(text);
    if (problem) throw new SuiteError(at, problem);
    const label = typeof entry.label === "string" ? entry.label : text.length > 40 ? `${text.slice(0, 39)}…` : text;
    return { raw: text, label };
  });
}

/** A suite from its parsed document; `path` names it in messages, `file://` references resolve from `baseDir`. */
export function parseSuite(raw: unknown, options: { readonly path?: string; readonly baseDir?: string } = {}): Suite {
  const where = options.path ?? "suite";
  const baseDir = options.baseDir ?? (options.path ? dirname(resolve(options.path)) : process.cwd());
  if (!isObject(raw)) throw new SuiteError(where, "a suite is an object with tests (and prompts, providers, defaultTest)");
  keysOnly(where, raw, SUITE_KEYS);
  if (raw.description !== undefined && typeof raw.description !== "string") throw new SuiteError(where, "description must be a string");
  const prompts = parsePrompts(where, raw.prompts, baseDir);
  const providers = parseProviders(where, raw);
  const base = raw.defaultTest === undefined ? undefined : parseTest(`${where} defaultTest`, raw.defaultTest);
  const partials = expandTests(`${where} tests`, raw.tests, baseDir);
  if (partials.length === 0) throw new SuiteError(where, "the suite has no tests");
  const tests: SuiteTest[] = partials.map((t, i) => {
    const merged = mergeDefault(t, base);
    if (merged.output === undefined) {
      if (prompts.length === 0 || providers.length === 0)
        throw new SuiteError(t.source, "the test has no output, and the suite no prompts and providers to generate one");
      for (const p of prompts) {
        const missing = missingVar(p.raw, merged.vars);
        if (missing)
          throw new SuiteError(t.source, `the prompt ${JSON.stringify(p.label)} reads {{ ${missing} }}, which the test's vars do not have`);
      }
    }
    return { ...merged, description: describe(merged, i) };
  });
  return {
    ...(raw.description !== undefined ? { description: raw.description as string } : {}),
    ...(options.path ? { path: options.path } : {}),
    prompts,
    providers,
    tests,
  };
}

/** Load a suite file (.yaml, .yml or .json) synchronously (what vitest's `describeSuite` needs). */
export function loadSuiteSync(path: string): Suite {
  const ext = extname(path).toLowerCase();
  if (![".yaml", ".yml", ".json"].includes(ext)) throw new SuiteError(path, "a suite file is .yaml, .yml or .json");
  return parseSuite(parseDocument(path, readText(path, path), ext), { path });
}

/**
 * Load a suite file (.yaml, .yml or .json): tests from `file://` CSV/JSONL references expanded,
 * `defaultTest` merged, every assertion type and template checked. Problems are `SuiteError`s.
 *
 * @example
 * const suite = await loadSuite("examples/evals.yaml");
 * const result = await runSuite(suite);
 */
export async function loadSuite(path: string): Promise<Suite> {
  return loadSuiteSync(path);
}
