// Runs the example of README-evalwire.md against the sources and checks its printed output, so the
// README cannot drift from the code. The example is plain JavaScript (also valid as an ES module
// against the built package); its import line is replaced by the module namespace here.
import { describe, expect, it } from "vitest";
import readme from "../../README-evalwire.md?raw";
import * as evalwire from "../../src/evalwire/index.js";

function block(language: string, after = 0): { code: string; end: number } {
  const start = readme.indexOf("```" + language + "\n", after);
  if (start === -1) throw new Error(`README-evalwire.md has no \`\`\`${language} block`);
  const bodyStart = start + language.length + 4;
  const end = readme.indexOf("\n```", bodyStart);
  return { code: readme.slice(bodyStart, end), end };
}

describe("README-evalwire.md example", () => {
  it("runs and prints the documented output", () => {
    const example = block("js");
    const expected = block("text", example.end).code.split("\n");
    const importLine = /import\s*\{([^}]*)\}\s*from\s*"@evalkern\/metrics\/evalwire";\n/;
    const match = importLine.exec(example.code);
    expect(match, "the example imports from @evalkern/metrics/evalwire").not.toBeNull();
    const names = (match?.[1] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const printed: string[] = [];
    const fakeConsole = { log: (...args: unknown[]) => printed.push(args.map(String).join(" ")) };
    const run = new Function("console", ...names, example.code.replace(importLine, "")) as (...values: unknown[]) => void;
    run(fakeConsole, ...names.map((name) => (evalwire as Record<string, unknown>)[name]));
    expect(printed).toEqual(expected);
  });
});
