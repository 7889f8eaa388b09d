// lm-evaluation-harness parity: every `lmeval` entry of testdata/golden/mc.jsonl. `lmeval.out` holds
// lm-eval's own `process_results` output for `gold`, `is_greedy_used` (all false when null) and the
// line's choices and log-likelihoods: values compared with Object.is, errors by Python type. Entries lm-eval
// could not receive (`skipped`) are checked against our documented handling instead.
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError, PythonCompatError } from "../../src/errors.js";
import { multipleChoice, multipleChoiceBatch, ready, type MultipleChoiceInput } from "../../src/lmeval/index.js";
import { isGoldenError, readSharedLines } from "../golden.js";

interface McLine {
  id: string;
  args: { target: unknown; metadata: { _choices?: unknown; _choices_logprobs?: unknown; _choices_is_greedy?: unknown } };
  lmeval: { gold: unknown; is_greedy_used: boolean[] | null; out: Record<string, unknown> };
}

let lines: { line: McLine; floatGold: boolean }[] = [];

beforeAll(async () => {
  await ready();
  lines = readSharedLines("golden/mc.jsonl").map((raw) => ({
    line: JSON.parse(raw) as McLine,
    // JSON.parse cannot tell 1.0 from 1; the golden text keeps Python's spelling
    floatGold: /"lmeval": \{"gold": -?\d+(\.\d+([eE][-+]?\d+)?|[eE][-+]?\d+)[,}]/.test(raw),
  }));
});

function inputOf(l: McLine): MultipleChoiceInput {
  const input: MultipleChoiceInput = {
    gold: l.lmeval.gold as MultipleChoiceInput["gold"],
    choices: l.args.metadata._choices as string[],
    logprobs: l.args.metadata._choices_logprobs as number[],
  };
  return l.lmeval.is_greedy_used === null ? input : { ...input, isGreedy: l.lmeval.is_greedy_used };
}

function outcome(call: () => unknown): unknown {
  try {
    return call();
  } catch (error) {
    if (error instanceof PythonCompatError) return { error: error.pythonType };
    if (error instanceof InvalidArgumentError) return { invalid: error.argument };
    throw error;
  }
}

describe("mc.jsonl lmeval entries", () => {
  it("reproduces every value and error lm-eval produced", () => {
    const scored = lines.filter(({ line }) => !("skipped" in line.lmeval.out));
    expect(scored.length).toBeGreaterThan(200);
    const bad: unknown[] = [];
    for (const { line, floatGold } of scored) {
      const got = outcome(() => multipleChoice(inputOf(line), floatGold ? { numbers: "float" } : undefined));
      const want = line.lmeval.out;
      const ok = isGoldenError(want)
        ? isGoldenError(got) && got.error === want.error
        : typeof got === "object" &&
          got !== null &&
          (["acc", "acc_norm", "acc_bytes", "exact_match"] as const).every((k) =>
            Object.is((got as Record<string, unknown>)[k], want[k]),
          ) &&
          Object.keys(got).length === 4;
      if (!ok) bad.push({ id: line.id, got, want });
    }
    const skipped = lines.length - scored.length;
    console.log(
      `[lmeval.parity] multiple_choice: ${scored.length - bad.length}/${scored.length} lines matched ` +
        `(${skipped} more lm-eval skipped, checked below)`,
    );
    expect(bad).toEqual([]);
  });

  it("the batch form agrees with the per-item form", () => {
    const ok = lines.filter(({ line }) => !("skipped" in line.lmeval.out) && !isGoldenError(line.lmeval.out));
    const batch = multipleChoiceBatch(ok.map(({ line }) => inputOf(line)));
    ok.forEach(({ line }, i) => expect(batch[i]).toEqual(line.lmeval.out));
  });

  it("entries lm-eval cannot receive: shapes it never builds are InvalidArgumentError, list golds are multi-target", () => {
    const skipped = lines.filter(({ line }) => "skipped" in line.lmeval.out);
    expect(skipped.length).toBeGreaterThan(0);
    for (const { line } of skipped) {
      const got = outcome(() => multipleChoice(inputOf(line)));
      if (Array.isArray(line.lmeval.gold)) {
        // mc145: gold [1], lls [-14.157, -9.655, -9.655] over ["👍🏽", "ok", "👍"] (2, 2, 1 code points; 8, 2, 4 bytes)
        expect(line.id).toBe("mc145");
        expect(got).toEqual({ acc: 1, acc_norm: 1, acc_bytes: 0, exact_match: 0 });
      } else {
        expect(got, line.id).toHaveProperty("invalid");
      }
    }
  });
});

describe("lm-eval gold rules (docs/spec/rule-metrics.md §4)", () => {
  const choices = ["ab", "é", "日本"];
  const logprobs = [-2, -1.5, -4];

  it("int golds: in range, out of range (-100), negative (kept; exact_match reads from the end)", () => {
    expect(multipleChoice({ gold: 1, choices, logprobs })).toEqual({ acc: 1, acc_norm: 0, acc_bytes: 0, exact_match: 0 });
    expect(multipleChoice({ gold: 3, choices, logprobs, isGreedy: [true, true, true] })).toEqual({
      acc: 0,
      acc_norm: 0,
      acc_bytes: 0,
      exact_match: 0,
    });
    expect(multipleChoice({ gold: -1, choices, logprobs, isGreedy: [false, false, true] }).exact_match).toBe(1);
    expect(multipleChoice({ gold: -3, choices, logprobs, isGreedy: [true, false, false] }).exact_match).toBe(1);
    expect(() => multipleChoice({ gold: -4, choices, logprobs })).toThrow(PythonCompatError);
    expect(outcome(() => multipleChoice({ gold: -4, choices, logprobs }))).toEqual({ error: "IndexError" });
    expect(multipleChoice({ gold: 2n, choices, logprobs }).acc).toBe(0);
    expect(multipleChoice({ gold: 10n ** 30n, choices, logprobs }).exact_match).toBe(0);
  });

  it("per character, per byte", () => {
    // ll/chars: -1, -1.5, -2 → 0; ll/bytes: -1, -0.75, -0.667 → 2
    expect(multipleChoice({ gold: 0, choices, logprobs })).toEqual({ acc: 0, acc_norm: 1, acc_bytes: 0, exact_match: 0 });
    expect(multipleChoice({ gold: 2, choices, logprobs })).toEqual({ acc: 0, acc_norm: 0, acc_bytes: 1, exact_match: 0 });
  });

  it("str gold via choices.index, bool gold as int, None/float → TypeError", () => {
    expect(multipleChoice({ gold: "é", choices, logprobs }).acc).toBe(1);
    expect(multipleChoice({ gold: "x", choices, logprobs }).acc).toBe(0);
    expect(multipleChoice({ gold: true, choices, logprobs, isGreedy: [false, true, false] })).toEqual({
      acc: 1,
      acc_norm: 0,
      acc_bytes: 0,
      exact_match: 1,
    });
    for (const gold of [null, undefined, 1.5, Number.NaN]) {
      expect(outcome(() => multipleChoice({ gold, choices, logprobs }))).toEqual({ error: "TypeError" });
    }
    expect(outcome(() => multipleChoice({ gold: 1, choices, logprobs }, { numbers: "float" }))).toEqual({ error: "TypeError" });
    expect(multipleChoice({ gold: 1n, choices, logprobs }, { numbers: "float" }).acc).toBe(1);
    // a float equal to -100 is lm-eval's "invalid" marker: no indexing, no error
    expect(multipleChoice({ gold: -100, choices, logprobs }, { numbers: "float" }).exact_match).toBe(0);
  });

  it("list gold: membership, lazy exact_match, -100 for out-of-range items", () => {
    expect(multipleChoice({ gold: [0, 1], choices, logprobs })).toEqual({ acc: 1, acc_norm: 1, acc_bytes: 0, exact_match: 0 });
    expect(multipleChoice({ gold: [5, 2], choices, logprobs, isGreedy: [true, true, true] }).exact_match).toBe(1);
    expect(multipleChoice({ gold: [], choices, logprobs })).toEqual({ acc: 0, acc_norm: 0, acc_bytes: 0, exact_match: 0 });
    // any() stops at the first greedy item: the float after it is never used as an index
    expect(multipleChoice({ gold: [0, 1.5], choices, logprobs, isGreedy: [true, false, false] }).exact_match).toBe(1);
    expect(outcome(() => multipleChoice({ gold: [1.5, 0], choices, logprobs }))).toEqual({ error: "TypeError" });
    expect(outcome(() => multipleChoice({ gold: ["é"], choices, logprobs }))).toEqual({ error: "TypeError" });
  });

  it("empty choices divide by zero without a guard (numpy: the first NaN wins)", () => {
    expect(multipleChoice({ gold: 1, choices: ["a", ""], logprobs: [-1, -5] }).acc_norm).toBe(0); // -1 vs -inf
    expect(multipleChoice({ gold: 1, choices: ["a", ""], logprobs: [-1, 0] }).acc_norm).toBe(1); // NaN at 1
  });

  it("rejects shapes lm-eval never builds", () => {
    expect(outcome(() => multipleChoice({ gold: 0, choices: [], logprobs: [] }))).toEqual({ invalid: "choices" });
    expect(outcome(() => multipleChoice({ gold: 0, choices: ["a"], logprobs: [1, 2] }))).toEqual({ invalid: "logprobs" });
    expect(outcome(() => multipleChoice({ gold: 0, choices: ["a"], logprobs: [1], isGreedy: [] }))).toEqual({ invalid: "isGreedy" });
    expect(outcome(() => multipleChoice({ gold: 0, choices: "ab" as unknown as string[], logprobs: [1, 2] }))).toEqual({
      invalid: "choices",
    });
    expect(outcome(() => multipleChoice({ gold: 0, choices: ["a"], logprobs: [0] }, { numbers: "int" as "index" }))).toEqual({
      invalid: "options.numbers",
    });
  });
});
