// One error root: every error class @evalkern/harness exports extends EvalkernError and has a stable string `code`.
import { describe, expect, it } from "vitest";
import { errorRootProblems, exportedErrorClasses } from "../../../scripts/dev/error-root.mjs";
import * as api from "../src/index.js";
import {
  BenchmarkRunError,
  DatasetError,
  LineCountMismatchError,
  EndpointError,
  EndpointUnreachableError,
  EvalkernError,
  FileSystemError,
  InvalidArgumentError,
  MaxErrorsExceededError,
  MetricAssertionError,
  MetricResultError,
  MigrationError,
  MissingFieldError,
  NoNetworkError,
  OutputLockedError,
  ResumeMismatchError,
  ResumeDamagedError,
  AmbiguousColumnError,
  RunAbortedError,
  QueueConnectionError,
  ChunkFailedError,
  QueueJobRejectedError,
  QueueEngineNotInstalledError,
  SuiteError,
} from "../src/index.js";

const instances: Record<string, () => Error> = {
  EvalkernError: () => new EvalkernError("m"),
  InvalidArgumentError: () => new InvalidArgumentError("m", { argument: "a" }),
  EndpointError: () => new EndpointError("m", "http://127.0.0.1:1", 500),
  MaxErrorsExceededError: () => new MaxErrorsExceededError(1, [{ index: 0, stage: "program", error: new Error("x") }]),
  MetricResultError: () => new MetricResultError("m", null),
  MigrationError: () => new MigrationError("o", "m"),
  MissingFieldError: () => new MissingFieldError("f"),
  NoNetworkError: () => new NoNetworkError("m", "http://127.0.0.1:1"),
  ResumeMismatchError: () => new ResumeMismatchError("m"),
  ResumeDamagedError: () => new ResumeDamagedError("m", "/x"),
  AmbiguousColumnError: () => new AmbiguousColumnError("m", "hyp", [2, 3]),
  FileSystemError: () => new FileSystemError("m", { osCode: "ENOSPC", path: "/x", operation: "write" }),
  OutputLockedError: () => new OutputLockedError("m", { path: "/x", pid: 1 }),
  RunAbortedError: () => new RunAbortedError("m"),
  QueueConnectionError: () => new QueueConnectionError("m", "redis://127.0.0.1:1"),
  ChunkFailedError: () => new ChunkFailedError("m", { lines: [1, 2], attempts: 3, reason: "r" }),
  QueueJobRejectedError: () => new QueueJobRejectedError("m"),
  QueueEngineNotInstalledError: () => new QueueEngineNotInstalledError(["bullmq"]),
  SuiteError: () => new SuiteError("s.yaml", "m"),
  EndpointUnreachableError: () => new EndpointUnreachableError("http://127.0.0.1:1", "refused"),
  BenchmarkRunError: () => new BenchmarkRunError({ samples: [] } as never),
  MetricAssertionError: () => new MetricAssertionError("m", [], null),
  DatasetError: () => new DatasetError("m", { path: "/x", row: 1 }),
  LineCountMismatchError: () => new LineCountMismatchError("m", [{ name: "h", lines: 1 }]),
};

describe("error root", () => {
  it("every exported error class is listed here", () => {
    expect(exportedErrorClasses(api)).toEqual(Object.keys(instances).sort());
  });
  it("each is an EvalkernError with its own name and a stable, distinct code", () => {
    expect(errorRootProblems(instances, EvalkernError)).toEqual([]);
  });
  it("MissingFieldError keeps Python's str(KeyError) message", () => {
    expect(new MissingFieldError("f").message).toBe("'f'");
  });
});
