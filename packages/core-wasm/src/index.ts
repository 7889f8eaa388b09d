/**
 * @evalkern/core-wasm: sacreBLEU BLEU (13a, intl, zh, char, none), chrF/chrF++ and TER, rouge-score
 * ROUGE-1..9/L/Lsum, DSPy normalize_text and token F1, multiple-choice argmax, the DPR tokenizer,
 * Levenshtein and the NeMo BYOB kernels, in one small WebAssembly module with the reference
 * implementations' exact numbers; the error root of every evalkern package (`EvalkernError`) and the input
 * limits. `await ready()` once; everything else is synchronous.
 */
export { ready, isReady, sharedPairBatch, type ReadyOptions } from "./kernel.js";
export {
  EvalkernError,
  InvalidArgumentError,
  InputTooLargeError,
  OutOfMemoryError,
  NotReadyError,
  KernelAbortError,
  type InputLimitKind,
} from "./errors.js";
export { INPUT_LIMITS, type InputLimits, utf8Length } from "./limits.js";
export { MEMORY_RESET_BYTES } from "./kernel.js";
export * from "./bleu.js";
export * from "./chrf.js";
export * from "./rouge.js";
export * from "./normalize.js";
export * from "./token-f1.js";
export * from "./multiple-choice.js";
export { UNICODE_VERSION, KERNEL_VERSION, kernelSignature } from "./version.js";
export * from "./dpr.js";
export * from "./levenshtein.js";
export * from "./byob.js";
export * from "./ter.js";
