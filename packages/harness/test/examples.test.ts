// The README's examples are these files; they must run.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

describe("README examples", () => {
  it.each(["evaluate.mjs", "byob.mjs", "score-file.mjs", "deepeval.mjs"])("%s runs", async (name) => {
    const { stdout } = await run(process.execPath, [example(name)], { maxBuffer: 16 << 20 });
    expect(stdout.length).toBeGreaterThan(0);
    if (name === "evaluate.mjs") expect(stdout).toContain("66.67");
    if (name === "byob.mjs") expect(stdout).toContain('"capitals_qa"');
    if (name === "deepeval.mjs") {
      expect(stdout).toContain("Test cases: 1/2 passed (50.00%); evaluation cost: $0.001260");
      expect(stdout).toContain('2 of 2 metric(s) failed for test case "Capital of Italy, as JSON?":');
    }
    if (name === "score-file.mjs") expect(stdout).toMatch(/BLEU difference [\d.]+ p = /);
  });
});
