#!/usr/bin/env node
// `npx evalkern …`: the unscoped package only runs the `evalkern` command of @evalkern/cli, which
// reads process.argv itself, so every argument, exit code and output stays the CLI's own.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const manifest = require.resolve("@evalkern/cli/package.json");
const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
await import(pathToFileURL(join(dirname(manifest), bin.evalkern)).href);
