// What bundlers load for ./node-grammars.js when they build for the browser (the `browser` field of
// package.json): no `node:module`. In a browser grammars have no default location: call
// configureTreeSitter({ loadGrammar, locateFile }) (tree-sitter.ts already says so before this).
import { GrammarUnavailableError } from "../errors.js";

export function nodeGrammarPath(file: string, _resolve?: (id: string) => string): string {
  throw new GrammarUnavailableError(
    "*",
    `no default location for ${file} in a browser build: call configureTreeSitter({ loadGrammar }) first`,
  );
}
