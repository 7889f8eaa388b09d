// Layering and import circles of @evalkern/cli, checked with the workspace's one set of rules
// (scripts/dev/boundaries.mjs): no import of a package above it, no import circle inside it.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayering, importCycles, LAYERS } from "../../../scripts/dev/boundaries.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[/\\]$/, "");

describe("boundaries", () => {
  it(`cli imports no package above it (allowed: ${LAYERS["cli"].join(", ") || "none"})`, () => {
    expect(checkLayering("cli", root)).toEqual([]);
  });
  it("has no import circles", () => {
    expect(importCycles(root)).toEqual([]);
  });
  it("keeps every test in test/ (vitest runs only test/**/*.test.ts, so a test under src/ would never run)", () => {
    const stray = readdirSync(`${root}/src`, { recursive: true, encoding: "utf8" }).filter((f) => /\.test\.[cm]?[jt]s$/.test(f));
    expect(stray).toEqual([]);
  });
});
