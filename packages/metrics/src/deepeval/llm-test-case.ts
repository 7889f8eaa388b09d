// DeepEval's single-turn `LLMTestCase`.
import { ImageCollector, imagesFromJSON, MLLMImage, type MLLMImageJSON, type MultimodalPart } from "./mllm-image.js";
import { isPlainObject } from "./python-compat.js";
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
  optionalFiniteNumber,
  optionalRecord,
  optionalString,
  optionalStringArray,
  type SnakeCased,
} from "./validate.js";

/** A retrieved chunk with the document it came from (DeepEval `RetrievedContextData`). */
export interface RetrievedContextData {
  readonly context: string;
  readonly source: string;
}

/** One `retrievalContext` entry: plain text, or text with its source. */
export type RetrievalContextItem = string | RetrievedContextData;

/** The text of a retrieval entry as DeepEval serialises it: `"<source>: <context>"` for structured ones. */
export function retrievalContextText(item: RetrievalContextItem): string {
  return typeof item === "string" ? item : `${item.source}: ${item.context}`;
}

/**
 * A text field that may hold images: a string (with `${image}` slugs in it), or DeepEval's older
 * list form of strings and images. Stored as the string with slugs.
 */
export type MultimodalText = string | MLLMImage | readonly MultimodalPart[];

/** The fields an `LLMTestCase` is built from. */
export interface LLMTestCaseInit extends MCPCallsInit {
  readonly input: MultimodalText;
  readonly actualOutput?: MultimodalText | null;
  readonly expectedOutput?: MultimodalText | null;
  /** Ground-truth context (Hallucination). */
  readonly context?: readonly MultimodalText[] | null;
  /** What the retriever returned, in rank order. */
  readonly retrievalContext?: readonly (RetrievalContextItem | MLLMImage | readonly MultimodalPart[])[] | null;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  /** DeepEval's deprecated name for `metadata`. */
  readonly additionalMetadata?: Readonly<Record<string, unknown>> | null;
  readonly toolsCalled?: readonly (ToolCall | ToolCallInit)[] | null;
  readonly expectedTools?: readonly (ToolCall | ToolCallInit)[] | null;
  readonly comments?: string | null;
  readonly tokenCost?: number | null;
  readonly completionTime?: number | null;
  readonly name?: string | null;
  readonly tags?: readonly string[] | null;
  /** Images or PDFs in the text fields; metrics skip the parts they cannot judge. Default false. */
  readonly multimodal?: boolean;
  /** The trace of an agent run, for agentic metrics (DeepEval's hidden `_trace_dict`). */
  readonly trace?: Readonly<Record<string, unknown>> | null;
  /** The images the slugs of the fields name, by id: the object form `toJSON()` writes for JSON/JSONL. */
  readonly images?: Readonly<Record<string, MLLMImage | MLLMImageJSON>> | null;
  /** The MCP servers the application could use (MCP metrics). */
  readonly mcpServers?: readonly (MCPServer | MCPServerInit | SnakeCased<MCPServerInit>)[] | null;
}

const FIELDS = [
  "input",
  "actualOutput",
  "expectedOutput",
  "context",
  "retrievalContext",
  "metadata",
  "additionalMetadata",
  "toolsCalled",
  "expectedTools",
  "comments",
  "tokenCost",
  "completionTime",
  "name",
  "tags",
  "multimodal",
  "trace",
  "images",
  "mcpServers",
  ...MCP_CALL_FIELDS,
] as const;

const LLM_TEST_CASE_MARKER = Symbol.for("evalkern.deepeval.LLMTestCase");

/**
 * One interaction with an LLM application: the input, what it answered, and what a metric may
 * compare it with (DeepEval `LLMTestCase`).
 *
 * When to use: any single-turn metric (`BaseMetric` subclasses, `ToolCorrectnessMetric`).
 *
 * MCP: `mcpServers` (the servers the application could reach) and `mcpToolsCalled`, `mcpResourcesCalled`,
 * `mcpPromptsCalled` (what it called on them), as DeepEval's MCP metrics read them.
 *
 * Details: validated at construction — strings must be strings, lists must be arrays of the right
 * items, numbers finite; unknown fields are rejected (a snake_case `actual_output` is a typo here).
 * Absent fields are `null`. `toolsCalled` / `expectedTools` accept `ToolCall`s or their fields.
 * Which fields a metric needs is checked when it measures (`checkLLMTestCaseParams`).
 *
 * Gotchas: empty lists are kept as given and are not "missing" (DeepEval's rule).
 *
 * @example
 * const testCase = new LLMTestCase({
 *   input: "What's the weather in Paris?",
 *   actualOutput: "Sunny, 24°C.",
 *   toolsCalled: [{ name: "weather", inputParameters: { city: "Paris" } }],
 *   expectedTools: [{ name: "weather" }],
 * });
 */
export class LLMTestCase {
  readonly [LLM_TEST_CASE_MARKER] = true;
  readonly input: string;
  readonly actualOutput: string | null;
  readonly expectedOutput: string | null;
  readonly context: readonly string[] | null;
  readonly retrievalContext: readonly RetrievalContextItem[] | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly toolsCalled: readonly ToolCall[] | null;
  readonly expectedTools: readonly ToolCall[] | null;
  readonly comments: string | null;
  readonly tokenCost: number | null;
  readonly completionTime: number | null;
  readonly name: string | null;
  readonly tags: readonly string[] | null;
  readonly multimodal: boolean;
  readonly trace: Readonly<Record<string, unknown>> | null;
  /** The images in the fields (slug id → image); empty for a text-only test case. */
  readonly images: ReadonlyMap<string, MLLMImage>;
  readonly mcpServers: readonly MCPServer[] | null;
  readonly mcpToolsCalled: readonly MCPToolCall[] | null;
  readonly mcpResourcesCalled: readonly MCPResourceCall[] | null;
  readonly mcpPromptsCalled: readonly MCPPromptCall[] | null;

  constructor(init: LLMTestCaseInit | SnakeCased<LLMTestCaseInit>) {
    const owner = "LLMTestCase";
    const record = expectInit(owner, init, FIELDS);
    const images = new ImageCollector(owner, imagesFromJSON(owner, record.images));
    this.input = images.text("input", record.input);
    this.actualOutput = optionalText(images, "actualOutput", record.actualOutput);
    this.expectedOutput = optionalText(images, "expectedOutput", record.expectedOutput);
    this.context = textList(images, "context", record.context);
    this.retrievalContext = toRetrievalContext(owner, "retrievalContext", record.retrievalContext, images);
    this.metadata = optionalRecord(owner, "metadata", aliased(owner, record, "metadata", "additionalMetadata"));
    this.toolsCalled = toToolCallList(owner, "toolsCalled", record.toolsCalled);
    this.expectedTools = toToolCallList(owner, "expectedTools", record.expectedTools);
    this.comments = optionalString(owner, "comments", record.comments);
    this.tokenCost = optionalFiniteNumber(owner, "tokenCost", record.tokenCost);
    this.completionTime = optionalFiniteNumber(owner, "completionTime", record.completionTime);
    this.name = optionalString(owner, "name", record.name);
    this.tags = optionalStringArray(owner, "tags", record.tags);
    // DeepEval's auto-detection: a test case holding an image is multimodal.
    this.multimodal = optionalBoolean(owner, "multimodal", record.multimodal, false) || images.images.size > 0;
    this.trace = optionalRecord(owner, "trace", record.trace);
    this.images = images.images;
    this.mcpServers = toMCPServerList(owner, "mcpServers", record.mcpServers);
    ({
      mcpToolsCalled: this.mcpToolsCalled,
      mcpResourcesCalled: this.mcpResourcesCalled,
      mcpPromptsCalled: this.mcpPromptsCalled,
    } = mcpCalls(owner, record));
    Object.freeze(this);
  }

  /** True for an `LLMTestCase` from any copy of this package. */
  static isInstance(value: unknown): value is LLMTestCase {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[LLM_TEST_CASE_MARKER] === true;
  }

  /** An `LLMTestCase` as is, or one built from its fields. */
  static from(value: LLMTestCase | LLMTestCaseInit | SnakeCased<LLMTestCaseInit>): LLMTestCase {
    return LLMTestCase.isInstance(value) ? value : new LLMTestCase(value);
  }

  /** DeepEval's deprecated name for `metadata`. */
  get additionalMetadata(): Readonly<Record<string, unknown>> | null {
    return this.metadata;
  }

  /** A copy with some fields replaced. */
  with(changes: Partial<LLMTestCaseInit>): LLMTestCase {
    return new LLMTestCase({ ...this.toJSON(), ...changes });
  }

  toJSON(): LLMTestCaseInit {
    return {
      input: this.input,
      actualOutput: this.actualOutput,
      expectedOutput: this.expectedOutput,
      context: this.context,
      retrievalContext: this.retrievalContext,
      metadata: this.metadata,
      toolsCalled: this.toolsCalled,
      expectedTools: this.expectedTools,
      comments: this.comments,
      tokenCost: this.tokenCost,
      completionTime: this.completionTime,
      name: this.name,
      tags: this.tags,
      multimodal: this.multimodal,
      trace: this.trace,
      ...(this.images.size > 0 ? { images: Object.fromEntries(this.images) } : {}),
      mcpServers: this.mcpServers,
      mcpToolsCalled: this.mcpToolsCalled,
      mcpResourcesCalled: this.mcpResourcesCalled,
      mcpPromptsCalled: this.mcpPromptsCalled,
    };
  }
}

/** An optional text field (null stays null). */
export function optionalText(images: ImageCollector, argument: string, value: unknown): string | null {
  return value === undefined || value === null ? null : images.text(argument, value);
}

/** An optional list of texts (`context`): each item a string, an image, or a list of both. */
export function textList(images: ImageCollector, argument: string, value: unknown): readonly string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail("LLMTestCase", argument, "an array of strings or null", value);
  return Object.freeze(value.map((item: unknown, index) => images.text(argument, item, index)));
}

export function toRetrievalContext(
  owner: string,
  argument: string,
  value: unknown,
  images: ImageCollector = new ImageCollector(owner),
): readonly RetrievalContextItem[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) fail(owner, argument, "an array of strings or {context, source} objects, or null", value);
  return Object.freeze(
    value.map((item: unknown, index) => {
      if (typeof item === "string" || Array.isArray(item) || MLLMImage.isInstance(item)) return images.text(argument, item, index);
      if (isPlainObject(item) && ("url" in item || "dataBase64" in item)) return images.text(argument, item, index);
      if (
        isPlainObject(item) &&
        typeof item.context === "string" &&
        typeof item.source === "string" &&
        Object.keys(item).every((key) => key === "context" || key === "source")
      ) {
        return Object.freeze({ context: item.context, source: item.source });
      }
      return fail(owner, argument, "a string or a {context: string, source: string} object", item, index);
    }),
  );
}
