// The README's examples are these files; they must run.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

describe("README examples", () => {
  it.each(["evaluate.mjs", "byob.mjs", "score-file.mjs"])("%s runs", async (name) => {
    const { stdout } = await run(process.execPath, [example(name)], { maxBuffer: 16 << 20 });
    expect(stdout.length).toBeGreaterThan(0);
    if (name === "evaluate.mjs") expect(stdout).toContain("66.67");
    if (name === "byob.mjs") expect(stdout).toContain('"capitals_qa"');
    if (name === "score-file.mjs") expect(stdout).toMatch(/BLEU difference [\d.]+ p = /);
  });
});
