// The end-to-end tests run the compiled command (`node dist/bin.js`) as a child process: rebuild it
// when any source is newer than the build. The workspace packages it imports are built by turbo
// (`test` depends on `^build`).
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain .mjs helper shared by the packages' test setups
import { rebuildIfStale } from "../../../scripts/dev/rebuild-if-stale.mjs";

export default function setup(): void {
  rebuildIfStale(fileURLToPath(new URL("..", import.meta.url)), "bin.js");
}
