// One error root: every error class @evalkern/metrics exports (any subpath) extends EvalkernError (core-wasm's,
// re-exported here) and has a stable string `code`.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorRootProblems } from "../../../scripts/dev/error-root.mjs";
import {
  EvalkernError,
  InvalidArgumentError,
  MetricValueError,
  PythonCompatError,
  PythonRegexError,
  RegexBudgetExceededError,
} from "../src/index.js";
import { ScorerResultError } from "../src/byob/index.js";
import { SqlParserNotInstalledError } from "../src/promptfoo/index.js";
import {
  CommandRunnerUnavailableError,
  GrammarUnavailableError,
  JudgeRequiredError,
  TreeSitterNotInstalledError,
  WorkingDirectoryNotFoundError,
} from "../src/dsrs/index.js";
import { MetricNotLoadedError, MetricOptionError, UnknownMetricError, UnknownOptionError } from "../src/index.js";
import {
  ConcurrentMeasureError,
  ImageTooLargeError,
  ImageUnavailableError,
  InvalidEvaluationError,
  MissingTestCaseParamsError,
  SyncMeasureUnsupportedError,
} from "../src/deepeval/index.js";

const instances: Record<string, () => Error> = {
  EvalkernError: () => new EvalkernError("m"),
  InvalidArgumentError: () => new InvalidArgumentError("m", { argument: "a" }),
  MetricValueError: () => new MetricValueError("x"),
  PythonCompatError: () => new PythonCompatError("ValueError", "m"),
  PythonRegexError: () => new PythonRegexError("m", "(", 0),
  RegexBudgetExceededError: () => new RegexBudgetExceededError("a*", 10),
  ScorerResultError: () => new ScorerResultError("s", "m"),
  CommandRunnerUnavailableError: () => new CommandRunnerUnavailableError("m"),
  WorkingDirectoryNotFoundError: () => new WorkingDirectoryNotFoundError("/nope", "missing"),
  GrammarUnavailableError: () => new GrammarUnavailableError("rust", "m"),
  JudgeRequiredError: () => new JudgeRequiredError("LlmJudgeMetric", "m"),
  TreeSitterNotInstalledError: () => new TreeSitterNotInstalledError("web-tree-sitter"),
  UnknownOptionError: () => new UnknownOptionError("SandboxMetric", "command", ["commands"]),
  UnknownMetricError: () => new UnknownMetricError("m", "bleuu", "bleu"),
  MetricOptionError: () => new MetricOptionError("m", { metric: "bleu", key: "lowercase", argument: "options.lowercase" }),
  MetricNotLoadedError: () => new MetricNotLoadedError("byob-f1", "m"),
  ConcurrentMeasureError: () => new ConcurrentMeasureError("X"),
  InvalidEvaluationError: () => new InvalidEvaluationError("X", "m"),
  MissingTestCaseParamsError: () => new MissingTestCaseParamsError("m", ["input"]),
  SyncMeasureUnsupportedError: () => new SyncMeasureUnsupportedError("X"),
  ImageTooLargeError: () => new ImageTooLargeError("a.png", 2, 1),
  ImageUnavailableError: () => new ImageUnavailableError("a.png", "m"),
  SqlParserNotInstalledError: () => new SqlParserNotInstalledError(),
};

/** The error classes exported by every entry point of package.json (dist paths mapped to src). */
async function exportedErrorClasses(): Promise<string[]> {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    exports: Record<string, { default?: string } | string>;
  };
  const names = new Set<string>();
  for (const entry of Object.values(pkg.exports)) {
    const file = typeof entry === "string" ? entry : entry.default;
    if (!file?.endsWith(".js")) continue;
    const mod = (await import(
      new URL(`../${file.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")}`, import.meta.url).href
    )) as Record<string, unknown>;
    for (const [k, v] of Object.entries(mod))
      if (typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof Error) names.add(k);
  }
  return [...names].sort();
}

describe("error root", () => {
  it("every exported error class is listed here", async () => {
    expect(await exportedErrorClasses()).toEqual(Object.keys(instances).sort());
  });
  it("each is an EvalkernError with its own name and a stable, distinct code", () => {
    expect(errorRootProblems(instances, EvalkernError)).toEqual([]);
    // the check itself: a plain Error, a wrong name, a lower-case code and a shared code are all caught
    class Lower extends EvalkernError {
      override name = "Lower";
      override readonly code = "lower_case";
    }
    expect(
      errorRootProblems(
        {
          Error: () => new Error("x"),
          Renamed: () => new EvalkernError("x"),
          Lower: () => new Lower("x"),
          EvalkernError: () => new EvalkernError("x"),
        },
        EvalkernError,
      ),
    ).toEqual([
      "Error is not an EvalkernError",
      "Error has code undefined",
      'Renamed has name "EvalkernError"',
      'Lower has code "lower_case"',
      "EvalkernError and Renamed share the code EVALKERN_ERROR",
    ]);
  });
  it("PythonRegexError stays a PythonCompatError", () => {
    expect(new PythonRegexError("m", "(", 0)).toBeInstanceOf(PythonCompatError);
  });
});
