import { PACKAGE_VERSION } from "./version.generated.js";

/** Version of @evalkern/harness (its package.json's, written into version.generated.ts at build time). */
export const HARNESS_VERSION: string = PACKAGE_VERSION;
