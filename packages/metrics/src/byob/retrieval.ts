// BYOB `retrieval_metrics` (scorers.py; docs/spec/rule-metrics.md §2.8).
import { PythonCompatError } from "../errors.js";
import { PyFloat, pyTypeName } from "../python/repr.js";
import { pyTruthy } from "./python-str.js";
import { checkSample, pythonName } from "./scorer.js";
import type { ScorerInput } from "./types.js";

/** A key equal for Python-equal hashable scalars (`1`, `1.0`, `True` are one set element). */
function hashKey(v: unknown): string {
  if (typeof v === "string") return "s" + v;
  if (v === null || v === undefined) return "n";
  if (typeof v === "boolean") return "#" + (v ? "1" : "0");
  if (typeof v === "bigint") return "#" + v.toString();
  if (typeof v === "number" || PyFloat.isInstance(v)) {
    const x = typeof v === "number" ? v : v.value;
    if (Number.isNaN(x)) return "nan" + Math.random(); // NaN != NaN
    if (Number.isInteger(x)) return "#" + BigInt(x).toString();
    return "#" + String(x);
  }
  throw new PythonCompatError("TypeError", `unhashable type: '${pyTypeName(v)}'`);
}

/**
 * The items of a list or a str (a str is a sequence of its characters); a dict gives its keys when
 * `dictKeys` (`set(d)`), and cannot be sliced otherwise. Anything else raises TypeError.
 */
function pySequence(v: unknown, dictKeys: boolean): readonly unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return Array.from(v);
  if (dictKeys && typeof v === "object" && v !== null && !PyFloat.isInstance(v)) return Object.keys(v);
  throw new PythonCompatError("TypeError", `'${pyTypeName(v)}' object is not ${dictKeys ? "iterable" : "subscriptable"}`);
}

/** Python `int` value of k for slicing: ints and bools; floats and None raise TypeError. */
function sliceIndex(k: unknown): number {
  if (typeof k === "boolean") return k ? 1 : 0;
  if (typeof k === "bigint") return Number(k);
  if (typeof k === "number" && Number.isInteger(k) && !Object.is(k, -0)) return k;
  throw new PythonCompatError("TypeError", "slice indices must be integers or None or have an __index__ method");
}

/**
 * BYOB `retrieval_metrics`: precision@k, recall@k, MRR and nDCG from `metadata.retrieved`,
 * `metadata.relevant` and optional `metadata.k` (default `len(retrieved)`).
 *
 * Details, as the original: duplicates in `retrieved` count every time (recall and nDCG can exceed 1);
 * precision divides by k, not by the number retrieved; MRR ignores k; a negative k slices from the end.
 * Relevance uses Python equality (`1`, `1.0` and `true` match; `"1"` does not).
 *
 * @example
 * retrievalMetrics({ response: "", target: null, metadata: { retrieved: ["a", "b", "c"], relevant: ["a"] } })
 * // { precision_at_k: 0.333…, recall_at_k: 1, mrr: 1, ndcg: 1 }
 */
export const retrievalMetrics = pythonName(
  (sample: ScorerInput): { precision_at_k: number; recall_at_k: number; mrr: number; ndcg: number } => {
    checkSample(sample);
    const zero = { precision_at_k: 0.0, recall_at_k: 0.0, mrr: 0.0, ndcg: 0.0 };
    const metadata = sample.metadata === undefined ? {} : sample.metadata;
    if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
      throw new PythonCompatError("AttributeError", `'${pyTypeName(metadata)}' object has no attribute 'get'`);
    }
    const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(metadata, key);
    const retrievedValue = has("retrieved") ? metadata["retrieved"] : [];
    const relevantValue = has("relevant") ? metadata["relevant"] : [];
    if (!pyTruthy(retrievedValue) || !pyTruthy(relevantValue)) return zero;
    const relevantSet = new Set(pySequence(relevantValue, true).map(hashKey));
    const retrieved = pySequence(retrievedValue, false);
    const k = has("k") ? sliceIndex(metadata["k"]) : retrieved.length;
    const topK = k >= 0 ? retrieved.slice(0, k) : retrieved.slice(0, Math.max(0, retrieved.length + k));
    const inSet = (item: unknown): boolean => relevantSet.has(hashKey(item));

    let hits = 0;
    for (const item of topK) if (inSet(item)) hits++;
    const precision = k > 0 ? hits / k : 0.0;
    const recall = relevantSet.size > 0 ? hits / relevantSet.size : 0.0;

    let mrr = 0.0;
    for (let rank = 1; rank <= retrieved.length; rank++) {
      if (inSet(retrieved[rank - 1])) {
        mrr = 1.0 / rank;
        break;
      }
    }

    let dcg = 0.0;
    topK.forEach((item, i) => {
      if (inSet(item)) dcg += 1.0 / Math.log2(i + 2);
    });
    const idealHits = Math.min(relevantSet.size, k);
    let idcg = 0.0;
    for (let rank = 1; rank <= idealHits; rank++) idcg += 1.0 / Math.log2(rank + 1);
    const ndcg = idcg > 0.0 ? dcg / idcg : 0.0;
    return { precision_at_k: precision, recall_at_k: recall, mrr, ndcg };
  },
  "retrieval_metrics",
);
