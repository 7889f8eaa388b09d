// Runs the example of README-deepeval.md against the sources and checks its printed output, so the
// README cannot drift from the code. The example is plain JavaScript (also valid as an ES module
// against the built package); its import line is replaced by the module namespace here.
import { describe, expect, it } from "vitest";
import readme from "../../README-deepeval.md?raw";
import * as deepeval from "../../src/deepeval/index.js";

function block(language: string, after = 0): { code: string; end: number } {
  const start = readme.indexOf("```" + language + "\n", after);
  if (start === -1) throw new Error(`README-deepeval.md has no \`\`\`${language} block`);
  const bodyStart = start + language.length + 4;
  const end = readme.indexOf("\n```", bodyStart);
  return { code: readme.slice(bodyStart, end), end };
}

function pairs(): { code: string; expected: string[] }[] {
  const found: { code: string; expected: string[] }[] = [];
  let from = 0;
  while (readme.indexOf("```js\n", from) !== -1) {
    const example = block("js", from);
    const output = block("text", example.end);
    found.push({ code: example.code, expected: output.code.split("\n") });
    from = output.end;
  }
  return found;
}

describe("README-deepeval.md examples", () => {
  it.each(pairs().map((pair, index) => [index, pair] as const))(
    "example %i runs and prints the documented output",
    async (_index, { code, expected }) => {
      const importLine = /import\s*\{([^}]*)\}\s*from\s*"@evalkern\/metrics\/deepeval";\n/;
      const match = importLine.exec(code);
      expect(match, "the example imports from @evalkern/metrics/deepeval").not.toBeNull();
      const names = (match?.[1] ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const body = code.replace(importLine, "");

      const printed: string[] = [];
      const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
        ...args: string[]
      ) => (...values: unknown[]) => Promise<void>;
      const run = new AsyncFunction("console", ...names, body);
      await run(fakeConsole, ...names.map((name) => (deepeval as Record<string, unknown>)[name]));

      expect(printed).toEqual(expected);
    },
  );
});
