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

/** No command runner is available: outside Node, pass `runner` to `SandboxMetric`/`TestPassMetric`. */
export class CommandRunnerUnavailableError extends EvalkernError {
  override name = "CommandRunnerUnavailableError";
  override readonly code: string = "COMMAND_RUNNER_UNAVAILABLE";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
