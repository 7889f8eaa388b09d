// The shapes of NeMo Evaluator BYOB (`nemo_evaluator.contrib.byob.decorators.ScorerInput`).

/**
 * Everything a BYOB scorer sees for one sample (`decorators.py` `ScorerInput`). `response` is the
 * model's text (`null` when the model call produced nothing); `target` is the dataset's ground truth,
 * usually a string but any JSON value (BYOB passes it through, and several scorers read numbers and
 * booleans their own way); `metadata` is the dataset row.
 *
 * Python values: an integral `number` is a Python `int` and any other `number` a `float`; wrap an
 * integral float in `pyFloat()` when the difference matters (`str(1.0)` is `"1.0"`, `str(1)` is `"1"`).
 * `metadata` left out is read as `{}`; `null` is Python `None`.
 */
export interface ScorerInput {
  readonly response: string | null;
  readonly target: unknown;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  /** `(prompt, endpointType) => response` for judge scorers. */
  readonly modelCallFn?: ((prompt: string, endpointType: string) => unknown) | null;
  /** The benchmark's extra configuration. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Multi-turn: the conversation so far. */
  readonly conversation?: readonly Readonly<Record<string, unknown>>[] | null;
  readonly turnIndex?: number | null;
}

/** A scorer's result: metric name → boolean or number (BYOB aggregates both). */
export type ScoreDict = Record<string, boolean | number>;

/** A BYOB scorer. */
export type ScorerFn = (sample: ScorerInput) => ScoreDict;
