// Errors the command line turns into a message and an exit code. Everything else that escapes a
// command is a bug or an environment failure and exits 1 with its message.
import { EvalkernError } from "@evalkern/core-wasm";

/** Exit codes: 0 success, 1 runtime failure, 2 bad usage (flags, options), 3 bad input (missing or malformed files). */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2, input: 3 });

const MARKER = Symbol.for("evalkern.cli.CliError");

/**
 * A failure the user can fix, with the exit code the process ends with.
 *
 * Gotchas: `isInstance` works across duplicate copies of this package (a `Symbol.for` marker), unlike
 * `instanceof`. It is an `EvalkernError` (the root of every evalkern error), so check `CliError` first.
 */
export class CliError extends EvalkernError {
  override name = "CliError";
  /** `CLI_USAGE` (exit 2), `CLI_INPUT` (exit 3) or `CLI_FAILURE` (any other exit code). */
  override readonly code: string;
  readonly exitCode: number;
  readonly [MARKER] = true;

  constructor(message: string, exitCode: number = EXIT.failure) {
    super(message);
    this.exitCode = exitCode;
    this.code = exitCode === EXIT.usage ? "CLI_USAGE" : exitCode === EXIT.input ? "CLI_INPUT" : "CLI_FAILURE";
  }

  static isInstance(value: unknown): value is CliError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** A bad flag or option value (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/** A missing or malformed input file (exit 3). */
export function inputError(message: string): CliError {
  return new CliError(message, EXIT.input);
}

/** The message of any thrown value, without a stack. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
