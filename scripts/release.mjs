#!/usr/bin/env node
// The release, `npx --yes pnpm@12.21.0 run release`: check, then publish every public package of the
// workspace with `pnpm -r publish`, which packs each one with its `workspace:` ranges rewritten to the
// versions being published and skips versions the registry already has.
//
// 1. the checks (skipped with --no-checks, as the release test does inside a test run that already made
//    them): the full build and every test (`turbo run build`, `turbo run test`), once for the workspace;
// 2. each package's LICENSE, the workspace's one (what every package's `prepack` does);
// 3. `pnpm -r publish --ignore-scripts` (the checks and the LICENSE are done above, once), with every other
//    argument passed on: `--registry URL`, `--no-git-checks`, `--dry-run`, `--tag next`, …
//
//   node scripts/release.mjs                                    # what `pnpm run release` runs
//   node scripts/release.mjs --no-checks --registry http://127.0.0.1:4873/ --no-git-checks
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const checks = !args.includes("--no-checks");
const passOn = args.filter((a) => a !== "--no-checks");
const pnpm = ["--yes", "pnpm@12.21.0"];
const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: root, stdio: "inherit" });

if (checks) {
  run("node", [join(root, "scripts/ensure-full-install.mjs")]);
  run("npx", [...pnpm, "exec", "turbo", "run", "build"]);
  run("npx", [...pnpm, "exec", "turbo", "run", "test", "--concurrency=1"]);
}

for (const dir of readdirSync(join(root, "packages"))) {
  const manifest = join(root, "packages", dir, "package.json");
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).private) continue;
  copyFileSync(join(root, "LICENSE"), join(root, "packages", dir, "LICENSE"));
}

run("npx", [...pnpm, "-r", "publish", "--ignore-scripts", ...passOn]);
