// Typed errors of the metric registry, under the one error root (`EvalkernError`, with a stable `code`).
// Unknown option keys are the package's `UnknownOptionError` (`UNKNOWN_OPTION`, as for every metric).
import { EvalkernError, InvalidArgumentError } from "@evalkern/core-wasm";

export { UnknownOptionError } from "../errors.js";

/** A metric name (or alias) the registry does not know. */
export class UnknownMetricError extends InvalidArgumentError {
  override name = "UnknownMetricError";
  override readonly code: string = "UNKNOWN_METRIC";
  /** The name as given. */
  readonly metric: string;
  /** The closest known name, when one is close. */
  readonly suggestion: string | undefined;
  constructor(message: string, metric: string, suggestion: string | undefined, argument = "metric") {
    super(message, { argument, actual: metric });
    this.metric = metric;
    this.suggestion = suggestion;
  }
}

/** An option value of the wrong type or outside its values (`INVALID_OPTION`), naming the metric and the key. */
export class MetricOptionError extends InvalidArgumentError {
  override name = "MetricOptionError";
  override readonly code: string = "INVALID_OPTION";
  /** Canonical name of the metric. */
  readonly metric: string;
  /** The option key at fault. */
  readonly key: string;
  readonly suggestion: string | undefined;
  constructor(
    message: string,
    context: { metric: string; key: string; argument: string; suggestion?: string; expected?: string; actual?: string },
  ) {
    super(message, {
      argument: context.argument,
      ...(context.expected !== undefined ? { expected: context.expected } : {}),
      ...(context.actual !== undefined ? { actual: context.actual } : {}),
    });
    this.metric = context.metric;
    this.key = context.key;
    this.suggestion = context.suggestion;
  }
}

/** A metric whose module loads on first use was used before `await loadMetrics([...])` in this thread. */
export class MetricNotLoadedError extends EvalkernError {
  override name = "MetricNotLoadedError";
  override readonly code: string = "METRIC_NOT_LOADED";
  readonly metric: string;
  constructor(metric: string, message: string) {
    super(message);
    this.metric = metric;
  }
}
