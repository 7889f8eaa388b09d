// Vector similarities of embeddings: cosine (autoevals, RAGAS, promptfoo), dot product and euclidean
// distance (promptfoo's `similar:dot`, `similar:euclidean`). Vectors of unequal length are an error, and a
// zero vector has no cosine (null), never a made-up 0.
import { JudgeInputError } from "../errors.js";

function check(a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length || a.length === 0) {
    throw new JudgeInputError(`vectors of unequal or zero length (${a.length} and ${b.length})`, { argument: "embeddings" });
  }
}

export function dot(a: readonly number[], b: readonly number[]): number {
  check(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** Cosine similarity; null when either vector is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number | null {
  const ab = dot(a, b);
  const norms = Math.sqrt(dot(a, a)) * Math.sqrt(dot(b, b));
  return norms === 0 ? null : ab / norms;
}

export function euclidean(a: readonly number[], b: readonly number[]): number {
  check(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(sum);
}
