// BUILTIN_METRIC_NAMES is the registry's list of its kernel metrics' names and aliases, in order.
import { describe, expect, it } from "vitest";
import { BUILTIN_METRIC_NAMES, isBuiltinMetric, listMetrics, type BuiltinMetricName } from "../../src/registry/index.js";

describe("BUILTIN_METRIC_NAMES", () => {
  it("names every kernel metric of the registry and its aliases, and nothing else", () => {
    const kernel = listMetrics().filter((m) => isBuiltinMetric(m.name) && !("target" in m));
    expect([...BUILTIN_METRIC_NAMES]).toEqual(kernel.flatMap((m) => [m.name, ...(m.aliases ?? [])]));
    expect(BUILTIN_METRIC_NAMES).toContain("ter");
    const ter: Extract<BuiltinMetricName, "ter"> = "ter";
    expect(ter).toBe("ter");
  });
});
