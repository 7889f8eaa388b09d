// autoevals `Moderation` (js/moderation.ts) over the judge's `moderate` (`/v1/moderations`): 1 when the
// output passes, 0 when it does not. Without a threshold the provider's own `flagged` decides; with one,
// any category score strictly above it fails the output.
import { JudgeInputError, UnsupportedCapabilityError } from "../errors.js";
import type { ModerationVerdict } from "../model.js";
import { requireText, scorerJudge, type JudgeArgs, type Score } from "./judge-args.js";

export interface ModerationArgs extends JudgeArgs {
  readonly output: string;
  /** Fail when any category score is above this; absent = the provider's `flagged`. */
  readonly threshold?: number;
  /** Moderation model; default the judge's (`moderationModel`), else the server's default. */
  readonly model?: string;
  readonly signal?: AbortSignal;
}

/** autoevals' rule: `flagged ? 0 : 1` without a threshold, else 0 when any category score > threshold. */
export function moderationScore(verdict: ModerationVerdict, threshold: number | undefined): number {
  if (threshold === undefined) return verdict.flagged ? 0 : 1;
  return Object.values(verdict.categoryScores).some((score) => score > threshold) ? 0 : 1;
}

/**
 * autoevals `Moderation`: 1 when `output` passes moderation, else 0; `metadata.category_scores` holds
 * the provider's scores.
 *
 * @example
 * await Moderation({ output: "have a nice day", client: judge }); // { name: "Moderation", score: 1, ... }
 */
export async function Moderation(args: ModerationArgs): Promise<Score> {
  const name = "Moderation";
  const output = requireText(args?.output, "output", name);
  const threshold = args.threshold;
  if (threshold !== undefined && (typeof threshold !== "number" || !Number.isFinite(threshold))) {
    throw new JudgeInputError("threshold must be a finite number", { argument: "threshold" });
  }
  const judge = scorerJudge(args, name, undefined);
  if (typeof judge.moderate !== "function") {
    throw new UnsupportedCapabilityError("moderation", `${name} needs moderation, and the judge ${judge.name} has no moderate()`);
  }
  const result = await judge.moderate({
    input: output,
    metric: name,
    ...(args.model !== undefined ? { model: args.model } : {}),
    ...(args.signal ? { signal: args.signal } : {}),
  });
  const verdict = result.results[0] as ModerationVerdict;
  return {
    name,
    score: moderationScore(verdict, threshold),
    metadata: { threshold, category_scores: verdict.categoryScores, flagged: verdict.flagged, categories: verdict.categories },
  };
}
