// Runs every ```ts block of README-dsrs.md against the sources, so the documented examples stay true.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../../README-dsrs.md", import.meta.url)), "utf8");
const entry = fileURLToPath(new URL("../../src/dsrs/index.ts", import.meta.url));
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
const dir = mkdtempSync(join(tmpdir(), "evalkern-readme-dsrs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README-dsrs.md examples", () => {
  it("has examples for every metric family", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(7);
  });

  it.each(blocks.map((code, index) => [index + 1, code.split("\n").find((line) => line.startsWith("import {")) ?? "", code] as const))(
    "block %i runs (%s)",
    async (index, _imports, code) => {
      const file = join(dir, `block-${index}.ts`);
      writeFileSync(file, `${code.replaceAll('"@evalkern/metrics/dsrs"', JSON.stringify(entry))}\nexport {};\n`);
      await import(/* @vite-ignore */ pathToFileURL(file).href);
    },
  );
});
