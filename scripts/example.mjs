// `pnpm run example`, the README's first command: builds @evalkern/cli and the workspace packages it
// depends on, then runs `evalkern score` on the bundled examples/pairs.jsonl (prints the table, writes
// report.html). It needs only the production install (`pnpm install --prod`: the packages' runtime
// dependencies and the root's `typescript`), not turbo, vitest or the wasm compiler:
//
//   - core-wasm's committed module (src/wasm.generated.ts) is used when it is up to date with assembly/
//     (`scripts/build.mjs --check`, no compiler needed); otherwise it is rebuilt, which needs the full
//     install (AssemblyScript), and the script says so;
//   - each package's src/ is transpiled to dist/ file by file (scripts/transpile.mjs: TypeScript's
//     `transpileModule` with the options of its tsconfig.build.json): the JavaScript a full build emits,
//     without type checking and declarations (`pnpm run build` type-checks and writes both; it replaces
//     this dist/). Files whose dist/ output is newer than the source are left alone, so after a full
//     build nothing is redone.
//
// Each package prints one progress line. Usage: node scripts/example.mjs [extra `evalkern score` args],
// e.g. `pnpm run example --metric bleu`.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadTypeScript, transpilePackage } from "./transpile.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const started = performance.now();
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

let ts;
try {
  ts = loadTypeScript();
} catch (error) {
  console.error(`example: ${error.message}`);
  process.exit(1);
}

// Workspace packages by name, and the ones @evalkern/cli depends on (workspace: dependencies), lowest first.
const packages = new Map();
for (const entry of readdirSync(join(root, "packages"), { withFileTypes: true })) {
  const file = join(root, "packages", entry.name, "package.json");
  if (entry.isDirectory() && existsSync(file)) {
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    packages.set(manifest.name, { dir: join(root, "packages", entry.name), manifest });
  }
}
const order = [];
(function visit(name) {
  if (order.includes(name)) return;
  const pkg = packages.get(name);
  if (!pkg) throw new Error(`example: workspace package ${name} not found under packages/`);
  for (const [dep, range] of Object.entries(pkg.manifest.dependencies ?? {})) {
    if (String(range).startsWith("workspace:")) visit(dep);
  }
  order.push(name);
})("@evalkern/cli");

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

console.log(`example: building ${order.join(" < ")} (transpile only; \`pnpm run build\` type-checks)`);
for (const [i, name] of order.entries()) {
  const t = performance.now();
  const { dir } = packages.get(name);
  const label = `example: [${i + 1}/${order.length}] ${name}`;
  if (!existsSync(join(dir, "tsconfig.build.json"))) {
    console.log(`${label}: nothing to build`);
    continue;
  }
  if (name === "@evalkern/core-wasm") {
    const check = spawnSync(process.execPath, ["scripts/build.mjs", "--check"], { cwd: dir, encoding: "utf8" });
    if (check.status !== 0) {
      console.log(`${label}: ${check.stdout.trim() || check.stderr.trim()}; recompiling (needs the full install)`);
      if (run(process.execPath, ["scripts/build.mjs", "--wasm-only"], dir) !== 0) process.exit(1);
    }
  }
  try {
    const { done, total } = transpilePackage(ts, dir);
    console.log(`${label}: ${done === 0 ? `up to date (${total} files)` : `${done} of ${total} files transpiled`} (${seconds(t)})`);
  } catch (error) {
    console.error(`example: ${name}: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
console.log(`example: built in ${seconds(started)}; running evalkern score on examples/pairs.jsonl\n`);

const extra = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === "--"));
const bin = join(packages.get("@evalkern/cli").dir, packages.get("@evalkern/cli").manifest.bin.evalkern);
process.exit(
  run(
    process.execPath,
    [bin, "score", "examples/pairs.jsonl", "-o", "tmp/example/pairs.scored.jsonl", "--report", "report.html", ...extra],
    root,
  ),
);
