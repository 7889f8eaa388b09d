// DeepEval's multi-turn `ConversationalTestCase` and its `Turn`.
import { InvalidArgumentError } from "../errors.js";
import { toRetrievalContext, type RetrievalContextItem } from "./llm-test-case.js";
import {
  MCP_CALL_FIELDS,
  mcpCalls,
  toMCPServerList,
  type MCPCallsInit,
  type MCPPromptCall,
  type MCPResourceCall,
  type MCPServer,
  type MCPServerInit,
  type MCPToolCall,
} from "./mcp.js";
import { toToolCallList, type ToolCall, type ToolCallInit } from "./tool-call.js";
import {
  aliased,
  expectInit,
  fail,
  optionalBoolean,
  optionalRecord,
  optionalString,
  optionalStringArray,
  type SnakeCased,
} from "./validate.js";

export type TurnRole = "user" | "assistant";

/** The fields a `Turn` is built from. */
export interface TurnInit extends MCPCallsInit {
  readonly role: TurnRole;
  readonly content: string;
  readonly userId?: string | null;
  readonly retrievalContext?: readonly RetrievalContextItem[] | null;
  readonly toolsCalled?: readonly (ToolCall | ToolCallInit)[] | null;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  /** DeepEval's deprecated name for `metadata`. */
  readonly additionalMetadata?: Readonly<Record<string, unknown>> | null;
}

const TURN_FIELDS = [
  "role",
  "content",
  "userId",
  "retrievalContext",
  "toolsCalled",
  "metadata",
  "additionalMetadata",
  ...MCP_CALL_FIELDS,
] as const;
const TURN_MARKER = Symbol.for("evalkern.deepeval.Turn");

/**
 * One message of a conversation (DeepEval `Turn`): who spoke, what was said, and what the assistant
 * retrieved or called for it.
 *
 * @example
 * new Turn({ role: "user", content: "Book a table for two." });
 */
export class Turn {
  readonly [TURN_MARKER] = true;
  readonly role: TurnRole;
  readonly content: string;
  readonly userId: string | null;
  readonly retrievalContext: readonly RetrievalContextItem[] | null;
  readonly toolsCalled: readonly ToolCall[] | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly mcpToolsCalled: readonly MCPToolCall[] | null;
  readonly mcpResourcesCalled: readonly MCPResourceCall[] | null;
  readonly mcpPromptsCalled: readonly MCPPromptCall[] | null;

  constructor(init: TurnInit | SnakeCased<TurnInit>) {
    const owner = "Turn";
    const record = expectInit(owner, init, TURN_FIELDS);
    if (record.role !== "user" && record.role !== "assistant") fail(owner, "role", `"user" or "assistant"`, record.role);
    this.role = record.role;
    if (typeof record.content !== "string") fail(owner, "content", "a string", record.content);
    this.content = record.content;
    this.userId = optionalString(owner, "userId", record.userId);
    this.retrievalContext = toRetrievalContext(owner, "retrievalContext", record.retrievalContext);
    this.toolsCalled = toToolCallList(owner, "toolsCalled", record.toolsCalled);
    this.metadata = optionalRecord(owner, "metadata", aliased(owner, record, "metadata", "additionalMetadata"));
    ({
      mcpToolsCalled: this.mcpToolsCalled,
      mcpResourcesCalled: this.mcpResourcesCalled,
      mcpPromptsCalled: this.mcpPromptsCalled,
    } = mcpCalls(owner, record));
    Object.freeze(this);
  }

  /** Whether the turn involved MCP (DeepEval `Turn._mcp_interaction`): any of the three call lists is given. */
  get mcpInteraction(): boolean {
    return this.mcpToolsCalled !== null || this.mcpResourcesCalled !== null || this.mcpPromptsCalled !== null;
  }

  static isInstance(value: unknown): value is Turn {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TURN_MARKER] === true;
  }

  static from(value: Turn | TurnInit | SnakeCased<TurnInit>): Turn {
    return Turn.isInstance(value) ? value : new Turn(value);
  }

  get additionalMetadata(): Readonly<Record<string, unknown>> | null {
    return this.metadata;
  }

  toJSON(): TurnInit {
    return {
      role: this.role,
      content: this.content,
      userId: this.userId,
      retrievalContext: this.retrievalContext,
      toolsCalled: this.toolsCalled,
      metadata: this.metadata,
      mcpToolsCalled: this.mcpToolsCalled,
      mcpResourcesCalled: this.mcpResourcesCalled,
      mcpPromptsCalled: this.mcpPromptsCalled,
    };
  }
}

/** The fields a `ConversationalTestCase` is built from. */
export interface ConversationalTestCaseInit {
  readonly turns: readonly (Turn | TurnInit | SnakeCased<TurnInit>)[];
  readonly scenario?: string | null;
  readonly context?: readonly string[] | null;
  readonly name?: string | null;
  readonly userDescription?: string | null;
  readonly expectedOutcome?: string | null;
  /** The role the assistant must keep (RoleAdherence). */
  readonly chatbotRole?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  readonly additionalMetadata?: Readonly<Record<string, unknown>> | null;
  readonly comments?: string | null;
  readonly tags?: readonly string[] | null;
  readonly multimodal?: boolean;
  /** The MCP servers the assistant could use (MCP metrics). */
  readonly mcpServers?: readonly (MCPServer | MCPServerInit | SnakeCased<MCPServerInit>)[] | null;
}

const CONVERSATION_FIELDS = [
  "turns",
  "scenario",
  "context",
  "name",
  "userDescription",
  "expectedOutcome",
  "chatbotRole",
  "metadata",
  "additionalMetadata",
  "comments",
  "tags",
  "multimodal",
  "mcpServers",
] as const;
const CONVERSATION_MARKER = Symbol.for("evalkern.deepeval.ConversationalTestCase");

/**
 * A whole conversation to evaluate (DeepEval `ConversationalTestCase`).
 *
 * When to use: `BaseConversationalMetric` subclasses (knowledge retention, conversation
 * completeness, role adherence).
 *
 * Details: `turns` must be a non-empty array of `Turn`s or turn fields (DeepEval raises `TypeError`
 * for an empty list); each is validated. Absent optional fields are `null`.
 *
 * @example
 * const conversation = new ConversationalTestCase({
 *   chatbotRole: "a polite concierge",
 *   turns: [
 *     { role: "user", content: "Book a table for two." },
 *     { role: "assistant", content: "Done: 8pm at Chez Nous." },
 *   ],
 * });
 */
export class ConversationalTestCase {
  readonly [CONVERSATION_MARKER] = true;
  readonly turns: readonly Turn[];
  readonly scenario: string | null;
  readonly context: readonly string[] | null;
  readonly name: string | null;
  readonly userDescription: string | null;
  readonly expectedOutcome: string | null;
  readonly chatbotRole: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly comments: string | null;
  readonly tags: readonly string[] | null;
  readonly multimodal: boolean;
  readonly mcpServers: readonly MCPServer[] | null;

  constructor(init: ConversationalTestCaseInit | SnakeCased<ConversationalTestCaseInit>) {
    const owner = "ConversationalTestCase";
    const record = expectInit(owner, init, CONVERSATION_FIELDS);
    if (!Array.isArray(record.turns)) fail(owner, "turns", "a non-empty array of Turn", record.turns);
    if (record.turns.length === 0) {
      throw new InvalidArgumentError(`${owner}: 'turns' must not be empty`, {
        argument: "turns",
        expected: "a non-empty array of Turn",
        actual: "array(0)",
      });
    }
    this.turns = Object.freeze(
      (record.turns as unknown[]).map((turn, index) => {
        if (Turn.isInstance(turn)) return turn;
        if (typeof turn !== "object" || turn === null || Array.isArray(turn)) {
          fail(owner, "turns", "a Turn or Turn fields", turn, index);
        }
        try {
          return new Turn(turn as TurnInit);
        } catch (error) {
          if (error instanceof InvalidArgumentError) {
            throw new InvalidArgumentError(`${owner}: 'turns[${index}]': ${error.message}`, {
              argument: `turns[${index}].${error.argument}`,
              index,
              ...(error.expected === undefined ? {} : { expected: error.expected }),
              ...(error.actual === undefined ? {} : { actual: error.actual }),
            });
          }
          throw error;
        }
      }),
    );
    this.scenario = optionalString(owner, "scenario", record.scenario);
    this.context = optionalStringArray(owner, "context", record.context);
    this.name = optionalString(owner, "name", record.name);
    this.userDescription = optionalString(owner, "userDescription", record.userDescription);
    this.expectedOutcome = optionalString(owner, "expectedOutcome", record.expectedOutcome);
    this.chatbotRole = optionalString(owner, "chatbotRole", record.chatbotRole);
    this.metadata = optionalRecord(owner, "metadata", aliased(owner, record, "metadata", "additionalMetadata"));
    this.comments = optionalString(owner, "comments", record.comments);
    this.tags = optionalStringArray(owner, "tags", record.tags);
    this.multimodal = optionalBoolean(owner, "multimodal", record.multimodal, false);
    this.mcpServers = toMCPServerList(owner, "mcpServers", record.mcpServers);
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is ConversationalTestCase {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CONVERSATION_MARKER] === true;
  }

  static from(value: ConversationalTestCase | ConversationalTestCaseInit | SnakeCased<ConversationalTestCaseInit>): ConversationalTestCase {
    return ConversationalTestCase.isInstance(value) ? value : new ConversationalTestCase(value);
  }

  get additionalMetadata(): Readonly<Record<string, unknown>> | null {
    return this.metadata;
  }

  toJSON(): ConversationalTestCaseInit {
    return {
      turns: this.turns,
      scenario: this.scenario,
      context: this.context,
      name: this.name,
      userDescription: this.userDescription,
      expectedOutcome: this.expectedOutcome,
      chatbotRole: this.chatbotRole,
      metadata: this.metadata,
      comments: this.comments,
      tags: this.tags,
      multimodal: this.multimodal,
      mcpServers: this.mcpServers,
    };
  }
}
