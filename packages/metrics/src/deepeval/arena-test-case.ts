// DeepEval's `ArenaTestCase`: several answers to the same input, to pick the best one.
import { InvalidArgumentError } from "../errors.js";
import { LLMTestCase, type LLMTestCaseInit } from "./llm-test-case.js";
import { expectInit, fail, optionalRecord, requiredString } from "./validate.js";

/** One competitor: its name, its answer as a test case, and optional settings to report. */
export interface Contestant {
  readonly name: string;
  readonly testCase: LLMTestCase;
  readonly hyperparameters: Readonly<Record<string, unknown>> | null;
}

export interface ContestantInit {
  readonly name: string;
  readonly testCase: LLMTestCase | LLMTestCaseInit;
  readonly hyperparameters?: Readonly<Record<string, unknown>> | null;
}

export interface ArenaTestCaseInit {
  readonly contestants: readonly ContestantInit[];
}

const ARENA_MARKER = Symbol.for("evalkern.deepeval.ArenaTestCase");

/**
 * Contestants answering one input (DeepEval `ArenaTestCase`), for `BaseArenaMetric` subclasses.
 *
 * Details: construction rejects duplicate names and contestants whose `input` or `expectedOutput`
 * differ, with DeepEval's messages. An empty list is rejected too (DeepEval crashes on it).
 *
 * @example
 * new ArenaTestCase({
 *   contestants: [
 *     { name: "gpt", testCase: { input: "2+2?", actualOutput: "4" } },
 *     { name: "llama", testCase: { input: "2+2?", actualOutput: "four" } },
 *   ],
 * });
 */
export class ArenaTestCase {
  readonly [ARENA_MARKER] = true;
  readonly contestants: readonly Contestant[];

  constructor(init: ArenaTestCaseInit) {
    const owner = "ArenaTestCase";
    const record = expectInit(owner, init, ["contestants"]);
    if (!Array.isArray(record.contestants)) fail(owner, "contestants", "a non-empty array of contestants", record.contestants);
    if (record.contestants.length === 0) {
      throw new InvalidArgumentError(`${owner}: 'contestants' must not be empty`, {
        argument: "contestants",
        expected: "a non-empty array of contestants",
        actual: "array(0)",
      });
    }
    this.contestants = Object.freeze(
      (record.contestants as unknown[]).map((item, index) => {
        const where = `Contestant ${index}`;
        const contestant = expectInit(where, item, ["name", "testCase", "hyperparameters"]);
        const testCase = contestant.testCase;
        if (typeof testCase !== "object" || testCase === null) fail(owner, "contestants", "a contestant with a testCase", item, index);
        return Object.freeze({
          name: requiredString(where, "name", contestant.name),
          testCase: LLMTestCase.from(testCase as LLMTestCase | LLMTestCaseInit),
          hyperparameters: optionalRecord(where, "hyperparameters", contestant.hyperparameters),
        });
      }),
    );
    const names = this.contestants.map((c) => c.name);
    if (new Set(names).size !== names.length) {
      throw new InvalidArgumentError("All contestant names must be unique.", {
        argument: "contestants",
        expected: "unique names",
        actual: names.join(", "),
      });
    }
    assertSharedInputs(this.contestants.map((c) => c.testCase));
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is ArenaTestCase {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ARENA_MARKER] === true;
  }
}

/** DeepEval's rule: every contestant answers the same `input` against the same `expectedOutput`. */
export function assertSharedInputs(cases: readonly LLMTestCase[]): void {
  const [first, ...rest] = cases;
  if (!first) return;
  for (const testCase of rest) {
    if (testCase.input !== first.input) {
      throw new InvalidArgumentError("All contestants must have the same 'input'.", {
        argument: "contestants",
        expected: "the same input",
      });
    }
  }
  for (const testCase of rest) {
    if (testCase.expectedOutput !== first.expectedOutput) {
      throw new InvalidArgumentError("All contestants must have the same 'expected_output'.", {
        argument: "contestants",
        expected: "the same expected_output",
      });
    }
  }
}
