/**
 * `@evalkern/metrics/dspy`: DSPy's rule-based metrics (dspy/evaluate/metrics.py, DSPy 3.3.1) with the
 * original's exact values and exceptions. `await ready()` once; every function is synchronous after it.
 */
export { ready } from "@evalkern/core-wasm";
export { normalizeText, EM, F1, HotPotF1, EMBatch, F1Batch, HotPotF1Batch } from "./answers.js";
export { answerExactMatch, answerPassageMatch, dprNormalize } from "./answer-match.js";
export { Example, Prediction } from "../contracts/example.js";
export { PythonCompatError } from "../errors.js";
