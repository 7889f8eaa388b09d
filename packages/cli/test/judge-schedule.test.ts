// How `evalkern judge` keeps its call slots busy: a measurement's calls are sequential, and while one
// measurement is between two calls another must be ready to take the freed slot (issue 23, target 5).
import { ConcurrencyLimiter } from "@evalkern/judge";
import { describe, expect, it } from "vitest";
import { judgeAll } from "../src/commands/judge.js";
import type { JudgeCase, JudgeRunner } from "../src/judge-metrics.js";

const sink = { write: () => true };
const row = (input: string): JudgeCase => ({ input, actualOutput: "a", expectedOutput: null, context: null, retrievalContext: null });
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("judgeAll", () => {
  it("a measurement between two calls leaves its slot to the next one; the calls in flight stay capped", async () => {
    const limiter = new ConcurrencyLimiter(1);
    const calls: string[] = [];
    const gaps = new Map<string, () => void>();
    // two calls per measurement with a gap between them that the test ends (a reply being read)
    const runner: JudgeRunner = {
      name: "two-steps",
      higherIsBetter: true,
      threshold: null,
      signature: "two-steps",
      fields: ["input"],
      measure: async (c) => {
        await limiter.run(async () => calls.push(`${c.input}:1`));
        await new Promise<void>((resolve) => gaps.set(c.input, resolve));
        await limiter.run(async () => calls.push(`${c.input}:2`));
        return { score: 1, success: true, reason: null, scoringPath: "structured" };
      },
    };
    const done = judgeAll([row("a"), row("b"), row("c")], [runner], { concurrency: 1, progress: false }, { stdout: sink, stderr: sink });
    for (let i = 0; i < 5; i++) await settle();
    // while "a" is in its gap, "b" has already had the slot
    expect(calls).toEqual(["a:1", "b:1"]);
    gaps.get("a")!();
    for (let i = 0; i < 5; i++) await settle();
    expect(calls).toEqual(["a:1", "b:1", "a:2", "c:1"]);
    gaps.get("b")!();
    for (let i = 0; i < 5; i++) await settle();
    gaps.get("c")!();
    const results = await done;
    expect(results.map((r) => r[0]!.ok)).toEqual([true, true, true]);
    expect(calls.sort()).toEqual(["a:1", "a:2", "b:1", "b:2", "c:1", "c:2"]);
    expect(limiter.peakRunning).toBe(1);
  });

  it("--replay keeps two measurements in progress (nothing is sent), never more than --concurrency", async () => {
    for (const [concurrency, expected] of [
      [64, 2],
      [1, 1],
    ] as const) {
      let running = 0;
      let peak = 0;
      const runner: JudgeRunner = {
        name: "cached",
        higherIsBetter: true,
        threshold: null,
        signature: "cached",
        fields: ["input"],
        measure: async () => {
          running++;
          peak = Math.max(peak, running);
          await settle();
          running--;
          return { score: 0.5, success: true, reason: null, scoringPath: "structured" };
        },
      };
      const rows = Array.from({ length: 10 }, (_, i) => row(`r${i}`));
      const results = await judgeAll(rows, [runner], { concurrency, progress: false, replay: true }, { stdout: sink, stderr: sink });
      expect(results.map((r) => r[0]!.score)).toEqual(Array(10).fill(0.5));
      expect(peak).toBe(expected);
    }
  });
});
