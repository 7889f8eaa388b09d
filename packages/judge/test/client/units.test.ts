// Pure helpers: tolerant JSON extraction, Retry-After parsing and backoff, the limiter, price lookup.
import { describe, expect, it } from "vitest";
import {
  ConcurrencyLimiter,
  JudgeAbortedError,
  JudgeConfigError,
  backoffDelay,
  costOf,
  extractJson,
  lookupPrice,
  parseRetryAfter,
  retryPolicy,
} from "../../src/index.js";

describe("extractJson", () => {
  it.each([
    ['{"a": 1}', { a: 1 }, false],
    ['```json\n{"a": 1}\n```', { a: 1 }, true],
    ['Here is my verdict: {"a": [1, 2,], "b": "x,}"} Hope it helps', { a: [1, 2], b: "x,}" }, true],
    ['<think>{"draft": 1}</think>\n{"a": 2}', { a: 2 }, true],
    ['{"a": {"b": 1}', { a: { b: 1 } }, true],
    ["[1, 2]", [1, 2], false],
  ])("%s", (text, value, repaired) => {
    expect(extractJson(text)).toEqual({ ok: true, value, repaired });
  });

  it("reports what is missing", () => {
    expect(extractJson("")).toEqual({ ok: false, reason: "empty reply" });
    expect(extractJson("no json here")).toEqual({ ok: false, reason: "reply contains no JSON object" });
    expect(extractJson('{"a": nope}')).toMatchObject({ ok: false });
  });
});

describe("retry helpers", () => {
  it("parses retry-after-ms, seconds and HTTP dates", () => {
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "1.5" }))).toBe(1500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }))).toBeNull();
    expect(parseRetryAfter(new Headers())).toBeNull();
  });

  it("exponential backoff with jitter and a cap; Retry-After wins", () => {
    const fixed = retryPolicy({ initialDelayMs: 100, maxDelayMs: 1000, jitter: 0.25, random: () => 1 });
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(fixed, a, null))).toEqual([75, 150, 300, 600, 750]);
    const none = retryPolicy({ initialDelayMs: 100, random: () => 0 });
    expect(backoffDelay(none, 1, null)).toBe(100);
    expect(backoffDelay(none, 1, 2000)).toBe(2000);
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(JudgeConfigError);
  });
});

describe("ConcurrencyLimiter", () => {
  it("bounds running tasks and is FIFO; an aborted waiter leaves the queue", async () => {
    const limiter = new ConcurrencyLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 10));
      order.push(i);
      running--;
      return i;
    };
    const controller = new AbortController();
    const aborted = limiter.run(task(99), controller.signal);
    const results = Promise.all([0, 1, 2, 3].map((i) => limiter.run(task(i))));
    // 99 holds a slot already; abort only affects waiters, so it completes.
    controller.abort();
    expect(await aborted).toBe(99);
    expect(await results).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    const waiting = new AbortController();
    const blockers = [limiter.run(task(5)), limiter.run(task(6))];
    const cancelled = limiter.run(task(7), waiting.signal);
    waiting.abort();
    await expect(cancelled).rejects.toBeInstanceOf(JudgeAbortedError);
    await Promise.all(blockers);
    expect(limiter.running).toBe(0);
    expect(limiter.waiting).toBe(0);
    expect(() => new ConcurrencyLimiter(0)).toThrow(JudgeConfigError);
  });
});

describe("prices", () => {
  it("exact, then longest prefix; cost per million tokens", () => {
    const table = { "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10 }, "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 } };
    expect(lookupPrice(table, "gpt-4o-mini-2024-07-18")).toBe(table["gpt-4o-mini"]);
    expect(lookupPrice(table, "gpt-4o-2024-08-06")).toBe(table["gpt-4o"]);
    expect(lookupPrice(table, "llama3")).toBeUndefined();
    expect(costOf({ inputTokens: 1_000_000, outputTokens: 500_000 }, table["gpt-4o"])).toBe(7.5);
    expect(costOf({ inputTokens: 10, outputTokens: 10 }, undefined)).toBeNull();
  });
});

describe("extractJson repairs of cut-off replies", () => {
  it("closes open strings, arrays and objects as a last resort", () => {
    expect(extractJson('{"verdicts": [{"verdict": "yes"}, {"verdict": "no", "reason": "cut')).toEqual({
      ok: true,
      value: { verdicts: [{ verdict: "yes" }, { verdict: "no", reason: "cut" }] },
      repaired: true,
    });
  });
});
