import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  Evaluate,
  EvaluationResult,
  Example,
  MaxErrorsExceededError,
  MetricResultError,
  MigrationError,
  Prediction,
  configure,
  context,
  resetSettings,
  settings,
  type TextSink,
} from "../src/index.js";
import { tempDir } from "./helpers.js";

function sink(isTTY = false): TextSink & { text: string } {
  const s = { text: "", isTTY, columns: 100, write: (t: string) => void (s.text += t) };
  return s;
}
const quiet = () => ({ stdout: sink(), stderr: sink() });

const devset = [
  Example.from({ question: "2+2?", answer: "4" }).withInputs("question"),
  Example.from({ question: "3+3?", answer: "6" }).withInputs("question"),
  Example.from({ question: "capital of France?", answer: "Paris" }).withInputs("question"),
  Example.from({ question: "1+1?", answer: "2" }).withInputs("question"),
];
const answers: Record<string, string> = { "2+2?": "4", "3+3?": "6", "capital of France?": "Lyon", "1+1?": "2" };
const program = async ({ question }: Record<string, unknown>) => {
  await new Promise((r) => setTimeout(r, Math.random() * 5));
  return Prediction.from({ answer: answers[question as string] });
};
const exact = (ex: Example, pred: Prediction & { answer?: string }) => ex.get("answer") === pred.answer;

afterEach(() => resetSettings());

describe("Evaluate: aggregation as DSPy", () => {
  it("booleans → percent true; rows in devset order whatever the completion order", async () => {
    const result = await new Evaluate({ devset, metric: exact, numThreads: 4, output: quiet() }).call(program);
    expect(result).toBeInstanceOf(EvaluationResult);
    expect(result).toBeInstanceOf(Prediction);
    expect(result.score).toBe(75);
    expect(result.get("score")).toBe(75); // a Prediction with score and results, as DSPy's
    expect(result.results.map(([ex]) => ex)).toEqual(devset);
    expect(result.results.map(([, , s]) => s)).toEqual([true, true, false, true]);
    expect(result.errors).toEqual([]);
  });

  it("numbers → mean (as a percentage, DSPy's round(100·mean, 2)); Prediction scores; sync programs and modules", async () => {
    const half = () => 0.5;
    const r1 = await new Evaluate({ devset, metric: (_e, _p) => 1 / 3, output: quiet() }).call(() => Prediction.from({}));
    expect(r1.score).toBe(33.33);
    expect(r1.meanScore).toBeCloseTo(1 / 3, 15);
    const module = { forward: (inputs: Record<string, unknown>) => Prediction.from({ echoed: inputs.question }) };
    const r2 = await new Evaluate({ devset, output: quiet() }).call(module, {
      metric: () => Prediction.from({ score: 0.25, feedback: "meh" }),
    });
    expect(r2.score).toBe(25);
    const r3 = await new Evaluate({ devset: devset.slice(0, 2), metric: half, output: quiet() }).call({
      call: () => ({ plain: "object" }),
    });
    expect(r3.score).toBe(50);
    expect(r3.results[0]![1]).toEqual({ plain: "object" });
  });
});

describe("Evaluate: failures", () => {
  it("a throwing program or metric, or a metric returning null/undefined/NaN, gets failureScore; the error stays on the row", async () => {
    const metric = (ex: Example, pred: Prediction & { answer?: string }) => {
      const q = ex.get("question");
      if (q === "3+3?") throw new Error("metric exploded");
      if (q === "1+1?") return undefined;
      return ex.get("answer") === pred.answer;
    };
    const prog = async (inputs: Record<string, unknown>) => {
      if (inputs.question === "capital of France?") throw new TypeError("program exploded");
      return program(inputs);
    };
    const out = quiet();
    const result = await new Evaluate({ devset, metric, failureScore: 0.5, maxErrors: 10, output: out }).call(prog);
    expect(result.score).toBe(62.5); // (1 + 0.5 + 0.5 + 0.5) / 4
    const [r0, r1, r2, r3] = result.results;
    expect(r0!.error).toBeUndefined();
    expect(r1![2]).toBe(0.5);
    expect(r1!.error).toMatchObject({ index: 1, stage: "metric" });
    expect((r1!.error!.error as Error).message).toBe("metric exploded");
    expect(r1![1]).toBeInstanceOf(Prediction); // the prediction is kept
    expect(r2!.error).toMatchObject({ index: 2, stage: "program" });
    expect(r2![1]).toBeInstanceOf(Prediction);
    expect(r3!.error!.error).toBeInstanceOf(MetricResultError);
    expect(result.errors.map((e) => e.index)).toEqual([1, 2, 3]);
    expect(out.stderr.text).toContain("Error for example 1 (metric): Error: metric exploded. Set `provideTraceback: true` for traceback.");
    const nan = await new Evaluate({ devset: devset.slice(0, 1), metric: () => NaN, output: quiet() }).call(program);
    expect(nan.errors[0]!.error).toBeInstanceOf(MetricResultError);
    expect(nan.score).toBe(0);
  });

  it("maxErrors stops the run with a clear error, without starting the remaining rows", async () => {
    let calls = 0;
    const many = Array.from({ length: 50 }, (_, i) => Example.from({ q: i }).withInputs("q"));
    const evaluate = new Evaluate({ devset: many, metric: () => true, numThreads: 2, maxErrors: 3, output: quiet() });
    const err = await evaluate
      .call(() => {
        calls++;
        throw new Error("down");
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MaxErrorsExceededError);
    expect((err as MaxErrorsExceededError).message).toMatch(
      /3 failure\(s\) reached maxErrors \(3\)\. First failure \(example 0, program\): Error: down/,
    );
    expect((err as MaxErrorsExceededError).failures).toHaveLength(3);
    expect(calls).toBeLessThan(6);
    // the default comes from settings (DSPy's dspy.settings.max_errors)
    configure({ maxErrors: 2 });
    await expect(
      new Evaluate({ devset: many, metric: () => true, numThreads: 1, output: quiet() }).call(() => Promise.reject(new Error("x"))),
    ).rejects.toMatchObject({ maxErrors: 2 });
  });

  it("provideTraceback logs stacks", async () => {
    const out = quiet();
    await new Evaluate({ devset: devset.slice(0, 1), metric: () => true, provideTraceback: true, output: out }).call(() => {
      throw new Error("with stack");
    });
    expect(out.stderr.text).toMatch(/Error: with stack\n\s+at /);
  });

  it("removed DSPy options throw with a migration message; unknown options throw", () => {
    expect(() => new Evaluate({ devset, returnOutputs: true } as never)).toThrow(MigrationError);
    expect(() => new Evaluate({ devset, return_all_scores: true } as never)).toThrow(/results` is no longer|every per-example score/);
    expect(() => new Evaluate({ devset, returnAllScores: true } as never)).toThrow(/returnAllScores` is no longer supported/);
    expect(() => new Evaluate({ devset, num_threads: 2 } as never)).toThrow(/did you mean `numThreads`/);
    const ev = new Evaluate({ devset, metric: exact, output: quiet() });
    return expect(ev.call(program, { returnOutputs: true } as never)).rejects.toThrow(/results` field of the `EvaluationResult/);
  });

  it("rejects bad arguments up front", async () => {
    expect(() => new Evaluate({ devset: [{ question: "x" }] as never })).toThrow(/must be an Example/);
    expect(() => new Evaluate({ devset, numThreads: 0 })).toThrow(/numThreads/);
    await expect(new Evaluate({ devset, output: quiet() }).call(program)).rejects.toThrow(/no metric/);
    await expect(new Evaluate({ devset: [], metric: exact, output: quiet() }).call(program)).rejects.toThrow(/empty/);
  });
});

describe("Evaluate: context() settings reach every worker", () => {
  it("each concurrent row sees the enclosing context, and concurrent contexts do not leak", async () => {
    const many = Array.from({ length: 24 }, (_, i) => Example.from({ i }).withInputs("i"));
    const seen = async () => {
      await new Promise((r) => setTimeout(r, Math.random() * 4));
      await Promise.resolve();
      return Prediction.from({ lm: settings().lm, temp: settings().temperature });
    };
    const ev = new Evaluate({ devset: many, metric: () => true, numThreads: 8, output: quiet() });
    const [a, b] = await Promise.all([
      context({ lm: "model-a", temperature: 0 }, () => ev.call(seen)),
      context({ lm: "model-b" }, () => context({ temperature: 0.7 }, () => ev.call(seen))),
    ]);
    expect(a.results.every(([, p]) => (p as Prediction).get("lm") === "model-a" && (p as Prediction).get("temp") === 0)).toBe(true);
    expect(b.results.every(([, p]) => (p as Prediction).get("lm") === "model-b" && (p as Prediction).get("temp") === 0.7)).toBe(true);
    expect(settings().lm).toBeUndefined();
    // metrics run inside the context too
    const r = await context({ threshold: 0.5 }, () =>
      new Evaluate({ devset: many, metric: () => settings().threshold === 0.5, numThreads: 5, output: quiet() }).call(seen),
    );
    expect(r.score).toBe(100);
  });
});

describe("Evaluate: display and files", () => {
  it("displayProgress draws a live bar on a terminal and plain lines otherwise, on stderr", async () => {
    const tty = { stdout: sink(true), stderr: sink(true) };
    await new Evaluate({ devset, metric: exact, displayProgress: true, output: tty }).call(program);
    expect(tty.stderr.text).toMatch(/\rAverage Metric: 3\.00 \/ 4 \(75\.0%\) 100%\|█+\| 4\/4/);
    expect(tty.stdout.text).toBe("");
    const plain = quiet();
    await new Evaluate({ devset, metric: exact, displayProgress: true, output: plain }).call(program);
    expect(plain.stderr.text).not.toContain("\r");
    expect(plain.stderr.text).toMatch(/^Average Metric: 3\.00 \/ 4 \(75\.0%\) 4\/4 it \(100\.0%\)/m);
    expect(plain.stderr.text).toContain("Average Metric: 3 / 4 (75.0%)");
  });

  it("displayTable: all rows, or the first N with a note", async () => {
    const out = quiet();
    await new Evaluate({ devset, metric: exact, displayTable: 2, output: out }).call(program);
    const lines = out.stdout.text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\s*\| question\s+\| example_answer\s+\| pred_answer\s+\| exact$/);
    expect(lines[2]).toMatch(/^0 \| 2\+2\?\s+\| 4\s+\| 4\s+\| ✔️ \[True\]$/);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe("... 2 more rows not displayed ...");
    const all = quiet();
    await new Evaluate({ devset, metric: exact, displayTable: true, output: all }).call(program);
    expect(all.stdout.text).toContain("✔️ [False]");
    expect(all.stdout.text).not.toContain("more rows");
  });

  it("saveAsCsv and saveAsJson write DSPy's merged rows", async () => {
    const dir = tempDir();
    const csv = join(dir, "sub/results.csv");
    const json = join(dir, "results.json");
    await new Evaluate({ devset, metric: exact, saveAsCsv: csv, saveAsJson: json, output: quiet() }).call(program);
    const text = readFileSync(csv, "utf8");
    expect(text.split("\r\n")[0]).toBe("question,example_answer,pred_answer,exact");
    expect(text.split("\r\n")[3]).toBe("capital of France?,Paris,Lyon,False");
    const rows = JSON.parse(readFileSync(json, "utf8")) as Record<string, unknown>[];
    expect(rows[2]).toEqual({ question: "capital of France?", example_answer: "Paris", pred_answer: "Lyon", exact: false });
  });
});

// DSPy's ParallelExecutor resubmits a straggler: once no more than `straggler_limit` (3) items are still
// pending, an item running for `timeout` (120 s) or longer is submitted again and the first result wins.
describe("Evaluate: stragglers (DSPy's timeout and straggler_limit)", () => {
  const questions = ["a", "b", "c", "d", "e", "f"];
  const set = questions.map((q) => Example.from({ question: q, answer: q.toUpperCase() }).withInputs("question"));
  const never = new Promise<never>(() => undefined);

  /** A program whose first call for each question in `slow` waits on `first(q)`; later calls answer at once. */
  function scripted(slow: Record<string, (q: string) => Promise<string>>) {
    const calls = new Map<string, number>();
    const program = async ({ question }: Record<string, unknown>) => {
      const q = question as string;
      const k = (calls.get(q) ?? 0) + 1;
      calls.set(q, k);
      const answer = k === 1 && slow[q] ? await slow[q](q) : q.toUpperCase();
      return Prediction.from({ answer });
    };
    return { program, calls };
  }

  it("defaults to DSPy's: timeout 120 s, stragglerLimit 3; both are options of the instance and of call()", () => {
    const ev = new Evaluate({ devset: set, metric: exact, output: quiet() });
    expect(ev.timeout).toBe(120);
    expect(ev.stragglerLimit).toBe(3);
    expect(new Evaluate({ devset: set, timeout: null }).timeout).toBeNull();
    expect(() => new Evaluate({ devset: set, timeout: -1 })).toThrow(/timeout/);
    expect(() => new Evaluate({ devset: set, stragglerLimit: 1.5 })).toThrow(/stragglerLimit/);
    expect(() => new Evaluate({ devset: set, straggler_limit: 2 } as never)).toThrow(/did you mean `stragglerLimit`/);
  });

  it("a row that never returns is started again once few rows remain, and its second attempt scores it", async () => {
    const { program, calls } = scripted({ c: () => never });
    const result = await new Evaluate({ devset: set, metric: exact, numThreads: 4, timeout: 0.05, output: quiet() }).call(program);
    expect(result.score).toBe(100);
    expect(result.results.map((r) => (r[1] as Prediction & { answer: string }).answer)).toEqual(["A", "B", "C", "D", "E", "F"]);
    expect(Object.fromEntries(calls)).toEqual({ a: 1, b: 1, c: 2, d: 1, e: 1, f: 1 });
  });

  it("the first attempt to finish wins; the straggler's late answer changes nothing", async () => {
    let release!: (answer: string) => void;
    const { program, calls } = scripted({ b: () => new Promise<string>((r) => (release = r)) });
    const result = await new Evaluate({ devset: set, metric: exact, numThreads: 2, timeout: 0.05, output: quiet() }).call(program);
    release("wrong");
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.get("b")).toBe(2);
    expect((result.results[1]![1] as Prediction & { answer: string }).answer).toBe("B");
    expect(result.score).toBe(100);
  });

  it("resubmits only once no more than stragglerLimit attempts are pending", async () => {
    // Two slow rows, limit 1: while both run, 2 attempts are pending (> 1) and neither is resubmitted. When
    // the first slow one returns, one is left, and it (running past the timeout) is started again: 3 calls.
    const { program, calls } = scripted({
      e: (q) => new Promise((r) => setTimeout(() => r(q.toUpperCase()), 300)),
      f: () => never,
    });
    const result = await new Evaluate({
      devset: set,
      metric: exact,
      numThreads: 6,
      timeout: 0.05,
      stragglerLimit: 1,
      output: quiet(),
    }).call(program);
    expect(result.score).toBe(100);
    expect(calls.get("e")).toBe(1);
    expect(calls.get("f")).toBe(2);
  });

  it("never resubmits with timeout null (or 0) or with numThreads 1 (DSPy runs sequentially then)", async () => {
    for (const options of [
      { numThreads: 4, timeout: null },
      { numThreads: 4, timeout: 0 },
      { numThreads: 1, timeout: 0.05 },
    ]) {
      const { program, calls } = scripted({ d: (q) => new Promise((r) => setTimeout(() => r(q.toUpperCase()), 150)) });
      const result = await new Evaluate({ devset: set, metric: exact, output: quiet(), ...options }).call(program);
      expect(result.score, JSON.stringify(options)).toBe(100);
      expect(calls.get("d"), JSON.stringify(options)).toBe(1);
    }
  });

  it("call() overrides the instance's timeout", async () => {
    const { program, calls } = scripted({ a: () => never });
    const ev = new Evaluate({ devset: set, metric: exact, numThreads: 3, timeout: null, output: quiet() });
    const result = await ev.call(program, { timeout: 0.05 });
    expect(result.score).toBe(100);
    expect(calls.get("a")).toBe(2);
  });
});

describe("runParallel: a straggler timer that fires before the clock says its time is up", () => {
  it("is armed again for what is left, so the straggler is still started again (no hang)", async () => {
    const { runParallel } = await import("../src/evaluate/parallel.js");
    // a clock that stands still until the test moves it: the first timer fires while it still reads 0
    let clock = 0;
    const attempts = new Map<number, number>();
    const settled: string[] = [];
    const run = runParallel(
      2,
      async (index) => {
        const k = (attempts.get(index) ?? 0) + 1;
        attempts.set(index, k);
        if (index === 1 && k === 1) await new Promise<never>(() => undefined);
        return { failed: false, outcome: `${index}#${k}` };
      },
      {
        concurrency: 2,
        timeoutMs: 30,
        stragglerLimit: 3,
        shouldStop: () => false,
        onSettled: (_i, o) => settled.push(o),
        now: () => clock,
      },
    );
    await new Promise((r) => setTimeout(r, 80));
    expect(attempts.get(1)).toBe(1); // the timer fired at 30 ms of real time, but the clock said 0 ms
    clock = 1_000;
    await run;
    expect(attempts.get(1)).toBe(2);
    expect(settled.sort()).toEqual(["0#1", "1#2"]);
  });
});
