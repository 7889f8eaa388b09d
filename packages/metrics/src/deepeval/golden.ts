// DeepEval's goldens: the inputs (and expected answers) of a dataset, before the application under test
// has answered. A golden becomes a test case once `actualOutput` (or the conversation's turns) is known.
import { ConversationalTestCase, Turn, type TurnInit } from "./conversational-test-case.js";
import {
  LLMTestCase,
  optionalText,
  textList,
  toRetrievalContext,
  type LLMTestCaseInit,
  type MultimodalText,
  type RetrievalContextItem,
} from "./llm-test-case.js";
import { ImageCollector, imagesFromJSON, type MLLMImage, type MLLMImageJSON, type MultimodalPart } from "./mllm-image.js";
import { toToolCallList, type ToolCall, type ToolCallInit } from "./tool-call.js";
import {
  aliased,
  expectInit,
  fail,
  optionalBoolean,
  optionalRecord,
  optionalString,
  optionalStringArray,
  requiredString,
  type SnakeCased,
} from "./validate.js";

/** The fields a `Golden` is built from (DeepEval `Golden`). */
export interface GoldenInit {
  readonly input: MultimodalText;
  readonly actualOutput?: MultimodalText | null;
  readonly expectedOutput?: MultimodalText | null;
  readonly context?: readonly MultimodalText[] | null;
  readonly retrievalContext?: readonly (RetrievalContextItem | MLLMImage | readonly MultimodalPart[])[] | null;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  readonly additionalMetadata?: Readonly<Record<string, unknown>> | null;
  readonly comments?: string | null;
  readonly toolsCalled?: readonly (ToolCall | ToolCallInit)[] | null;
  readonly expectedTools?: readonly (ToolCall | ToolCallInit)[] | null;
  readonly sourceFile?: string | null;
  readonly name?: string | null;
  readonly tags?: readonly string[] | null;
  /** Extra columns of the file the golden came from (DeepEval `custom_column_key_values`). */
  readonly customColumnKeyValues?: Readonly<Record<string, string>> | null;
  readonly multimodal?: boolean;
  /** The images the slugs of the fields name, by id (the object form JSON/JSONL carries). */
  readonly images?: Readonly<Record<string, MLLMImage | MLLMImageJSON>> | null;
}

/** The fields of a `Golden` (camelCase), as its constructor and the dataset loaders accept them. */
export const GOLDEN_FIELDS = [
  "input",
  "actualOutput",
  "expectedOutput",
  "context",
  "retrievalContext",
  "metadata",
  "additionalMetadata",
  "comments",
  "toolsCalled",
  "expectedTools",
  "sourceFile",
  "name",
  "tags",
  "customColumnKeyValues",
  "multimodal",
  "images",
] as const;

const GOLDEN_MARKER = Symbol.for("evalkern.deepeval.Golden");

function optionalStringRecord(owner: string, argument: string, value: unknown): Readonly<Record<string, string>> | null {
  const record = optionalRecord(owner, argument, value);
  if (record === null) return null;
  for (const [key, item] of Object.entries(record)) {
    if (typeof item !== "string") fail(owner, `${argument}.${key}`, "a string", item);
  }
  return record as Readonly<Record<string, string>>;
}

/**
 * One single-turn golden (DeepEval `Golden`): an input, and what a metric may compare the answer with.
 *
 * When to use: the rows of an `EvaluationDataset`; turn one into an `LLMTestCase` with
 * `toTestCase({ actualOutput })` once your application has answered.
 *
 * Details: accepts DeepEval's snake_case keys as well as camelCase (`expected_output` /
 * `expectedOutput`), validated like `LLMTestCase`. Unknown keys are refused.
 *
 * @example
 * const golden = Golden.from({ input: "2+2?", expected_output: "4" });
 * const testCase = golden.toTestCase({ actualOutput: "4" });
 */
export class Golden {
  readonly [GOLDEN_MARKER] = true;
  readonly input: string;
  readonly actualOutput: string | null;
  readonly expectedOutput: string | null;
  readonly context: readonly string[] | null;
  readonly retrievalContext: readonly RetrievalContextItem[] | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly comments: string | null;
  readonly toolsCalled: readonly ToolCall[] | null;
  readonly expectedTools: readonly ToolCall[] | null;
  readonly sourceFile: string | null;
  readonly name: string | null;
  readonly tags: readonly string[] | null;
  readonly customColumnKeyValues: Readonly<Record<string, string>> | null;
  readonly multimodal: boolean;
  /** The images in the fields (slug id → image); empty for a text-only golden. */
  readonly images: ReadonlyMap<string, MLLMImage>;

  constructor(init: GoldenInit | SnakeCased<GoldenInit>) {
    const owner = "Golden";
    const record = expectInit(owner, init, GOLDEN_FIELDS);
    const images = new ImageCollector(owner, imagesFromJSON(owner, record.images));
    this.input = images.text("input", record.input);
    this.actualOutput = optionalText(images, "actualOutput", record.actualOutput);
    this.expectedOutput = optionalText(images, "expectedOutput", record.expectedOutput);
    this.context = textList(images, "context", record.context);
    this.retrievalContext = toRetrievalContext(owner, "retrievalContext", record.retrievalContext, images);
    this.metadata = optionalRecord(owner, "metadata", aliased(owner, record, "metadata", "additionalMetadata"));
    this.comments = optionalString(owner, "comments", record.comments);
    this.toolsCalled = toToolCallList(owner, "toolsCalled", record.toolsCalled);
    this.expectedTools = toToolCallList(owner, "expectedTools", record.expectedTools);
    this.sourceFile = optionalString(owner, "sourceFile", record.sourceFile);
    this.name = optionalString(owner, "name", record.name);
    this.tags = optionalStringArray(owner, "tags", record.tags);
    this.customColumnKeyValues = optionalStringRecord(owner, "customColumnKeyValues", record.customColumnKeyValues);
    this.multimodal = optionalBoolean(owner, "multimodal", record.multimodal, false) || images.images.size > 0;
    this.images = images.images;
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is Golden {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[GOLDEN_MARKER] === true;
  }

  static from(value: Golden | GoldenInit | SnakeCased<GoldenInit>): Golden {
    return Golden.isInstance(value) ? value : new Golden(value);
  }

  get additionalMetadata(): Readonly<Record<string, unknown>> | null {
    return this.metadata;
  }

  /**
   * The `LLMTestCase` of this golden, with the application's answer (and what it retrieved or called)
   * filled in by `changes`.
   */
  toTestCase(
    changes: {
      actualOutput?: MultimodalText | null;
      retrievalContext?: LLMTestCaseInit["retrievalContext"];
      toolsCalled?: readonly (ToolCall | ToolCallInit)[] | null;
    } = {},
  ): LLMTestCase {
    return new LLMTestCase({
      input: this.input,
      actualOutput: changes.actualOutput !== undefined ? changes.actualOutput : this.actualOutput,
      expectedOutput: this.expectedOutput,
      context: this.context,
      retrievalContext: changes.retrievalContext !== undefined ? changes.retrievalContext : this.retrievalContext,
      metadata: this.metadata,
      comments: this.comments,
      toolsCalled: changes.toolsCalled !== undefined ? changes.toolsCalled : this.toolsCalled,
      expectedTools: this.expectedTools,
      name: this.name,
      tags: this.tags,
      multimodal: this.multimodal,
      ...(this.images.size > 0 ? { images: Object.fromEntries(this.images) } : {}),
    });
  }

  toJSON(): GoldenInit {
    return {
      input: this.input,
      actualOutput: this.actualOutput,
      expectedOutput: this.expectedOutput,
      context: this.context,
      retrievalContext: this.retrievalContext,
      metadata: this.metadata,
      comments: this.comments,
      toolsCalled: this.toolsCalled,
      expectedTools: this.expectedTools,
      sourceFile: this.sourceFile,
      name: this.name,
      tags: this.tags,
      customColumnKeyValues: this.customColumnKeyValues,
      multimodal: this.multimodal,
      ...(this.images.size > 0 ? { images: Object.fromEntries(this.images) } : {}),
    };
  }
}

/** The fields a `ConversationalGolden` is built from (DeepEval `ConversationalGolden`). */
export interface ConversationalGoldenInit {
  readonly scenario: string;
  readonly expectedOutcome?: string | null;
  readonly userDescription?: string | null;
  readonly context?: readonly string[] | null;
  readonly metadata?: Readonly<Record<string, unknown>> | null;
  readonly additionalMetadata?: Readonly<Record<string, unknown>> | null;
  readonly comments?: string | null;
  readonly name?: string | null;
  readonly tags?: readonly string[] | null;
  readonly turns?: readonly (Turn | TurnInit | SnakeCased<TurnInit>)[] | null;
  readonly sourceFile?: string | null;
  readonly customColumnKeyValues?: Readonly<Record<string, string>> | null;
}

/** The fields of a `ConversationalGolden` (camelCase). */
export const CONVERSATIONAL_GOLDEN_FIELDS = [
  "scenario",
  "expectedOutcome",
  "userDescription",
  "context",
  "metadata",
  "additionalMetadata",
  "comments",
  "name",
  "tags",
  "turns",
  "sourceFile",
  "customColumnKeyValues",
] as const;
const CONVERSATIONAL_GOLDEN_MARKER = Symbol.for("evalkern.deepeval.ConversationalGolden");

/**
 * One multi-turn golden (DeepEval `ConversationalGolden`): a scenario to play out, and the outcome
 * expected. `toTestCase(turns)` makes the `ConversationalTestCase` of a played conversation.
 *
 * @example
 * const golden = ConversationalGolden.from({ scenario: "Asks for a refund", expected_outcome: "Refund issued" });
 */
export class ConversationalGolden {
  readonly [CONVERSATIONAL_GOLDEN_MARKER] = true;
  readonly scenario: string;
  readonly expectedOutcome: string | null;
  readonly userDescription: string | null;
  readonly context: readonly string[] | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly comments: string | null;
  readonly name: string | null;
  readonly tags: readonly string[] | null;
  readonly turns: readonly Turn[] | null;
  readonly sourceFile: string | null;
  readonly customColumnKeyValues: Readonly<Record<string, string>> | null;

  constructor(init: ConversationalGoldenInit | SnakeCased<ConversationalGoldenInit>) {
    const owner = "ConversationalGolden";
    const record = expectInit(owner, init, CONVERSATIONAL_GOLDEN_FIELDS);
    this.scenario = requiredString(owner, "scenario", record.scenario);
    this.expectedOutcome = optionalString(owner, "expectedOutcome", record.expectedOutcome);
    this.userDescription = optionalString(owner, "userDescription", record.userDescription);
    this.context = optionalStringArray(owner, "context", record.context);
    this.metadata = optionalRecord(owner, "metadata", aliased(owner, record, "metadata", "additionalMetadata"));
    this.comments = optionalString(owner, "comments", record.comments);
    this.name = optionalString(owner, "name", record.name);
    this.tags = optionalStringArray(owner, "tags", record.tags);
    if (record.turns === undefined || record.turns === null) this.turns = null;
    else if (!Array.isArray(record.turns)) fail(owner, "turns", "an array of Turn or null", record.turns);
    else this.turns = Object.freeze(record.turns.map((turn: unknown) => Turn.from(turn as TurnInit)));
    this.sourceFile = optionalString(owner, "sourceFile", record.sourceFile);
    this.customColumnKeyValues = optionalStringRecord(owner, "customColumnKeyValues", record.customColumnKeyValues);
    Object.freeze(this);
  }

  static isInstance(value: unknown): value is ConversationalGolden {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CONVERSATIONAL_GOLDEN_MARKER] === true;
  }

  static from(value: ConversationalGolden | ConversationalGoldenInit | SnakeCased<ConversationalGoldenInit>): ConversationalGolden {
    return ConversationalGolden.isInstance(value) ? value : new ConversationalGolden(value);
  }

  /** The `ConversationalTestCase` of a played conversation (`turns` default: the golden's own). */
  toTestCase(turns?: readonly (Turn | TurnInit | SnakeCased<TurnInit>)[]): ConversationalTestCase {
    return new ConversationalTestCase({
      turns: turns ?? this.turns ?? [],
      scenario: this.scenario,
      expectedOutcome: this.expectedOutcome,
      userDescription: this.userDescription,
      context: this.context,
      metadata: this.metadata,
      comments: this.comments,
      name: this.name,
      tags: this.tags,
    });
  }

  toJSON(): ConversationalGoldenInit {
    return {
      scenario: this.scenario,
      expectedOutcome: this.expectedOutcome,
      userDescription: this.userDescription,
      context: this.context,
      metadata: this.metadata,
      comments: this.comments,
      name: this.name,
      tags: this.tags,
      turns: this.turns,
      sourceFile: this.sourceFile,
      customColumnKeyValues: this.customColumnKeyValues,
    };
  }
}
