/**
 * `@evalkern/vitest/suite`: an `evalkern test` suite file run inside vitest, one vitest test per suite test
 * (per prompt and provider when outputs are generated), graded exactly as `evalkern test` grades it. A subpath,
 * so the root `@evalkern/vitest` stays small: only this entry loads the suite runner of @evalkern/harness.
 *
 * @example
 * // evals.test.ts
 * import { describeSuite } from "@evalkern/vitest/suite";
 * describeSuite("examples/evals.yaml"); // the path is relative to the working directory (vitest's root)
 */
import {
  loadSuiteSync,
  runSuiteCase,
  suiteCases,
  suiteGenerator,
  suiteNeeds,
  InvalidArgumentError,
  type AssertionOutcome,
  type RunSuiteOptions,
  type TestOutcome,
} from "@evalkern/harness";
import { describe, expect, test } from "vitest";

export interface DescribeSuiteOptions extends Omit<RunSuiteOptions, "onResult" | "concurrency"> {
  /** Name of the vitest `describe` block (default: the suite's description, else the path). */
  readonly name?: string;
  /** Per-test timeout in ms (default: vitest's). */
  readonly timeoutMs?: number;
}

function lines(outcomes: readonly AssertionOutcome[], indent = "  "): string[] {
  return outcomes.flatMap((a) => [
    `${indent}${a.pass ? "✓" : "✗"} ${a.type} (score ${a.score.toFixed(4)}): ${a.reason}`,
    ...lines(a.children ?? [], `${indent}  `),
  ]);
}

/** The failure message of a test outcome: the rule that failed, every assertion, and the output. */
export function outcomeMessage(o: TestOutcome): string {
  return [`${o.description}: ${o.reason}`, ...lines(o.assertions), `  output: ${o.output ?? "(none)"}`].join("\n");
}

/**
 * Declare one vitest test per test of the suite file at `path` (loaded now: a bad suite fails the test file
 * at collection with the `SuiteError`). A test passes when the suite's pass rule passes it.
 */
export function describeSuite(path: string, options: DescribeSuiteOptions = {}): void {
  const suite = loadSuiteSync(path);
  if (suiteNeeds(suite).judge && !options.judge) {
    throw new InvalidArgumentError(`${path} has model-graded assertions or judge metrics: pass { judge } to describeSuite`, {
      argument: "judge",
    });
  }
  const cases = suiteCases(suite, options);
  const generate = suiteGenerator(options);
  describe(options.name ?? suite.description ?? path, () => {
    for (const c of cases) {
      const name = [c.test.description, c.provider?.label, c.prompt?.label].filter((x) => x !== undefined).join(" · ");
      test(
        name,
        async () => {
          const outcome = await runSuiteCase(c, { ...options, generate });
          expect(outcome.pass, outcomeMessage(outcome)).toBe(true);
        },
        options.timeoutMs,
      );
    }
  });
}
