import { PACKAGE_VERSION } from "./version.generated.js";
import { ASC_FLAGS, ASC_VERSION, WASM_SHA256 } from "./wasm.generated.js";

/** Unicode version of every table inside the kernels (Python 3.11's unicodedata). */
export const UNICODE_VERSION = "14.0.0";
/** Version of this package (its package.json's, written into version.generated.ts at build time). */
export const KERNEL_VERSION: string = PACKAGE_VERSION;

/** Identifies the exact kernel build: package version, Unicode version, AssemblyScript version and flags, wasm hash. */
export function kernelSignature(): string {
  return `evalkern-core-wasm:${KERNEL_VERSION}|unicode:${UNICODE_VERSION}|asc:${ASC_VERSION} ${ASC_FLAGS}|wasm:${WASM_SHA256.slice(0, 12)}`;
}
