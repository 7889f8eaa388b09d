// The shape of promptfoo's model-graded assertion types (llm-rubric, factuality, answer-relevance,
// similar, ...) as the suite runner of @evalkern/harness calls them. Each table file of this folder
// exports `MODEL_GRADED_ASSERTIONS`, a map from promptfoo's type name to one of these functions.
import type { JudgeModel } from "../model.js";

/** What a model-graded assertion is given: the output, the assertion's value and options, the test's vars and the judge. */
export interface ModelGradedContext {
  /** The output under test (a generated reply, or the test's given output). */
  readonly output: string;
  /** The assertion's `value` (a rubric, a reference answer, a list of classes...), as written in the suite. */
  readonly value: unknown;
  /** Same as `value`, under the name the DeepEval-style metrics use. */
  readonly expected: unknown;
  /** The test's variables after `defaultTest` merge (`query`, `context`...). */
  readonly vars: Readonly<Record<string, unknown>>;
  /** The assertion's `threshold`, when it has one. */
  readonly threshold?: number;
  /** The assertion's `config` (promptfoo's per-assertion options). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** The rendered prompt that produced the output, when the output was generated. */
  readonly prompt?: string;
  /**
   * The `not-` prefix. A model-graded type applies it as promptfoo does for that type (some invert the
   * score, some only the pass), so the runner passes it here and does not invert the result again.
   */
  readonly inverse?: boolean;
  /** select-best: every candidate output of the test, and which one `output` is. */
  readonly outputs?: readonly string[];
  readonly outputIndex?: number;
  /** The judge every call goes through (its retries, cache and ledger). */
  readonly judge: JudgeModel;
  readonly signal?: AbortSignal;
}

/** promptfoo's grading result: pass, a score in [0, 1] and a reason. */
export interface ModelGradedResult {
  readonly pass: boolean;
  readonly score: number;
  readonly reason: string;
}

/** One model-graded assertion type. A failed judge call rejects (never a made-up score). */
export type ModelGradedAssertion = (ctx: ModelGradedContext) => Promise<ModelGradedResult>;

/** A table of model-graded assertion types by promptfoo name. */
export type ModelGradedTable = Readonly<Record<string, ModelGradedAssertion>>;
