// DeepEval's verbose logs: the intermediate artefacts of one measurement, as text.

/** Where verbose logs go when `verboseMode` is on: `(metricName, logs) => void`. */
export type VerbosePrinter = (metricName: string, logs: string) => void;

/** DeepEval's `print_verbose_logs` block: a banner with the metric name, the logs, a rule. */
export function formatVerboseBlock(metricName: string, logs: string): string {
  const stars = "*".repeat(50);
  return `${stars}\n${metricName} Verbose Logs\n${stars}\n\n${logs}\n\n${"=".repeat(70)}`;
}

/** The default printer: `console.log` of the DeepEval block (available in every runtime). */
export const consoleVerbosePrinter: VerbosePrinter = (metricName, logs) => {
  console.log(formatVerboseBlock(metricName, logs));
};

/**
 * DeepEval's `construct_verbose_logs`: every step but the last joined by `" \n \n"` is the stored log;
 * the printed block (when `verbose`) also carries the last step (score and reason).
 */
export function constructVerboseLogs(
  metricName: string,
  steps: readonly string[],
  verbose: boolean,
  printer: VerbosePrinter = consoleVerbosePrinter,
): string {
  const logs = steps.slice(0, -1).join(" \n \n");
  if (verbose) printer(metricName, `${logs}\n \n${steps[steps.length - 1] ?? ""}`);
  return logs;
}

/** DeepEval's `prettify_list`, for verdict lists and the like in verbose steps. */
export function prettifyList(items: readonly unknown[]): string {
  if (items.length === 0) return "[]";
  const formatted = items.map((item) =>
    typeof item === "string" ? `"${item}"` : (JSON.stringify(item, null, 4) ?? String(item)).replace(/\n/g, "\n    "),
  );
  return `[\n    ${formatted.join(",\n    ")}\n]`;
}
