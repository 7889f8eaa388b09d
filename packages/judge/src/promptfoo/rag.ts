// promptfoo's model-graded assertion types that compare vectors, grade RAG answers or moderate:
// `similar` (and `:cosine`, `:dot`, `:euclidean`), `answer-relevance`, `context-faithfulness`,
// `context-recall`, `context-relevance` and `moderation`, as a table of type → default threshold and
// grader over any judge, for the `evalkern test` runner. Each keeps promptfoo's inputs (vars.query,
// vars.context, the assertion's value), its default threshold, its pass rule (score >= threshold − ε;
// euclidean: distance <= threshold + ε) and its `not-` semantics; the judging reuses the RAGAS scorers.
import { JudgeInputError, UnsupportedCapabilityError } from "../errors.js";
import type { JudgeModel } from "../model.js";
import { embedderOf, requireText } from "../autoevals/judge-args.js";
import { generatedQuestions, ContextRecall, ContextRelevancy, Faithfulness } from "../autoevals/ragas.js";
import { cosine, dot, euclidean } from "../autoevals/vectors.js";

/** What an assertion is graded on (promptfoo's `AssertionParams`, reduced to what these types read). */
export interface PromptfooAssertionInput {
  /** The full assertion type without `not-` (`"similar:dot"`); default the table key. */
  readonly type?: string;
  /** The output under test. */
  readonly output: string;
  /** The test's vars (`query`, `context`). */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** The assertion's rendered `value`. */
  readonly value?: unknown;
  /** The rendered prompt (the question when `vars.query` is absent). */
  readonly prompt?: string;
  /** The assertion's `threshold`; default the table's. */
  readonly threshold?: number;
  /** The `not-` prefix. */
  readonly inverse?: boolean;
}

/** promptfoo's `GradingResult`, reduced: pass, score in [0, 1], reason, and details. */
export interface PromptfooGrade {
  readonly pass: boolean;
  readonly score: number;
  readonly reason: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface PromptfooGradeOptions {
  /** Embedding model; default the judge's, else promptfoo's default `text-embedding-3-large`. */
  readonly embeddingModel?: string;
  readonly signal?: AbortSignal;
}

/** One promptfoo assertion type over a judge. */
export interface PromptfooJudgeAssertion {
  readonly type: string;
  /** promptfoo's default threshold; null when the type has none (moderation passes or fails on flags). */
  readonly defaultThreshold: number | null;
  /** What the judge must offer beside chat. */
  readonly needs: readonly ("chat" | "embeddings" | "moderation")[];
  grade(input: PromptfooAssertionInput, judge: JudgeModel, options?: PromptfooGradeOptions): Promise<PromptfooGrade>;
}

/** promptfoo's default embedding model (its OpenAI embedding provider). */
export const PROMPTFOO_EMBEDDING_MODEL = "text-embedding-3-large";
const EPSILON = Number.EPSILON;

function thresholdOf(input: PromptfooAssertionInput, fallback: number): number {
  const t = input.threshold ?? fallback;
  if (typeof t !== "number" || !Number.isFinite(t))
    throw new JudgeInputError("threshold must be a finite number", { argument: "threshold" });
  return t;
}

function embeddingModel(judge: JudgeModel, options: PromptfooGradeOptions | undefined): string {
  return options?.embeddingModel ?? judge.embeddingModel ?? PROMPTFOO_EMBEDDING_MODEL;
}

/** promptfoo's pass rule for a score that should reach `threshold`, with the `not-` flip (score 1 − s). */
function atLeast(score: number, threshold: number, inverse: boolean, label: string, metadata?: Record<string, unknown>): PromptfooGrade {
  const reached = score >= threshold - EPSILON;
  const pass = inverse ? !reached : reached;
  const reason = `${label} ${score.toFixed(2)} is ${reached ? ">=" : "<"} ${threshold}`;
  return { pass, score: inverse ? 1 - score : score, reason, ...(metadata ? { metadata } : {}) };
}

type Metric = "cosine" | "dot_product" | "euclidean";

function metricOf(type: string): Metric {
  const suffix = type.includes(":") ? type.split(":")[1] : "cosine";
  if (suffix === "cosine") return "cosine";
  if (suffix === "dot") return "dot_product";
  if (suffix === "euclidean") return "euclidean";
  throw new JudgeInputError(`Unknown similarity metric: ${suffix}`, { argument: "type" });
}

/** One expected value against the output: promptfoo's `matchesSimilarity`. */
function similarityGrade(a: readonly number[], b: readonly number[], metric: Metric, threshold: number, inverse: boolean): PromptfooGrade {
  if (metric === "euclidean") {
    const distance = euclidean(a, b);
    const pass = inverse ? distance >= threshold - EPSILON : distance <= threshold + EPSILON;
    const normalized = 1 / (1 + distance);
    const within = distance <= threshold + EPSILON;
    const reason = `Distance ${distance.toFixed(2)} is ${within ? "less than or equal to" : "greater than"} threshold ${threshold}`;
    return { pass, score: inverse ? 1 - normalized : normalized, reason, metadata: { distance } };
  }
  const similarity = metric === "dot_product" ? dot(a, b) : cosine(a, b);
  if (similarity === null) throw new JudgeInputError("an embedding is the zero vector (no cosine)", { argument: "embeddings" });
  const pass = inverse ? similarity <= threshold + EPSILON : similarity >= threshold - EPSILON;
  const reached = similarity >= threshold - EPSILON;
  const reason = `Similarity ${similarity.toFixed(2)} is ${reached ? "greater than or equal to" : "less than"} threshold ${threshold}`;
  return { pass, score: inverse ? 1 - similarity : similarity, reason, metadata: { similarity } };
}

const similarFor = (type: string): PromptfooJudgeAssertion => ({
  type,
  defaultThreshold: 0.75,
  needs: ["embeddings"],
  async grade(input, judge, options) {
    const values = typeof input.value === "string" ? [input.value] : input.value;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string")) {
      throw new JudgeInputError("Similarity assertion type must have a string or a non-empty array of strings value", {
        argument: "value",
      });
    }
    const metric = metricOf(input.type ?? type);
    const threshold = thresholdOf(input, 0.75);
    const inverse = input.inverse === true;
    const model = embeddingModel(judge, options);
    const texts = [input.output, ...(values as string[])];
    const { embeddings } = await embedderOf(
      judge,
      "similar",
    )({ input: texts, model, metric: "similar", ...(options?.signal ? { signal: options.signal } : {}) });
    const grades = (values as string[]).map((_, i) =>
      similarityGrade(embeddings[i + 1] as number[], embeddings[0] as number[], metric, threshold, inverse),
    );
    if (grades.length === 1) return grades[0] as PromptfooGrade;
    // not-similar: fails on the first value the output is too close to, else the closest value's (lowest) score
    if (inverse) return grades.find((g) => !g.pass) ?? grades.reduce((low, g) => (g.score < low.score ? g : low));
    // similar: passes on the first value it matches, else reports the best score
    const passed = grades.find((g) => g.pass);
    if (passed) return passed;
    return {
      pass: false,
      score: Math.max(...grades.map((g) => g.score)),
      reason: "None of the provided values met the similarity threshold",
    };
  },
});

/** The question an assertion grades against: `vars.query`, else the prompt. */
function queryOf(input: PromptfooAssertionInput, type: string, promptAllowed: boolean): string {
  const query = input.vars?.query;
  if (typeof query === "string") return query;
  if (promptAllowed && typeof input.prompt === "string") return input.prompt;
  throw new JudgeInputError(`${type} assertion requires a "query" variable with the user question`, { argument: "vars.query" });
}

function contextOf(input: PromptfooAssertionInput, type: string, fallback?: string): string | readonly string[] {
  const context = input.vars?.context ?? fallback;
  if (typeof context === "string" || (Array.isArray(context) && context.every((c) => typeof c === "string")))
    return context as string | string[];
  throw new JudgeInputError(`${type} assertion requires a "context" variable (a string or a list of strings)`, {
    argument: "vars.context",
  });
}

const answerRelevance: PromptfooJudgeAssertion = {
  type: "answer-relevance",
  defaultThreshold: 0.7,
  needs: ["chat", "embeddings"],
  async grade(input, judge, options) {
    const query = queryOf(input, "answer-relevance", true);
    const output = requireText(input.output, "output", "answer-relevance");
    const chat = options?.signal ? { signal: options.signal } : {};
    // promptfoo: three generated questions, the plain mean cosine with the query (no rescaling, no noncommittal rule)
    const questions = await generatedQuestions(judge, output, "", 3, "answer-relevance", chat);
    const model = embeddingModel(judge, options);
    const texts = [query, ...questions.map((q) => q.question)];
    const { embeddings } = await embedderOf(judge, "answer-relevance")({ input: texts, model, metric: "answer-relevance", ...chat });
    const scored = questions.map((q, i) => ({
      question: q.question,
      similarity: cosine(embeddings[0] as number[], embeddings[i + 1] as number[]),
    }));
    if (scored.some((q) => q.similarity === null))
      throw new JudgeInputError("an embedding is the zero vector (no cosine)", { argument: "embeddings" });
    const similarity = scored.reduce((sum, q) => sum + (q.similarity as number), 0) / scored.length;
    return atLeast(similarity, thresholdOf(input, 0.7), input.inverse === true, "Relevance", {
      generatedQuestions: scored,
      averageSimilarity: similarity,
    });
  },
};

/** A RAG grade of a RAGAS score; a score the judge could not give is a failed grade, never a pass. */
function ragGrade(
  score: number | null,
  input: PromptfooAssertionInput,
  fallback: number,
  label: string,
  metadata: Record<string, unknown>,
): PromptfooGrade {
  if (score === null)
    return {
      pass: false,
      score: 0,
      reason: `${label}: ${String(metadata.error ?? "no score")}`,
      metadata: { ...metadata, graderError: true },
    };
  return atLeast(score, thresholdOf(input, fallback), input.inverse === true, label, metadata);
}

const contextFaithfulness: PromptfooJudgeAssertion = {
  type: "context-faithfulness",
  defaultThreshold: 0,
  needs: ["chat"],
  async grade(input, judge, options) {
    const query = queryOf(input, "context-faithfulness", false);
    const context = contextOf(input, "context-faithfulness");
    const result = await Faithfulness({
      input: query,
      output: input.output,
      context,
      client: judge,
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    const statements = (result.metadata.statements as readonly string[]).length;
    // promptfoo fails a grading that extracted no statements instead of scoring it
    const score = statements === 0 ? null : result.score;
    return ragGrade(score, input, 0, "Faithfulness", {
      ...result.metadata,
      ...(statements === 0 ? { error: "no statements to verify" } : {}),
    });
  },
};

const contextRecall: PromptfooJudgeAssertion = {
  type: "context-recall",
  defaultThreshold: 0,
  needs: ["chat"],
  async grade(input, judge, options) {
    const expected = requireText(input.value, "value", "context-recall");
    const context = contextOf(input, "context-recall", input.prompt);
    const query = typeof input.vars?.query === "string" ? input.vars.query : (input.prompt ?? "");
    const result = await ContextRecall({
      input: query,
      expected,
      context,
      client: judge,
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    return ragGrade(result.score, input, 0, "Recall", { ...result.metadata });
  },
};

const contextRelevance: PromptfooJudgeAssertion = {
  type: "context-relevance",
  defaultThreshold: 0.5,
  needs: ["chat"],
  async grade(input, judge, options) {
    const query = queryOf(input, "context-relevance", false);
    const context = contextOf(input, "context-relevance");
    const result = await ContextRelevancy({ input: query, context, client: judge, ...(options?.signal ? { signal: options.signal } : {}) });
    // promptfoo's RAGAS formula: relevant units over context units (chunks, lines, else sentences), capped at 1
    const units = contextUnits(context);
    const relevant = new Set((result.metadata.relevantSentences as readonly { sentence: string }[]).map((s) => s.sentence.trim()));
    const score = units.length === 0 ? 0 : Math.min(relevant.size, units.length) / units.length;
    return ragGrade(score, input, 0.5, "Context relevance", {
      ...result.metadata,
      totalContextUnits: units.length,
      relevantSentenceCount: Math.min(relevant.size, units.length),
    });
  },
};

/** promptfoo's context units: the non-empty chunks of a list, the non-empty lines of a multi-line string, else its sentences. */
export function contextUnits(context: string | readonly string[]): string[] {
  if (Array.isArray(context)) return context.filter((c) => c.trim().length > 0);
  const text = context as string;
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length > 1) return lines;
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const moderation: PromptfooJudgeAssertion = {
  type: "moderation",
  defaultThreshold: null,
  needs: ["moderation"],
  async grade(input, judge, options) {
    if (!input.output) return { pass: !input.inverse, score: 1, reason: "No output to moderate" };
    const categories = input.value === undefined || input.value === null ? [] : input.value;
    if (!Array.isArray(categories) || !categories.every((c) => typeof c === "string")) {
      throw new JudgeInputError("moderation assertion value must be a string array if set", { argument: "value" });
    }
    if (typeof judge.moderate !== "function")
      throw new UnsupportedCapabilityError("moderation", `moderation needs a judge with moderate()`);
    const result = await judge.moderate({
      input: input.output,
      metric: "moderation",
      ...(options?.signal ? { signal: options.signal } : {}),
    });
    // promptfoo's flags: the flagged categories of flagged results
    const flags = result.results.flatMap((r) =>
      r.flagged
        ? Object.entries(r.categories)
            .filter(([, on]) => on)
            .map(([code]) => code)
        : [],
    );
    const relevant = categories.length === 0 ? flags : flags.filter((flag) => categories.includes(flag));
    const clean = relevant.length === 0;
    const reason = clean
      ? flags.length === 0
        ? "No moderation flags detected"
        : "No relevant moderation flags detected"
      : `Moderation flags detected: ${relevant.join(", ")}`;
    const pass = input.inverse ? !clean : clean;
    return { pass, score: clean ? 1 : 0, reason, metadata: { flags } };
  },
};

/** promptfoo's embedding, RAG and moderation assertion types, by type (the `not-` prefix is `inverse`). */
export const RAG_ASSERTIONS: Readonly<Record<string, PromptfooJudgeAssertion>> = Object.freeze({
  similar: similarFor("similar"),
  "similar:cosine": similarFor("similar:cosine"),
  "similar:dot": similarFor("similar:dot"),
  "similar:euclidean": similarFor("similar:euclidean"),
  "answer-relevance": answerRelevance,
  "context-faithfulness": contextFaithfulness,
  "context-recall": contextRecall,
  "context-relevance": contextRelevance,
  moderation,
});
