// What a user gets from the registry: `pnpm pack` every workspace package (after the build, as
// `pnpm publish` would; `prepack` copies the root LICENSE in), unpack the tarballs side by side into a
// temp node_modules/, and check them: LICENSE and README shipped, every relative link of every shipped
// README resolves inside the tarball, every `exports`/`bin`/`main`/`types` target exists, no source map
// or `sourceMappingURL` points at a file that is not shipped, no `workspace:` range leaks out, and
// require() of every entry point fails with the clear ESM-only message.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packagesDir = fileURLToPath(new URL("../..", import.meta.url));
// published packages only (the private web app, @evalkern/web, is a static site, not an npm package)
const dirs = readdirSync(packagesDir)
  .filter(
    (d) =>
      existsSync(join(packagesDir, d, "package.json")) &&
      !(JSON.parse(readFileSync(join(packagesDir, d, "package.json"), "utf8")) as { private?: boolean }).private,
  )
  .sort();

interface Manifest {
  name: string;
  version: string;
  license?: string;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  sideEffects?: boolean | string[];
  browser?: Record<string, string | false>;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  repository?: { url?: string; directory?: string };
  homepage?: string;
  bugs?: unknown;
  keywords?: string[];
  engines?: Record<string, string>;
}

let tmp = "";
/** package name → folder of its unpacked tarball (tmp/node_modules/<name>) */
const unpacked = new Map<string, string>();

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The string leaves of an `exports` value (conditions nested at any depth). */
function targets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(targets);
  return [];
}

/** The link targets of a Markdown file, outside code blocks and inline code. */
function markdownLinks(md: string): string[] {
  const text = md.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
  const links: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(m[1]!);
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) links.push(m[1]!);
  for (const m of text.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push(m[1]!);
  return links;
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "evalkern-packaging-"));
  const tgzDir = join(tmp, "tgz");
  mkdirSync(tgzDir);
  for (const dir of dirs) {
    const out = execFileSync("npx", ["--yes", "pnpm@12.21.0", "pack", "--pack-destination", tgzDir], {
      cwd: join(packagesDir, dir),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    const tgz = resolve(tgzDir, out.trim().split("\n").pop()!.trim());
    const name = (JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as Manifest).name;
    const dest = join(tmp, "node_modules", ...name.split("/"));
    mkdirSync(dest, { recursive: true });
    execFileSync("tar", ["xzf", tgz, "-C", dest, "--strip-components=1"]);
    unpacked.set(name, dest);
  }
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("packaging: the tarball of every workspace package", () => {
  it("packs every package of the workspace, the unscoped evalkern included", () => {
    expect([...unpacked.keys()].sort()).toEqual([
      "@evalkern/cli",
      "@evalkern/core-wasm",
      "@evalkern/harness",
      "@evalkern/judge",
      "@evalkern/metrics",
      "@evalkern/vitest",
      "evalkern",
    ]);
  });

  it("ships LICENSE (Apache-2.0, the root one), a README that says ESM only, and registry metadata", () => {
    const rootLicense = readFileSync(join(packagesDir, "..", "LICENSE"), "utf8");
    expect(rootLicense).toMatch(/Apache License\s+Version 2\.0/);
    for (const [name, dir] of unpacked) {
      const m = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
      expect(m.license, name).toBe("Apache-2.0");
      expect(readFileSync(join(dir, "LICENSE"), "utf8"), name).toBe(rootLicense);
      expect(readFileSync(join(dir, "README.md"), "utf8"), name).toMatch(/ESM only/);
      expect(m.repository?.url, name).toMatch(/^git\+https:\/\//);
      expect(m.repository?.directory, name).toMatch(/^packages\//);
      expect(m.homepage, name).toMatch(/^https:\/\//);
      expect(m.bugs, name).toBeDefined();
      expect(m.keywords?.length, name).toBeGreaterThan(0);
    }
  });

  it("resolves every relative link of every shipped README inside the tarball", () => {
    const dead: string[] = [];
    let checked = 0;
    for (const [name, dir] of unpacked) {
      for (const file of walk(dir).filter((f) => /\.md$/i.test(f))) {
        for (const link of markdownLinks(readFileSync(file, "utf8"))) {
          if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("#")) continue; // absolute URL or same-page anchor
          checked++;
          const path = decodeURIComponent(link.split("#")[0]!.split("?")[0]!);
          const target = resolve(dirname(file), path);
          if (relative(dir, target).startsWith("..") || !existsSync(target)) dead.push(`${name}/${relative(dir, file)}: ${link}`);
        }
      }
    }
    expect(dead).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(8); // metrics' and judge's README-*.md pages at least
  });

  it("ships every exports, bin, main, types, sideEffects and browser target", () => {
    const missing: string[] = [];
    for (const [name, dir] of unpacked) {
      const m = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
      const all = [
        ...targets(m.exports),
        ...Object.values(m.bin ?? {}),
        ...(m.main ? [m.main] : []),
        ...(m.types ? [m.types] : []),
        ...(Array.isArray(m.sideEffects) ? m.sideEffects : []),
        // the browser field's replacements (and the files they replace)
        ...Object.entries(m.browser ?? {}).flatMap(([from, to]) => (typeof to === "string" ? [from, to] : [from])),
      ];
      for (const t of all) if (!existsSync(join(dir, t))) missing.push(`${name}: ${t}`);
    }
    expect(missing).toEqual([]);
  });

  it('keeps the side effect of @evalkern/vitest (bundlers must not drop `import "@evalkern/vitest"`)', () => {
    const matchers = JSON.parse(readFileSync(join(unpacked.get("@evalkern/vitest")!, "package.json"), "utf8")) as Manifest;
    expect(matchers.sideEffects).toContain("./dist/index.js");
    // the exports target of "." is the file sideEffects names
    expect(targets((matchers.exports as Record<string, unknown>)["."])).toContain("./dist/index.js");
  });

  it("every package declares the Node versions it runs on (engines.node >=20)", () => {
    for (const [name, dir] of unpacked) {
      const m = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
      expect(m.engines?.node, name).toBe(">=20");
    }
  });

  it("installing the CLI (or the unscoped evalkern) pulls no test runner: no vitest, no required peer", () => {
    // npm installs a non-optional peer dependency; the closure of @evalkern/* packages the CLI depends on
    // must therefore neither depend on nor require as a peer any test runner or bundler.
    const seen = new Set<string>();
    const visit = (name: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      const m = JSON.parse(readFileSync(join(unpacked.get(name)!, "package.json"), "utf8")) as Manifest & {
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      const required = Object.keys(m.peerDependencies ?? {}).filter((p) => m.peerDependenciesMeta?.[p]?.optional !== true);
      expect(required, `${name}: required peers`).toEqual([]);
      for (const dep of Object.keys(m.dependencies ?? {})) {
        expect(dep, `${name} depends on`).not.toMatch(/^(vitest|vite|rolldown|@vitest\/.*)$/);
        if (unpacked.has(dep)) visit(dep);
      }
    };
    visit("evalkern");
    expect([...seen].sort()).toEqual([
      "@evalkern/cli",
      "@evalkern/core-wasm",
      "@evalkern/harness",
      "@evalkern/judge",
      "@evalkern/metrics",
      "evalkern",
    ]);
  });

  it("@evalkern/vitest depends on metrics and core-wasm only; vitest is a peer, and the harness an optional one (for /suite)", () => {
    type WithMeta = Manifest & { peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    const m = JSON.parse(readFileSync(join(unpacked.get("@evalkern/vitest")!, "package.json"), "utf8")) as WithMeta;
    expect(Object.keys(m.dependencies ?? {}).sort()).toEqual(["@evalkern/core-wasm", "@evalkern/metrics"]);
    expect(Object.keys(m.peerDependencies ?? {})).toEqual(["vitest", "@evalkern/harness"]);
    expect(m.peerDependenciesMeta).toEqual({ "@evalkern/harness": { optional: true } });
  });

  it("ships no source map without its sources and no sourceMappingURL to a missing map", () => {
    const dangling: string[] = [];
    for (const [name, dir] of unpacked) {
      for (const file of walk(dir)) {
        if (file.endsWith(".map")) {
          const map = JSON.parse(readFileSync(file, "utf8")) as { sources?: string[]; sourceRoot?: string };
          for (const s of map.sources ?? []) {
            const src = resolve(dirname(file), map.sourceRoot ?? "", s);
            if (!existsSync(src) || relative(dir, src).startsWith("..")) dangling.push(`${name}/${relative(dir, file)} → ${s}`);
          }
        } else if (/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(file)) {
          const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(file, "utf8"))?.[1];
          if (url && !url.startsWith("data:") && !existsSync(resolve(dirname(file), url)))
            dangling.push(`${name}/${relative(dir, file)} → ${url}`);
        }
      }
    }
    expect(dangling).toEqual([]);
  });

  it("publishes version ranges, never workspace: specifiers", () => {
    for (const [name, dir] of unpacked) {
      const m = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
      for (const [dep, range] of Object.entries({ ...m.dependencies, ...m.peerDependencies })) {
        expect(range, `${name} → ${dep}`).not.toMatch(/^workspace:/);
      }
    }
  });

  it("require() of every entry point throws the ESM-only message", () => {
    const specifiers: string[] = [];
    for (const [name, dir] of unpacked) {
      const m = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
      for (const [sub, value] of Object.entries(m.exports ?? {})) {
        if (value && typeof value === "object" && "require" in value) specifiers.push(sub === "." ? name : `${name}${sub.slice(1)}`);
      }
    }
    expect(specifiers).toContain("@evalkern/vitest");
    expect(specifiers).toContain("@evalkern/metrics/dspy");
    const script = `const out = {};
for (const s of ${JSON.stringify(specifiers)}) {
  try { require(s); out[s] = "loaded"; } catch (e) { out[s] = String(e.code) + " " + e.message; }
}
process.stdout.write(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["-e", script], { cwd: tmp, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as Record<string, string>;
    for (const s of specifiers) {
      const name = s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]!;
      expect(out[s], s).toContain(`ERR_REQUIRE_ESM ${name} is ESM-only: use import`);
      expect(out[s], s).toContain(`await import("${name}")`);
    }
  });
});

describe("packaging: the unscoped evalkern command", () => {
  it("runs @evalkern/cli's command with its arguments and exit code", () => {
    const bin = join(packagesDir, "evalkern", "bin.js");
    const version = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
    const direct = spawnSync(process.execPath, [join(packagesDir, "cli", "dist", "bin.js"), "--version"], { encoding: "utf8" });
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(direct.stdout);
    const bad = spawnSync(process.execPath, [bin, "no-such-command"], { encoding: "utf8" });
    const badDirect = spawnSync(process.execPath, [join(packagesDir, "cli", "dist", "bin.js"), "no-such-command"], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.status).toBe(badDirect.status);
  });
});
