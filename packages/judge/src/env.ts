// Environment variables without assuming a runtime: Node/Bun `process.env`, Deno `Deno.env.get` (which
// throws without --allow-env; treated as unset), nothing in browsers.

/** A source of environment variables. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** The variables the judge reads. */
export const ENV = Object.freeze({
  baseURL: "EVALKERN_JUDGE_BASE_URL",
  apiKey: "EVALKERN_JUDGE_API_KEY",
  model: "EVALKERN_JUDGE_MODEL",
  /** Set to talk to Azure OpenAI (`api-key` header, `api-version` query, deployments in the path). */
  apiVersion: "EVALKERN_JUDGE_API_VERSION",
  /** Embedding model of `embed` (default `text-embedding-3-small`). */
  embeddingModel: "EVALKERN_JUDGE_EMBEDDING_MODEL",
  /** Moderation model of `moderate` (default: the server's). */
  moderationModel: "EVALKERN_JUDGE_MODERATION_MODEL",
});

/** The value of `name` from `env` when given, else from the runtime; empty strings count as unset. */
export function readEnv(name: string, env?: EnvSource): string | undefined {
  let value: string | undefined;
  if (env) {
    value = env[name];
  } else {
    const g = globalThis as {
      process?: { env?: Record<string, string | undefined> };
      Deno?: { env?: { get?(key: string): string | undefined } };
    };
    if (g.process?.env) value = g.process.env[name];
    else if (g.Deno?.env?.get) {
      try {
        value = g.Deno.env.get(name);
      } catch {
        value = undefined;
      }
    }
  }
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
