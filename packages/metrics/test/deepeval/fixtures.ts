// Small metrics built on the DeepEval base classes, shared by the deepeval test files.
import {
  BaseArenaMetric,
  BaseConversationalMetric,
  BaseMetric,
  LLMTestCaseParams,
  type MultiTurnParams,
  type ArenaEvaluation,
  type ArenaTestCase,
  type ConversationalTestCase,
  type Evaluation,
  type JudgeUsage,
  type LLMTestCase,
  type MeasureContext,
  type MetricTraits,
  type ScoredMetricOptions,
} from "../../src/deepeval/index.js";

/** A deterministic metric whose score is read from `testCase.metadata.score`. */
export class MetadataScoreMetric extends BaseMetric {
  constructor(options: ScoredMetricOptions = {}, traits: MetricTraits = {}) {
    super(options, traits);
  }

  override get name(): string {
    return "Metadata Score";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.METADATA];
  }

  protected override evaluateSync(testCase: LLMTestCase): Evaluation {
    const score = testCase.metadata?.score as number | null;
    return {
      score,
      reason: () => `The score is ${this.score} because the metadata says so.`,
      verboseSteps: [`Metadata:\n${JSON.stringify(testCase.metadata)}`],
    };
  }
}

/** What a scripted judge call returns. */
export interface ScriptedCall {
  readonly verdict: number;
  readonly usage?: JudgeUsage;
  readonly delayMs?: number;
}

/**
 * A judge-like metric: async only, one "call" per statement in `actualOutput` (split on "."),
 * fanned out with `gather`, then a reason "call". Scores the mean verdict.
 */
export class ScriptedJudgeMetric extends BaseMetric {
  inFlight = 0;
  maxInFlight = 0;
  reasonCalls = 0;

  constructor(
    private readonly script: (statement: string) => ScriptedCall,
    options: ScoredMetricOptions = {},
    traits: MetricTraits = {},
    private readonly priced = true,
  ) {
    super({ evaluationModel: "scripted-judge", ...options }, traits);
  }

  override get name(): string {
    return "Scripted Judge";
  }

  protected override get tracksCost(): boolean {
    return this.priced;
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  private async call(statement: string, signal: AbortSignal | undefined): Promise<number> {
    const { verdict, usage, delayMs = 0 } = this.script(statement);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      signal?.throwIfAborted();
      this.accrueUsage(usage);
      return verdict;
    } finally {
      this.inFlight -= 1;
    }
  }

  protected override async evaluateAsync(testCase: LLMTestCase, context: MeasureContext): Promise<Evaluation> {
    const statements = (testCase.actualOutput ?? "")
      .split(".")
      .map((s) => s.trim())
      .filter(Boolean);
    const verdicts = await this.gather(statements.map((s) => () => this.call(s, context.signal)));
    const score = verdicts.length === 0 ? 1 : verdicts.reduce((a, b) => a + b, 0) / verdicts.length;
    return {
      score,
      reason: async () => {
        this.reasonCalls += 1;
        this.accrueUsage({ costUsd: 0.001, inputTokens: 10, outputTokens: 5 });
        return `The score is ${this.score?.toFixed(2)} because ${verdicts.length} statements were judged.`;
      },
      verboseSteps: [`Verdicts:\n${JSON.stringify(verdicts)}`],
    };
  }
}

/** A conversational metric: the share of assistant turns that end with "!". */
export class ExclaimMetric extends BaseConversationalMetric {
  constructor(
    options: ScoredMetricOptions = {},
    private readonly needs: readonly MultiTurnParams[] = [],
    private readonly needsRole = false,
  ) {
    super(options);
  }

  override get name(): string {
    return "Exclaim";
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return this.needs;
  }

  protected override get requiresChatbotRole(): boolean {
    return this.needsRole;
  }

  protected override evaluateSync(testCase: ConversationalTestCase): Evaluation {
    const assistant = testCase.turns.filter((t) => t.role === "assistant");
    const score = assistant.length === 0 ? 1 : assistant.filter((t) => t.content.endsWith("!")).length / assistant.length;
    return { score, reason: `${assistant.length} assistant turns` };
  }
}

/** An arena metric: the longest actual output wins (or a scripted name). */
export class LongestAnswerArena extends BaseArenaMetric {
  constructor(private readonly forcedWinner?: string) {
    super({});
  }

  override get name(): string {
    return "Longest Answer";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  protected override evaluateSync(testCase: ArenaTestCase): ArenaEvaluation {
    let best = testCase.contestants[0];
    for (const c of testCase.contestants) {
      if ((c.testCase.actualOutput ?? "").length > (best?.testCase.actualOutput ?? "").length) best = c;
    }
    return { winner: this.forcedWinner ?? best?.name ?? "", reason: `${best?.name} wrote the most` };
  }
}

/** Collects what a verbose printer is given. */
export function capturePrinter(): { printed: { name: string; logs: string }[]; printer: (name: string, logs: string) => void } {
  const printed: { name: string; logs: string }[] = [];
  return { printed, printer: (name, logs) => printed.push({ name, logs }) };
}
