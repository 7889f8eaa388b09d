// A judge pointed at the scripted server with test-friendly defaults: fast retries (no real backoff
// unless a test asks for it), short timeouts, no jitter.
import { OpenAICompatibleJudge, type OpenAICompatibleJudgeOptions } from "../../src/client.js";
import type { ScriptedServer } from "./server.js";

export function testJudge(server: ScriptedServer, options: OpenAICompatibleJudgeOptions = {}): OpenAICompatibleJudge {
  return new OpenAICompatibleJudge({
    baseURL: server.baseURL,
    apiKey: "test-key",
    model: "test-judge",
    timeoutMs: 5_000,
    env: {},
    ...options,
    retry: { initialDelayMs: 1, maxDelayMs: 5, jitter: 0, ...(options.retry ?? {}) },
  });
}
