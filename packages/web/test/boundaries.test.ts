// Layering and import circles of @evalkern/web, checked with the workspace's one set of rules
// (scripts/dev/boundaries.mjs): no import of a package above it, no import circle inside it.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayering, importCycles, LAYERS } from "../../../scripts/dev/boundaries.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[/\\]$/, "");

describe("boundaries", () => {
  it(`web imports no package above it (allowed: ${LAYERS["web"].join(", ") || "none"})`, () => {
    expect(checkLayering("web", root)).toEqual([]);
  });
  it("has no import circles", () => {
    expect(importCycles(root)).toEqual([]);
  });
});
