// Token usage and cost: a price table, per-call cost, and a ledger that totals calls per metric and per
// run (docs/spec/judges.md §1.7, §10.5). Tokens are always counted; cost is null only where a price is unknown.
import { JudgeConfigError } from "./errors.js";
import type { JudgeUsage } from "./model.js";

/** USD per one million tokens. */
export interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  /** Price of prompt tokens served from the provider's prompt cache; default `inputPerMTok`. */
  readonly cachedInputPerMTok?: number;
}

/**
 * Prices by model name. Lookup: the exact name, else the longest key the name starts with (so
 * `"gpt-4o"` prices `"gpt-4o-2024-08-06"`, and `"gpt-4o-mini"` wins over `"gpt-4o"` for the mini).
 * A judge falls back to the bundled, dated table of `prices.ts` (`modelPrices()`) for models this
 * table does not cover.
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

function checkPrice(price: ModelPrice, where: string): ModelPrice {
  for (const key of ["inputPerMTok", "outputPerMTok", "cachedInputPerMTok"] as const) {
    const value = price?.[key];
    if (key === "cachedInputPerMTok" && value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new JudgeConfigError(`${where}.${key} must be a non-negative number (USD per million tokens)`, {
        argument: `${where}.${key}`,
        actual: String(value),
      });
    }
  }
  return price;
}

/** Validate a price table (non-negative finite prices). */
export function checkPriceTable(table: PriceTable, argument = "prices"): PriceTable {
  if (typeof table !== "object" || table === null) {
    throw new JudgeConfigError(`${argument} must be an object of model name → price`, { argument });
  }
  for (const [model, price] of Object.entries(table)) checkPrice(price, `${argument}["${model}"]`);
  return table;
}

/** The price of `model` in `table` (exact, then longest prefix), or undefined. */
export function lookupPrice(table: PriceTable | undefined, ...models: readonly (string | undefined)[]): ModelPrice | undefined {
  if (!table) return undefined;
  for (const model of models) {
    if (!model) continue;
    if (Object.prototype.hasOwnProperty.call(table, model)) return table[model];
  }
  for (const model of models) {
    if (!model) continue;
    let best: string | undefined;
    for (const key of Object.keys(table)) {
      if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
    }
    if (best !== undefined) return table[best];
  }
  return undefined;
}

/** Tokens of one call as the provider reported them. */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningTokens?: number;
}

/** USD for `tokens` at `price`; null without a price. Cached prompt tokens use the cached price. */
export function costOf(tokens: TokenCounts, price: ModelPrice | undefined): number | null {
  if (!price) return null;
  const cached = Math.min(tokens.cachedInputTokens ?? 0, tokens.inputTokens);
  const cachedPrice = price.cachedInputPerMTok ?? price.inputPerMTok;
  return ((tokens.inputTokens - cached) * price.inputPerMTok + cached * cachedPrice + tokens.outputTokens * price.outputPerMTok) / 1e6;
}

/** Add two usages. Cost is null-poisoning (DeepEval's rule): unknown + anything = unknown. */
export function addUsage(a: JudgeUsage, b: JudgeUsage): JudgeUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
    cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
    requests: (a.requests ?? 0) + (b.requests ?? 0),
    latencyMs: (a.latencyMs ?? 0) + (b.latencyMs ?? 0),
  };
}

/** Zero usage with a known (zero) cost. */
export const ZERO_USAGE: JudgeUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
  requests: 0,
  latencyMs: 0,
});

/** One judge call as the ledger records it. */
export interface CallRecord {
  /** The `metric` tag of the request (undefined when untagged). */
  readonly metric: string | undefined;
  readonly model: string;
  readonly endpoint: "chat" | "completions" | "embeddings" | "moderations";
  readonly usage: JudgeUsage;
  /** Served from the cache (no request, zero marginal cost). */
  readonly cached: boolean;
  /** False when the call ended in an error (its spent tokens still count). */
  readonly ok: boolean;
  readonly error?: string;
}

/** Totals over a set of calls. */
export interface UsageTotals {
  /** Judge calls (a call may make several HTTP requests). */
  readonly calls: number;
  readonly cachedCalls: number;
  readonly failedCalls: number;
  /** HTTP requests sent. */
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
  /** USD; null when any call that made requests had no price. */
  readonly costUsd: number | null;
  /** Calls that made requests but had no price. */
  readonly unpricedCalls: number;
}

function emptyTotals(): { -readonly [K in keyof UsageTotals]: UsageTotals[K] } {
  return {
    calls: 0,
    cachedCalls: 0,
    failedCalls: 0,
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
  };
}

/**
 * Usage of every judge call of a run, with totals per metric and overall.
 *
 * When to use: one ledger per run (each `OpenAICompatibleJudge` has one; pass the same `ledger` to several
 * judges to total them together). Tag calls with `withMetricTag(model, name)` to get per-metric totals.
 *
 * @example
 * judge.ledger.total().costUsd;               // whole run
 * judge.ledger.forMetric("faithfulness");     // one metric
 */
export class UsageLedger {
  private readonly records: CallRecord[] = [];
  private readonly listeners = new Set<(record: CallRecord) => void>();

  record(record: CallRecord): void {
    this.records.push(record);
    for (const listener of this.listeners) listener(record);
  }

  /** Every call so far, in completion order. */
  get calls(): readonly CallRecord[] {
    return this.records;
  }

  /** Be told about each call as it completes; returns an unsubscribe function. */
  subscribe(listener: (record: CallRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private totalsOf(records: readonly CallRecord[]): UsageTotals {
    const t = emptyTotals();
    for (const r of records) {
      t.calls++;
      if (r.cached) t.cachedCalls++;
      if (!r.ok) t.failedCalls++;
      t.requests += r.usage.requests ?? 0;
      t.inputTokens += r.usage.inputTokens;
      t.outputTokens += r.usage.outputTokens;
      t.cachedInputTokens += r.usage.cachedInputTokens ?? 0;
      t.reasoningTokens += r.usage.reasoningTokens ?? 0;
      if (r.usage.costUsd === null) {
        t.unpricedCalls++;
        t.costUsd = null;
      } else if (t.costUsd !== null) {
        t.costUsd += r.usage.costUsd;
      }
    }
    return t;
  }

  /** Totals of the whole run. */
  total(): UsageTotals {
    return this.totalsOf(this.records);
  }

  /** Totals of the calls tagged `metric`. */
  forMetric(metric: string): UsageTotals {
    return this.totalsOf(this.records.filter((r) => r.metric === metric));
  }

  /** Totals per metric tag (untagged calls under `""`). */
  byMetric(): Map<string, UsageTotals> {
    const groups = new Map<string, CallRecord[]>();
    for (const r of this.records) {
      const key = r.metric ?? "";
      const list = groups.get(key) ?? [];
      list.push(r);
      groups.set(key, list);
    }
    const out = new Map<string, UsageTotals>();
    for (const [key, list] of groups) out.set(key, this.totalsOf(list));
    return out;
  }

  reset(): void {
    this.records.length = 0;
  }
}
