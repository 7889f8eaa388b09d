/**
 * @evalkern/harness/light: the harness functions a command that scores nothing needs (`evalkern judge`:
 * reading rows, writing files, a bootstrap CI), without the root's import cost. The root loads every module
 * of the harness (the suite runner with its YAML and JSON Schema libraries, BYOB, the worker pool, the
 * report): about 0.3 CPU-s of module loading, most of a judge replay's start-up. Same functions as the
 * root's, from the same modules.
 */
export { estimateCi, DEFAULT_RESAMPLES, DEFAULT_SEED, type ConfidenceInterval } from "./bulk/bootstrap.js";
export { csvKeys, CsvSplitter, pathValue, type CsvRecord } from "./bulk/records.js";
export { csvCell, csvField, csvLine } from "./bulk/rows.js";
export { fileSystemError, makeDirectory, removeStaleTemporaries } from "./node/files.js";
