// `evalkern test`: run a promptfoo-style suite file (given outputs, or outputs generated through an
// OpenAI-compatible endpoint) and grade every test; a table on stdout, `--output` results JSON, `--junit`
// JUnit XML for CI. Exit 0 when every test passes, 1 when one failed or could not be run, 2 on usage
// errors (a judge or endpoint the suite needs and nobody gave), 3 on a suite that cannot be read.
import { writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { JudgeCache, JudgeModel } from "@evalkern/judge";
import { EXIT, inputError, usageError } from "../errors.js";
import { junitXml } from "../io/junit.js";
import { checkOutputPaths } from "../io/output-paths.js";
import { CLI_VERSION } from "../results.js";
import { formatTable } from "../table.js";
import type { ScoreIo } from "./score.js";

export interface TestCommandOptions {
  readonly suite: string;
  readonly output?: string;
  readonly junit?: string;
  readonly filter?: string;
  readonly filterFirstN?: number;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly judgeModel?: string;
  readonly judgeBaseUrl?: string;
  readonly judgeApiKey?: string;
  readonly cache?: string;
  readonly replay?: boolean;
  readonly concurrency: number;
  readonly timeout?: number;
  readonly json?: boolean;
}

const NO_NETWORK = (async () => {
  throw new Error("replay mode: no request is sent (the call is not in the cache)");
}) as typeof fetch;

async function loadSuiteOrFail(path: string) {
  const harness = await import("@evalkern/harness");
  try {
    return { harness, suite: await harness.loadSuite(path) };
  } catch (e) {
    if (e instanceof harness.SuiteError) throw inputError(e.message);
    throw e;
  }
}

function filterPattern(filter: string | undefined): RegExp | undefined {
  if (filter === undefined) return undefined;
  try {
    return new RegExp(filter);
  } catch (e) {
    throw usageError(`--filter: not a regular expression: ${(e as Error).message}`);
  }
}

async function judgeOf(options: TestCommandOptions, cache: JudgeCache | undefined): Promise<JudgeModel> {
  const env = process.env;
  const model = options.judgeModel ?? env.EVALKERN_JUDGE_MODEL;
  if (!model) throw usageError("the suite has model-graded assertions or judge metrics: pass --judge-model (or set EVALKERN_JUDGE_MODEL)");
  const baseURL = options.judgeBaseUrl ?? env.EVALKERN_JUDGE_BASE_URL;
  const judge = await import("@evalkern/judge");
  try {
    return new judge.OpenAICompatibleJudge({
      model,
      ...(baseURL ? { baseURL } : options.replay ? { baseURL: "http://replay.invalid/v1" } : {}),
      ...(options.judgeApiKey ? { apiKey: options.judgeApiKey } : options.replay ? { apiKey: "replay" } : {}),
      ...(cache ? { cache } : {}),
      ...(options.timeout ? { timeoutMs: options.timeout } : {}),
      maxConcurrency: options.concurrency,
      ...(options.replay ? { fetch: NO_NETWORK } : {}),
    });
  } catch (e) {
    throw usageError((e as Error).message);
  }
}

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export async function testCommand(options: TestCommandOptions, io: ScoreIo): Promise<number> {
  if (options.replay && !options.cache) throw usageError("--replay needs --cache <file> (the recorded calls)");
  checkOutputPaths(
    [{ role: "the suite", path: options.suite }],
    [
      { role: "--output", path: options.output },
      { role: "--junit", path: options.junit },
      { role: "--cache", path: options.cache },
    ],
  );
  const filter = filterPattern(options.filter);
  const { harness, suite } = await loadSuiteOrFail(options.suite);
  const needs = harness.suiteNeeds(suite);
  const env = process.env;
  const baseUrl =
    options.baseUrl ?? env.EVALKERN_BASE_URL ?? env.OPENAI_BASE_URL ?? (options.replay ? "http://replay.invalid/v1" : undefined);
  if (needs.baseUrl && !baseUrl)
    throw usageError("the suite generates outputs with a provider that has no apiBaseUrl: pass --base-url (or set EVALKERN_BASE_URL)");
  const judgeModule = await import("@evalkern/judge");
  const cache = options.cache
    ? new judgeModule.JudgeCache({
        store: new judgeModule.FileCacheStore({ path: resolve(options.cache) }),
        mode: options.replay ? "read-only" : "read-write",
      })
    : undefined;
  const judge = needs.judge ? await judgeOf(options, cache) : undefined;
  const apiKey = options.apiKey ?? env.EVALKERN_API_KEY ?? env.OPENAI_API_KEY;
  const result = await harness.runSuite(suite, {
    ...(judge ? { judge } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(cache ? { cache } : {}),
    ...(options.replay ? { fetch: NO_NETWORK } : {}),
    ...(filter ? { filter } : {}),
    ...(options.filterFirstN !== undefined ? { firstN: options.filterFirstN } : {}),
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
    concurrency: options.concurrency,
  });
  if (result.stats.total === 0) throw usageError(`no test matches${options.filter ? ` --filter ${options.filter}` : ""}`);
  const name = relative(process.cwd(), resolve(options.suite)) || options.suite;
  if (options.output)
    writeFileSync(options.output, `${JSON.stringify({ version: 1, tool: `evalkern ${CLI_VERSION}`, suite: name, ...result }, null, 2)}\n`);
  if (options.junit) writeFileSync(options.junit, junitXml(result, name));
  if (options.json) io.stdout.write(`${JSON.stringify({ suite: name, ...result }, null, 2)}\n`);
  else {
    const rows = result.tests.map((t) => [
      t.status.toUpperCase(),
      short([t.description, t.provider, t.prompt].filter((x) => x !== undefined).join(" · "), 50),
      t.score.toFixed(2),
      short(t.reason.replace(/\s+/g, " "), 70),
    ]);
    const { passed, failed, errors, total } = result.stats;
    io.stdout.write(
      `evalkern test · ${name}${suite.description ? ` · ${suite.description}` : ""}\n\n` +
        `${formatTable(["result", "test", "score", "reason"], rows, { align: ["l", "l", "r", "l"] })}\n\n` +
        `${passed} passed, ${failed} failed, ${errors} error${errors === 1 ? "" : "s"} · ${total} test${total === 1 ? "" : "s"}` +
        `${options.junit ? ` · JUnit: ${options.junit}` : ""}${options.output ? ` · results: ${options.output}` : ""}\n`,
    );
  }
  return result.stats.failed + result.stats.errors > 0 ? EXIT.failure : EXIT.ok;
}
