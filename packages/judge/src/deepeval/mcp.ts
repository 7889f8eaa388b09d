// DeepEval's MCP metrics (deepeval/metrics/mcp_use_metric, deepeval/metrics/mcp): did the application use the
// MCP servers it had — the right primitives, with the right arguments — and did it finish the user's tasks?
// Formulas and required fields are DeepEval's; the prompts are our own.
//   MCPUseMetric:          min(primitive-usage score, argument-correctness score), reason = both reasons.
//   MultiTurnMCPUseMetric: per task, a primitive score and an argument score; min(mean, mean); 0 with no task.
//   MCPTaskCompletionMetric: per task, a completion score; their mean; 0 with no task.
import {
  LLMTestCaseParams,
  MissingTestCaseParamsError,
  prettifyList,
  type ConversationalTestCase,
  type Evaluation,
  type LLMTestCase,
  type MCPPromptCall,
  type MCPResourceCall,
  type MCPServer,
  type MCPToolCall,
  type MeasureContext,
  type Turn,
} from "@evalkern/metrics/deepeval";
import { z } from "zod";
import { ConversationalJudgeMetric, JudgeMetric, type JudgeMetricOptions, JUDGE_METRIC_OPTION_KEYS } from "./judge-metric.js";
import { json, jsonOnly } from "./render.js";
import { judgeSchema, unitInterval } from "./schema.js";
import { reasonPrompt } from "./shared-prompts.js";
import { unitInteractions } from "./turn-relevancy.js";

/** DeepEval's `{score: float, reason: str}` replies (`MCPPrimitivesScore`, `MCPArgsScore`, `ToolScore`, …). */
const scoreReason = (name: string) => judgeSchema(name, z.object({ score: unitInterval, reason: z.string() }));
const primitivesSchema = scoreReason("mcp_primitives_score");
const argsSchema = scoreReason("mcp_args_score");
const taskSchema = scoreReason("mcp_task_score");

type ScoreReason = { readonly score: number; readonly reason: string };

const SCORE_SHAPE = jsonOnly('{"score": <number 0-1>, "reason": "<string>"}');

/** What the servers offer, server by server, as the judge sees it. */
export function renderMcpServers(servers: readonly MCPServer[]): string {
  return servers
    .map((server) => {
      const parts = [`MCP server "${server.serverName}"${server.transport === null ? "" : ` (${server.transport})`}`];
      if (server.availableTools?.length) parts.push(`Available tools:\n${json(server.availableTools)}`);
      if (server.availableResources?.length) parts.push(`Available resources:\n${json(server.availableResources)}`);
      if (server.availablePrompts?.length) parts.push(`Available prompts:\n${json(server.availablePrompts)}`);
      if (parts.length === 1) parts.push("(offers nothing)");
      return parts.join("\n");
    })
    .join("\n\n");
}

/** What was called, by kind; "(nothing)" when no MCP primitive was used. */
export function renderMcpCalls(calls: {
  readonly mcpToolsCalled: readonly MCPToolCall[] | null;
  readonly mcpResourcesCalled: readonly MCPResourceCall[] | null;
  readonly mcpPromptsCalled: readonly MCPPromptCall[] | null;
}): string {
  const parts: string[] = [];
  if (calls.mcpToolsCalled?.length) parts.push(`Tools called:\n${json(calls.mcpToolsCalled)}`);
  if (calls.mcpResourcesCalled?.length) parts.push(`Resources read:\n${json(calls.mcpResourcesCalled)}`);
  if (calls.mcpPromptsCalled?.length) parts.push(`Prompts fetched:\n${json(calls.mcpPromptsCalled)}`);
  return parts.length === 0 ? "(no MCP primitive was used)" : parts.join("\n\n");
}

/**
 * Whether a single-turn application used its MCP servers well (DeepEval `MCPUseMetric`).
 *
 * Details: two judge calls — were the right primitives (tools, resources, prompts) used for the input, and
 * were they called with the right arguments — each a score in [0, 1] with a reason. Score = the lower of
 * the two; the reason is DeepEval's `[\n\t<primitives reason>\n\t<arguments reason>\n]\n` (no reason call).
 * Requires `input`, `actualOutput` and `mcpServers`. Threshold 0.5; strict mode binarises.
 *
 * @example
 * const metric = new MCPUseMetric({ model: judge });
 */
export class MCPUseMetric extends JudgeMetric {
  /** The option keys this metric takes; any other is an `UnknownOptionError`. */
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "MCP Use";
  }

  protected override get requiredParams(): readonly LLMTestCaseParams[] {
    return [LLMTestCaseParams.INPUT, LLMTestCaseParams.ACTUAL_OUTPUT, LLMTestCaseParams.MCP_SERVERS];
  }

  protected override async evaluateAsync(testCase: LLMTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const available = renderMcpServers(testCase.mcpServers ?? []);
    const used = renderMcpCalls(testCase);
    const exchange = [
      `User input:\n${testCase.input}`,
      `Final answer:\n${testCase.actualOutput ?? ""}`,
      `What the MCP servers offered:\n${available}`,
      `What the application used:\n${used}`,
    ].join("\n\n");
    const [primitives, args] = await this.gatherPair(
      () =>
        this.judge(
          primitivesSchema,
          [
            "An application answered a user with the help of MCP servers. Judge whether it used the right MCP primitives " +
              "(tools, resources, prompts) for the request: the ones it needed, and none it did not need. Using nothing when " +
              "the request needed a primitive is wrong; using nothing when none was needed is right. Score from 0 (wrong choice) " +
              "to 1 (exactly the right primitives) and give a short reason naming what was missing or superfluous.",
            exchange,
            SCORE_SHAPE,
          ].join("\n\n"),
          { signal },
        ),
      () =>
        this.judge(
          argsSchema,
          [
            "An application answered a user with the help of MCP servers. Judge the arguments it passed to the MCP primitives " +
              "it used: do they follow each primitive's declared input schema, and do their values fit what the user asked? " +
              "If nothing was called, judge whether that was right. " +
              "Score from 0 (wrong arguments) to 1 (all correct) and give a short reason.",
            exchange,
            SCORE_SHAPE,
          ].join("\n\n"),
          { signal },
        ),
    );
    return {
      score: Math.min(primitives.score, args.score),
      reason: `[\n\t${primitives.reason}\n\t${args.reason}\n]\n`,
      scoreBreakdown: { "Primitive Usage": primitives.score, "Argument Correctness": args.score },
      verboseSteps: [
        `MCP Primitives Available:\n${available}`,
        `MCP Primitives Used:\n${used}`,
        `Primitive Usage Score: ${primitives.score}`,
        `Primitive Usage Reason: ${primitives.reason}`,
        `Argument Correctness Score: ${args.score}`,
        `Argument Correctness Reason: ${args.reason}`,
      ],
    };
  }
}

/** One task of a conversation: what the user asked and what the assistant then did (DeepEval's `Task`). */
export interface MCPTask {
  readonly task: string;
  readonly stepsTaken: readonly string[];
}

/** A tool's result as shown to the judge: its `structuredContent.result` when it has one (DeepEval shows that), else all of it. */
function toolResultText(result: unknown): string {
  const structured = (result as { structuredContent?: { result?: unknown } } | null)?.structuredContent;
  const value = structured !== null && typeof structured === "object" && "result" in structured ? structured.result : result;
  return typeof value === "string" ? value : json(value);
}

function mcpStep(turn: Turn): string {
  const lines = ["MCP primitives the assistant used (not shown to the user):"];
  for (const tool of turn.mcpToolsCalled ?? []) {
    lines.push(`- tool "${tool.name}" with arguments ${json(tool.args)} returned:\n${toolResultText(tool.result)}`);
  }
  for (const resource of turn.mcpResourcesCalled ?? []) lines.push(`- resource ${resource.uri} returned:\n${json(resource.result)}`);
  for (const prompt of turn.mcpPromptsCalled ?? []) lines.push(`- prompt "${prompt.name}" returned:\n${json(prompt.result)}`);
  return lines.join("\n");
}

/**
 * DeepEval's task extraction (`_get_tasks`): each unit interaction of more than two turns is a task; the
 * task is the user turns it starts with (each followed by a newline); every later turn is a step — its MCP
 * calls when it has any, else its text (DeepEval labels every such turn an agent response, user turns too).
 */
export function mcpTasks(turns: readonly Turn[]): MCPTask[] {
  return unitInteractions(turns)
    .filter((unit) => unit.length > 2)
    .map((unit) => {
      let task = "";
      for (const turn of unit) {
        if (turn.role !== "user") break;
        task += `${turn.content}\n`;
      }
      const stepsTaken = unit.slice(1).map((turn) => (turn.mcpInteraction ? mcpStep(turn) : `Agent's response to user: \n${turn.content}`));
      return { task, stepsTaken };
    });
}

function renderTask(task: MCPTask): string {
  return `Task:\n${task.task}\nSteps taken:\n${task.stepsTaken.map((step, i) => `${i + 1}. ${step}`).join("\n")}`;
}

/** DeepEval's mean with a divisor of at least 1: no scores → 0. */
function meanOrZero(scores: readonly ScoreReason[]): number {
  return scores.reduce((sum, s) => sum + s.score, 0) / Math.max(1, scores.length);
}

/** DeepEval's check: `if not test_case.mcp_servers`, with its message naming the class. */
function requireServers(testCase: ConversationalTestCase, className: string, metric: { error: string | null }): readonly MCPServer[] {
  const servers = testCase.mcpServers;
  if (servers === null || servers.length === 0) {
    const message = `'mcp_servers' in a conversational test case cannot be empty for the '${className}' metric.`;
    metric.error = message;
    throw new MissingTestCaseParamsError(message, ["mcp_servers"]);
  }
  return servers;
}

abstract class MCPConversationalMetric extends ConversationalJudgeMetric {
  /** The tasks of the last measurement. */
  tasks: readonly MCPTask[] = [];

  /** DeepEval's class name, as its missing-servers message spells it. */
  protected abstract get className(): string;

  protected override validateTestCase(testCase: unknown): asserts testCase is ConversationalTestCase {
    super.validateTestCase(testCase);
    requireServers(testCase, this.className, this);
  }

  protected override resetState(): void {
    super.resetState();
    this.tasks = [];
  }

  /** The final reason call over the per-task reasons. */
  protected finalReason(reasons: readonly string[], signal: AbortSignal | undefined): () => Promise<string> {
    return () =>
      this.judgeReason(
        reasonPrompt({
          metric: this.name,
          score: this.score,
          context: `The test ${this.isSuccessful() ? "passed" : "failed"} against a threshold of ${this.threshold}.`,
          sections: [{ title: "Reasons given for each task", items: [...reasons] }],
        }),
        signal,
      );
  }
}

/**
 * Whether an assistant used its MCP servers well across a conversation (DeepEval `MultiTurnMCPUseMetric`).
 *
 * Details: the conversation's tasks ({@link mcpTasks}); per task, one call scoring whether the right MCP
 * primitives were used and one scoring their arguments (each in [0, 1], with a reason). Score =
 * min(mean of primitive scores, mean of argument scores); a conversation without a task scores 0 (DeepEval's
 * divisor of 1). Then one reason call over all reasons. Requires `mcpServers` (non-empty). Threshold 0.5.
 *
 * @example
 * const metric = new MultiTurnMCPUseMetric({ model: judge });
 */
export class MultiTurnMCPUseMetric extends MCPConversationalMetric {
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "Multi-Turn MCP Use";
  }

  protected override get className(): string {
    return "MultiTurnMCPUseMetric";
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    const servers = renderMcpServers(testCase.mcpServers ?? []);
    this.tasks = mcpTasks(testCase.turns);
    const ask = (schema: typeof primitivesSchema, question: string) =>
      this.gather(
        this.tasks.map(
          (task) => () =>
            this.judge(schema, [question, `What the MCP servers offered:\n${servers}`, renderTask(task), SCORE_SHAPE].join("\n\n"), {
              signal,
            }),
        ),
      );
    const primitives = await ask(
      primitivesSchema,
      "An assistant worked on a user's task with the help of MCP servers. Judge whether it used the right MCP primitives " +
        "(tools, resources, prompts) for the task: the ones it needed and none it did not. " +
        "Score from 0 (wrong choice) to 1 (exactly right) with a short reason.",
    );
    const args = await ask(
      argsSchema,
      "An assistant worked on a user's task with the help of MCP servers. Judge the arguments it passed to the MCP primitives " +
        "it used: do they follow each primitive's input schema and fit the task? " +
        "Score from 0 (wrong) to 1 (all correct) with a short reason.",
    );
    return {
      score: Math.min(meanOrZero(primitives), meanOrZero(args)),
      reason: this.finalReason(
        [...primitives, ...args].map((s) => s.reason),
        signal,
      ),
      verboseSteps: [
        `Tasks:\n${prettifyList(this.tasks)}`,
        `Individual Scores & Reasons for Primitives:\n${prettifyList(primitives)}`,
        `Individual Scores & Reasons for Arguments:\n${prettifyList(args)}`,
      ],
    };
  }
}

/**
 * Whether an assistant with MCP servers completed the user's tasks (DeepEval `MCPTaskCompletionMetric`).
 *
 * Details: the conversation's tasks ({@link mcpTasks}); one call per task scoring how completely the steps
 * taken accomplish it (in [0, 1], with a reason). Score = the mean; no task → 0 (DeepEval's divisor of 1).
 * Then one reason call over the task reasons. Requires `mcpServers` (non-empty). Threshold 0.5.
 *
 * @example
 * const metric = new MCPTaskCompletionMetric({ model: judge });
 */
export class MCPTaskCompletionMetric extends MCPConversationalMetric {
  static readonly optionKeys: readonly string[] = JUDGE_METRIC_OPTION_KEYS;

  constructor(options: JudgeMetricOptions = {}) {
    super(options, { defaultThreshold: 0.5 });
  }

  override get name(): string {
    return "MCP Task Completion";
  }

  protected override get className(): string {
    return "MCPTaskCompletionMetric";
  }

  protected override async evaluateAsync(testCase: ConversationalTestCase, { signal }: MeasureContext): Promise<Evaluation> {
    this.tasks = mcpTasks(testCase.turns);
    const scores = await this.gather(
      this.tasks.map(
        (task) => () =>
          this.judge(
            taskSchema,
            [
              "An assistant worked on a user's task, using MCP servers where it chose to. Judge how completely the steps it took " +
                "accomplish the task, from 0 (not at all) to 1 (fully), with a short reason naming what is missing.",
              renderTask(task),
              SCORE_SHAPE,
            ].join("\n\n"),
            { signal },
          ),
      ),
    );
    return {
      score: meanOrZero(scores),
      reason: this.finalReason(
        scores.map((s) => s.reason),
        signal,
      ),
      verboseSteps: [`Tasks:\n${prettifyList(this.tasks)}`, `Individual Scores & Reasons:\n${prettifyList(scores)}`],
    };
  }
}
