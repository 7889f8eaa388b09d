// `prepack` of every package: copies the workspace's one LICENSE (Apache-2.0) into the package
// folder, so `pnpm pack` / `pnpm publish` ship it in the tarball. The copies are git-ignored.
import { copyFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

copyFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "LICENSE"), join(process.cwd(), "LICENSE"));
