"use strict";
// The "require" condition of this package's "exports": the package is ESM-only, so require() of it
// (or of any of its subpaths) ends here with a message that says what to do instead.
const { name } = require("./package.json");
const error = new Error(
  `${name} is ESM-only: use import (import { ... } from "${name}"), or await import("${name}") from CommonJS. ` +
    "It runs on Node.js >= 20 and Deno; see its README for the runtimes it supports.",
);
error.code = "ERR_REQUIRE_ESM";
throw error;
