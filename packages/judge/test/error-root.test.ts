// One error root: every error class @evalkern/judge exports extends EvalkernError (from @evalkern/metrics) and
// has a stable string `code`; the judge's own hierarchy (JudgeError, JudgeHttpError...) is kept.
import { EvalkernError } from "@evalkern/metrics";
import { describe, expect, it } from "vitest";
import { errorRootProblems, exportedErrorClasses } from "../../../scripts/dev/error-root.mjs";
import * as api from "../src/index.js";
import {
  CacheMissError,
  JudgeAbortedError,
  JudgeConfigError,
  JudgeError,
  JudgeHttpError,
  JudgeInputError,
  JudgeMetricConfigError,
  JudgeOutputError,
  JudgeProviderPackageError,
  JudgeRateLimitError,
  JudgeReplyError,
  JudgeTimeoutError,
  JudgeTransportError,
  JudgeUnreachableError,
  UnsupportedCapabilityError,
} from "../src/index.js";

const instances: Record<string, () => Error> = {
  JudgeError: () => new JudgeError("config", "m"),
  JudgeConfigError: () => new JudgeConfigError("m", { argument: "a" }),
  JudgeInputError: () => new JudgeInputError("m", { argument: "a" }),
  JudgeHttpError: () => new JudgeHttpError("m", { status: 400, code: "bad", attempts: 1 }),
  JudgeRateLimitError: () => new JudgeRateLimitError("m", { code: "insufficient_quota", attempts: 1, retryAfterMs: null }),
  JudgeTimeoutError: () => new JudgeTimeoutError("m", { timeoutMs: 1, attempts: 1 }),
  JudgeTransportError: () => new JudgeTransportError("network", "m", { attempts: 1 }),
  JudgeOutputError: () => new JudgeOutputError("empty", "m", { attempts: 1, text: "" }),
  CacheMissError: () => new CacheMissError("k".repeat(20)),
  UnsupportedCapabilityError: () => new UnsupportedCapabilityError("loglikelihood", "m"),
  JudgeAbortedError: () => new JudgeAbortedError(),
  JudgeReplyError: () => new JudgeReplyError("S", "schema", ["x"]),
  JudgeMetricConfigError: () => new JudgeMetricConfigError("threshold", "m"),
  JudgeUnreachableError: () => new JudgeUnreachableError("http://127.0.0.1:1"),
  JudgeProviderPackageError: () => new JudgeProviderPackageError("@ai-sdk/anthropic", "anthropic", "m"),
};

describe("error root", () => {
  it("every exported error class is listed here", () => {
    expect(exportedErrorClasses(api)).toEqual(Object.keys(instances).sort());
  });
  it("each is an EvalkernError and a JudgeError with its own name and a stable, distinct code", () => {
    expect(errorRootProblems(instances, EvalkernError, JudgeError)).toEqual([]);
  });
  it("the provider's code is apiCode", () => {
    const e = instances.JudgeRateLimitError!() as JudgeRateLimitError;
    expect(e).toBeInstanceOf(JudgeHttpError);
    expect(e.code).toBe("JUDGE_RATE_LIMIT");
    expect(e.apiCode).toBe("insufficient_quota");
  });
});
