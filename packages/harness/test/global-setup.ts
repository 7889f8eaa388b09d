// Worker threads and the kill/resume child process run the compiled package (dist/), so rebuild it
// when any source is newer than the build.
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain .mjs helper shared by the packages' test setups
import { rebuildIfStale } from "../../../scripts/dev/rebuild-if-stale.mjs";

export default function setup(): void {
  rebuildIfStale(fileURLToPath(new URL("..", import.meta.url)), "index.js");
}
