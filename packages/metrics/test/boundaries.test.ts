// Layering and import circles of @evalkern/metrics, checked with the workspace's one set of rules
// (scripts/dev/boundaries.mjs): no import of a package above it, no import circle inside it.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayering, importCycles, LAYERS } from "../../../scripts/dev/boundaries.mjs";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/[/\\]$/, "");

describe("boundaries", () => {
  it(`metrics imports no package above it (allowed: ${LAYERS["metrics"].join(", ") || "none"})`, () => {
    expect(checkLayering("metrics", root)).toEqual([]);
  });
  it("has no import circles", () => {
    expect(importCycles(root)).toEqual([]);
  });
});

describe("the checker itself", () => {
  it("catches static, dynamic and URL imports of a package above, not prose; finds circles", async () => {
    const { layeringViolations, relativeImports } = await import("../../../scripts/dev/boundaries.mjs");
    const file = `${root}/src/sample.ts`;
    const bad = [
      'import { x } from "@evalkern/judge";',
      'export { y } from "@evalkern/harness/sub";',
      'const m = await import("@evalkern/cli/dist/adapters.js");',
      'const u = new URL("../../cli/dist/adapters.js", import.meta.url).href;',
      'const f = "file:///repo/packages/harness/dist/adapters.js";',
      'const g = require("../../judge/src/index.js");',
    ];
    for (const line of bad) expect(layeringViolations("metrics", root, line, file), line).not.toEqual([]);
    const fine = [
      '// import "@evalkern/cli" in a comment',
      'throw new Error("see @evalkern/cli for more");',
      'import { z } from "./local.js";',
      'import { k } from "@evalkern/core-wasm";',
    ];
    for (const line of fine) expect(layeringViolations("metrics", root, line, file), line).toEqual([]);
    expect(
      relativeImports(
        'import type { A } from "./a.js";\nimport { b } from "./b.js";\n' +
          'export * from "./c.js";\nconst d = await import("./d.js");\nimport "./e.js";',
      ),
    ).toEqual(["./b.js", "./c.js", "./d.js", "./e.js"]);
  });
});
