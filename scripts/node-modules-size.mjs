// Disk usage of the workspace install, counted like `du -s node_modules packages/*/node_modules`:
// allocated blocks of every file and directory, symbolic links not followed, each hard-linked file once.
// .ci/run checks the production install (`pnpm install --prod`, the README's first command) with it:
//
//   node scripts/node-modules-size.mjs                 print the size
//   node scripts/node-modules-size.mjs --max-mib 150   also exit 1 when it is larger than that
import { lstatSync, readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--max-mib");
const max = at === -1 ? undefined : Number(process.argv[at + 1]);
if (at !== -1 && !(max > 0)) {
  console.error("node-modules-size: --max-mib needs a positive number");
  process.exit(2);
}

const seen = new Set();
function usage(path) {
  const st = lstatSync(path, { bigint: true });
  const key = `${st.dev}:${st.ino}`;
  if (seen.has(key)) return 0n;
  seen.add(key);
  let bytes = st.blocks * 512n;
  if (st.isDirectory()) for (const name of readdirSync(path)) bytes += usage(join(path, name));
  return bytes;
}

const dirs = [join(root, "node_modules")];
for (const entry of readdirSync(join(root, "packages"), { withFileTypes: true })) {
  if (entry.isDirectory()) dirs.push(join(root, "packages", entry.name, "node_modules"));
}
const total = dirs.filter((d) => existsSync(d)).reduce((sum, d) => sum + usage(d), 0n);
const mib = Number(total) / 2 ** 20;
console.log(
  `node_modules: ${mib.toFixed(1)} MiB on disk (node_modules and packages/*/node_modules, as du -s counts)` +
    `${max ? `; limit ${max} MiB` : ""}`,
);
if (max !== undefined && mib > max) {
  console.error(`node-modules-size: the install is ${mib.toFixed(1)} MiB, over the ${max} MiB limit`);
  process.exit(1);
}
