// Running a suite: each test graded on its given output, or on outputs generated from each prompt by each
// provider (BYOB's OpenAI-compatible client: retries, Retry-After, one probe on a refused connection, and the
// judge's replay cache). The test pass rule is promptfoo's: every assertion passes, or — with a test
// `threshold` — the weighted mean score reaches it; an `assert-set` is graded the same way with its own
// threshold and counts as one assertion of its weight.
import { InvalidArgumentError } from "@evalkern/core-wasm";
import { OpenAICompatibleJudge, type JudgeCache, type JudgeModel } from "@evalkern/judge";
import { OpenAICompatibleClient } from "../byob/client.js";
import { typeNeedsJudge, evaluateAssertion, type AssertionContext } from "./assertions.js";
import { renderTemplate } from "./template.js";
import type {
  AssertionOutcome,
  Suite,
  SuiteAssertion,
  SuiteAssertionOrSet,
  SuitePrompt,
  SuiteProvider,
  SuiteResult,
  SuiteTest,
  TestOutcome,
} from "./types.js";

export interface RunSuiteOptions {
  /** The judge of model-graded types and judge metrics (required when the suite uses any). */
  readonly judge?: JudgeModel;
  /** Base URL of providers that do not give one. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** Cache of generations (a `JudgeCache`; read-only mode replays without sending anything). */
  readonly cache?: JudgeCache;
  readonly fetch?: typeof fetch;
  /** Per-request timeout of generations (default 120 s). */
  readonly timeoutMs?: number;
  /** Retries of a failed generation request (default 3). */
  readonly maxRetries?: number;
  /** Only tests whose description matches (promptfoo's --filter-pattern). */
  readonly filter?: RegExp;
  /** Only the first n tests (promptfoo's --filter-first-n). */
  readonly firstN?: number;
  /** Tests in flight at once (default 4). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Called as each test finishes (in completion order). */
  readonly onResult?: (outcome: TestOutcome) => void;
}

/** What running the suite needs: a judge, and a base URL for providers without one. */
export function suiteNeeds(suite: Suite): { readonly judge: boolean; readonly generation: boolean; readonly baseUrl: boolean } {
  const types = suite.tests
    .flatMap((t) => t.assert.flatMap((a) => (a.type === "assert-set" ? (a as { assert: readonly SuiteAssertion[] }).assert : [a])))
    .map((a) => a.type);
  const generation = suite.tests.some((t) => t.output === undefined);
  return { judge: types.some(typeNeedsJudge), generation, baseUrl: generation && suite.providers.some((p) => p.baseUrl === undefined) };
}

/** One unit of work: a test, with the prompt and provider that generate its output (none for a given output). */
export interface SuiteCase {
  readonly index: number;
  readonly test: SuiteTest;
  readonly prompt?: SuitePrompt;
  readonly provider?: SuiteProvider;
}

/** The cases of a suite after the filters: tests × prompts × providers for tests without a given output. */
export function suiteCases(suite: Suite, options: Pick<RunSuiteOptions, "filter" | "firstN"> = {}): SuiteCase[] {
  let tests = suite.tests.map((test, index) => ({ test, index }));
  if (options.filter) tests = tests.filter(({ test }) => options.filter!.test(test.description));
  if (options.firstN !== undefined) tests = tests.slice(0, options.firstN);
  return tests.flatMap(({ test, index }) =>
    test.output !== undefined
      ? [{ index, test }]
      : suite.prompts.flatMap((prompt) => suite.providers.map((provider) => ({ index, test, prompt, provider }))),
  );
}

interface Aggregate {
  readonly pass: boolean;
  readonly score: number;
  readonly reason: string;
  readonly namedScores: Record<string, number>;
}

/** promptfoo's AssertionsResult: weighted mean score; pass when all pass, or score ≥ threshold when one is set. */
export function aggregateOutcomes(outcomes: readonly AssertionOutcome[], threshold: number | undefined): Aggregate {
  let total = 0;
  let weights = 0;
  const named: Record<string, [number, number]> = {};
  let failed: string | undefined;
  for (const o of outcomes) {
    total += o.score * o.weight;
    weights += o.weight;
    if (o.metric) {
      const n = (named[o.metric] ??= [0, 0]);
      n[0] += o.score * o.weight;
      n[1] += o.weight;
    }
    if (!o.pass) failed ??= o.reason;
  }
  const score = weights > 0 ? total / weights : outcomes.length === 0 ? 1 : 0;
  const namedScores = Object.fromEntries(Object.entries(named).map(([k, [s, w]]) => [k, w > 0 ? s / w : 0]));
  if (threshold !== undefined) {
    const pass = score >= threshold;
    return { pass, score, reason: `aggregate score ${score.toFixed(2)} ${pass ? "≥" : "<"} ${threshold} threshold`, namedScores };
  }
  return {
    pass: failed === undefined,
    score,
    reason: failed ?? (outcomes.length ? "all assertions passed" : "no assertions"),
    namedScores,
  };
}

async function evaluateAll(asserts: readonly SuiteAssertionOrSet[], ctx: AssertionContext): Promise<AssertionOutcome[]> {
  return Promise.all(
    asserts.map(async (a) => {
      if (a.type !== "assert-set") return evaluateAssertion(a as SuiteAssertion, ctx);
      const set = a as Extract<SuiteAssertionOrSet, { type: "assert-set" }>;
      const children = await Promise.all(set.assert.map((c) => evaluateAssertion(c, ctx)));
      const g = aggregateOutcomes(children, set.threshold);
      const error = children.find((c) => c.error)?.error;
      return {
        type: "assert-set",
        pass: g.pass,
        score: g.score,
        weight: set.weight ?? 1,
        reason: g.reason,
        children,
        ...(set.threshold !== undefined ? { threshold: set.threshold } : {}),
        ...(set.metric ? { metric: set.metric } : {}),
        ...(error ? { error } : {}),
      };
    }),
  );
}

/** Generates the output of a rendered prompt with a provider. */
export type SuiteGenerator = (prompt: string, provider: SuiteProvider) => Promise<string>;

/**
 * The generator of a run: BYOB clients, one per provider, each over an `OpenAICompatibleJudge` carrying the
 * cache. Share one between the cases of a run (`runSuiteCase(c, { ...options, generate })`).
 */
export function suiteGenerator(options: RunSuiteOptions): SuiteGenerator {
  const clients = new Map<string, OpenAICompatibleClient>();
  return (prompt, provider) => {
    let client = clients.get(provider.id + provider.label);
    if (!client) {
      const baseUrl = provider.baseUrl ?? options.baseUrl;
      if (!baseUrl)
        throw new InvalidArgumentError(`provider ${provider.id} has no base URL (config.apiBaseUrl, or the run's baseUrl)`, {
          argument: "baseUrl",
        });
      const apiKey = provider.apiKey ?? options.apiKey;
      const endpoint = new OpenAICompatibleJudge({
        baseURL: baseUrl,
        model: provider.model,
        env: {},
        ...(apiKey ? { apiKey } : { apiKey: "none" }),
        temperature: provider.temperature ?? 0,
        ...(provider.maxTokens !== undefined ? { maxTokens: provider.maxTokens } : {}),
        timeoutMs: options.timeoutMs ?? 120_000,
        maxReasks: 0,
        maxConcurrency: options.concurrency ?? 4,
        retry: { maxAttempts: (options.maxRetries ?? 3) + 1, jitter: 0 },
        ...(options.cache ? { cache: options.cache } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      client = new OpenAICompatibleClient({
        endpoint,
        baseUrl: endpoint.baseURL,
        model: provider.model,
        temperature: provider.temperature ?? 0,
        ...(provider.maxTokens !== undefined ? { maxTokens: provider.maxTokens } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      clients.set(provider.id + provider.label, client);
    }
    return provider.kind === "completion" ? client.completion(prompt) : client.chat(prompt);
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Run one case: generate (when needed), grade, aggregate. Never throws: failures are `error` outcomes. */
export async function runSuiteCase(
  c: SuiteCase,
  options: RunSuiteOptions & { readonly generate?: SuiteGenerator } = {},
): Promise<TestOutcome> {
  const started = performance.now();
  const { test } = c;
  const base = {
    index: c.index,
    description: test.description,
    source: test.source,
    vars: test.vars,
    ...(c.provider ? { provider: c.provider.label } : {}),
    ...(c.prompt ? { prompt: c.prompt.label } : {}),
  };
  let output: string;
  let rendered: string | undefined;
  try {
    rendered = c.prompt ? renderTemplate(c.prompt.raw, test.vars) : undefined;
    output = test.output ?? (await (options.generate ?? suiteGenerator(options))(rendered!, c.provider!));
  } catch (e) {
    const error = `no output: ${message(e)}`;
    return {
      ...base,
      output: null,
      status: "error",
      pass: false,
      score: 0,
      reason: error,
      namedScores: {},
      assertions: [],
      durationMs: performance.now() - started,
      error,
    };
  }
  const ctx: AssertionContext = {
    output,
    vars: test.vars,
    ...(rendered !== undefined ? { prompt: rendered } : {}),
    ...(options.judge ? { judge: options.judge } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const assertions = await evaluateAll(test.assert, ctx);
  const g = aggregateOutcomes(assertions, test.threshold);
  const error = assertions.find((a) => a.error)?.error;
  const status = error ? "error" : g.pass ? "pass" : "fail";
  return {
    ...base,
    output,
    status,
    pass: g.pass && !error,
    score: g.score,
    reason: error ? `error: ${error}` : g.reason,
    namedScores: g.namedScores,
    assertions,
    durationMs: performance.now() - started,
    ...(error ? { error } : {}),
  };
}

/**
 * Run a loaded suite. Resolves with every case's outcome in suite order; a test that could not be run (its
 * output not generated, a judge call failed) has status `error`, never a made-up pass or score.
 *
 * @example
 * const result = await runSuite(await loadSuite("evals.yaml"), { judge });
 * process.exitCode = result.stats.failed + result.stats.errors > 0 ? 1 : 0;
 */
export async function runSuite(suite: Suite, options: RunSuiteOptions = {}): Promise<SuiteResult> {
  const started = performance.now();
  const needs = suiteNeeds(suite);
  if (needs.judge && !options.judge)
    throw new InvalidArgumentError("the suite has model-graded assertions or judge metrics: give a judge", { argument: "judge" });
  const cases = suiteCases(suite, options);
  const generate = suiteGenerator(options);
  const outcomes: TestOutcome[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < cases.length; i = next++) {
      outcomes[i] = await runSuiteCase(cases[i]!, { ...options, generate });
      options.onResult?.(outcomes[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, cases.length)) }, worker));
  const count = (s: TestOutcome["status"]) => outcomes.filter((o) => o.status === s).length;
  return {
    ...(suite.description !== undefined ? { description: suite.description } : {}),
    tests: outcomes,
    stats: { total: outcomes.length, passed: count("pass"), failed: count("fail"), errors: count("error") },
    durationMs: performance.now() - started,
  };
}
