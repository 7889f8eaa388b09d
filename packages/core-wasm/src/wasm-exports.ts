// The exports of the kernel module (`assembly/index.ts`), typed once: the loader checks an instance's
// exports against this list when it instantiates the module, and every caller uses the typed object (no
// casts, no look-ups by name). Pointers and lengths are byte offsets and counts in the module's memory.

/**
 * A per-call export: one hypothesis (string 0) and its references (strings 1..nStr-1) as laid out by
 * `pairCall`, up to six kernel-specific numbers, and where to write its f64 results.
 */
export type PairCallExport = (
  bytes: number,
  strOffs: number,
  nStr: number,
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  out: number,
) => void;

/** The exports of one instance of the kernel module. */
export interface WasmExports {
  readonly memory: WebAssembly.Memory;
  /** Room for `bytes` bytes of I/O; returns its address (grows the memory when needed). */
  reserve(bytes: number): number;

  bleuStatsBatch(n: number, bytes: number, strOffs: number, refStart: number, tok: number, lc: number, order: number, out: number): void;
  bleuScoreBatch(n: number, stats: number, order: number, smooth: number, smoothValue: number, eff: number, out: number): void;
  bleuSentenceBatch(
    n: number,
    bytes: number,
    strOffs: number,
    refStart: number,
    tok: number,
    lc: number,
    order: number,
    smooth: number,
    smoothValue: number,
    eff: number,
    out: number,
  ): void;
  readonly bleuSentence: PairCallExport;

  chrfBatch(
    n: number,
    bytes: number,
    strOffs: number,
    refStart: number,
    charOrder: number,
    wordOrder: number,
    beta: number,
    lc: number,
    ws: number,
    eps: number,
    out: number,
  ): void;
  chrfScoreBatch(n: number, stats: number, order: number, beta: number, eps: number, out: number): void;
  chrfScoresBatch(
    n: number,
    bytes: number,
    strOffs: number,
    refStart: number,
    charOrder: number,
    wordOrder: number,
    beta: number,
    lc: number,
    ws: number,
    eps: number,
    out: number,
  ): void;
  readonly chrfSentence: PairCallExport;

  rougeBatch(
    n: number,
    bytes: number,
    strOffs: number,
    refStart: number,
    types: number,
    typeCount: number,
    useStemmer: number,
    out: number,
  ): void;
  readonly rougeSentence: PairCallExport;

  tokenF1Batch(n: number, bytes: number, strOffs: number, refStart: number, out: number, flags: number): void;
  readonly tokenF1Sentence: PairCallExport;

  mcArgmaxBatch(q: number, bytes: number, strOffs: number, choiceStart: number, lls: number, out: number): void;
  /** Returns the byte length of the normalised strings written back. */
  normalizeBatch(n: number, bytes: number, strOffs: number, mode: number): number;
  /** Returns the byte length of the token lists written back. */
  dprTokenizeBatch(n: number, bytes: number, strOffs: number, flags: number): number;
  levenshteinBatch(n: number, bytes: number, strOffs: number, out: number): void;
  byobLcsBatch(n: number, bytes: number, strOffs: number, refStart: number, out: number): void;
  byobBleuScoreBatch(n: number, stats: number, out: number): void;
}

/** The per-call exports `pairCall` runs. */
export type PairCallName = "bleuSentence" | "chrfSentence" | "rougeSentence" | "tokenF1Sentence";

/** Every function export of `WasmExports` (the type below fails to compile when one is missing here). */
const FUNCTION_EXPORTS = [
  "reserve",
  "bleuStatsBatch",
  "bleuScoreBatch",
  "bleuSentenceBatch",
  "bleuSentence",
  "chrfBatch",
  "chrfScoreBatch",
  "chrfScoresBatch",
  "chrfSentence",
  "rougeBatch",
  "rougeSentence",
  "tokenF1Batch",
  "tokenF1Sentence",
  "mcArgmaxBatch",
  "normalizeBatch",
  "dprTokenizeBatch",
  "levenshteinBatch",
  "byobLcsBatch",
  "byobBleuScoreBatch",
] as const satisfies readonly Exclude<keyof WasmExports, "memory">[];
const listsEveryExport: Exclude<keyof WasmExports, "memory" | (typeof FUNCTION_EXPORTS)[number]> extends never ? true : never = true;
void listsEveryExport;

/**
 * The typed exports of a fresh instance, after checking that it exports the memory and every kernel
 * (a module given to `ready({ wasm })` may be any module).
 */
export function wasmExports(instance: WebAssembly.Instance): WasmExports {
  const ex = instance.exports;
  if (!(ex.memory instanceof WebAssembly.Memory) || typeof ex.reserve !== "function") {
    throw new TypeError("the module does not export the kernels' memory and reserve()");
  }
  const missing = FUNCTION_EXPORTS.filter((name) => typeof ex[name] !== "function");
  if (missing.length > 0) throw new TypeError(`the module does not export the kernels ${missing.join(", ")}`);
  return ex as unknown as WasmExports;
}
