// Makes sure the full install is there before the workspace builds or tests: the README's first command
// installs only production dependencies (`pnpm install --prod`, what `pnpm run example` needs), which
// leaves out turbo, vitest, AssemblyScript, Deno, the tree-sitter grammars and the other dev tools.
// Checks that every devDependency of the root and of each workspace package is linked into its
// node_modules (so it stays right when packages or devDependencies are added), and otherwise runs
// `pnpm install` (the same pnpm that runs this script when there is one, else `npx --yes pnpm@12.21.0`).
//
//   node scripts/ensure-full-install.mjs           install when something is missing
//   node scripts/ensure-full-install.mjs --check   only report; exit 1 when something is missing
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function missingIn(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return Object.keys(manifest.devDependencies ?? {})
    .filter((name) => !existsSync(join(dir, "node_modules", name, "package.json")))
    .map((name) => `${dir === root ? "(root)" : manifest.name}: ${name}`);
}

const dirs = [root];
for (const entry of readdirSync(join(root, "packages"), { withFileTypes: true })) {
  if (entry.isDirectory() && existsSync(join(root, "packages", entry.name, "package.json"))) dirs.push(join(root, "packages", entry.name));
}
const missing = dirs.flatMap(missingIn);
if (missing.length === 0) process.exit(0);

const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? `, and ${missing.length - 5} more` : "");
if (process.argv.includes("--check")) {
  console.error(`ensure-full-install: dev dependencies are not installed (${shown}); run \`npx --yes pnpm@12.21.0 install\``);
  process.exit(1);
}
console.log(
  `ensure-full-install: dev dependencies are not installed (${shown}; \`pnpm install --prod\` leaves them out): running pnpm install`,
);
// pnpm sets npm_execpath to its own entry script when it runs a package script.
const execpath = process.env.npm_execpath;
const viaPnpm = execpath && /pnpm/.test(execpath) && /\.[cm]?js$/.test(execpath);
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const [command, args] = viaPnpm ? [process.execPath, [execpath, "install"]] : [npx, ["--yes", "pnpm@12.21.0", "install"]];
const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
if (result.status !== 0) {
  console.error(`ensure-full-install: pnpm install failed (${result.error?.message ?? `exit ${result.status}`})`);
  process.exit(1);
}
const still = dirs.flatMap(missingIn);
if (still.length > 0) {
  console.error(`ensure-full-install: still missing after pnpm install: ${still.join(", ")}`);
  process.exit(1);
}
