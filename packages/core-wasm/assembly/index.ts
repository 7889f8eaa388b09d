// The exported surface of the kernel module: memory management plus each kernel's batch entry points.
export { reserve } from "./mem";
export { bleuStatsBatch, bleuScoreBatch, bleuSentence, bleuSentenceBatch } from "./bleu";
export { chrfBatch, chrfScoreBatch, chrfScoresBatch, chrfSentence } from "./chrf";
export { mcArgmaxBatch } from "./mc";
export { rougeBatch, rougeSentence } from "./rouge";
export { normalizeBatch } from "./normalize";
export { tokenF1Batch, tokenF1Sentence } from "./f1";
export { dprTokenizeBatch } from "./dpr";
export { levenshteinBatch } from "./levenshtein";
export { byobLcsBatch, byobBleuScoreBatch } from "./byob";
