// Typed errors of BYOB runs, each with a stable `code`.
import { EndpointError, EvalkernError } from "../errors.js";
import type { BenchmarkRunResult } from "./benchmark.js";

/**
 * The endpoint refused the connection, and a probe a moment later was refused too: nothing listens at
 * the base URL. Ends the whole run at once instead of failing every sample after its retries.
 */
export class EndpointUnreachableError extends EndpointError {
  override name = "EndpointUnreachableError";
  override readonly code = "ENDPOINT_UNREACHABLE";
  constructor(url: string, why: string) {
    super(`cannot reach ${url}: ${why} (after a probe); is the server running at this base URL?`, url);
  }
}

/**
 * Every sample of a run failed (model errors, scorer errors, missing fields): the run is a failure, not
 * an empty report. `result` holds the samples with their errors; no report file was written.
 */
export class BenchmarkRunError extends EvalkernError {
  override name = "BenchmarkRunError";
  override readonly code = "ALL_SAMPLES_FAILED";
  readonly result: BenchmarkRunResult;
  constructor(result: BenchmarkRunResult) {
    const first = result.samples.find((s) => s.status !== "scored");
    super(
      `all ${result.samples.length} sample(s) failed` +
        `${first ? `; sample ${first.sampleId}: ${first.status}${first.error ? `: ${first.error}` : ""}` : ""}`,
    );
    this.result = result;
  }
}
