// autoevals' LLM classifiers (js/llm.ts): a prompt template, a table of choices and their scores, and one
// judge call in which the model selects a choice — with its step-by-step reasons first when chain of
// thought is on (the default). autoevals forces a `select_choice` function call whose arguments are
// `{ reasons, choice }`; here the same object is the structured output of the judge client, named
// `select_choice`: the client's ladder sends it as a JSON schema, falls back to JSON mode and to
// prompt-only text, validates the choice against the allowed set and re-asks on a bad reply.
import type { Score } from "@evalkern/metrics/common";
import { z } from "zod";
import { resolveJudge } from "../defaults.js";
import { JudgeConfigError, JudgeInputError } from "../errors.js";
import type { JudgeModel, JudgeSchema } from "../model.js";
import { zodSchema } from "../schema.js";
import { validateReply } from "../deepeval/judge-metric.js";
import { renderTemplate } from "./template.js";

/** autoevals' default reply-token limit of a classification call. */
export const CLASSIFIER_MAX_TOKENS = 512;

/** The options every LLM scorer takes at call time (autoevals' names, mapped onto the judge). */
export interface LLMScorerOptions {
  /** The judge: a `JudgeModel`, or a model name (an OpenAI-compatible judge from the environment). */
  readonly model?: JudgeModel | string;
  /** Same as `model` given as a `JudgeModel` (autoevals' `client`); `model` wins when both are set. */
  readonly client?: JudgeModel;
  /** Same as `client` (evalkern's name). */
  readonly judge?: JudgeModel;
  /** Ask for step-by-step reasons before the choice. Default: the scorer's, else true. */
  readonly useCoT?: boolean;
  /** Default 0. */
  readonly temperature?: number;
  /** Default 512 (autoevals'). */
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

/** autoevals' scorer arguments: the output, the expected value, and the template's other variables. */
export type LLMScorerArgs = LLMScorerOptions & {
  readonly output: unknown;
  readonly expected?: unknown;
  readonly input?: unknown;
  readonly [variable: string]: unknown;
};

/** An async scorer in autoevals' call shape. */
export type LLMScorer<Args extends LLMScorerArgs = LLMScorerArgs> = ((args: Args) => Promise<Score>) & {
  readonly scorerName: string;
  /** Marks a scorer that calls a judge (so `AutoevalsMetric` offers only `aMeasure`). */
  readonly requiresJudge: true;
};

/** What defines a classifier (autoevals' `LLMClassifierFromTemplate` arguments). */
export interface LLMClassifierSpec {
  /** The score's name. */
  readonly name: string;
  /** The prompt, with `{{{output}}}`, `{{{expected}}}`, `{{{input}}}` and any other argument as variables. */
  readonly promptTemplate: string;
  /** Each choice the judge may select, and its score. */
  readonly choiceScores: Readonly<Record<string, number>>;
  /** The default judge (a `JudgeModel` or a model name); a call's `model`/`client`/`judge` wins. */
  readonly model?: JudgeModel | string;
  /** Default true. */
  readonly useCoT?: boolean;
  readonly temperature?: number;
  /** Arguments the scorer cannot do without (a `JudgeInputError` names the missing one). */
  readonly required?: readonly string[];
}

/** The judge's selection: the choice, with its reasons when chain of thought was asked for. */
export interface Selection {
  readonly choice: string;
  readonly reasons?: string;
}

const trimmed = (value: unknown): unknown => (typeof value === "string" ? value.trim() : value);

/**
 * The `select_choice` schema: `{ reasons, choice }` with chain of thought, `{ choice }` without; `choice`
 * is one of `choices` (surrounding spaces forgiven, as autoevals trims).
 */
export function selectChoiceSchema(choices: readonly string[], useCoT: boolean): JudgeSchema<Selection> {
  const choice = z.preprocess(trimmed, z.enum(choices as [string, ...string[]])).describe("The selected choice");
  const reasons = z.string().describe("Step-by-step reasoning, written before the choice is made");
  const shape = useCoT ? z.object({ reasons, choice }) : z.object({ choice });
  return zodSchema("select_choice", shape) as JudgeSchema<Selection>;
}

/** Our closing instruction (autoevals' suffix in our words), naming the choices. */
export function choiceInstruction(choices: readonly string[], useCoT: boolean): string {
  const list = choices.map((c) => JSON.stringify(c)).join(", ");
  return useCoT
    ? `Reply through \`select_choice\`. First write out your reasoning step by step in \`reasons\`, so that the conclusion is ` +
        `checked before it is stated; only then set \`choice\` to exactly one of: ${list}.`
    : `Reply through \`select_choice\`, setting \`choice\` to exactly one of: ${list}.`;
}

function checkChoiceScores(name: string, choiceScores: unknown): readonly string[] {
  if (typeof choiceScores !== "object" || choiceScores === null || Array.isArray(choiceScores)) {
    throw new JudgeConfigError(`${name}: choiceScores must be an object of choice → score`, { argument: "choiceScores" });
  }
  const choices = Object.keys(choiceScores);
  if (choices.length === 0) throw new JudgeConfigError(`${name}: choiceScores names no choice`, { argument: "choiceScores" });
  for (const c of choices) {
    const s = (choiceScores as Record<string, unknown>)[c];
    if (typeof s !== "number" || !Number.isFinite(s)) {
      throw new JudgeConfigError(`${name}: the score of choice ${JSON.stringify(c)} is not a finite number`, { argument: "choiceScores" });
    }
  }
  return choices;
}

/** The judge of a call: `model`, else `client`/`judge`, else the spec's, else the configured default. */
export function scorerJudge(options: LLMScorerOptions, fallback: JudgeModel | string | undefined, owner: string): JudgeModel {
  return resolveJudge(options.model ?? options.client ?? options.judge ?? fallback, owner);
}

/**
 * One classification call: `prompt` plus the choice instruction as one user message, the `select_choice`
 * schema as structured output. Resolves with the validated selection; rejects with the judge's typed
 * error (a reply that never names an allowed choice is a `JudgeOutputError`, never a made-up score).
 */
export async function selectChoice(
  judge: JudgeModel,
  prompt: string,
  choices: readonly string[],
  options: {
    useCoT: boolean;
    temperature?: number | undefined;
    maxTokens?: number | undefined;
    signal?: AbortSignal | undefined;
    metric: string;
  },
): Promise<Selection> {
  const schema = selectChoiceSchema(choices, options.useCoT);
  const result = await judge.generate({
    messages: [{ role: "user", content: `${prompt}\n\n${choiceInstruction(choices, options.useCoT)}` }],
    schema,
    temperature: options.temperature ?? 0,
    maxTokens: options.maxTokens ?? CLASSIFIER_MAX_TOKENS,
    metric: options.metric,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // a custom JudgeModel may not validate: check the choice here too
  return validateReply(schema, result.value);
}

const OPTION_KEYS = new Set(["model", "client", "judge", "useCoT", "temperature", "maxTokens", "signal"]);

/**
 * autoevals `LLMClassifierFromTemplate`: a scorer that renders `promptTemplate` with its arguments, asks
 * the judge to select one of `choiceScores`' choices, and scores the selection.
 *
 * When to use: a classifier of your own; the nine built-in ones (`Factuality`, `ClosedQA`, ...) are
 * made with it.
 *
 * Details: returns `{ name, score: choiceScores[choice], metadata: { rationale, choice } }`
 * (`rationale` only with chain of thought). Template variables are the call's arguments (`output`,
 * `expected`, `input` and any other); strings render as they are, other values as JSON, absent ones
 * empty. Call options: `model`/`client`/`judge`, `useCoT`, `temperature` (default 0), `maxTokens`
 * (default 512), `signal`.
 *
 * Gotchas: a reply whose choice is not one of the choices is re-asked by the client, then rejected
 * with `JudgeOutputError` (autoevals throws "Unknown score choice"). The template supports variables
 * only, not mustache sections.
 *
 * @example
 * const Polite = LLMClassifierFromTemplate({
 *   name: "Polite", promptTemplate: "Is this reply polite?\n{{{output}}}", choiceScores: { Yes: 1, No: 0 },
 * });
 * const { score, metadata } = await Polite({ output: "Thanks so much!", judge });
 */
export function LLMClassifierFromTemplate<Args extends LLMScorerArgs = LLMScorerArgs>(spec: LLMClassifierSpec): LLMScorer<Args> {
  if (typeof spec !== "object" || spec === null) {
    throw new JudgeConfigError("LLMClassifierFromTemplate takes a spec object", { argument: "spec" });
  }
  const { name, promptTemplate, choiceScores } = spec;
  if (typeof name !== "string" || name === "") throw new JudgeConfigError("a classifier needs a name", { argument: "name" });
  if (typeof promptTemplate !== "string") {
    throw new JudgeConfigError(`${name}: promptTemplate must be a string`, { argument: "promptTemplate" });
  }
  const choices = checkChoiceScores(name, choiceScores);
  renderTemplate(promptTemplate, {}); // refuse unsupported tags now, not at the first call
  const scorer = async (args: Args): Promise<Score> => {
    if (typeof args !== "object" || args === null) {
      throw new JudgeInputError(`${name} takes { output, expected, ... }`, { argument: "args" });
    }
    for (const key of spec.required ?? []) {
      if (args[key] === undefined || args[key] === null) {
        throw new JudgeInputError(`${name} needs '${key}'`, { argument: key, expected: "a value" });
      }
    }
    const useCoT = args.useCoT ?? spec.useCoT ?? true;
    const vars = Object.fromEntries(Object.entries(args).filter(([k]) => !OPTION_KEYS.has(k)));
    const judge = scorerJudge(args, spec.model, name);
    const selection = await selectChoice(judge, renderTemplate(promptTemplate, vars), choices, {
      useCoT,
      temperature: args.temperature ?? spec.temperature,
      maxTokens: args.maxTokens,
      signal: args.signal,
      metric: name,
    });
    const metadata = useCoT ? { rationale: selection.reasons, choice: selection.choice } : { choice: selection.choice };
    return { name, score: choiceScores[selection.choice] as number, metadata };
  };
  return Object.assign(scorer, { scorerName: name, requiresJudge: true as const });
}

/** autoevals' spec-file shape (`templates/*.yaml`): `prompt`, `choice_scores`, optional `use_cot`, `model`, `temperature`. */
export interface ModelGradedSpec {
  readonly prompt: string;
  readonly choice_scores: Readonly<Record<string, number>>;
  readonly use_cot?: boolean;
  readonly model?: string;
  readonly temperature?: number;
}

/** autoevals `LLMClassifierFromSpec(name, spec)`: a classifier from a spec-file object. */
export function LLMClassifierFromSpec<Args extends LLMScorerArgs = LLMScorerArgs>(name: string, spec: ModelGradedSpec): LLMScorer<Args> {
  if (typeof spec !== "object" || spec === null) throw new JudgeConfigError(`${name}: the spec must be an object`, { argument: "spec" });
  return LLMClassifierFromTemplate<Args>({
    name,
    promptTemplate: spec.prompt,
    choiceScores: spec.choice_scores,
    ...(spec.model !== undefined ? { model: spec.model } : {}),
    ...(spec.use_cot !== undefined ? { useCoT: spec.use_cot } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
  });
}

/**
 * autoevals' Python-style `LLMClassifier(name, promptTemplate, choiceScores, options)`: the same
 * classifier as {@link LLMClassifierFromTemplate}, with positional arguments.
 */
export function LLMClassifier<Args extends LLMScorerArgs = LLMScorerArgs>(
  name: string,
  promptTemplate: string,
  choiceScores: Readonly<Record<string, number>>,
  options: Omit<LLMClassifierSpec, "name" | "promptTemplate" | "choiceScores"> = {},
): LLMScorer<Args> {
  return LLMClassifierFromTemplate<Args>({ ...options, name, promptTemplate, choiceScores });
}
