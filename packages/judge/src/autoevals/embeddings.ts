// autoevals `EmbeddingSimilarity` (js/string.ts) and RAGAS `AnswerSimilarity` as autoevals ports it
// (js/ragas.ts): the cosine of the two texts' embeddings, rescaled so that `expectedMin` maps to 0 and 1
// to 1, `max((cos - expectedMin) / (1 - expectedMin), 0)`. Both texts go to the judge in one `embed` call.
import { JudgeInputError } from "../errors.js";
import type { JudgeModel } from "../model.js";
import { embedderOf, requireText, scorerJudge, type JudgeArgs, type Score } from "./judge-args.js";
import { cosine } from "./vectors.js";

/** autoevals' default embedding model of `EmbeddingSimilarity`. */
export const AUTOEVALS_EMBEDDING_MODEL = "text-embedding-ada-002";

export interface EmbeddingSimilarityArgs extends JudgeArgs {
  readonly output: string;
  readonly expected?: string;
  /** Prepended to both texts (the domain of the inputs). Default "". */
  readonly prefix?: string;
  /** The cosine that scores 0; between it and 1 the score is linear. Default 0.7. */
  readonly expectedMin?: number;
  /** Embedding model. Default: the judge's `embeddingModel` when it has one, else `text-embedding-ada-002` (autoevals'). */
  readonly model?: string;
  readonly signal?: AbortSignal;
}

/** autoevals' rescaling of a cosine: `expectedMin` → 0, 1 → 1, below `expectedMin` → 0. */
export function scaleScore(score: number, expectedMin: number): number {
  return Math.max((score - expectedMin) / (1 - expectedMin), 0);
}

function checkExpectedMin(value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value >= 1) {
    throw new JudgeInputError("expectedMin must be a finite number below 1", { argument: "expectedMin" });
  }
  return value;
}

/** The embedding model a scorer asks for: the argument, else the judge's own, else the scorer's default. */
export function embeddingModelFor(judge: JudgeModel, model: string | undefined, fallback: string): string {
  return model ?? judge.embeddingModel ?? fallback;
}

/** The cosine of two texts' embeddings (one `embed` call), or null for a zero vector. */
export async function textCosine(
  judge: JudgeModel,
  a: string,
  b: string,
  options: { readonly model: string; readonly metric: string; readonly signal?: AbortSignal | undefined },
): Promise<number | null> {
  const embed = embedderOf(judge, options.metric);
  const { embeddings } = await embed({
    input: [a, b],
    model: options.model,
    metric: options.metric,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return cosine(embeddings[0] as number[], embeddings[1] as number[]);
}

async function similarity(args: EmbeddingSimilarityArgs, name: string, expectedMin: number): Promise<Score> {
  const output = requireText(args?.output, "output", name);
  const expected = requireText(args.expected, "expected", name);
  const prefix = args.prefix ?? "";
  if (typeof prefix !== "string") throw new JudgeInputError("prefix must be a string", { argument: "prefix" });
  // the model argument names the embedding model, so the judge comes from client/config, not from it
  const judge = scorerJudge(args, name, undefined);
  const model = embeddingModelFor(judge, args.model, AUTOEVALS_EMBEDDING_MODEL);
  const cos = await textCosine(judge, `${prefix}${output}`, `${prefix}${expected}`, { model, metric: name, signal: args.signal });
  if (cos === null) return { name, score: null, metadata: { error: "an embedding is the zero vector (no cosine)", model } };
  return { name, score: scaleScore(cos, expectedMin), metadata: { cosine: cos, expectedMin, model } };
}

/**
 * autoevals `EmbeddingSimilarity`: how close `output` is to `expected` by the cosine of their embeddings,
 * rescaled from `[expectedMin, 1]` to `[0, 1]` (default `expectedMin` 0.7, so a cosine of 0.85 scores 0.5).
 *
 * Gotchas: a zero vector has no cosine — score null with `metadata.error` (autoevals scores it 0).
 *
 * @example
 * const { score } = await EmbeddingSimilarity({ output: "a cat", expected: "a kitten", client: judge });
 */
export async function EmbeddingSimilarity(args: EmbeddingSimilarityArgs): Promise<Score> {
  return similarity(args, "EmbeddingSimilarity", checkExpectedMin(args?.expectedMin ?? 0.7));
}

export type AnswerSimilarityArgs = Omit<EmbeddingSimilarityArgs, "expectedMin" | "prefix"> & { readonly input?: string };

/**
 * RAGAS `AnswerSimilarity` (autoevals' port): the semantic similarity of the answer and the ground
 * truth, `max(cos, 0)` of their embeddings (`EmbeddingSimilarity` with `expectedMin` 0).
 *
 * @example
 * await AnswerSimilarity({ output: "Paris", expected: "Paris is the capital", client: judge });
 */
export async function AnswerSimilarity(args: AnswerSimilarityArgs): Promise<Score> {
  return similarity(args, "AnswerSimilarity", 0);
}
