// DeepEval's ConversationalDAGMetric (docs/spec/judges.md §5.5): the DAG metric over a conversation. The
// conversational nodes are the DAG node classes of dag.ts built with the multi-turn flavour (turn-level
// `MultiTurnParams` and an optional `turnWindow`), and the walk is dag.ts's `runDag`.
import {
  type BaseConversationalMetric,
  isMultiTurnParam,
  MetricCore,
  type ConversationalTestCase,
  type Evaluation,
  type MeasureContext,
  type MultiTurnParams,
  type Turn,
} from "@evalkern/metrics/deepeval";
import { ConversationalGEval } from "./conversational-g-eval.js";
import {
  BinaryJudgementNode,
  checkDagOptions,
  type DAGInnerNode,
  type DeepAcyclicGraph,
  freshGEvalOptions,
  measureDagChild,
  type NodeFlavor,
  NonBinaryJudgementNode,
  runDag,
  TaskNode,
  type TurnWindowRange,
  VerdictNode,
} from "./dag.js";
import { JudgeMetricConfigError } from "./errors.js";
import { ConversationalJudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { json, MULTI_TURN_PARAM_LABEL } from "./render.js";

const MULTI_TURN: NodeFlavor = Object.freeze({
  multiturn: true,
  prefix: "Conversational",
  isParam: isMultiTurnParam,
  paramsType: "MultiTurnParams",
  isChildMetric: (child: unknown) =>
    child instanceof ConversationalGEval || (MetricCore.isMetric(child) && child.kind === "conversational"),
});

/** What a conversational VerdictNode may delegate to: more of the graph, a ConversationalGEval, or any conversational metric. */
export type ConversationalVerdictChild = DAGInnerNode | ConversationalGEval | BaseConversationalMetric;

interface ConversationalNodeFields {
  /** Fields shown to the judge: turn-level ones per turn of the window, conversation-level ones once. */
  readonly evaluationParams?: readonly MultiTurnParams[] | null;
  /** The first and last turn shown (0-based, inclusive, start < end); absent: the whole conversation. */
  readonly turnWindow?: TurnWindowRange | null;
  readonly label?: string | null;
}

export interface ConversationalTaskNodeInit extends ConversationalNodeFields {
  readonly instructions: string;
  readonly outputLabel: string;
  readonly children: readonly DAGInnerNode[];
}
export interface ConversationalBinaryJudgementNodeInit extends ConversationalNodeFields {
  readonly criteria: string;
  readonly children: readonly VerdictNode[];
}
export interface ConversationalNonBinaryJudgementNodeInit extends ConversationalNodeFields {
  readonly criteria: string;
  readonly children: readonly VerdictNode[];
}
export interface ConversationalVerdictNodeInit {
  readonly verdict: boolean | string;
  readonly score?: number | null;
  readonly child?: ConversationalVerdictChild | null;
}

// The init types differ from the single-turn ones only in their params (and turnWindow), which the
// multi-turn flavour validates; the casts hand them to the shared constructors.
/** A step over the conversation whose output feeds its children (DeepEval `ConversationalTaskNode`). */
export class ConversationalTaskNode extends TaskNode {
  constructor(init: ConversationalTaskNodeInit) {
    super(init as unknown as ConstructorParameters<typeof TaskNode>[0], MULTI_TURN);
  }
}
/** A true/false judgement over the conversation (DeepEval `ConversationalBinaryJudgementNode`). */
export class ConversationalBinaryJudgementNode extends BinaryJudgementNode {
  constructor(init: ConversationalBinaryJudgementNodeInit) {
    super(init as unknown as ConstructorParameters<typeof BinaryJudgementNode>[0], MULTI_TURN);
  }
}
/** A multiple-choice judgement over the conversation (DeepEval `ConversationalNonBinaryJudgementNode`). */
export class ConversationalNonBinaryJudgementNode extends NonBinaryJudgementNode {
  constructor(init: ConversationalNonBinaryJudgementNodeInit) {
    super(init as unknown as ConstructorParameters<typeof NonBinaryJudgementNode>[0], MULTI_TURN);
  }
}
/** A branch: a fixed score 0..10 or a conversational child (DeepEval `ConversationalVerdictNode`). */
export class ConversationalVerdictNode extends VerdictNode {
  constructor(init: ConversationalVerdictNodeInit) {
    super(init as unknown as ConstructorParameters<typeof VerdictNode>[0], MULTI_TURN);
  }
}

const TURN_FIELD: Partial<Record<MultiTurnParams, keyof Turn>> = {
  role: "role",
  content: "content",
  retrieval_context: "retrievalContext",
  tools_called: "toolsCalled",
  metadata: "metadata",
};
const CONVERSATION_FIELD: Partial<Record<MultiTurnParams, keyof ConversationalTestCase>> = {
  scenario: "scenario",
  expected_outcome: "expectedOutcome",
  context: "context",
  user_description: "userDescription",
  chatbot_role: "chatbotRole",
  tags: "tags",
};

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "None";
  return typeof value === "string" ? value : json(value);
}

/**
 * The turns a node shows: `turnWindow` checked against the conversation as DeepEval does (two indices,
 * `0 <= start < end < turns`), or every turn.
 */
export function windowTurns(window: TurnWindowRange | null, turns: readonly Turn[]): readonly Turn[] {
  if (window === null) return turns;
  const [start, end] = window;
  if (start < 0 || start >= end || end >= turns.length) {
    throw new JudgeMetricConfigError(
      "turnWindow",
      `turnWindow [${start}, ${end}] does not fit a conversation of ${turns.length} turns (need 0 <= start < end < ${turns.length})`,
    );
  }
  return turns.slice(start, end + 1);
}

/** A conversational node's view of the test case: conversation-level fields once, then each turn's fields. */
export function renderConversationalNode(node: DAGInnerNode, testCase: ConversationalTestCase): string {
  const params = (node.evaluationParams ?? null) as readonly MultiTurnParams[] | null;
  if (params === null) return "";
  let text = "";
  for (const param of params) {
    const field = CONVERSATION_FIELD[param];
    if (field) text += `${MULTI_TURN_PARAM_LABEL[param]}:\n${valueText(testCase[field])}\n\n`;
  }
  text += "Full Conversation:\n";
  for (const turn of windowTurns(node.turnWindow, testCase.turns)) {
    for (const param of params) {
      const field = TURN_FIELD[param];
      if (field) text += `${MULTI_TURN_PARAM_LABEL[param]}:\n${valueText(turn[field])}\n\n`;
    }
  }
  return text;
}

export interface ConversationalDAGMetricOptions extends JudgeMetricOptions {
  /** Displayed as `"<name> [ConversationalDAG]"`. */
  readonly name: string;
  /** A graph of conversational nodes. */
  readonly dag: DeepAcyclicGraph;
}

/**
 * A deterministic decision tree of small judge calls over a conversation (DeepEval
 * `ConversationalDAGMetric`).
 *
 * Details: the walk, scores and reasons are `DAGMetric`'s (docs/spec/judges.md §3.2): a leaf's
 * `score / 10`, or a delegated metric's score and reason (a `ConversationalGEval` child is measured
 * fresh with this DAG's judge, any other conversational metric as a `copy()`, its cost accruing
 * here); no leaf fired → `score` null. A node shows its parents' task outputs, the conversation-level
 * `evaluationParams` once, then under "Full Conversation:" the turn-level ones of each turn in its
 * `turnWindow` (default: every turn). Required fields: the conversation-level params the nodes use.
 * Strict mode only sets threshold 1. Threshold 0.5.
 *
 * @example
 * const dag = new DeepAcyclicGraph([
 *   new ConversationalBinaryJudgementNode({
 *     criteria: "Does the assistant confirm the booking?",
 *     evaluationParams: [MultiTurnParams.ROLE, MultiTurnParams.CONTENT],
 *     children: [new ConversationalVerdictNode({ verdict: false, score: 0 }), new ConversationalVerdictNode({ verdict: true, score: 10 })],
 *   }),
 * ]);
 * const metric = new ConversationalDAGMetric({ model: judge, name: "Booking", dag });
 */
export class ConversationalDAGMetric extends ConversationalJudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = [...JUDGE_METRIC_OPTION_KEYS, "name", "dag"];

  readonly metricName: string;
  readonly dag: DeepAcyclicGraph;

  constructor(options: ConversationalDAGMetricOptions) {
    super(options, { defaultThreshold: 0.5, strictBinarizes: false });
    const { name, dag } = checkDagOptions(options, "ConversationalDAGMetric", true);
    this.metricName = name;
    this.dag = dag;
  }

  override get name(): string {
    return `${this.metricName} [ConversationalDAG]`;
  }

  protected override get requiredParams(): readonly MultiTurnParams[] {
    return this.dag.multiTurnEvaluationParams;
  }

  protected override evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    return runDag({
      graph: this.dag,
      name: this.name,
      includeReason: this.includeReason,
      judge: (schema, prompt) => this.judge(schema, prompt, { signal }),
      gather: (tasks) => this.gather(tasks),
      renderNode: (node) => renderConversationalNode(node, testCase),
      runChild: (child) =>
        measureDagChild(
          child instanceof ConversationalGEval
            ? new ConversationalGEval(freshGEvalOptions(child, this.model))
            : (child as BaseConversationalMetric).copy(),
          testCase,
          signal,
          (usage) => this.accrueUsage(usage),
        ),
    });
  }
}
