// Loading grammars ahead of time, apart from the configuration module so that nothing imports in a circle
// (tree-sitter.ts reads the configuration; this loads tree-sitter.ts on demand).
import type { SyntaxLanguage } from "./languages.js";

/**
 * Load web-tree-sitter and the grammars of `names` ahead of time, so the first evaluation does not pay
 * for it. Throws `TreeSitterNotInstalledError` when web-tree-sitter or tree-sitter-wasms is not installed.
 */
export async function preloadLanguages(names: readonly SyntaxLanguage[]): Promise<void> {
  const { getLanguage } = await import("./tree-sitter.js");
  await Promise.all(names.map((name) => getLanguage(name)));
}
