// DeepEval's MCP test-case types (deepeval/test_case/mcp.py): the servers an application could reach
// (`MCPServer`) and what it called on them (`MCPToolCall`, `MCPResourceCall`, `MCPPromptCall`).
// Results are kept as given: DeepEval holds the `mcp` SDK's result objects, here their JSON form.
import { InvalidArgumentError } from "../errors.js";
import { isPlainObject } from "./python-compat.js";
import { expectInit, fail, requiredString, type SnakeCased } from "./validate.js";

/** How a client reaches an MCP server (DeepEval's literal). */
export type MCPTransport = "stdio" | "sse" | "streamable-http";
const TRANSPORTS: readonly MCPTransport[] = ["stdio", "sse", "streamable-http"];

/** A JSON object as an MCP SDK would give it (`Tool`, `Resource`, `Prompt`, `CallToolResult`, …). */
export type MCPObject = Readonly<Record<string, unknown>>;

export interface MCPServerInit {
  readonly serverName: string;
  readonly transport?: MCPTransport | null;
  /** The server's tools, as `tools/list` returns them (`{ name, description?, inputSchema, … }`). */
  readonly availableTools?: readonly MCPObject[] | null;
  /** The server's resources (`{ uri, name, description?, mimeType?, … }`). */
  readonly availableResources?: readonly MCPObject[] | null;
  /** The server's prompts (`{ name, description?, arguments?, … }`). */
  readonly availablePrompts?: readonly MCPObject[] | null;
}

export interface MCPToolCallInit {
  readonly name: string;
  readonly args: MCPObject;
  /** What the tool returned (`CallToolResult`: `{ content: [...], isError?, structuredContent? }`). */
  readonly result: unknown;
}

export interface MCPResourceCallInit {
  /** The resource's URI (DeepEval's `AnyUrl`: it must have a scheme). */
  readonly uri: string;
  /** What reading it returned (`ReadResourceResult`: `{ contents: [...] }`). */
  readonly result: unknown;
}

export interface MCPPromptCallInit {
  readonly name: string;
  /** What getting it returned (`GetPromptResult`: `{ description?, messages: [...] }`). */
  readonly result: unknown;
}

const SERVER_FIELDS = ["serverName", "transport", "availableTools", "availableResources", "availablePrompts"] as const;
const TOOL_FIELDS = ["name", "args", "result"] as const;
const RESOURCE_FIELDS = ["uri", "result"] as const;
const PROMPT_FIELDS = ["name", "result"] as const;

const SERVER_MARKER = Symbol.for("evalkern.deepeval.MCPServer");
const TOOL_MARKER = Symbol.for("evalkern.deepeval.MCPToolCall");
const RESOURCE_MARKER = Symbol.for("evalkern.deepeval.MCPResourceCall");
const PROMPT_MARKER = Symbol.for("evalkern.deepeval.MCPPromptCall");

function marked(value: unknown, marker: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/** DeepEval's `validate_mcp_servers`: each `available_*` list is null or a list of objects. */
function objectList(owner: string, argument: string, value: unknown): readonly MCPObject[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail(owner, argument, "an array of objects or null", value);
  value.forEach((item, index) => {
    if (!isPlainObject(item)) fail(owner, argument, "an object (as the MCP SDK lists it)", item, index);
  });
  return Object.freeze([...(value as MCPObject[])]);
}

/** A result must be present (DeepEval's field has no default); JSON-like values only. */
function requiredResult(owner: string, value: unknown): unknown {
  if (value === undefined) fail(owner, "result", "the call's result (an object, as the MCP SDK returns it)", value);
  return value;
}

/**
 * An MCP server the application could use, and what it offers (DeepEval `MCPServer`).
 *
 * @example
 * new MCPServer({ serverName: "weather", transport: "stdio",
 *   availableTools: [{ name: "forecast", description: "Forecast for a city", inputSchema: { type: "object" } }] });
 */
export class MCPServer {
  readonly [SERVER_MARKER] = true;
  readonly serverName: string;
  readonly transport: MCPTransport | null;
  readonly availableTools: readonly MCPObject[] | null;
  readonly availableResources: readonly MCPObject[] | null;
  readonly availablePrompts: readonly MCPObject[] | null;

  constructor(init: MCPServerInit | SnakeCased<MCPServerInit>) {
    const owner = "MCPServer";
    const record = expectInit(owner, init, SERVER_FIELDS);
    this.serverName = requiredString(owner, "serverName", record.serverName);
    const transport = record.transport ?? null;
    if (transport !== null && !TRANSPORTS.includes(transport as MCPTransport)) {
      fail(owner, "transport", `one of ${TRANSPORTS.map((t) => `"${t}"`).join(", ")} or null`, transport);
    }
    this.transport = transport as MCPTransport | null;
    this.availableTools = objectList(owner, "availableTools", record.availableTools);
    this.availableResources = objectList(owner, "availableResources", record.availableResources);
    this.availablePrompts = objectList(owner, "availablePrompts", record.availablePrompts);
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is MCPServer {
    return marked(value, SERVER_MARKER);
  }

  toJSON(): MCPServerInit {
    return {
      serverName: this.serverName,
      transport: this.transport,
      availableTools: this.availableTools,
      availableResources: this.availableResources,
      availablePrompts: this.availablePrompts,
    };
  }
}

/** One tool call made through MCP (DeepEval `MCPToolCall`). */
export class MCPToolCall {
  readonly [TOOL_MARKER] = true;
  readonly name: string;
  readonly args: MCPObject;
  readonly result: unknown;

  constructor(init: MCPToolCallInit) {
    const owner = "MCPToolCall";
    const record = expectInit(owner, init, TOOL_FIELDS);
    this.name = requiredString(owner, "name", record.name);
    if (!isPlainObject(record.args)) fail(owner, "args", "an object of arguments", record.args);
    this.args = record.args;
    this.result = requiredResult(owner, record.result);
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is MCPToolCall {
    return marked(value, TOOL_MARKER);
  }

  toJSON(): MCPToolCallInit {
    return { name: this.name, args: this.args, result: this.result };
  }
}

/** One resource read through MCP (DeepEval `MCPResourceCall`). */
export class MCPResourceCall {
  readonly [RESOURCE_MARKER] = true;
  readonly uri: string;
  readonly result: unknown;

  constructor(init: MCPResourceCallInit) {
    const owner = "MCPResourceCall";
    const record = expectInit(owner, init, RESOURCE_FIELDS);
    const uri = requiredString(owner, "uri", record.uri);
    // DeepEval's AnyUrl: a scheme and a parsable URL; the text is kept as given (pydantic would normalise it).
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) || !URL.canParse(uri)) fail(owner, "uri", "a URL with a scheme", uri);
    this.uri = uri;
    this.result = requiredResult(owner, record.result);
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is MCPResourceCall {
    return marked(value, RESOURCE_MARKER);
  }

  toJSON(): MCPResourceCallInit {
    return { uri: this.uri, result: this.result };
  }
}

/** One prompt fetched through MCP (DeepEval `MCPPromptCall`). */
export class MCPPromptCall {
  readonly [PROMPT_MARKER] = true;
  readonly name: string;
  readonly result: unknown;

  constructor(init: MCPPromptCallInit) {
    const owner = "MCPPromptCall";
    const record = expectInit(owner, init, PROMPT_FIELDS);
    this.name = requiredString(owner, "name", record.name);
    this.result = requiredResult(owner, record.result);
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is MCPPromptCall {
    return marked(value, PROMPT_MARKER);
  }

  toJSON(): MCPPromptCallInit {
    return { name: this.name, result: this.result };
  }
}

/** Build a list field of a test case or turn from instances or their fields; a bad entry names its index. */
function listOf<T, I>(
  owner: string,
  argument: string,
  value: unknown,
  isInstance: (v: unknown) => v is T,
  make: (init: I) => T,
  what: string,
): readonly T[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail(owner, argument, `an array of ${what} or null`, value);
  return Object.freeze(
    value.map((item: unknown, index) => {
      if (isInstance(item)) return item;
      if (!isPlainObject(item)) fail(owner, argument, `a ${what} or its fields`, item, index);
      try {
        return make(item as I);
      } catch (error) {
        if (!(error instanceof InvalidArgumentError)) throw error;
        throw new InvalidArgumentError(`${owner}: '${argument}[${index}]': ${error.message}`, {
          argument: `${argument}[${index}].${error.argument}`,
          index,
          ...(error.expected === undefined ? {} : { expected: error.expected }),
          ...(error.actual === undefined ? {} : { actual: error.actual }),
        });
      }
    }),
  );
}

export const toMCPServerList = (owner: string, argument: string, value: unknown): readonly MCPServer[] | null =>
  listOf(owner, argument, value, MCPServer.isInstance, (init: MCPServerInit) => new MCPServer(init), "MCPServer");
export const toMCPToolCallList = (owner: string, argument: string, value: unknown): readonly MCPToolCall[] | null =>
  listOf(owner, argument, value, MCPToolCall.isInstance, (init: MCPToolCallInit) => new MCPToolCall(init), "MCPToolCall");
export const toMCPResourceCallList = (owner: string, argument: string, value: unknown): readonly MCPResourceCall[] | null =>
  listOf(owner, argument, value, MCPResourceCall.isInstance, (init: MCPResourceCallInit) => new MCPResourceCall(init), "MCPResourceCall");
export const toMCPPromptCallList = (owner: string, argument: string, value: unknown): readonly MCPPromptCall[] | null =>
  listOf(owner, argument, value, MCPPromptCall.isInstance, (init: MCPPromptCallInit) => new MCPPromptCall(init), "MCPPromptCall");

/** The MCP fields a turn or single-turn test case carries (what was called). */
export interface MCPCallsInit {
  readonly mcpToolsCalled?: readonly (MCPToolCall | MCPToolCallInit)[] | null;
  readonly mcpResourcesCalled?: readonly (MCPResourceCall | MCPResourceCallInit)[] | null;
  readonly mcpPromptsCalled?: readonly (MCPPromptCall | MCPPromptCallInit)[] | null;
}

/** The validated call lists. */
export interface MCPCalls {
  readonly mcpToolsCalled: readonly MCPToolCall[] | null;
  readonly mcpResourcesCalled: readonly MCPResourceCall[] | null;
  readonly mcpPromptsCalled: readonly MCPPromptCall[] | null;
}

export const MCP_CALL_FIELDS = ["mcpToolsCalled", "mcpResourcesCalled", "mcpPromptsCalled"] as const;

/** The validated MCP call lists of a record (absent ones null). */
export function mcpCalls(owner: string, record: Record<string, unknown>): MCPCalls {
  return {
    mcpToolsCalled: toMCPToolCallList(owner, "mcpToolsCalled", record.mcpToolsCalled),
    mcpResourcesCalled: toMCPResourceCallList(owner, "mcpResourcesCalled", record.mcpResourcesCalled),
    mcpPromptsCalled: toMCPPromptCallList(owner, "mcpPromptsCalled", record.mcpPromptsCalled),
  };
}
