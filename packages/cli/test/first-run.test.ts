// The README's first command (`pnpm install --prod && pnpm run example`) builds @evalkern/cli and the
// packages below it with scripts/transpile.mjs (transpile only, no tsc) from a production install. This
// checks the two things that make that safe: the transpiled JavaScript is byte for byte what the full
// `tsc -p tsconfig.build.json` build emitted into dist/ (which the test run builds first), and the
// compiled code imports, statically, no package that a production install leaves out. `.ci/run` runs
// the command itself on a fresh clone and checks the size of its install.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const workspace = fileURLToPath(new URL("../../..", import.meta.url));

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const packages = new Map<string, { dir: string; manifest: Manifest }>();
for (const d of readdirSync(join(workspace, "packages"))) {
  const file = join(workspace, "packages", d, "package.json");
  if (existsSync(file)) {
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    packages.set(manifest.name, { dir: join(workspace, "packages", d), manifest });
  }
}
/** @evalkern/cli and the workspace packages it depends on, with a tsconfig.build.json (what example.mjs builds). */
const chain: string[] = [];
(function visit(name: string): void {
  if (chain.includes(name)) return;
  const { manifest } = packages.get(name)!;
  for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) if (range.startsWith("workspace:")) visit(dep);
  chain.push(name);
})("@evalkern/cli");
const built = chain.filter((name) => existsSync(join(packages.get(name)!.dir, "tsconfig.build.json")));

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".js"))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

let out = "";
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "evalkern-first-run-"));
  const dirs = built.map((name) => packages.get(name)!.dir);
  const result = spawnSync(process.execPath, [join(workspace, "scripts/transpile.mjs"), "--out", out, ...dirs], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`scripts/transpile.mjs exited ${result.status}: ${result.stderr}`);
});
afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

describe("first run: the transpile-only build of the example", () => {
  it("covers the cli and every workspace package below it", () => {
    expect(built).toEqual(expect.arrayContaining(["@evalkern/core-wasm", "@evalkern/metrics", "@evalkern/harness", "@evalkern/cli"]));
    expect(built.at(-1)).toBe("@evalkern/cli");
  });

  it.each(built)("%s: emits the JavaScript of the full tsc build, file for file", (name) => {
    const { dir } = packages.get(name)!;
    const dist = join(dir, "dist");
    // dist/ must come from tsc (declarations beside the JavaScript), not from a transpile-only example run
    expect(existsSync(join(dist, "index.d.ts")), `${name}: dist/ is not a full build; run \`pnpm run build\``).toBe(true);
    const mine = join(out, dir.split(/[\\/]/).at(-1)!);
    const files = jsFiles(dist);
    expect(files.length).toBeGreaterThan(0);
    expect(jsFiles(mine)).toEqual(files);
    const differing = files.filter((f) => readFileSync(join(dist, f), "utf8") !== readFileSync(join(mine, f), "utf8"));
    expect(differing, `transpileModule and tsc emit different JavaScript for these files of ${name}`).toEqual([]);
  });

  it.each(built)("%s: imports statically only its dependencies and peers (what `pnpm install --prod` installs)", (name) => {
    const { dir, manifest } = packages.get(name)!;
    const allowed = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    const dist = join(dir, "dist");
    const outside: string[] = [];
    for (const f of jsFiles(dist)) {
      const text = readFileSync(join(dist, f), "utf8");
      // static `import … from "x"`, `import "x"` and `export … from "x"` at the start of a line
      for (const m of text.matchAll(/^(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']/gm)) {
        const spec = m[1]!;
        if (spec.startsWith(".") || spec.startsWith("node:") || builtinModules.includes(spec)) continue;
        const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
        if (!allowed.has(pkg)) outside.push(`${f}: ${spec}`);
      }
    }
    expect(outside, `${name} imports packages that are not in its dependencies`).toEqual([]);
  });
});

describe("first run: scripts/ensure-full-install.mjs", () => {
  it("finds every devDependency installed in this (full) install", () => {
    const result = spawnSync(process.execPath, [join(workspace, "scripts/ensure-full-install.mjs"), "--check"], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
