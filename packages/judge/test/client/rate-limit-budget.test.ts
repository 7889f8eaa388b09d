// Issue 11, defect 5: under 25 % 429s with Retry-After and 8 requests in flight no measurement fails as
// rate-limited: once the fixed attempts are spent, retries the server schedules go on within a time budget.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { JudgeRateLimitError, nextRetry, retryPolicy, zodSchema } from "../../src/index.js";
import { testJudge } from "../support/judge.js";
import { chatJson, rateLimited, startServer, type ScriptedServer } from "../support/server.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const Score = zodSchema("score", z.object({ reason: z.string(), score: z.number().int() }));

/** mulberry32: a seeded PRNG, so the 429 pattern is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("retry budget under Retry-After", () => {
  it("25 % 429s (Retry-After 50 ms) with 8 in flight: all 200 measurements succeed, none invented", async () => {
    const random = prng(11);
    const limitedFor = new Map<number, number>();
    server.handle("chat", (req) => {
      const i = Number(/item (\d+)/.exec(req.body.messages.at(-1).content)![1]);
      // item 7 is limited 6 times in a row (more than the 4 default attempts); the rest 25 % of the time
      const n = limitedFor.get(i) ?? 0;
      if ((i === 7 && n < 6) || (i !== 7 && random() < 0.25)) {
        limitedFor.set(i, n + 1);
        return rateLimited(0.05);
      }
      return chatJson({ reason: `item ${i}`, score: i });
    });
    const judge = testJudge(server, { maxConcurrency: 8 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => judge.generate({ messages: [{ role: "user", content: `Score item ${i}.` }], schema: Score })),
    );
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed).toEqual([]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value.value.score : null))).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const limited = [...limitedFor.values()].reduce((a, b) => a + b, 0);
    expect(limited).toBeGreaterThan(40); // about a quarter of the requests were refused
    expect(limitedFor.get(7)).toBe(6);
    expect(server.requestsTo("chat")).toHaveLength(200 + limited);
    expect(server.maxInFlight).toBeLessThanOrEqual(8);
  });

  it("the budget ends a rate limit that never lifts, with JudgeRateLimitError", async () => {
    server.handle("chat", () => rateLimited(0.05));
    const judge = testJudge(server, { retry: { maxAttempts: 2, budgetMs: 400 } });
    const e = (await judge.generate({ messages: [{ role: "user", content: "x" }] }).catch((x: unknown) => x)) as JudgeRateLimitError;
    expect(e).toBeInstanceOf(JudgeRateLimitError);
    expect(e.attempts).toBeGreaterThan(2); // beyond the fixed count, within the budget
    expect(e.attempts).toBeLessThanOrEqual(Math.ceil(400 / 50) + 1);
  });

  it("nextRetry: backoff within maxAttempts; beyond, only with Retry-After and within the budget", () => {
    const p = retryPolicy({ maxAttempts: 2, initialDelayMs: 10, jitter: 0, random: () => 0, budgetMs: 1000 });
    expect(nextRetry(p, 1, null, 0)).toBe(10);
    expect(nextRetry(p, 2, null, 0)).toBeNull();
    expect(nextRetry(p, 2, 200, 500)).toBe(200);
    expect(nextRetry(p, 2, 0, 500)).toBe(10); // Retry-After 0 still waits initialDelayMs
    expect(nextRetry(p, 5, 200, 900)).toBeNull();
    expect(nextRetry(retryPolicy({ maxAttempts: 2, budgetMs: 0 }), 2, 10, 0)).toBeNull();
  });
});
