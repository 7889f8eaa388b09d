// Rendering dsrs `Example`s (maps of JSON values) into prompt text, and USD → msats accounting.
import { Example, type MetricInput } from "@evalkern/metrics/dsrs";
import { JudgeConfigError, JudgeInputError } from "../errors.js";
import type { JudgeUsage } from "../model.js";

/** The fields of an `Example` or plain object, in insertion order. */
export function entriesOf(source: MetricInput, argument: string): Array<[string, unknown]> {
  if (source instanceof Example) return Object.entries(source.toDict());
  if (typeof source !== "object" || source === null || Array.isArray(source)) {
    throw new JudgeInputError(`${argument} must be an Example or an object of fields`, { argument });
  }
  return Object.entries(source);
}

/** `### name` sections, strings verbatim (code stays readable), other values as indented JSON. */
export function renderFields(source: MetricInput, argument: string): string {
  const entries = entriesOf(source, argument);
  if (entries.length === 0) return "(no fields)";
  return entries.map(([name, value]) => `### ${name}\n${typeof value === "string" ? value : JSON.stringify(value, null, 2)}`).join("\n\n");
}

/** Validate an optional USD → millisatoshi rate. */
export function checkRate(rate: unknown): number | undefined {
  if (rate === undefined) return undefined;
  if (typeof rate !== "number" || !Number.isFinite(rate) || rate <= 0) {
    throw new JudgeConfigError("msatsPerUsd must be a positive finite number", { argument: "msatsPerUsd", actual: String(rate) });
  }
  return rate;
}

/**
 * The cost to report in msats: with a rate and a known USD cost, the actual spend (0 for a cache hit);
 * otherwise the fixed per-evaluation cost (dsrs's `cost_msats`).
 */
export function costMsats(usage: JudgeUsage, cached: boolean, fixed: number, msatsPerUsd: number | undefined): number {
  if (msatsPerUsd === undefined) return fixed;
  if (cached) return 0;
  if (usage.costUsd === null) return fixed;
  return Math.round(usage.costUsd * msatsPerUsd);
}

/** A short accounting suffix for `details`. */
export function usageNote(model: string, usage: JudgeUsage, cached: boolean): string {
  if (cached) return `judge ${model}, cached`;
  const cost = usage.costUsd === null ? "cost unknown" : `$${usage.costUsd.toFixed(6)}`;
  return `judge ${model}, ${usage.inputTokens} in / ${usage.outputTokens} out tokens, ${cost}`;
}
