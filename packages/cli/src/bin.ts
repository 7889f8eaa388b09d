#!/usr/bin/env node
// The `evalkern` executable.
import { main } from "./program.js";

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
process.exitCode = code;
// Output to pipes is flushed asynchronously, so no process.exit() here; an idle keep-alive socket of
// an HTTP client must not hold the process open either.
setTimeout(() => process.exit(code), 3000).unref();
