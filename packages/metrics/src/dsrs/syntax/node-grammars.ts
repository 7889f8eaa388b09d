// Node-only: the path of a grammar inside the `tree-sitter-wasms` package. Loaded on demand by
// tree-sitter.ts, never at import, so the rest of `@evalkern/metrics/dsrs` stays runtime-neutral.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export function nodeGrammarPath(file: string): string {
  return require.resolve(`tree-sitter-wasms/out/${file}`);
}
