// DeepEval ArenaGEval (docs/spec/judges.md §6.1): pick the best of several contestants under a G-Eval criterion,
// with contestant names masked and the presentation order shuffled to reduce position bias.
import {
  BaseArenaMetric,
  LLMTestCaseParams,
  LLM_TEST_CASE_FIELD,
  prettifyList,
  retrievalContextText,
  type ArenaEvaluation,
  type ArenaTestCase,
  type MeasureContext,
  type MetricOptions,
  type RetrievalContextItem,
  type ToolCall,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import type { JudgeModel, JudgeSchema } from "../model.js";
import { JudgeMetricConfigError, JudgeReplyError } from "./errors.js";
import { checkCriteria, checkEvaluationParams, evaluationStepsPrompt, stepsSchema } from "./g-eval.js";
import { callJudge, checkModel, checkOptionKeys } from "./judge-metric.js";
import { json, jsonOnly, numbered } from "./render.js";
import { judgeSchema } from "./schema.js";

export interface ArenaGEvalOptions extends MetricOptions {
  readonly model?: JudgeModel | string;
  /** The criterion's name; displayed as `"<name> [Arena GEval]"`. */
  readonly name: string;
  /** Fields shown for every contestant (and required on each contestant's test case). */
  readonly evaluationParams: readonly LLMTestCaseParams[];
  readonly criteria?: string | null;
  readonly evaluationSteps?: readonly string[] | null;
  /** Random source for masking and shuffling, in [0, 1). Default `Math.random`; pass a seeded one to reproduce. */
  readonly random?: () => number;
}

/** The dummy names contestants are shown under (then `Contestant<k>`). */
export const ARENA_DUMMY_NAMES = Object.freeze(["Alice", "Bob", "Charlie", "Diana", "Ethan", "Fiona", "George", "Hannah", "Ian", "Julia"]);

const winnerSchema = judgeSchema("winner", z.object({ winner: z.string(), reason: z.string() }));

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Dummy names for `count` contestants, in a random order. */
export function dummyNames(count: number, random: () => number): string[] {
  const names = Array.from({ length: count }, (_, k) => ARENA_DUMMY_NAMES[k] ?? `Contestant${k + 1}`);
  return shuffled(names, random);
}

/**
 * Resolve the judge's winner to a dummy name: exact, then with `$…$` wrapping removed and case
 * ignored. Anything else is a `JudgeReplyError` (never a guessed winner).
 */
export function resolveDummyWinner(winner: string, dummies: readonly string[]): string {
  if (dummies.includes(winner)) return winner;
  const cleaned = winner
    .trim()
    .replace(/^\$+|\$+$/g, "")
    .trim()
    .toLowerCase();
  const match = dummies.find((d) => d.toLowerCase() === cleaned);
  if (match === undefined) {
    throw new JudgeReplyError("winner", "unknown-reference", [`'${winner}' is not one of the contestants (${dummies.join(", ")})`]);
  }
  return match;
}

/** Replace every `$dummy$` (and bare dummy name) in the reason with the real contestant name. */
export function unmaskReason(reason: string, realByDummy: ReadonlyMap<string, string>): string {
  let out = reason;
  for (const [dummy, real] of realByDummy) out = out.split(`$${dummy}$`).join(real);
  for (const [dummy, real] of realByDummy) out = out.replace(new RegExp(`\\b${dummy}\\b`, "g"), real);
  return out;
}

function fieldValue(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item: unknown) =>
      typeof item === "object" && item !== null && "inputParameters" in item
        ? (item as ToolCall).toJSON()
        : typeof item === "string"
          ? item
          : retrievalContextText(item as RetrievalContextItem),
    );
  }
  return value;
}

/**
 * The best of several answers to one input under a criterion (DeepEval `ArenaGEval`).
 *
 * When to use: comparing prompts, models or system versions head to head.
 *
 * Details: contestants are shown under shuffled dummy names (Alice, Bob, … then `Contestant<k>`) in a
 * random order, as JSON with the input and expected output once (when selected) and each contestant's
 * selected fields. Calls: evaluation steps (only without `evaluationSteps`), then the winner with a
 * reason naming contestants as `$Name$`. The winner is mapped back to the real name and the reason is
 * un-masked by string substitution (DeepEval uses a third judge call for that). No threshold or score;
 * `success` is true unless the measurement failed.
 *
 * @example
 * const arena = new ArenaGEval({ model: judge, name: "Helpfulness", criteria: "Which answer helps most?",
 *   evaluationParams: [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT] });
 * const winner = await arena.aMeasure(arenaTestCase);
 */
export class ArenaGEval extends BaseArenaMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = Object.keys({
    includeReason: true,
    asyncMode: true,
    verboseMode: true,
    verbosePrinter: true,
    evaluationModel: true,
    model: true,
    name: true,
    evaluationParams: true,
    criteria: true,
    evaluationSteps: true,
    random: true,
  } satisfies Record<keyof ArenaGEvalOptions, true>);

  readonly model: JudgeModel;
  readonly metricName: string;
  readonly evaluationParams: readonly LLMTestCaseParams[];
  readonly criteria: string | null;
  readonly evaluationSteps: readonly string[] | null;
  private readonly random: () => number;

  constructor(options: ArenaGEvalOptions) {
    checkOptionKeys(new.target, options);
    const model = checkModel(options?.model, "ArenaGEval");
    super({ ...options, evaluationModel: options?.evaluationModel ?? model.name });
    // Left out entirely (plain JavaScript): the checks below name the missing option.
    const o: Partial<ArenaGEvalOptions> = options ?? {};
    this.model = model;
    if (typeof o.name !== "string" || o.name.trim() === "") {
      throw new JudgeMetricConfigError("name", "ArenaGEval: 'name' must be a non-blank string");
    }
    this.metricName = o.name;
    this.evaluationParams = checkEvaluationParams(o.evaluationParams, "ArenaGEval");
    const { criteria, evaluationSteps } = checkCriteria(o.criteria, o.evaluationSteps, "ArenaGEval");
    this.criteria = criteria;
    this.evaluationSteps = evaluationSteps;
    this.random = o.random ?? Math.random;
  }

  override get name(): string {
    return `${this.metricName} [Arena GEval]`;
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return this.evaluationParams;
  }

  private judge<T>(schema: JudgeSchema<T>, prompt: string, signal: AbortSignal | undefined): Promise<T> {
    return callJudge(this.model, schema, prompt, (usage) => this.accrueUsage(usage), { signal, metric: this.name }).then((r) => r.value);
  }

  protected override get tracksCost(): boolean {
    return this.model.reportsCost !== false;
  }

  protected override async evaluateAsync(testCase: ArenaTestCase, { signal }: MeasureContext): Promise<ArenaEvaluation> {
    const steps =
      this.evaluationSteps ??
      (await this.judge(stepsSchema, evaluationStepsPrompt(this.criteria as string, this.evaluationParams, true), signal)).steps;

    const contestants = testCase.contestants;
    const dummies = dummyNames(contestants.length, this.random);
    const realByDummy = new Map(contestants.map((c, i) => [dummies[i] as string, c.name]));
    const first = contestants[0]?.testCase;
    const shared: Record<string, unknown> = {};
    for (const param of [LLMTestCaseParams.INPUT, LLMTestCaseParams.EXPECTED_OUTPUT]) {
      if (first && this.evaluationParams.includes(param)) shared[param] = first[LLM_TEST_CASE_FIELD[param]];
    }
    const perContestant = this.evaluationParams.filter((p) => p !== LLMTestCaseParams.INPUT && p !== LLMTestCaseParams.EXPECTED_OUTPUT);
    const shown = shuffled(
      contestants.map((c, i) => {
        const entry: Record<string, unknown> = { name: dummies[i] };
        for (const param of perContestant) entry[param] = fieldValue(c.testCase[LLM_TEST_CASE_FIELD[param]]);
        return entry;
      }),
      this.random,
    );
    const dummyList = shown.map((c) => c.name as string);
    const { winner, reason } = await this.judge(
      winnerSchema,
      `Several contestants answered the same task. Following the evaluation steps, choose the single ` +
        `contestant whose answer is best. In the reason, refer to contestants only by their names ` +
        `wrapped in dollar signs (for example $${dummyList[0]}$), explain what makes the winner best with ` +
        `specifics, and mention specifics of every other contestant.

Evaluation steps:
${numbered(steps)}

Task and contestants:
${json({ ...shared, contestants: shown })}

${jsonOnly(`{"winner": "<one of: ${dummyList.join(", ")}>", "reason": "<string>"}`)}`,
      signal,
    );
    const dummyWinner = resolveDummyWinner(winner, dummyList);
    const realWinner = realByDummy.get(dummyWinner) as string;
    return {
      winner: realWinner,
      reason: unmaskReason(reason, realByDummy),
      verboseSteps: [
        ...(this.criteria ? [`Criteria:\n${this.criteria}`] : []),
        `Evaluation Steps:\n${prettifyList(steps)}`,
        `Masked names:\n${prettifyList([...realByDummy].map(([d, r]) => `${d} = ${r}`))}`,
        `Judge's winner: ${dummyWinner}`,
      ],
    };
  }
}
