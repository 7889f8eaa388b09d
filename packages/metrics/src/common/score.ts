// The result shape of autoevals (braintrustdata/autoevals js/score.ts), which promptfoo and evalite
// users also meet: a named score with metadata.

/** A named score in [0, 1] (`null` when the scorer has no opinion) with scorer-specific metadata. */
export interface Score {
  readonly name: string;
  readonly score: number | null;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** autoevals' scorer arguments: the output under test and the expected value. */
export interface ScorerArgs<Output> {
  readonly output: Output;
  readonly expected?: Output;
}

/**
 * A synchronous scorer in the autoevals shape. (autoevals also accepts async scorers; the rule-based
 * scorers here are synchronous after `ready()`, and so must be the scorers you plug into them.)
 */
export type Scorer<Output> = (args: ScorerArgs<Output>) => Score;
