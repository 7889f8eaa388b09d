// One error root: every error class @evalkern/harness exports extends EvalkernError and has a stable string `code`.
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import {
  BenchmarkRunError,
  DatasetError,
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
  RunAbortedError,
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
  FileSystemError: () => new FileSystemError("m", { osCode: "ENOSPC", path: "/x", operation: "write" }),
  OutputLockedError: () => new OutputLockedError("m", { path: "/x", pid: 1 }),
  RunAbortedError: () => new RunAbortedError("m"),
  EndpointUnreachableError: () => new EndpointUnreachableError("http://127.0.0.1:1", "refused"),
  BenchmarkRunError: () => new BenchmarkRunError({ samples: [] } as never),
  MetricAssertionError: () => new MetricAssertionError("m", [], null),
  DatasetError: () => new DatasetError("m", { path: "/x", row: 1 }),
};

describe("error root", () => {
  it("every exported error class is listed here", () => {
    const exported = Object.entries(api)
      .filter(([, v]) => typeof v === "function" && (v as { prototype?: unknown }).prototype instanceof Error)
      .map(([k]) => k);
    expect(exported.sort()).toEqual(Object.keys(instances).sort());
  });
  it.each(Object.entries(instances))("%s is an EvalkernError with a stable code", (name, make) => {
    const e = make();
    expect(e).toBeInstanceOf(EvalkernError);
    expect(EvalkernError.isInstance(e)).toBe(true);
    expect(e.name).toBe(name);
    expect((e as EvalkernError).code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });
  it("codes are distinct; MissingFieldError keeps Python's str(KeyError) message", () => {
    const codes = Object.values(instances).map((m) => (m() as EvalkernError).code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new MissingFieldError("f").message).toBe("'f'");
  });
});
