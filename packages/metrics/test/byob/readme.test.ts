// Runs every ```ts block of README-byob.md against the sources, so the documented examples stay true.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../../README-byob.md", import.meta.url)), "utf8");
const entry = fileURLToPath(new URL("../../src/byob/index.ts", import.meta.url));
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
const dir = mkdtempSync(join(tmpdir(), "evalkern-readme-byob-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("README-byob.md examples", () => {
  it("has the examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });

  it.each(blocks.map((code, index) => [index + 1, code] as const))("block %i runs", async (index, code) => {
    const file = join(dir, `block-${index}.ts`);
    writeFileSync(file, `${code.replaceAll('"@evalkern/metrics/byob"', JSON.stringify(entry))}\nexport {};\n`);
    await import(/* @vite-ignore */ pathToFileURL(file).href);
  });
});
