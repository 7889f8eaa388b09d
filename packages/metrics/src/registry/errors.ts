// Typed errors of the metric registry. Both extend core-wasm's `InvalidArgumentError` (so callers that
// catch bad arguments keep working) and carry a stable `code`.
import { EvalkernError, InvalidArgumentError } from "@evalkern/core-wasm";

/** A metric name (or alias) the registry does not know. */
export class UnknownMetricError extends InvalidArgumentError {
  override name = "UnknownMetricError";
  readonly code = "unknown-metric" as const;
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

/**
 * An option a metric does not take (`code: "unknown-option"`, with a did-you-mean), or an option value of
 * the wrong type or outside its values (`code: "invalid-option"`).
 */
export class MetricOptionError extends InvalidArgumentError {
  override name = "MetricOptionError";
  readonly code: "unknown-option" | "invalid-option";
  /** Canonical name of the metric. */
  readonly metric: string;
  /** The option key at fault. */
  readonly key: string;
  readonly suggestion: string | undefined;
  constructor(code: "unknown-option" | "invalid-option", message: string, context: { metric: string; key: string; argument: string; suggestion?: string; expected?: string; actual?: string }) {
    super(message, { argument: context.argument, ...(context.expected !== undefined ? { expected: context.expected } : {}), ...(context.actual !== undefined ? { actual: context.actual } : {}) });
    this.code = code;
    this.metric = context.metric;
    this.key = context.key;
    this.suggestion = context.suggestion;
  }
}

/** A metric whose module loads on first use was used before `await loadMetrics([...])` in this thread. */
export class MetricNotLoadedError extends EvalkernError {
  override name = "MetricNotLoadedError";
  readonly code = "metric-not-loaded" as const;
  readonly metric: string;
  constructor(metric: string, message: string) {
    super(message);
    this.metric = metric;
  }
}
