#!/usr/bin/env node
// Install size and dependency count of each published package, as a user gets them: `pnpm pack` every
// package (after `pnpm run build`), then for each one install its tarball alone in an empty temp dir with
// npm (`npm i --prefer-offline ./pkg.tgz` plus the tarballs of its own @evalkern dependencies, as the
// registry would provide them) and measure node_modules. npm's own rules apply, as for a user: a required
// peer dependency is installed (vitest for @evalkern/vitest), an optional one is not unless
// --with-optional-peers. Prints a Markdown table.
//
//   node scripts/install-size.mjs            # all packages
//   node scripts/install-size.mjs metrics    # some
//   node scripts/install-size.mjs --with-optional-peers metrics   # plus the optional peer dependencies
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const order = ["core-wasm", "metrics", "vitest", "judge", "harness", "cli"];
const args = process.argv.slice(2);
const withPeers = args.includes("--with-optional-peers");
const names = args.filter((a) => !a.startsWith("--"));
const wanted = names.length > 0 ? names : order;
const packDir = mkdtempSync(join(tmpdir(), "evalkern-pack-"));
const pnpm = ["--yes", "pnpm@12.21.0"];

const manifest = (dir) => JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
const tarballs = new Map();
for (const dir of order) {
  const out = execFileSync("npx", [...pnpm, "pack", "--pack-destination", packDir], { cwd: join(root, "packages", dir), encoding: "utf8" });
  const file = out.trim().split("\n").pop().trim();
  tarballs.set(manifest(dir).name, resolve(packDir, file));
}

/** The @evalkern packages `name` depends on, itself included, lowest first. */
function closure(name, seen = new Set()) {
  if (seen.has(name)) return seen;
  const dir = order.find((d) => manifest(d).name === name);
  for (const dep of Object.keys(manifest(dir).dependencies ?? {})) if (dep.startsWith("@evalkern/")) closure(dep, seen);
  seen.add(name);
  return seen;
}

function du(path) {
  let total = 0;
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  for (const e of readdirSync(path)) total += du(join(path, e));
  return total;
}

const rows = [];
for (const dir of wanted) {
  const name = manifest(dir).name;
  const work = mkdtempSync(join(tmpdir(), "evalkern-install-"));
  try {
    execFileSync("npm", ["init", "-y"], { cwd: work, stdio: "ignore" });
    const files = [...closure(name)].map((n) => tarballs.get(n));
    if (withPeers) {
      for (const n of closure(name)) {
        const m = manifest(order.find((d) => manifest(d).name === n));
        for (const [peer, range] of Object.entries(m.peerDependencies ?? {})) files.push(`${peer}@${range}`);
      }
    }
    // no --legacy-peer-deps: what `npm i` really installs, required peers included
    execFileSync("npm", ["i", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", ...files], { cwd: work, stdio: "ignore" });
    const lock = JSON.parse(readFileSync(join(work, "package-lock.json"), "utf8"));
    const installed = Object.keys(lock.packages).filter((p) => p.startsWith("node_modules/"));
    const evalkern = installed.filter((p) => p.startsWith("node_modules/@evalkern/"));
    const bytes = du(join(work, "node_modules"));
    const own = statSync(tarballs.get(name)).size;
    rows.push({
      name: withPeers ? `${name} + optional peers` : name,
      bytes,
      deps: installed.length - 1,
      third: installed.length - evalkern.length,
      own,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
rmSync(packDir, { recursive: true, force: true });

const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
console.log("| package | install size | dependencies (of which third-party) | tarball |");
console.log("|---|---:|---:|---:|");
for (const r of rows)
  console.log(
    `| \`${r.name.replace(" + ", "` + ")}${r.name.includes(" + ") ? "" : "`"} ` +
      `| ${mb(r.bytes)} | ${r.deps} (${r.third}) | ${(r.own / 1e3).toFixed(0)} kB |`,
  );
