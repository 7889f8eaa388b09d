// The structured-output ladder (docs/spec/judges.md §10.2), for any provider: per call `json_schema` →
// `json_object` → prompt-only text, stepping down when the provider refuses a rung (remembered for later
// calls), dropping logprobs when they are refused, and re-asking after a reply that does not parse or
// validate. A provider plugs in a `Complete` function: one request for the given messages and rung.
import { JudgeOutputError } from "../errors.js";
import type { GenerateRequest, GenerateResult, JudgeMessage, JudgeSchema, JudgeUsage, OutputMode, TokenLogprob } from "../model.js";
import { ZERO_USAGE, addUsage } from "../usage.js";
import { finishUsage, type CallState } from "./call.js";
import { interpret, schemaInstruction, withInstruction } from "./structured.js";
import { CapabilityRejection } from "./transport.js";

/** One reply of a provider, as the ladder reads it. */
export interface LadderReply {
  /** False when the reply had no choice at all (asked again within the re-ask budget). */
  readonly hasChoice: boolean;
  readonly text: string;
  readonly finishReason: string | null;
  /** The provider's refusal message, if it sent one instead of an answer. */
  readonly refusal: string | null;
  readonly logprobs?: readonly TokenLogprob[];
  /** The model that answered (the provider's name for it, else the judge's). */
  readonly model: string;
  readonly systemFingerprint: string | null;
  /** Tokens and cost of this reply; requests are counted in `state.requests` by whoever sends them. */
  readonly usage: JudgeUsage;
}

export interface CompleteOptions {
  /** The call's generation parameters (temperature, maxTokens, seed, topP, topLogprobs, signal). */
  readonly request: GenerateRequest<unknown>;
  /** The rung: native schema, JSON mode, or text (the instruction is then already in the messages). */
  readonly mode: OutputMode | undefined;
  readonly logprobs: boolean;
  readonly state: CallState;
}

/**
 * One request to a provider. Throws a typed judge error carrying the usage so far, or a
 * `CapabilityRejection` when the provider refused the rung or the logprobs.
 */
export type Complete = (messages: readonly JudgeMessage[], options: CompleteOptions) => Promise<LadderReply>;

/** What the ladder learns about a model across calls (shared with the model's `capabilities`). */
export interface LadderCapabilities {
  supportsJsonSchema: boolean | undefined;
  supportsJsonObject: boolean | undefined;
  supportsLogprobs: boolean | undefined;
}

export interface LadderOptions {
  /** Extra asks after a reply that does not parse or validate. */
  readonly maxReasks: number;
  /** Re-ask with the bad reply and the error appended (true) or with the same request. */
  readonly reaskWithFeedback: boolean;
}

/** Where one call stands on the ladder. */
interface Climb {
  mode: OutputMode | undefined;
  logprobs: boolean;
  capabilitySteps: number;
  readonly fallbacks: string[];
}

/** The ladder of one model: its learned capabilities, the schemas it refused, and the provider's `complete`. */
export class StructuredLadder {
  private readonly rejectedSchemas = new Set<string>();

  constructor(
    private readonly complete: Complete,
    private readonly caps: LadderCapabilities,
    private readonly options: LadderOptions,
  ) {}

  /** The rung a call with `schema` starts on. */
  initialMode(schema: JudgeSchema<unknown>): OutputMode {
    if (this.caps.supportsJsonSchema !== false && !this.rejectedSchemas.has(schema.name)) return "json_schema";
    if (this.caps.supportsJsonObject !== false) return "json_object";
    return "text";
  }

  /** `generate` without cache or ledger: replies until one is usable, then the result with the whole call's usage. */
  async generate<T>(request: GenerateRequest<T>, messages: readonly JudgeMessage[]): Promise<GenerateResult<T>> {
    const started = Date.now();
    const state: CallState = { usage: { ...ZERO_USAGE }, requests: 0 };
    const schema = request.schema;
    const climb: Climb = {
      mode: schema ? this.initialMode(schema as JudgeSchema<unknown>) : undefined,
      logprobs: request.logprobs === true && this.caps.supportsLogprobs !== false,
      capabilitySteps: 0,
      fallbacks: [],
    };
    let conversation: readonly JudgeMessage[] = messages;
    let replies = 0;
    for (;;) {
      const sent = schema && climb.mode !== "json_schema" ? withInstruction(conversation, schemaInstruction(schema)) : conversation;
      let reply: LadderReply;
      try {
        const options = { request: request as GenerateRequest<unknown>, mode: climb.mode, logprobs: climb.logprobs, state };
        reply = await this.complete(sent, options);
      } catch (error) {
        if (this.stepDown(error, climb, schema as JudgeSchema<unknown> | undefined)) continue;
        throw error instanceof CapabilityRejection ? error.final : error;
      }
      replies++;
      state.usage = addUsage(state.usage, reply.usage);
      if (climb.mode === "json_schema" && schema && this.caps.supportsJsonSchema === undefined) this.caps.supportsJsonSchema = true;
      const base = {
        text: reply.text,
        ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
        cached: false,
        model: reply.model,
        finishReason: reply.finishReason,
        attempts: replies,
        fallbacks: climb.fallbacks,
        systemFingerprint: reply.systemFingerprint,
      };
      if (!reply.hasChoice) {
        if (replies > this.options.maxReasks) {
          const usage = finishUsage(state, started);
          throw new JudgeOutputError("empty", "the server returned no choices", { attempts: replies, text: "" }, { usage });
        }
        continue;
      }
      if (!schema) return { ...base, value: reply.text as T, usage: finishUsage(state, started) };
      const interpreted = await interpret(reply.text, reply.finishReason, reply.refusal, schema);
      if (interpreted.ok) {
        return { ...base, value: interpreted.value, usage: finishUsage(state, started), ...(climb.mode ? { outputMode: climb.mode } : {}) };
      }
      if (replies > this.options.maxReasks || interpreted.failure === "refusal") {
        throw new JudgeOutputError(
          interpreted.failure,
          `Judge output unusable after ${replies} repl${replies === 1 ? "y" : "ies"}: ${interpreted.message}`,
          { attempts: replies, text: reply.text, issues: interpreted.issues, schemaName: schema.name },
          { usage: finishUsage(state, started) },
        );
      }
      conversation = this.options.reaskWithFeedback ? reask(messages, reply.text, interpreted.message) : messages;
    }
  }

  /** Take the next rung after a capability rejection; false when there is none (the caller throws). */
  private stepDown(error: unknown, climb: Climb, schema: JudgeSchema<unknown> | undefined): boolean {
    if (!(error instanceof CapabilityRejection) || climb.capabilitySteps >= 4) return false;
    climb.capabilitySteps++;
    if (error.capability === "logprobs" && climb.logprobs) {
      climb.logprobs = false;
      this.caps.supportsLogprobs = false;
      climb.fallbacks.push("logprobs-dropped");
      return true;
    }
    if (error.capability === "response_format" && schema && climb.mode === "json_schema") {
      if (error.perSchema) this.rejectedSchemas.add(schema.name);
      else this.caps.supportsJsonSchema = false;
      climb.mode = this.caps.supportsJsonObject === false ? "text" : "json_object";
      climb.fallbacks.push(`json_schema->${climb.mode}`);
      return true;
    }
    if (error.capability === "response_format" && schema && climb.mode === "json_object") {
      this.caps.supportsJsonObject = false;
      climb.mode = "text";
      climb.fallbacks.push("json_object->text");
      return true;
    }
    return false;
  }
}

/** The conversation of a re-ask: the request, the unusable reply and why it could not be used. */
function reask(messages: readonly JudgeMessage[], text: string, why: string): readonly JudgeMessage[] {
  return [
    ...messages,
    { role: "assistant", content: text },
    {
      role: "user",
      content:
        `Your previous reply could not be used: ${why}. ` +
        "Answer the same request again, replying with only a JSON object that satisfies the required schema.",
    },
  ];
}
