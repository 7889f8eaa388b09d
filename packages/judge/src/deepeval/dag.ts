// DeepEval's DAG metric (docs/spec/judges.md §3.2): a decision tree whose inner nodes are small judge calls
// (tasks and judgements) and whose leaves are fixed scores or delegated metrics.
import {
  type BaseMetric,
  isLLMTestCaseParam,
  LLMTestCaseParams,
  MetricCore,
  MultiTurnParams,
  type Evaluation,
  type JudgeUsage,
  type LLMTestCase,
  type MeasureContext,
  type MeasureOptions,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import type { JudgeModel, JudgeSchema } from "../model.js";
import { JudgeMetricConfigError } from "./errors.js";
import { GEval } from "./g-eval.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, renderParams } from "./render.js";
import { judgeSchema } from "./schema.js";

const NODE_MARKER = Symbol.for("evalkern.judge.dag.node");

/** What a TaskNode produced: text, or a list of items. */
export type TaskOutput = string | readonly string[];

/** A test-case field a node shows the judge: single-turn nodes take `LLMTestCaseParams`, conversational ones `MultiTurnParams`. */
export type DAGParam = LLMTestCaseParams | MultiTurnParams;

/**
 * Which kind of test case a node judges. The conversational node classes (`ConversationalTaskNode`...,
 * in conversational-dag.ts) are these same classes built with the multi-turn flavour, so both DAG
 * metrics share one graph and one runner.
 */
export interface NodeFlavor {
  readonly multiturn: boolean;
  /** Class-name prefix in messages and verbose logs ("" or "Conversational"). */
  readonly prefix: string;
  readonly isParam: (value: unknown) => value is DAGParam;
  readonly paramsType: string;
  /** Whether a VerdictNode may delegate to this metric (a G-Eval or a metric of the same kind). */
  readonly isChildMetric: (value: unknown) => boolean;
}

export const SINGLE_TURN: NodeFlavor = Object.freeze({
  multiturn: false,
  prefix: "",
  isParam: isLLMTestCaseParam,
  paramsType: "LLMTestCaseParams",
  isChildMetric: (child: unknown) => child instanceof GEval || (MetricCore.isMetric(child) && child.kind === "single-turn"),
});

/** A turn window: the first and last turn index (inclusive) a conversational node shows. */
export type TurnWindowRange = readonly [number, number];

/** A node that runs a judge call (everything but a VerdictNode). */
export type DAGInnerNode = TaskNode | BinaryJudgementNode | NonBinaryJudgementNode;
export type DAGNode = DAGInnerNode | VerdictNode;
/** What a VerdictNode may delegate to: more of the graph, a G-Eval, or any single-turn metric. */
export type VerdictChild = DAGInnerNode | GEval | BaseMetric;

function isNode(value: unknown): value is DAGNode {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[NODE_MARKER] === true;
}

function checkParams(value: unknown, owner: string, flavor: NodeFlavor): readonly DAGParam[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every(flavor.isParam)) {
    throw new JudgeMetricConfigError("evaluationParams", `${owner}: 'evaluationParams' must be a list of ${flavor.paramsType}`);
  }
  return Object.freeze([...value]);
}

function checkTurnWindow(value: unknown, owner: string, flavor: NodeFlavor): TurnWindowRange | null {
  if (value === undefined || value === null) return null;
  if (!flavor.multiturn) throw new JudgeMetricConfigError("turnWindow", `${owner}: 'turnWindow' is only for conversational nodes`);
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => Number.isInteger(v))) {
    throw new JudgeMetricConfigError("turnWindow", `${owner}: 'turnWindow' must be two integers [start, end]`);
  }
  return Object.freeze([value[0] as number, value[1] as number]) as TurnWindowRange;
}

function checkText(value: unknown, argument: string, owner: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new JudgeMetricConfigError(argument, `${owner}: '${argument}' must be a non-blank string`);
  }
  return value;
}

function checkLabel(value: unknown, owner: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new JudgeMetricConfigError("label", `${owner}: 'label' must be a string`);
  return value;
}

// ----- nodes -----

export interface TaskNodeInit {
  /** What the judge should do with the node's input ("Extract the dates mentioned"). */
  readonly instructions: string;
  /** The name children see the output under. */
  readonly outputLabel: string;
  readonly children: readonly DAGInnerNode[];
  /** Test-case fields shown to the judge (required unless the node has a TaskNode parent). */
  readonly evaluationParams?: readonly LLMTestCaseParams[] | null;
  readonly label?: string | null;
}

/** What a TaskNode, BinaryJudgementNode or NonBinaryJudgementNode is built from, in either flavour. */
interface AnyInit {
  readonly evaluationParams?: readonly DAGParam[] | null;
  readonly turnWindow?: TurnWindowRange | null;
  readonly label?: string | null;
}

/**
 * A step that transforms the test case (or its parents' outputs) into text for its children: one judge
 * call returning `{output: string | string[]}`, exposed to children as `"<outputLabel>:\n<output>"`.
 */
export class TaskNode {
  readonly [NODE_MARKER] = true;
  readonly kind = "task" as const;
  readonly multiturn: boolean;
  readonly instructions: string;
  readonly outputLabel: string;
  readonly children: readonly DAGInnerNode[];
  readonly evaluationParams: readonly DAGParam[] | null;
  /** Conversational nodes: the turns shown (inclusive indices); null = the whole conversation. */
  readonly turnWindow: TurnWindowRange | null;
  readonly label: string | null;

  constructor(init: TaskNodeInit, flavor: NodeFlavor = SINGLE_TURN) {
    const owner = `${flavor.prefix}TaskNode`;
    this.multiturn = flavor.multiturn;
    this.instructions = checkText(init?.instructions, "instructions", owner);
    this.outputLabel = checkText(init.outputLabel, "outputLabel", owner);
    if (!Array.isArray(init.children)) throw new JudgeMetricConfigError("children", `${owner}: 'children' must be a list of nodes`);
    for (const child of init.children) {
      if (!isNode(child)) throw new JudgeMetricConfigError("children", `${owner}: every child must be a DAG node`);
      if (child.kind === "verdict") throw new JudgeMetricConfigError("children", `${owner}: a ${owner} must not have a VerdictNode child`);
    }
    this.children = Object.freeze([...init.children]);
    this.evaluationParams = checkParams(init.evaluationParams, owner, flavor);
    this.turnWindow = checkTurnWindow((init as AnyInit).turnWindow, owner, flavor);
    this.label = checkLabel(init.label, owner);
    Object.freeze(this);
  }
}

export interface VerdictNodeInit {
  /** The parent judgement's verdict this branch is taken for: a boolean (binary) or an option (non-binary). */
  readonly verdict: boolean | string;
  /** Leaf score, an integer 0..10 (the metric's score is score / 10). */
  readonly score?: number | null;
  /** Or delegate: more nodes, a G-Eval, or any single-turn metric. */
  readonly child?: VerdictChild | null;
}

/** A branch of a judgement: either a fixed score (0..10) or a child to continue with. */
export class VerdictNode {
  readonly [NODE_MARKER] = true;
  readonly kind = "verdict" as const;
  readonly multiturn: boolean;
  readonly verdict: boolean | string;
  readonly score: number | null;
  readonly child: VerdictChild | null;

  constructor(init: VerdictNodeInit, flavor: NodeFlavor = SINGLE_TURN) {
    this.multiturn = flavor.multiturn;
    const verdict = init?.verdict;
    if (typeof verdict !== "boolean" && typeof verdict !== "string") {
      throw new JudgeMetricConfigError("verdict", "VerdictNode: 'verdict' must be a boolean or a string");
    }
    this.verdict = verdict;
    const score = init.score ?? null;
    const child = init.child ?? null;
    if ((score === null) === (child === null)) {
      throw new JudgeMetricConfigError("score", "VerdictNode: give exactly one of 'score' or 'child'");
    }
    if (score !== null && (!Number.isInteger(score) || score < 0 || score > 10)) {
      throw new JudgeMetricConfigError("score", "VerdictNode: 'score' must be an integer between 0 and 10");
    }
    if (child !== null && !flavor.isChildMetric(child) && !(isNode(child as unknown) && (child as DAGNode).kind !== "verdict")) {
      const metric = flavor.multiturn ? "a ConversationalGEval or a conversational metric" : "a GEval or a single-turn metric";
      throw new JudgeMetricConfigError("child", `${flavor.prefix}VerdictNode: 'child' must be a Task/Judgement node, ${metric}`);
    }
    this.score = score;
    this.child = child;
    Object.freeze(this);
  }
}

export interface BinaryJudgementNodeInit {
  /** A yes/no question about the node's input. */
  readonly criteria: string;
  /** Exactly two VerdictNodes, with verdicts `true` and `false`. */
  readonly children: readonly VerdictNode[];
  readonly evaluationParams?: readonly LLMTestCaseParams[] | null;
  readonly label?: string | null;
}

const binaryVerdictSchema = judgeSchema(
  "binary_verdict",
  z.object({
    verdict: z.preprocess((v) => {
      if (typeof v !== "string") return v;
      const word = v.trim().toLowerCase();
      return word === "true" || word === "yes" ? true : word === "false" || word === "no" ? false : v;
    }, z.boolean()),
    reason: z.string(),
  }),
);

/** A true/false judgement; the matching VerdictNode child is taken. */
export class BinaryJudgementNode {
  readonly [NODE_MARKER] = true;
  readonly kind = "binary" as const;
  readonly multiturn: boolean;
  readonly criteria: string;
  readonly children: readonly [VerdictNode, VerdictNode];
  readonly evaluationParams: readonly DAGParam[] | null;
  readonly turnWindow: TurnWindowRange | null;
  readonly label: string | null;

  constructor(init: BinaryJudgementNodeInit, flavor: NodeFlavor = SINGLE_TURN) {
    const owner = `${flavor.prefix}BinaryJudgementNode`;
    this.multiturn = flavor.multiturn;
    this.criteria = checkText(init?.criteria, "criteria", owner);
    const children = init.children;
    if (!Array.isArray(children) || children.length !== 2) {
      throw new JudgeMetricConfigError("children", `${owner}: must have exactly 2 children`);
    }
    if (!children.every((c) => isNode(c) && c.kind === "verdict" && typeof c.verdict === "boolean")) {
      throw new JudgeMetricConfigError("children", `${owner}: children must be VerdictNodes with boolean verdicts`);
    }
    if (children[0].verdict === children[1].verdict) {
      throw new JudgeMetricConfigError("children", `${owner}: must have one true and one false VerdictNode child`);
    }
    this.children = Object.freeze([children[0], children[1]]) as readonly [VerdictNode, VerdictNode];
    this.evaluationParams = checkParams(init.evaluationParams, owner, flavor);
    this.turnWindow = checkTurnWindow((init as AnyInit).turnWindow, owner, flavor);
    this.label = checkLabel(init.label, owner);
    Object.freeze(this);
  }
}

export interface NonBinaryJudgementNodeInit {
  /** A question whose answer is one of the children's verdict strings. */
  readonly criteria: string;
  /** One or more VerdictNodes with distinct string verdicts (the allowed answers). */
  readonly children: readonly VerdictNode[];
  readonly evaluationParams?: readonly LLMTestCaseParams[] | null;
  readonly label?: string | null;
}

/** A multiple-choice judgement; the judge must answer with one of the children's verdicts. */
export class NonBinaryJudgementNode {
  readonly [NODE_MARKER] = true;
  readonly kind = "non-binary" as const;
  readonly criteria: string;
  readonly children: readonly VerdictNode[];
  readonly options: readonly string[];
  readonly multiturn: boolean;
  readonly evaluationParams: readonly DAGParam[] | null;
  readonly turnWindow: TurnWindowRange | null;
  readonly label: string | null;
  /** `{verdict: <one of options>, reason: string}`; the verdict is matched exactly, then ignoring case and spaces. */
  readonly schema: JudgeSchema<{ verdict: string; reason: string }>;

  constructor(init: NonBinaryJudgementNodeInit, flavor: NodeFlavor = SINGLE_TURN) {
    const owner = `${flavor.prefix}NonBinaryJudgementNode`;
    this.multiturn = flavor.multiturn;
    this.criteria = checkText(init?.criteria, "criteria", owner);
    const children = init.children;
    if (!Array.isArray(children) || children.length === 0) {
      throw new JudgeMetricConfigError("children", `${owner}: must have at least one child`);
    }
    const options: string[] = [];
    for (const child of children) {
      if (!isNode(child) || child.kind !== "verdict" || typeof child.verdict !== "string") {
        throw new JudgeMetricConfigError("children", `${owner}: children must be VerdictNodes with string verdicts`);
      }
      if (options.includes(child.verdict)) {
        throw new JudgeMetricConfigError("children", `${owner}: duplicate verdict ${JSON.stringify(child.verdict)}`);
      }
      options.push(child.verdict);
    }
    this.children = Object.freeze([...children]);
    this.options = Object.freeze(options);
    const lowered = new Map(options.map((o) => [o.trim().toLowerCase(), o]));
    this.schema = judgeSchema(
      "non_binary_verdict",
      z.object({
        verdict: z.preprocess(
          (v) => (typeof v === "string" && !options.includes(v) ? (lowered.get(v.trim().toLowerCase()) ?? v) : v),
          z.enum(options as [string, ...string[]]),
        ),
        reason: z.string(),
      }),
    );
    this.evaluationParams = checkParams(init.evaluationParams, owner, flavor);
    this.turnWindow = checkTurnWindow((init as AnyInit).turnWindow, owner, flavor);
    this.label = checkLabel(init.label, owner);
    Object.freeze(this);
  }
}

// ----- graph -----

function edgesOf(node: DAGNode): DAGNode[] {
  if (node.kind === "verdict") return isNode(node.child) ? [node.child] : [];
  return [...node.children];
}

const isJudgement = (node: DAGNode | undefined): node is BinaryJudgementNode | NonBinaryJudgementNode =>
  node !== undefined && (node.kind === "binary" || node.kind === "non-binary");

/**
 * The validated graph of a `DAGMetric`: its roots, each node's indegree and parents.
 *
 * Details (DeepEval `DeepAcyclicGraph`): more than one root is allowed only when no root is a
 * judgement; a root must not be reachable from another root; cycles are rejected; a TaskNode needs
 * `evaluationParams` or a parent. A node runs once all its incoming edges have arrived; VerdictNode
 * siblings of one judgement that lead to the same node count as one edge (only one of them can fire).
 */
export class DeepAcyclicGraph {
  readonly rootNodes: readonly DAGNode[];
  /** True when the graph is made of conversational nodes (for `ConversationalDAGMetric`). */
  readonly multiturn: boolean;
  readonly indegree: ReadonlyMap<DAGNode, number>;
  readonly parents: ReadonlyMap<DAGNode, readonly DAGNode[]>;

  constructor(rootNodes: readonly DAGNode[]) {
    if (!Array.isArray(rootNodes) || rootNodes.length === 0 || !rootNodes.every(isNode)) {
      throw new JudgeMetricConfigError("rootNodes", "DeepAcyclicGraph: 'rootNodes' must be a non-empty list of DAG nodes");
    }
    if (rootNodes.length > 1 && rootNodes.some((n) => isJudgement(n))) {
      throw new JudgeMetricConfigError(
        "rootNodes",
        "DeepAcyclicGraph: you cannot provide more than one root node when a BinaryJudgementNode or NonBinaryJudgementNode is a root",
      );
    }
    this.rootNodes = Object.freeze([...rootNodes]);
    this.multiturn = rootNodes[0]!.multiturn;
    const indegree = new Map<DAGNode, number>();
    const parents = new Map<DAGNode, DAGNode[]>();
    const visited = new Set<DAGNode>();
    const onStack = new Set<DAGNode>();
    const visit = (node: DAGNode): void => {
      if (onStack.has(node)) throw new JudgeMetricConfigError("rootNodes", "DeepAcyclicGraph: cycle detected");
      if (visited.has(node)) return;
      if (node.multiturn !== this.multiturn) {
        throw new JudgeMetricConfigError("rootNodes", "DeepAcyclicGraph: you cannot mix conversational and single-turn nodes");
      }
      visited.add(node);
      onStack.add(node);
      if (!indegree.has(node)) indegree.set(node, 0);
      for (const child of edgesOf(node)) {
        indegree.set(child, (indegree.get(child) ?? 0) + 1);
        const list = parents.get(child) ?? [];
        list.push(node);
        parents.set(child, list);
        visit(child);
      }
      onStack.delete(node);
    };
    for (const root of this.rootNodes) visit(root);

    // Verdict siblings of one judgement that feed the same node deliver at most one arrival.
    for (const [node, nodeParents] of parents) {
      const exclusive = new Map<DAGNode, number>();
      for (const parent of nodeParents) {
        if (parent.kind !== "verdict" || this.rootNodes.includes(parent)) continue;
        const owners = parents.get(parent) ?? [];
        const owner = owners[0];
        if (owners.length !== 1 || !isJudgement(owner)) continue;
        exclusive.set(owner, (exclusive.get(owner) ?? 0) + 1);
      }
      for (const count of exclusive.values()) if (count > 1) indegree.set(node, (indegree.get(node) ?? 0) - (count - 1));
    }
    for (const root of this.rootNodes) {
      if ((indegree.get(root) ?? 0) > 0) {
        throw new JudgeMetricConfigError(
          "rootNodes",
          "DeepAcyclicGraph: you cannot declare a node as a root node when it is also reachable from another root node",
        );
      }
    }
    for (const node of visited) {
      if (node.kind === "task" && node.evaluationParams === null && !(parents.get(node) ?? []).some((p) => p.kind === "task")) {
        throw new JudgeMetricConfigError(
          "rootNodes",
          "DeepAcyclicGraph: a TaskNode must have either 'evaluationParams' or a TaskNode parent",
        );
      }
    }
    this.indegree = indegree;
    this.parents = new Map([...parents].map(([k, v]) => [k, Object.freeze(v)]));
  }

  /** Every node, in discovery order. */
  get nodes(): DAGNode[] {
    return [...this.indegree.keys()];
  }

  /** The union of the single-turn nodes' `evaluationParams`, in DeepEval's parameter order. */
  get evaluationParams(): readonly LLMTestCaseParams[] {
    return this.multiturn ? [] : Object.values(LLMTestCaseParams).filter((p) => this.usedParams.has(p));
  }

  /** The union of the conversational nodes' `evaluationParams`, in DeepEval's parameter order. */
  get multiTurnEvaluationParams(): readonly MultiTurnParams[] {
    return this.multiturn ? Object.values(MultiTurnParams).filter((p) => this.usedParams.has(p)) : [];
  }

  private get usedParams(): Set<DAGParam> {
    const used = new Set<DAGParam>();
    for (const node of this.nodes) if (node.kind !== "verdict") for (const p of node.evaluationParams ?? []) used.add(p);
    return used;
  }
}

// ----- runner (shared by DAGMetric and ConversationalDAGMetric) -----

const taskOutputSchema = judgeSchema("task_output", z.object({ output: z.union([z.string(), z.array(z.string())]) }));
const dagReasonSchema = judgeSchema("reason", z.object({ reason: z.string() }));

function outputText(output: TaskOutput | undefined): string {
  if (output === undefined) return "";
  return typeof output === "string" ? output : JSON.stringify(output);
}

function nodeTitle(node: DAGNode, depth: number): string {
  const names = { task: "TaskNode", binary: "BinaryJudgementNode", "non-binary": "NonBinaryJudgementNode", verdict: "VerdictNode" };
  const label = node.kind !== "verdict" && node.label ? ` "${node.label}"` : "";
  return `${node.multiturn ? "Conversational" : ""}${names[node.kind]}${label} (level ${depth})`;
}

/** A child metric's result as the DAG takes it over. */
export interface DagChildResult {
  readonly name: string;
  readonly score: number | null;
  readonly reason: string | null;
}

/** What a DAG metric hands the runner: its judge, its fan-out, and how its test case is shown and delegated. */
export interface DagRun {
  readonly graph: DeepAcyclicGraph;
  /** The metric's display name (for the reason prompt). */
  readonly name: string;
  readonly includeReason: boolean;
  readonly judge: <T>(schema: JudgeSchema<T>, prompt: string) => Promise<T>;
  readonly gather: <T>(tasks: readonly (() => Promise<T>)[]) => Promise<T[]>;
  /** The test-case part of a node's input (its `evaluationParams`, and turn window for conversations). */
  readonly renderNode: (node: DAGInnerNode) => string;
  /** Measure a VerdictNode's metric child on the test case (its cost accrues to the DAG). */
  readonly runChild: (child: object) => Promise<DagChildResult>;
}

/**
 * Walk a DAG (docs/spec/judges.md §3.2): nodes run when all their incoming edges arrive (independent
 * branches through `gather`); a TaskNode makes one call and passes `"<outputLabel>:\n<output>"` on; a
 * judgement makes one call and fires the VerdictNode child whose verdict matches; a leaf sets
 * `score / 10` and makes the reason call; a metric child's score and reason become the DAG's.
 */
export async function runDag(run: DagRun): Promise<Evaluation> {
  const { graph } = run;
  const remaining = new Map(graph.indegree);
  const outputs = new Map<TaskNode, TaskOutput>();
  const verdicts = new Map<DAGNode, { verdict: boolean | string; reason: string }>();
  const depthOf = new Map<DAGNode, number>();
  const steps: string[] = [];
  let score: number | null = null;
  let reason: string | null = null;

  const arrived = (node: DAGNode): boolean => {
    const left = (remaining.get(node) ?? 0) - 1;
    remaining.set(node, left);
    return left <= 0;
  };

  const inputText = (node: DAGInnerNode): string => {
    let text = "";
    for (const parent of graph.parents.get(node) ?? []) {
      if (parent.kind === "task") text += `${parent.outputLabel}:\n${outputText(outputs.get(parent))}\n\n`;
    }
    return text + run.renderNode(node);
  };

  const execute = async (node: DAGInnerNode, depth: number): Promise<void> => {
    const text = inputText(node);
    if (node.kind === "task") {
      const { output } = await run.judge(
        taskOutputSchema,
        `Carry out the instructions below on the text that follows. Return only the result: a string, ` +
          `or a list of strings when the instructions ask for several items.

Instructions:
${node.instructions}

Text:
${text}
${jsonOnly('{"output": "<string>" | ["<string>", ...]}')}`,
      );
      outputs.set(node, output);
      steps.push(`${nodeTitle(node, depth)}\nInstructions: ${node.instructions}\n${node.outputLabel}: ${outputText(output)}`);
      return;
    }
    const judged =
      node.kind === "binary"
        ? await run.judge(
            binaryVerdictSchema,
            `Answer the question below about the text that follows with true or false, and give a short reason.

Question:
${node.criteria}

Text:
${text}
${jsonOnly('{"verdict": true | false, "reason": "<string>"}')}`,
          )
        : await run.judge(
            node.schema,
            `Answer the question below about the text that follows with exactly one of these options: ` +
              `${node.options.map((o) => JSON.stringify(o)).join(", ")}. Give a short reason.

Question:
${node.criteria}

Text:
${text}
${jsonOnly(`{"verdict": ${node.options.map((o) => JSON.stringify(o)).join(" | ")}, "reason": "<string>"}`)}`,
          );
    verdicts.set(node, judged);
    steps.push(`${nodeTitle(node, depth)}\nCriteria: ${node.criteria}\nVerdict: ${String(judged.verdict)}\nReason: ${judged.reason}`);
  };

  const visit = async (node: DAGNode, depth: number): Promise<void> => {
    if (node.kind === "verdict") return visitVerdict(node, depth);
    depthOf.set(node, Math.max(0, depthOf.get(node) ?? 0, depth));
    if (!arrived(node)) return;
    const nodeDepth = depthOf.get(node) ?? depth;
    await execute(node, nodeDepth);
    await run.gather(node.children.map((child) => () => visit(child, nodeDepth + 1)));
  };

  const visitVerdict = async (node: VerdictNode, depth: number): Promise<void> => {
    if (!arrived(node)) return;
    const parent = graph.parents.get(node)?.[0];
    if (isJudgement(parent) && verdicts.get(parent)?.verdict !== node.verdict) return;
    const child = node.child;
    if (child === null) {
      steps.push(`${nodeTitle(node, depth)}\nVerdict: ${String(node.verdict)}\nScore: ${node.score}`);
      const leafScore = (node.score as number) / 10;
      score = leafScore;
      if (run.includeReason) {
        reason = (
          await run.judge(
            dagReasonSchema,
            `An evaluation metric ("${run.name}") walked the decision tree below and reached a final score of ` +
              `${leafScore} (0 is worst, 1 is best). Using the recorded steps — criteria, verdicts, reasons and task ` +
              `outputs — explain concisely why the score is ${leafScore}. Start with "The score is ${leafScore} because".

Steps:
${steps.join("\n\n")}

${jsonOnly('{"reason": "<string>"}')}`,
          )
        ).reason;
      }
      return;
    }
    if (isNode(child)) return visit(child, depth);
    const result = await run.runChild(child);
    const verdict = String(node.verdict);
    steps.push(`${nodeTitle(node, depth)}\nVerdict: ${verdict}\nMetric: ${result.name}\nScore: ${result.score}\nReason: ${result.reason}`);
    score = result.score;
    reason = run.includeReason ? result.reason : null;
  };

  await run.gather(graph.rootNodes.map((root) => () => visit(root, 0)));
  return { score, reason, verboseSteps: steps };
}

/** What a (Conversational)GEval child of a VerdictNode is rebuilt from. */
interface GEvalChild<P> {
  readonly metricName: string;
  readonly evaluationParams: readonly P[];
  readonly criteria: string | null;
  readonly evaluationSteps: readonly string[] | null;
}

/**
 * The options of a fresh GEval (or ConversationalGEval) standing for a VerdictNode's G-Eval child: same name, params,
 * and criteria (or steps when it has none), but this DAG's judge (DeepEval rebuilds it so the DAG's model scores it).
 */
export function freshGEvalOptions<P>(child: GEvalChild<P>, model: JudgeModel) {
  return {
    model,
    name: child.metricName,
    evaluationParams: child.evaluationParams,
    ...(child.criteria ? { criteria: child.criteria } : { evaluationSteps: child.evaluationSteps }),
  };
}

/** A VerdictNode's metric child as a DAG metric measures it: its result and usage are taken over. */
export interface DagChildMetric<C> {
  readonly name: string;
  readonly score: number | null;
  readonly reason: string | null;
  readonly evaluationCost: number | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  aMeasure(testCase: C, options?: MeasureOptions): Promise<unknown>;
}

/** Measure a DAG's metric child on the test case; its cost and tokens accrue to the DAG even when it fails. */
export async function measureDagChild<C>(
  metric: DagChildMetric<C>,
  testCase: C,
  signal: AbortSignal | undefined,
  accrue: (usage: JudgeUsage) => void,
): Promise<DagChildResult> {
  try {
    await metric.aMeasure(testCase, signal ? { signal } : {});
  } finally {
    accrue({ costUsd: metric.evaluationCost, inputTokens: metric.inputTokens, outputTokens: metric.outputTokens });
  }
  return { name: metric.name, score: metric.score, reason: metric.reason };
}

// ----- metric -----

export interface DAGMetricOptions extends JudgeMetricOptions {
  /** Displayed as `"<name> [DAG]"`. */
  readonly name: string;
  readonly dag: DeepAcyclicGraph;
}

/** The `name` and `dag` options of a DAG metric, checked (plain JavaScript may leave them out). */
export function checkDagOptions(options: unknown, owner: string, multiturn: boolean): { name: string; dag: DeepAcyclicGraph } {
  const o = (options ?? {}) as Partial<DAGMetricOptions>;
  const name = checkText(o.name, "name", owner);
  if (!(o.dag instanceof DeepAcyclicGraph)) throw new JudgeMetricConfigError("dag", `${owner}: 'dag' must be a DeepAcyclicGraph`);
  if (o.dag.multiturn !== multiturn) {
    const wanted = multiturn
      ? "conversational nodes (ConversationalTaskNode, ...)"
      : "single-turn nodes (use ConversationalDAGMetric for conversational ones)";
    throw new JudgeMetricConfigError("dag", `${owner}: 'dag' must be made of ${wanted}`);
  }
  return { name, dag: o.dag };
}

/**
 * A deterministic decision tree of small judge calls (DeepEval `DAGMetric`).
 *
 * When to use: rubric-like scoring you want to control step by step ("if the answer has no
 * headings, score 2; else judge the tone…").
 *
 * Details: nodes run when all their incoming edges arrive (independent branches concurrently in
 * `asyncMode`). A TaskNode makes one call and passes `"<outputLabel>:\n<output>"` to its children; a
 * Binary/NonBinary judgement makes one call and fires the VerdictNode child whose verdict matches.
 * A VerdictNode with a score sets `score = score / 10` and makes one reason call walking the
 * traversal; with a GEval child a fresh GEval (same name, params, criteria or steps; this DAG's
 * judge) is measured; with any other metric a `copy()` is measured; its score and reason become the
 * DAG's and its cost accrues here. No leaf fired → `score` null, `success` false. Strict mode only
 * sets threshold 1 (the leaf score is not binarised). Required fields: the union of the nodes'
 * `evaluationParams`.
 *
 * @example
 * const dag = new DeepAcyclicGraph([
 *   new BinaryJudgementNode({
 *     criteria: "Does the answer mention a price?",
 *     evaluationParams: [LLMTestCaseParams.ACTUAL_OUTPUT],
 *     children: [new VerdictNode({ verdict: false, score: 0 }), new VerdictNode({ verdict: true, score: 10 })],
 *   }),
 * ]);
 * const metric = new DAGMetric({ model: judge, name: "Pricing", dag });
 */
export class DAGMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "name", "dag"];

  readonly metricName: string;
  readonly dag: DeepAcyclicGraph;

  constructor(options: DAGMetricOptions) {
    super(options, { defaultThreshold: 0.5, strictBinarizes: false });
    const { name, dag } = checkDagOptions(options, "DAGMetric", false);
    this.metricName = name;
    this.dag = dag;
  }

  override get name(): string {
    return `${this.metricName} [DAG]`;
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return this.dag.evaluationParams;
  }

  protected override evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    return runDag({
      graph: this.dag,
      name: this.name,
      includeReason: this.includeReason,
      judge: (schema, prompt) => this.judge(schema, prompt, { signal }),
      gather: (tasks) => this.gather(tasks),
      renderNode: (node) => (node.evaluationParams ? renderParams(testCase, node.evaluationParams as readonly LLMTestCaseParams[]) : ""),
      runChild: (child) =>
        measureDagChild(
          child instanceof GEval ? new GEval(freshGEvalOptions(child, this.model)) : (child as BaseMetric).copy(),
          testCase,
          signal,
          (usage) => this.accrueUsage(usage),
        ),
    });
  }
}
