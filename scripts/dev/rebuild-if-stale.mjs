// For test global setups that run a package's compiled output (worker threads, child processes):
// rebuild dist/ with tsc when any source file is newer than the build (or the build has no declarations).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newest(dir, ext) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p, ext));
    else if (e.name.endsWith(ext)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

/** `packageRoot`: the package folder; `entry`: a file of dist/ that must exist (e.g. "index.js"). */
export function rebuildIfStale(packageRoot, entry) {
  const dist = join(packageRoot, "dist");
  // A dist/ without declarations comes from `pnpm run example` (scripts/example.mjs transpiles only):
  // rebuild it with tsc too, so that what the tests see is the full build.
  const stale =
    !existsSync(join(dist, entry)) ||
    !existsSync(join(dist, entry.replace(/\.js$/, ".d.ts"))) ||
    newest(join(packageRoot, "src"), ".ts") > newest(dist, ".js");
  if (stale) {
    execFileSync(process.execPath, [join(packageRoot, "node_modules/typescript/bin/tsc"), "-p", join(packageRoot, "tsconfig.build.json")], {
      stdio: "inherit",
    });
  }
}
