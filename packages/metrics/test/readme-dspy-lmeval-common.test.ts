// Runs every ```js example of README-dspy-lmeval-common.md against the sources and compares what it
// prints with the ```text block after it, so the README cannot drift from the code. The examples are
// plain JavaScript ES modules against the built package; here their import line is replaced by the
// source modules (the root entry `@evalkern/metrics` by the contract modules it re-exports).
import { describe, expect, it } from "vitest";
import readme from "../README-dspy-lmeval-common.md?raw";
import * as common from "../src/common/index.js";
import * as dspyMetric from "../src/contracts/dspy-metric.js";
import * as evaluator from "../src/contracts/dsrs-evaluator.js";
import * as example from "../src/contracts/example.js";
import * as dspy from "../src/dspy/index.js";
import * as lmeval from "../src/lmeval/index.js";

const MODULES: Record<string, Record<string, unknown>> = {
  "@evalkern/metrics/dspy": dspy,
  "@evalkern/metrics/lmeval": lmeval,
  "@evalkern/metrics/common": common,
  "@evalkern/metrics": { ...example, ...dspyMetric, ...evaluator },
};

interface Example {
  code: string;
  expected: string[];
}

function examples(): Example[] {
  const out: Example[] = [];
  const fence = /```js\n([\s\S]*?)\n```\s*```text\n([\s\S]*?)\n```/g;
  for (const m of readme.matchAll(fence)) out.push({ code: m[1]!, expected: m[2]!.split("\n") });
  return out;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

describe("README-dspy-lmeval-common.md examples", () => {
  it("has one example per subpath and for the contracts", () => {
    expect(examples().length).toBe(4);
  });

  for (const [i, ex] of examples().entries()) {
    it(`example ${i + 1} runs and prints the documented output`, async () => {
      const importLine = /import\s*\{([^}]*)\}\s*from\s*"(@evalkern\/metrics(?:\/\w+)?)";\n/;
      const match = importLine.exec(ex.code);
      expect(match, "the example starts with one import from @evalkern/metrics").not.toBeNull();
      const mod = MODULES[match![2]!]!;
      const names = match![1]!
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      for (const name of names) expect(mod[name], `${match![2]} exports ${name}`).toBeDefined();
      const printed: string[] = [];
      const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
      const run = new AsyncFunction("console", ...names, ex.code.replace(importLine, ""));
      await run(fakeConsole, ...names.map((n) => mod[n]));
      expect(printed).toEqual(ex.expected);
    });
  }
});
