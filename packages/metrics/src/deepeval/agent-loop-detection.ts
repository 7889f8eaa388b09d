// DeepEval's `AgentLoopDetectionMetric` (deepeval/metrics/agent_loop_detection): three rule checks over an
// agent's trace — repeated identical tool calls, consecutive LLM outputs that say the same thing, and a
// span that calls itself — weighted 0.40 / 0.35 / 0.25 into one score. No model.
import { pyFormatFixed } from "../python/round.js";
import { pyFloatRepr, pyStr } from "../python/repr.js";
import { pyLower, pySplit } from "../python/str.js";
import { ready } from "@evalkern/core-wasm";
import { BaseMetric, type Evaluation, type ScoredMetricOptions } from "./base-metric.js";
import type { LLMTestCase } from "./llm-test-case.js";
import type { MeasureContext } from "./metric-core.js";
import { LLMTestCaseParams } from "./params.js";
import { isPlainObject, pyHashKey } from "./python-compat.js";
import { expectOptions, fail, optionalBoolean } from "./validate.js";

export interface AgentLoopDetectionOptions extends ScoredMetricOptions {
  /** Identical tool calls that halve the repetition score; twice as many zero it. Default 3. */
  readonly repetitionThreshold?: number;
  /** Bigram Jaccard overlap of consecutive LLM outputs that counts as stagnation. Default 0.85. */
  readonly similarityThreshold?: number;
  readonly checkToolRepetition?: boolean;
  readonly checkReasoningStagnation?: boolean;
  readonly checkCallGraphCycles?: boolean;
}

type Span = Record<string, unknown>;
type Check = readonly [score: number, reason: string];

/** Stop words and agent boilerplate DeepEval drops before comparing outputs (they inflate the overlap). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "the a an is are was were i will now based on information provided to of in and that this with for it my next step " +
    "going so do be have has not but as or from at by about above below up its let"
  ).split(" "),
);

/** Outputs with fewer meaningful words than this are not compared (an overlap of a few words says nothing). */
const MIN_MEANINGFUL_WORDS = 20;

export const NO_TRACE_REASON = "No trace data found. This metric requires trace data (the test case's `trace`).";

/** `span.get(key, fallback)` of a Python dict. */
function get(span: Span, key: string, fallback: unknown): unknown {
  return Object.prototype.hasOwnProperty.call(span, key) ? span[key] : fallback;
}

/** The child spans (dicts) of a span; anything else in `children` is not a span. */
function children(span: Span): Span[] {
  const list = get(span, "children", []);
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}

/** Every span, depth first; an empty span (a falsy dict in Python) is skipped with its subtree. */
function allSpans(root: Span): Span[] {
  const spans: Span[] = [];
  const visit = (span: Span): void => {
    if (Object.keys(span).length === 0) return;
    spans.push(span);
    for (const child of children(span)) visit(child);
  };
  visit(root);
  return spans;
}

function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** DeepEval's call identity: the name and the sorted `(str(key), str(value))` pairs of the input. */
function callKey(span: Span): { key: string; name: unknown } {
  const name = get(span, "name", "");
  let input = get(span, "input", {});
  if (typeof input === "string") {
    try {
      input = JSON.parse(input) as unknown;
    } catch {
      // not JSON: the text itself is the argument, as in DeepEval
    }
  }
  const args = isPlainObject(input)
    ? Object.entries(input)
        .map(([k, v]) => [k, pyStr(v)] as const)
        .sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]))
    : [pyStr(input)];
  return { key: `${pyHashKey(name)}|${JSON.stringify(args)}`, name };
}

function bigrams(text: string): Set<string> {
  const words = pySplit(pyLower(text)).filter((w) => !STOP_WORDS.has(w) && Array.from(w).length > 2);
  const out = new Set<string>();
  if (words.length < MIN_MEANINGFUL_WORDS) return out;
  for (let i = 0; i + 1 < words.length; i++) out.add(JSON.stringify([words[i], words[i + 1]]));
  return out;
}

/**
 * Whether an agent went round in circles (DeepEval `AgentLoopDetectionMetric`), from the spans of
 * `testCase.trace` (`{ type, name, input, output, children }`, DeepEval's trace dict).
 *
 * When to use: agent runs recorded as traces; no model is needed (`measure()` works after `await ready()`
 * once — the lower-casing runs in the WebAssembly kernels; `aMeasure` loads them itself).
 *
 * Details (docs in README-deepeval.md, "Rule metrics"):
 * - tool repetition (weight 0.40), over spans of type `"tool"`: calls with the same name and the same
 *   `(str(key), str(value))` input pairs (a string input is parsed as JSON first) are counted; the most
 *   repeated call scores 0 at `2 × repetitionThreshold` calls or more, 0.5 at `repetitionThreshold` or more, else 1;
 * - reasoning stagnation (0.35), over spans of type `"llm"` in trace order: for each consecutive pair of string
 *   outputs with at least 20 words longer than two characters outside a stop list each, the Jaccard overlap of
 *   their word bigrams; the largest scores 0 above 0.95, 0.5 at `similarityThreshold` or above, else 1;
 * - call-graph cycles (0.25): 0 when a span's `type:name` appears again below itself, else 1.
 * Score = the weighted mean of the enabled checks (1 with none). The reason joins the reasons of the
 * checks below 1, or reads `"No loop patterns detected."`; `scoreBreakdown` has the three check scores.
 * Without a trace the score is 0 with a reason saying so. Requires `input` and `actualOutput`; threshold 0.5.
 *
 * @example
 * const search = { type: "tool", name: "search", input: { q: "x" } };
 * const metric = new AgentLoopDetectionMetric();
 * metric.measure(new LLMTestCase({ input: "q", actualOutput: "a",
 *   trace: { type: "agent", name: "bot", children: [search, search, search] } })); // 0.8: 0.4×0.5 + 0.35 + 0.25
 */
export class AgentLoopDetectionMetric extends BaseMetric {
  readonly repetitionThreshold: number;
  readonly similarityThreshold: number;
  readonly checkToolRepetition: boolean;
  readonly checkReasoningStagnation: boolean;
  readonly checkCallGraphCycles: boolean;

  constructor(options: AgentLoopDetectionOptions = {}) {
    const owner = "AgentLoopDetectionMetric";
    expectOptions(owner, options);
    super(options, { defaultThreshold: 0.5, requiresTrace: true });
    const repetition = options.repetitionThreshold ?? 3;
    if (typeof repetition !== "number" || !Number.isSafeInteger(repetition) || repetition < 1) {
      fail(owner, "repetitionThreshold", "a positive integer", repetition);
    }
    const similarity = options.similarityThreshold ?? 0.85;
    if (typeof similarity !== "number" || !(similarity >= 0 && similarity <= 1)) {
      fail(owner, "similarityThreshold", "a number from 0 to 1", similarity);
    }
    this.repetitionThreshold = repetition;
    this.similarityThreshold = similarity;
    this.checkToolRepetition = optionalBoolean(owner, "checkToolRepetition", options.checkToolRepetition, true);
    this.checkReasoningStagnation = optionalBoolean(owner, "checkReasoningStagnation", options.checkReasoningStagnation, true);
    this.checkCallGraphCycles = optionalBoolean(owner, "checkCallGraphCycles", options.checkCallGraphCycles, true);
  }

  override get name(): string {
    return "Agent Loop Detection";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT];
  }

  /** Python's `str.lower()` runs in the WebAssembly kernels: `aMeasure` loads them, `measure` needs `ready()` first. */
  protected override async evaluateAsync(testCase: LLMTestCase, context: MeasureContext): Promise<Evaluation> {
    await ready();
    return this.evaluateSync(testCase, context);
  }

  protected override evaluateSync(testCase: LLMTestCase, _context?: MeasureContext): Evaluation {
    const trace = testCase.trace;
    if (trace === null) return { score: 0, reason: NO_TRACE_REASON };
    const spans = Object.keys(trace).length === 0 ? [] : allSpans(trace as Span);
    const skipped = (what: string): Check => [1, `${what} check skipped.`];
    const [rep, repReason] = this.checkToolRepetition
      ? this.toolRepetition(spans.filter((s) => s.type === "tool"))
      : skipped("Tool repetition");
    const [stag, stagReason] = this.checkReasoningStagnation
      ? this.reasoningStagnation(spans.filter((s) => s.type === "llm"))
      : skipped("Reasoning stagnation");
    const [cycle, cycleReason] = this.checkCallGraphCycles ? callGraphCycles(trace as Span) : skipped("Call graph cycles");
    // The same additions in the same order as DeepEval, so the floats agree to the last bit.
    let weights = 0;
    let total = 0;
    const reasons: string[] = [];
    for (const [on, weight, score, reason] of [
      [this.checkToolRepetition, 0.4, rep, repReason],
      [this.checkReasoningStagnation, 0.35, stag, stagReason],
      [this.checkCallGraphCycles, 0.25, cycle, cycleReason],
    ] as const) {
      if (!on) continue;
      weights += weight;
      total += score * weight;
      if (score < 1 && reason !== "") reasons.push(reason);
    }
    const score = weights === 0 ? 1 : total / weights;
    const reason = score === 1 ? "No loop patterns detected." : reasons.join(" ") || "Loops detected but no explicit reason provided.";
    return {
      score,
      reason,
      scoreBreakdown: { tool_repetition: rep, reasoning_stagnation: stag, call_graph_cycles: cycle },
      verboseSteps: [
        `Tool Repetition Score: ${pyFloatRepr(rep)} (${repReason})`,
        `Reasoning Stagnation Score: ${pyFloatRepr(stag)} (${stagReason})`,
        `Call Graph Cycles Score: ${pyFloatRepr(cycle)} (${cycleReason})`,
      ],
    };
  }

  private toolRepetition(toolSpans: readonly Span[]): Check {
    if (toolSpans.length === 0) return [1, "No tool spans found."];
    const counts = new Map<string, { name: unknown; count: number }>();
    for (const span of toolSpans) {
      const { key, name } = callKey(span);
      const entry = counts.get(key);
      if (entry === undefined) counts.set(key, { name, count: 1 });
      else entry.count += 1;
    }
    // Python's max() keeps the first of equal counts: insertion order decides the name reported.
    let top = { name: "" as unknown, count: 0 };
    for (const entry of counts.values()) if (entry.count > top.count) top = entry;
    const message = `Tool '${pyStr(top.name)}' called ${top.count} times with identical arguments.`;
    if (top.count >= this.repetitionThreshold * 2) return [0, message];
    if (top.count >= this.repetitionThreshold) return [0.5, message];
    return [1, "Tool calls are within acceptable repetition limits."];
  }

  private reasoningStagnation(llmSpans: readonly Span[]): Check {
    if (llmSpans.length < 2) return [1, "Not enough LLM spans to check for reasoning stagnation."];
    let maxOverlap = 0;
    let pair = [-1, -1];
    for (let i = 0; i + 1 < llmSpans.length; i++) {
      const first = get(llmSpans[i]!, "output", "");
      const second = get(llmSpans[i + 1]!, "output", "");
      if (typeof first !== "string" || typeof second !== "string") continue;
      const a = bigrams(first);
      const b = bigrams(second);
      if (a.size === 0 || b.size === 0) continue;
      let shared = 0;
      for (const gram of a) if (b.has(gram)) shared += 1;
      const jaccard = shared / (a.size + b.size - shared);
      if (jaccard > maxOverlap) {
        maxOverlap = jaccard;
        pair = [i, i + 1];
      }
    }
    if (maxOverlap >= this.similarityThreshold) {
      if (maxOverlap > 0.95) return [0, `Identical reasoning outputs at steps ${pair[0]} and ${pair[1]}.`];
      return [0.5, `High reasoning overlap (${pyFormatFixed(maxOverlap, 2)}) at steps ${pair[0]} and ${pair[1]}.`];
    }
    return [1, "No reasoning stagnation."];
  }
}

/** A span whose `type:name` label appears again among its own descendants: a real recursive call. */
function callGraphCycles(root: Span): Check {
  if (Object.keys(root).length === 0) return [1, "No call graph cycles detected."];
  const label = (span: Span): string => `${pyStr(get(span, "type", "unknown"))}:${pyStr(get(span, "name", "unnamed"))}`;
  const ancestors: string[] = [];
  const visit = (span: Span): string[] | null => {
    const own = label(span);
    const seen = ancestors.indexOf(own);
    if (seen >= 0) return [...ancestors.slice(seen), own];
    ancestors.push(own);
    for (const child of children(span)) {
      const cycle = visit(child);
      if (cycle !== null) return cycle;
    }
    ancestors.pop();
    return null;
  };
  const cycle = visit(root);
  if (cycle === null) return [1, "No execution cycles detected."];
  return [0, `Cycle detected in execution path: ${cycle.join(" -> ")}.`];
}
