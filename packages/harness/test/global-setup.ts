// Worker threads and the kill/resume child process run the compiled package (dist/), so rebuild it
// when any source is newer than the build.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

function newest(dir: string, ext: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) t = Math.max(t, newest(p, ext));
    else if (e.name.endsWith(ext)) t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

export default function setup(): void {
  const dist = join(root, "dist");
  const stale = !existsSync(join(dist, "index.js")) || newest(join(root, "src"), ".ts") > newest(dist, ".js");
  if (stale) {
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
  }
}
