// Prompts and output schemas of the DSPy judge metrics, written for evalkern. DSPy's signatures are
// ChainOfThought modules: a `reasoning` field comes first, then the signature's outputs in order
// (docs/spec/judges.md §7.3-7.4). The wording is ours; fields, their order and meanings follow DSPy.
import { z } from "zod";
import type { JudgeMessage } from "../model.js";
import { zodSchema } from "../schema.js";

/** Bumped whenever a prompt below changes, so cached judge calls are not reused across prompt edits. */
export const DSPY_PROMPT_VERSION = "dspy-judges/1";

const unitFraction = (meaning: string) => z.number().describe(`${meaning} A number from 0.0 to 1.0.`);

export const SemanticRecallPrecision = zodSchema(
  "semantic_recall_precision",
  z.object({
    reasoning: z.string().describe("Think step by step before giving the numbers."),
    recall: unitFraction("Fraction of the ground truth that the system response covers."),
    precision: unitFraction("Fraction of the system response that the ground truth covers."),
  }),
);

export const DecompositionalSemanticRecallPrecision = zodSchema(
  "decompositional_semantic_recall_precision",
  z.object({
    reasoning: z.string().describe("Think step by step before filling in the other fields."),
    ground_truth_key_ideas: z.string().describe("The key ideas of the ground truth, as an enumeration."),
    system_response_key_ideas: z.string().describe("The key ideas of the system response, as an enumeration."),
    discussion: z.string().describe("Which key ideas the two share and which they do not."),
    recall: unitFraction("Fraction of the ground truth that the system response covers."),
    precision: unitFraction("Fraction of the system response that the ground truth covers."),
  }),
);

export const AnswerCompleteness = zodSchema(
  "answer_completeness",
  z.object({
    reasoning: z.string().describe("Think step by step before filling in the other fields."),
    ground_truth_key_ideas: z.string().describe("The key ideas of the ground truth, as an enumeration."),
    system_response_key_ideas: z.string().describe("The key ideas of the system response, as an enumeration."),
    discussion: z.string().describe("Which key ideas of the ground truth the response contains, and which it misses."),
    completeness: unitFraction("Fraction of the ground truth that the system response covers."),
  }),
);

export const AnswerGroundedness = zodSchema(
  "answer_groundedness",
  z.object({
    reasoning: z.string().describe("Think step by step before filling in the other fields."),
    system_response_claims: z.string().describe("The non-trivial, check-worthy claims of the system response, as an enumeration."),
    discussion: z.string().describe("How well the retrieved context, together with basic common sense, supports each claim."),
    groundedness: unitFraction("Fraction of the system response that the retrieved context supports."),
  }),
);

const ANSWER_FIELDS = (question: string, second: [string, string], response: string): string =>
  `Question:\n${question}\n\n${second[0]}:\n${second[1]}\n\nSystem response:\n${response}`;

export function semanticF1Messages(question: string, groundTruth: string, response: string, decompositional: boolean): JudgeMessage[] {
  const task = decompositional
    ? "You judge how well a system's answer matches a reference answer to the same question. Work in order: " +
      "first list the key ideas of the ground truth, then list the key ideas of the system response, then discuss " +
      "where they overlap and where they differ, and only then give the two fractions."
    : "You judge how well a system's answer matches a reference answer to the same question. Report its recall and " +
      "precision. While reasoning, list the key ideas of each answer and say whether each one appears in the other.";
  return [
    {
      role: "system",
      content:
        `${task}\n\nrecall: the share of the ground truth's content that the system response also conveys (0.0 to 1.0).\n` +
        "precision: the share of the system response's content that the ground truth also conveys (0.0 to 1.0).\n" +
        "Judge meaning, not wording: paraphrases count as present.",
    },
    { role: "user", content: ANSWER_FIELDS(question, ["Ground truth", groundTruth], response) },
  ];
}

export function completenessMessages(question: string, groundTruth: string, response: string): JudgeMessage[] {
  return [
    {
      role: "system",
      content:
        "You judge how complete a system's answer is with respect to a reference answer to the same question. List the " +
        "key ideas of the ground truth and of the system response, discuss which ground-truth ideas the response covers " +
        "and which it leaves out, then give completeness: the share of the ground truth's content that the response " +
        "conveys, from 0.0 to 1.0. Judge meaning, not wording.",
    },
    { role: "user", content: ANSWER_FIELDS(question, ["Ground truth", groundTruth], response) },
  ];
}

export function groundednessMessages(question: string, context: string, response: string): JudgeMessage[] {
  return [
    {
      role: "system",
      content:
        "You judge whether a system's answer is backed by the passages it retrieved. List the non-trivial claims of the " +
        "system response that are worth checking, discuss how well each is supported by the retrieved context and basic " +
        "common sense, then give groundedness: the share of the response's content that the retrieved context supports, " +
        "from 0.0 to 1.0.",
    },
    { role: "user", content: ANSWER_FIELDS(question, ["Retrieved context", context], response) },
  ];
}
