import { kernelSignature } from "@evalkern/core-wasm";

/** The kernel build, then the calling tool (`harness:0.1.0`) when there is one. */
export const kernelTail = (tool: string | undefined): string => (tool ? `${kernelSignature()}|${tool}` : kernelSignature());
