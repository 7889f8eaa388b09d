// Typed errors of `@evalkern/metrics/dsrs`, on the shared `EvalkernError` base (Symbol.for marker,
// `isInstance` across duplicate package copies).
import { EvalkernError } from "../errors.js";

/**
 * `DiffMetric` with strictness `"Semantic"` and no judge: dsrs returns a constant 0.5 placeholder there;
 * evalkern refuses instead. Use a judge-backed metric from `@evalkern/judge`, or pass
 * `semanticJudge` to `DiffMetric`.
 */
export class JudgeRequiredError extends EvalkernError {
  override name = "JudgeRequiredError";
  override readonly code: string = "JUDGE_REQUIRED";
  readonly metric: string;
  constructor(metric: string, message: string) {
    super(message);
    this.metric = metric;
  }
}

/**
 * A tree-sitter grammar (or web-tree-sitter itself) could not be loaded: outside Node there is no
 * default location, so call `configureTreeSitter({ loadGrammar, locateFile })` first.
 */
export class GrammarUnavailableError extends EvalkernError {
  override name = "GrammarUnavailableError";
  override readonly code: string = "GRAMMAR_UNAVAILABLE";
  readonly language: string;
  constructor(language: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.language = language;
  }
}

/** The optional peer dependencies tree-sitter needs, and the command that installs them. */
export const TREE_SITTER_PACKAGES = ["web-tree-sitter", "tree-sitter-wasms"] as const;
export const TREE_SITTER_INSTALL = "npm i web-tree-sitter tree-sitter-wasms";

/**
 * `web-tree-sitter` or `tree-sitter-wasms` is not installed. They are optional peer dependencies of
 * `@evalkern/metrics` (about 50 MB of grammars), needed only by `SyntaxMetric` with a language,
 * `DiffMetric` with `AstEquivalent`, `checkSyntax` and `compareSyntaxTrees`. A `GrammarUnavailableError`.
 */
export class TreeSitterNotInstalledError extends GrammarUnavailableError {
  override name = "TreeSitterNotInstalledError";
  override readonly code: string = "TREE_SITTER_NOT_INSTALLED";
  /** The package found missing. */
  readonly missing: string;
  /** What to run: `npm i web-tree-sitter tree-sitter-wasms`. */
  readonly install: string = TREE_SITTER_INSTALL;
  constructor(missing: string, options?: { cause?: unknown }) {
    super(
      "*",
      `${missing} is not installed: syntax checks need the optional peer dependencies web-tree-sitter and tree-sitter-wasms. ` +
        `Install them with \`${TREE_SITTER_INSTALL}\``,
      options,
    );
    this.missing = missing;
  }
}

/** No command runner is available: outside Node, pass `runner` to `SandboxMetric`/`TestPassMetric`. */
export class CommandRunnerUnavailableError extends EvalkernError {
  override name = "CommandRunnerUnavailableError";
  override readonly code: string = "COMMAND_RUNNER_UNAVAILABLE";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * A command's working directory (`cwd` of `SandboxMetric`/`TestPassMetric`, or of a `CommandRequest`) does
 * not exist or is not a directory. Before, the run failed as `spawn /bin/sh ENOENT`, naming the wrong thing.
 */
export class WorkingDirectoryNotFoundError extends EvalkernError {
  override name = "WorkingDirectoryNotFoundError";
  override readonly code: string = "WORKING_DIRECTORY_NOT_FOUND";
  /** The directory as given. */
  readonly path: string;
  constructor(path: string, reason: "missing" | "not-a-directory") {
    super(
      reason === "missing"
        ? `the working directory ${JSON.stringify(path)} does not exist`
        : `the working directory ${JSON.stringify(path)} is not a directory`,
    );
    this.path = path;
  }
}
