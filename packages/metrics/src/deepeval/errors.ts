// Typed errors of the DeepEval port. All extend `EvalkernError`, so `EvalkernError.isInstance`
// recognises them across duplicate package copies; `name` is stable.
import { EvalkernError } from "../errors.js";

/**
 * A metric needs a test-case field that is null/undefined (or an empty `actualOutput`). DeepEval's
 * `MissingTestCaseParamsError`, with the same message; the message is also stored on `metric.error`.
 */
export class MissingTestCaseParamsError extends EvalkernError {
  override name = "MissingTestCaseParamsError";
  override readonly code: string = "MISSING_TEST_CASE_PARAMS";
  /** The missing parameters, as DeepEval spells them (`actual_output`, `expected_outcome`, ...). */
  readonly params: readonly string[];
  constructor(message: string, params: readonly string[]) {
    super(message);
    this.params = params;
  }
}

/**
 * `measure()` was called on a metric that needs a model call. JavaScript cannot block on a promise,
 * so such metrics only offer `await aMeasure()`.
 */
export class SyncMeasureUnsupportedError extends EvalkernError {
  override name = "SyncMeasureUnsupportedError";
  override readonly code: string = "SYNC_MEASURE_UNSUPPORTED";
  readonly metricName: string;
  constructor(metricName: string, why = "it calls an evaluation model") {
    super(`'${metricName}' cannot be measured synchronously because ${why}: use \`await metric.aMeasure(testCase)\``);
    this.metricName = metricName;
  }
}

/**
 * A second measurement started on a metric instance while one was still running. A metric holds the
 * state of one measurement (score, reason, cost), so concurrent use would mix results: create one
 * instance per concurrent test case (`metric.copy()`).
 */
export class ConcurrentMeasureError extends EvalkernError {
  override name = "ConcurrentMeasureError";
  override readonly code: string = "CONCURRENT_MEASURE";
  constructor(metricName: string) {
    super(`'${metricName}' is already measuring a test case: use one metric instance per concurrent measurement (metric.copy())`);
  }
}

/**
 * An evaluation produced something the metric cannot report: a score that is NaN or infinite, an
 * arena winner that is not a contestant, a judge's tool-selection score outside [0, 1].
 */
export class InvalidEvaluationError extends EvalkernError {
  override name = "InvalidEvaluationError";
  override readonly code: string = "INVALID_EVALUATION";
  readonly metricName: string;
  constructor(metricName: string, message: string) {
    super(`${metricName}: ${message}`);
    this.metricName = metricName;
  }
}

/**
 * An image is larger than the limit for images sent to a judge (a local file, a Blob or inline
 * base64 data): it is refused before anything is read into memory or sent. `limitBytes` is the limit.
 */
export class ImageTooLargeError extends EvalkernError {
  override name = "ImageTooLargeError";
  override readonly code: string = "IMAGE_TOO_LARGE";
  readonly source: string;
  readonly sizeBytes: number;
  readonly limitBytes: number;
  constructor(source: string, sizeBytes: number, limitBytes: number) {
    const mb = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
    super(`image ${source} is ${mb(sizeBytes)}, over the ${mb(limitBytes)} limit for images sent to a judge (MLLMImage maxBytes)`);
    this.source = source;
    this.sizeBytes = sizeBytes;
    this.limitBytes = limitBytes;
  }
}

/**
 * An image's bytes cannot be read: a local file that does not exist or is not a regular file, or a
 * local path in a runtime without a file system (a browser build: give a URL or a Blob there).
 */
export class ImageUnavailableError extends EvalkernError {
  override name = "ImageUnavailableError";
  override readonly code: string = "IMAGE_UNAVAILABLE";
  readonly source: string;
  constructor(source: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.source = source;
  }
}
