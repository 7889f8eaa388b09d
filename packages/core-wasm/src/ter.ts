// TER as sacreBLEU 2.6.0 computes it, in the parts sacreBLEU has: the tokenizer (`ter/tokenizer.ts`,
// `TercomTokenizer`), the edit-rate engine (`ter/engine.ts`, `lib_ter`), the per-segment word interning
// (`ter/interning.ts`) and the public API (`ter/api.ts`, `metrics.TER`).
export { resolveTerOptions, terTokenize, type ResolvedTerOptions, type TerOptions } from "./ter/tokenizer.js";
export * from "./ter/api.js";
