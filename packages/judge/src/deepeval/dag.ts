// DeepEval's DAG metric (docs/spec/judges.md §3.2): a decision tree whose inner nodes are small judge calls
// (tasks and judgements) and whose leaves are fixed scores or delegated metrics.
import {
  BaseMetric,
  isLLMTestCaseParam,
  LLMTestCaseParams,
  MetricCore,
  type Evaluation,
  type LLMTestCase,
  type MeasureContext,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import type { JudgeSchema } from "../model.js";
import { JudgeMetricConfigError } from "./errors.js";
import { GEval } from "./g-eval.js";
import { JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { jsonOnly, renderParams } from "./render.js";
import { judgeSchema } from "./schema.js";

const NODE_MARKER = Symbol.for("evalkern.judge.dag.node");

/** What a TaskNode produced: text, or a list of items. */
export type TaskOutput = string | readonly string[];

/** A node that runs a judge call (everything but a VerdictNode). */
export type DAGInnerNode = TaskNode | BinaryJudgementNode | NonBinaryJudgementNode;
export type DAGNode = DAGInnerNode | VerdictNode;
/** What a VerdictNode may delegate to: more of the graph, a G-Eval, or any single-turn metric. */
export type VerdictChild = DAGInnerNode | GEval | BaseMetric;

function isNode(value: unknown): value is DAGNode {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[NODE_MARKER] === true;
}

function checkParams(value: unknown, owner: string): readonly LLMTestCaseParams[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every(isLLMTestCaseParam)) {
    throw new JudgeMetricConfigError("evaluationParams", `${owner}: 'evaluationParams' must be a list of LLMTestCaseParams`);
  }
  return Object.freeze([...value]);
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

/**
 * A step that transforms the test case (or its parents' outputs) into text for its children: one judge
 * call returning `{output: string | string[]}`, exposed to children as `"<outputLabel>:\n<output>"`.
 */
export class TaskNode {
  readonly [NODE_MARKER] = true;
  readonly kind = "task" as const;
  readonly instructions: string;
  readonly outputLabel: string;
  readonly children: readonly DAGInnerNode[];
  readonly evaluationParams: readonly LLMTestCaseParams[] | null;
  readonly label: string | null;

  constructor(init: TaskNodeInit) {
    this.instructions = checkText(init?.instructions, "instructions", "TaskNode");
    this.outputLabel = checkText(init.outputLabel, "outputLabel", "TaskNode");
    if (!Array.isArray(init.children)) throw new JudgeMetricConfigError("children", "TaskNode: 'children' must be a list of nodes");
    for (const child of init.children) {
      if (!isNode(child)) throw new JudgeMetricConfigError("children", "TaskNode: every child must be a DAG node");
      if (child.kind === "verdict") throw new JudgeMetricConfigError("children", "TaskNode: a TaskNode must not have a VerdictNode child");
    }
    this.children = Object.freeze([...init.children]);
    this.evaluationParams = checkParams(init.evaluationParams, "TaskNode");
    this.label = checkLabel(init.label, "TaskNode");
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
  readonly verdict: boolean | string;
  readonly score: number | null;
  readonly child: VerdictChild | null;

  constructor(init: VerdictNodeInit) {
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
    if (child !== null) {
      const metricChild = child instanceof GEval || (MetricCore.isMetric(child) && child.kind === "single-turn");
      if (!metricChild && !(isNode(child as unknown) && (child as DAGNode).kind !== "verdict")) {
        throw new JudgeMetricConfigError("child", "VerdictNode: 'child' must be a Task/Judgement node, a GEval or a single-turn metric");
      }
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
  readonly criteria: string;
  readonly children: readonly [VerdictNode, VerdictNode];
  readonly evaluationParams: readonly LLMTestCaseParams[] | null;
  readonly label: string | null;

  constructor(init: BinaryJudgementNodeInit) {
    this.criteria = checkText(init?.criteria, "criteria", "BinaryJudgementNode");
    const children = init.children;
    if (!Array.isArray(children) || children.length !== 2) {
      throw new JudgeMetricConfigError("children", "BinaryJudgementNode: must have exactly 2 children");
    }
    if (!children.every((c) => isNode(c) && c.kind === "verdict" && typeof c.verdict === "boolean")) {
      throw new JudgeMetricConfigError("children", "BinaryJudgementNode: children must be VerdictNodes with boolean verdicts");
    }
    if (children[0].verdict === children[1].verdict) {
      throw new JudgeMetricConfigError("children", "BinaryJudgementNode: must have one true and one false VerdictNode child");
    }
    this.children = Object.freeze([children[0], children[1]]) as readonly [VerdictNode, VerdictNode];
    this.evaluationParams = checkParams(init.evaluationParams, "BinaryJudgementNode");
    this.label = checkLabel(init.label, "BinaryJudgementNode");
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
  readonly evaluationParams: readonly LLMTestCaseParams[] | null;
  readonly label: string | null;
  /** `{verdict: <one of options>, reason: string}`; the verdict is matched exactly, then ignoring case and spaces. */
  readonly schema: JudgeSchema<{ verdict: string; reason: string }>;

  constructor(init: NonBinaryJudgementNodeInit) {
    this.criteria = checkText(init?.criteria, "criteria", "NonBinaryJudgementNode");
    const children = init.children;
    if (!Array.isArray(children) || children.length === 0) {
      throw new JudgeMetricConfigError("children", "NonBinaryJudgementNode: must have at least one child");
    }
    const options: string[] = [];
    for (const child of children) {
      if (!isNode(child) || child.kind !== "verdict" || typeof child.verdict !== "string") {
        throw new JudgeMetricConfigError("children", "NonBinaryJudgementNode: children must be VerdictNodes with string verdicts");
      }
      if (options.includes(child.verdict)) {
        throw new JudgeMetricConfigError("children", `NonBinaryJudgementNode: duplicate verdict ${JSON.stringify(child.verdict)}`);
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
    this.evaluationParams = checkParams(init.evaluationParams, "NonBinaryJudgementNode");
    this.label = checkLabel(init.label, "NonBinaryJudgementNode");
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
    const indegree = new Map<DAGNode, number>();
    const parents = new Map<DAGNode, DAGNode[]>();
    const visited = new Set<DAGNode>();
    const onStack = new Set<DAGNode>();
    const visit = (node: DAGNode): void => {
      if (onStack.has(node)) throw new JudgeMetricConfigError("rootNodes", "DeepAcyclicGraph: cycle detected");
      if (visited.has(node)) return;
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
        throw new JudgeMetricConfigError("rootNodes", "DeepAcyclicGraph: a TaskNode must have either 'evaluationParams' or a TaskNode parent");
      }
    }
    this.indegree = indegree;
    this.parents = new Map([...parents].map(([k, v]) => [k, Object.freeze(v)]));
  }

  /** Every node, in discovery order. */
  get nodes(): DAGNode[] {
    return [...this.indegree.keys()];
  }

  /** The union of the nodes' `evaluationParams`, in DeepEval's parameter order. */
  get evaluationParams(): readonly LLMTestCaseParams[] {
    const used = new Set<LLMTestCaseParams>();
    for (const node of this.nodes) if (node.kind !== "verdict") for (const p of node.evaluationParams ?? []) used.add(p);
    return Object.values(LLMTestCaseParams).filter((p) => used.has(p));
  }
}

// ----- metric -----

export interface DAGMetricOptions extends JudgeMetricOptions {
  /** Displayed as `"<name> [DAG]"`. */
  readonly name: string;
  readonly dag: DeepAcyclicGraph;
}

const taskOutputSchema = judgeSchema("task_output", z.object({ output: z.union([z.string(), z.array(z.string())]) }));
const dagReasonSchema = judgeSchema("reason", z.object({ reason: z.string() }));

function outputText(output: TaskOutput | undefined): string {
  if (output === undefined) return "";
  return typeof output === "string" ? output : JSON.stringify(output);
}

function nodeTitle(node: DAGNode, depth: number): string {
  const names = { task: "TaskNode", binary: "BinaryJudgementNode", "non-binary": "NonBinaryJudgementNode", verdict: "VerdictNode" };
  const label = node.kind !== "verdict" && node.label ? ` "${node.label}"` : "";
  return `${names[node.kind]}${label} (level ${depth})`;
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
    // Left out entirely (plain JavaScript): the checks below name the missing option.
    const o: Partial<DAGMetricOptions> = options ?? {};
    this.metricName = checkText(o.name, "name", "DAGMetric");
    if (!(o.dag instanceof DeepAcyclicGraph)) {
      throw new JudgeMetricConfigError("dag", "DAGMetric: 'dag' must be a DeepAcyclicGraph");
    }
    this.dag = o.dag;
  }

  override get name(): string {
    return `${this.metricName} [DAG]`;
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return this.dag.evaluationParams;
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const graph = this.dag;
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
      if (node.evaluationParams) text += renderParams(testCase, node.evaluationParams);
      return text;
    };

    const execute = async (node: DAGInnerNode, depth: number): Promise<void> => {
      const text = inputText(node);
      if (node.kind === "task") {
        const { output } = await this.judge(
          taskOutputSchema,
          `Carry out the instructions below on the text that follows. Return only the result: a string, or a list of strings when the instructions ask for several items.

Instructions:
${node.instructions}

Text:
${text}
${jsonOnly('{"output": "<string>" | ["<string>", ...]}')}`,
          { signal },
        );
        outputs.set(node, output);
        steps.push(`${nodeTitle(node, depth)}\nInstructions: ${node.instructions}\n${node.outputLabel}: ${outputText(output)}`);
        return;
      }
      const judged =
        node.kind === "binary"
          ? await this.judge(
              binaryVerdictSchema,
              `Answer the question below about the text that follows with true or false, and give a short reason.

Question:
${node.criteria}

Text:
${text}
${jsonOnly('{"verdict": true | false, "reason": "<string>"}')}`,
              { signal },
            )
          : await this.judge(
              node.schema,
              `Answer the question below about the text that follows with exactly one of these options: ${node.options.map((o) => JSON.stringify(o)).join(", ")}. Give a short reason.

Question:
${node.criteria}

Text:
${text}
${jsonOnly(`{"verdict": ${node.options.map((o) => JSON.stringify(o)).join(" | ")}, "reason": "<string>"}`)}`,
              { signal },
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
      await this.gather(node.children.map((child) => () => visit(child, nodeDepth + 1)));
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
        if (this.includeReason) {
          reason = (
            await this.judge(
              dagReasonSchema,
              `An evaluation metric ("${this.name}") walked the decision tree below and reached a final score of ${leafScore} (0 is worst, 1 is best). Using the recorded steps — criteria, verdicts, reasons and task outputs — explain concisely why the score is ${leafScore}. Start with "The score is ${leafScore} because".

Steps:
${steps.join("\n\n")}

${jsonOnly('{"reason": "<string>"}')}`,
              { signal },
            )
          ).reason;
        }
        return;
      }
      if (isNode(child)) return visit(child, depth);
      const metric =
        child instanceof GEval
          ? new GEval({
              model: this.model,
              name: child.metricName,
              evaluationParams: child.evaluationParams,
              ...(child.criteria ? { criteria: child.criteria } : { evaluationSteps: child.evaluationSteps }),
            })
          : child.copy();
      try {
        await metric.aMeasure(testCase, signal ? { signal } : {});
      } finally {
        this.accrueChild(metric);
      }
      steps.push(`${nodeTitle(node, depth)}\nVerdict: ${String(node.verdict)}\nMetric: ${metric.name}\nScore: ${metric.score}\nReason: ${metric.reason}`);
      score = metric.score;
      reason = this.includeReason ? metric.reason : null;
    };

    await this.gather(graph.rootNodes.map((root) => () => visit(root, 0)));
    return { score, reason, verboseSteps: steps };
  }
}
