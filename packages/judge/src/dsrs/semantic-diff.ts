// The `Semantic` strictness of dsrs `DiffMetric` (dsrs: a 0.5 TODO), judge-backed through the
// `semanticJudge` hook @evalkern/metrics/dsrs leaves for it.
import { DiffMetric, MetricScore, SEMANTIC_DIFF_COST_MSATS, type DiffMetricOptions, type SemanticDiffJudge } from "@evalkern/metrics/dsrs";
import { z } from "zod";
import { JudgeConfigError } from "../errors.js";
import { resolveJudge } from "../defaults.js";
import type { JudgeMessage, JudgeModel } from "../model.js";
import { zodSchema } from "../schema.js";
import { DSRS_PROMPT_VERSION } from "./llm-judge-metric.js";
import { checkRate, costMsats, usageNote } from "./render.js";

export const SemanticEquivalence = zodSchema(
  "semantic_equivalence",
  z.object({
    reason: z.string().describe("What the two texts do or say alike and differently."),
    equivalent: z.boolean().describe("True when they mean the same thing / behave the same way."),
    similarity: z.number().min(0).max(1).describe("Degree of semantic equivalence, 0.0 (unrelated) to 1.0 (equivalent)."),
  }),
);

export interface SemanticDiffOptions {
  /** A `JudgeModel` or a model name (built from the environment); absent: the `configure({ judge })` default. */
  readonly model?: JudgeModel | string;
  /** Fixed cost per evaluation in msats. Default 50 (dsrs's `Semantic` cost). */
  readonly costMsats?: number;
  /** USD → msats rate: report the actual spend instead of the fixed cost (0 for a cache hit). */
  readonly msatsPerUsd?: number;
  /**
   * `"similarity"` (default): the score is the judge's graded similarity. `"binary"`: 1.0 when the judge says
   * equivalent, else 0.0.
   */
  readonly scoring?: "similarity" | "binary";
  /** Ledger tag. Default `"diff"`. */
  readonly tag?: string;
}

const SYSTEM =
  "You compare an expected text with an actual text produced by a program or a model, and decide whether they are " +
  "semantically equivalent: for code, whether they behave the same for every input (names, formatting, comments and " +
  "ordering of independent statements do not matter); for prose or data, whether they convey the same meaning and " +
  "facts. Give a short reason, whether they are equivalent, and a similarity from 0.0 (unrelated) to 1.0 (equivalent).";

function messages(expected: string, actual: string): JudgeMessage[] {
  return [
    { role: "system", content: SYSTEM },
    { role: "user", content: `Expected:\n${expected}\n\nActual:\n${actual}` },
  ];
}

/**
 * A `SemanticDiffJudge` for `DiffMetric({ strictness: "Semantic", semanticJudge })`.
 *
 * Details: one judge call per evaluation with the expected and actual texts (DiffMetric has already
 * handled an empty expected text: 0.5, no call). Score = the judge's `similarity` (or 1/0 on `equivalent`
 * with `scoring: "binary"`), confidence 1.0, details = the reason and the judge's usage, cost = 50 msats
 * (or the actual spend with `msatsPerUsd`). A failed call rejects with the typed error.
 */
export function semanticDiffJudge(options: SemanticDiffOptions): SemanticDiffJudge {
  const model = resolveJudge(options?.model, "semanticDiffJudge");
  const fixed = options.costMsats ?? SEMANTIC_DIFF_COST_MSATS;
  if (!Number.isSafeInteger(fixed) || fixed < 0) {
    throw new JudgeConfigError("options.costMsats must be a non-negative integer", {
      argument: "options.costMsats",
      actual: String(fixed),
    });
  }
  const rate = checkRate(options.msatsPerUsd);
  const scoring = options.scoring ?? "similarity";
  if (scoring !== "similarity" && scoring !== "binary") {
    throw new JudgeConfigError('options.scoring must be "similarity" or "binary"', {
      argument: "options.scoring",
      actual: String(scoring),
    });
  }
  const tag = options.tag ?? "diff";
  return async ({ expected, actual }) => {
    const result = await model.generate({
      messages: messages(expected, actual),
      schema: SemanticEquivalence,
      metric: tag,
      promptVersion: DSRS_PROMPT_VERSION,
    });
    const { reason, equivalent, similarity } = result.value;
    const value = scoring === "binary" ? (equivalent ? 1 : 0) : similarity;
    const verdict = equivalent ? "Semantically equivalent" : "Not semantically equivalent";
    return MetricScore.new(value)
      .withDetails(`${verdict} (similarity ${similarity.toFixed(2)}): ${reason} (${usageNote(model.name, result.usage, result.cached)})`)
      .withCost(costMsats(result.usage, result.cached, fixed, rate));
  };
}

/**
 * `DiffMetric` with `Semantic` strictness over a judge: `new DiffMetric({ ...diffOptions, strictness:
 * "Semantic", semanticJudge: semanticDiffJudge(options) })`.
 *
 * @example
 * const diff = semanticDiffMetric({ model: judge });
 * await diff.evaluate({ expected: "return a + b" }, { output: "return b + a" }); // ~1.0
 */
export function semanticDiffMetric(
  options: SemanticDiffOptions & { readonly diff?: Omit<DiffMetricOptions, "strictness" | "semanticJudge"> },
): DiffMetric {
  const { diff, ...judgeOptions } = options;
  return new DiffMetric({
    ...(diff ?? {}),
    strictness: "Semantic",
    semanticJudge: semanticDiffJudge({ ...judgeOptions, tag: judgeOptions.tag ?? diff?.name ?? "diff" }),
    ...(options.costMsats !== undefined ? { costMsats: options.costMsats } : {}),
  });
}
