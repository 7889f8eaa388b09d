// What `evalkern score` loads: the bulk scorer (`@evalkern/harness/bulk`), not the judge client, DSPy's
// Evaluate, BYOB or suites, nor the OpenAI SDK and zod they bring (about 0.3 CPU-s of every run, the
// main thread's module loading). A module loader hook in the command's process lists every module it loads.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { bin, tempDir } from "./support/cli.js";

describe("evalkern score's startup", () => {
  it("loads no judge client, no Evaluate, BYOB or suite module, no openai and no zod", () => {
    const dir = tempDir();
    const input = join(dir, "in.jsonl");
    writeFileSync(input, `${JSON.stringify({ hyp: "the cat sat", refs: ["the cat sat on the mat"] })}\n`);
    const log = join(dir, "loaded.txt");
    const hooks = join(dir, "hooks.mjs");
    writeFileSync(
      hooks,
      `import { appendFileSync } from "node:fs";\n` +
        `export async function load(url, context, next) {\n` +
        `  appendFileSync(${JSON.stringify(log)}, url + "\\n");\n` +
        `  return next(url, context);\n` +
        `}\n`,
    );
    const register = join(dir, "register.mjs");
    writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = spawnSync(
      process.execPath,
      ["--import", pathToFileURL(register).href, bin, "score", input, "--metric", "bleu", "--metric", "f1", "--no-ci", "--no-progress"],
      { cwd: dir, encoding: "utf8", timeout: 60_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const loaded = readFileSync(log, "utf8").trim().split("\n");
    expect(loaded.some((u) => u.includes("/harness/dist/node/score-file.js"))).toBe(true); // the hook saw the scorer
    const heavyPath =
      /\/node_modules\/(openai|zod)\/|\/judge\/dist\/(openai|deepeval|layers|dspy)\/|\/harness\/dist\/(evaluate|byob|suite|deepeval)\//;
    const heavy = loaded.filter((u) => heavyPath.test(u));
    expect(heavy).toEqual([]);
  });
});
