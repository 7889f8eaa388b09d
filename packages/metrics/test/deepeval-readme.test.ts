// Runs the example of README-deepeval.md against the sources and checks its printed output, so the
// README cannot drift from the code. The example is plain JavaScript (also valid as an ES module
// against the built package); its import line is replaced by the module namespace here.
import { describe, expect, it } from "vitest";
import readme from "../README-deepeval.md?raw";
import * as deepeval from "../src/deepeval/index.js";

function block(language: string, after = 0): { code: string; end: number } {
  const start = readme.indexOf("```" + language + "\n", after);
  if (start === -1) throw new Error(`README-deepeval.md has no \`\`\`${language} block`);
  const bodyStart = start + language.length + 4;
  const end = readme.indexOf("\n```", bodyStart);
  return { code: readme.slice(bodyStart, end), end };
}

describe("README-deepeval.md example", () => {
  it("runs and prints the documented output", async () => {
    const example = block("js");
    const expected = block("text", example.end).code.split("\n");

    const importLine = /import\s*\{([^}]*)\}\s*from\s*"@evalkern\/metrics\/deepeval";\n/;
    const match = importLine.exec(example.code);
    expect(match, "the example imports from @evalkern/metrics/deepeval").not.toBeNull();
    const names = (match?.[1] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const body = example.code.replace(importLine, "");

    const printed: string[] = [];
    const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    const run = new AsyncFunction("console", ...names, body);
    await run(fakeConsole, ...names.map((name) => (deepeval as Record<string, unknown>)[name]));

    expect(printed).toEqual(expected);
  });
});
