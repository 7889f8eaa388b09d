// The RAGAS metrics as autoevals ports them (js/ragas.ts), with autoevals' names, inputs and formulas,
// over any judge (structured output through the judge's ladder) and its `embed`. The prompts are ours;
// the formulas, defaults and score shapes are autoevals' (cross-checked with explodinggradients/ragas,
// whose differences are noted per scorer). DeepEval's metrics of the same names differ and stay apart
// (../deepeval/).
import { ListContains } from "@evalkern/metrics/common";
import { z } from "zod";
import { JudgeInputError } from "../errors.js";
import type { JudgeModel } from "../model.js";
import { zodSchema } from "../schema.js";
import { AnswerSimilarity, AUTOEVALS_EMBEDDING_MODEL, embeddingModelFor, scaleScore } from "./embeddings.js";
import { ask, embedderOf, flattenContext, requireText, scorerJudge, type ChatArgs, type JudgeArgs, type Score } from "./judge-args.js";
import { cosine } from "./vectors.js";

/** The arguments every RAGAS scorer takes (autoevals' `RagasArgs`). */
export interface RagasArgs extends JudgeArgs, ChatArgs {
  readonly input?: string;
  readonly output?: string;
  readonly expected?: string;
  /** The retrieved context: a string, or chunks joined with newlines. */
  readonly context?: string | readonly string[];
  /** Chat model (builds the judge when no `client` is given). */
  readonly model?: string;
  /** Embedding model of the scorers that embed. Default: the judge's, else `text-embedding-ada-002`. */
  readonly embeddingModel?: string;
}

const entities = zodSchema("entities", z.object({ entities: z.array(z.string()) }));
const sentences = zodSchema(
  "relevant_sentences",
  z.object({ sentences: z.array(z.object({ sentence: z.string(), reasons: z.array(z.string()) })) }),
);
const attributions = zodSchema(
  "statements",
  z.object({ statements: z.array(z.object({ statement: z.string(), attributed: z.number(), reason: z.string() })) }),
);
const usefulness = zodSchema("verification", z.object({ reason: z.string(), verdict: z.number() }));
const extracted = zodSchema("statements", z.object({ statements: z.array(z.string()) }));
const faithfulnessVerdicts = zodSchema(
  "faithfulness",
  z.object({ faithfulness: z.array(z.object({ statement: z.string(), verdict: z.number(), reason: z.string() })) }),
);
const generatedQuestion = zodSchema("question", z.object({ question: z.string(), noncommittal: z.number() }));
const classification = zodSchema("classification", z.object({ TP: z.array(z.string()), FP: z.array(z.string()), FN: z.array(z.string()) }));

function judgeOf(args: RagasArgs, name: string): JudgeModel {
  if (typeof args !== "object" || args === null) throw new JudgeInputError(`${name} takes an arguments object`, { argument: "args" });
  return scorerJudge(args, name, args.model);
}

/** `ContextEntityRecall`: the share of the expected answer's entities found among the context's. */
export async function ContextEntityRecall(args: RagasArgs & { readonly expectedMin?: number }): Promise<Score> {
  const name = "ContextEntityRecall";
  const judge = judgeOf(args, name);
  const expected = requireText(args.expected, "expected", name);
  const context = flattenContext(args.context, name);
  const prompt = (text: string) =>
    "List the distinct entities (people, places, organisations, dates, quantities, named things) in the text " +
    `below, once each, treating different mentions of the same entity as one.\n\nText: ${text}`;
  const [expectedEntities, contextEntities] = await Promise.all([
    ask(judge, entities, prompt(expected), name, args),
    ask(judge, entities, prompt(context), name, args),
  ]);
  // every entity embedded once; pairs scored by EmbeddingSimilarity (autoevals' default pairwise scorer)
  const all = [...new Set([...expectedEntities.entities, ...contextEntities.entities])];
  const model = embeddingModelFor(judge, args.embeddingModel, AUTOEVALS_EMBEDDING_MODEL);
  const vectors = new Map<string, readonly number[]>();
  if (all.length > 0) {
    const { embeddings } = await embedderOf(
      judge,
      name,
    )({ input: all, model, metric: name, ...(args.signal ? { signal: args.signal } : {}) });
    all.forEach((text, i) => vectors.set(text, embeddings[i] as readonly number[]));
  }
  const expectedMin = args.expectedMin ?? 0.7;
  const pairwise = ({ output, expected: other }: { output: string; expected?: string }) => {
    const cos = cosine(vectors.get(output) as number[], vectors.get(other as string) as number[]);
    return { name: "EmbeddingSimilarity", score: cos === null ? null : scaleScore(cos, expectedMin), metadata: {} };
  };
  const listed = ListContains({
    output: contextEntities.entities,
    expected: expectedEntities.entities,
    pairwiseScorer: pairwise,
    allowExtraEntities: true,
  });
  return {
    name,
    score: listed.score,
    metadata: { contextEntities: contextEntities.entities, expectedEntities: expectedEntities.entities, pairs: listed.metadata.pairs },
  };
}

/**
 * `ContextRelevancy`: the characters of the context sentences the judge selects as needed to answer
 * `input`, joined, over the characters of the context (UTF-16 units, as autoevals' `.length`).
 * RAGAS counts sentences instead; a judge quoting more than the context holds can score above 1.
 */
export async function ContextRelevancy(args: RagasArgs): Promise<Score> {
  const name = "ContextRelevancy";
  const judge = judgeOf(args, name);
  const input = requireText(args.input, "input", name);
  const context = flattenContext(args.context, name);
  if (context.length === 0) throw new JudgeInputError(`${name} requires a non-empty context`, { argument: "context" });
  const reply = await ask(
    judge,
    sentences,
    "From the context below, copy verbatim every sentence that is needed to answer the question, each with the " +
      "reasons it is needed. Change nothing in a copied sentence. If no sentence is needed, or the context cannot " +
      `answer the question, return an empty list.\n\nQuestion: ${input}\nContext: ${context}`,
    name,
    args,
  );
  return {
    name,
    score: reply.sentences.map((s) => s.sentence).join("").length / context.length,
    metadata: { relevantSentences: reply.sentences },
  };
}

/** `ContextRecall`: the share of the expected answer's statements that can be attributed to the context. */
export async function ContextRecall(args: RagasArgs): Promise<Score> {
  const name = "ContextRecall";
  const judge = judgeOf(args, name);
  const input = requireText(args.input, "input", name);
  const expected = requireText(args.expected, "expected", name);
  const context = flattenContext(args.context, name);
  const reply = await ask(
    judge,
    attributions,
    "Split the answer below into statements, one per sentence. For each, set attributed to 1 when the context " +
      `supports it and 0 when it does not, with a short reason.\n\nQuestion: ${input}\nContext: ${context}\nAnswer: ${expected}`,
    name,
    args,
  );
  const list = reply.statements;
  // no statements: no recall to measure (autoevals divides 0 by 0; RAGAS returns NaN)
  if (list.length === 0) return { name, score: null, metadata: { statements: list, error: "the judge found no statements in expected" } };
  return { name, score: list.reduce((sum, s) => sum + s.attributed, 0) / list.length, metadata: { statements: list } };
}

/**
 * `ContextPrecision`: 1 when the judge finds the context useful for arriving at the expected answer, else
 * 0 (autoevals judges the joined context once; RAGAS averages the precision over ranked chunks).
 */
export async function ContextPrecision(args: RagasArgs): Promise<Score> {
  const name = "ContextPrecision";
  const judge = judgeOf(args, name);
  const input = requireText(args.input, "input", name);
  const expected = requireText(args.expected, "expected", name);
  const context = flattenContext(args.context, name);
  const precision = await ask(
    judge,
    usefulness,
    "Was the context useful for arriving at the answer to the question? Give verdict 1 if it was and 0 if it was " +
      `not, with your reason.\n\nQuestion: ${input}\nContext: ${context}\nAnswer: ${expected}`,
    name,
    args,
  );
  return { name, score: precision.verdict, metadata: { precision } };
}

/** `Faithfulness`: the share of the output's statements that the context supports (0 without statements, as autoevals). */
export async function Faithfulness(args: RagasArgs): Promise<Score> {
  const name = "Faithfulness";
  const judge = judgeOf(args, name);
  const input = requireText(args.input, "input", name);
  const output = requireText(args.output, "output", name);
  const context = flattenContext(args.context, name);
  const { statements } = await ask(
    judge,
    extracted,
    "Rewrite the answer below as a list of standalone statements, one or more per sentence, each understandable " +
      "without the others (resolve pronouns). An answer that declines to answer has no statements." +
      `\n\nQuestion: ${input}\nAnswer: ${output}`,
    name,
    args,
  );
  const { faithfulness } = await ask(
    judge,
    faithfulnessVerdicts,
    "For each statement below, in order, give verdict 1 when it can be inferred from the context and 0 when it " +
      `cannot, repeating the statement word for word, with a reason.\n\nContext: ${context}\nStatements: ${JSON.stringify(statements)}`,
    name,
    args,
  );
  const score = faithfulness.length ? faithfulness.reduce((sum, f) => sum + f.verdict, 0) / faithfulness.length : 0;
  return { name, score, metadata: { statements, faithfulness } };
}

/** The questions of `AnswerRelevancy`: `strictness` independent generations from the output (and context). */
export async function generatedQuestions(
  judge: JudgeModel,
  output: string,
  context: string,
  strictness: number,
  metric: string,
  chat: ChatArgs,
): Promise<{ question: string; noncommittal: number }[]> {
  const prompt =
    "Write the question that the answer below responds to, and say whether the answer is noncommittal: set " +
    'noncommittal to 1 for an evasive, vague or ambiguous answer ("I don\'t know", "I\'m not sure"), else 0.' +
    `\n\nAnswer: ${output}\nContext: ${context}`;
  // a sample index per generation: identical requests must not collapse into one cached reply
  return Promise.all(Array.from({ length: strictness }, (_, i) => ask(judge, generatedQuestion, prompt, metric, chat, i)));
}

/**
 * `AnswerRelevancy`: `strictness` (default 3) questions generated from the output; 0 when any generation
 * calls the answer noncommittal, else the mean `EmbeddingSimilarity` (expectedMin 0.7, autoevals') of each
 * question to `input`. RAGAS takes the plain mean cosine times (1 - noncommittal).
 */
export async function AnswerRelevancy(args: RagasArgs & { readonly strictness?: number; readonly expectedMin?: number }): Promise<Score> {
  const name = "AnswerRelevancy";
  const judge = judgeOf(args, name);
  const input = requireText(args.input, "input", name);
  const output = requireText(args.output, "output", name);
  const context = flattenContext(args.context, name);
  const strictness = args.strictness ?? 3;
  if (!Number.isInteger(strictness) || strictness < 1)
    throw new JudgeInputError("strictness must be an integer >= 1", { argument: "strictness" });
  const expectedMin = args.expectedMin ?? 0.7;
  const questions = await generatedQuestions(judge, output, context, strictness, name, args);
  const model = embeddingModelFor(judge, args.embeddingModel, AUTOEVALS_EMBEDDING_MODEL);
  const texts = [input, ...questions.map((q) => q.question)];
  const { embeddings } = await embedderOf(
    judge,
    name,
  )({ input: texts, model, metric: name, ...(args.signal ? { signal: args.signal } : {}) });
  const similarity = questions.map((q, i) => {
    const cos = cosine(embeddings[i + 1] as number[], embeddings[0] as number[]);
    return { question: q.question, score: cos === null ? null : scaleScore(cos, expectedMin) };
  });
  const noncommittal = questions.some((q) => q.noncommittal);
  const score = noncommittal ? 0 : similarity.reduce((sum, s) => sum + (s.score ?? 0), 0) / questions.length;
  return { name, score, metadata: { questions, similarity } };
}

/** The statement F1 of a TP/FP/FN classification: `tp / (tp + (fp + fn) / 2)`, 0 when there is nothing (as RAGAS). */
export function statementF1(c: {
  readonly TP: readonly unknown[];
  readonly FP: readonly unknown[];
  readonly FN: readonly unknown[];
}): number {
  const tp = c.TP.length;
  const denominator = tp + 0.5 * (c.FP.length + c.FN.length);
  return denominator === 0 ? 0 : tp / denominator;
}

export interface AnswerCorrectnessArgs extends RagasArgs {
  /** Weight of the statement F1. Default 0.75 (RAGAS's `weights[0]`). */
  readonly factualityWeight?: number;
  /** Weight of the answer similarity. Default 0.25; 0 skips the embeddings. */
  readonly answerSimilarityWeight?: number;
}

function checkWeights(f: number, s: number): void {
  if (![f, s].every((w) => typeof w === "number" && Number.isFinite(w) && w >= 0)) {
    throw new JudgeInputError("Weights must be non-negative", { argument: "factualityWeight" });
  }
  if (f === 0 && s === 0) throw new JudgeInputError("At least one weight must be nonzero", { argument: "factualityWeight" });
}

/**
 * `AnswerCorrectness`: `(wf · F1 + ws · AnswerSimilarity) / (wf + ws)` with RAGAS's default weights
 * [0.75, 0.25], where F1 is the statement F1 of the output against `expected` (true positives: in both;
 * false positives: only in the output; false negatives: only in `expected`).
 */
export async function AnswerCorrectness(args: AnswerCorrectnessArgs): Promise<Score> {
  const name = "AnswerCorrectness";
  const judge = judgeOf(args, name);
  const input = requireText(args.input, "input", name);
  const output = requireText(args.output, "output", name);
  const expected = requireText(args.expected, "expected", name);
  const wf = args.factualityWeight ?? 0.75;
  const ws = args.answerSimilarityWeight ?? 0.25;
  checkWeights(wf, ws);
  const [factuality, similarity] = await Promise.all([
    ask(
      judge,
      classification,
      "Compare the statements of the answer with those of the ground truth. Put each statement in exactly one list: " +
        "TP for statements present in both, FP for statements of the answer not found in the ground truth, FN for " +
        "statements of the ground truth missing from the answer. Compare presence only; do not reinterpret." +
        `\n\nQuestion: ${input}\nAnswer: ${output}\nGround truth: ${expected}`,
      name,
      args,
    ),
    ws === 0
      ? null
      : AnswerSimilarity({
          output,
          expected,
          client: judge,
          ...(args.embeddingModel ? { model: args.embeddingModel } : {}),
          ...(args.signal ? { signal: args.signal } : {}),
        }),
  ]);
  const factualityScore = statementF1(factuality);
  if (similarity !== null && similarity.score === null) {
    return { name, score: null, metadata: { factuality, factualityScore, error: "AnswerSimilarity failed" } };
  }
  const answerSimilarityScore = similarity?.score ?? 0;
  const score = (wf * factualityScore + ws * answerSimilarityScore) / (wf + ws);
  return { name, score, metadata: { factuality, factualityScore, answerSimilarityScore } };
}
