/**
 * `@evalkern/judge/autoevals`: autoevals' scorers in autoevals' call shape
 * (`await Factuality({ input, output, expected, judge })` → `{ name, score, metadata }`), over the
 * evalkern judge client, and `AutoevalsMetric`, which runs any of them as a DeepEval-style metric.
 * Browser-safe like the package root.
 */
export {
  CLASSIFIER_MAX_TOKENS,
  LLMClassifier,
  LLMClassifierFromSpec,
  LLMClassifierFromTemplate,
  choiceInstruction,
  selectChoice,
  selectChoiceSchema,
  type LLMClassifierSpec,
  type LLMScorer,
  type LLMScorerArgs,
  type LLMScorerOptions,
  type ModelGradedSpec,
  type Selection,
} from "./classifier.js";
export {
  Battle,
  CHOICE_SCORES,
  ClosedQA,
  Factuality,
  Humor,
  PROMPTS,
  Possible,
  Security,
  Sql,
  Summary,
  Translation,
} from "./classifiers.js";
export { renderTemplate, renderValue } from "./template.js";
export { AutoevalsMetric, type AutoevalsMetricOptions, type AutoevalsScorer } from "./as-metric.js";
export { ExactMatch, ValidJSON, type ExactMatchArgs, type ValidJSONArgs } from "@evalkern/metrics/common";
export type { Score } from "@evalkern/metrics/common";
