// DeepEval's ToolCorrectnessMetric: did the agent call the expected tools (with the expected inputs
// and outputs, in the expected order)? The tool-calling score is deterministic; the optional
// tool-selection score needs a judge and is plugged in from outside (`toolSelectionJudge`, or the
// judge package's subclass).
import { InvalidArgumentError } from "../errors.js";
import { rejectUnknownOptions } from "../options.js";
import { BaseMetric, type Evaluation, type ScoredMetricOptions } from "./base-metric.js";
import { InvalidEvaluationError } from "./errors.js";
import type { LLMTestCase } from "./llm-test-case.js";
import type { JudgeUsage, MeasureContext } from "./metric-core.js";
import { LLMTestCaseParams, ToolCallParams, isToolCallParam } from "./params.js";
import { describeValue, isPlainObject, pyEquals, pyFloatRepr, pyRepr } from "./python-compat.js";
import { formatToolCallsForPrompt, toToolCallList, type ToolCall, type ToolCallInit } from "./tool-call.js";

/** How tool calls are compared. */
export interface ToolCallingOptions {
  /** Besides name and type, also compare these. Default `[]`. */
  readonly evaluationParams?: readonly ToolCallParams[];
  /** Same tools, same count, same order, all compared fields equal: 1, else 0. Default false. */
  readonly shouldExactMatch?: boolean;
  /** Score the weighted longest common subsequence (order matters). Default false. */
  readonly shouldConsiderOrdering?: boolean;
}

/** The deterministic tool-calling score and DeepEval's text explaining it. */
export interface ToolCallingResult {
  readonly score: number;
  readonly reason: string;
}

function normalizeParams(value: unknown): readonly ToolCallParams[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(`'evaluationParams' must be an array of ToolCallParams, got ${describeValue(value)}`, {
      argument: "evaluationParams",
      expected: "array of 'input_parameters' | 'output'",
      actual: describeValue(value),
    });
  }
  value.forEach((param: unknown, index) => {
    if (!isToolCallParam(param)) {
      throw new InvalidArgumentError(`'evaluationParams[${index}]' must be a ToolCallParams value, got ${describeValue(param)}`, {
        argument: "evaluationParams",
        index,
        expected: "'input_parameters' | 'output'",
        actual: describeValue(param),
      });
    }
  });
  return Object.freeze([...(value as ToolCallParams[])]);
}

function booleanOption(argument: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError(`'${argument}' must be a boolean, got ${describeValue(value)}`, {
      argument,
      expected: "boolean",
      actual: describeValue(value),
    });
  }
  return value;
}

/**
 * Similarity of two input-parameter dicts (DeepEval `_compare_dicts`): 1 if equal; in exact mode 0
 * otherwise; else each key present on both sides adds `1/|union of keys|` when the values are equal,
 * or `similarity/|union|` when both values are dicts.
 *
 * Gotchas: DeepEval crashes when exactly one side is null; here null counts as `{}` (so null vs `{}`
 * is 1, and null vs `{a: 1}` is 0).
 */
export function compareInputParameters(
  expected: Readonly<Record<string, unknown>> | null,
  called: Readonly<Record<string, unknown>> | null,
  exact = false,
): number {
  const a = expected ?? {};
  const b = called ?? {};
  if (pyEquals(a, b)) return 1;
  if (exact) return 0;
  const totalKeys = new Set([...Object.keys(a), ...Object.keys(b)]).size;
  let matchScore = 0;
  for (const key of Object.keys(a)) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) continue;
    const left = a[key];
    const right = b[key];
    // Accumulating 1/n per key (not count/n) keeps DeepEval's floating-point result.
    if (pyEquals(left, right)) matchScore += 1 / totalKeys;
    else if (isPlainObject(left) && isPlainObject(right)) matchScore += compareInputParameters(left, right, exact) / totalKeys;
  }
  return matchScore;
}

/** Tool calls compare as the same tool when name and type agree. */
function sameTool(expected: ToolCall, called: ToolCall): boolean {
  return expected.name === called.name && expected.type === called.type;
}

class ToolCallingScorer {
  private readonly compareInputs: boolean;
  private readonly compareOutputs: boolean;

  constructor(
    private readonly expected: readonly ToolCall[],
    private readonly called: readonly ToolCall[],
    private readonly options: Required<ToolCallingOptions>,
  ) {
    this.compareInputs = options.evaluationParams.includes(ToolCallParams.INPUT_PARAMETERS);
    this.compareOutputs = options.evaluationParams.includes(ToolCallParams.OUTPUT);
  }

  /** The weight of matching `called` to `expected` when they are the same tool. */
  private matchWeight(expected: ToolCall, called: ToolCall): number {
    let weight = 1;
    if (this.compareInputs) {
      weight *= compareInputParameters(expected.inputParameters, called.inputParameters, this.options.shouldExactMatch);
    }
    if (this.compareOutputs && !pyEquals(expected.output, called.output)) weight = 0;
    return weight;
  }

  score(): number {
    if (this.options.shouldExactMatch) return this.exactMatchScore();
    if (this.options.shouldConsiderOrdering) return this.orderingScore(this.weightedLcs().weightedLength);
    return this.nonExactMatchScore();
  }

  exactMatchScore(): number {
    const { expected, called } = this;
    if (called.length !== expected.length) return 0;
    if (expected.length === 0) return 1;
    for (let i = 0; i < called.length; i++) {
      const c = called[i] as ToolCall;
      const e = expected[i] as ToolCall;
      if (!sameTool(e, c)) return 0;
      if (this.compareInputs && !pyEquals(c.inputParameters, e.inputParameters)) return 0;
      if (this.compareOutputs && !pyEquals(c.output, e.output)) return 0;
    }
    return 1;
  }

  /**
   * For each expected tool, the best-weighted called tool not matched yet (DeepEval keeps matched
   * calls in a set, so a call *equal* to a matched one — same name, inputs and output — counts as
   * matched too).
   */
  nonExactMatchScore(): number {
    const { expected, called } = this;
    let total = 0;
    const matched: ToolCall[] = [];
    for (const e of expected) {
      let best = 0;
      let bestCalled: ToolCall | undefined;
      for (const c of called) {
        if (matched.some((m) => m.equals(c))) continue;
        if (!sameTool(e, c)) continue;
        const weight = this.matchWeight(e, c);
        if (weight > best) {
          best = weight;
          bestCalled = c;
        }
      }
      if (best > 0 && bestCalled) {
        total += best;
        matched.push(bestCalled);
      }
    }
    if (expected.length === 0) return called.length === 0 ? 1 : 0;
    return total / expected.length;
  }

  /** DeepEval `_compute_weighted_lcs`: the DP table, then the backtrack that sums matched weights. */
  weightedLcs(): { lcs: ToolCall[]; weightedLength: number } {
    const { expected, called } = this;
    const m = expected.length;
    const n = called.length;
    const dp: Float64Array[] = Array.from({ length: m + 1 }, () => new Float64Array(n + 1));
    const at = (i: number, j: number): number => (dp[i] as Float64Array)[j] as number;
    for (let i = 1; i <= m; i++) {
      for (let j = 1; j <= n; j++) {
        const e = expected[i - 1] as ToolCall;
        const c = called[j - 1] as ToolCall;
        const row = dp[i] as Float64Array;
        if (!sameTool(e, c)) {
          row[j] = Math.max(at(i - 1, j), at(i, j - 1));
          continue;
        }
        const weight = this.matchWeight(e, c);
        row[j] = Math.max(at(i - 1, j), at(i, j - 1), weight > 0 ? at(i - 1, j - 1) + weight : 0);
      }
    }
    const lcs: ToolCall[] = [];
    let i = m;
    let j = n;
    let weightedLength = 0;
    while (i > 0 && j > 0) {
      if (at(i, j) === at(i - 1, j)) i -= 1;
      else if (at(i, j) === at(i, j - 1)) j -= 1;
      else {
        lcs.push(expected[i - 1] as ToolCall);
        weightedLength += at(i, j) - at(i - 1, j - 1);
        i -= 1;
        j -= 1;
      }
    }
    return { lcs: lcs.reverse(), weightedLength };
  }

  orderingScore(weightedLength: number): number {
    if (this.expected.length === 0) return this.called.length === 0 ? 1 : 0;
    return weightedLength / this.expected.length;
  }

  reason(): string {
    const calledNames = this.called.map((t) => t.name);
    const expectedNames = this.expected.map((t) => t.name);
    const expectedCalled = `expected ${pyRepr(expectedNames)}, called ${pyRepr(calledNames)}`;
    if (this.options.shouldExactMatch) {
      const verdict = this.exactMatchScore() ? "Exact match" : "Not an exact match";
      return `${verdict}: ${expectedCalled}. See details above.`;
    }
    if (this.options.shouldConsiderOrdering) {
      const { lcs, weightedLength } = this.weightedLcs();
      if (this.orderingScore(weightedLength) === 1) {
        return `Correct ordering: all expected tools ${pyRepr(expectedNames)} were called in the correct order.`;
      }
      // DeepEval lists Python sets here (arbitrary order); evalkern keeps the expected order.
      const calledSet = new Set(calledNames);
      const lcsSet = new Set(lcs.map((t) => t.name));
      const distinctExpected = [...new Set(expectedNames)];
      const missing = distinctExpected.filter((name) => !calledSet.has(name));
      const outOfOrder = distinctExpected.filter((name) => !lcsSet.has(name));
      const issues: string[] = [];
      if (missing.length > 0) issues.push(`missing tools ${pyRepr(missing)}`);
      if (outOfOrder.length > 0) issues.push(`out-of-order tools ${pyRepr(outOfOrder)}`);
      return `Incorrect tool usage: ${issues.join(" and ")}; ${expectedCalled}. See more details above.`;
    }
    if (this.nonExactMatchScore() === 1) {
      return `All expected tools ${pyRepr(expectedNames)} were called (order not considered).`;
    }
    // "Missing" here is DeepEval's set difference by full ToolCall equality (name, inputs, output),
    // whatever evaluationParams say; listed once each, in expected order.
    const missing: ToolCall[] = [];
    for (const e of this.expected) {
      if (this.called.some((c) => c.equals(e))) continue;
      if (missing.some((m) => m.equals(e))) continue;
      missing.push(e);
    }
    return `Incomplete tool usage: missing tools [${missing.map(String).join(", ")}]; ${expectedCalled}. See more details above.`;
  }
}

/**
 * The deterministic tool-calling score of DeepEval's ToolCorrectnessMetric, and its reason text.
 *
 * Details (E = expected, C = called; "same tool" = same name and type):
 * - `shouldExactMatch`: 1 if `|C| = |E|` and, position by position, same tool and (if selected)
 *   deep-equal input parameters and equal outputs; both empty → 1; else 0.
 * - `shouldConsiderOrdering`: weighted LCS of E and C, where a same-tool pair weighs 1, times the
 *   input-parameter similarity if selected, 0 if outputs are selected and differ; score =
 *   weighted length / |E|; both empty → 1; E empty → 0.
 * - default: each expected tool takes the best-weighted unmatched called tool; score = Σ / |E|
 *   (recall: extra calls are not penalised); both empty → 1; E empty → 0.
 * Strict mode is not applied here.
 *
 * @example
 * scoreToolCalling([new ToolCall({ name: "a" }), new ToolCall({ name: "b" })], [new ToolCall({ name: "a" })]);
 * // { score: 0.5, reason: "Incomplete tool usage: missing tools [ToolCall(...b...)]; expected ['a', 'b'], called ['a']. ..." }
 */
export function scoreToolCalling(
  expected: readonly (ToolCall | ToolCallInit)[],
  called: readonly (ToolCall | ToolCallInit)[],
  options: ToolCallingOptions = {},
): ToolCallingResult {
  const scorer = new ToolCallingScorer(
    toToolCallList("scoreToolCalling", "expected", expected) ?? [],
    toToolCallList("scoreToolCalling", "called", called) ?? [],
    {
      evaluationParams: normalizeParams(options.evaluationParams),
      shouldExactMatch: booleanOption("shouldExactMatch", options.shouldExactMatch),
      shouldConsiderOrdering: booleanOption("shouldConsiderOrdering", options.shouldConsiderOrdering),
    },
  );
  return { score: scorer.score(), reason: scorer.reason() };
}

/** What a tool-selection judge is asked (DeepEval's `get_tool_selection_score` prompt inputs). */
export interface ToolSelectionRequest {
  readonly userInput: string;
  readonly toolsCalled: readonly ToolCall[];
  readonly availableTools: readonly ToolCall[];
  /** The two lists as DeepEval renders them for the judge (`print_tools_called`). */
  readonly toolsCalledText: string;
  readonly availableToolsText: string;
  readonly signal: AbortSignal | undefined;
}

/** A judge's tool-selection verdict: a score in [0, 1] (anchored at 0, .25, .5, .75, 1) and why. */
export interface ToolSelectionResult {
  readonly score: number;
  readonly reason: string;
  /** The call's usage; absent means unknown (the metric's cost becomes null). */
  readonly usage?: JudgeUsage;
}

/** Rates whether the right tools were chosen among the available ones. */
export type ToolSelectionJudge = (request: ToolSelectionRequest) => Promise<ToolSelectionResult>;

/** Options of `ToolCorrectnessMetric`. */
export interface ToolCorrectnessOptions extends ScoredMetricOptions, ToolCallingOptions {
  /**
   * The tools the agent could choose from. When given (non-empty), a judge also rates the selection
   * and the score is `min(tool calling, tool selection)`; needs `toolSelectionJudge` (or a subclass
   * overriding `scoreToolSelection`) and `aMeasure`.
   */
  readonly availableTools?: readonly (ToolCall | ToolCallInit)[] | null;
  readonly toolSelectionJudge?: ToolSelectionJudge;
}

/** DeepEval's selection verdict when no available tools are given. */
export const NO_AVAILABLE_TOOLS_REASON = "No available tools were provided to assess tool selection criteria";

const TOOL_CORRECTNESS_OPTION_KEYS = {
  includeReason: true,
  asyncMode: true,
  verboseMode: true,
  verbosePrinter: true,
  evaluationModel: true,
  threshold: true,
  strictMode: true,
  evaluationParams: true,
  shouldExactMatch: true,
  shouldConsiderOrdering: true,
  availableTools: true,
  toolSelectionJudge: true,
} as const satisfies Record<keyof ToolCorrectnessOptions, true>;

function formatToolList(label: string, tools: readonly ToolCall[]): string {
  const body = tools
    .map((tool) =>
      String(tool)
        .split("\n")
        .map((line) => `    ${line}`)
        .join("\n"),
    )
    .join(",\n");
  return `${label}:\n[\n${body}\n]`;
}

/**
 * DeepEval's `ToolCorrectnessMetric`: the tool-calling score of `scoreToolCalling`, optionally
 * capped by a judge's tool-selection score.
 *
 * When to use: agent tests with `toolsCalled` and `expectedTools` on the test case (required, with
 * `input`). Deterministic unless `availableTools` is given.
 *
 * Details: threshold 0.5 by default; strict mode sets it to 1 and turns any score below 1 into 0.
 * The reason is DeepEval's two-part text: `"[\n\t Tool Calling Reason: …\n\t Tool Selection Reason:
 * …\n]\n"`. Without available tools (or for a multimodal test case) the selection score is 1 with
 * the reason {@link NO_AVAILABLE_TOOLS_REASON}. Cost is 0 without a judge.
 *
 * Gotchas: the default mode is recall over expected tools — extra calls are not penalised. Two
 * identical calls (same name, inputs and output) can satisfy only one expected tool (DeepEval's
 * set semantics). With `availableTools`, `measure()` throws `SyncMeasureUnsupportedError`.
 *
 * @example
 * const metric = new ToolCorrectnessMetric({ shouldConsiderOrdering: true });
 * metric.measure(new LLMTestCase({
 *   input: "Plan a trip",
 *   toolsCalled: [{ name: "flights" }, { name: "hotels" }],
 *   expectedTools: [{ name: "hotels" }, { name: "flights" }],
 * })); // 0.5
 */
export class ToolCorrectnessMetric extends BaseMetric {
  readonly evaluationParams: readonly ToolCallParams[];
  readonly shouldExactMatch: boolean;
  readonly shouldConsiderOrdering: boolean;
  readonly availableTools: readonly ToolCall[] | null;
  private readonly toolSelectionJudge: ToolSelectionJudge | null;

  constructor(options: ToolCorrectnessOptions = {}) {
    // a subclass may accept more options: only a direct construction knows the full list
    if (new.target === ToolCorrectnessMetric && typeof options === "object" && options !== null) {
      rejectUnknownOptions(options, TOOL_CORRECTNESS_OPTION_KEYS, "ToolCorrectnessMetric");
    }
    super(options, { defaultThreshold: 0.5, defaultIncludeReason: true });
    this.evaluationParams = normalizeParams(options.evaluationParams);
    this.shouldExactMatch = booleanOption("shouldExactMatch", options.shouldExactMatch);
    this.shouldConsiderOrdering = booleanOption("shouldConsiderOrdering", options.shouldConsiderOrdering);
    this.availableTools = toToolCallList("ToolCorrectnessMetric", "availableTools", options.availableTools);
    const judge = options.toolSelectionJudge ?? null;
    if (judge !== null && typeof judge !== "function") {
      throw new InvalidArgumentError("'toolSelectionJudge' must be a function", {
        argument: "toolSelectionJudge",
        expected: "function",
        actual: describeValue(judge),
      });
    }
    this.toolSelectionJudge = judge;
    const overridden = this.scoreToolSelection !== ToolCorrectnessMetric.prototype.scoreToolSelection;
    if (this.usesToolSelection && judge === null && !overridden) {
      throw new InvalidArgumentError(
        "ToolCorrectnessMetric: 'availableTools' needs a 'toolSelectionJudge' to rate the selection " +
          "(or use @evalkern/judge's ToolCorrectnessMetric)",
        { argument: "toolSelectionJudge", expected: "function", actual: "undefined" },
      );
    }
  }

  override get name(): string {
    return "Tool Correctness";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.TOOLS_CALLED, LLMTestCaseParams.EXPECTED_TOOLS];
  }

  /** Available tools were given, so a judge rates the selection (except for multimodal cases). */
  get usesToolSelection(): boolean {
    return this.availableTools !== null && this.availableTools.length > 0;
  }

  override get supportsSyncMeasure(): boolean {
    return !this.usesToolSelection;
  }

  /**
   * Ask the judge to rate the tool selection. The judge package overrides this with its model call;
   * the default calls the `toolSelectionJudge` option.
   */
  protected scoreToolSelection(request: ToolSelectionRequest): Promise<ToolSelectionResult> {
    if (this.toolSelectionJudge === null) {
      return Promise.reject(new InvalidArgumentError("ToolCorrectnessMetric: no toolSelectionJudge", { argument: "toolSelectionJudge" }));
    }
    return this.toolSelectionJudge(request);
  }

  private toolCalling(testCase: LLMTestCase): ToolCallingResult {
    const scorer = new ToolCallingScorer(testCase.expectedTools ?? [], testCase.toolsCalled ?? [], {
      evaluationParams: this.evaluationParams,
      shouldExactMatch: this.shouldExactMatch,
      shouldConsiderOrdering: this.shouldConsiderOrdering,
    });
    return { score: scorer.score(), reason: scorer.reason() };
  }

  protected override evaluateSync(testCase: LLMTestCase): Evaluation {
    return this.combine(testCase, this.toolCalling(testCase), { score: 1, reason: NO_AVAILABLE_TOOLS_REASON });
  }

  protected override async evaluateAsync(testCase: LLMTestCase, context: MeasureContext): Promise<Evaluation> {
    const calling = this.toolCalling(testCase);
    let selection: ToolSelectionResult = { score: 1, reason: NO_AVAILABLE_TOOLS_REASON };
    if (this.usesToolSelection && !testCase.multimodal) {
      const toolsCalled = testCase.toolsCalled ?? [];
      const availableTools = this.availableTools ?? [];
      selection = await this.scoreToolSelection({
        userInput: testCase.input,
        toolsCalled,
        availableTools,
        toolsCalledText: formatToolCallsForPrompt(toolsCalled),
        availableToolsText: formatToolCallsForPrompt(availableTools),
        signal: context.signal,
      });
      this.accrueUsage(selection.usage);
      const score: unknown = selection?.score;
      if (typeof score !== "number" || !Number.isFinite(score) || score < 0 || score > 1) {
        throw new InvalidEvaluationError(this.name, `the tool-selection score must be a number in [0, 1], got ${describeValue(score)}`);
      }
      if (typeof selection.reason !== "string") {
        throw new InvalidEvaluationError(this.name, `the tool-selection reason must be a string, got ${describeValue(selection.reason)}`);
      }
    }
    return this.combine(testCase, calling, selection);
  }

  private combine(testCase: LLMTestCase, calling: ToolCallingResult, selection: ToolSelectionResult): Evaluation {
    const availableTools = this.availableTools ?? [];
    return {
      // DeepEval applies strict mode to the tool-calling score, then again to the minimum.
      score: Math.min(this.applyStrictMode(calling.score), selection.score),
      reason: `[\n\t Tool Calling Reason: ${calling.reason}\n\t Tool Selection Reason: ${selection.reason}\n]\n`,
      verboseSteps: [
        formatToolList("Expected Tools", testCase.expectedTools ?? []),
        formatToolList("Tools Called", testCase.toolsCalled ?? []),
        availableTools.length > 0 ? formatToolList("Available Tools", availableTools) : "Available Tools: []",
        `Tool Selection Score: ${pyFloatRepr(selection.score)}`,
        `Tool Selection Reason: ${selection.reason}`,
      ],
    };
  }

  protected override finalVerboseStep(): string {
    return `Final Score: ${this.score === null ? "None" : pyFloatRepr(this.score)}\nFinal Reason: ${this.reason ?? "None"}`;
  }
}
