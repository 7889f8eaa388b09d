// Harness and kernel errors as command-line errors: option problems are usage errors (exit 2), input
// problems input errors (exit 3); anything else stays as it is (exit 1).
import { EvalkernError } from "@evalkern/core-wasm";
import { CliError, inputError, usageError } from "./errors.js";
import type { MetricArgument } from "./metric-options.js";

/** What the user called an option, for messages ("metrics[1].options.wordOrder" → the --metric flag). */
function flagOf(argument: string, metricArgs: readonly MetricArgument[]): string {
  const m = /^metrics\[(\d+)\](?:\.(.*))?$/.exec(argument);
  if (m) {
    const raw = metricArgs[Number(m[1])]?.raw;
    return raw ? `--metric ${raw}${m[2] ? ` (${m[2].replace(/^options\./, "")})` : ""}` : "--metric";
  }
  // a kernel's own option check names the option only: find the --metric that set it
  const o = /^options\.(\w+)/.exec(argument);
  if (o) {
    const owner = metricArgs.find((a) => Object.prototype.hasOwnProperty.call(a.options, o[1]!));
    if (owner) return `--metric ${owner.raw}`;
    return "--metric";
  }
  if (argument.startsWith("metrics")) return "--metric";
  if (argument.startsWith("fields")) return "--hyp-field/--refs-field/--id-field";
  if (argument.startsWith("shard")) return "--shard";
  return `--${argument.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export function mapHarnessError(error: unknown, metricArgs: readonly MetricArgument[] = []): unknown {
  if (CliError.isInstance(error)) return error;
  if (!EvalkernError.isInstance(error)) return error;
  const e = error as EvalkernError & { argument?: string };
  if (e.name === "ResumeMismatchError") return usageError(`cannot resume: ${e.message}`);
  if (e.name === "ResumeDamagedError") return inputError(`cannot resume: ${e.message}`);
  if (e.name === "LineCountMismatchError") return inputError(e.message);
  if (e.name === "AmbiguousColumnError") return inputError(`${e.message} (--hyp-field/--refs-field/--id-field)`);
  const argument = e.argument;
  if (typeof argument === "string") {
    if (argument === "input" || argument.startsWith("input")) return inputError(e.message);
    return usageError(`${flagOf(argument, metricArgs)}: ${e.message}`);
  }
  return error;
}
