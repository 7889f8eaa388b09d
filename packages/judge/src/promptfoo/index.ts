// promptfoo's model-graded assertion types, by promptfoo's names: the one lookup the suite runner
// (`evalkern test`, `runSuite` of @evalkern/harness) calls for a type that is neither a rule metric nor a
// judge metric of the registries. Each family of types lives in its own file of this folder exporting a
// `MODEL_GRADED_ASSERTIONS` table; adding a family is one import and one entry in `TABLES` below.
import { JudgeConfigError } from "../errors.js";
import { MODEL_GRADED_ASSERTIONS, type ModelGradedOptions } from "./model-graded.js";
import { RAG_ASSERTIONS } from "./rag.js";
import type { ModelGradedAssertion, ModelGradedContext, ModelGradedTable } from "./types.js";

export type { ModelGradedAssertion, ModelGradedContext, ModelGradedResult, ModelGradedTable } from "./types.js";

/** llm-rubric, model-graded-closedqa, factuality, select-best, classifier (./model-graded.ts): `config` is their options. */
const JUDGED: ModelGradedTable = Object.fromEntries(
  Object.entries(MODEL_GRADED_ASSERTIONS).map(([name, grade]) => [
    name,
    (ctx: ModelGradedContext) => grade({ ...ctx, ...(ctx.config ? { options: ctx.config as ModelGradedOptions } : {}) }),
  ]),
);

/** similar(:cosine|:dot|:euclidean), answer-relevance, context-*, moderation (./rag.ts), over the same judge. */
const RAG: ModelGradedTable = Object.fromEntries(
  Object.entries(RAG_ASSERTIONS).map(([name, assertion]) => [
    name,
    (ctx: ModelGradedContext) =>
      assertion.grade(
        {
          type: name,
          output: ctx.output,
          vars: ctx.vars,
          value: ctx.value,
          ...(ctx.prompt !== undefined ? { prompt: ctx.prompt } : {}),
          ...(ctx.threshold !== undefined ? { threshold: ctx.threshold } : {}),
          ...(ctx.inverse !== undefined ? { inverse: ctx.inverse } : {}),
        },
        ctx.judge,
        {
          ...(typeof ctx.config?.embeddingModel === "string" ? { embeddingModel: ctx.config.embeddingModel } : {}),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        },
      ),
  ]),
);

/** Every table of model-graded types, merged in this order (a later table may not reuse a name). */
const TABLES: readonly ModelGradedTable[] = [JUDGED, RAG];

const BY_NAME = new Map<string, ModelGradedAssertion>();
for (const table of TABLES) {
  for (const [name, fn] of Object.entries(table)) {
    // two families claiming one promptfoo name is a packaging mistake, caught when the module loads
    if (BY_NAME.has(name)) {
      throw new JudgeConfigError(`model-graded assertion ${JSON.stringify(name)} is defined twice`, {
        argument: "MODEL_GRADED_ASSERTIONS",
        actual: name,
      });
    }
    BY_NAME.set(name, fn);
  }
}

/** The model-graded assertion of a promptfoo type name (without the `not-` prefix), or undefined. */
export function modelGradedAssertion(name: string): ModelGradedAssertion | undefined {
  return typeof name === "string" ? BY_NAME.get(name) : undefined;
}

/** The promptfoo type names of every model-graded assertion, in table order. */
export function listModelGradedAssertions(): readonly string[] {
  return [...BY_NAME.keys()];
}

export {
  MODEL_GRADED_ASSERTIONS,
  factualityScores,
  selectBest,
  type FactualityScores,
  type Grader,
  type GraderContext,
  type GraderResult,
  type ModelGradedAssertionType,
  type ModelGradedOptions,
} from "./model-graded.js";
export { RAG_ASSERTIONS, type PromptfooAssertionInput, type PromptfooGrade, type PromptfooJudgeAssertion } from "./rag.js";
