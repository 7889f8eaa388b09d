// Generated from package.json by scripts/package-version.mjs (each build, and `pnpm run version-packages`); do not edit.
export const PACKAGE_VERSION = "0.1.0";
