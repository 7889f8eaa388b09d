// The runtime-neutral core (Evaluate, settings, BYOB, bulk chunk logic, Python helpers) must not import
// node:* — Node specifics live behind the runtime adapter (src/runtime/node.ts) and in src/node/.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../src", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [join(dir, e.name)] : []));
}

describe("module boundaries", () => {
  it("only src/node/, src/runtime/node.ts and the Node entry import node:*", () => {
    const offenders = files(src)
      .filter((f) => !f.includes("/src/node/") && !f.endsWith("/runtime/node.ts") && !f.endsWith("/src/index.ts"))
      .filter((f) => /from\s+["']node:|import\(\s*["']node:|require\(\s*["']node:/.test(readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});
