// The version a package reports in its signatures comes from its package.json: this writes
// `src/version.generated.ts` (`export const PACKAGE_VERSION = "…"`) from it. Each package's `build`
// runs it before compiling, scripts/transpile.mjs before transpiling (the first-run path), and
// `pnpm run version-packages` right after `changeset version` bumps the package.json files, so the
// committed file follows every release. packages/cli/test/versions.test.ts checks that they agree.
//
//   node scripts/package-version.mjs [PACKAGE_DIR...]   default: the current directory
//   node scripts/package-version.mjs --all              every package that has a src/version.generated.ts
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..");

/** The package folders whose signatures carry their version (those with a src/version.generated.ts). */
export function versionedPackages() {
  return readdirSync(join(root, "packages"))
    .map((name) => join(root, "packages", name))
    .filter((dir) => existsSync(join(dir, "src", "version.generated.ts")));
}

/** The text of `src/version.generated.ts` for a version. */
export function versionSource(version) {
  return (
    "// Generated from package.json by scripts/package-version.mjs (each build, and `pnpm run version-packages`); do not edit.\n" +
    `export const PACKAGE_VERSION = ${JSON.stringify(version)};\n`
  );
}

/** Writes `dir`/src/version.generated.ts when it differs from `dir`/package.json's version; returns the version. */
export function writePackageVersion(dir) {
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (typeof version !== "string" || version === "") throw new Error(`${join(dir, "package.json")} has no version`);
  const file = join(dir, "src", "version.generated.ts");
  const text = versionSource(version);
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  return version;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2);
  try {
    const all = dirs.includes("--all") ? versionedPackages() : dirs.length ? dirs.map((d) => resolve(d)) : [resolve(".")];
    for (const dir of all) writePackageVersion(dir);
  } catch (error) {
    console.error(`package-version: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
