// Node-only: the path of a grammar inside the `tree-sitter-wasms` package. Loaded on demand by
// tree-sitter.ts, never at import, so the rest of `@evalkern/metrics/dsrs` stays runtime-neutral.
import { createRequire } from "node:module";
import { TreeSitterNotInstalledError } from "../errors.js";

const require = createRequire(import.meta.url);

const isModuleNotFound = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND";

/**
 * The file path of grammar `file` in `tree-sitter-wasms`; `TreeSitterNotInstalledError` when that package
 * (an optional peer dependency) is not installed. `resolve` is Node's `require.resolve` (injectable).
 */
export function nodeGrammarPath(file: string, resolve: (id: string) => string = require.resolve): string {
  try {
    resolve("tree-sitter-wasms/package.json");
  } catch (error) {
    if (isModuleNotFound(error)) throw new TreeSitterNotInstalledError("tree-sitter-wasms", { cause: error });
    throw error;
  }
  return resolve(`tree-sitter-wasms/out/${file}`);
}
