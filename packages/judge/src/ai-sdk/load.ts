// The AI SDK adapter's optional packages, loaded on first use: `ai` (an optional peer dependency of
// @evalkern/judge) and the provider packages of prefixed model names (`@ai-sdk/anthropic`...). A package
// that is not installed is a `JudgeProviderPackageError` naming it; any other load failure is rethrown.
import { JudgeProviderPackageError } from "../errors.js";

export type AiModule = typeof import("ai");

/** Imports a module by its specifier (tests hand in their own). */
export type ModuleImporter = (specifier: string) => Promise<Record<string, unknown>>;

/** The runtime's own `import()`, for specifiers known only at run time (bundlers leave it alone). */
export const importModule: ModuleImporter = (specifier) => import(/* @vite-ignore */ specifier) as Promise<Record<string, unknown>>;

/** True when `error` says `specifier` itself could not be found (not one of its own imports failing). */
export function isMissingModule(error: unknown, specifier: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const notFound = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
  const missing = notFound || /Cannot find (package|module)|Failed to (resolve|load|fetch)/i.test(String(message));
  return missing && String(message).includes(specifier);
}

let ai: Promise<AiModule> | undefined;

/** The `ai` package, imported once; a typed error telling what to install when it is missing. */
export function loadAi(): Promise<AiModule> {
  ai ??= import("ai").catch((error: unknown) => {
    ai = undefined;
    if (!isMissingModule(error, "ai")) throw error;
    throw new JudgeProviderPackageError(
      "ai",
      null,
      "The AI SDK adapter needs the package 'ai' (the Vercel AI SDK, version 6): npm install ai",
      { cause: error },
    );
  });
  return ai;
}
