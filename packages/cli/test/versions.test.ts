// The versions in signatures come from package.json (scripts/package-version.mjs writes each package's
// src/version.generated.ts at build time and after `changeset version`): no source file spells a version.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KERNEL_VERSION, kernelSignature, ready } from "@evalkern/core-wasm";
import { createBulkMetric, normalizeMetrics } from "@evalkern/harness/browser";
import { RULES_VERSION } from "@evalkern/metrics/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_VERSION } from "../src/results.js";
// @ts-expect-error -- a plain ES module of the workspace scripts, without types
import { versionedPackages, versionSource } from "../../../scripts/package-version.mjs";

const root = join(import.meta.dirname, "..", "..", "..");
const versionOf = (pkg: string): string => JSON.parse(readFileSync(join(root, "packages", pkg, "package.json"), "utf8")).version;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !e.name.endsWith(".generated.ts") && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name));
}

const work = mkdtempSync(join(tmpdir(), "evalkern-versions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeAll(() => ready());

describe("package versions", () => {
  it("each package reports its package.json version in its signatures", async () => {
    expect(KERNEL_VERSION).toBe(versionOf("core-wasm"));
    expect(kernelSignature().startsWith(`evalkern-core-wasm:${versionOf("core-wasm")}|`)).toBe(true);
    expect(RULES_VERSION).toBe(`@evalkern/metrics@${versionOf("metrics")}`);
    const [bleu] = normalizeMetrics(["bleu"]);
    const metric = await createBulkMetric(bleu!, { load: false });
    expect(metric.signature(1)).toContain(`harness:${versionOf("harness")}`);
    expect(CLI_VERSION).toBe(versionOf("cli"));
  });

  it("the generated files are those of the package.json files, and no source spells its package's version", () => {
    const versioned: string[] = versionedPackages();
    expect(versioned.map((d) => d.split(/[\\/]/).pop()).sort()).toEqual(["cli", "core-wasm", "harness", "metrics"]);
    for (const dir of versioned) {
      const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      expect(readFileSync(join(dir, "src", "version.generated.ts"), "utf8")).toBe(versionSource(version));
      for (const file of sources(join(dir, "src"))) {
        expect(readFileSync(file, "utf8").includes(`"${version}"`), `${file} spells "${version}"`).toBe(false);
      }
    }
  });

  it("scripts/package-version.mjs writes a bumped version (what `pnpm run version-packages` runs after changeset version)", () => {
    const dir = join(work, "pkg");
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", version: "1.2.3-rc.4" }));
    execFileSync(process.execPath, [join(root, "scripts", "package-version.mjs"), dir]);
    expect(readFileSync(join(dir, "src", "version.generated.ts"), "utf8")).toContain('export const PACKAGE_VERSION = "1.2.3-rc.4";');
    const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(rootManifest.scripts["version-packages"]).toMatch(/^changeset version && node scripts\/package-version\.mjs --all/);
  });
});
