// What every layer of a judge call shares: the accounting state of one logical call, and argument checks.
import { JudgeConfigError, JudgeInputError } from "../errors.js";
import type { JudgeMessage, JudgeUsage } from "../model.js";

/** Usage and HTTP requests of one logical call (retries, re-asks and fallbacks included). */
export interface CallState {
  usage: JudgeUsage;
  requests: number;
}

export function checkNumber(value: unknown, argument: string, min: number, integer: boolean): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new JudgeConfigError(`${argument} must be ${integer ? "an integer" : "a number"} >= ${min}`, {
      argument,
      actual: String(value),
    });
  }
  return value;
}

function roleOk(role: unknown): role is JudgeMessage["role"] {
  return role === "system" || role === "user" || role === "assistant";
}

/** A message's content: a string, or a non-empty list of text and image_url parts (OpenAI's content parts). */
function contentOk(content: unknown): boolean {
  if (typeof content === "string") return true;
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every(
      (part: { type?: unknown; text?: unknown; image_url?: { url?: unknown } }) =>
        (part?.type === "text" && typeof part.text === "string") || (part?.type === "image_url" && typeof part.image_url?.url === "string"),
    )
  );
}

export function checkMessages(messages: unknown): readonly JudgeMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new JudgeInputError("request.messages must be a non-empty array", { argument: "request.messages" });
  }
  messages.forEach((m, index) => {
    if (typeof m !== "object" || m === null || !roleOk((m as JudgeMessage).role) || !contentOk((m as JudgeMessage).content)) {
      throw new JudgeInputError("each message needs a role (system|user|assistant) and string content (or text and image_url parts)", {
        argument: "request.messages",
        index,
      });
    }
  });
  return messages as JudgeMessage[];
}

/** The usage of a finished call: tokens so far, requests sent and the wall time since `started`. */
export function finishUsage(state: CallState, started: number): JudgeUsage {
  return { ...state.usage, requests: state.requests, latencyMs: Date.now() - started };
}
