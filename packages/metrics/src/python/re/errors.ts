// Python `re` (CPython 3.11) on a linear-time engine, see ../regex.ts. The errors of the `re` port.
import { EvalkernError, PythonCompatError } from "../../errors.js";

// ---------------------------------------------------------------------------------------------------
// Errors

/** Python raised `re.error` compiling the pattern. */
export class PythonRegexError extends PythonCompatError {
  override name = "PythonRegexError";
  override readonly code: string = "PYTHON_REGEX";
  /** Python's message, e.g. "nothing to repeat". */
  readonly msg: string;
  /** The pattern. */
  readonly pattern: string;
  /** Code-point position in the pattern, as Python reports it. */
  readonly pos: number;
  constructor(msg: string, pattern: string, pos: number) {
    super("re.error", `${msg} at position ${pos}`);
    this.msg = msg;
    this.pattern = pattern;
    this.pos = pos;
  }
}

/**
 * A pattern that needs the backtracking matcher (backreference, lookahead, conditional, atomic group,
 * possessive repeat, or more than RE2's 1000 repetitions) used up its step budget on this input.
 * Python would have kept searching; evalkern stops so a hostile pattern cannot hang a run.
 */
export class RegexBudgetExceededError extends EvalkernError {
  override name = "RegexBudgetExceededError";
  override readonly code: string = "REGEX_BUDGET_EXCEEDED";
  readonly pattern: string;
  readonly budget: number;
  /**
   * "steps": the step budget ran out; "depth": the input was too long for the matcher's recursion;
   * "compile": the pattern's character classes need more than `budget` range bounds in all (compiling it
   * would take unbounded time and memory).
   */
  readonly reason: "steps" | "depth" | "compile";
  constructor(pattern: string, budget: number, reason: "steps" | "depth" | "compile" = "steps") {
    const shown = JSON.stringify(pattern.length > 60 ? pattern.slice(0, 60) + "…" : pattern);
    super(
      reason === "steps"
        ? `regex search exceeded its budget of ${budget} backtracking steps (pattern ${shown})`
        : reason === "depth"
          ? `regex search needs more recursion than the JS stack allows on this input (pattern ${shown})`
          : `regex compilation exceeded its budget of ${budget} character-class range bounds (pattern ${shown})`,
    );
    this.pattern = pattern;
    this.budget = budget;
    this.reason = reason;
  }
}
