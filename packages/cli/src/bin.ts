#!/usr/bin/env node
// The `evalkern` executable.
import { main } from "./program.js";

// a closed pipe is no crash: stdout closed (`evalkern metrics | head`) ends quietly, as other Unix
// tools do; a closed stderr only loses the progress lines
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});
process.stderr.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
});

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
process.exitCode = code;
// Output to pipes is flushed asynchronously, so no process.exit() here; an idle keep-alive socket of
// an HTTP client must not hold the process open either.
setTimeout(() => process.exit(code), 3000).unref();
