// Typed errors of the DeepEval judge metrics, on the package's `JudgeError` hierarchy (so
// `JudgeError.isInstance`, `kind` and `toErrorString()` work for them as for the client's errors, and
// `EvalkernError.isInstance` from @evalkern/core-wasm recognises them through the shared marker).
import { JudgeConfigError, JudgeError } from "../errors.js";

const JUDGE_REPLY_ERROR = Symbol.for("evalkern.judge.JudgeReplyError");

/** What was wrong with a judge reply. */
export type JudgeReplyProblem =
  /** The reply does not match the call's schema (wrong type, verdict outside the allowed set, ...). */
  | "schema"
  /** The reply has the wrong number of items (one verdict per statement was asked for). */
  | "count"
  /** The reply names something that does not exist (an arena contestant). */
  | "unknown-reference";

/**
 * A judge reply that cannot be turned into a score (`kind: "output"`).
 *
 * When to use: catch it (or read `metric.error`) to count judge failures apart from low scores.
 *
 * Details: thrown by a DeepEval judge metric when a reply that reached it fails validation against
 * the call's schema (a custom `JudgeModel` that does not validate), has the wrong number of verdicts,
 * or names an unknown contestant. `OpenAICompatibleJudge` validates (and re-asks) itself and throws
 * `JudgeOutputError` instead. Either way the metric records `error`, leaves `score = null` and
 * `success = false`; no default score is ever substituted.
 */
export class JudgeReplyError extends JudgeError {
  readonly [JUDGE_REPLY_ERROR] = true;
  override name = "JudgeReplyError";
  override readonly code: string = "JUDGE_REPLY";
  /** The schema the reply was checked against (`"verdicts"`, `"statements"`, ...). */
  readonly schemaName: string;
  readonly problem: JudgeReplyProblem;
  /** Validation issues, one line each (`verdicts.0.verdict: Invalid option ...`). */
  readonly issues: readonly string[];

  constructor(schemaName: string, problem: JudgeReplyProblem, issues: readonly string[]) {
    super("output", `the judge's '${schemaName}' reply is unusable (${problem}): ${issues.join("; ")}`);
    this.schemaName = schemaName;
    this.problem = problem;
    this.issues = issues;
  }

  /** True for a `JudgeReplyError` from any copy of this package. */
  static override isInstance(value: unknown): value is JudgeReplyError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[JUDGE_REPLY_ERROR] === true;
  }
}

/** A metric was configured wrongly (G-Eval without criteria, an invalid DAG, a bad rubric). */
export class JudgeMetricConfigError extends JudgeConfigError {
  override name = "JudgeMetricConfigError";
  override readonly code: string = "JUDGE_METRIC_CONFIG";

  constructor(argument: string, message: string) {
    super(message, { argument });
  }
}
