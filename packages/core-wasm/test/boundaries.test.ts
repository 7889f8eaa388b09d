// Layering and import circles of @evalkern/core-wasm, checked with the workspace's one set of rules
// (scripts/dev/boundaries.mjs): it imports no package of ours, and nothing inside it imports in a circle.
// core-wasm's suites also run in Chromium, which has no file system: there the test is skipped, and the
// checker (a Node module) is loaded only where it runs.
import { describe, expect, it } from "vitest";
import { detectedRuntime } from "./runtime.js";

const onDisk = detectedRuntime() !== "browser";

describe.skipIf(!onDisk)("boundaries", () => {
  it("core-wasm imports no package of ours; no import circles", async () => {
    const { checkLayering, importCycles } = await import(/* @vite-ignore */ "../../../scripts/dev/boundaries.mjs");
    const { fileURLToPath } = await import("node:url");
    const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[/\\]$/, "");
    expect(checkLayering("core-wasm", root)).toEqual([]);
    expect(importCycles(root)).toEqual([]);
  });
});
