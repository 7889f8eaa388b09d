// How the autoevals-shaped scorers find their judge: autoevals takes `client` (an OpenAI client) or
// `openAiApiKey` / `openAiBaseUrl` plus `model`; here `client` may also be any `JudgeModel` (the usual
// case: one `OpenAICompatibleJudge` shared by every scorer of a run, so its cache, limiter and ledger are).
// Without any of them the default judge of `configure({ judge })` / `context({ judge }, fn)` is used.
import type { Score } from "@evalkern/metrics/common";
import { OpenAICompatibleJudge } from "../client.js";
import { judgeFromModelName, resolveJudge } from "../defaults.js";
import { JudgeConfigError, JudgeInputError, UnsupportedCapabilityError } from "../errors.js";
import type { JudgeModel, JudgeSchema } from "../model.js";

export type { Score };

/** The part of an `openai` SDK client the scorers read to build a judge on the same server. */
export interface OpenAIClientLike {
  readonly baseURL: string;
  readonly apiKey?: string;
}

/** autoevals' client options, mapped onto a judge. */
export interface JudgeArgs {
  /** A `JudgeModel` (e.g. `OpenAICompatibleJudge`), or an `openai` SDK client (its base URL and key are used). */
  readonly client?: JudgeModel | OpenAIClientLike;
  /** autoevals' `openAiApiKey`: with `openAiBaseUrl`, a judge is built for `model`. */
  readonly openAiApiKey?: string;
  readonly openAiBaseUrl?: string;
}

/** The chat model a scorer uses when it is given an `openai` client or an API key but no model. */
export const DEFAULT_CHAT_MODEL = "gpt-4o";

function isJudge(value: unknown): value is JudgeModel {
  return typeof value === "object" && value !== null && typeof (value as JudgeModel).generate === "function";
}

/** The judge of a scorer call; `chatModel` names the chat model when one is built. */
export function scorerJudge(args: JudgeArgs, owner: string, chatModel: string | undefined): JudgeModel {
  const client = args.client;
  if (client !== undefined && client !== null) {
    if (isJudge(client)) {
      if (chatModel !== undefined && chatModel !== client.name) {
        throw new JudgeConfigError(
          `${owner}: model "${chatModel}" was given with a JudgeModel client named "${client.name}"; ` +
            "build the judge for that model, or leave model out",
          { argument: "model" },
        );
      }
      return client;
    }
    if (typeof (client as OpenAIClientLike).baseURL === "string") {
      const c = client as OpenAIClientLike;
      return new OpenAICompatibleJudge({
        model: chatModel ?? DEFAULT_CHAT_MODEL,
        baseURL: c.baseURL,
        ...(c.apiKey ? { apiKey: c.apiKey } : {}),
      });
    }
    throw new JudgeConfigError(`${owner}: client must be a JudgeModel or an openai client`, { argument: "client" });
  }
  if (args.openAiApiKey !== undefined || args.openAiBaseUrl !== undefined) {
    return judgeFromModelName(chatModel ?? DEFAULT_CHAT_MODEL, {
      ...(args.openAiApiKey !== undefined ? { apiKey: args.openAiApiKey } : {}),
      ...(args.openAiBaseUrl !== undefined ? { baseURL: args.openAiBaseUrl } : {}),
    });
  }
  return chatModel !== undefined ? resolveJudge(chatModel, owner) : resolveJudge(undefined, owner);
}

/** The judge's `embed`, or `UnsupportedCapabilityError` naming the scorer. */
export function embedderOf(judge: JudgeModel, owner: string): NonNullable<JudgeModel["embed"]> {
  const embed = judge.embed;
  if (typeof embed !== "function") {
    throw new UnsupportedCapabilityError("embeddings", `${owner} needs embeddings, and the judge ${judge.name} has no embed()`);
  }
  return embed.bind(judge);
}

/** A required string argument, or `JudgeInputError` (autoevals: "<Scorer> requires <key> value"). */
export function requireText(value: unknown, key: string, owner: string): string {
  if (typeof value !== "string") {
    throw new JudgeInputError(`${owner} requires ${key} value (a string)`, { argument: key });
  }
  return value;
}

/** autoevals' context: a string, or a list of strings joined with newlines. */
export function flattenContext(value: unknown, owner: string): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((x) => typeof x === "string")) return value.join("\n");
  throw new JudgeInputError(`${owner} requires context value (a string or a list of strings)`, { argument: "context" });
}

/** Chat settings of the LLM-based scorers (autoevals' `temperature` default 0, `maxTokens`). */
export interface ChatArgs {
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

/** One structured judge call as a single user message, booked under `metric`. */
export async function ask<T>(
  judge: JudgeModel,
  schema: JudgeSchema<T>,
  prompt: string,
  metric: string,
  chat: ChatArgs,
  sample?: number,
): Promise<T> {
  const result = await judge.generate<T>({
    messages: [{ role: "user", content: prompt }],
    schema,
    metric,
    temperature: chat.temperature ?? 0,
    ...(chat.maxTokens !== undefined ? { maxTokens: chat.maxTokens } : {}),
    ...(chat.signal ? { signal: chat.signal } : {}),
    ...(sample !== undefined ? { sample } : {}),
  });
  return result.value;
}
