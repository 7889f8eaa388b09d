import { ASC_FLAGS, ASC_VERSION, WASM_SHA256 } from "./wasm.generated.js";

/** Unicode version of every table inside the kernels (Python 3.11's unicodedata). */
export const UNICODE_VERSION = "14.0.0";
/** Version of this package (kept in step with package.json by the release process). */
export const KERNEL_VERSION = "0.1.0";

/** Identifies the exact kernel build: package version, Unicode version, AssemblyScript version and flags, wasm hash. */
export function kernelSignature(): string {
  return `evalkern-core-wasm:${KERNEL_VERSION}|unicode:${UNICODE_VERSION}|asc:${ASC_VERSION} ${ASC_FLAGS}|wasm:${WASM_SHA256.slice(0, 12)}`;
}
